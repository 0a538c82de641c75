// Transition and combine functions of the heavy-hitters aggregates. The state is a
// live ldp.heavy_summary (common/summary_datum.hpp), updated in place.
#include "common/glue.hpp"  // postgres.h first

#include "heavy/heavy_glue.hpp"

namespace {

// A new live state for the protocol argument: empty, or holding a state it was handed
// that is not its own live summary, read and validated, then merged (which refuses
// another protocol: 22023).
__attribute__((noinline, cold)) ldp::HeavySummary* heavy_state_new(FunctionCallInfo fcinfo,
                                                                   const ldp::HeavyProtocol& p, Datum* state) {
  ldp_pg::LiveSummary* live = heavy_live_new(fcinfo, p);
  ldp::HeavySummary* st = heavy_core(live);
  if (!PG_ARGISNULL(0)) {
    const ldp::HeavySummary& given = heavy_arg(fcinfo, 0);
    LDP_CORE(ldp::heavy_summary_merge(st, given));
  }
  if (unlikely(st->n > ldp_pg::kMaxAdoptedReports)) ldp_pg::raise_adopted_too_large(st->n);
  *state = live->rw_datum();
  return st;
}

[[noreturn]] __attribute__((noinline, cold)) void protocol_changed(const ldp::HeavyProtocol& was,
                                                                  const ldp::HeavyProtocol& now) {
  std::string a, b;
  LDP_CORE({
    a = ldp::heavy_protocol_to_text(was);
    b = ldp::heavy_protocol_to_text(now);
  });
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("the protocol changed between reports of one aggregate"),
                  errdetail("The first row's protocol is %s; this row's is %s.", a.c_str(), b.c_str())));
  pg_unreachable();
}

// The state for this row: a new summary on the first report, else the aggregate's own,
// updated in place; the protocol is read and compared per row unless it is a constant of
// the query. The protocol must be of mechanism `m`.
ldp::HeavySummary* heavy_state(FunctionCallInfo fcinfo, ldp::HeavyMechanism m, const char* fn, int protocol_arg,
                               Datum* state) {
  ldp_pg::TransSite* site = ldp_pg::trans_site(fcinfo, fn, protocol_arg);
  ldp_pg::LiveSummary* live = PG_ARGISNULL(0) ? nullptr : ldp_pg::live_rw_arg(fcinfo, 0, &kHeavyCodec);
  if (live != nullptr && site->params_stable) {
    *state = PG_GETARG_DATUM(0);
    return heavy_core(live);
  }
  const ldp::HeavyProtocol p = heavy_protocol_arg(fcinfo, protocol_arg);
  if (p.mech() != m)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s takes a %s protocol, got a %s one", fn, ldp::heavy_mechanism_name(m),
                           ldp::heavy_mechanism_name(p.mech()))));
  if (live == nullptr) return heavy_state_new(fcinfo, p, state);
  ldp::HeavySummary* st = heavy_core(live);
  if (unlikely(!ldp::same_heavy_protocol(st->protocol, p))) protocol_changed(st->protocol, p);
  *state = PG_GETARG_DATUM(0);
  return st;
}

Datum unchanged(FunctionCallInfo fcinfo) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

// treehist_agg(level, hash_index, coefficient, prefix_report, item_report, protocol): the
// general path (the first row, a protocol per row, every error).
__attribute__((noinline)) Datum treehist_trans_general(FunctionCallInfo fcinfo) {
  if (ldp_report_is_null(fcinfo, 1, 5)) return unchanged(fcinfo);
  Datum state;
  ldp::HeavySummary* st = heavy_state(fcinfo, ldp::HeavyMechanism::TreeHist, "treehist_trans", 6, &state);
  const ldp::HeavyReport r{PG_GETARG_INT32(1), PG_GETARG_INT32(2), PG_GETARG_INT32(3), PG_GETARG_BOOL(4),
                           PG_GETARG_BOOL(5)};
  LDP_CORE(ldp::heavy_add_report(st, r));
  PG_RETURN_DATUM(state);
}

}  // namespace

// The fast path: the aggregate's own live state, a protocol that is a constant of the
// query (checked on the first row), and a report in range: two counters and n.
LDP_FUNCTION(ldp_treehist_trans) {
  if (likely(!(fcinfo->args[1].isnull | fcinfo->args[2].isnull | fcinfo->args[3].isnull |
               fcinfo->args[4].isnull | fcinfo->args[5].isnull))) {
    if (ldp_pg::LiveSummary* live = ldp_pg::live_fast_state(fcinfo, &kHeavyCodec)) {
      ldp::HeavySummary* st = heavy_core(live);
      const int64 level = PG_GETARG_INT32(1), j = PG_GETARG_INT32(2), r = PG_GETARG_INT32(3);
      const ldp::HeavyProtocol& p = st->protocol;
      if (likely(p.mechanism == static_cast<uint8_t>(ldp::HeavyMechanism::TreeHist) && st->pending != 0 &&
                 static_cast<uint64>(level - 1) < static_cast<uint64>(p.levels) &&
                 static_cast<uint64>(j) < static_cast<uint64>(p.hashes) &&
                 static_cast<uint64>(r) < static_cast<uint64>(p.width))) {
        ldp::treehist_add_pending(st, level, j * p.width + r, PG_GETARG_BOOL(4), PG_GETARG_BOOL(5));
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
      }
    }
  }
  return treehist_trans_general(fcinfo);
}

// Strict combine function (also rollup's transition).
LDP_FUNCTION(ldp_heavy_combine) {
  ldp_pg::LiveSummary* into = ldp_pg::live_rw_arg(fcinfo, 0, &kHeavyCodec);
  if (into == nullptr) into = heavy_live_copy(fcinfo, heavy_arg(fcinfo, 0));
  const ldp::HeavySummary& from = heavy_arg(fcinfo, 1);
  LDP_CORE(ldp::heavy_summary_merge(heavy_core(into), from));
  PG_RETURN_DATUM(into->rw_datum());
}
