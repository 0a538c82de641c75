#include "core/range/range_quantile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/common/error.hpp"
#include "core/common/interrupt.hpp"

namespace ldp {

CdfIndex::CdfIndex(int64_t domain, std::function<LinearAnswer(int64_t)> prefix)
    : domain_(domain), prefix_(std::move(prefix)) {
  const int64_t nb = (domain_ + kCdfBlock - 1) / kCdfBlock;
  blocks_.resize(static_cast<size_t>(nb));
  for (int64_t b = 0; b < nb; ++b) {
    if ((b & 255) == 0) check_interrupt();
    Block blk{-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), 0};
    const int64_t end = std::min(domain_, (b + 1) * kCdfBlock);
    for (int64_t x = b * kCdfBlock; x < end; ++x) {
      const Point p = at(x);
      blk.max_f = std::max(blk.max_f, p.f);
      blk.min_f = std::min(blk.min_f, p.f);
      blk.max_se = std::max(blk.max_se, p.se);
    }
    blocks_[static_cast<size_t>(b)] = blk;
  }
}

CdfIndex::Point CdfIndex::at(int64_t x) const {
  const LinearAnswer a = prefix_(x);
  return {a.estimate, std::sqrt(a.variance)};
}

QuantileAnswer CdfIndex::quantile(double phi, double z) const {
  if (!(phi >= 0 && phi <= 1)) throw_error(ErrorKind::InvalidParameter, "a quantile's phi must be in [0, 1], got %g", phi);
  QuantileAnswer q{phi, domain_ - 1, domain_ - 1, domain_ - 1};
  const int64_t nb = static_cast<int64_t>(blocks_.size());
  // the first x whose value (F̂, or F̂ + z·se) reaches φ
  auto first_reaching = [&](double zz) {
    for (int64_t b = 0; b < nb; ++b) {
      const Block& blk = blocks_[static_cast<size_t>(b)];
      if (blk.max_f + zz * blk.max_se < phi) continue;
      const int64_t end = std::min(domain_, (b + 1) * kCdfBlock);
      for (int64_t x = b * kCdfBlock; x < end; ++x) {
        const Point p = at(x);
        if (p.f + zz * p.se >= phi) return x;
      }
    }
    return domain_ - 1;
  };
  q.bucket = first_reaching(0);
  q.lower = first_reaching(z);
  // the last y with F̂(y) − z·se(y) < φ, from the right
  q.upper = 0;
  for (int64_t b = nb - 1; b >= 0; --b) {
    const Block& blk = blocks_[static_cast<size_t>(b)];
    if (blk.min_f - z * blk.max_se >= phi) continue;
    const int64_t end = std::min(domain_, (b + 1) * kCdfBlock);
    int64_t found = -1;
    for (int64_t y = end - 1; y >= b * kCdfBlock; --y) {
      const Point p = at(y);
      if (p.f - z * p.se < phi) {
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

}  // namespace ldp
