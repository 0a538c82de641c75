// The two fits of decode.R's FitDistribution (rappor_internal.hpp): glmnet's LASSO
// screening (FitLasso) and lsei's constrained weighted least squares
// (ConstrainedLinModel, analysis/R/alternative.R), on a sparse 0/1 design matrix.
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/interrupt.hpp"
#include "core/rappor/rappor_internal.hpp"

namespace ldp {

// ---- LASSO (glmnet's elnet, gaussian, as FitLasso calls it) ----
//
// Objective (glmnet): (1/2N)·Σ_i (y_i - a0 - x_iβ)² + λ·Σ_j β_j, β >= 0; standardize =
// FALSE still centers x (intercept), and glmnet scales y to unit variance internally
// (thresholds are relative to it). Coordinate update with v_j = x̄_j(1 - x̄_j), the
// variance of a 0/1 column, and g_j = Σ_i (x_ij - x̄_j)·r_i:
//   β_j ← max(0, g_j/N + v_j·β_j - λ) / v_j.
// Path: λ_l = λ_max·ε^{l/99}, l = 0..99, λ_max = max_j |g_j(β = 0)|/N, ε = 0.01 when S > N
// else 1e-4. Stops (glmnet's elnet): more than pmax variables ever entered (the path ends
// at the previous λ), or from the 5th λ on a gain of R² below 1e-5·R², or R² > 0.999.
std::vector<int64_t> rappor_lasso_support(const SparseColumns& X, const std::vector<double>& y, int64_t pmax) {
  const int64_t N = X.nrows, S = X.cols();
  std::vector<int64_t> support;
  if (N == 0 || S == 0) return support;
  double ybar = 0;
  for (double v : y) ybar += v;
  ybar /= static_cast<double>(N);
  double ss = 0;
  for (double v : y) ss += (v - ybar) * (v - ybar);
  const double ys = std::sqrt(ss / static_cast<double>(N));
  if (!(ys > 0)) return support;  // a constant y: glmnet's fit is the intercept alone
  // r_i = rt_i + shift: the shift carries the centering of every update at O(1)
  std::vector<double> rt(static_cast<size_t>(N));
  for (int64_t i = 0; i < N; ++i) rt[static_cast<size_t>(i)] = (y[static_cast<size_t>(i)] - ybar) / ys;
  double shift = 0;
  std::vector<double> xbar(static_cast<size_t>(S)), v(static_cast<size_t>(S));
  for (int64_t j = 0; j < S; ++j) {
    xbar[static_cast<size_t>(j)] = static_cast<double>(X.nnz(j)) / static_cast<double>(N);
    v[static_cast<size_t>(j)] = xbar[static_cast<size_t>(j)] * (1 - xbar[static_cast<size_t>(j)]);
  }
  auto gradient = [&](int64_t j) {  // g_j / N (Σ_i r_i = 0 always)
    double g = 0;
    for (const int32_t* p = X.col(j), *e = p + X.nnz(j); p < e; ++p) g += rt[static_cast<size_t>(*p)];
    return (g + static_cast<double>(X.nnz(j)) * shift) / static_cast<double>(N);
  };
  double lambda_max = 0;
  for (int64_t j = 0; j < S; ++j)
    if (v[static_cast<size_t>(j)] > 0) lambda_max = std::max(lambda_max, std::fabs(gradient(j)));
  if (!(lambda_max > 0)) return support;
  const double eps = S > N ? 0.01 : 1e-4;
  std::vector<double> beta(static_cast<size_t>(S), 0.0), last(beta);
  std::vector<char> entered(static_cast<size_t>(S), 0);
  std::vector<int64_t> active;
  double rsq_prev = 0;
  const double thr = 1e-7;
  InterruptPoll poll;
  auto update = [&](int64_t j, double lambda) {  // returns v_j·Δ²
    const auto u = static_cast<size_t>(j);
    poll.tick(1 + 2 * X.nnz(j));
    if (!(v[u] > 0)) return 0.0;
    const double bj = beta[u];
    const double z = gradient(j) + v[u] * bj;
    const double nb = z > lambda ? (z - lambda) / v[u] : 0.0;
    const double d = nb - bj;
    if (d == 0) return 0.0;
    beta[u] = nb;
    for (const int32_t* p = X.col(j), *e = p + X.nnz(j); p < e; ++p) rt[static_cast<size_t>(*p)] -= d;
    shift += d * xbar[u];
    if (!entered[u]) {
      entered[u] = 1;
      active.push_back(j);
    }
    return v[u] * d * d;
  };
  for (int l = 0; l < 100; ++l) {
    const double lambda = lambda_max * std::pow(eps, l / 99.0);
    for (int pass = 0; pass < 100000; ++pass) {
      double dlx = 0;
      for (int64_t j = 0; j < S; ++j) dlx = std::max(dlx, update(j, lambda));
      if (static_cast<int64_t>(active.size()) > pmax) break;
      if (dlx < thr) break;
      for (int inner = 0; inner < 100000; ++inner) {
        double d2 = 0;
        for (int64_t j : active) d2 = std::max(d2, update(j, lambda));
        if (d2 < thr) break;
      }
    }
    if (static_cast<int64_t>(active.size()) > pmax) break;  // the path ends at the previous λ
    last = beta;
    poll.tick(N);
    double rss = 0;
    for (int64_t i = 0; i < N; ++i) {
      const double r = rt[static_cast<size_t>(i)] + shift;
      rss += r * r;
    }
    const double rsq = 1 - rss / static_cast<double>(N);
    if (l >= 4 && (rsq - rsq_prev < 1e-5 * rsq || rsq > 0.999)) break;
    rsq_prev = rsq;
  }
  for (int64_t j = 0; j < S; ++j)
    if (last[static_cast<size_t>(j)] > 0) support.push_back(j);
  return support;
}

// The Cholesky factor L of H_FF in the order of F, kept up to date as columns enter
// (a new row, O(|F|²)) and leave (the row and column removed, then the rank-one update
// of the trailing block that restores it, O(|F|²); Golub and Van Loan §6.5.4), so that an
// iteration costs O(|F|²), not a factorization.
class CholeskyFactor {
 public:
  // At most `most` columns: the storage doubles as they enter, up to that.
  CholeskyFactor(double floor, Eigen::Index most) : floor_(floor), most_(most) {}
  void append(const Eigen::VectorXd& h, double diag) {
    if (n_ == L_.rows()) {
      const Eigen::Index size = std::min(most_, std::max<Eigen::Index>(16, 2 * n_));
      Eigen::MatrixXd next = Eigen::MatrixXd::Zero(size, size);
      next.topLeftCorner(n_, n_) = L_.topLeftCorner(n_, n_);
      L_.swap(next);
    }
    double d2 = diag;
    if (n_ > 0) {
      const Eigen::VectorXd l = L_.topLeftCorner(n_, n_).triangularView<Eigen::Lower>().solve(h);
      L_.row(n_).head(n_) = l.transpose();
      d2 -= l.squaredNorm();
    }
    L_(n_, n_) = std::sqrt(std::max(d2, floor_));  // H has δ on its diagonal: d2 >= δ in exact arithmetic
    ++n_;
  }
  void remove(Eigen::Index t) {
    const Eigen::Index m = n_ - t - 1;
    Eigen::VectorXd x = L_.block(t + 1, t, m, 1);
    for (Eigen::Index i = t; i < n_ - 1; ++i) L_.row(i).head(n_) = L_.row(i + 1).head(n_);
    for (Eigen::Index c = t; c < n_ - 1; ++c) L_.block(t, c, m, 1) = L_.block(t, c + 1, m, 1);
    --n_;
    for (Eigen::Index k = t; k < n_; ++k) {  // chol(L22 L22ᵀ + x xᵀ)
      const double lkk = L_(k, k), xk = x(k - t);
      const double r = std::hypot(lkk, xk), c = r / lkk, s = xk / lkk;
      L_(k, k) = r;
      for (Eigen::Index i = k + 1; i < n_; ++i) {
        L_(i, k) = (L_(i, k) + s * x(i - t)) / c;
        x(i - t) = c * x(i - t) - s * L_(i, k);
      }
    }
  }
  template <class M>
  Eigen::MatrixXd solve(const M& b) const {
    if (n_ == 0) return Eigen::MatrixXd(0, b.cols());
    const auto T = L_.topLeftCorner(n_, n_);
    const Eigen::MatrixXd y = T.triangularView<Eigen::Lower>().solve(b);
    return T.transpose().triangularView<Eigen::Upper>().solve(y);
  }

 private:
  double floor_;
  Eigen::Index most_;
  Eigen::MatrixXd L_;
  Eigen::Index n_ = 0;
};

// ---- the constrained fit (lsei's problem), primal active set ----
//
// minimize q(β) = ½βᵀHβ - gᵀβ, H = XᵀW²X + δI, g = XᵀW²y, subject to β >= 0 and the
// general constraints a_kᵀβ <= b_k: Σβ <= 1 (k = -1) and (Xβ)_i <= upper_i (k = i). The
// working set: the bounds of the columns outside F (β_j = 0) and the general constraints
// K. Each iteration solves the equality-constrained problem on F (Schur complement of
// the KKT system through a Cholesky factor of H_FF), then steps to it or to the first
// blocking constraint; at a stationary point the multipliers decide: a negative one
// leaves the working set, none means optimal (N&W Algorithm 16.3).
ConstrainedFit rappor_constrained_fit(const SparseColumns& X, const std::vector<double>& y,
                                      const std::vector<double>& w, const std::vector<double>& upper) {
  const int64_t N = X.nrows, S = X.cols();
  ConstrainedFit out;
  out.beta.assign(static_cast<size_t>(S), 0.0);
  if (S == 0) return out;
  std::vector<double> w2(static_cast<size_t>(N));
  for (int64_t i = 0; i < N; ++i) w2[static_cast<size_t>(i)] = w[static_cast<size_t>(i)] * w[static_cast<size_t>(i)];
  std::vector<double> g(static_cast<size_t>(S), 0.0);
  double hmax = 0, gmax = 0;
  for (int64_t j = 0; j < S; ++j) {
    double gj = 0, hj = 0;
    for (const int32_t* p = X.col(j), *e = p + X.nnz(j); p < e; ++p) {
      gj += w2[static_cast<size_t>(*p)] * y[static_cast<size_t>(*p)];
      hj += w2[static_cast<size_t>(*p)];
    }
    g[static_cast<size_t>(j)] = gj;
    hmax = std::max(hmax, hj);
    gmax = std::max(gmax, std::fabs(gj));
  }
  const double delta = 1e-10 * (hmax > 0 ? hmax : 1);
  const double tol = 1e-11 * std::max({1.0, gmax, hmax});

  // Gram entries of the columns that have been free, computed once each.
  std::vector<int64_t> slot(static_cast<size_t>(S), -1);
  std::vector<int64_t> cached;
  Eigen::MatrixXd gram(0, 0);
  std::vector<double> mark(static_cast<size_t>(N), 0.0);
  InterruptPoll poll;
  auto enter = [&](int64_t j) {
    if (slot[static_cast<size_t>(j)] >= 0) return;
    const int64_t e = static_cast<int64_t>(cached.size());
    if (e >= gram.rows()) {  // doubled as columns enter, at most S × S (rappor_decode plans that)
      const int64_t size = std::min(S, std::max<int64_t>(16, 2 * e));
      gram.conservativeResize(size, size);
    }
    for (const int32_t* p = X.col(j), *q = p + X.nnz(j); p < q; ++p) mark[static_cast<size_t>(*p)] = w2[static_cast<size_t>(*p)];
    for (int64_t a = 0; a <= e; ++a) {
      const int64_t c = a < e ? cached[static_cast<size_t>(a)] : j;
      double s = 0;
      for (const int32_t* p = X.col(c), *q = p + X.nnz(c); p < q; ++p) s += mark[static_cast<size_t>(*p)];
      gram(a, e) = gram(e, a) = s;
      poll.tick(1 + X.nnz(c));
    }
    for (const int32_t* p = X.col(j), *q = p + X.nnz(j); p < q; ++p) mark[static_cast<size_t>(*p)] = 0;
    slot[static_cast<size_t>(j)] = e;
    cached.push_back(j);
  };
  auto x_entry = [&](int64_t i, int64_t j) {
    const int32_t* b = X.col(j);
    return std::binary_search(b, b + X.nnz(j), static_cast<int32_t>(i)) ? 1.0 : 0.0;
  };

  std::vector<double>& beta = out.beta;
  std::vector<int64_t> F;  // free columns
  std::vector<char> free_flag(static_cast<size_t>(S), 0);
  std::vector<int64_t> K;  // general constraints: -1 for Σβ <= 1, else a row
  std::vector<char> row_in_K(static_cast<size_t>(N), 0);
  bool sum_in_K = false;
  std::vector<double> xb(static_cast<size_t>(N), 0.0), xd(static_cast<size_t>(N), 0.0), vrow(static_cast<size_t>(N));
  auto mul = [&](const std::vector<double>& coef, std::vector<double>* into) {  // X·coef over F
    std::fill(into->begin(), into->end(), 0.0);
    for (int64_t j : F) {
      for (const int32_t* p = X.col(j), *q = p + X.nnz(j); p < q; ++p)
        (*into)[static_cast<size_t>(*p)] += coef[static_cast<size_t>(j)];
      poll.tick(1 + X.nnz(j));
    }
  };
  std::vector<double> target(static_cast<size_t>(S), 0.0), dir(static_cast<size_t>(S), 0.0);
  const int64_t max_iter = 10 * (S + N) + 100;
  Eigen::VectorXd lambda;
  CholeskyFactor factor(delta, S);
  for (out.iterations = 0; out.iterations < max_iter; ++out.iterations) {
    // the equality-constrained problem on F (its dense steps: O(|F|²·|K| + |K|³), with
    // |K| <= |F| in exact arithmetic: independent working constraints)
    const auto nf = static_cast<Eigen::Index>(F.size()), nk = static_cast<Eigen::Index>(K.size());
    poll.tick(N + static_cast<int64_t>(nf * nf * (1 + nk)));
    Eigen::VectorXd gf(nf);
    for (Eigen::Index a = 0; a < nf; ++a) gf(a) = g[static_cast<size_t>(F[static_cast<size_t>(a)])];
    Eigen::VectorXd bf = factor.solve(gf);
    lambda.setZero(nk);
    if (nk > 0 && nf > 0) {
      Eigen::MatrixXd A(nk, nf);
      Eigen::VectorXd bk(nk);
      for (Eigen::Index r = 0; r < nk; ++r) {
        const int64_t k = K[static_cast<size_t>(r)];
        bk(r) = k < 0 ? 1.0 : upper[static_cast<size_t>(k)];
        for (Eigen::Index a = 0; a < nf; ++a) A(r, a) = k < 0 ? 1.0 : x_entry(k, F[static_cast<size_t>(a)]);
      }
      const Eigen::MatrixXd HiAt = factor.solve(A.transpose());
      const Eigen::MatrixXd M = A * HiAt;
      lambda = M.ldlt().solve(A * bf - bk);
      bf -= HiAt * lambda;
    }
    std::fill(target.begin(), target.end(), 0.0);
    double dmax = 0, bmax = 0;
    for (Eigen::Index a = 0; a < nf; ++a) {
      const auto j = static_cast<size_t>(F[static_cast<size_t>(a)]);
      target[j] = bf(a);
      dir[j] = bf(a) - beta[j];
      dmax = std::max(dmax, std::fabs(dir[j]));
      bmax = std::max(bmax, std::fabs(beta[j]));
    }
    if (dmax <= 1e-13 * (1 + bmax)) {
      // stationary: the multipliers of the bounds, μ_j = x_jᵀ(W²(Xβ - y) + Σ_{rows in K} λ e_i) + λ_sum
      double lambda_sum = 0;
      for (size_t i = 0; i < static_cast<size_t>(N); ++i) vrow[i] = w2[i] * (xb[i] - y[i]);
      for (Eigen::Index r = 0; r < nk; ++r) {
        const int64_t k = K[static_cast<size_t>(r)];
        if (k < 0) lambda_sum = lambda(r);
        else vrow[static_cast<size_t>(k)] += lambda(r);
      }
      double worst = -tol;
      int64_t leave_col = -1, leave_k = -1;
      for (int64_t j = 0; j < S; ++j) {
        if (free_flag[static_cast<size_t>(j)]) continue;
        double mu = lambda_sum;
        for (const int32_t* p = X.col(j), *q = p + X.nnz(j); p < q; ++p) mu += vrow[static_cast<size_t>(*p)];
        poll.tick(1 + X.nnz(j));
        if (mu < worst) worst = mu, leave_col = j, leave_k = -1;
      }
      for (Eigen::Index r = 0; r < nk; ++r)
        if (lambda(r) < worst) worst = lambda(r), leave_k = r, leave_col = -1;
      if (leave_col >= 0) {
        enter(leave_col);
        const auto nf0 = static_cast<Eigen::Index>(F.size());
        Eigen::VectorXd h(nf0);
        const int64_t sj = slot[static_cast<size_t>(leave_col)];
        for (Eigen::Index a = 0; a < nf0; ++a) h(a) = gram(slot[static_cast<size_t>(F[static_cast<size_t>(a)])], sj);
        factor.append(h, gram(sj, sj) + delta);
        F.push_back(leave_col);
        free_flag[static_cast<size_t>(leave_col)] = 1;
      } else if (leave_k >= 0) {
        const int64_t k = K[static_cast<size_t>(leave_k)];
        if (k < 0) sum_in_K = false;
        else row_in_K[static_cast<size_t>(k)] = 0;
        K.erase(K.begin() + leave_k);
      } else {
        return out;  // optimal
      }
      continue;
    }
    // step toward the target, stopped by the first blocking constraint
    double alpha = 1;
    int64_t block_col = -1, block_k = -2;
    for (int64_t j : F) {
      const auto u = static_cast<size_t>(j);
      if (dir[u] < 0) {
        const double a = std::max(0.0, -beta[u] / dir[u]);
        if (a < alpha) alpha = a, block_col = j, block_k = -2;
      }
    }
    mul(dir, &xd);
    if (!sum_in_K) {
      double sb = 0, sd = 0;
      for (int64_t j : F) sb += beta[static_cast<size_t>(j)], sd += dir[static_cast<size_t>(j)];
      if (sd > 0) {
        const double a = std::max(0.0, (1 - sb) / sd);
        if (a < alpha) alpha = a, block_col = -1, block_k = -1;
      }
    }
    for (int64_t i = 0; i < N; ++i) {
      const auto u = static_cast<size_t>(i);
      if (row_in_K[u] || !(xd[u] > 0)) continue;
      const double a = std::max(0.0, (upper[u] - xb[u]) / xd[u]);
      if (a < alpha) alpha = a, block_col = -1, block_k = i;
    }
    for (int64_t j : F) beta[static_cast<size_t>(j)] += alpha * dir[static_cast<size_t>(j)];
    if (block_col >= 0) {
      beta[static_cast<size_t>(block_col)] = 0;
      free_flag[static_cast<size_t>(block_col)] = 0;
      const auto at = std::find(F.begin(), F.end(), block_col);
      factor.remove(static_cast<Eigen::Index>(at - F.begin()));
      F.erase(at);
    } else if (block_k >= -1) {
      K.push_back(block_k);
      if (block_k < 0) sum_in_K = true;
      else row_in_K[static_cast<size_t>(block_k)] = 1;
    }
    for (int64_t j : F) beta[static_cast<size_t>(j)] = std::max(0.0, beta[static_cast<size_t>(j)]);
    mul(beta, &xb);
  }
  out.converged = false;  // the iterate is feasible; the glue may report it
  return out;
}

}  // namespace ldp
