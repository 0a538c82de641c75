// ldp.mean_summary: text and binary I/O, and the accessors.
#include <cmath>

#include "mean/mean_encoders.hpp"
#include "mean/mean_glue.hpp"

using ldp::MeanSummary;

MeanVar* mean_var_from_core(const void* summary, size_t size) {
  auto* v = static_cast<MeanVar*>(palloc0(offsetof(MeanVar, s) + size));
  SET_VARSIZE(v, offsetof(MeanVar, s) + size);
  memcpy(&v->s, summary, size);
  return v;
}

MeanVar* mean_var_new(ldp::MeanMechanism id, const ldp::MeanParams& p) {
  alignas(8) char buf[ldp::kMaxMeanSummarySize];
  size_t size = 0;
  LDP_CORE({
    size = ldp::mean_summary_size(id);
    ldp::mean_summary_init(reinterpret_cast<MeanSummary*>(buf), id, p);
  });
  return mean_var_from_core(buf, size);
}

MeanVar* mean_var_stored(const ldp::MeanSummary& s) {
  bool real = false;
  size_t size = 0;
  uint8_t buf[ldp::kMaxMeanSummaryBinary];
  LDP_CORE({
    real = ldp::mean_mechanism(s.mech()).real_valued;
    if (real) size = ldp::mean_summary_to_binary(s, buf, sizeof buf);
    else size = ldp::mean_summary_size(s.mech());
  });
  if (!real) return mean_var_from_core(&s, size);
  auto* v = static_cast<MeanVar*>(palloc0(offsetof(MeanVar, s) + size));
  SET_VARSIZE(v, offsetof(MeanVar, s) + size);
  v->pad_ = kMeanPackedTag;
  memcpy(&v->s, buf, size);
  return v;
}

const MeanVar* mean_var_arg(FunctionCallInfo fcinfo, int argno) {
  auto* v = reinterpret_cast<const MeanVar*>(PG_DETOAST_DATUM(PG_GETARG_DATUM(argno)));
  size_t size = VARSIZE(v) >= offsetof(MeanVar, s) ? VARSIZE(v) - offsetof(MeanVar, s) : 0;
  if (VARSIZE(v) >= offsetof(MeanVar, s) && v->pad_ == kMeanPackedTag) {  // the stored form
    alignas(8) char buf[ldp::kMaxMeanSummarySize];
    LDP_CORE(size = ldp::mean_summary_from_binary(reinterpret_cast<const uint8_t*>(&v->s), size, buf));
    return mean_var_from_core(buf, size);
  }
  bool legacy = false;
  LDP_CORE(legacy = ldp::mean_summary_is_legacy(v->s, size));
  if (unlikely(legacy)) {  // stored by an earlier build: a converted copy
    alignas(8) char buf[ldp::kMaxMeanSummarySize];
    LDP_CORE(size = ldp::mean_summary_upgrade_legacy(v->s, size, buf));
    return mean_var_from_core(buf, size);
  }
  LDP_CORE(ldp::mean_summary_check(v->s, size));
  return v;
}

MeanVar* mean_var_arg_copy(FunctionCallInfo fcinfo, int argno) {
  return ldp_pg::summary_arg_copy(fcinfo, argno, mean_var_arg(fcinfo, argno));
}

ldp::MeanParams mean_params_args(FunctionCallInfo fcinfo, ldp::MeanMechanism id, int first) {
  const ldp::MeanMechanismInfo* m = nullptr;
  LDP_CORE(m = &ldp::mean_mechanism(id));
  ldp::MeanParams p;
  int arg = first;
  p.epsilon = ldp_param_float8(fcinfo, arg++, "epsilon");
  if (m->uses_max_value) p.max_value = ldp_param_float8(fcinfo, arg++, "max_value");
  if (m->uses_gamma && PG_NARGS() > arg) p.gamma = ldp_param_float8(fcinfo, arg++, "gamma");
  return p;
}

LDP_FUNCTION(ldp_mean_summary_in) {
  const char* text = PG_GETARG_CSTRING(0);
  alignas(8) char buf[ldp::kMaxMeanSummarySize];
  LDP_CORE(ldp::mean_summary_from_text(text, buf));
  PG_RETURN_MEAN_VAR(mean_var_stored(*reinterpret_cast<const MeanSummary*>(buf)));
}

LDP_FUNCTION(ldp_mean_summary_out) {
  const MeanVar* v = mean_var_arg(fcinfo, 0);
  char buf[ldp::kMaxMeanSummaryText];
  LDP_CORE(ldp::mean_summary_to_text(v->s, buf, sizeof buf));
  PG_RETURN_CSTRING(pstrdup(buf));
}

LDP_FUNCTION(ldp_mean_summary_recv) {
  StringInfo in = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  alignas(8) char buf[ldp::kMaxMeanSummarySize];
  const auto* bytes = reinterpret_cast<const uint8_t*>(in->data + in->cursor);
  size_t len = static_cast<size_t>(in->len - in->cursor);
  LDP_CORE(ldp::mean_summary_from_binary(bytes, len, buf));
  in->cursor = in->len;
  PG_RETURN_MEAN_VAR(mean_var_stored(*reinterpret_cast<const MeanSummary*>(buf)));
}

LDP_FUNCTION(ldp_mean_summary_send) {
  const MeanVar* v = mean_var_arg(fcinfo, 0);
  uint8_t buf[ldp::kMaxMeanSummaryBinary];
  size_t len = 0;
  LDP_CORE(len = ldp::mean_summary_to_binary(v->s, buf, sizeof buf));
  StringInfoData out;
  pq_begintypsend(&out);
  pq_sendbytes(&out, reinterpret_cast<const char*>(buf), static_cast<int>(len));
  PG_RETURN_BYTEA_P(pq_endtypsend(&out));
}

// ---- accessors ----

namespace {
// The estimate of a non-empty summary; false when there are no reports.
bool mean_estimate_of(const MeanVar* v, ldp::Estimate* e) {
  if (v->s.n == 0) return false;
  LDP_CORE(*e = ldp::mean_estimate(v->s));
  return true;
}

Datum mean_interval_end(FunctionCallInfo fcinfo, bool upper) {
  const MeanVar* v = mean_var_arg(fcinfo, 0);
  double confidence = PG_GETARG_FLOAT8(1), lo = 0, hi = 0;
  bool has = false;
  LDP_CORE(has = ldp::mean_interval(v->s, confidence, &lo, &hi));
  if (!has) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ldp_pg::finite_result(upper ? hi : lo, upper ? "ci_upper" : "ci_lower"));
}
}  // namespace

LDP_FUNCTION(ldp_mean_estimate) {
  ldp::Estimate e;
  if (!mean_estimate_of(mean_var_arg(fcinfo, 0), &e)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ldp_pg::finite_result(e.value, "the estimate"));
}

LDP_FUNCTION(ldp_mean_std_error) {
  ldp::Estimate e;
  if (!mean_estimate_of(mean_var_arg(fcinfo, 0), &e) || !e.has_std_error) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ldp_pg::finite_result(e.std_error, "the standard error"));
}

LDP_FUNCTION(ldp_mean_ci_lower) { return mean_interval_end(fcinfo, false); }
LDP_FUNCTION(ldp_mean_ci_upper) { return mean_interval_end(fcinfo, true); }

LDP_FUNCTION(ldp_mean_report_count) { PG_RETURN_INT64(mean_var_arg(fcinfo, 0)->s.n); }
LDP_FUNCTION(ldp_mean_epsilon) { PG_RETURN_FLOAT8(mean_var_arg(fcinfo, 0)->s.epsilon); }

LDP_FUNCTION(ldp_mean_mechanism) {
  const MeanVar* v = mean_var_arg(fcinfo, 0);
  const char* name = nullptr;
  LDP_CORE(name = ldp::mean_mechanism(v->s.mech()).name);
  PG_RETURN_TEXT_P(cstring_to_text(name));
}

LDP_FUNCTION(ldp_mean_error_bound) {
  const MeanVar* v = mean_var_arg(fcinfo, 0);
  double delta = PG_GETARG_FLOAT8(1);
  double bound = 0;
  LDP_CORE(bound = ldp::mean_error_bound(v->s, delta));
  if (v->s.n == 0 || std::isnan(bound)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ldp_pg::finite_result(bound, "the error bound"));
}

LDP_FUNCTION(ldp_output_perturbation_epsilon) {
  double epsilon = PG_GETARG_FLOAT8(0), gamma = PG_GETARG_FLOAT8(1), r = 0;
  LDP_CORE(r = ldp::output_perturbation_epsilon(epsilon, gamma));
  PG_RETURN_FLOAT8(r);
}
