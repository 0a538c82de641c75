// Transition and combine functions of the mean/proportion aggregates. The state
// is a live ldp.mean_summary (common/summary_datum.hpp), updated in place.
#include "pg/mean/mean_glue.hpp"

using ldp::MeanMechanism;

namespace {

// A new live state of this aggregate: empty, or holding a state it was handed that
// is not its own live summary: read and validated by mean_arg, then merged, which
// refuses another mechanism or other parameters (22023).
__attribute__((noinline, cold)) ldp::MeanSummary* mean_state_new(FunctionCallInfo fcinfo,
                                                                 MeanMechanism id, Datum* state) {
  ldp_pg::LiveSummary* live = mean_live_new(fcinfo, id, mean_params_args(fcinfo, id, 2));
  ldp::MeanSummary* st = mean_core(live);
  if (!PG_ARGISNULL(0)) {
    const ldp::MeanSummary& given = mean_arg(fcinfo, 0);
    LDP_CORE(ldp::mean_summary_merge(st, given));
  }
  if (unlikely(st->n > ldp_pg::kMaxAdoptedReports)) ldp_pg::raise_adopted_too_large(st->n);
  *state = live->rw_datum();
  return st;
}

// The state for this row: a new summary on the first non-NULL report, else the
// aggregate's own state (modified in place: the call site is an aggregate's, so
// the state is a temporary of this aggregate). The SQL signatures fix the
// argument layout: (state, report, epsilon [, max_value [, gamma]]).
// *state is set to the datum to return.
__attribute__((always_inline)) inline ldp::MeanSummary* mean_state(FunctionCallInfo fcinfo,
                                                                  MeanMechanism id, const char* fn,
                                                                  Datum* state) {
  ldp_pg::TransSite* site = ldp_pg::trans_site(fcinfo, fn, 2);
  if (unlikely(PG_ARGISNULL(0))) return mean_state_new(fcinfo, id, state);
  ldp_pg::LiveSummary* live = ldp_pg::live_rw_arg(fcinfo, 0, &kMeanCodec);
  if (unlikely(live == nullptr || mean_core(live)->mechanism != static_cast<uint8_t>(id)))
    return mean_state_new(fcinfo, id, state);
  *state = PG_GETARG_DATUM(0);
  ldp::MeanSummary* st = mean_core(live);
  if (site->params_stable) return st;
  int nargs = PG_NARGS();
  ldp::MeanParams p;
  p.epsilon = ldp_param_float8(fcinfo, 2, "epsilon");
  if (nargs > 3) p.max_value = ldp_param_float8(fcinfo, 3, "max_value");
  if (nargs > 4) p.gamma = ldp_param_float8(fcinfo, 4, "gamma");
  if (unlikely(!ldp::same_params(*st, p)))
    ldp_pg::core_raise([&] { ldp::throw_params_changed(*st, p); });
  return st;
}

// report boolean: RR, 1BitMean
Datum bit_trans(FunctionCallInfo fcinfo, MeanMechanism id, const char* fn) {
  if (PG_ARGISNULL(1)) {  // NULL reports are ignored, as sum() ignores them
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  Datum state;
  ldp::MeanSummary* st = mean_state(fcinfo, id, fn, &state);
  ldp::mean_add_bit(st, PG_GETARG_BOOL(1));
  PG_RETURN_DATUM(state);
}

// The reports mean_try_add_real leaves (impossible ones, tiny squares): out of
// line, so that the transition function itself needs no exception handling.
__attribute__((noinline)) void real_add_general(ldp::MeanSummary* st, double y) {
  LDP_CORE(ldp::mean_add_real(st, y));
}

// report float8: Laplace, piecewise
Datum real_trans(FunctionCallInfo fcinfo, MeanMechanism id, const char* fn) {
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  Datum state;
  ldp::MeanSummary* st = mean_state(fcinfo, id, fn, &state);
  double y = PG_GETARG_FLOAT8(1);
  if (unlikely(!ldp::mean_try_add_real(st, y))) real_add_general(st, y);
  PG_RETURN_DATUM(state);
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

// Strict combine function (also rollup's transition): the aggregate's own live
// summary is merged into in place; any other first argument (PostgreSQL's copy of
// the first non-NULL input, a direct call) is copied into a new live summary.
LDP_FUNCTION(ldp_mean_combine) {
  ldp_pg::LiveSummary* into = ldp_pg::live_rw_arg(fcinfo, 0, &kMeanCodec);
  if (into == nullptr) into = mean_live_copy(fcinfo, mean_arg(fcinfo, 0));
  const ldp::MeanSummary& from = mean_arg(fcinfo, 1);
  LDP_CORE(ldp::mean_summary_merge(mean_core(into), from));
  PG_RETURN_DATUM(into->rw_datum());
}

// Final function of the real-valued aggregates and of rollup (declared by 0.3.0):
// the summary in its stored form, as every function returns it.
LDP_FUNCTION(ldp_mean_final) { PG_RETURN_DATUM(mean_stored(mean_arg(fcinfo, 0))); }
