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
namespace {

class ActiveSetFit {
 public:
  ActiveSetFit(const SparseColumns& X, const std::vector<double>& y, const std::vector<double>& w,
               const std::vector<double>& upper, ConstrainedFit* out);
  void run();

 private:
  void enter(int64_t j);
  double x_entry(int64_t i, int64_t j) const {
    const int32_t* b = X_.col(j);
    return std::binary_search(b, b + X_.nnz(j), static_cast<int32_t>(i)) ? 1.0 : 0.0;
  }
  void mul(const std::vector<double>& coef, std::vector<double>* into);  // X·coef over F
  bool solve_working_set();  // the target on F and the direction to it; true when stationary
  bool change_working_set();  // at a stationary point: false when optimal
  void step();                // toward the target, stopped by the first blocking constraint

  const SparseColumns& X_;
  const std::vector<double>& y_;
  const std::vector<double>& upper_;
  ConstrainedFit* out_;
  int64_t N_, S_;
  std::vector<double> w2_, g_;
  double delta_ = 0, tol_ = 0;
  // Gram entries of the columns that have been free, computed once each.
  std::vector<int64_t> slot_, cached_;
  Eigen::MatrixXd gram_;
  std::vector<double> mark_;
  InterruptPoll poll_;
  std::vector<int64_t> F_;  // free columns
  std::vector<char> free_flag_;
  std::vector<int64_t> K_;  // general constraints: -1 for Σβ <= 1, else a row
  std::vector<char> row_in_K_;
  bool sum_in_K_ = false;
  std::vector<double> xb_, xd_, vrow_, target_, dir_;
  Eigen::VectorXd lambda_;
  CholeskyFactor factor_;
};

ActiveSetFit::ActiveSetFit(const SparseColumns& X, const std::vector<double>& y, const std::vector<double>& w,
                           const std::vector<double>& upper, ConstrainedFit* out)
    : X_(X), y_(y), upper_(upper), out_(out), N_(X.nrows), S_(X.cols()), factor_(0, 0) {
  const auto N = static_cast<size_t>(N_), S = static_cast<size_t>(S_);
  w2_.resize(N);
  for (size_t i = 0; i < N; ++i) w2_[i] = w[i] * w[i];
  g_.assign(S, 0.0);
  double hmax = 0, gmax = 0;
  for (int64_t j = 0; j < S_; ++j) {
    double gj = 0, hj = 0;
    for (const int32_t* p = X_.col(j), *e = p + X_.nnz(j); p < e; ++p) {
      gj += w2_[static_cast<size_t>(*p)] * y_[static_cast<size_t>(*p)];
      hj += w2_[static_cast<size_t>(*p)];
    }
    g_[static_cast<size_t>(j)] = gj;
    hmax = std::max(hmax, hj);
    gmax = std::max(gmax, std::fabs(gj));
  }
  delta_ = 1e-10 * (hmax > 0 ? hmax : 1);
  tol_ = 1e-11 * std::max({1.0, gmax, hmax});
  slot_.assign(S, -1);
  mark_.assign(N, 0.0);
  free_flag_.assign(S, 0);
  row_in_K_.assign(N, 0);
  xb_.assign(N, 0.0);
  xd_.assign(N, 0.0);
  vrow_.resize(N);
  target_.assign(S, 0.0);
  dir_.assign(S, 0.0);
  factor_ = CholeskyFactor(delta_, S_);
}

void ActiveSetFit::enter(int64_t j) {
  if (slot_[static_cast<size_t>(j)] >= 0) return;
  const int64_t e = static_cast<int64_t>(cached_.size());
  if (e >= gram_.rows()) {  // doubled as columns enter, at most S × S (rappor_decode plans that)
    const int64_t size = std::min(S_, std::max<int64_t>(16, 2 * e));
    gram_.conservativeResize(size, size);
  }
  for (const int32_t* p = X_.col(j), *q = p + X_.nnz(j); p < q; ++p)
    mark_[static_cast<size_t>(*p)] = w2_[static_cast<size_t>(*p)];
  for (int64_t a = 0; a <= e; ++a) {
    const int64_t c = a < e ? cached_[static_cast<size_t>(a)] : j;
    double s = 0;
    for (const int32_t* p = X_.col(c), *q = p + X_.nnz(c); p < q; ++p) s += mark_[static_cast<size_t>(*p)];
    gram_(a, e) = gram_(e, a) = s;
    poll_.tick(1 + X_.nnz(c));
  }
  for (const int32_t* p = X_.col(j), *q = p + X_.nnz(j); p < q; ++p) mark_[static_cast<size_t>(*p)] = 0;
  slot_[static_cast<size_t>(j)] = e;
  cached_.push_back(j);
}

void ActiveSetFit::mul(const std::vector<double>& coef, std::vector<double>* into) {
  std::fill(into->begin(), into->end(), 0.0);
  for (int64_t j : F_) {
    for (const int32_t* p = X_.col(j), *q = p + X_.nnz(j); p < q; ++p)
      (*into)[static_cast<size_t>(*p)] += coef[static_cast<size_t>(j)];
    poll_.tick(1 + X_.nnz(j));
  }
}

// The equality-constrained problem on F (its dense steps: O(|F|²·|K| + |K|³), with
// |K| <= |F| in exact arithmetic: independent working constraints).
bool ActiveSetFit::solve_working_set() {
  const std::vector<double>& beta = out_->beta;
  const auto nf = static_cast<Eigen::Index>(F_.size()), nk = static_cast<Eigen::Index>(K_.size());
  poll_.tick(N_ + static_cast<int64_t>(nf * nf * (1 + nk)));
  Eigen::VectorXd gf(nf);
  for (Eigen::Index a = 0; a < nf; ++a) gf(a) = g_[static_cast<size_t>(F_[static_cast<size_t>(a)])];
  Eigen::VectorXd bf = factor_.solve(gf);
  lambda_.setZero(nk);
  if (nk > 0 && nf > 0) {
    Eigen::MatrixXd A(nk, nf);
    Eigen::VectorXd bk(nk);
    for (Eigen::Index r = 0; r < nk; ++r) {
      const int64_t k = K_[static_cast<size_t>(r)];
      bk(r) = k < 0 ? 1.0 : upper_[static_cast<size_t>(k)];
      for (Eigen::Index a = 0; a < nf; ++a) A(r, a) = k < 0 ? 1.0 : x_entry(k, F_[static_cast<size_t>(a)]);
    }
    const Eigen::MatrixXd HiAt = factor_.solve(A.transpose());
    const Eigen::MatrixXd M = A * HiAt;
    lambda_ = M.ldlt().solve(A * bf - bk);
    bf -= HiAt * lambda_;
  }
  std::fill(target_.begin(), target_.end(), 0.0);
  double dmax = 0, bmax = 0;
  for (Eigen::Index a = 0; a < nf; ++a) {
    const auto j = static_cast<size_t>(F_[static_cast<size_t>(a)]);
    target_[j] = bf(a);
    dir_[j] = bf(a) - beta[j];
    dmax = std::max(dmax, std::fabs(dir_[j]));
    bmax = std::max(bmax, std::fabs(beta[j]));
  }
  return dmax <= 1e-13 * (1 + bmax);
}

// Stationary: the multipliers of the bounds, μ_j = x_jᵀ(W²(Xβ - y) + Σ_{rows in K} λ e_i) +
// λ_sum, and of the general constraints decide: the most negative leaves the working set.
bool ActiveSetFit::change_working_set() {
  const auto nk = static_cast<Eigen::Index>(K_.size());
  double lambda_sum = 0;
  for (size_t i = 0; i < static_cast<size_t>(N_); ++i) vrow_[i] = w2_[i] * (xb_[i] - y_[i]);
  for (Eigen::Index r = 0; r < nk; ++r) {
    const int64_t k = K_[static_cast<size_t>(r)];
    if (k < 0) lambda_sum = lambda_(r);
    else vrow_[static_cast<size_t>(k)] += lambda_(r);
  }
  double worst = -tol_;
  int64_t leave_col = -1, leave_k = -1;
  for (int64_t j = 0; j < S_; ++j) {
    if (free_flag_[static_cast<size_t>(j)]) continue;
    double mu = lambda_sum;
    for (const int32_t* p = X_.col(j), *q = p + X_.nnz(j); p < q; ++p) mu += vrow_[static_cast<size_t>(*p)];
    poll_.tick(1 + X_.nnz(j));
    if (mu < worst) worst = mu, leave_col = j, leave_k = -1;
  }
  for (Eigen::Index r = 0; r < nk; ++r)
    if (lambda_(r) < worst) worst = lambda_(r), leave_k = r, leave_col = -1;
  if (leave_col >= 0) {
    enter(leave_col);
    const auto nf0 = static_cast<Eigen::Index>(F_.size());
    Eigen::VectorXd h(nf0);
    const int64_t sj = slot_[static_cast<size_t>(leave_col)];
    for (Eigen::Index a = 0; a < nf0; ++a) h(a) = gram_(slot_[static_cast<size_t>(F_[static_cast<size_t>(a)])], sj);
    factor_.append(h, gram_(sj, sj) + delta_);
    F_.push_back(leave_col);
    free_flag_[static_cast<size_t>(leave_col)] = 1;
    return true;
  }
  if (leave_k >= 0) {
    const int64_t k = K_[static_cast<size_t>(leave_k)];
    if (k < 0) sum_in_K_ = false;
    else row_in_K_[static_cast<size_t>(k)] = 0;
    K_.erase(K_.begin() + leave_k);
    return true;
  }
  return false;  // optimal
}

void ActiveSetFit::step() {
  std::vector<double>& beta = out_->beta;
  double alpha = 1;
  int64_t block_col = -1, block_k = -2;
  for (int64_t j : F_) {
    const auto u = static_cast<size_t>(j);
    if (dir_[u] < 0) {
      const double a = std::max(0.0, -beta[u] / dir_[u]);
      if (a < alpha) alpha = a, block_col = j, block_k = -2;
    }
  }
  mul(dir_, &xd_);
  if (!sum_in_K_) {
    double sb = 0, sd = 0;
    for (int64_t j : F_) sb += beta[static_cast<size_t>(j)], sd += dir_[static_cast<size_t>(j)];
    if (sd > 0) {
      const double a = std::max(0.0, (1 - sb) / sd);
      if (a < alpha) alpha = a, block_col = -1, block_k = -1;
    }
  }
  for (int64_t i = 0; i < N_; ++i) {
    const auto u = static_cast<size_t>(i);
    if (row_in_K_[u] || !(xd_[u] > 0)) continue;
    const double a = std::max(0.0, (upper_[u] - xb_[u]) / xd_[u]);
    if (a < alpha) alpha = a, block_col = -1, block_k = i;
  }
  for (int64_t j : F_) beta[static_cast<size_t>(j)] += alpha * dir_[static_cast<size_t>(j)];
  if (block_col >= 0) {
    beta[static_cast<size_t>(block_col)] = 0;
    free_flag_[static_cast<size_t>(block_col)] = 0;
    const auto at = std::find(F_.begin(), F_.end(), block_col);
    factor_.remove(static_cast<Eigen::Index>(at - F_.begin()));
    F_.erase(at);
  } else if (block_k >= -1) {
    K_.push_back(block_k);
    if (block_k < 0) sum_in_K_ = true;
    else row_in_K_[static_cast<size_t>(block_k)] = 1;
  }
  for (int64_t j : F_) beta[static_cast<size_t>(j)] = std::max(0.0, beta[static_cast<size_t>(j)]);
  mul(beta, &xb_);
}

void ActiveSetFit::run() {
  const int64_t max_iter = 10 * (S_ + N_) + 100;
  for (out_->iterations = 0; out_->iterations < max_iter; ++out_->iterations) {
    if (solve_working_set()) {
      if (!change_working_set()) return;  // optimal
      continue;
    }
    step();
  }
  out_->converged = false;  // the iterate is feasible; the glue may report it
}

}  // namespace

ConstrainedFit rappor_constrained_fit(const SparseColumns& X, const std::vector<double>& y,
                                      const std::vector<double>& w, const std::vector<double>& upper) {
  ConstrainedFit out;
  out.beta.assign(static_cast<size_t>(X.cols()), 0.0);
  if (X.cols() == 0) return out;
  ActiveSetFit fit(X, y, w, upper, &out);
  fit.run();
  return out;
}

}  // namespace ldp
