// Binomial and multinomial draws (NumPy's legacy algorithms): the simulations' samplers
// (THRESH's users, the tests' reports) and the Square Wave bootstrap's resampling
// (range/square_wave.cpp).
#include "core/common/binomial.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>

#include "core/common/error.hpp"

namespace ldp {

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


std::vector<int64_t> multinomial_counts(RandomSource& rng, const int64_t* weights, size_t cells) {
  std::vector<int64_t> counts(cells, 0);
  int64_t total = 0;
  for (size_t i = 0; i < cells; ++i) {
    if (weights[i] < 0)
      throw_error(ErrorKind::InvalidParameter, "multinomial weights must be >= 0, got %" PRId64 " at %zu", weights[i], i);
    if (weights[i] > INT64_MAX - total) throw_error(ErrorKind::OutOfRange, "multinomial weights overflow");
    total += weights[i];
  }
  int64_t left = total, mass = total;  // draws left; the weight of the cells not drawn yet
  for (size_t i = 0; i < cells && left > 0; ++i) {
    if (weights[i] == 0) continue;
    counts[i] = weights[i] == mass ? left : binomial(rng, left, static_cast<double>(weights[i]) / static_cast<double>(mass));
    left -= counts[i];
    mass -= weights[i];
  }
  return counts;
}

}  // namespace ldp
