// Inside the core only: what the RAPPOR files share (the summary's consistency check,
// the sparse design matrix, the LASSO screening and the constrained fit). The glue uses
// rappor_client.hpp and rappor_summary.hpp, never this header.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/error.hpp"
#include "core/rappor/rappor_summary.hpp"

namespace ldp {

// What a reader checks of a parsed summary (kind: InvalidText or InvalidBinary): n >= 0,
// cohorts strictly increasing in [0, m), 1 <= N_c, 0 <= C[c][b] <= N_c, Σ N_c = n.
void rappor_check_counts(const RapporSummary& s, ErrorKind kind, const char* type);

// A 0/1 design matrix by columns: column j has the rows rows[start[j] .. start[j+1]),
// sorted and distinct (a Bloom bit set by two hashes is one 1, as R's boolean map).
struct SparseColumns {
  int64_t nrows = 0;
  std::vector<int64_t> start{0};
  std::vector<int32_t> rows;
  int64_t cols() const { return static_cast<int64_t>(start.size()) - 1; }
  int64_t nnz(int64_t j) const { return start[j + 1] - start[j]; }
  const int32_t* col(int64_t j) const { return rows.data() + start[j]; }
};

// glmnet's gaussian LASSO as decode.R's FitLasso calls it (standardize = FALSE, an
// intercept, lower.limits = 0, pmax, the default path of 100 λ from λ_max down to
// λ_max·(S > rows ? 0.01 : 1e-4), glmnet's early stops) by coordinate descent with warm
// starts; the coefficients at the last λ reached. Returns the columns with β > 0.
std::vector<int64_t> rappor_lasso_support(const SparseColumns& X, const std::vector<double>& y, int64_t pmax);

// decode.R's ConstrainedLinModel (lsei): minimize ‖diag(w)(Xβ - y)‖² subject to β >= 0,
// Σβ <= 1 and Xβ <= upper, by a primal active-set method (Nocedal and Wright, Numerical
// Optimization, Algorithm 16.3) on the normal equations restricted to the free columns;
// H = XᵀW²X + δI with δ = 1e-10·max diag (ours: a tie-break for linearly dependent
// columns that identical-column merging leaves). Exact up to rounding, like lsei.
struct ConstrainedFit {
  std::vector<double> beta;
  int64_t iterations = 0;
  bool converged = true;
};
ConstrainedFit rappor_constrained_fit(const SparseColumns& X, const std::vector<double>& y,
                                      const std::vector<double>& w, const std::vector<double>& upper);

}  // namespace ldp
