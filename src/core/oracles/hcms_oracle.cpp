// Apple's Hadamard Count Mean Sketch oracle: a device's entry and a candidate's row sum
// (hcms_oracle.hpp).
#include "core/oracles/hcms_oracle.hpp"

#include "core/oracles/hadamard_response.hpp"
#include "core/oracles/hash_columns.hpp"
#include "core/oracles/sketch_hash.hpp"

namespace ldp {

bool hcms_entry(std::string_view u, int64_t j, int64_t l, int64_t m) {
  return hadamard_plus(l, sketch_column(sketch_xxh64(u, static_cast<uint64_t>(j)), m));
}

double sketch_table_row_sum(const int64_t* table, int64_t k, int64_t m, std::string_view item, uint64_t* scratch) {
  ItemHashes(item).hashes(0, 1, k, scratch);
  // The hashes first, then the table reads: independent loads, all in flight at once.
  // Exact: k values each at most n in magnitude.
  __int128 sum = 0;
  const SketchColumns column(m);
  for (int64_t j = 0; j < k; ++j) sum += table[j * m + column(scratch[j])];
  return static_cast<double>(sum);
}

}  // namespace ldp
