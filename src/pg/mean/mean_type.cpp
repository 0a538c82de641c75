// ldp.mean_summary: text and binary I/O, and the accessors.
#include "pg/common/glue.hpp"  // postgres.h first

#include <cmath>

#include "core/common/stored_form.hpp"
#include "core/mean/mean_encoders.hpp"
#include "pg/common/core_codec.hpp"
#include "pg/mean/mean_glue.hpp"

using ldp::MeanSummary;

namespace {

using Codec = LDP_CORE_CODEC(MeanSummary, mean_summary);

// An earlier version's stored value, after the length word: a 4-byte padding word
// ("PACK": the format-1 binary form follows; else the memory image of this host's
// build: MeanSummary, its sums in the 0.1.0 or the 0.4.0 layout).
constexpr int32 kMeanPackedTag = 0x4b434150;  // "PACK"

const void* core_copy(const void* core, size_t size) {
  void* c = palloc(size);
  memcpy(c, core, size);
  return c;
}

const void* mean_read_flat(const char* content, size_t len) {
  if (ldp::has_stored_magic(reinterpret_cast<const uint8_t*>(content), len)) return Codec::read_flat(content, len);
  int32 pad = 0;
  if (len >= sizeof pad) memcpy(&pad, content, sizeof pad);
  if (len >= sizeof pad && pad == kMeanPackedTag) return Codec::read_flat(content + 4, len - 4);
  // a memory image: read where it lies when aligned, else from an aligned copy
  alignas(8) char buf[ldp::kMaxMeanSummarySize];
  size_t size = len >= sizeof pad ? len - sizeof pad : 0;
  const char* image = content + sizeof pad;
  if (reinterpret_cast<uintptr_t>(image) % 8 != 0) image = static_cast<const char*>(core_copy(image, size));
  const auto* s = reinterpret_cast<const MeanSummary*>(image);
  bool legacy = false;
  LDP_CORE(legacy = size >= sizeof(MeanSummary) && ldp::mean_summary_is_legacy(*s, size));
  if (unlikely(legacy)) {
    LDP_CORE(size = ldp::mean_summary_upgrade_legacy(*s, size, buf));
    return core_copy(buf, size);
  }
  LDP_CORE(ldp::mean_summary_check(*s, size));
  return s;
}

void mean_settle(void* core) {
  auto* s = static_cast<MeanSummary*>(core);
  if (ldp::mean_mechanism(s->mech()).real_valued) ldp::mean_flush_hot(s);
}

}  // namespace

// extern: the codec is defined at the end of this file, after its SQL functions
extern const ldp_pg::SummaryCodec kMeanCodec;

ldp_pg::LiveSummary* mean_live_new(FunctionCallInfo fcinfo, ldp::MeanMechanism id,
                                   const ldp::MeanParams& p) {
  size_t size = 0;
  LDP_CORE({
    ldp::validate_mean_params(id, p);
    size = ldp::mean_summary_size(id);
  });
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kMeanCodec, size);
  LDP_CORE(ldp::mean_summary_init(MeanGlue::core(live), id, p));
  return live;
}

ldp_pg::LiveSummary* mean_live_copy(FunctionCallInfo fcinfo, const ldp::MeanSummary& s) {
  size_t size = 0;
  LDP_CORE(size = ldp::mean_summary_size(s.mech()));
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kMeanCodec, size);
  memcpy(live->core(), &s, size);
  return live;
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

LDP_FUNCTION(ldp_mean_summary_in) { return Codec::in(fcinfo, &kMeanCodec); }
LDP_FUNCTION(ldp_mean_summary_out) { return Codec::out(fcinfo, &kMeanCodec); }
LDP_FUNCTION(ldp_mean_summary_recv) { return Codec::recv(fcinfo, &kMeanCodec); }
LDP_FUNCTION(ldp_mean_summary_send) { return ldp_pg::summary_send(fcinfo, &kMeanCodec); }

// ---- accessors ----

namespace {
// The estimate of a non-empty summary; false when there are no reports.
bool mean_estimate_of(const MeanSummary& s, ldp::Estimate* e) {
  if (s.n == 0) return false;
  LDP_CORE(*e = ldp::mean_estimate(s));
  return true;
}

Datum mean_interval_end(FunctionCallInfo fcinfo, bool upper) {
  const MeanSummary& s = MeanGlue::arg(fcinfo, 0);
  double confidence = PG_GETARG_FLOAT8(1), lo = 0, hi = 0;
  bool has = false;
  LDP_CORE(has = ldp::mean_interval(s, confidence, &lo, &hi));
  if (!has) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ldp_pg::finite_result(upper ? hi : lo, upper ? "ci_upper" : "ci_lower"));
}
}  // namespace

LDP_FUNCTION(ldp_mean_estimate) {
  ldp::Estimate e;
  if (!mean_estimate_of(MeanGlue::arg(fcinfo, 0), &e)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ldp_pg::finite_result(e.value, "the estimate"));
}

LDP_FUNCTION(ldp_mean_std_error) {
  ldp::Estimate e;
  if (!mean_estimate_of(MeanGlue::arg(fcinfo, 0), &e) || !e.has_std_error) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ldp_pg::finite_result(e.std_error, "the standard error"));
}

LDP_FUNCTION(ldp_mean_ci_lower) { return mean_interval_end(fcinfo, false); }
LDP_FUNCTION(ldp_mean_ci_upper) { return mean_interval_end(fcinfo, true); }

LDP_FUNCTION(ldp_mean_report_count) { PG_RETURN_INT64(MeanGlue::arg(fcinfo, 0).n); }
LDP_FUNCTION(ldp_mean_epsilon) { PG_RETURN_FLOAT8(MeanGlue::arg(fcinfo, 0).epsilon); }

LDP_FUNCTION(ldp_mean_mechanism) {
  const MeanSummary& s = MeanGlue::arg(fcinfo, 0);
  const char* name = nullptr;
  LDP_CORE(name = ldp::mean_mechanism(s.mech()).name);
  PG_RETURN_TEXT_P(cstring_to_text(name));
}

LDP_FUNCTION(ldp_mean_error_bound) {
  const MeanSummary& s = MeanGlue::arg(fcinfo, 0);
  double delta = PG_GETARG_FLOAT8(1);
  double bound = 0;
  LDP_CORE(bound = ldp::mean_error_bound(s, delta));
  if (s.n == 0 || std::isnan(bound)) PG_RETURN_NULL();
  PG_RETURN_FLOAT8(ldp_pg::finite_result(bound, "the error bound"));
}

LDP_FUNCTION(ldp_output_perturbation_epsilon) {
  double epsilon = PG_GETARG_FLOAT8(0), gamma = PG_GETARG_FLOAT8(1), r = 0;
  LDP_CORE(r = ldp::output_perturbation_epsilon(epsilon, gamma));
  PG_RETURN_FLOAT8(r);
}

// ---- the codec (common/summary_datum.hpp) ----

namespace {
bool names_mechanism(const char* name, size_t len) { return ldp::mean_mechanism_by_name(name, len) != nullptr; }
}  // namespace

const ldp_pg::SummaryCodec kMeanCodec = {
    "mean_summary", static_cast<uint8_t>(ldp::Family::Mean), "mean", names_mechanism,
    ldp_mean_summary_in, ldp_mean_summary_out, ldp_mean_report_count, ldp_mean_epsilon, ldp_mean_mechanism,
    mean_read_flat, mean_settle, Codec::stored_size, Codec::write_stored};
