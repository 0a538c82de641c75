// Bassily et al.'s count-sketch oracle with Hadamard compression: a device's entry and a
// candidate's row estimates (count_sketch.hpp).
#include "core/oracles/count_sketch.hpp"

#include "core/oracles/hadamard_response.hpp"
#include "core/oracles/hash_columns.hpp"
#include "core/oracles/sketch_hash.hpp"

namespace ldp {

bool count_sketch_entry(std::string_view u, int64_t j, int64_t r, int64_t m) {
  const auto seed = static_cast<uint64_t>(2 * j);
  const bool g_plus = (sketch_xxh64(u, seed + 1) & 1) == 0;
  return hadamard_plus(r, sketch_column(sketch_xxh64(u, seed), m)) == g_plus;
}

void count_sketch_rows(const int64_t* table, int64_t t, int64_t m, std::string_view u, double scale,
                       uint64_t* hashes, double* rows) {
  ItemHashes(u).hashes(0, 1, 2 * t, hashes);  // seeds 0, 1, ..., 2t-1
  const uint64_t mask = static_cast<uint64_t>(m) - 1;
  for (int64_t j = 0; j < t; ++j) {
    const double v = scale * static_cast<double>(table[j * m + static_cast<int64_t>(hashes[2 * j] & mask)]);
    rows[j] = (hashes[2 * j + 1] & 1) == 0 ? v : -v;
  }
}

}  // namespace ldp
