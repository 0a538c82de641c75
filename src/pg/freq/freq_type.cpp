// ldp.freq_summary: text and binary I/O, accessors and the frequencies() table.
#include "common/glue.hpp"  // postgres.h first

extern "C" {
#include "funcapi.h"
#include "utils/tuplestore.h"
}

#include "freq/freq_glue.hpp"

#include <algorithm>

using ldp::FreqSummary;

namespace {
FreqVar* freq_var_alloc(size_t core_size) {
  auto* v = static_cast<FreqVar*>(palloc0(offsetof(FreqVar, s) + core_size));
  SET_VARSIZE(v, offsetof(FreqVar, s) + core_size);
  return v;
}
}  // namespace

FreqVar* freq_var_new(ldp::FreqMechanism id, const ldp::FreqParams& p) {
  size_t size = 0, pending = 0;
  LDP_CORE({
    size = ldp::freq_summary_size(id, p);
    pending = ldp::freq_pending_bytes(id, p.k);
  });
  FreqVar* v = freq_var_alloc(size + pending);
  LDP_CORE({
    ldp::freq_summary_init(&v->s, id, p);
    if (pending != 0) ldp::freq_summary_add_pending_area(&v->s);
  });
  return v;
}

// Readers get the summary as its text and binary forms describe it: an aggregation
// state with pending counts (SUE/OUE, see freq_summary.hpp) becomes a flushed copy.
const FreqVar* freq_var_arg(FunctionCallInfo fcinfo, int argno) {
  const FreqVar* v = ldp_pg::summary_arg<FreqVar>(fcinfo, argno, ldp::freq_summary_check);
  if (likely(v->s.pending_bytes == 0)) return v;
  FreqVar* flushed = freq_var_alloc(ldp::freq_summary_canonical_size(v->s));
  LDP_CORE(ldp::freq_summary_flushed_copy(v->s, &flushed->s));
  return flushed;
}

// The final function of sue_agg and oue_agg: the result without its pending area.
LDP_FUNCTION(ldp_freq_final) { PG_RETURN_POINTER(freq_var_arg(fcinfo, 0)); }

FreqVar* freq_var_arg_copy(FunctionCallInfo fcinfo, int argno) {
  return ldp_pg::summary_arg_copy(fcinfo, argno, freq_var_arg(fcinfo, argno));
}

LDP_FUNCTION(ldp_freq_summary_in) {
  const char* text = PG_GETARG_CSTRING(0);
  size_t size = 0;
  LDP_CORE(size = ldp::freq_summary_parse_size(text));
  FreqVar* v = freq_var_alloc(size);
  LDP_CORE(ldp::freq_summary_from_text(text, &v->s, size));
  PG_RETURN_POINTER(v);
}

LDP_FUNCTION(ldp_freq_summary_out) {
  const FreqVar* v = freq_var_arg(fcinfo, 0);
  size_t len = 0;
  LDP_CORE(len = ldp::freq_summary_text_size(v->s));
  char* out = static_cast<char*>(palloc(len));
  LDP_CORE(ldp::freq_summary_to_text(v->s, out, len));
  PG_RETURN_CSTRING(out);
}

LDP_FUNCTION(ldp_freq_summary_recv) {
  StringInfo in = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  const auto* bytes = reinterpret_cast<const uint8_t*>(in->data + in->cursor);
  size_t len = static_cast<size_t>(in->len - in->cursor);
  size_t size = 0;
  LDP_CORE(size = ldp::freq_summary_binary_parse_size(bytes, len));
  FreqVar* v = freq_var_alloc(size);
  LDP_CORE(ldp::freq_summary_from_binary(bytes, len, &v->s, size));
  in->cursor = in->len;
  PG_RETURN_POINTER(v);
}

LDP_FUNCTION(ldp_freq_summary_send) {
  const FreqVar* v = freq_var_arg(fcinfo, 0);
  size_t len = 0;
  LDP_CORE(len = ldp::freq_summary_binary_size(v->s));
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + len));
  SET_VARSIZE(out, VARHDRSZ + len);
  LDP_CORE(ldp::freq_summary_to_binary(v->s, reinterpret_cast<uint8_t*>(VARDATA(out)), len));
  PG_RETURN_BYTEA_P(out);
}

// ---- accessors ----

LDP_FUNCTION(ldp_freq_report_count) { PG_RETURN_INT64(freq_var_arg(fcinfo, 0)->s.n); }
LDP_FUNCTION(ldp_freq_epsilon) { PG_RETURN_FLOAT8(freq_var_arg(fcinfo, 0)->s.epsilon); }
LDP_FUNCTION(ldp_freq_domain_size) { PG_RETURN_INT32(static_cast<int32>(freq_var_arg(fcinfo, 0)->s.k)); }

LDP_FUNCTION(ldp_freq_mechanism) {
  const FreqVar* v = freq_var_arg(fcinfo, 0);
  const char* name = nullptr;
  LDP_CORE(name = ldp::freq_mechanism(v->s.mech()).name);
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
LDP_FUNCTION(ldp_freq_frequency) {
  const FreqVar* v = freq_var_arg(fcinfo, 0);
  int32 item = PG_GETARG_INT32(1);
  if (item < 0 || item >= v->s.k)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("item must be in [0, %lld), got %d", static_cast<long long>(v->s.k),
                           item)));
  if (v->s.n == 0) PG_RETURN_NULL();
  double *freq, *se;
  freq_estimates(v->s, &freq, &se);
  PG_RETURN_FLOAT8(ldp_pg::finite_result(freq[item], "the frequency"));
}

// frequencies(s, consistency): one row per item with its estimate, count,
// standard error and 95% interval. With clip or norm-sub the frequency is
// post-processed and the interval (from the unbiased estimate) clipped to [0, 1]
// and widened, where needed, to contain the post-processed frequency: it still
// contains the unbiased interval, so its coverage is at least that one's.
LDP_FUNCTION(ldp_freq_frequencies) {
  const FreqVar* v = freq_var_arg(fcinfo, 0);
  text* ctext = PG_GETARG_TEXT_PP(1);
  ldp::Consistency c = ldp::Consistency::None;
  LDP_CORE(c = ldp::parse_consistency(VARDATA_ANY(ctext), VARSIZE_ANY_EXHDR(ctext)));
  InitMaterializedSRF(fcinfo, 0);
  ReturnSetInfo* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  if (v->s.n == 0) return (Datum)0;
  double *freq, *se;
  freq_estimates(v->s, &freq, &se);
  double* post = static_cast<double*>(palloc(sizeof(double) * v->s.k));
  memcpy(post, freq, sizeof(double) * v->s.k);
  LDP_CORE(ldp::apply_consistency(c, post, v->s.k));
  double z = 0;
  LDP_CORE(z = ldp::normal_critical_value(0.95));
  double n = static_cast<double>(v->s.n);
  for (int64 item = 0; item < v->s.k; ++item) {
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
