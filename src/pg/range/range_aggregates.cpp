// The transition and combine functions of ldp.range_agg(level, hadamard_row, report, protocol)
// and of ldp.range_agg(report, protocol), Square Wave's. The state is a live ldp.range_summary
// (common/summary_datum.hpp), updated in place; the argument layouts are kRangeTrans and
// kRangeSwTrans (range_glue.hpp).
#include "pg/common/glue.hpp"  // postgres.h first

#include "core/range/square_wave.hpp"
#include "pg/range/range_glue.hpp"

namespace {

// A new live state for the protocol argument: empty, or holding a state it was handed
// that is not its own live summary, read and validated, then merged (which refuses
// another protocol: 22023).
__attribute__((noinline, cold)) ldp::RangeSummary* range_state_new(FunctionCallInfo fcinfo,
                                                                   const ldp::RangeProtocol& p, Datum* state) {
  return RangeGlue::adopt(fcinfo, range_live_new(fcinfo, p), ldp::range_summary_merge, state);
}

[[noreturn]] __attribute__((noinline, cold)) void protocol_changed(const ldp::RangeProtocol& was,
                                                                  const ldp::RangeProtocol& now) {
  const char* a = range_protocol_cstring(was);
  const char* b = range_protocol_cstring(now);
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("the protocol changed between reports of one aggregate"),
                  errdetail("The first row's protocol is %s; this row's is %s.", a, b)));
  pg_unreachable();
}

// The general path of both transition functions (the first row, a protocol per row, every
// error): the state, its protocol of the wire format the function takes (`tree`: 22023
// otherwise, naming `fn`), then add(state) with the core's checks.
template <class Add>
Datum trans_general(FunctionCallInfo fcinfo, const ldp_pg::TransLayout& layout, bool tree, const char* fn, Add add) {
  if (ldp_report_is_null(fcinfo, layout)) {
    if (PG_ARGISNULL(0)) PG_RETURN_NULL();
    PG_RETURN_DATUM(PG_GETARG_DATUM(0));
  }
  ldp_pg::TransSite* site = ldp_pg::trans_site(fcinfo, layout);
  ldp_pg::LiveSummary* live = PG_ARGISNULL(0) ? nullptr : RangeGlue::own_state(fcinfo);
  Datum state;
  ldp::RangeSummary* st;
  if (live != nullptr && site->params_stable) {
    st = RangeGlue::core(live);
    state = PG_GETARG_DATUM(0);
  } else {
    const ldp::RangeProtocol p = range_protocol_arg(fcinfo, layout.param());
    range_require_wire(p, tree, fn);
    if (live == nullptr) {
      st = range_state_new(fcinfo, p, &state);
    } else {
      st = RangeGlue::core(live);
      if (unlikely(!ldp::same_range_protocol(st->protocol, p))) protocol_changed(st->protocol, p);
      state = PG_GETARG_DATUM(0);
    }
  }
  add(st);
  PG_RETURN_DATUM(state);
}

__attribute__((noinline)) Datum haar_trans_general(FunctionCallInfo fcinfo) {
  return trans_general(fcinfo, kRangeTrans, true, "range_agg(level, hadamard_row, report, protocol)",
                       [&](ldp::RangeSummary* st) {
                         const int64 level = PG_GETARG_INT32(1), row = PG_GETARG_INT64(2);
                         const bool bit = PG_GETARG_BOOL(3);
                         LDP_CORE(ldp::range_add_report(st, level, row, bit));
                       });
}

// The grid of the last Square Wave protocol an aggregate used (a backend runs one query at
// a time): making one takes an exp, and every row needs it.
const ldp::SwGrid& sw_grid_for(const ldp::RangeProtocol& p) {
  static ldp::SwGrid grid;
  static bool made = false;
  if (unlikely(!made || grid.wave.epsilon != p.epsilon || grid.domain_bits != p.domain_bits)) {
    ldp::SwGrid g;
    LDP_CORE(g = ldp::sw_grid_of(p));
    grid = g;
    made = true;
  }
  return grid;
}

__attribute__((noinline)) Datum sw_trans_general(FunctionCallInfo fcinfo) {
  return trans_general(fcinfo, kRangeSwTrans, false, "range_agg(report, protocol)", [&](ldp::RangeSummary* st) {
    const ldp::SwGrid& g = sw_grid_for(st->protocol);
    const double y = PG_GETARG_FLOAT8(1);
    LDP_CORE(ldp::range_add_sw_report(st, g, y));
  });
}

}  // namespace

// range_agg(level, hadamard_row, report, protocol): one report, 1 into its level's count and ±1
// into its row's sum (deferred by a few rows: ldp::range_add_deferred). The fast path: the
// aggregate's own live state, the protocol a constant of the query, the report's columns not
// NULL and in range.
LDP_FUNCTION(ldp_range_trans) {
  if (likely(!fcinfo->args[1].isnull && !fcinfo->args[2].isnull && !fcinfo->args[3].isnull)) {
    if (ldp_pg::LiveSummary* live = RangeGlue::fast_state(fcinfo)) {
      ldp::RangeSummary* st = RangeGlue::core(live);
      const int64 level = PG_GETARG_INT32(1), row = PG_GETARG_INT64(2);
      if (likely(ldp::range_report_fits(st, level, row))) {
        ldp::range_add_deferred(st, level, row, PG_GETARG_BOOL(3));
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
      }
    }
  }
  return haar_trans_general(fcinfo);
}

// range_agg(report, protocol): one Square Wave report, 1 into its output bucket's count. The
// fast path: the aggregate's own live state, the protocol a constant of the query, the
// report in the wave's range.
LDP_FUNCTION(ldp_range_sw_trans) {
  if (likely(!fcinfo->args[1].isnull)) {
    if (ldp_pg::LiveSummary* live = RangeGlue::fast_state(fcinfo)) {
      ldp::RangeSummary* st = RangeGlue::core(live);
      if (likely(st->protocol.mechanism == ldp::RangeMechanism::Sw && st->n < INT64_MAX)) {
        const ldp::SwGrid& g = sw_grid_for(st->protocol);
        const double y = PG_GETARG_FLOAT8(1);
        if (likely(ldp::sw_report_in_range(g, y))) {
          st->counters()[ldp::sw_bucket_of(g, y)] += 1;
          st->n += 1;
          PG_RETURN_DATUM(PG_GETARG_DATUM(0));
        }
      }
    }
  }
  return sw_trans_general(fcinfo);
}

// Strict combine function (also rollup's transition).
LDP_FUNCTION(ldp_range_combine) { return RangeGlue::combine(fcinfo, range_live_copy, ldp::range_summary_merge); }
