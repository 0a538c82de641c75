// Bassily et al.'s count-sketch oracle with Hadamard compression
// (docs/algorithms/sketches.md#count-sketch-with-hadamard-compression-hashtogram) on one
// table of t rows by m columns (m a power of two): the piece the hashtogram sketch
// (sketch/) and the heavy-hitters family (TreeHist's prefix and final oracles,
// Bitstogram's final oracle, heavy/) share; HEAVYTHRESH's projections
// (thresh/histogram.cpp) hash an item the same way.
//
// Hashes: h_j(u) = XXH64(u, 2j) mod m and g_j(u) = 1 - 2·(XXH64(u, 2j+1) & 1).
// Device: x = g_j(u)·H[r][h_j(u)] for its public (j, r), sent by randomized response.
// Server: counters S[j][r] = Σ y, prepared table T[j] = FWHT(S[j]) (fwht_exact), row
// estimates scale·g_j(u)·T[j][h_j(u)] (scale = t·c(ε') for hashtogram), and their
// median (median_of, median_at_least in common/select.hpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace ldp {

// x = g_j(u)·H[r][h_j(u)] with +1 as true: what a device sends before its randomized
// response. 0 <= j, 0 <= r < m, m a power of two.
bool count_sketch_entry(std::string_view u, int64_t j, int64_t r, int64_t m);

// rows[j] = scale·g_j(u)·table[j·m + h_j(u)] for j in [0, t), with 2t words of scratch
// for the hashes (all 2t computed at once: ItemHashes, oracles/sketch_hash.hpp).
void count_sketch_rows(const int64_t* table, int64_t t, int64_t m, std::string_view u, double scale,
                       uint64_t* hashes, double* rows);

}  // namespace ldp
