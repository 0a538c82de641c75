#include "core/range/range_protocol.hpp"

#include <cmath>
#include <cstring>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"

namespace ldp {

void validate_range_protocol(const RangeProtocol& p) {
  check_epsilon(p.epsilon);
  if (p.domain_bits < 1 || p.domain_bits > kMaxRangeDomainBits)
    throw_error(ErrorKind::InvalidParameter, "domain_bits must be between 1 and %d, got %d", kMaxRangeDomainBits,
                p.domain_bits);
  if (p.mechanism != RangeMechanism::Haar)
    throw_error(ErrorKind::InvalidParameter, "unknown range mechanism %d", static_cast<int>(p.mechanism));
  switch (p.mapping) {
    case RangeMapping::Floor:
      return;
    case RangeMapping::Linear:
      if (!std::isfinite(p.lo) || !std::isfinite(p.hi) || !(p.lo < p.hi) || !std::isfinite(p.hi - p.lo))
        throw_error(ErrorKind::InvalidParameter, "a linear mapping needs finite bounds lo < hi, got [%g, %g)", p.lo,
                    p.hi);
      return;
    case RangeMapping::Log:
      if (!std::isfinite(p.lo) || !std::isfinite(p.hi) || !(p.lo > 0) || !(p.lo < p.hi))
        throw_error(ErrorKind::InvalidParameter, "a log mapping needs finite bounds 0 < lo < hi, got [%g, %g)", p.lo,
                    p.hi);
      return;
  }
  throw_error(ErrorKind::InvalidParameter, "unknown range mapping %d", static_cast<int>(p.mapping));
}

const char* range_mechanism_name(RangeMechanism m) { return m == RangeMechanism::Haar ? "haar" : "?"; }

const char* range_mapping_name(RangeMapping m) {
  switch (m) {
    case RangeMapping::Floor: return "floor";
    case RangeMapping::Linear: return "linear";
    case RangeMapping::Log: return "log";
  }
  return "?";
}

RangeMechanism range_mechanism_from_name(const char* name) {
  if (std::strcmp(name, "haar") == 0) return RangeMechanism::Haar;
  throw_error(ErrorKind::InvalidParameter, "unknown range mechanism \"%s\" (known: haar)", name);
}

RangeMapping range_mapping_from_name(const char* name) {
  for (RangeMapping m : {RangeMapping::Floor, RangeMapping::Linear, RangeMapping::Log})
    if (std::strcmp(name, range_mapping_name(m)) == 0) return m;
  throw_error(ErrorKind::InvalidParameter, "unknown range mapping \"%s\" (known: floor, linear, log)", name);
}

namespace {

// x in buckets, clamped to [0, D): NaN has been refused, ±Inf clamp.
int64_t clamp_bucket(double x, int64_t domain) {
  if (!(x >= 0)) return 0;
  if (x >= static_cast<double>(domain)) return domain - 1;
  return static_cast<int64_t>(x);
}

}  // namespace

int64_t range_bucket(const RangeProtocol& p, double value) {
  if (std::isnan(value)) throw_error(ErrorKind::InvalidParameter, "a range value must not be NaN");
  const double d = static_cast<double>(p.domain());
  switch (p.mapping) {
    case RangeMapping::Floor:
      return clamp_bucket(std::floor(value), p.domain());
    case RangeMapping::Linear:
      return clamp_bucket(std::floor((value - p.lo) / (p.hi - p.lo) * d), p.domain());
    case RangeMapping::Log:
      if (!(value > p.lo)) return 0;
      return clamp_bucket(std::floor(std::log(value / p.lo) / std::log(p.hi / p.lo) * d), p.domain());
  }
  throw_error(ErrorKind::Internal, "unknown range mapping");
}

double range_bucket_lower(const RangeProtocol& p, int64_t b) {
  const double t = static_cast<double>(b) / static_cast<double>(p.domain());
  switch (p.mapping) {
    case RangeMapping::Floor: return static_cast<double>(b);
    case RangeMapping::Linear: return p.lo + t * (p.hi - p.lo);
    case RangeMapping::Log: return p.lo * std::exp(t * std::log(p.hi / p.lo));
  }
  return 0;
}

double range_bucket_upper(const RangeProtocol& p, int64_t b) { return range_bucket_lower(p, b + 1); }

}  // namespace ldp
