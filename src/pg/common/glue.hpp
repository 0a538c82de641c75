// The thin layer between PostgreSQL's fmgr and the core
// (CONTRIBUTING.md#rules-for-c-inside-postgresql, five rules).
//
// - LDP_CORE(statements) runs core code inside try/catch; a caught exception is
//   copied into a trivially destructible CoreError and raised with ereport only
//   after the catch block has ended, so no C++ exception crosses into PostgreSQL
//   and no destructor is skipped by longjmp. A cancel the core noticed
//   (ldp::Interrupted, common/interrupt.hpp) becomes PostgreSQL's own there:
//   CHECK_FOR_INTERRUPTS, then 57014 if that returned.
// - The limits of a decode (common/decode_limits.hpp) come from the settings
//   ldp.max_decode_work and ldp.max_decode_memory: decode_limits().
// - Summaries: common/summary_datum.hpp.
#pragma once

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "pg/common/pg_compat.hpp"  // the differences between PostgreSQL 15, 16, 17 and 18
}

#include <cmath>
#include <exception>
#include <new>

#include "core/common/decode_limits.hpp"
#include "core/common/error.hpp"

namespace ldp_pg {

constexpr int kCoreOutOfMemory = -1, kCoreInterrupted = -2;
struct CoreError {
  int kind;  // ldp::ErrorKind, kCoreOutOfMemory or kCoreInterrupted
  char message[1024];
};

void capture_exception(CoreError* err) noexcept;  // call inside catch(...)
[[noreturn]] void raise_core_error(const CoreError& err);

[[noreturn]] void raise_not_finite(double x, const char* what);

// The limits a decode runs under: the settings ldp.max_decode_work and
// ldp.max_decode_memory (a superuser's; -1: none), named in its refusals.
ldp::DecodeLimits decode_limits();

// Defines the collections' settings (ldp.clock_offset; collections/close_due.cpp): called
// by the module's start, _PG_init (common/settings.cpp), the one place settings are made.
void define_collection_settings();

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

// An adopted state holds at most this many reports, so that the reports one query
// adds (counted without an overflow check on the hot path) cannot overflow its count.
constexpr int64 kMaxAdoptedReports = INT64CONST(1) << 62;
[[noreturn]] void raise_adopted_too_large(int64 n);

// What the first call of a transition function learns about its call site,
// kept in fn_extra: the call is an aggregate's (so the state may be updated in
// place), and whether the parameter arguments (transition function arguments
// first_param and after) are constants of the query, so that they cannot change
// between rows and need no per-row check. Raises an error outside an aggregate.
struct TransSite {
  bool params_stable;
};
TransSite* trans_site_init(FunctionCallInfo fcinfo, const char* fn, int first_param);
inline TransSite* trans_site(FunctionCallInfo fcinfo, const char* fn, int first_param) {
  auto* site = static_cast<TransSite*>(fcinfo->flinfo->fn_extra);
  return likely(site != nullptr) ? site : trans_site_init(fcinfo, fn, first_param);
}

// A transition function's argument layout, declared by its mechanism's row in the
// family's glue (the aggregates' rows of <family>_aggregates.cpp, heavy_glue.hpp's):
// fn(state, the report's columns 1..report_columns, then its parameters from param()
// on: epsilon and the family's others, or heavy hitters' protocol). The transition
// functions read their arguments' positions from it.
struct TransLayout {
  const char* fn;      // its SQL name: messages, the transition site
  int report_columns;  // the report: arguments 1..report_columns
  constexpr int param() const { return report_columns + 1; }  // the first parameter
};
inline TransSite* trans_site(FunctionCallInfo fcinfo, const TransLayout& t) {
  return trans_site(fcinfo, t.fn, t.param());
}

}  // namespace ldp_pg

#define LDP_CORE(...)                                                  \
  do {                                                                 \
    ::ldp_pg::CoreError ldp_core_error_;                               \
    if (!::ldp_pg::core_try(&ldp_core_error_, [&]() { __VA_ARGS__; })) \
      ::ldp_pg::raise_core_error(ldp_core_error_);                     \
  } while (0)

namespace ldp_pg {
// Raises the error that core code f() throws, out of line: for the error paths
// of hot functions, whose own frames then hold no CoreError.
template <class F>
[[noreturn]] __attribute__((noinline, cold)) void core_raise(F&& f) {
  LDP_CORE(f());
  elog(ERROR, "ldp: an expected core error was not raised");
  pg_unreachable();
}
}  // namespace ldp_pg

// Declares a V1 function callable from SQL (C linkage).
#define LDP_FUNCTION(name)             \
  extern "C" {                         \
  PGDLLEXPORT Datum name(PG_FUNCTION_ARGS); \
  PG_FUNCTION_INFO_V1(name);           \
  }                                    \
  Datum name(PG_FUNCTION_ARGS)

namespace ldp_pg {

// Every number an accessor returns is finite, or the call fails with 22003
// (numeric_value_out_of_range) naming `what`: never a silent Inf or NaN.
inline double finite_result(double x, const char* what) {
  if (likely(std::isfinite(x))) return x;
  raise_not_finite(x, what);
}

// A composite result (the function's OUT columns) from n datums.
Datum composite_result(FunctionCallInfo fcinfo, const Datum* values, const bool* nulls, int n);

}  // namespace ldp_pg

// A float8 argument that must not be NULL (mechanism parameters).
[[noreturn]] void ldp_null_param(const char* name);
inline double ldp_param_float8(FunctionCallInfo fcinfo, int argno, const char* name) {
  if (unlikely(PG_ARGISNULL(argno))) ldp_null_param(name);
  return PG_GETARG_FLOAT8(argno);
}
// An int parameter that must not be NULL (k, hashes, width).
inline int64 ldp_param_int4(FunctionCallInfo fcinfo, int argno, const char* name) {
  if (unlikely(PG_ARGISNULL(argno))) ldp_null_param(name);
  return PG_GETARG_INT32(argno);
}

// A report of several columns (arguments first..last): true when all of them are NULL
// (the row is skipped), error 22004 when only some are.
[[noreturn]] void ldp_partial_null_report(const char* what);
inline bool ldp_report_is_null(FunctionCallInfo fcinfo, int first, int last) {
  bool all = true, any = false;
  for (int a = first; a <= last; ++a) {
    all = all && PG_ARGISNULL(a);
    any = any || PG_ARGISNULL(a);
  }
  if (unlikely(any && !all)) ldp_partial_null_report("some of its columns are NULL");
  return all;
}
// The report of a transition function of this layout (its columns 1..report_columns).
inline bool ldp_report_is_null(FunctionCallInfo fcinfo, const ldp_pg::TransLayout& t) {
  return ldp_report_is_null(fcinfo, 1, t.report_columns);
}
