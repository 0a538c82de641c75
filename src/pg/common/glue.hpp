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

#include <cmath>
#include <exception>
#include <new>

#include "common/error.hpp"

namespace ldp_pg {

struct CoreError {
  int kind;  // ldp::ErrorKind, or -1 for out of memory
  char message[1024];
};

void capture_exception(CoreError* err) noexcept;  // call inside catch(...)
[[noreturn]] void raise_core_error(const CoreError& err);

[[noreturn]] void raise_not_finite(double x, const char* what);

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

// The padding word of a summary that one of our transition functions created (or
// adopted): a live aggregation state, a memory image built and updated only by this
// code. Every other state a transition function is handed — a user-defined
// aggregate's initcond over ldp's transition functions, read by the input function
// in its stored form, of any mechanism and parameters — is validated, checked against
// this aggregate's mechanism and parameters and copied into a new state first.
constexpr int32 kLiveStateTag = 0x54415453;  // "STAT"
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

// A summary argument (Var: varlena prefix + core struct s), detoasted, its core
// part checked by check(const Core&, size_t size).
template <class Var, class Check>
const Var* summary_arg(FunctionCallInfo fcinfo, int argno, Check check) {
  auto* v = reinterpret_cast<const Var*>(PG_DETOAST_DATUM(PG_GETARG_DATUM(argno)));
  size_t size = VARSIZE(v) >= offsetof(Var, s) ? VARSIZE(v) - offsetof(Var, s) : 0;
  LDP_CORE(check(v->s, size));
  return v;
}

// A copy of a checked summary argument v that this call may modify: v itself
// when detoasting already made a fresh copy, else a palloc'd copy.
template <class Var>
Var* summary_arg_copy(FunctionCallInfo fcinfo, int argno, const Var* v) {
  if (reinterpret_cast<Pointer>(const_cast<Var*>(v)) != DatumGetPointer(PG_GETARG_DATUM(argno)))
    return const_cast<Var*>(v);
  auto* c = static_cast<Var*>(palloc(VARSIZE(v)));
  memcpy(c, v, VARSIZE(v));
  return c;
}

// The first argument of a strict combine function (also rollup's transition),
// as a summary this call may update: the aggregate's own state in place, or a
// detoasted copy. PostgreSQL initializes the state with a plain copy of the
// first non-NULL input, which may still be packed or compressed.
template <class Var>
Var* combine_target(FunctionCallInfo fcinfo, Var* (*copy_arg)(FunctionCallInfo, int),
                    const Var* (*checked_arg)(FunctionCallInfo, int)) {
  auto* raw = reinterpret_cast<struct varlena*>(DatumGetPointer(PG_GETARG_DATUM(0)));
  if (AggCheckCallContext(fcinfo, nullptr) && !VARATT_IS_EXTENDED(raw)) {
    // Validates without copying: the state itself, unless checked_arg had to
    // convert a summary stored in an earlier memory layout (then a fresh copy).
    return const_cast<Var*>(checked_arg(fcinfo, 0));
  }
  return copy_arg(fcinfo, 0);
}

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
