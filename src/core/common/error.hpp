// Errors raised by the core. The core never talks to PostgreSQL: it throws
// ldp::Error with a category; the glue maps the category to a SQLSTATE after the
// catch block has ended (CONTRIBUTING.md#rules-for-c-inside-postgresql, rule 1).
#pragma once

#include <cstdarg>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace ldp {

enum class ErrorKind {
  InvalidParameter,      // 22023 invalid_parameter_value
  InvalidText,           // 22P02 invalid_text_representation
  InvalidBinary,         // 22P03 invalid_binary_representation
  ImpossibleReport,      // 22000 class: a report the declared mechanism cannot produce
  OutOfRange,            // 22003 numeric_value_out_of_range
  LimitExceeded,         // 54000 program_limit_exceeded: a decode over its limits (common/decode_limits.hpp)
  Internal,              // XX000
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

// printf-style construction: throw_error(ErrorKind::InvalidParameter, "epsilon must be > 0, got %g", e)
[[noreturn]] void throw_error(ErrorKind kind, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

}  // namespace ldp
