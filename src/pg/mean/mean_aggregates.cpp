// Transition and combine functions of the mean/proportion aggregates. The state
// is ldp.mean_summary itself, updated in place inside the aggregate context.
#include "mean/mean_glue.hpp"

using ldp::MeanMechanism;

namespace {

// A new live state of this aggregate: empty, or holding a state it was handed that
// is not one of ours (kLiveStateTag): validated and unpacked by mean_var_arg, then
// merged, which refuses another mechanism or other parameters (22023).
__attribute__((noinline, cold)) MeanVar* mean_state_new(FunctionCallInfo fcinfo, MeanMechanism id) {
  MeanVar* st = mean_var_new(id, mean_params_args(fcinfo, id, 2));
  if (!PG_ARGISNULL(0)) {
    const MeanVar* given = mean_var_arg(fcinfo, 0);
    LDP_CORE(ldp::mean_summary_merge(&st->s, given->s));
  }
  if (unlikely(st->s.n > ldp_pg::kMaxAdoptedReports)) ldp_pg::raise_adopted_too_large(st->s.n);
  st->pad_ = ldp_pg::kLiveStateTag;
  return st;
}

// The state for this row: a new summary on the first non-NULL report, else the
// aggregate's own state (modified in place: the call site is an aggregate's, so
// the state is a temporary of this aggregate). The SQL signatures fix the
// argument layout: (state, report, epsilon [, max_value [, gamma]]).
__attribute__((always_inline)) inline MeanVar* mean_state(FunctionCallInfo fcinfo, MeanMechanism id,
                                                        const char* fn) {
  ldp_pg::TransSite* site = ldp_pg::trans_site(fcinfo, fn, 2);
  if (unlikely(PG_ARGISNULL(0))) return mean_state_new(fcinfo, id);
  auto* st = reinterpret_cast<MeanVar*>(PG_GETARG_POINTER(0));
  if (unlikely(st->pad_ != ldp_pg::kLiveStateTag || st->s.mechanism != static_cast<uint8_t>(id)))
    return mean_state_new(fcinfo, id);
  if (site->params_stable) return st;
  int nargs = PG_NARGS();
  ldp::MeanParams p;
  p.epsilon = ldp_param_float8(fcinfo, 2, "epsilon");
  if (nargs > 3) p.max_value = ldp_param_float8(fcinfo, 3, "max_value");
  if (nargs > 4) p.gamma = ldp_param_float8(fcinfo, 4, "gamma");
  if (unlikely(!ldp::same_params(st->s, p)))
    ldp_pg::core_raise([&] { ldp::throw_params_changed(st->s, p); });
  return st;
}

// report boolean: RR, 1BitMean
Datum bit_trans(FunctionCallInfo fcinfo, MeanMechanism id, const char* fn) {
  if (PG_ARGISNULL(1)) {  // NULL reports are ignored, as sum() ignores them
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  MeanVar* st = mean_state(fcinfo, id, fn);
  ldp::mean_add_bit(&st->s, PG_GETARG_BOOL(1));
  PG_RETURN_MEAN_VAR(st);
}

// The reports mean_try_add_real leaves (impossible ones, tiny squares): out of
// line, so that the transition function itself needs no exception handling.
__attribute__((noinline)) void real_add_general(MeanVar* st, double y) {
  LDP_CORE(ldp::mean_add_real(&st->s, y));
}

// report float8: Laplace, piecewise
Datum real_trans(FunctionCallInfo fcinfo, MeanMechanism id, const char* fn) {
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  MeanVar* st = mean_state(fcinfo, id, fn);
  double y = PG_GETARG_FLOAT8(1);
  if (unlikely(!ldp::mean_try_add_real(&st->s, y))) real_add_general(st, y);
  PG_RETURN_MEAN_VAR(st);
}

}  // namespace

// One line per mechanism.
LDP_FUNCTION(ldp_rr_trans) { return bit_trans(fcinfo, MeanMechanism::RR, "rr_trans"); }
LDP_FUNCTION(ldp_onebit_mean_trans) {
  return bit_trans(fcinfo, MeanMechanism::OneBit, "onebit_mean_trans");
}
LDP_FUNCTION(ldp_laplace_mean_trans) {
  return real_trans(fcinfo, MeanMechanism::Laplace, "laplace_mean_trans");
}
LDP_FUNCTION(ldp_piecewise_mean_trans) {
  return real_trans(fcinfo, MeanMechanism::Piecewise, "piecewise_mean_trans");
}

// Strict combine function (also rollup's transition): PostgreSQL copies the
// first non-NULL input into the aggregate context as the initial state, which
// may still be packed or compressed, so the state is detoasted when needed.
LDP_FUNCTION(ldp_mean_combine) {
  MeanVar* into = ldp_pg::combine_target(fcinfo, mean_var_arg_copy, mean_var_arg);
  const MeanVar* from = mean_var_arg(fcinfo, 1);
  LDP_CORE(ldp::mean_summary_merge(&into->s, from->s));
  PG_RETURN_MEAN_VAR(into);
}

// Final function of the real-valued aggregates and of rollup: the summary in its
// stored form (mean_var_stored); a memory image of a bit mechanism as it is.
LDP_FUNCTION(ldp_mean_final) {
  const MeanVar* v = mean_var_arg(fcinfo, 0);
  bool real = false;
  LDP_CORE(real = ldp::mean_mechanism(v->s.mech()).real_valued);
  if (!real) PG_RETURN_MEAN_VAR(const_cast<MeanVar*>(v));
  PG_RETURN_MEAN_VAR(mean_var_stored(v->s));
}
