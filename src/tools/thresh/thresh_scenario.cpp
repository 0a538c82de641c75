// THRESH simulation helpers: the scenario's users and the binomial sampler (NumPy's
// legacy algorithms).
#include "tools/thresh/thresh_scenario.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>

#include "core/common/error.hpp"

namespace ldp::thresh {

namespace {
void validate_group(const Scenario& sc, size_t g) {
  const auto& ch = sc.mean_changes[g];
  if (ch.empty() || ch.front().first != 1)
    throw_error(ErrorKind::InvalidParameter,
                "mean_changes of group %zu must start with an entry for epoch 1", g);
  for (size_t i = 0; i < ch.size(); ++i) {
    if (i > 0 && ch[i].first <= ch[i - 1].first)
      throw_error(ErrorKind::InvalidParameter,
                  "mean_changes of group %zu must have strictly increasing epochs", g);
    if (!(ch[i].second >= 0 && ch[i].second <= 1))
      throw_error(ErrorKind::InvalidParameter,
                  "mean_changes of group %zu: mean must be in [0, 1], got %.15g", g, ch[i].second);
  }
}
}  // namespace

void validate_scenario(const Scenario& sc) {
  if (sc.group_sizes.empty())
    throw_error(ErrorKind::InvalidParameter, "group_sizes must not be empty");
  if (sc.mean_changes.size() != sc.group_sizes.size())
    throw_error(ErrorKind::InvalidParameter,
                "mean_changes must have one list per group (%zu groups, %zu lists)",
                sc.group_sizes.size(), sc.mean_changes.size());
  int64_t total = 0;
  for (size_t g = 0; g < sc.group_sizes.size(); ++g) {
    if (sc.group_sizes[g] < 1)
      throw_error(ErrorKind::InvalidParameter, "group_sizes[%zu] must be >= 1, got %" PRId64, g,
                  sc.group_sizes[g]);
    if (sc.group_sizes[g] > INT64_MAX - total)
      throw_error(ErrorKind::InvalidParameter, "group_sizes overflow");
    total += sc.group_sizes[g];
    validate_group(sc, g);
  }
}

int64_t population_size(const Scenario& sc) {
  validate_scenario(sc);
  int64_t n = 0;
  for (int64_t s : sc.group_sizes) n += s;
  return n;
}

double group_mean(const Scenario& sc, int group, int32_t epoch) {
  if (group < 0 || static_cast<size_t>(group) >= sc.mean_changes.size())
    throw_error(ErrorKind::InvalidParameter, "group must be in [0, %zu), got %d",
                sc.mean_changes.size(), group);
  if (epoch < 1) throw_error(ErrorKind::InvalidParameter, "epoch must be >= 1, got %d", epoch);
  validate_group(sc, static_cast<size_t>(group));
  double mu = 0;
  for (const auto& [from, mean] : sc.mean_changes[static_cast<size_t>(group)]) {
    if (from > epoch) break;
    mu = mean;
  }
  return mu;
}

double true_population_mean(const Scenario& sc, int32_t epoch) {
  int64_t n = population_size(sc);
  double sum = 0;
  for (size_t g = 0; g < sc.group_sizes.size(); ++g)
    sum += static_cast<double>(sc.group_sizes[g]) * group_mean(sc, static_cast<int>(g), epoch);
  return sum / static_cast<double>(n);
}

std::vector<int32_t> change_epochs(const Scenario& sc) {
  validate_scenario(sc);
  std::vector<int32_t> out{1};
  std::vector<int32_t> candidates;
  for (const auto& ch : sc.mean_changes)
    for (size_t i = 1; i < ch.size(); ++i)
      if (ch[i].second != ch[i - 1].second) candidates.push_back(ch[i].first);
  std::sort(candidates.begin(), candidates.end());
  for (int32_t e : candidates)
    if (e != out.back()) out.push_back(e);
  return out;
}

namespace {

// Inversion for trials·p <= 30, p <= 1/2 (NumPy's random_binomial_inversion).
int64_t binomial_inversion(RandomSource& rng, int64_t n, double p) {
  double q = 1.0 - p;
  double qn = std::exp(static_cast<double>(n) * std::log1p(-p));
  double np = static_cast<double>(n) * p;
  double bound_d = std::fmin(static_cast<double>(n), np + 10.0 * std::sqrt(np * q + 1.0));
  auto bound = static_cast<int64_t>(bound_d);
  int64_t x = 0;
  double px = qn;
  double u = rng.uniform();
  while (u > px) {
    ++x;
    if (x > bound) {
      x = 0;
      px = qn;
      u = rng.uniform();
    } else {
      u -= px;
      px = (static_cast<double>(n - x + 1) * p * px) / (static_cast<double>(x) * q);
    }
  }
  return x;
}

// BTPE for trials·p > 30, p <= 1/2 (Kachitvichyanukul & Schmeiser 1988, as in NumPy's
// random_binomial_btpe).
int64_t binomial_btpe(RandomSource& rng, int64_t n_int, double p) {
  const double n = static_cast<double>(n_int);
  const double r = p, q = 1.0 - p;
  const double fm = n * r + r;
  const auto m = static_cast<int64_t>(std::floor(fm));
  const double md = static_cast<double>(m);
  const double nrq = n * r * q;
  const double p1 = std::floor(2.195 * std::sqrt(nrq) - 4.6 * q) + 0.5;
  const double xm = md + 0.5;
  const double xl = xm - p1;
  const double xr = xm + p1;
  const double c = 0.134 + 20.5 / (15.3 + md);
  double a = (fm - xl) / (fm - xl * r);
  const double laml = a * (1.0 + a / 2.0);
  a = (xr - fm) / (xr * q);
  const double lamr = a * (1.0 + a / 2.0);
  const double p2 = p1 * (1.0 + 2.0 * c);
  const double p3 = p2 + c / laml;
  const double p4 = p3 + c / lamr;

  for (;;) {
    double u = rng.uniform() * p4;
    double v = rng.uniform();
    int64_t y;
    if (u <= p1) {  // triangular region: accept at once
      return static_cast<int64_t>(std::floor(xm - p1 * v + u));
    }
    if (u <= p2) {  // parallelograms
      double x = xl + (u - p1) / c;
      v = v * c + 1.0 - std::fabs(md - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = static_cast<int64_t>(std::floor(x));
    } else if (u <= p3) {  // left exponential tail
      if (v == 0.0) continue;
      double yl = std::floor(xl + std::log(v) / laml);
      if (yl < 0) continue;
      y = static_cast<int64_t>(yl);
      v = v * (u - p2) * laml;
    } else {  // right exponential tail
      if (v == 0.0) continue;
      double yr = std::floor(xr - std::log(v) / lamr);
      if (yr > n) continue;
      y = static_cast<int64_t>(yr);
      v = v * (u - p3) * lamr;
    }

    int64_t k = y > m ? y - m : m - y;
    double kd = static_cast<double>(k);
    if (k <= 20 || kd >= nrq / 2.0 - 1.0) {
      // explicit evaluation of f(y)/f(m) by the recurrence
      double s = r / q;
      double aa = s * (n + 1.0);
      double F = 1.0;
      if (m < y) {
        for (int64_t i = m + 1; i <= y; ++i) F *= (aa / static_cast<double>(i) - s);
      } else if (m > y) {
        for (int64_t i = y + 1; i <= m; ++i) F /= (aa / static_cast<double>(i) - s);
      }
      if (v > F) continue;
      return y;
    }
    // squeeze on log f(y)/f(m), then Stirling-based evaluation
    double rho = (kd / nrq) * ((kd * (kd / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    double t = -kd * kd / (2.0 * nrq);
    double A = std::log(v);
    if (A < t - rho) return y;
    if (A > t + rho) continue;
    double yd = static_cast<double>(y);
    double x1 = yd + 1.0, f1 = md + 1.0, z = n + 1.0 - md, w = n - yd + 1.0;
    double x2 = x1 * x1, f2 = f1 * f1, z2 = z * z, w2 = w * w;
    auto st = [](double v1, double v2) {
      return (13680. - (462. - (132. - (99. - 140. / v2) / v2) / v2) / v2) / v1 / 166320.;
    };
    double bound = xm * std::log(f1 / x1) + (n - md + 0.5) * std::log(z / w) +
                   (yd - md) * std::log(w * r / (x1 * q)) + st(f1, f2) + st(z, z2) + st(x1, x2) +
                   st(w, w2);
    if (A > bound) continue;
    return y;
  }
}

}  // namespace

int64_t binomial(RandomSource& rng, int64_t trials, double p) {
  if (trials < 0)
    throw_error(ErrorKind::InvalidParameter, "trials must be >= 0, got %" PRId64, trials);
  if (!(p >= 0 && p <= 1))
    throw_error(ErrorKind::InvalidParameter, "p must be in [0, 1], got %.15g", p);
  if (trials == 0 || p == 0) return 0;
  if (p == 1) return trials;
  bool flip = p > 0.5;
  double r = flip ? 1.0 - p : p;
  int64_t x = static_cast<double>(trials) * r <= 30.0 ? binomial_inversion(rng, trials, r)
                                                      : binomial_btpe(rng, trials, r);
  return flip ? trials - x : x;
}

double sample_epoch_mean(RandomSource& rng, int64_t rounds, double mean) {
  if (rounds < 1)
    throw_error(ErrorKind::InvalidParameter, "rounds must be >= 1, got %" PRId64, rounds);
  return static_cast<double>(binomial(rng, rounds, mean)) / static_cast<double>(rounds);
}

std::vector<int64_t> multinomial(RandomSource& rng, int64_t trials, const std::vector<double>& p) {
  std::vector<int64_t> counts(p.size());
  int64_t left = trials;
  double mass = 1.0;  // of the categories not drawn yet
  for (size_t i = 0; i < p.size() && left > 0; ++i) {
    double q = i + 1 == p.size() ? 1.0 : std::min(1.0, std::max(0.0, p[i] / mass));
    counts[i] = q >= 1.0 ? left : binomial(rng, left, q);
    left -= counts[i];
    mass -= p[i];
  }
  return counts;
}

}  // namespace ldp::thresh
