// Transition and combine functions of the heavy-hitters aggregates. The state is a
// live ldp.heavy_summary (common/summary_datum.hpp), updated in place. Each
// mechanism's argument layout is its row's (heavy_glue.hpp): <m>_trans(state, the
// report's columns 1..report_columns, protocol).
#include "pg/common/glue.hpp"  // postgres.h first

#include "pg/heavy/heavy_glue.hpp"

namespace {

// A new live state for the protocol argument: empty, or holding a state it was handed
// that is not its own live summary, read and validated, then merged (which refuses
// another protocol: 22023).
__attribute__((noinline, cold)) ldp::HeavySummary* heavy_state_new(FunctionCallInfo fcinfo,
                                                                   const ldp::HeavyProtocol& p, Datum* state) {
  return HeavyGlue::adopt(fcinfo, heavy_live_new(fcinfo, p), ldp::heavy_summary_merge, state);
}

[[noreturn]] __attribute__((noinline, cold)) void protocol_changed(const ldp::HeavyProtocol& was,
                                                                  const ldp::HeavyProtocol& now) {
  const char* a = heavy_protocol_cstring(was);
  const char* b = heavy_protocol_cstring(now);
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("the protocol changed between reports of one aggregate"),
                  errdetail("The first row's protocol is %s; this row's is %s.", a, b)));
  pg_unreachable();
}

// The state for this row: a new summary on the first report, else the aggregate's own,
// updated in place; the protocol is read and compared per row unless it is a constant of
// the query. The protocol must be of m's mechanism.
ldp::HeavySummary* heavy_state(FunctionCallInfo fcinfo, const HeavyGlueMechanism& m, Datum* state) {
  ldp_pg::TransSite* site = ldp_pg::trans_site(fcinfo, m.trans);
  ldp_pg::LiveSummary* live = PG_ARGISNULL(0) ? nullptr : HeavyGlue::own_state(fcinfo);
  if (live != nullptr && site->params_stable) {
    *state = PG_GETARG_DATUM(0);
    return HeavyGlue::core(live);
  }
  const ldp::HeavyProtocol p = heavy_protocol_arg(fcinfo, m.trans.param(), m.id, m.trans.fn);
  if (live == nullptr) return heavy_state_new(fcinfo, p, state);
  ldp::HeavySummary* st = HeavyGlue::core(live);
  if (unlikely(!ldp::same_heavy_protocol(st->protocol, p))) protocol_changed(st->protocol, p);
  *state = PG_GETARG_DATUM(0);
  return st;
}

Datum unchanged(FunctionCallInfo fcinfo) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

// The general path of a transition function (the first row, a protocol per row, every
// error): add(st) adds the row's report with the core's checks.
template <class Add>
__attribute__((noinline)) Datum trans_general(FunctionCallInfo fcinfo, const HeavyGlueMechanism& m, Add add) {
  if (ldp_report_is_null(fcinfo, m.trans)) return unchanged(fcinfo);
  Datum state;
  ldp::HeavySummary* st = heavy_state(fcinfo, m, &state);
  LDP_CORE(add(st));
  PG_RETURN_DATUM(state);
}

// The fast path's state: the aggregate's own live state with its pending area, of m's
// mechanism, when the protocol is a constant of the query (checked on the first row)
// and no report column is NULL; else nullptr (the general path).
__attribute__((always_inline)) inline ldp::HeavySummary* fast_state(FunctionCallInfo fcinfo,
                                                                    const HeavyGlueMechanism& m) {
  for (int a = 1; a <= m.trans.report_columns; ++a)
    if (unlikely(fcinfo->args[a].isnull)) return nullptr;
  ldp_pg::LiveSummary* live = HeavyGlue::fast_state(fcinfo);
  if (unlikely(live == nullptr)) return nullptr;
  ldp::HeavySummary* st = HeavyGlue::core(live);
  return likely(st->protocol.mechanism == static_cast<uint8_t>(m.id) && st->pending != 0) ? st : nullptr;
}

// hash_index·width + coefficient of arguments (j, r) when both are in range, else -1.
__attribute__((always_inline)) inline int64 cell_of(FunctionCallInfo fcinfo, const ldp::HeavyProtocol& p, int j_arg) {
  const int64 j = PG_GETARG_INT32(j_arg), r = PG_GETARG_INT32(j_arg + 1);
  if (likely(static_cast<uint64>(j) < static_cast<uint64>(p.hashes) && static_cast<uint64>(r) < static_cast<uint64>(p.width)))
    return j * p.width + r;
  return -1;
}

}  // namespace

// treehist_agg(level, hash_index, coefficient, prefix_report, item_report, protocol):
// two ±1 at one cell, of level - 1's sketch and the final one.
LDP_FUNCTION(ldp_treehist_trans) {
  if (ldp::HeavySummary* st = fast_state(fcinfo, kTreeHistGlue)) {
    const int64 level = PG_GETARG_INT32(1), cell = cell_of(fcinfo, st->protocol, 2);
    if (likely(static_cast<uint64>(level - 1) < static_cast<uint64>(st->protocol.levels) && cell >= 0)) {
      ldp::heavy_add_pending2(st, level - 1, cell, PG_GETARG_BOOL(4), st->protocol.levels, cell, PG_GETARG_BOOL(5));
      PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    }
  }
  return trans_general(fcinfo, kTreeHistGlue, [&](ldp::HeavySummary* st) {
    ldp::heavy_add_report(st, {PG_GETARG_INT32(1), PG_GETARG_INT32(2), PG_GETARG_INT32(3), PG_GETARG_BOOL(4),
                               PG_GETARG_BOOL(5)});
  });
}

// pem_agg(group_index, hash_index, coefficient, report, protocol): one ±1 in the group's sketch.
LDP_FUNCTION(ldp_pem_trans) {
  if (ldp::HeavySummary* st = fast_state(fcinfo, kPemGlue)) {
    const int64 group = PG_GETARG_INT32(1), cell = cell_of(fcinfo, st->protocol, 2);
    if (likely(static_cast<uint64>(group) < static_cast<uint64>(st->protocol.levels) && cell >= 0)) {
      ldp::heavy_add_pending(st, group, cell, PG_GETARG_BOOL(4));
      PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    }
  }
  return trans_general(fcinfo, kPemGlue, [&](ldp::HeavySummary* st) {
    ldp::pem_add_report(st, {PG_GETARG_INT32(1), PG_GETARG_INT32(2), PG_GETARG_INT32(3), PG_GETARG_BOOL(4)});
  });
}

// sfp_agg(position, hash_index, coefficient, fragment_report, word_hash_index,
// word_coefficient, word_report, protocol): one ±1 in the position's fragment sketch, one
// in the word sketch.
LDP_FUNCTION(ldp_sfp_trans) {
  if (ldp::HeavySummary* st = fast_state(fcinfo, kSfpGlue)) {
    const ldp::HeavyProtocol& p = st->protocol;
    const int64 position = PG_GETARG_INT32(1), cell = cell_of(fcinfo, p, 2), word = cell_of(fcinfo, p, 5);
    if (likely(static_cast<uint64>(position) < static_cast<uint64>(p.max_length) &&
               position % p.chars_per_level == 0 && cell >= 0 && word >= 0)) {
      ldp::heavy_add_pending2(st, position / p.chars_per_level, cell, PG_GETARG_BOOL(4), p.levels, word,
                              PG_GETARG_BOOL(7));
      PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    }
  }
  return trans_general(fcinfo, kSfpGlue, [&](ldp::HeavySummary* st) {
    ldp::sfp_add_report(st, {PG_GETARG_INT32(1), PG_GETARG_INT32(2), PG_GETARG_INT32(3), PG_GETARG_BOOL(4),
                             PG_GETARG_INT32(5), PG_GETARG_INT32(6), PG_GETARG_BOOL(7)});
  });
}

// bitstogram_agg(coordinate, hadamard_row, symbol_report, hash_index, coefficient,
// item_report, protocol): one ±1 in the coordinate's Hadamard-response sketch (its K =
// hashes·width cells, row-major), one in the final count sketch.
LDP_FUNCTION(ldp_bitstogram_trans) {
  if (ldp::HeavySummary* st = fast_state(fcinfo, kBitstogramGlue)) {
    const ldp::HeavyProtocol& p = st->protocol;
    const int64 coordinate = PG_GETARG_INT32(1), row = PG_GETARG_INT32(2), cell = cell_of(fcinfo, p, 4);
    if (likely(static_cast<uint64>(coordinate - 1) < static_cast<uint64>(p.levels) &&
               static_cast<uint64>(row) < static_cast<uint64>(st->block) && cell >= 0)) {
      ldp::heavy_add_pending2(st, coordinate - 1, row, PG_GETARG_BOOL(3), p.levels, cell, PG_GETARG_BOOL(6));
      PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    }
  }
  return trans_general(fcinfo, kBitstogramGlue, [&](ldp::HeavySummary* st) {
    ldp::bitstogram_add_report(st, {PG_GETARG_INT32(1), PG_GETARG_INT32(2), PG_GETARG_BOOL(3), PG_GETARG_INT32(4),
                                    PG_GETARG_INT32(5), PG_GETARG_BOOL(6)});
  });
}

// Strict combine function (also rollup's transition).
LDP_FUNCTION(ldp_heavy_combine) { return HeavyGlue::combine(fcinfo, heavy_live_copy, ldp::heavy_summary_merge); }
