// The answers of ldp.range_summary (docs/ranges.md): range_frequency(s, lo, hi), cdf(s, x),
// quantile(s, phi), quantiles(s, phis) and histogram(s, bins) (mechanisms with linear
// answers), and density(s, bins, ...) (Square Wave's). Each decodes the summary
// once per session (ldp_pg::session_prepared_summary: the coefficients, and for the
// quantiles the CDF's blocks, kept until another summary replaces them) and answers in O(k)
// a range.
//
// Intervals are estimate ± z·se with the exact variance (docs/algorithms/ranges.md); the
// point shown is clipped to [0, 1], the interval is only intersected with [0, 1] (never
// computed from the clipped point). A range that needs a level without reports has no
// standard error: NULL std_error and interval.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/tuplestore.h"
}

#include <algorithm>
#include <cmath>

#include "core/common/stats.hpp"
#include "core/range/square_wave.hpp"
#include "pg/range/range_glue.hpp"

using ldp::RangePrepared;

namespace {

void* make_prepared(FunctionCallInfo fcinfo, MemoryContext mcxt) {
  const ldp::RangeSummary& s = RangeGlue::arg(fcinfo, 0);
  const ldp::DecodeLimits limits = ldp_pg::decode_limits();
  size_t size = 0;
  LDP_CORE({
    size = ldp::range_prepared_size(s.protocol);
    ldp::DecodeBudget budget(limits, "a range summary's decode");
    budget.hold(static_cast<double>(size), "its decode of %lld buckets", static_cast<long long>(s.protocol.domain()));
  });
  auto* d = static_cast<RangePrepared*>(MemoryContextAllocExtended(mcxt, size, MCXT_ALLOC_HUGE));
  LDP_CORE(ldp::range_prepare(s, d, size));
  return d;
}

void release_prepared(void* v) { pfree(v); }

// Kept for the session (ldp_pg::session_prepared_summary): asking again of the same stored
// summary in a later query decodes nothing.
RangePrepared* prepare_range(FunctionCallInfo fcinfo) {
  return static_cast<RangePrepared*>(ldp_pg::session_prepared_summary(fcinfo, 0, make_prepared, release_prepared));
}

// ... of a mechanism with linear answers (prefixes and ranges; 22023 naming the accessor,
// with a hint at density for Square Wave's, which has none).
RangePrepared* prepare_linear(FunctionCallInfo fcinfo, const char* what) {
  RangePrepared* d = prepare_range(fcinfo);
  bool linear = false;
  LDP_CORE(linear = ldp::range_has_linear(d->protocol));
  if (!linear)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s needs a mechanism with linear answers; a %s summary has none", what,
                           ldp::range_mechanism_name(d->protocol.mechanism)),
                    errhint("ldp.density(summary, bins) estimates a Square Wave summary's distribution, with "
                            "bootstrap standard errors.")));
  return d;
}

// ... with the CDF's blocks, for the quantiles: D prefixes, planned against the work limit.
RangePrepared* prepare_quantiles(FunctionCallInfo fcinfo, const char* what) {
  RangePrepared* d = prepare_linear(fcinfo, what);
  if (!d->blocks_built) {
    const ldp::DecodeLimits limits = ldp_pg::decode_limits();
    LDP_CORE({
      ldp::DecodeBudget budget(limits, "a range summary's quantiles");
      budget.plan(ldp::range_quantiles_work(d->protocol), "the CDF at each of its %lld buckets",
                  static_cast<long long>(d->protocol.domain()));
      ldp::range_prepare_quantiles(d);
    });
  }
  return d;
}

ldp::LinearAnswer answer_of(const RangePrepared* d, int64 lo, int64 hi) {
  ldp::LinearAnswer a;
  LDP_CORE(a = ldp::range_answer(*d, lo, hi));
  return a;
}

// A value argument as the device maps it: its bucket (NaN: 22023).
int64 bucket_of(const RangePrepared* d, double value, const char* what) {
  if (std::isnan(value))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s must not be NaN", what)));
  int64 b = 0;
  LDP_CORE(b = ldp::range_bucket(d->protocol, value));
  return b;
}

double critical_value(double confidence) {
  double z = 0;
  LDP_CORE(z = ldp::normal_critical_value(confidence));
  return z;
}

// The point clipped to [0, 1]; the interval estimate ± z·se intersected with [0, 1] (its
// ends clamped there); no standard error (NULL, and no interval) when the variance is +Inf.
struct Shown {
  double point, se, lower, upper;
  bool has_se;
};
Shown shown(const ldp::LinearAnswer& a, double z) {
  Shown s{std::clamp(a.estimate, 0.0, 1.0), 0, 0, 0, std::isfinite(a.variance)};
  if (s.has_se) {
    s.se = std::sqrt(a.variance);
    s.lower = std::clamp(a.estimate - z * s.se, 0.0, 1.0);
    s.upper = std::clamp(a.estimate + z * s.se, 0.0, 1.0);
  }
  return s;
}

// (frequency, count, std_error, ci_lower, ci_upper) of one linear answer.
Datum linear_result(FunctionCallInfo fcinfo, const RangePrepared* d, const ldp::LinearAnswer& a) {
  Datum values[5] = {};
  bool nulls[5] = {true, true, true, true, true};
  if (d->n > 0) {
    const Shown s = shown(a, critical_value(0.95));
    values[0] = Float8GetDatum(ldp_pg::finite_result(s.point, "the frequency"));
    values[1] = Float8GetDatum(ldp_pg::finite_result(s.point * static_cast<double>(d->n), "the count"));
    nulls[0] = nulls[1] = false;
    if (s.has_se) {
      values[2] = Float8GetDatum(ldp_pg::finite_result(s.se, "the standard error"));
      values[3] = Float8GetDatum(s.lower);
      values[4] = Float8GetDatum(s.upper);
      nulls[2] = nulls[3] = nulls[4] = false;
    }
  }
  return ldp_pg::composite_result(fcinfo, values, nulls, 5);
}

}  // namespace

// range_frequency(s, lo, hi): the share of reports whose value lies in [lo, hi] (both
// mapped to their buckets as the device maps values).
LDP_FUNCTION(ldp_range_frequency) {
  RangePrepared* d = prepare_linear(fcinfo, "range_frequency");
  const double lo = PG_GETARG_FLOAT8(1), hi = PG_GETARG_FLOAT8(2);
  const int64 a = bucket_of(d, lo, "lo"), b = bucket_of(d, hi, "hi");
  if (lo > hi)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("lo must be <= hi, got [%g, %g]", lo, hi)));
  return linear_result(fcinfo, d, answer_of(d, a, b));
}

// cdf(s, x): the share of reports whose value is at most x (its bucket and those below).
LDP_FUNCTION(ldp_range_cdf) {
  RangePrepared* d = prepare_linear(fcinfo, "cdf");
  const int64 x = bucket_of(d, PG_GETARG_FLOAT8(1), "x");
  ldp::LinearAnswer a;
  LDP_CORE(a = ldp::range_prefix(*d, x));
  return linear_result(fcinfo, d, a);
}

namespace {

double phi_of(double phi) {
  if (!(phi >= 0 && phi <= 1))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("phi must be in [0, 1], got %g", phi)));
  return phi;
}

// (phi, value, ci_lower, ci_upper): the quantile's bucket by its lower edge, the interval
// [lower edge of L, upper edge of U) in the protocol's units.
void quantile_values(const RangePrepared* d, double phi, double z, Datum* values) {
  ldp::QuantileAnswer q{};
  LDP_CORE(q = ldp::range_quantile(*d, phi, z));
  values[0] = Float8GetDatum(phi);
  values[1] = Float8GetDatum(ldp::range_bucket_lower(d->protocol, q.bucket));
  values[2] = Float8GetDatum(ldp::range_bucket_lower(d->protocol, q.lower));
  values[3] = Float8GetDatum(ldp::range_bucket_upper(d->protocol, q.upper));
}

}  // namespace

// quantile(s, phi): the φ-quantile with its pointwise 95% interval.
LDP_FUNCTION(ldp_range_quantile) {
  const double phi = phi_of(PG_GETARG_FLOAT8(1));
  RangePrepared* d = prepare_quantiles(fcinfo, "quantile");
  Datum values[4] = {Float8GetDatum(phi), 0, 0, 0};
  bool nulls[4] = {false, true, true, true};
  if (d->n > 0) {
    quantile_values(d, phi, critical_value(0.95), values);
    nulls[1] = nulls[2] = nulls[3] = false;
  }
  return ldp_pg::composite_result(fcinfo, values, nulls, 4);
}

// quantiles(s, phis): one row per element, in array order (a NULL element: a row of
// NULLs), with a simultaneous band: Bonferroni over the m non-NULL elements, each interval
// at z = Φ⁻¹(1 − 0.05/(2m)), so that all m cover together with probability >= 95%.
LDP_FUNCTION(ldp_range_quantiles) {
  ArrayType* phis = PG_GETARG_ARRAYTYPE_P(1);
  if (ARR_NDIM(phis) > 1)
    ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR), errmsg("phis must be a one-dimensional array")));
  Datum* elems;
  bool* elem_nulls;
  int count;
  deconstruct_array(phis, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &elems, &elem_nulls, &count);
  int m = 0;
  for (int i = 0; i < count; ++i)
    if (!elem_nulls[i]) {
      phi_of(DatumGetFloat8(elems[i]));
      ++m;
    }
  InitMaterializedSRF(fcinfo, 0);
  auto* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  RangePrepared* d = prepare_quantiles(fcinfo, "quantiles");
  if (d->n == 0 || count == 0) return (Datum)0;
  double z = 0;
  if (m > 0) LDP_CORE(z = ldp::normal_upper_quantile(0.05 / (2.0 * m)));
  for (int i = 0; i < count; ++i) {
    CHECK_FOR_INTERRUPTS();
    Datum values[4] = {0, 0, 0, 0};
    bool nulls[4] = {true, true, true, true};
    if (!elem_nulls[i]) {
      quantile_values(d, DatumGetFloat8(elems[i]), z, values);
      nulls[0] = nulls[1] = nulls[2] = nulls[3] = false;
    }
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
  }
  return (Datum)0;
}

// histogram(s, bins): the domain's buckets cut into `bins` groups of consecutive buckets
// (as equal as whole buckets allow), one row each: (lo, hi) the group's value interval
// [lo, hi), its share with standard error and 95% interval.
LDP_FUNCTION(ldp_range_histogram) {
  const int32 bins = PG_GETARG_INT32(1);
  RangePrepared* d = prepare_linear(fcinfo, "histogram");
  const int64 domain = d->protocol.domain();
  if (bins < 1 || bins > domain)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("bins must be between 1 and the domain's %lld buckets, got %d",
                           static_cast<long long>(domain), bins)));
  InitMaterializedSRF(fcinfo, 0);
  auto* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  if (d->n == 0) return (Datum)0;
  const double z = critical_value(0.95);
  for (int64 i = 0; i < bins; ++i) {
    CHECK_FOR_INTERRUPTS();
    const int64 first = i * domain / bins, last = (i + 1) * domain / bins - 1;
    const Shown s = shown(answer_of(d, first, last), z);
    Datum values[6] = {Float8GetDatum(ldp::range_bucket_lower(d->protocol, first)),
                       Float8GetDatum(ldp::range_bucket_upper(d->protocol, last)),
                       Float8GetDatum(ldp_pg::finite_result(s.point, "a frequency")),
                       Float8GetDatum(s.se), Float8GetDatum(s.lower), Float8GetDatum(s.upper)};
    bool nulls[6] = {false, false, false, !s.has_se, !s.has_se, !s.has_se};
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
  }
  return (Datum)0;
}

// density(s, bins, replicates, seed, smoothing): a Square Wave summary's distribution over
// `bins` groups of buckets (histogram's), by EM (EMS with smoothing) on its histogram, each
// with the standard deviation of `replicates` bootstrap replicates and the 95% interval
// frequency ± 1.96 of it intersected with [0, 1] (docs/algorithms/ranges.md#square-wave):
// model-based, not an exact variance.
LDP_FUNCTION(ldp_range_density) {
  const int32 bins = PG_GETARG_INT32(1), replicates = PG_GETARG_INT32(2);
  const int64 seed = PG_GETARG_INT64(3);
  const bool smoothing = PG_GETARG_BOOL(4);
  RangePrepared* d = prepare_range(fcinfo);
  bool has_density = false;
  LDP_CORE(has_density = ldp::range_has_density(d->protocol));
  if (!has_density)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("density needs a Square Wave (sw) summary; a %s summary has linear answers",
                           ldp::range_mechanism_name(d->protocol.mechanism)),
                    errhint("ldp.histogram(summary, bins) gives its shares with exact standard errors.")));
  const int64 domain = d->protocol.domain();
  if (bins < 1 || bins > domain)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("bins must be between 1 and the domain's %lld buckets, got %d",
                           static_cast<long long>(domain), bins)));
  if (replicates < 0 || replicates > ldp::kSwMaxReplicates)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("replicates must be between 0 and %d, got %d", ldp::kSwMaxReplicates, replicates)));
  InitMaterializedSRF(fcinfo, 0);
  auto* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  if (d->n == 0) return (Datum)0;
  ldp::SwDensityQuery q;
  q.bins = bins;
  q.replicates = replicates;
  q.seed = static_cast<uint64_t>(seed);
  q.em.smoothing = smoothing;
  q.limits = ldp_pg::decode_limits();
  // the rows, in memory the budget has allowed, before the core's vectors exist
  LDP_CORE({
    ldp::DecodeBudget budget(q.limits, "density");
    budget.hold(static_cast<double>(bins) * sizeof(ldp::SwDensityBin), "its %d rows", bins);
  });
  auto* rows = static_cast<ldp::SwDensityBin*>(
      MemoryContextAllocExtended(CurrentMemoryContext, sizeof(ldp::SwDensityBin) * static_cast<size_t>(bins),
                                 MCXT_ALLOC_HUGE));
  LDP_CORE({
    const ldp::SwDensity out = ldp::range_density(*d, q);
    std::copy(out.bins.begin(), out.bins.end(), rows);
  });
  const double z = critical_value(0.95);
  for (int64 i = 0; i < bins; ++i) {
    CHECK_FOR_INTERRUPTS();
    const ldp::SwDensityBin& b = rows[i];
    const bool has_se = std::isfinite(b.std_error);
    Datum values[6] = {Float8GetDatum(ldp::range_bucket_lower(d->protocol, b.first)),
                       Float8GetDatum(ldp::range_bucket_upper(d->protocol, b.last)),
                       Float8GetDatum(ldp_pg::finite_result(b.frequency, "a frequency")),
                       Float8GetDatum(has_se ? b.std_error : 0),
                       Float8GetDatum(has_se ? std::clamp(b.frequency - z * b.std_error, 0.0, 1.0) : 0),
                       Float8GetDatum(has_se ? std::clamp(b.frequency + z * b.std_error, 0.0, 1.0) : 0)};
    bool nulls[6] = {false, false, false, !has_se, !has_se, !has_se};
    tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
  }
  pfree(rows);
  return (Datum)0;
}
