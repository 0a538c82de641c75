#include "core/range/haar.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/error.hpp"
#include "core/common/fwht.hpp"
#include "core/common/interrupt.hpp"
#include "core/oracles/hadamard_response.hpp"
#include "core/range/range_internal.hpp"

namespace ldp {

bool haar_true_sign(int domain_bits, int64_t bucket, int level, int64_t row) {
  const int shift = domain_bits - level;
  const int64_t node = bucket >> shift;
  const bool left = ((bucket >> (shift - 1)) & 1) == 0;
  return hadamard_plus(row, node) == left;
}

bool hrr_randomize(bool truth, double epsilon, RandomSource& rng) {
  const double keep = 1.0 / (1.0 + std::exp(-epsilon));  // e^ε/(e^ε+1), finite for every ε
  return rng.bernoulli(keep) ? truth : !truth;
}

RangeReport haar_encode(const RangeProtocol& p, int64_t bucket, RandomSource& rng) {
  RangeReport r;
  r.level = static_cast<int>(rng.below(static_cast<uint64_t>(p.domain_bits)));
  r.row = static_cast<int64_t>(rng.below(uint64_t{1} << r.level));
  r.plus_one = hrr_randomize(haar_true_sign(p.domain_bits, bucket, r.level, r.row), p.epsilon, rng);
  return r;
}

void haar_check_report(int k, int64_t level, int64_t row) {
  if (level < 0 || level >= k)
    throw_error(ErrorKind::ImpossibleReport, "a HaarHRR report's level must be in [0, %d), got %lld", k,
                static_cast<long long>(level));
  if (row < 0 || row >= (int64_t{1} << level))
    throw_error(ErrorKind::ImpossibleReport, "a HaarHRR report of level %lld has a row in [0, %lld), got %lld",
                static_cast<long long>(level), static_cast<long long>(int64_t{1} << level),
                static_cast<long long>(row));
}

void HaarCounts::add(int level, int64_t row, bool plus_one) {
  haar_check_report(domain_bits, level, row);
  ++n[static_cast<size_t>(level)];
  sums[(size_t{1} << level) - 1 + static_cast<size_t>(row)] += plus_one ? 1 : -1;
}

int64_t HaarCounts::reports() const {
  int64_t t = 0;
  for (int64_t v : n) t += v;
  return t;
}

double haar_c(double epsilon) {
  const double e = std::expm1(epsilon);
  return (e + 2) / e;
}

void hrr_level_estimates(double c, int64_t n, const int64_t* sums, int64_t m, double* out,
                         std::vector<uint64_t>& t) {
  if (n == 0) {
    std::fill(out, out + m, 0.0);
    return;
  }
  t.assign(sums, sums + m);
  fwht_exact(t.data(), m);
  const double scale = c / static_cast<double>(n);
  for (int64_t q = 0; q < m; ++q) out[q] = scale * static_cast<double>(static_cast<int64_t>(t[static_cast<size_t>(q)]));
}

void haar_decode(const RangeProtocol& p, const int64_t* n, const int64_t* sums, double* coef) {
  const int k = p.domain_bits;
  const double c = haar_c(p.epsilon);
  std::vector<uint64_t> t;
  for (int j = 0; j < k; ++j) {
    check_interrupt();
    const int64_t off = (int64_t{1} << j) - 1;
    hrr_level_estimates(c, n[j], sums + off, int64_t{1} << j, coef + off, t);
  }
}

HaarDecoded::HaarDecoded(const RangeProtocol& p, const HaarCounts& counts)
    : k_(counts.domain_bits), c2_(haar_c2(p.epsilon)), reports_(counts.reports()), coef_(counts.sums.size(), 0.0),
      n_(counts.n) {
  haar_decode(p, n_.data(), counts.sums.data(), coef_.data());
}

double HaarView::level_variance(int level, int64_t u, double au, int64_t v, double av) const {
  if (u == v) {
    au += av;
    av = 0;
  }
  const double sumsq = au * au + av * av;
  if (sumsq == 0) return 0;
  const int64_t nl = n[level];
  if (nl == 0) return std::numeric_limits<double>::infinity();
  // the plug-in coefficients, clipped to what two disjoint nodes can have: |du| + |dv| <= 1
  double du = std::clamp(coefficient(level, u), -1.0, 1.0);
  double dv = av == 0 ? 0.0 : std::clamp(coefficient(level, v), -1.0, 1.0);
  const double l1 = std::fabs(du) + std::fabs(dv);
  if (l1 > 1) {
    du /= l1;
    dv /= l1;
  }
  const double dot = au * du + av * dv;
  return std::max(0.0, (c2 * sumsq - dot * dot) / static_cast<double>(nl));
}

LinearAnswer HaarView::prefix(int64_t x) const {
  LinearAnswer a;
  if (x < 0) return a;
  const int64_t d = domain();
  if (x >= d - 1) {
    a.estimate = 1;
    return a;
  }
  a.estimate = static_cast<double>(x + 1) / static_cast<double>(d);
  for (int j = 0; j < k; ++j) {
    const int shift = k - j;
    const int64_t m = int64_t{1} << shift, node = x >> shift, o = x - (node << shift) + 1;
    const double w = static_cast<double>(std::min(o, m - o)) / static_cast<double>(m);
    if (w == 0) continue;
    a.estimate += w * coefficient(j, node);
    a.variance += level_variance(j, node, w, node, 0);
  }
  return a;
}

LinearAnswer HaarView::range(int64_t lo, int64_t hi) const {
  if (lo <= 0) return prefix(hi);
  LinearAnswer a;
  a.estimate = static_cast<double>(hi - lo + 1) / static_cast<double>(domain());
  const int64_t below = lo - 1;
  for (int j = 0; j < k; ++j) {
    const int shift = k - j;
    const int64_t m = int64_t{1} << shift;
    const int64_t nh = hi >> shift, oh = hi - (nh << shift) + 1;
    const int64_t nl = below >> shift, ol = below - (nl << shift) + 1;
    const double wh = static_cast<double>(std::min(oh, m - oh)) / static_cast<double>(m);
    const double wl = static_cast<double>(std::min(ol, m - ol)) / static_cast<double>(m);
    a.estimate += wh * coefficient(j, nh) - wl * coefficient(j, nl);
    a.variance += level_variance(j, nh, wh, nl, -wl);
  }
  return a;
}

// ---- the registry row (range_internal.hpp) ----

namespace {

// The prepared area: c², then k level counts, then 2^k − 1 coefficients.
struct HaarArea {
  double c2;
  int64_t* counts() { return reinterpret_cast<int64_t*>(this + 1); }
  const int64_t* counts() const { return reinterpret_cast<const int64_t*>(this + 1); }
};

int64_t haar_counts(const RangeProtocol& p) { return p.domain_bits; }
int64_t haar_segment(const RangeProtocol&, int64_t level) { return int64_t{1} << level; }
void haar_check(const RangeProtocol& p, int64_t level, int64_t row) { haar_check_report(p.domain_bits, level, row); }

size_t haar_prepared_bytes(const RangeProtocol& p) {
  return sizeof(HaarArea) + sizeof(int64_t) * static_cast<size_t>(p.domain_bits) +
         sizeof(double) * static_cast<size_t>(p.domain() - 1);
}

void haar_prepare(const RangeSummary& s, void* area) {
  auto* a = static_cast<HaarArea*>(area);
  a->c2 = haar_c2(s.protocol.epsilon);
  std::copy(s.level_counts(), s.level_counts() + s.levels(), a->counts());
  haar_decode(s.protocol, s.level_counts(), s.row_sums(), reinterpret_cast<double*>(a->counts() + s.levels()));
}

HaarView view_of(const RangeProtocol& p, const void* area) {
  const auto* a = static_cast<const HaarArea*>(area);
  return HaarView{p.domain_bits, a->c2, a->counts(), reinterpret_cast<const double*>(a->counts() + p.domain_bits)};
}

LinearAnswer haar_prefix(const RangeProtocol& p, const void* area, int64_t x) { return view_of(p, area).prefix(x); }
LinearAnswer haar_range(const RangeProtocol& p, const void* area, int64_t lo, int64_t hi) {
  return view_of(p, area).range(lo, hi);
}
double haar_prefix_cost(const RangeProtocol& p) { return p.domain_bits; }

}  // namespace

extern const RangeMechanismImpl kHaarImpl;
const RangeMechanismImpl kHaarImpl = {
    RangeMechanism::Haar, "haar", {nullptr, nullptr}, nullptr, nullptr,
    {"levels", "sums"}, "level counts", "level", haar_counts, haar_segment,
    0, haar_check, haar_encode,
    haar_prepared_bytes, haar_prepare, haar_prefix, haar_range, haar_prefix_cost, nullptr,
};

}  // namespace ldp
