// The thin layer between PostgreSQL's fmgr and the core (DESIGN.md, five rules).
//
// - LDP_CORE(statements) runs core code inside try/catch; a caught exception is
//   copied into a trivially destructible CoreError and raised with ereport only
//   after the catch block has ended, so no C++ exception crosses into PostgreSQL
//   and no destructor is skipped by longjmp.
// - Summaries are flat core structs stored after an 8-byte varlena prefix.
#pragma once

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/builtins.h"
}

#include <exception>
#include <new>

#include "error.hpp"

namespace ldp_pg {

struct CoreError {
  int kind;  // ldp::ErrorKind, or -1 for out of memory
  char message[1024];
};

void capture_exception(CoreError* err) noexcept;  // call inside catch(...)
[[noreturn]] void raise_core_error(const CoreError& err);

template <class F>
inline bool core_try(CoreError* err, F&& f) noexcept {
  try {
    f();
    return true;
  } catch (...) {
    capture_exception(err);
    return false;
  }
}

}  // namespace ldp_pg

#define LDP_CORE(...)                                                  \
  do {                                                                 \
    ::ldp_pg::CoreError ldp_core_error_;                               \
    if (!::ldp_pg::core_try(&ldp_core_error_, [&]() { __VA_ARGS__; })) \
      ::ldp_pg::raise_core_error(ldp_core_error_);                     \
  } while (0)

// Declares a V1 function callable from SQL (C linkage).
#define LDP_FUNCTION(name)             \
  extern "C" {                         \
  PGDLLEXPORT Datum name(PG_FUNCTION_ARGS); \
  PG_FUNCTION_INFO_V1(name);           \
  }                                    \
  Datum name(PG_FUNCTION_ARGS)

// A float8 argument that must not be NULL (mechanism parameters).
[[noreturn]] void ldp_null_param(const char* name);
inline double ldp_param_float8(FunctionCallInfo fcinfo, int argno, const char* name) {
  if (unlikely(PG_ARGISNULL(argno))) ldp_null_param(name);
  return PG_GETARG_FLOAT8(argno);
}
