#include "core/range/range_quantile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/common/error.hpp"
#include "core/common/interrupt.hpp"

namespace ldp {

namespace {
// f + z·se, with z = 0 giving f even where se is +Inf (0·Inf would be NaN).
double shifted(double f, double z, double se) { return z == 0 ? f : f + z * se; }
}  // namespace

CdfSearch::Point CdfSearch::at(CdfPrefix prefix, const void* context, int64_t x) {
  const LinearAnswer a = prefix(context, x);
  return {a.estimate, std::sqrt(a.variance)};
}

void CdfSearch::build(int64_t domain, CdfPrefix prefix, const void* context, CdfBlock* out) {
  const int64_t nb = blocks_for(domain);
  for (int64_t b = 0; b < nb; ++b) {
    if ((b & 255) == 0) check_interrupt();
    CdfBlock blk{-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), 0};
    const int64_t end = std::min(domain, (b + 1) * kCdfBlock);
    for (int64_t x = b * kCdfBlock; x < end; ++x) {
      const Point p = at(prefix, context, x);
      blk.max_f = std::max(blk.max_f, p.f);
      blk.min_f = std::min(blk.min_f, p.f);
      blk.max_se = std::max(blk.max_se, p.se);
    }
    out[b] = blk;
  }
}

// The first x whose F̂(x) + z·se(x) reaches φ (D − 1 when none does).
int64_t CdfSearch::first_reaching(double phi, double z) const {
  const int64_t nb = blocks_for(domain_);
  for (int64_t b = 0; b < nb; ++b) {
    const CdfBlock& blk = blocks_[b];
    if (shifted(blk.max_f, z, blk.max_se) < phi) continue;
    const int64_t end = std::min(domain_, (b + 1) * kCdfBlock);
    for (int64_t x = b * kCdfBlock; x < end; ++x) {
      const Point p = at(prefix_, context_, x);
      if (shifted(p.f, z, p.se) >= phi) return x;
    }
  }
  return domain_ - 1;
}

QuantileAnswer CdfSearch::quantile(double phi, double z) const {
  if (!(phi >= 0 && phi <= 1)) throw_error(ErrorKind::InvalidParameter, "a quantile's phi must be in [0, 1], got %g", phi);
  if (!(z >= 0)) throw_error(ErrorKind::InvalidParameter, "a quantile's critical value must be >= 0, got %g", z);
  QuantileAnswer q{phi, domain_ - 1, domain_ - 1, domain_ - 1};
  q.bucket = first_reaching(phi, 0);
  q.lower = first_reaching(phi, z);
  // the last y with F̂(y) − z·se(y) < φ, from the right
  q.upper = 0;
  for (int64_t b = blocks_for(domain_) - 1; b >= 0; --b) {
    const CdfBlock& blk = blocks_[b];
    if (shifted(blk.min_f, -z, blk.max_se) >= phi) continue;
    const int64_t end = std::min(domain_, (b + 1) * kCdfBlock);
    int64_t found = -1;
    for (int64_t y = end - 1; y >= b * kCdfBlock; --y) {
      const Point p = at(prefix_, context_, y);
      if (shifted(p.f, -z, p.se) < phi) {
        found = y;
        break;
      }
    }
    if (found >= 0) {
      q.upper = std::min(domain_ - 1, found + 1);
      break;
    }
  }
  q.lower = std::min(q.lower, q.bucket);
  q.upper = std::max(q.upper, q.bucket);
  return q;
}

CdfIndex::CdfIndex(int64_t domain, std::function<LinearAnswer(int64_t)> prefix)
    : domain_(domain), prefix_(std::move(prefix)), blocks_(static_cast<size_t>(CdfSearch::blocks_for(domain))) {
  CdfSearch::build(domain_, call, &prefix_, blocks_.data());
}

}  // namespace ldp
