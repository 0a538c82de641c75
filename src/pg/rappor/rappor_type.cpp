// ldp.rappor_summary: text and binary I/O, accessors, rappor_decode(s, candidates) and
// rappor_privacy(hashes, f, p, q, reports, alpha).
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/tuplestore.h"
}

#include <cmath>
#include <string_view>
#include <vector>

#include "core/common/stored_form.hpp"
#include "pg/common/core_codec.hpp"
#include "pg/rappor/rappor_glue.hpp"

using ldp::RapporSummary;

namespace {

// Format 3 only (the family was never stored otherwise).
using Codec = LDP_CORE_CODEC(RapporSummary, rappor_summary);

void rappor_settle(void*) {}  // nothing pending: reports go straight to the counters

}  // namespace

ldp_pg::LiveSummary* rappor_live_new(FunctionCallInfo fcinfo, const ldp::RapporParams& p, int64 capacity) {
  size_t size = 0;
  LDP_CORE(size = ldp::rappor_summary_size(p, capacity));  // validated and bounded: nothing allocated before
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kRapporCodec, size);
  LDP_CORE(ldp::rappor_summary_init(RapporGlue::core(live), p, capacity));
  return live;
}

ldp_pg::LiveSummary* rappor_live_copy(FunctionCallInfo fcinfo, const RapporSummary& s, int64 capacity) {
  size_t size = 0;
  LDP_CORE(size = ldp::rappor_summary_size(s.params, capacity));
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kRapporCodec, size);
  LDP_CORE(ldp::rappor_summary_copy(s, RapporGlue::core(live), capacity));
  return live;
}

LDP_FUNCTION(ldp_rappor_summary_in) { return Codec::in(fcinfo, &kRapporCodec); }
LDP_FUNCTION(ldp_rappor_summary_out) { return Codec::out(fcinfo, &kRapporCodec); }
LDP_FUNCTION(ldp_rappor_summary_recv) { return Codec::recv(fcinfo, &kRapporCodec); }
LDP_FUNCTION(ldp_rappor_summary_send) { return ldp_pg::summary_send(fcinfo, &kRapporCodec); }

// ---- accessors ----

namespace {
ldp::RapporPrivacy privacy_of(const ldp::RapporParams& p, int64 reports, double alpha) {
  ldp::RapporPrivacy r{};
  LDP_CORE(r = ldp::rappor_privacy(p.hashes, p.f, p.p, p.q, reports, alpha));
  return r;
}
}  // namespace

LDP_FUNCTION(ldp_rappor_report_count) { PG_RETURN_INT64(RapporGlue::arg(fcinfo, 0).n); }
// The epsilon of one report (decode.R's eps_one: PRR and one IRR); NULL when it is not
// finite (f = 0 with p = 0 or q = 1: a report shows its Bloom filter), as no accessor
// returns an infinity (rappor_privacy says Infinity, as decode.R).
LDP_FUNCTION(ldp_rappor_epsilon) {
  ldp::RapporPrivacy r = privacy_of(RapporGlue::arg(fcinfo, 0).params, 0, 0.05);
  if (!std::isfinite(r.epsilon_one)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(r.epsilon_one);
}
LDP_FUNCTION(ldp_rappor_mechanism) {
  (void)RapporGlue::arg(fcinfo, 0);  // validated
  PG_RETURN_TEXT_P(cstring_to_text("rappor"));
}

// rappor_parameters(s) -> (bits, hashes, cohorts, f, p, q, reporting_cohorts)
LDP_FUNCTION(ldp_rappor_parameters) {
  const RapporSummary& s = RapporGlue::arg(fcinfo, 0);
  Datum values[7] = {Int32GetDatum(static_cast<int32>(s.params.bits)), Int32GetDatum(static_cast<int32>(s.params.hashes)),
                     Int32GetDatum(static_cast<int32>(s.params.cohorts)), Float8GetDatum(s.params.f),
                     Float8GetDatum(s.params.p), Float8GetDatum(s.params.q), Int64GetDatum(s.rows)};
  bool nulls[7] = {false, false, false, false, false, false, false};
  return ldp_pg::composite_result(fcinfo, values, nulls, 7);
}

// rappor_privacy(hashes, f, p, q, reports bigint DEFAULT NULL, alpha DEFAULT 0.05)
//   -> (epsilon_one, epsilon_inf, detection_frequency): decode.R's figures, Infinity where
//   it gives one; NULL when a parameter is NULL.
LDP_FUNCTION(ldp_rappor_privacy) {
  for (int a : {0, 1, 2, 3, 5})
    if (PG_ARGISNULL(a)) PG_RETURN_NULL();
  const int64 reports = PG_ARGISNULL(4) ? 0 : PG_GETARG_INT64(4);
  if (reports < 0)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("RAPPOR reports must be at least 0, got " INT64_FORMAT, reports)));
  ldp::RapporPrivacy r{};
  const int64 hashes = PG_GETARG_INT32(0);
  const double f = PG_GETARG_FLOAT8(1), p = PG_GETARG_FLOAT8(2), q = PG_GETARG_FLOAT8(3), alpha = PG_GETARG_FLOAT8(5);
  LDP_CORE(r = ldp::rappor_privacy(hashes, f, p, q, reports, alpha));
  Datum values[3] = {Float8GetDatum(r.epsilon_one), Float8GetDatum(r.epsilon_inf),
                     Float8GetDatum(r.detection_frequency)};
  bool nulls[3] = {false, false, !r.has_detection};
  return ldp_pg::composite_result(fcinfo, values, nulls, 3);
}

// rappor_decode(s, candidates text[]): decode.R's pipeline, one row per element of
// candidates in array order (a NULL element: a row of NULLs). The core's result is
// copied into palloc'd rows inside the error boundary, so no C++ object outlives it.
namespace {
struct DecodedRow {
  double count, std_error, proportion, ci_lower, ci_upper;
  bool detected;
};
}  // namespace

LDP_FUNCTION(ldp_rappor_decode) {
  const RapporSummary& s = RapporGlue::arg(fcinfo, 0);
  ArrayType* items = PG_GETARG_ARRAYTYPE_P(1);
  if (ARR_NDIM(items) > 1)
    ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR), errmsg("candidates must be a one-dimensional array")));
  Datum* elems;
  bool* nulls;
  int count;
  deconstruct_array(items, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &count);
  auto* rows = static_cast<DecodedRow*>(palloc_extended(sizeof(DecodedRow) * static_cast<size_t>(count) + 1,
                                                        MCXT_ALLOC_HUGE));
  // the candidates' bytes, read before the boundary (array elements are never toasted)
  auto* data = static_cast<const char**>(palloc(sizeof(char*) * static_cast<size_t>(count) + 1));
  auto* lens = static_cast<size_t*>(palloc(sizeof(size_t) * static_cast<size_t>(count) + 1));
  for (int i = 0; i < count; ++i) {
    if (nulls[i]) continue;
    const text* t = reinterpret_cast<const text*>(DatumGetPointer(elems[i]));
    data[i] = VARDATA_ANY(t);
    lens[i] = VARSIZE_ANY_EXHDR(t);
  }
  ldp::RapporDecodeOptions options;
  options.limits = ldp_pg::decode_limits();
  LDP_CORE({
    std::vector<std::string_view> candidates;
    candidates.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i)
      if (!nulls[i]) candidates.emplace_back(data[i], lens[i]);
    ldp::RapporDecode d = ldp::rappor_decode(s, candidates, options);
    size_t j = 0;
    for (int i = 0; i < count; ++i) {
      if (nulls[i]) continue;
      const ldp::RapporCandidateEstimate& e = d.items[j++];
      rows[i] = DecodedRow{e.count, e.std_error, e.proportion, e.ci_lower, e.ci_upper, e.detected};
    }
  });
  InitMaterializedSRF(fcinfo, 0);
  ReturnSetInfo* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  for (int i = 0; i < count; ++i) {
    if ((i & 1023) == 0) CHECK_FOR_INTERRUPTS();
    Datum values[7] = {elems[i], 0, 0, 0, 0, 0, 0};
    bool isnull[7] = {nulls[i], true, true, true, true, true, true};
    if (!nulls[i]) {
      const DecodedRow& r = rows[i];
      values[1] = Float8GetDatum(ldp_pg::finite_result(r.count, "a count"));
      values[2] = Float8GetDatum(ldp_pg::finite_result(r.std_error, "a standard error"));
      values[3] = Float8GetDatum(ldp_pg::finite_result(r.proportion, "a proportion"));
      values[4] = Float8GetDatum(ldp_pg::finite_result(r.ci_lower, "ci_lower"));
      values[5] = Float8GetDatum(ldp_pg::finite_result(r.ci_upper, "ci_upper"));
      values[6] = BoolGetDatum(r.detected);
      for (int c = 1; c < 7; ++c) isnull[c] = false;
    }
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, isnull);
  }
  return (Datum)0;
}

// ---- the codec (common/summary_datum.hpp) ----

namespace {
bool names_mechanism(const char* name, size_t len) { return len == 6 && memcmp(name, "rappor", 6) == 0; }
}  // namespace

const ldp_pg::SummaryCodec kRapporCodec = {
    "rappor_summary", static_cast<uint8_t>(ldp::Family::Rappor), "rappor", names_mechanism,
    ldp_rappor_summary_in, ldp_rappor_summary_out, ldp_rappor_report_count, ldp_rappor_epsilon,
    ldp_rappor_mechanism, Codec::read_flat, rappor_settle, Codec::stored_size, Codec::write_stored,
    /*replaces_state=*/true};
