// Transition and combine functions of the sketch aggregates. The state is a live
// ldp.sketch_summary (common/summary_datum.hpp), updated in place.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "utils/varbit.h"
}

#include "pg/common/varbit_report.hpp"
#include "pg/sketch/sketch_glue.hpp"

using ldp::SketchMechanism;

namespace {

// A mechanism's aggregate, one row each: <m>_trans(state, the report's columns,
// epsilon, hashes [, width]), its argument layout, which the transition functions read.
struct SketchAggregate {
  SketchMechanism id;
  ldp_pg::TransLayout trans;
  bool width_param;  // width follows hashes; else the width is the report's bit length (cms)
};
// (hash_index, coefficient, report boolean, ...)
constexpr SketchAggregate kHcmsAgg{SketchMechanism::HCMS, {"hcms_trans", 3}, true};
constexpr SketchAggregate kHashtogramAgg{SketchMechanism::Hashtogram, {"hashtogram_trans", 3}, true};
// (hash_index int, report varbit, ...)
constexpr SketchAggregate kCmsAgg{SketchMechanism::CMS, {"cms_trans", 2}, false};

// A new live state: empty, or holding a state it was handed that is not its own live
// summary (SketchGlue::adopt: merged, which refuses another mechanism or other
// parameters: 22023). Without a width parameter the width is the report's (row_width).
__attribute__((noinline, cold)) ldp::SketchSummary* sketch_state_new(FunctionCallInfo fcinfo, const SketchAggregate& a,
                                                                     int64 row_width, Datum* state) {
  ldp::SketchParams p;
  p.epsilon = ldp_param_float8(fcinfo, a.trans.param(), "epsilon");
  p.hashes = ldp_param_int4(fcinfo, a.trans.param() + 1, "hashes");
  p.width = a.width_param ? ldp_param_int4(fcinfo, a.trans.param() + 2, "width") : row_width;
  return SketchGlue::adopt(fcinfo, sketch_live_new(fcinfo, a.id, p), ldp::sketch_summary_merge, state);
}

// The state for this row: a new summary on the first report, else the aggregate's
// own, updated in place; the parameters are checked per row unless they are
// constants of the query.
ldp::SketchSummary* sketch_state(FunctionCallInfo fcinfo, const SketchAggregate& a, int64 row_width, Datum* state) {
  ldp_pg::TransSite* site = ldp_pg::trans_site(fcinfo, a.trans);
  if (PG_ARGISNULL(0)) return sketch_state_new(fcinfo, a, row_width, state);
  ldp_pg::LiveSummary* live = SketchGlue::own_state(fcinfo);
  if (live == nullptr || SketchGlue::core(live)->mechanism != static_cast<uint8_t>(a.id))
    return sketch_state_new(fcinfo, a, row_width, state);
  *state = PG_GETARG_DATUM(0);
  ldp::SketchSummary* st = SketchGlue::core(live);
  if (site->params_stable) return st;
  double eps = ldp_param_float8(fcinfo, a.trans.param(), "epsilon");
  int64 hashes = ldp_param_int4(fcinfo, a.trans.param() + 1, "hashes");
  int64 width = a.width_param ? ldp_param_int4(fcinfo, a.trans.param() + 2, "width") : st->width;
  if (unlikely(!ldp::same_sketch_params(*st, eps, hashes, width)))
    ldp_pg::core_raise([&] { ldp::throw_sketch_params_changed(*st, eps, hashes, width); });
  return st;
}

// The fast path of a row (every row but the first, in the usual query): the
// aggregate's own live state of this mechanism with its pending area, and parameters
// that are constants of the query. Else nullptr, and the row takes the general path,
// which makes the state, checks the parameters and raises the errors.
__attribute__((always_inline)) inline ldp::SketchSummary* fast_state(FunctionCallInfo fcinfo,
                                                                     const SketchAggregate& a) {
  ldp_pg::LiveSummary* live = SketchGlue::fast_state(fcinfo);
  if (unlikely(live == nullptr)) return nullptr;
  ldp::SketchSummary* st = SketchGlue::core(live);
  return likely(st->mechanism == static_cast<uint8_t>(a.id) && st->pending_stride != 0) ? st : nullptr;
}

Datum unchanged(FunctionCallInfo fcinfo) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

// hcms_agg / hashtogram_agg(hash_index, coefficient, report boolean, epsilon, hashes,
// width): the general path.
__attribute__((noinline)) Datum signed_trans_general(FunctionCallInfo fcinfo, const SketchAggregate& a) {
  if (ldp_report_is_null(fcinfo, a.trans)) return unchanged(fcinfo);
  Datum state;
  ldp::SketchSummary* st = sketch_state(fcinfo, a, 0, &state);
  LDP_CORE(ldp::sketch_add_signed(st, PG_GETARG_INT32(1), PG_GETARG_INT32(2), PG_GETARG_BOOL(3)));
  PG_RETURN_DATUM(state);
}

__attribute__((always_inline)) inline Datum signed_trans(FunctionCallInfo fcinfo, const SketchAggregate& a) {
  if (likely(!(fcinfo->args[1].isnull | fcinfo->args[2].isnull | fcinfo->args[3].isnull))) {
    if (ldp::SketchSummary* st = fast_state(fcinfo, a)) {
      const int64 j = PG_GETARG_INT32(1), l = PG_GETARG_INT32(2);
      if (likely(static_cast<uint64>(j) < static_cast<uint64>(st->hashes) &&
                 static_cast<uint64>(l) < static_cast<uint64>(st->width))) {
        ldp::sketch_add_signed_pending(st, j, l, PG_GETARG_BOOL(3));
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
      }
    }
  }
  return signed_trans_general(fcinfo, a);
}

// cms_agg(hash_index int, report varbit, epsilon, hashes): the width is the bit length.
// The general path.
__attribute__((noinline)) Datum cms_trans_general(FunctionCallInfo fcinfo) {
  if (ldp_report_is_null(fcinfo, kCmsAgg.trans)) return unchanged(fcinfo);
  VarBit* bits = PG_GETARG_VARBIT_P(2);
  Datum state;
  ldp::SketchSummary* st = sketch_state(fcinfo, kCmsAgg, VARBITLEN(bits), &state);
  LDP_CORE(ldp::sketch_add_cms(st, PG_GETARG_INT32(1), VARBITS(bits), VARBITLEN(bits)));
  PG_RETURN_DATUM(state);
}

}  // namespace

LDP_FUNCTION(ldp_cms_trans) {
  if (likely(!(fcinfo->args[1].isnull | fcinfo->args[2].isnull))) {
    ldp_pg::VarbitView r;
    ldp::SketchSummary* st = fast_state(fcinfo, kCmsAgg);
    if (st != nullptr && ldp_pg::varbit_in_place(PG_GETARG_DATUM(2), &r)) {
      const int64 j = PG_GETARG_INT32(1);
      if (likely(static_cast<uint64>(j) < static_cast<uint64>(st->hashes) && r.nbits == st->width &&
                 r.nbytes == (r.nbits + 7) / 8)) {
        ldp_pg::prefetch_next_rows(r);
        ldp::sketch_add_cms_pending(st, j, r.bits);
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
      }
    }
  }
  return cms_trans_general(fcinfo);
}

LDP_FUNCTION(ldp_hcms_trans) { return signed_trans(fcinfo, kHcmsAgg); }
LDP_FUNCTION(ldp_hashtogram_trans) { return signed_trans(fcinfo, kHashtogramAgg); }

// Strict combine function (also rollup's transition).
LDP_FUNCTION(ldp_sketch_combine) {
  return SketchGlue::combine(fcinfo, sketch_live_copy, ldp::sketch_summary_merge);
}
