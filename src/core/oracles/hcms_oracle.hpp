// Apple's Hadamard Count Mean Sketch
// (docs/algorithms/sketches.md#hadamard-count-mean-sketch-hcms) on one table of k rows by m
// columns (m a power of two): the piece the hcms sketch (sketch/) and the heavy-hitters
// family (PEM's group oracles, SFP's fragment and word oracles, heavy/) share.
//
// Hashes: h_j(u) = XXH64(u, j) mod m. Device: x = H[l][h_j(u)] for its (j, l), sent
// by randomized response. Server: counters S[j][l] = Σ y, prepared table T[j] =
// FWHT(S[j]) (fwht_exact), and the estimate of u from n reports,
//   f̂(u) = (m/(m-1))·( c(ε)·Σ_j T[j][h_j(u)] - n/m ).
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

namespace ldp {

// x = H[l][h_j(u)] with +1 as true: what a device sends before its randomized response.
bool hcms_entry(std::string_view u, int64_t j, int64_t l, int64_t m);

// Σ_j table[j·m + h_j(u) mod m] for j in [0, k), exact (each term at most n in
// magnitude), with k words of scratch for the hashes (ItemHashes, oracles/sketch_hash.hpp).
// cms reads its counters with it, hcms its transformed table.
double sketch_table_row_sum(const int64_t* table, int64_t k, int64_t m, std::string_view u, uint64_t* scratch);

// The HCMS estimate from that row sum, for n reports at ε.
inline double hcms_count(double row_sum, double n, int64_t m, double epsilon) {
  const double md = static_cast<double>(m), c = 1.0 / std::tanh(epsilon / 2);  // c(ε)
  return md / (md - 1) * (c * row_sum - n / md);
}

}  // namespace ldp
