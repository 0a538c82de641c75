// RAPPOR decoding (rappor_summary.hpp): google/rappor analysis/R/decode.R's Decode, made
// deterministic (docs/algorithms/rappor.md#decoding), and ComputePrivacyGuarantees.
//
// 1. EstimateBloomCounts, per cohort with reports and bit b (N = N_c, C = C[c][b]):
//      p11 = q(1 - f/2) + p·f/2, p01 = p(1 - f/2) + q·f/2, p2 = p11 - p01 = (1 - f)(q - p);
//      Y = (C - p01·N)/(p2·N);  sd = sqrt(N·r(1 - r))/(p2·N), r = p̂·p11 + (1 - p̂)·p01,
//      p̂ = Y clamped to [0, 1].
// 2. The design matrix X[c·k + b, s] = 1 iff b ∈ bloom(s, c) (bin/hash_candidates.py),
//    rows of the cohorts with reports only (Decode's filter_cohorts).
// 3. Candidates with identical columns (colliding candidates) are fitted as one column
//    and share its estimate equally (ours: decode.R's lsei would put the mass anywhere on
//    the tie); `collision` says how many share it.
// 4. FitDistribution: LASSO screening (glmnet, rappor_lasso_support) when S > 0.8·rows,
//    pmax = min(500, ⌊0.8·rows⌋); then ConstrainedLinModel on the support: minimize
//    ‖diag(w)(Xβ - Y)‖², β >= 0, Σβ <= 1, Xβ <= clamp(Y + 3·sd, 0.01, 1), with w = 1/sd
//    capped at twice its median (of the finite ones) and rescaled to mean 1 (MakeLseiModel).
// 5. Standard errors (ours, docs/algorithms/rappor.md#standard-errors): instead of
//    Decode's sd over 5 fits of resampled Y (rnorm), the covariance of the weighted least squares on the active set A (β > 0):
//      Cov = B⁻¹·X_Aᵀ W² Σ W² X_A·B⁻¹,  B = X_Aᵀ W² X_A,  Σ = diag(sd²)
//    (the sandwich: w is capped, so W² is not Σ⁻¹ everywhere; it is (X_AᵀΣ⁻¹X_A)⁻¹ where
//    it is). A fitted column outside A gets the variance it would have if added to A:
//      1/(z_jᵀz_j - z_jᵀZ_A(Z_AᵀZ_A)⁻¹Z_Aᵀz_j),  Z = diag(1/sd)·X;
//    one the LASSO screened out the variance it has alone, 1/z_jᵀz_j.
//    Estimates are N·β, SEs N·SE(β) (Decode's coefs_ave and coefs_ssd, not floored).
// 6. Detection, Decode's rule on that fit: N·β > 1e-6 + 2·N·SE(β).
// 7. The detected's estimates (ours, RapporDecodeOptions::decode_r_estimates = false): the
//    generalized least squares on all the fitted columns F, without the constraints:
//      β = info⁻¹·X_FᵀΣ⁻¹Y,  Cov = info⁻¹,  info = X_FᵀΣ⁻¹X_F,  Σ = diag(sdc²)
//    (w = 1/sdc up to a constant, so this is step 4's objective without β >= 0, Σβ <= 1,
//    Xβ <= upper). Step 4's β >= 0 gives every absent candidate positive mass, which
//    Σβ <= 1 and the bits they share take from the true strings: about -0.5 SE on each when
//    the candidates cover the population (200-population coverage 0.92); this estimate
//    is unbiased there (coverage 0.95). The detected keep decode.R's rule, applied again
//    to these figures (a detected column whose unconstrained estimate is below 2 SE is no
//    longer detected); the undetected keep step 4's figures. Cost: one Cholesky of the
//    |F|×|F| information (|F| <= 500 after LASSO screening, else S <= 0.8·rows).
// 8. Proportions β with β ∓ 1.96·SE, clamped to [0, 1].
#include <Eigen/Dense>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <limits>
#include <numeric>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/common/decode_limits.hpp"
#include "core/common/error.hpp"
#include "core/common/interrupt.hpp"
#include "core/common/stats.hpp"
#include "core/rappor/rappor_internal.hpp"
#include "core/rappor/rappor_summary.hpp"

namespace ldp {

namespace {

double median(std::vector<double> v) {  // R's median: the mean of the middle two for even sizes
  const size_t n = v.size();
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(v.begin(), mid, v.end());  // linear: millions of rows in milliseconds
  return n % 2 == 1 ? *mid : (*std::max_element(v.begin(), mid) + *mid) / 2;
}

// An MD5 of the design matrix (a candidate in a cohort) counted in operations.
constexpr double kMd5Work = 64;

// What the decode will hold and do at most, planned before it allocates: the per-row
// vectors (estimates, weights, bounds, the fits' work vectors: about 128 bytes a row), the
// candidates' columns (room for a row index of 4 bytes per cohort and hash, of which at
// most min(hashes, bits) are distinct; copied once more for the LASSO, with its per-column
// vectors: about 96 bytes a candidate besides), the fitted columns twice more (their
// copy, and the rows' lists of the columns meeting them), and
// the fits' dense matrices (at most 8 of F × F for F fitted candidates: the active set's
// Gram cache and Cholesky factor, its per-iteration systems; the standard errors' Gram
// sums and their inverses); work: an MD5 and the bits of each (candidate, cohort), and
// about F³ multiply-adds of the dense factorizations and products, which cannot poll for
// a cancel.
void plan_decode(const RapporSummary& s, int64_t S, bool lasso, int64_t fitted, DecodeBudget& budget) {
  const auto C = static_cast<double>(s.rows), k = static_cast<double>(s.params.bits), F = static_cast<double>(fitted);
  const double room = 4 * C * static_cast<double>(s.params.hashes);
  const double column = 4 * C * static_cast<double>(std::min(s.params.hashes, s.params.bits));
  const double bytes =
      128 * C * k + static_cast<double>(S) * (96 + room + (lasso ? column : 0)) + 2 * F * column + 64 * F * F;
  budget.hold(bytes, "%" PRId64 " candidates over %" PRId64 " cohorts with reports × %" PRId64 " bits (%" PRId64
              " fitted)", S, s.rows, s.params.bits, fitted);
  budget.plan(static_cast<double>(S) * C * (kMd5Work + k), "the design matrix of %" PRId64 " candidates × %" PRId64
              " cohorts with reports × %" PRId64 " bits", S, s.rows, s.params.bits);
  budget.plan(F * F * F, "the dense fits of %" PRId64 " candidates", fitted);
}

// The constrained fit on the groups `support` (columns X, in that order) and the standard
// errors of step 5 for every group: into beta and var (variances of β), indexed by group.
void fit_with_errors(const SparseColumns& X, const std::vector<int64_t>& support,
                     const std::vector<std::vector<int32_t>>& cols, const std::vector<int64_t>& group_first,
                     const std::vector<double>& Y, const std::vector<double>& w, const std::vector<double>& upper,
                     const std::vector<double>& sdc, std::vector<double>* beta, std::vector<double>* var,
                     RapporDecode* out) {
  const auto G = static_cast<int64_t>(group_first.size());
  const auto rows = static_cast<Eigen::Index>(Y.size());
  std::fill(beta->begin(), beta->end(), 0.0);
  if (!support.empty()) {
    const ConstrainedFit fit = rappor_constrained_fit(X, Y, w, upper);
    out->fit_iterations += fit.iterations;
    for (size_t t = 0; t < support.size(); ++t) (*beta)[static_cast<size_t>(support[t])] = fit.beta[t];
  }
  auto col = [&](int64_t g) -> const std::vector<int32_t>& { return cols[static_cast<size_t>(group_first[static_cast<size_t>(g)])]; };
  std::vector<int64_t> active;
  for (int64_t g = 0; g < G; ++g)
    if ((*beta)[static_cast<size_t>(g)] > 0) active.push_back(g);
  const auto na = static_cast<Eigen::Index>(active.size());
  // The active columns meeting each row: every Gram matrix below is a sum over rows of
  // the pairs that meet there (a 0/1 design: a few active columns per row).
  std::vector<std::vector<int32_t>> meet(static_cast<size_t>(rows));
  for (Eigen::Index a = 0; a < na; ++a)
    for (int32_t i : col(active[static_cast<size_t>(a)])) meet[static_cast<size_t>(i)].push_back(static_cast<int32_t>(a));
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(na, na), mid = B, info = B;
  InterruptPoll poll;
  for (Eigen::Index i = 0; i < rows; ++i) {
    const auto u = static_cast<size_t>(i);
    poll.tick(1 + static_cast<int64_t>(meet[u].size() * meet[u].size()));
    const double w2 = w[u] * w[u], s2 = sdc[u] * sdc[u];
    for (int32_t a : meet[u])
      for (int32_t b : meet[u]) {
        B(a, b) += w2;              // X_AᵀW²X_A
        mid(a, b) += w2 * w2 * s2;  // X_AᵀW²ΣW²X_A
        info(a, b) += 1 / s2;       // X_AᵀΣ⁻¹X_A
      }
  }
  if (na > 0) {  // the sandwich on the active set
    B.diagonal().array() += 1e-10 * B.diagonal().maxCoeff();
    const Eigen::MatrixXd Binv = B.llt().solve(Eigen::MatrixXd::Identity(na, na));
    const Eigen::MatrixXd cov = Binv * mid * Binv;
    for (Eigen::Index a = 0; a < na; ++a) (*var)[static_cast<size_t>(active[static_cast<size_t>(a)])] = cov(a, a);
  }
  // the others: the variance each would have if added to A (Schur complement, GLS),
  // 1/(z_jᵀz_j - c_jᵀ info⁻¹ c_j) with c_j = X_AᵀΣ⁻¹x_j, all c_j solved at once
  // (only for the fitted columns: one screened out by the LASSO gets the variance it has
  // alone, 1/z_jᵀz_j, without the solve; decode.R reports nothing for it)
  std::vector<int64_t> rest;
  std::vector<char> fitted(static_cast<size_t>(G), 0);
  for (int64_t g : support) fitted[static_cast<size_t>(g)] = 1;
  for (int64_t g = 0; g < G; ++g) {
    if ((*beta)[static_cast<size_t>(g)] > 0) continue;
    if (fitted[static_cast<size_t>(g)]) {
      rest.push_back(g);
      continue;
    }
    double zz = 0;
    for (int32_t i : col(g)) zz += 1 / (sdc[static_cast<size_t>(i)] * sdc[static_cast<size_t>(i)]);
    (*var)[static_cast<size_t>(g)] = 1 / zz;
  }
  const auto nr = static_cast<Eigen::Index>(rest.size());
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(na, nr);
  Eigen::VectorXd zz = Eigen::VectorXd::Zero(nr);
  for (Eigen::Index t = 0; t < nr; ++t)
    for (int32_t i : col(rest[static_cast<size_t>(t)])) {
      const double z2 = 1 / (sdc[static_cast<size_t>(i)] * sdc[static_cast<size_t>(i)]);
      zz(t) += z2;
      for (int32_t a : meet[static_cast<size_t>(i)]) C(a, t) += z2;
      poll.tick(1 + static_cast<int64_t>(meet[static_cast<size_t>(i)].size()));
    }
  Eigen::VectorXd quad = Eigen::VectorXd::Zero(nr);
  if (na > 0 && nr > 0) {
    info.diagonal().array() += 1e-10 * info.diagonal().maxCoeff();
    const Eigen::LLT<Eigen::MatrixXd> llt(info);
    const Eigen::MatrixXd half = llt.matrixL().solve(C);  // L⁻¹C: cᵀ info⁻¹ c = |L⁻¹c|²
    quad = half.colwise().squaredNorm().transpose();
  }
  for (Eigen::Index t = 0; t < nr; ++t)
    (*var)[static_cast<size_t>(rest[static_cast<size_t>(t)])] = 1 / std::max(zz(t) - quad(t), 1e-10 * zz(t));
}

// Step 7: the unconstrained generalized least squares on the groups `fitted`; β and the
// variance into beta and var for the groups of `wanted` (a subset of `fitted`) only.
void unconstrained_fit(const std::vector<int64_t>& fitted, const std::vector<int64_t>& wanted,
                       const std::vector<std::vector<int32_t>>& cols, const std::vector<int64_t>& group_first,
                       const std::vector<double>& Y, const std::vector<double>& sdc, std::vector<double>* beta,
                       std::vector<double>* var) {
  const auto nf = static_cast<Eigen::Index>(fitted.size());
  if (nf == 0 || wanted.empty()) return;
  std::vector<std::vector<int32_t>> meet(Y.size());
  std::vector<Eigen::Index> at(beta->size(), -1);
  for (Eigen::Index a = 0; a < nf; ++a) {
    const auto g = static_cast<size_t>(fitted[static_cast<size_t>(a)]);
    at[g] = a;
    for (int32_t i : cols[static_cast<size_t>(group_first[g])]) meet[static_cast<size_t>(i)].push_back(static_cast<int32_t>(a));
  }
  Eigen::MatrixXd info = Eigen::MatrixXd::Zero(nf, nf);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(nf);
  InterruptPoll poll;
  for (size_t i = 0; i < Y.size(); ++i) {
    poll.tick(1 + static_cast<int64_t>(meet[i].size() * meet[i].size()));
    const double z2 = 1 / (sdc[i] * sdc[i]);
    for (int32_t a : meet[i]) {
      rhs(a) += z2 * Y[i];
      for (int32_t b : meet[i]) info(a, b) += z2;
    }
  }
  info.diagonal().array() += 1e-10 * info.diagonal().maxCoeff();  // step 4's δ
  const Eigen::LLT<Eigen::MatrixXd> llt(info);
  if (llt.info() != Eigen::Success) return;  // keep the constrained fit's figures
  const Eigen::VectorXd b = llt.solve(rhs);
  Eigen::VectorXd e = Eigen::VectorXd::Zero(nf);
  for (int64_t g : wanted) {  // (info⁻¹)_aa = |L⁻¹e_a|²
    poll.tick(nf * nf);
    const Eigen::Index a = at[static_cast<size_t>(g)];
    e.setZero();
    e(a) = 1;
    const double v = llt.matrixL().solve(e).squaredNorm();
    if (!std::isfinite(b(a)) || !std::isfinite(v)) continue;  // rounding on a dependent set: keep step 4's
    (*beta)[static_cast<size_t>(g)] = b(a);
    (*var)[static_cast<size_t>(g)] = v;
  }
}

}  // namespace

void rappor_bit_estimates(const RapporSummary& s, std::vector<double>* estimates, std::vector<double>* stds) {
  const RapporParams& P = s.params;
  const double p11 = P.q * (1 - P.f / 2) + P.p * P.f / 2;  // a true 1 reported as 1
  const double p01 = P.p * (1 - P.f / 2) + P.q * P.f / 2;  // a true 0 reported as 1
  const double p2 = p11 - p01;
  const int64_t k = P.bits;
  estimates->assign(static_cast<size_t>(s.rows * k), 0.0);
  stds->assign(static_cast<size_t>(s.rows * k), 0.0);
  InterruptPoll poll;
  for (int64_t i = 0; i < s.rows; ++i) {
    poll.tick(k);
    const auto N = static_cast<double>(s.row(i)[1]);
    for (int64_t b = 0; b < k; ++b) {
      const auto v = static_cast<double>(s.row(i)[2 + b]);
      double e = (v - p01 * N) / p2 / N;
      if (std::isinf(e)) e = 0;  // ests[abs(ests) == Inf] <- 0
      const double ph = std::min(1.0, std::max(0.0, (v - p01 * N) / (N * p2)));
      const double r = ph * p11 + (1 - ph) * p01;
      (*estimates)[static_cast<size_t>(i * k + b)] = e;
      (*stds)[static_cast<size_t>(i * k + b)] = std::sqrt(N * r * (1 - r) / (p2 * p2)) / N;
    }
  }
}

RapporDecode rappor_decode(const RapporSummary& s, const std::vector<std::string_view>& candidates,
                           const RapporDecodeOptions& o) {
  const RapporParams& P = s.params;
  const int64_t k = P.bits, S = static_cast<int64_t>(candidates.size());
  if (S == 0) throw_error(ErrorKind::InvalidParameter, "RAPPOR decoding needs at least one candidate");
  if (k == 1)
    throw_error(ErrorKind::InvalidParameter,
                "RAPPOR decoding needs bits >= 2 (a 1-bit RAPPOR is a proportion: decode.R's .DecodeBoolean)");
  {
    std::unordered_set<std::string_view> seen;
    seen.reserve(candidates.size());
    for (std::string_view c : candidates)
      if (!seen.insert(c).second)
        throw_error(ErrorKind::InvalidParameter, "RAPPOR candidate \"%.*s\" appears twice",
                    static_cast<int>(std::min<size_t>(c.size(), 200)), c.data());
  }
  RapporDecode out;
  out.n = s.n;
  out.rows = s.rows * k;
  out.items.assign(static_cast<size_t>(S), RapporCandidateEstimate{0, 0, 0, 0, 0, false, 1});
  if (s.n == 0) return out;
  const auto N = static_cast<double>(s.n);
  const int64_t rows = s.rows * k;
  const bool lasso = o.screen && static_cast<double>(S) > 0.8 * static_cast<double>(rows);
  const auto pmax = static_cast<int64_t>(std::min(500.0, std::floor(0.8 * static_cast<double>(rows))));
  DecodeBudget budget(o.limits, "rappor_decode");
  plan_decode(s, S, lasso, lasso ? std::min(S, pmax) : S, budget);
  out.planned_work = budget.planned();

  // 1. bit estimates, weights, upper bounds
  std::vector<double> Y, sd;
  rappor_bit_estimates(s, &Y, &sd);
  std::vector<double> w(static_cast<size_t>(rows)), finite;
  for (size_t i = 0; i < w.size(); ++i) {
    w[i] = 1 / sd[i];
    if (std::isfinite(w[i])) finite.push_back(w[i]);
  }
  check_interrupt();
  const double wmed = finite.empty() ? 1 : median(finite);
  check_interrupt();
  double wsum = 0;
  for (double& x : w) {
    if (x > 2 * wmed) x = 2 * wmed;
    wsum += x;
  }
  for (double& x : w) x /= wsum / static_cast<double>(rows);
  std::vector<double> upper(static_cast<size_t>(rows)), sdc(static_cast<size_t>(rows));
  for (size_t i = 0; i < upper.size(); ++i) {
    upper[i] = std::min(1.0, std::max(0.01, Y[i] + 3 * sd[i]));
    sdc[i] = std::max(sd[i], 1 / (2 * wmed));  // the SEs' Σ: sd, at least where w was capped
  }
  check_interrupt();  // (the steps above: a few passes over up to 2^22 rows)

  // 2. the design matrix, by candidate
  std::vector<std::vector<int32_t>> cols(static_cast<size_t>(S));
  int64_t pos[kRapporMaxHashes];
  InterruptPoll poll;
  for (int64_t j = 0; j < S; ++j) {
    std::vector<int32_t>& c = cols[static_cast<size_t>(j)];
    c.reserve(static_cast<size_t>(s.rows * P.hashes));
    for (int64_t i = 0; i < s.rows; ++i) {
      poll.tick(static_cast<int64_t>(kMd5Work) + P.hashes);
      rappor_bloom_positions(candidates[static_cast<size_t>(j)], static_cast<uint32_t>(s.row(i)[0]), k, P.hashes, pos);
      std::sort(pos, pos + P.hashes);
      for (int64_t h = 0; h < P.hashes; ++h)
        if (h == 0 || pos[h] != pos[h - 1]) c.push_back(static_cast<int32_t>(i * k + pos[h]));
    }
  }
  // 3. identical columns: one group each
  std::vector<int64_t> order(static_cast<size_t>(S)), group(static_cast<size_t>(S));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    poll.tick(s.rows);  // a comparison reads up to a column (std::sort is safe to leave by an exception)
    return cols[static_cast<size_t>(a)] != cols[static_cast<size_t>(b)] ? cols[static_cast<size_t>(a)] < cols[static_cast<size_t>(b)] : a < b;
  });
  std::vector<int64_t> group_size, group_first;
  for (size_t t = 0; t < order.size(); ++t) {
    if (t == 0 || cols[static_cast<size_t>(order[t])] != cols[static_cast<size_t>(order[t - 1])]) {
      group_size.push_back(0);
      group_first.push_back(order[t]);
    }
    group[static_cast<size_t>(order[t])] = static_cast<int64_t>(group_size.size()) - 1;
    group_size.back() += 1;
  }
  const auto G = static_cast<int64_t>(group_size.size());
  auto columns_of = [&](const std::vector<int64_t>& groups) {
    SparseColumns X;
    X.nrows = rows;
    for (int64_t g : groups) {
      const std::vector<int32_t>& c = cols[static_cast<size_t>(group_first[static_cast<size_t>(g)])];
      X.rows.insert(X.rows.end(), c.begin(), c.end());
      X.start.push_back(static_cast<int64_t>(X.rows.size()));
    }
    return X;
  };
  std::vector<int64_t> all(static_cast<size_t>(G));
  std::iota(all.begin(), all.end(), 0);

  // 4. screening, then the constrained fit
  std::vector<int64_t> support = all;
  if (lasso) {
    out.lasso = true;
    std::vector<int64_t> picked = rappor_lasso_support(columns_of(all), Y, pmax);
    support = picked;
    for (int64_t g : support) out.screened_candidates.push_back(group_first[static_cast<size_t>(g)]);
  }
  out.screened = static_cast<int64_t>(support.size());
  std::vector<double> beta(static_cast<size_t>(G), 0.0), var(static_cast<size_t>(G), 0.0);
  fit_with_errors(columns_of(support), support, cols, group_first, Y, w, upper, sdc, &beta, &var, &out);

  // 6, 7. the columns Decode's rule detects on that fit: their unconstrained estimates
  if (!o.decode_r_estimates) {
    std::vector<int64_t> detected;
    for (int64_t g = 0; g < G; ++g) {
      const auto u = static_cast<size_t>(g);
      if (beta[u] > static_cast<double>(group_size[u]) * 1e-6 / N + 2 * std::sqrt(var[u])) detected.push_back(g);
    }
    unconstrained_fit(support, detected, cols, group_first, Y, sdc, &beta, &var);
  }

  // 6 to 8, by candidate: estimates, detection, intervals
  for (int64_t j = 0; j < S; ++j) {
    const auto g = static_cast<size_t>(group[static_cast<size_t>(j)]);
    const auto share = static_cast<double>(group_size[g]);
    const double b = beta[g] / share, se = std::sqrt(var[g]) / share;
    RapporCandidateEstimate& e = out.items[static_cast<size_t>(j)];
    // The unconstrained estimates (7) may leave [0, 1] (730 of 400 reports, found by the
    // fuzzer): a proportion outside it is impossible and its projection onto [0, 1] is
    // never farther from the truth, so the estimate is clamped as the interval is; the
    // detection rule reads the estimate before the clamp.
    e.proportion = std::clamp(b, 0.0, 1.0);
    e.count = N * e.proportion;
    e.std_error = N * se;
    e.detected = N * b > 1e-6 + 2 * e.std_error;
    e.ci_lower = std::clamp(b - 1.96 * se, 0.0, 1.0);
    e.ci_upper = std::clamp(b + 1.96 * se, 0.0, 1.0);
    e.collision = group_size[g];
  }
  return out;
}

RapporPrivacy rappor_privacy(int64_t hashes, double f, double p, double q, int64_t reports, double alpha) {
  if (hashes < 1 || hashes > kRapporMaxHashes)
    throw_error(ErrorKind::InvalidParameter, "RAPPOR hashes must be in [1, %" PRId64 "], got %" PRId64,
                kRapporMaxHashes, hashes);
  const char* names[3] = {"f", "p", "q"};
  const double v[3] = {f, p, q};
  for (int i = 0; i < 3; ++i)
    if (!(v[i] >= 0 && v[i] <= 1))
      throw_error(ErrorKind::InvalidParameter, "RAPPOR %s must be in [0, 1], got %g", names[i], v[i]);
  if (!(alpha > 0 && alpha < 1)) throw_error(ErrorKind::InvalidParameter, "alpha must be in (0, 1), got %g", alpha);
  // ComputePrivacyGuarantees, in R's order of operations
  RapporPrivacy r{};
  const auto h = static_cast<double>(hashes);
  r.q_star = .5 * f * (p + q) + (1 - f) * q;
  r.p_star = .5 * f * (p + q) + (1 - f) * p;
  if (r.p_star == r.q_star) {
    // a report's bits have the same law whatever the value (f = 1, or p = q): nothing
    // leaks, where R's ratio is 0/0 when both are 0 or 1
    r.epsilon_one = 0;
  } else {
    double exp_e_one = std::pow((r.q_star * (1 - r.p_star)) / (r.p_star * (1 - r.q_star)), h);
    if (exp_e_one < 1) exp_e_one = 1 / exp_e_one;
    r.epsilon_one = std::log(exp_e_one);
  }
  r.epsilon_inf = std::log(std::pow((1 - .5 * f) / (.5 * f), 2 * h));
  r.has_detection = reports > 0 && p < q;
  if (r.has_detection) {
    // qnorm(1 - alpha), from alpha itself (1 - 1e-300 would round to 1)
    const double z = normal_upper_quantile(alpha);
    const auto n = static_cast<double>(reports);
    if (r.q_star > r.p_star) {
      const double std_dev_counts = std::sqrt(r.p_star * (1 - r.p_star) * n) / (r.q_star - r.p_star);
      r.detection_frequency = z * std_dev_counts / n;
    } else {
      // f = 1: reports carry nothing, no proportion is detectable (R: z·Inf)
      r.detection_frequency = std::numeric_limits<double>::infinity();
    }
  }
  return r;
}

}  // namespace ldp
