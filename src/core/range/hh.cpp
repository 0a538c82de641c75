// Hierarchical histograms (hh.hpp; docs/algorithms/ranges.md#hierarchical-histograms-hh):
// the tree, the encoder, the consistent decode and its answers with exact variances, and
// the registry row.
#include "core/range/hh.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/common/error.hpp"
#include "core/common/interrupt.hpp"
#include "core/oracles/hadamard_response.hpp"
#include "core/range/haar.hpp"
#include "core/range/range_internal.hpp"

namespace ldp {

namespace {
constexpr int kLevels = kMaxRangeDomainBits + 1;
int step_bits(const RangeProtocol& p) { return p.branching == 2 ? 1 : 2; }
}  // namespace

HhShape hh_shape(const RangeProtocol& p) {
  HhShape sh{};
  const int s = step_bits(p), k = p.domain_bits;
  sh.levels = (k + s - 1) / s;
  for (int l = 1; l <= sh.levels; ++l) sh.bits[l] = k - (sh.levels - l) * s;
  return sh;
}

bool hh_true_sign(const RangeProtocol& p, int64_t bucket, int level, int64_t row) {
  const HhShape sh = hh_shape(p);
  return hadamard_plus(row, bucket >> (p.domain_bits - sh.bits[level]));
}

RangeReport hh_encode(const RangeProtocol& p, int64_t bucket, RandomSource& rng) {
  const HhShape sh = hh_shape(p);
  RangeReport r;
  r.level = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(sh.levels)));
  r.row = static_cast<int64_t>(rng.below(static_cast<uint64_t>(sh.nodes(r.level))));
  r.plus_one = hrr_randomize(hadamard_plus(r.row, bucket >> (p.domain_bits - sh.bits[r.level])), p.epsilon, rng);
  return r;
}

void hh_check_report(const RangeProtocol& p, int64_t level, int64_t row) {
  const HhShape sh = hh_shape(p);
  if (level < 1 || level > sh.levels)
    throw_error(ErrorKind::ImpossibleReport, "an hh report's level must be in [1, %d], got %" PRId64, sh.levels, level);
  if (row < 0 || row >= sh.nodes(static_cast<int>(level)))
    throw_error(ErrorKind::ImpossibleReport, "an hh report of level %" PRId64 " has a row in [0, %" PRId64 "), got %" PRId64,
                level, sh.nodes(static_cast<int>(level)), row);
}

std::vector<double> hh_level_estimates(const RangeSummary& s, int level) {
  const HhShape sh = hh_shape(s.protocol);
  if (level < 1 || level > sh.levels) throw_error(ErrorKind::InvalidParameter, "no hh level %d", level);
  std::vector<double> out(static_cast<size_t>(sh.nodes(level)));
  std::vector<uint64_t> t;
  hrr_level_estimates(haar_c(s.protocol.epsilon), s.counters()[level - 1], s.counters() + s.segment_at[level - 1],
                      sh.nodes(level), out.data(), t);
  return out;
}

// ---- the consistent decode ----
//
// With s_ℓ = n_ℓ/m_ℓ (m_ℓ = 2^bits(ℓ) nodes) and ρ_ℓ = Σ_{L >= ℓ} s_L, the bottom-up pass
// gives each node z = (s_ℓ·x̂ + ρ_{ℓ+1}·Σ children's z)/ρ_ℓ (the least-squares estimate of
// its subtree alone), in which an estimate x̂_L of level L below it weighs
// α(ℓ, L) = s_L/ρ_ℓ; the top-down pass adds to each child 1/β of its parent's discrepancy.
// A prefix [0, y) is then e_0 + Σ_ℓ Σ_i γ_ℓ(i)·z(child i of y's ancestor at ℓ − 1), with
// e_h = 0, e_(ℓ−1) = (t_ℓ + e_ℓ)/β_ℓ (t_ℓ: y's digit at level ℓ) and γ = 1 − e_(ℓ−1) for
// the children left of y's path, e_ℓ − e_(ℓ−1) on it, −e_(ℓ−1) right of it. So the
// weight of x̂_(L,q) is s_L·(G_λ + γ_(λ+1)(side)/ρ_(λ+1)), G_λ = Σ_(m<=λ) γ_m(path)/ρ_m, for
// λ the level where q's ancestors leave y's path: constant over at most 2L + 1 runs of
// level L's nodes (docs/algorithms/ranges.md#hh-exact-variances).
namespace {

struct HhArea {
  int64_t h;
  int64_t lstar;  // the first level from which no level has reports (h + 1: none)
  double c2;
  int64_t n[kLevels];       // n_ℓ
  int64_t bits[kLevels];    // level ℓ has 2^bits[ℓ] nodes
  double s[kLevels];        // s_ℓ = n_ℓ/2^bits[ℓ]
  double r[kLevels];        // 1/ρ_ℓ below lstar, else 0
  double nodes[kLevels];    // 2^bits[ℓ]
  double inv_beta[kLevels];  // 1/β_ℓ = 2^(bits[ℓ−1] − bits[ℓ])
  int64_t offset[kLevels];  // level ℓ's values at values() + offset[ℓ]; ℓ = h: D + 1 cumulative sums
  double* values() { return reinterpret_cast<double*>(this + 1); }
  const double* values() const { return reinterpret_cast<const double*>(this + 1); }
  const double* cum() const { return values() + offset[h]; }  // cum[y]: the consistent share of [0, y)
};
static_assert(sizeof(HhArea) % 8 == 0, "the values must stay 8-byte aligned");

int64_t area_values(const RangeProtocol& p) {
  const HhShape sh = hh_shape(p);
  int64_t v = p.domain() + 1;
  for (int l = 1; l < sh.levels; ++l) v += sh.nodes(l);
  return v;
}

size_t hh_prepared_bytes(const RangeProtocol& p) {
  return sizeof(HhArea) + sizeof(double) * static_cast<size_t>(area_values(p));
}

void hh_prepare(const RangeSummary& s, void* area) {
  auto* a = static_cast<HhArea*>(area);
  std::memset(static_cast<void*>(a), 0, sizeof(HhArea));
  const RangeProtocol& p = s.protocol;
  const HhShape sh = hh_shape(p);
  const int h = sh.levels;
  const double c = haar_c(p.epsilon);
  a->h = h;
  a->c2 = c * c;
  double rho[kLevels + 1] = {};
  for (int l = h; l >= 1; --l) {
    a->n[l] = s.counters()[l - 1];
    a->bits[l] = sh.bits[l];
    a->s[l] = std::ldexp(static_cast<double>(a->n[l]), -sh.bits[l]);
    a->nodes[l] = std::ldexp(1.0, sh.bits[l]);
    a->inv_beta[l] = std::ldexp(1.0, sh.bits[l - 1] - sh.bits[l]);
    rho[l] = a->s[l] + rho[l + 1];
  }
  a->lstar = h + 1;
  for (int l = h; l >= 1 && rho[l] == 0; --l) a->lstar = l;
  for (int l = 1; l < a->lstar; ++l) a->r[l] = 1 / rho[l];
  int64_t off = 0;
  for (int l = 1; l <= h; ++l) {
    a->offset[l] = off;
    off += sh.nodes(l);
  }
  double* v = a->values();
  auto level = [&](int l) { return v + a->offset[l] + (l == h ? 1 : 0); };  // the leaves after cum[0]
  // bottom-up: z of every node, in place of its level's estimates
  std::vector<uint64_t> t;
  for (int l = h; l >= 1; --l) {
    check_interrupt();
    double* z = level(l);
    const int64_t m = sh.nodes(l);
    hrr_level_estimates(c, a->n[l], s.counters() + s.segment_at[l - 1], m, z, t);
    if (rho[l] == 0) {
      std::fill(z, z + m, 0.0);
      continue;
    }
    const double own = a->s[l] / rho[l], below = rho[l + 1] / rho[l];
    if (l == h) {
      for (int64_t q = 0; q < m; ++q) z[q] *= own;
      continue;
    }
    const double* child = level(l + 1);
    const int64_t beta = sh.nodes(l + 1) / m;
    for (int64_t q = 0; q < m; ++q) {
      double sum = 0;
      for (int64_t i = 0; i < beta; ++i) sum += child[q * beta + i];
      z[q] = own * z[q] + below * sum;
    }
  }
  // top-down: each child gets 1/β of its parent's discrepancy (the root's total is 1)
  for (int l = 1; l <= h; ++l) {
    check_interrupt();
    double* x = level(l);
    const int64_t parents = l == 1 ? 1 : sh.nodes(l - 1), beta = sh.nodes(l) / parents;
    const double* up = l == 1 ? nullptr : level(l - 1);
    for (int64_t q = 0; q < parents; ++q) {
      double sum = 0;
      for (int64_t i = 0; i < beta; ++i) sum += x[q * beta + i];
      const double d = ((up == nullptr ? 1.0 : up[q]) - sum) / static_cast<double>(beta);
      for (int64_t i = 0; i < beta; ++i) x[q * beta + i] += d;
    }
  }
  double* cum = v + a->offset[h];
  cum[0] = 0;
  for (int64_t y = 1; y <= p.domain(); ++y) cum[y] += cum[y - 1];
}

// The coefficients of a prefix [0, y), y in (0, D): y's ancestors and the γ's of each
// level's sibling group.
struct Path {
  int64_t A[kLevels];  // the index of y's ancestor at level ℓ (A[h] = y)
  int64_t t[kLevels];  // its index among its siblings
  double gl[kLevels], gp[kLevels], gr[kLevels];
};

void path_of(const HhArea& a, int k, int64_t y, Path* p) {
  p->A[0] = 0;
  for (int l = 1; l <= a.h; ++l) p->A[l] = y >> (k - a.bits[l]);
  double e = 0;  // e_h
  for (int64_t l = a.h; l >= 1; --l) {
    p->t[l] = p->A[l] - (p->A[l - 1] << (a.bits[l] - a.bits[l - 1]));
    const double before = (static_cast<double>(p->t[l]) + e) * a.inv_beta[l];  // e_(ℓ−1)
    p->gl[l] = 1 - before;
    p->gp[l] = e - before;
    p->gr[l] = -before;
    e = before;
  }
}

// Whether [0, y) is a union of the nodes that the reports identify: those above lstar.
bool identified(const HhArea& a, int k, int64_t y) {
  if (a.lstar > a.h) return true;
  const int64_t size = int64_t{1} << (k - a.bits[a.lstar - 1]);
  return y % size == 0;
}

// The plug-in share of the leaves [lo, hi) (the consistent estimate), clipped to [0, 1].
double share(const HhArea& a, int64_t lo, int64_t hi) {
  return std::clamp(a.cum()[hi] - a.cum()[lo], 0.0, 1.0);
}

// Level L's term (c²·|a_L|² − (a_L·f)²)/n_L from its sum of squares and dot product
// before the factor s_L, the dot's plug-in shares adding up to `total` (scaled to 1 when
// more: what disjoint node sets can hold).
double level_term(const HhArea& a, int L, double sumsq, double dot, double total) {
  const double sl = a.s[L];
  dot = sl * dot / std::max(1.0, total);
  return std::max(0.0, (a.c2 * sl * sl * sumsq - dot * dot) / static_cast<double>(a.n[L]));
}

// The variance of the prefix [0, y), y in (0, D), identified: O(h), the runs of each
// level's weights kept as running sums over the levels above. At level L, y's ancestor
// covers the leaves [lo_L, hi_L); the runs that leave the path at L − 1 are
// [lo_(L−1), lo_L) (left) and [hi_L, hi_(L−1)) (right).
double prefix_variance(const HhArea& a, int k, int64_t y) {
  Path p;
  path_of(a, k, y, &p);
  const double* cum = a.cum();
  double var = 0, G = 0, density = 0, side_shares = 0, side_dot = 0;
  double cum_lo = 0, cum_hi = cum[int64_t{1} << k];  // at lo_(L−1) and hi_(L−1)
  for (int L = 1; L < a.lstar; ++L) {
    const int shift = k - static_cast<int>(a.bits[L]);
    const double at_lo = cum[p.A[L] << shift], at_hi = cum[(p.A[L] + 1) << shift];
    const double vl = G + p.gl[L] * a.r[L], vr = G + p.gr[L] * a.r[L];
    const double right = 1 / a.inv_beta[L] - 1 - static_cast<double>(p.t[L]);
    density += (static_cast<double>(p.t[L]) * vl * vl + right * vr * vr) / a.nodes[L];
    const double fl = std::clamp(at_lo - cum_lo, 0.0, 1.0), fr = std::clamp(cum_hi - at_hi, 0.0, 1.0);
    side_shares += fl + fr;
    side_dot += vl * fl + vr * fr;
    G += p.gp[L] * a.r[L];
    cum_lo = at_lo;
    cum_hi = at_hi;
    if (a.n[L] == 0) continue;
    const double fp = std::clamp(at_hi - at_lo, 0.0, 1.0);
    var += level_term(a, L, G * G + density * a.nodes[L], G * fp + side_dot, side_shares + fp);
  }
  return var;
}

// Level L's weights of the prefix [0, y) (nullptr path: y = 0 or D, no weights) as runs
// over the leaves, each (end, weight before s_L), in order; at most 2L + 1 of them.
struct Run {
  int64_t end;
  double v;
};
int runs_of(const HhArea& a, int k, const Path* p, int L, Run* out) {
  if (p == nullptr) {
    out[0] = {int64_t{1} << k, 0};
    return 1;
  }
  double G[kLevels];
  G[0] = 0;
  int count = 0;
  for (int l = 0; l < L; ++l) {
    out[count++] = {p->A[l + 1] << (k - a.bits[l + 1]), G[l] + p->gl[l + 1] * a.r[l + 1]};
    G[l + 1] = G[l] + p->gp[l + 1] * a.r[l + 1];
  }
  out[count++] = {(p->A[L] + 1) << (k - a.bits[L]), G[L]};
  for (int l = L - 1; l >= 0; --l) out[count++] = {(p->A[l] + 1) << (k - a.bits[l]), G[l] + p->gr[l + 1] * a.r[l + 1]};
  return count;
}

// The variance of [y1, y2) (0 <= y1 < y2 <= D, identified): the weights a(y2) − a(y1) of
// each level, from the two prefixes' runs merged, O(h²).
double range_variance(const HhArea& a, int k, int64_t y1, int64_t y2) {
  const int64_t d = int64_t{1} << k;
  Path p1, p2;
  const bool has1 = y1 > 0 && y1 < d, has2 = y2 > 0 && y2 < d;
  if (has1) path_of(a, k, y1, &p1);
  if (has2) path_of(a, k, y2, &p2);
  Run r1[2 * kLevels + 1], r2[2 * kLevels + 1];
  double var = 0;
  for (int L = 1; L < a.lstar; ++L) {
    if (a.n[L] == 0) continue;
    runs_of(a, k, has1 ? &p1 : nullptr, L, r1);
    runs_of(a, k, has2 ? &p2 : nullptr, L, r2);
    const int shift = k - static_cast<int>(a.bits[L]);
    double sumsq = 0, dot = 0, total = 0;
    int64_t pos = 0;
    for (int i = 0, j = 0; pos < d;) {
      const int64_t end = std::min(r1[i].end, r2[j].end);
      if (end > pos) {
        const double v = r2[j].v - r1[i].v, f = share(a, pos, end);
        sumsq += static_cast<double>((end - pos) >> shift) * v * v;
        dot += v * f;
        total += f;
        pos = end;
      }
      if (r1[i].end == end) ++i;
      if (r2[j].end == end) ++j;
    }
    var += level_term(a, L, sumsq, dot, total);
  }
  return var;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

LinearAnswer hh_prefix(const RangeProtocol& p, const void* area, int64_t x) {
  const auto& a = *static_cast<const HhArea*>(area);
  LinearAnswer out;
  if (x < 0) return out;
  if (x >= p.domain() - 1) {
    out.estimate = 1;
    return out;
  }
  out.estimate = a.cum()[x + 1];
  out.variance = identified(a, p.domain_bits, x + 1) ? prefix_variance(a, p.domain_bits, x + 1) : kInf;
  return out;
}

LinearAnswer hh_range(const RangeProtocol& p, const void* area, int64_t lo, int64_t hi) {
  if (lo <= 0) return hh_prefix(p, area, hi);  // the same bits as cdf(hi)
  const auto& a = *static_cast<const HhArea*>(area);
  const int k = p.domain_bits;
  LinearAnswer out;
  out.estimate = a.cum()[hi + 1] - a.cum()[lo];
  out.variance = identified(a, k, lo) && identified(a, k, hi + 1) ? range_variance(a, k, lo, hi + 1) : kInf;
  return out;
}

double hh_prefix_cost(const RangeProtocol& p) { return 2.0 * hh_shape(p).levels; }

// ---- the protocol's field and the row ----

int64_t get_branching(const RangeProtocol& p) { return p.branching; }
void set_branching(RangeProtocol* p, int64_t v) { p->branching = v; }
const RangeProtocolField kBranchingField = {"branching", get_branching, set_branching};

void hh_defaults(RangeProtocol* p) {
  if (p->branching == 0) p->branching = 4;
}
void hh_validate(const RangeProtocol& p) {
  if (p.branching != 2 && p.branching != 4)
    throw_error(ErrorKind::InvalidParameter, "hh's branching must be 2 or 4, got %" PRId64, p.branching);
}

int64_t hh_counts(const RangeProtocol& p) { return hh_shape(p).levels; }
int64_t hh_segment(const RangeProtocol& p, int64_t i) { return hh_shape(p).nodes(static_cast<int>(i) + 1); }

}  // namespace

extern const RangeMechanismImpl kHhImpl;
const RangeMechanismImpl kHhImpl = {
    RangeMechanism::Hh, "hh", {&kBranchingField, nullptr}, hh_defaults, hh_validate,
    {"levels", "sums"}, "level counts", "level", hh_counts, hh_segment,
    1, hh_check_report, hh_encode,
    hh_prepared_bytes, hh_prepare, hh_prefix, hh_range, hh_prefix_cost, nullptr,
};

}  // namespace ldp
