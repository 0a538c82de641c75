// ldp.heavy_summary: text and binary I/O, accessors, heavy_hitters(s, threshold),
// frequency(s, item) and frequencies(s, items).
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"
}

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <new>
#include <string_view>

#include "core/common/stats.hpp"
#include "core/common/stored_form.hpp"
#include "pg/common/core_codec.hpp"
#include "pg/heavy/heavy_glue.hpp"

using ldp::HeavySummary;

namespace {

// Format 3 only (the family was never stored otherwise); what the core's codec functions do for it.
using Codec = LDP_CORE_CODEC(HeavySummary, heavy_summary);

void heavy_settle(void* core) { ldp::heavy_flush_pending(static_cast<HeavySummary*>(core)); }

}  // namespace

ldp_pg::LiveSummary* heavy_live_new(FunctionCallInfo fcinfo, const ldp::HeavyProtocol& p) {
  size_t size = 0;
  LDP_CORE(size = ldp::heavy_summary_size(p));  // validated and bounded: nothing allocated before
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kHeavyCodec, size + ldp::heavy_pending_bytes(p));
  LDP_CORE({
    ldp::heavy_summary_init(HeavyGlue::core(live), p);
    ldp::heavy_summary_add_pending_area(HeavyGlue::core(live));
  });
  return live;
}

ldp_pg::LiveSummary* heavy_live_copy(FunctionCallInfo fcinfo, const HeavySummary& s) {
  const size_t size = ldp::heavy_summary_size(s);
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kHeavyCodec, size);
  memcpy(live->core(), &s, size);
  HeavyGlue::core(live)->pending = 0;  // a settled copy, without a pending area
  HeavyGlue::core(live)->buffered = 0;
  return live;
}

LDP_FUNCTION(ldp_heavy_summary_in) { return Codec::in(fcinfo, &kHeavyCodec); }
LDP_FUNCTION(ldp_heavy_summary_out) { return Codec::out(fcinfo, &kHeavyCodec); }
LDP_FUNCTION(ldp_heavy_summary_recv) { return Codec::recv(fcinfo, &kHeavyCodec); }
LDP_FUNCTION(ldp_heavy_summary_send) { return ldp_pg::summary_send(fcinfo, &kHeavyCodec); }

// ---- accessors ----

LDP_FUNCTION(ldp_heavy_report_count) { PG_RETURN_INT64(HeavyGlue::arg(fcinfo, 0).n); }
LDP_FUNCTION(ldp_heavy_epsilon) { PG_RETURN_FLOAT8(HeavyGlue::arg(fcinfo, 0).protocol.epsilon); }
LDP_FUNCTION(ldp_heavy_mechanism) {
  PG_RETURN_TEXT_P(cstring_to_text(ldp::heavy_mechanism_name(HeavyGlue::arg(fcinfo, 0).protocol.mech())));
}
LDP_FUNCTION(ldp_heavy_protocol_of) { PG_RETURN_DATUM(heavy_protocol_datum(HeavyGlue::arg(fcinfo, 0).protocol)); }

// heavy_threshold(s): the default τ in reports for the summary's own n.
LDP_FUNCTION(ldp_heavy_threshold) {
  const HeavySummary& s = HeavyGlue::arg(fcinfo, 0);
  double tau = 0;
  LDP_CORE(tau = ldp::heavy_threshold(s));
  PG_RETURN_FLOAT8(tau);
}

// Prepare, then answer (ldp_pg::prepared_summary): every row of the summary
// transformed once per summary and query, so that frequency(s, item) over the rows of
// a table costs one decode and then `hashes` hash evaluations per item.
namespace {

struct PreparedHeavy {
  HeavySummary header;  // protocol and n (the counters are in table)
  int64* table;         // cells
};

void* make_prepared(FunctionCallInfo fcinfo, MemoryContext mcxt) {
  const HeavySummary& s = HeavyGlue::arg(fcinfo, 0);
  auto* p = static_cast<PreparedHeavy*>(MemoryContextAllocZero(mcxt, sizeof(PreparedHeavy)));
  p->header = s;
  p->table = static_cast<int64*>(MemoryContextAllocHuge(mcxt, sizeof(int64) * static_cast<size_t>(s.cells())));
  LDP_CORE(ldp::heavy_prepare(s, reinterpret_cast<int64_t*>(p->table)));
  return p;
}

void release_prepared(void* v) {
  auto* p = static_cast<PreparedHeavy*>(v);
  pfree(p->table);
  pfree(p);
}

const PreparedHeavy* prepare_heavy(FunctionCallInfo fcinfo) {
  return static_cast<const PreparedHeavy*>(ldp_pg::prepared_summary(fcinfo, 0, make_prepared, release_prepared));
}

const int64_t* table_of(const PreparedHeavy* p) { return reinterpret_cast<const int64_t*>(p->table); }

// An item as text: the item itself, or for an int64 protocol its decimal form (what
// heavy_hitters returns), which must be a whole int8 (else 22P02).
ldp::HeavyEstimate estimate_text(const PreparedHeavy* p, const text* item) {
  ldp::HeavyEstimate e{};
  if (p->header.protocol.dom() == ldp::HeavyDomain::Int64) {
    char* s = text_to_cstring(item);
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno != 0)
      ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                      errmsg("an item of an int64 heavy-hitters summary must be a bigint in decimal, got \"%s\"", s)));
    pfree(s);
    LDP_CORE(e = ldp::heavy_frequency_int(p->header, table_of(p), x));
  } else {
    const std::string_view v(VARDATA_ANY(item), VARSIZE_ANY_EXHDR(item));
    LDP_CORE(e = ldp::heavy_frequency(p->header, table_of(p), v));
  }
  return e;
}

double frequency_of(const PreparedHeavy* p, const ldp::HeavyEstimate& e) {
  return ldp_pg::finite_result(e.count / static_cast<double>(p->header.n), "the frequency");
}

}  // namespace

// frequency(s, item text | bigint): the final oracle's unbiased estimate of one item's
// frequency (a fraction of the reports); NULL for an empty summary.
LDP_FUNCTION(ldp_heavy_frequency) {
  const PreparedHeavy* p = prepare_heavy(fcinfo);
  if (p->header.n == 0) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(frequency_of(p, estimate_text(p, PG_GETARG_TEXT_PP(1))));
}

LDP_FUNCTION(ldp_heavy_frequency_int8) {
  const PreparedHeavy* p = prepare_heavy(fcinfo);
  if (p->header.n == 0) PG_RETURN_NULL();
  ldp::HeavyEstimate e{};
  LDP_CORE(e = ldp::heavy_frequency_int(p->header, table_of(p), PG_GETARG_INT64(1)));
  PG_RETURN_FLOAT8(frequency_of(p, e));
}

namespace {

// One output row: item, frequency, count, std_error, ci_lower, ci_upper.
void put_row(ReturnSetInfo* rsinfo, Datum item, double count, double std_error, double n, double z) {
  const double f = count / n, se = std_error / n;
  Datum values[6] = {item,
                     Float8GetDatum(ldp_pg::finite_result(f, "a frequency")),
                     Float8GetDatum(ldp_pg::finite_result(count, "a count")),
                     Float8GetDatum(ldp_pg::finite_result(se, "a standard error")),
                     Float8GetDatum(ldp_pg::finite_result(f - z * se, "ci_lower")),
                     Float8GetDatum(ldp_pg::finite_result(f + z * se, "ci_upper"))};
  bool nulls[6] = {false, false, false, false, false, false};
  tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

double z95() {
  double z = 0;
  LDP_CORE(z = ldp::normal_critical_value(0.95));
  return z;
}

}  // namespace

// frequencies(s, items text[]): one row per element of items, in array order (NULL
// elements give a row of NULL estimates): the count, standard error and 95% interval
// in units of frequency, from the final oracle.
LDP_FUNCTION(ldp_heavy_frequencies) {
  const PreparedHeavy* p = prepare_heavy(fcinfo);
  ArrayType* items = PG_GETARG_ARRAYTYPE_P(1);
  if (ARR_NDIM(items) > 1)
    ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR), errmsg("items must be a one-dimensional array")));
  InitMaterializedSRF(fcinfo, 0);
  auto* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  if (p->header.n == 0) return (Datum)0;
  Datum* elems;
  bool* nulls;
  int count;
  deconstruct_array(items, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &count);
  const double z = z95(), n = static_cast<double>(p->header.n);
  for (int i = 0; i < count; ++i) {
    CHECK_FOR_INTERRUPTS();  // an item reads up to 65,536 sketch rows
    if (nulls[i]) {
      Datum values[6] = {0, 0, 0, 0, 0, 0};
      bool isnull[6] = {true, true, true, true, true, true};
      tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, isnull);
      continue;
    }
    const ldp::HeavyEstimate e = estimate_text(p, DatumGetTextPP(elems[i]));
    put_row(rsinfo, elems[i], e.count, e.std_error, n, z);
  }
  return (Datum)0;
}

// heavy_hitters(s, threshold float8 DEFAULT NULL): the items whose final estimate is at
// least the threshold (in reports; NULL: heavy_threshold(s)), found without a candidate
// list, by count descending, each once. Not strict: a NULL summary has no rows.
LDP_FUNCTION(ldp_heavy_hitters) {
  InitMaterializedSRF(fcinfo, 0);
  if (PG_ARGISNULL(0)) return (Datum)0;
  ldp::HeavyHittersQuery q;
  q.limits = ldp_pg::decode_limits();
  if (!PG_ARGISNULL(1)) {
    q.threshold = PG_GETARG_FLOAT8(1);
    if (!(q.threshold >= 0) || std::isinf(q.threshold))
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("threshold must be a finite number of reports >= 0, got %g", q.threshold),
                      errhint("NULL gives the default, ldp.heavy_threshold(summary).")));
  }
  const PreparedHeavy* p = prepare_heavy(fcinfo);
  auto* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  if (p->header.n == 0) return (Datum)0;
  // The core's result (vectors, strings) lives only inside LDP_CORE: it is copied into
  // one palloc'd block (allocated without raising, so nothing longjmps over a destructor),
  // and the rows are made from the copy.
  struct Row {
    double count, std_error;
    text* item;
  };
  Row* rows = nullptr;
  size_t nrows = 0;
  LDP_CORE({
    const ldp::HeavyHitters hh = ldp::heavy_hitters(p->header, table_of(p), q);
    size_t bytes = sizeof(Row) * hh.items.size();
    for (const ldp::HeavyHitter& h : hh.items) bytes += MAXALIGN(VARHDRSZ + h.item.size());
    char* block = static_cast<char*>(palloc_extended(std::max<size_t>(bytes, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM));
    if (block == nullptr) throw std::bad_alloc();
    rows = reinterpret_cast<Row*>(block);
    char* texts = block + sizeof(Row) * hh.items.size();
    for (const ldp::HeavyHitter& h : hh.items) {
      text* t = reinterpret_cast<text*>(texts);
      SET_VARSIZE(t, VARHDRSZ + h.item.size());
      memcpy(VARDATA(t), h.item.data(), h.item.size());
      rows[nrows++] = Row{h.count, h.std_error * static_cast<double>(p->header.n), t};
      texts += MAXALIGN(VARHDRSZ + h.item.size());
    }
  });
  const double z = z95(), n = static_cast<double>(p->header.n);
  for (size_t i = 0; i < nrows; ++i) put_row(rsinfo, PointerGetDatum(rows[i].item), rows[i].count, rows[i].std_error, n, z);
  if (rows != nullptr) pfree(rows);
  return (Datum)0;
}

// ---- the codec (common/summary_datum.hpp) ----

namespace {
bool names_mechanism(const char* name, size_t len) {
  bool found = false;
  LDP_CORE(found = ldp::heavy_mechanism_known(std::string_view(name, len)));
  return found;
}
}  // namespace

const ldp_pg::SummaryCodec kHeavyCodec = {
    "heavy_summary", static_cast<uint8_t>(ldp::Family::Heavy), "heavy", names_mechanism,
    ldp_heavy_summary_in, ldp_heavy_summary_out, ldp_heavy_report_count, ldp_heavy_epsilon,
    ldp_heavy_mechanism, Codec::read_flat, heavy_settle, Codec::stored_size, Codec::write_stored};
