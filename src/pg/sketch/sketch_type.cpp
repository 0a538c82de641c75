// ldp.sketch_summary: text and binary I/O, accessors, frequency(s, item) and
// frequencies(s, items).
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"
}

#include <string_view>

#include "core/common/stats.hpp"
#include "core/common/stored_form.hpp"
#include "pg/common/core_codec.hpp"
#include "pg/sketch/sketch_glue.hpp"

using ldp::SketchSummary;

namespace {

// The stored forms of formats 2 (0.6.0, still read) and 3 (written since 0.7.0); sketches were never
// stored in format 1. What the core's codec functions (core/sketch/sketch_codec.cpp) do for them.
using Codec = LDP_CORE_CODEC(SketchSummary, sketch_summary);

void sketch_settle(void* core) { ldp::sketch_flush_pending(static_cast<SketchSummary*>(core)); }

}  // namespace

extern const ldp_pg::SummaryCodec kSketchCodec;

ldp_pg::LiveSummary* sketch_live_new(FunctionCallInfo fcinfo, ldp::SketchMechanism id,
                                     const ldp::SketchParams& p) {
  size_t size = 0, pending = 0;
  LDP_CORE({
    size = ldp::sketch_summary_size(id, p);  // validated: nothing allocated before
    pending = ldp::sketch_pending_bytes(id, p);
  });
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kSketchCodec, size + pending);
  LDP_CORE({
    ldp::sketch_summary_init(SketchGlue::core(live), id, p);
    if (pending != 0) ldp::sketch_summary_add_pending_area(SketchGlue::core(live));
  });
  return live;
}

// A copy of a settled summary, without a pending area.
ldp_pg::LiveSummary* sketch_live_copy(FunctionCallInfo fcinfo, const SketchSummary& s) {
  size_t size = ldp::sketch_summary_size(s);
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kSketchCodec, size);
  memcpy(live->core(), &s, size);
  SketchGlue::core(live)->pending_stride = 0;
  return live;
}

LDP_FUNCTION(ldp_sketch_summary_in) { return Codec::in(fcinfo, &kSketchCodec); }
LDP_FUNCTION(ldp_sketch_summary_out) { return Codec::out(fcinfo, &kSketchCodec); }
LDP_FUNCTION(ldp_sketch_summary_recv) { return Codec::recv(fcinfo, &kSketchCodec); }
LDP_FUNCTION(ldp_sketch_summary_send) { return ldp_pg::summary_send(fcinfo, &kSketchCodec); }

// ---- accessors ----

LDP_FUNCTION(ldp_sketch_report_count) { PG_RETURN_INT64(SketchGlue::arg(fcinfo, 0).n); }
LDP_FUNCTION(ldp_sketch_epsilon) { PG_RETURN_FLOAT8(SketchGlue::arg(fcinfo, 0).epsilon); }
LDP_FUNCTION(ldp_sketch_hash_count) { PG_RETURN_INT32(static_cast<int32>(SketchGlue::arg(fcinfo, 0).hashes)); }
LDP_FUNCTION(ldp_sketch_width) { PG_RETURN_INT32(static_cast<int32>(SketchGlue::arg(fcinfo, 0).width)); }
LDP_FUNCTION(ldp_sketch_mechanism) {
  const SketchSummary& s = SketchGlue::arg(fcinfo, 0);
  const char* name = nullptr;
  LDP_CORE(name = ldp::sketch_mechanism(s.mech()).name);
  PG_RETURN_TEXT_P(cstring_to_text(name));
}

// Prepare, then answer (ldp_pg::prepared_summary): the table of a summary (each
// row's Walsh–Hadamard transform for hcms and hashtogram) is made once per summary
// and query, so that frequency(s, word) over the rows of a dictionary, or
// frequencies(s, items) once, costs one transform and then `hashes` hash
// evaluations per candidate.
namespace {

struct PreparedSketch {
  SketchSummary header;  // parameters and n (the counters are in table)
  int64* table;          // hashes·width
  uint64* scratch;       // ldp::sketch_scratch_words
};

void* make_prepared(FunctionCallInfo fcinfo, MemoryContext mcxt) {
  const SketchSummary& s = SketchGlue::arg(fcinfo, 0);
  auto* p = static_cast<PreparedSketch*>(MemoryContextAllocZero(mcxt, sizeof(PreparedSketch)));
  p->header = s;
  p->table = static_cast<int64*>(MemoryContextAllocHuge(mcxt, sizeof(int64) * static_cast<size_t>(s.cells())));
  p->scratch = static_cast<uint64*>(MemoryContextAlloc(mcxt, sizeof(uint64) * ldp::sketch_scratch_words(s)));
  LDP_CORE(ldp::sketch_prepare(s, reinterpret_cast<int64_t*>(p->table)));
  return p;
}

void release_prepared(void* v) {
  auto* p = static_cast<PreparedSketch*>(v);
  pfree(p->table);
  pfree(p->scratch);
  pfree(p);
}

const PreparedSketch* prepare_sketch(FunctionCallInfo fcinfo) {
  return static_cast<const PreparedSketch*>(ldp_pg::prepared_summary(fcinfo, 0, make_prepared, release_prepared));
}

ldp::SketchEstimate estimate(const PreparedSketch* p, const text* item) {
  std::string_view v(VARDATA_ANY(item), VARSIZE_ANY_EXHDR(item));
  ldp::SketchEstimate e;
  LDP_CORE(e = ldp::sketch_estimate(p->header, reinterpret_cast<const int64_t*>(p->table), v, reinterpret_cast<uint64_t*>(p->scratch)));
  return e;
}

}  // namespace

// frequency(s, item text): the unbiased estimate of the item's frequency (a fraction
// of the reports); NULL for an empty summary.
LDP_FUNCTION(ldp_sketch_frequency) {
  const PreparedSketch* p = prepare_sketch(fcinfo);
  if (p->header.n == 0) PG_RETURN_NULL();
  ldp::SketchEstimate e = estimate(p, PG_GETARG_TEXT_PP(1));
  PG_RETURN_FLOAT8(ldp_pg::finite_result(e.count / static_cast<double>(p->header.n), "the frequency"));
}

// frequencies(s, items text[]): one row per element of items, in array order
// (NULL elements give a row of NULL estimates), with the count, the standard error
// and the 95% interval in units of frequency.
LDP_FUNCTION(ldp_sketch_frequencies) {
  const PreparedSketch* p = prepare_sketch(fcinfo);
  ArrayType* items = PG_GETARG_ARRAYTYPE_P(1);
  if (ARR_NDIM(items) > 1)
    ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR), errmsg("items must be a one-dimensional array")));
  InitMaterializedSRF(fcinfo, 0);
  ReturnSetInfo* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  if (p->header.n == 0) return (Datum)0;
  Datum* elems;
  bool* nulls;
  int count;
  deconstruct_array(items, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &count);
  double z = 0;
  LDP_CORE(z = ldp::normal_critical_value(0.95));
  const double n = static_cast<double>(p->header.n);
  for (int i = 0; i < count; ++i) {
    CHECK_FOR_INTERRUPTS();  // an item reads up to 65,536 sketch rows
    Datum values[6] = {elems[i], 0, 0, 0, 0, 0};
    bool isnull[6] = {nulls[i], true, true, true, true, true};
    if (!nulls[i]) {
      ldp::SketchEstimate e = estimate(p, DatumGetTextPP(elems[i]));
      double f = e.count / n, se = e.std_error / n;
      values[1] = Float8GetDatum(ldp_pg::finite_result(f, "a frequency"));
      values[2] = Float8GetDatum(ldp_pg::finite_result(e.count, "a count"));
      values[3] = Float8GetDatum(ldp_pg::finite_result(se, "a standard error"));
      values[4] = Float8GetDatum(ldp_pg::finite_result(f - z * se, "ci_lower"));
      values[5] = Float8GetDatum(ldp_pg::finite_result(f + z * se, "ci_upper"));
      for (int c = 1; c < 6; ++c) isnull[c] = false;
    }
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, isnull);
  }
  return (Datum)0;
}

// ---- the codec (common/summary_datum.hpp) ----

namespace {
bool names_mechanism(const char* name, size_t len) { return ldp::sketch_mechanism_by_name(name, len) != nullptr; }
}  // namespace

const ldp_pg::SummaryCodec kSketchCodec = {
    "sketch_summary", static_cast<uint8_t>(ldp::Family::Sketch), "sketch", names_mechanism,
    ldp_sketch_summary_in, ldp_sketch_summary_out, ldp_sketch_report_count, ldp_sketch_epsilon,
    ldp_sketch_mechanism, Codec::read_flat, sketch_settle, Codec::stored_size, Codec::write_stored};
