// Transition and combine functions of ldp.rappor_agg and ldp.rollup(rappor_summary).
// The state is a live ldp.rappor_summary (common/summary_datum.hpp), updated in place;
// it holds rows only for the cohorts that have reports, and when a report of a new
// cohort finds it full, the transition function returns a larger copy (the aggregate
// frees the old state: a read-write expanded object it replaces).
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "utils/varbit.h"
}

#include <algorithm>

#include "pg/common/varbit_report.hpp"
#include "pg/rappor/rappor_glue.hpp"

using ldp::RapporSummary;

namespace {

// The aggregate's argument layout: rappor_trans(state, cohort int, report varbit, hashes
// int, cohorts int, f, p, q).
constexpr ldp_pg::TransLayout kRapporTrans{"rappor_trans", 2};
constexpr int kFirstParam = kRapporTrans.param();

// Cohorts a new state has room for: enough for the usual 64 or 128 cohorts at once.
constexpr int64 kInitialRows = 128;

ldp::RapporParams params_arg(FunctionCallInfo fcinfo, int64 bits) {
  ldp::RapporParams p;
  p.bits = bits;
  p.hashes = ldp_param_int4(fcinfo, kFirstParam, "hashes");
  p.cohorts = ldp_param_int4(fcinfo, kFirstParam + 1, "cohorts");
  p.f = ldp_param_float8(fcinfo, kFirstParam + 2, "f");
  p.p = ldp_param_float8(fcinfo, kFirstParam + 3, "p");
  p.q = ldp_param_float8(fcinfo, kFirstParam + 4, "q");
  return p;
}

// A new live state of these parameters, holding the state it was handed when that is
// not its own live summary (read, validated, merged: other parameters are 22023).
__attribute__((noinline, cold)) ldp_pg::LiveSummary* rappor_state_new(FunctionCallInfo fcinfo,
                                                                      const ldp::RapporParams& p) {
  const RapporSummary* given = PG_ARGISNULL(0) ? nullptr : &RapporGlue::arg(fcinfo, 0);
  int64 capacity = 0;
  LDP_CORE({
    ldp::validate_rappor_params(p);
    capacity = std::min(ldp::rappor_max_rows(p), kInitialRows);
    if (given != nullptr) {
      if (!ldp::same_rappor_params(p, given->params))
        ldp::throw_error(ldp::ErrorKind::InvalidParameter,
                         "cannot add RAPPOR reports of %s to a summary of %s", ldp::rappor_params_to_text(p).c_str(),
                         ldp::rappor_params_to_text(given->params).c_str());
      capacity = std::max(capacity, given->rows);
    }
  });
  ldp_pg::LiveSummary* live = rappor_live_new(fcinfo, p, capacity);
  if (given != nullptr) {
    LDP_CORE(ldp::rappor_summary_merge(RapporGlue::core(live), *given));
    if (unlikely(RapporGlue::core(live)->n > ldp_pg::kMaxAdoptedReports))
      ldp_pg::raise_adopted_too_large(RapporGlue::core(live)->n);
  }
  return live;
}

// Adds a report, growing the state when its cohort is new and the state full.
ldp_pg::LiveSummary* add_report(FunctionCallInfo fcinfo, ldp_pg::LiveSummary* live, int64 cohort,
                                const uint8_t* bits, int64 nbits) {
  bool added = false;
  LDP_CORE(added = ldp::rappor_add_report(RapporGlue::core(live), cohort, bits, nbits));
  if (likely(added)) return live;
  int64 capacity = 0;
  LDP_CORE(capacity = ldp::rappor_grown_capacity(*RapporGlue::core(live)));
  live = rappor_live_copy(fcinfo, *RapporGlue::core(live), capacity);
  LDP_CORE(added = ldp::rappor_add_report(RapporGlue::core(live), cohort, bits, nbits));
  if (!added) elog(ERROR, "ldp: a grown RAPPOR summary had no room for a cohort");
  return live;
}

Datum unchanged(FunctionCallInfo fcinfo) {
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

// The general path: the first row, parameters per row, a toasted report, every error.
__attribute__((noinline)) Datum rappor_trans_general(FunctionCallInfo fcinfo) {
  if (ldp_report_is_null(fcinfo, kRapporTrans)) return unchanged(fcinfo);
  ldp_pg::TransSite* site = ldp_pg::trans_site(fcinfo, kRapporTrans);
  VarBit* report = PG_GETARG_VARBIT_P(2);
  ldp_pg::LiveSummary* live = PG_ARGISNULL(0) ? nullptr : RapporGlue::own_state(fcinfo);
  if (live == nullptr) {
    live = rappor_state_new(fcinfo, params_arg(fcinfo, VARBITLEN(report)));
  } else if (!site->params_stable) {
    ldp::RapporParams p = params_arg(fcinfo, RapporGlue::core(live)->params.bits);
    const ldp::RapporParams& have = RapporGlue::core(live)->params;
    if (unlikely(!ldp::same_rappor_params(p, have)))
      ldp_pg::core_raise([&] {
        ldp::throw_error(ldp::ErrorKind::InvalidParameter,
                         "RAPPOR parameters changed within one aggregate: %s, then %s",
                         ldp::rappor_params_to_text(have).c_str(), ldp::rappor_params_to_text(p).c_str());
      });
  }
  live = add_report(fcinfo, live, PG_GETARG_INT32(1), VARBITS(report), VARBITLEN(report));
  PG_RETURN_DATUM(live->rw_datum());
}

}  // namespace

LDP_FUNCTION(ldp_rappor_trans) {
  if (likely(!(fcinfo->args[1].isnull | fcinfo->args[2].isnull))) {
    ldp_pg::VarbitView r;
    ldp_pg::LiveSummary* live = RapporGlue::fast_state(fcinfo);
    if (live != nullptr && ldp_pg::varbit_in_place(PG_GETARG_DATUM(2), &r)) {
      const RapporSummary* st = RapporGlue::core(live);
      const int64 cohort = PG_GETARG_INT32(1);
      if (likely(r.nbits == st->params.bits && r.nbytes == (r.nbits + 7) / 8 &&
                 static_cast<uint64>(cohort) < static_cast<uint64>(st->params.cohorts))) {
        ldp_pg::prefetch_next_rows(r);
        PG_RETURN_DATUM(add_report(fcinfo, live, cohort, r.bits, r.nbits)->rw_datum());
      }
    }
  }
  return rappor_trans_general(fcinfo);
}

// Strict combine function (also rollup's transition): into += from, into grown (a
// copy) when from brings cohorts it has no room for.
LDP_FUNCTION(ldp_rappor_combine) {
  ldp_pg::LiveSummary* into = RapporGlue::own_state(fcinfo);
  const RapporSummary& have = into != nullptr ? *RapporGlue::core(into) : RapporGlue::arg(fcinfo, 0);
  const RapporSummary& from = RapporGlue::arg(fcinfo, 1);
  int64 need = 0, capacity = 0;
  LDP_CORE({
    need = ldp::rappor_merged_rows(have, from);  // 22023 for other parameters
    capacity = std::min(ldp::rappor_max_rows(have.params), std::max(need, 2 * have.capacity));
  });
  if (into == nullptr || have.capacity < need) into = rappor_live_copy(fcinfo, have, capacity);
  LDP_CORE(ldp::rappor_summary_merge(RapporGlue::core(into), from));
  PG_RETURN_DATUM(into->rw_datum());
}
