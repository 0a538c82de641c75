// ldp.freq_summary: text and binary I/O, accessors and the frequencies() table.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "funcapi.h"
#include "utils/tuplestore.h"
}

#include "core/common/stored_form.hpp"
#include "pg/common/core_codec.hpp"
#include "pg/freq/freq_glue.hpp"

#include <algorithm>

using ldp::FreqSummary;

namespace {

using Codec = LDP_CORE_CODEC(FreqSummary, freq_summary);

// Format 2, or an earlier version's stored value after its length word: a 4-byte
// padding word, then the memory image of this host's build (FreqSummary and its
// counters; an aggregation state of SUE/OUE stored by the 0.1.0 SQL may still
// carry its pending area, which is added in).
const void* freq_read_flat(const char* content, size_t len) {
  if (ldp::has_stored_magic(reinterpret_cast<const uint8_t*>(content), len)) return Codec::read_flat(content, len);
  size_t size = len >= 4 ? len - 4 : 0;
  const char* image = content + (len >= 4 ? 4 : len);
  if (reinterpret_cast<uintptr_t>(image) % 8 != 0) {
    void* copy = palloc(size);
    memcpy(copy, image, size);
    image = static_cast<const char*>(copy);
  }
  const auto* s = reinterpret_cast<const FreqSummary*>(image);
  LDP_CORE(ldp::freq_summary_check(*s, size));
  if (likely(s->pending_bytes == 0)) return s;
  auto* flushed = static_cast<FreqSummary*>(palloc0(ldp::freq_summary_canonical_size(*s)));
  LDP_CORE(ldp::freq_summary_flushed_copy(*s, flushed));
  return flushed;
}

void freq_settle(void* core) {
  auto* s = static_cast<FreqSummary*>(core);
  if (s->pending_bytes != 0) ldp::freq_flush_pending(s);
}

}  // namespace

// extern: the codec is defined at the end of this file, after its SQL functions
extern const ldp_pg::SummaryCodec kFreqCodec;

ldp_pg::LiveSummary* freq_live_new(FunctionCallInfo fcinfo, ldp::FreqMechanism id,
                                   const ldp::FreqParams& p) {
  size_t size = 0, pending = 0;
  LDP_CORE({
    size = ldp::freq_summary_size(id, p);
    pending = ldp::freq_pending_bytes(id, p.k);
  });
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kFreqCodec, size + pending);
  LDP_CORE({
    ldp::freq_summary_init(FreqGlue::core(live), id, p);
    if (pending != 0) ldp::freq_summary_add_pending_area(FreqGlue::core(live));
  });
  return live;
}

ldp_pg::LiveSummary* freq_live_copy(FunctionCallInfo fcinfo, const ldp::FreqSummary& s) {
  size_t size = ldp::freq_summary_canonical_size(s);
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kFreqCodec, size);
  LDP_CORE(ldp::freq_summary_flushed_copy(s, FreqGlue::core(live)));
  return live;
}

// The final function of sue_agg and oue_agg (declared by 0.2.0): the stored form.
LDP_FUNCTION(ldp_freq_final) { PG_RETURN_DATUM(FreqGlue::stored(FreqGlue::arg(fcinfo, 0))); }

LDP_FUNCTION(ldp_freq_summary_in) { return Codec::in(fcinfo, &kFreqCodec); }
LDP_FUNCTION(ldp_freq_summary_out) { return Codec::out(fcinfo, &kFreqCodec); }
LDP_FUNCTION(ldp_freq_summary_recv) { return Codec::recv(fcinfo, &kFreqCodec); }
LDP_FUNCTION(ldp_freq_summary_send) { return ldp_pg::summary_send(fcinfo, &kFreqCodec); }

// ---- accessors ----

LDP_FUNCTION(ldp_freq_report_count) { PG_RETURN_INT64(FreqGlue::arg(fcinfo, 0).n); }
LDP_FUNCTION(ldp_freq_epsilon) { PG_RETURN_FLOAT8(FreqGlue::arg(fcinfo, 0).epsilon); }
LDP_FUNCTION(ldp_freq_domain_size) { PG_RETURN_INT32(static_cast<int32>(FreqGlue::arg(fcinfo, 0).k)); }

LDP_FUNCTION(ldp_freq_mechanism) {
  const FreqSummary& s = FreqGlue::arg(fcinfo, 0);
  const char* name = nullptr;
  LDP_CORE(name = ldp::freq_mechanism(s.mech()).name);
  PG_RETURN_TEXT_P(cstring_to_text(name));
}

namespace {
// Estimates and standard errors of every item, palloc'd (k values each).
void freq_estimates(const FreqSummary& s, double** freq, double** se) {
  *freq = static_cast<double*>(palloc(sizeof(double) * s.k));
  *se = static_cast<double*>(palloc(sizeof(double) * s.k));
  LDP_CORE(ldp::freq_estimate(s, *freq, *se));
}
}  // namespace

// frequency(s, item): the unbiased estimate of one item's frequency.
//
// Prepare, then answer (ldp_pg::prepared_summary): the estimates of every item (a
// decode of the whole summary: Hadamard's transform, OLH's k x n hash
// evaluations...) are computed once per summary and query, so that asking for many
// items of one summary, row by row, costs one decode.
namespace {
struct PreparedFreq {
  int64 k, n;
  double* freq;  // k estimates (n > 0)
};

void* make_prepared(FunctionCallInfo fcinfo, MemoryContext mcxt) {
  const FreqSummary& s = FreqGlue::arg(fcinfo, 0);
  auto* p = static_cast<PreparedFreq*>(MemoryContextAllocZero(mcxt, sizeof(PreparedFreq)));
  p->k = s.k;
  p->n = s.n;
  if (s.n > 0) {
    p->freq = static_cast<double*>(MemoryContextAllocHuge(mcxt, sizeof(double) * s.k));
    double* se = static_cast<double*>(palloc(sizeof(double) * s.k));
    LDP_CORE(ldp::freq_estimate(s, p->freq, se));
    pfree(se);
  }
  return p;
}

void release_prepared(void* v) {
  auto* p = static_cast<PreparedFreq*>(v);
  if (p->freq != nullptr) pfree(p->freq);
  pfree(p);
}

const PreparedFreq* prepare_freq(FunctionCallInfo fcinfo) {
  return static_cast<const PreparedFreq*>(ldp_pg::prepared_summary(fcinfo, 0, make_prepared, release_prepared));
}
}  // namespace

LDP_FUNCTION(ldp_freq_frequency) {
  const PreparedFreq* p = prepare_freq(fcinfo);
  int32 item = PG_GETARG_INT32(1);
  if (item < 0 || item >= p->k)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("item must be in [0, %lld), got %d", static_cast<long long>(p->k),
                           item)));
  if (p->n == 0) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ldp_pg::finite_result(p->freq[item], "the frequency"));
}

// frequencies(s, consistency): one row per item with its estimate, count,
// standard error and 95% interval. With clip or norm-sub the frequency is
// post-processed and the interval (from the unbiased estimate) clipped to [0, 1]
// and widened, where needed, to contain the post-processed frequency: it still
// contains the unbiased interval, so its coverage is at least that one's.
LDP_FUNCTION(ldp_freq_frequencies) {
  const FreqSummary& s = FreqGlue::arg(fcinfo, 0);
  text* ctext = PG_GETARG_TEXT_PP(1);
  ldp::Consistency c = ldp::Consistency::None;
  LDP_CORE(c = ldp::parse_consistency(VARDATA_ANY(ctext), VARSIZE_ANY_EXHDR(ctext)));
  InitMaterializedSRF(fcinfo, 0);
  ReturnSetInfo* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  if (s.n == 0) return (Datum)0;
  double *freq, *se;
  freq_estimates(s, &freq, &se);
  double* post = static_cast<double*>(palloc(sizeof(double) * s.k));
  memcpy(post, freq, sizeof(double) * s.k);
  LDP_CORE(ldp::apply_consistency(c, post, s.k));
  double z = 0;
  LDP_CORE(z = ldp::normal_critical_value(0.95));
  double n = static_cast<double>(s.n);
  for (int64 item = 0; item < s.k; ++item) {
    if ((item & 1023) == 0) CHECK_FOR_INTERRUPTS();
    double lo = freq[item] - z * se[item], hi = freq[item] + z * se[item];
    if (c != ldp::Consistency::None) {
      lo = std::min(lo < 0 ? 0 : (lo > 1 ? 1 : lo), post[item]);
      hi = std::max(hi < 0 ? 0 : (hi > 1 ? 1 : hi), post[item]);
    }
    Datum values[6] = {Int32GetDatum(static_cast<int32>(item)),
                       Float8GetDatum(ldp_pg::finite_result(post[item], "a frequency")),
                       Float8GetDatum(ldp_pg::finite_result(post[item] * n, "a count")),
                       Float8GetDatum(ldp_pg::finite_result(se[item], "a standard error")),
                       Float8GetDatum(ldp_pg::finite_result(lo, "ci_lower")),
                       Float8GetDatum(ldp_pg::finite_result(hi, "ci_upper"))};
    bool nulls[6] = {false, false, false, false, false, false};
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
  }
  return (Datum)0;
}

// ---- the codec (common/summary_datum.hpp) ----

namespace {
bool names_mechanism(const char* name, size_t len) { return ldp::freq_mechanism_by_name(name, len) != nullptr; }
}  // namespace

const ldp_pg::SummaryCodec kFreqCodec = {
    "freq_summary", static_cast<uint8_t>(ldp::Family::Frequency), "frequency", names_mechanism,
    ldp_freq_summary_in, ldp_freq_summary_out, ldp_freq_report_count, ldp_freq_epsilon, ldp_freq_mechanism,
    freq_read_flat, freq_settle, Codec::stored_size, Codec::write_stored};
