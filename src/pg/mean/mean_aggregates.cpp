// Transition and combine functions of the mean/proportion aggregates. The state
// is a live ldp.mean_summary (common/summary_datum.hpp), updated in place.
#include "pg/mean/mean_glue.hpp"

using ldp::MeanMechanism;

namespace {

// A mechanism's aggregate, one row each: <m>_trans(state, report, epsilon [, max_value
// [, gamma]]) (the parameters the core's MeanMechanismInfo says it uses), its argument
// layout, which the transition functions read.
struct MeanAggregate {
  MeanMechanism id;
  ldp_pg::TransLayout trans;
};
constexpr MeanAggregate kRrAgg{MeanMechanism::RR, {"rr_trans", 1}};                      // (report boolean, ...)
constexpr MeanAggregate kOneBitAgg{MeanMechanism::OneBit, {"onebit_mean_trans", 1}};     // (report boolean, ...)
constexpr MeanAggregate kLaplaceAgg{MeanMechanism::Laplace, {"laplace_mean_trans", 1}};  // (report float8, ...)
constexpr MeanAggregate kPiecewiseAgg{MeanMechanism::Piecewise, {"piecewise_mean_trans", 1}};

// A new live state of this aggregate: empty, or holding a state it was handed that
// is not its own live summary (MeanGlue::adopt: merged, which refuses another
// mechanism or other parameters, 22023).
__attribute__((noinline, cold)) ldp::MeanSummary* mean_state_new(FunctionCallInfo fcinfo, const MeanAggregate& a,
                                                                 Datum* state) {
  ldp_pg::LiveSummary* live = mean_live_new(fcinfo, a.id, mean_params_args(fcinfo, a.id, a.trans.param()));
  return MeanGlue::adopt(fcinfo, live, ldp::mean_summary_merge, state);
}

// The state for this row: a new summary on the first non-NULL report, else the
// aggregate's own state (modified in place: the call site is an aggregate's, so
// the state is a temporary of this aggregate). *state is set to the datum to return.
__attribute__((always_inline)) inline ldp::MeanSummary* mean_state(FunctionCallInfo fcinfo, const MeanAggregate& a,
                                                                  Datum* state) {
  ldp_pg::TransSite* site = ldp_pg::trans_site(fcinfo, a.trans);
  if (unlikely(PG_ARGISNULL(0))) return mean_state_new(fcinfo, a, state);
  ldp_pg::LiveSummary* live = MeanGlue::own_state(fcinfo);
  if (unlikely(live == nullptr || MeanGlue::core(live)->mechanism != static_cast<uint8_t>(a.id)))
    return mean_state_new(fcinfo, a, state);
  *state = PG_GETARG_DATUM(0);
  ldp::MeanSummary* st = MeanGlue::core(live);
  if (site->params_stable) return st;
  const int nargs = PG_NARGS(), first = a.trans.param();
  ldp::MeanParams p;
  p.epsilon = ldp_param_float8(fcinfo, first, "epsilon");
  if (nargs > first + 1) p.max_value = ldp_param_float8(fcinfo, first + 1, "max_value");
  if (nargs > first + 2) p.gamma = ldp_param_float8(fcinfo, first + 2, "gamma");
  if (unlikely(!ldp::same_params(*st, p)))
    ldp_pg::core_raise([&] { ldp::throw_params_changed(*st, p); });
  return st;
}

// report boolean: RR, 1BitMean
Datum bit_trans(FunctionCallInfo fcinfo, const MeanAggregate& a) {
  if (PG_ARGISNULL(1)) {  // NULL reports are ignored, as sum() ignores them
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  Datum state;
  ldp::MeanSummary* st = mean_state(fcinfo, a, &state);
  ldp::mean_add_bit(st, PG_GETARG_BOOL(1));
  PG_RETURN_DATUM(state);
}

// The reports mean_try_add_real leaves (impossible ones, tiny squares): out of
// line, so that the transition function itself needs no exception handling.
__attribute__((noinline)) void real_add_general(ldp::MeanSummary* st, double y) {
  LDP_CORE(ldp::mean_add_real(st, y));
}

// report float8: Laplace, piecewise
Datum real_trans(FunctionCallInfo fcinfo, const MeanAggregate& a) {
  if (PG_ARGISNULL(1)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  Datum state;
  ldp::MeanSummary* st = mean_state(fcinfo, a, &state);
  double y = PG_GETARG_FLOAT8(1);
  if (unlikely(!ldp::mean_try_add_real(st, y))) real_add_general(st, y);
  PG_RETURN_DATUM(state);
}

}  // namespace

// One line per mechanism.
LDP_FUNCTION(ldp_rr_trans) { return bit_trans(fcinfo, kRrAgg); }
LDP_FUNCTION(ldp_onebit_mean_trans) { return bit_trans(fcinfo, kOneBitAgg); }
LDP_FUNCTION(ldp_laplace_mean_trans) { return real_trans(fcinfo, kLaplaceAgg); }
LDP_FUNCTION(ldp_piecewise_mean_trans) { return real_trans(fcinfo, kPiecewiseAgg); }

// Strict combine function (also rollup's transition; SummaryGlue::combine).
LDP_FUNCTION(ldp_mean_combine) { return MeanGlue::combine(fcinfo, mean_live_copy, ldp::mean_summary_merge); }

// Final function of the real-valued aggregates and of rollup (declared by 0.3.0):
// the summary in its stored form, as every function returns it.
LDP_FUNCTION(ldp_mean_final) { PG_RETURN_DATUM(MeanGlue::stored(MeanGlue::arg(fcinfo, 0))); }
