// Inside the core only: what each sketch mechanism file contributes to the
// registry in sketch_summary.cpp, and the helpers they share. The glue uses
// sketch_summary.hpp and sketch_encoders.hpp, never this header.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/common/error.hpp"
#include "core/common/random.hpp"
#include "core/oracles/hash_columns.hpp"
#include "core/sketch/sketch_summary.hpp"

namespace ldp {

struct SketchMechanismImpl {
  SketchMechanismInfo info;
  bool signed_counters;  // hcms, hashtogram: S = Σ ±1 (else cms: counts of +1 bits)
  bool power_of_two;     // the width must be a power of two
  bool transformed;      // prepare = each row's Walsh–Hadamard transform (else the counters)
  const char* array;     // the counters' name in the text form
  // One candidate from the prepared table (s.n > 0); scratch: sketch_scratch_words.
  SketchEstimate (*estimate)(const SketchSummary& s, const int64_t* table, std::string_view item,
                             uint64_t* scratch);
};

const SketchMechanismImpl& sketch_impl(SketchMechanism id);  // Internal on unknown
const SketchMechanismImpl* sketch_impl_from_byte(uint8_t id);

// Σ_j table[j][h_j(item) mod width] with h_j = XXH64(item, seed j) (cms, hcms).
double sketch_row_sum(const SketchSummary& s, const int64_t* table, std::string_view item, uint64_t* scratch);
// Encoders: validated parameters (InvalidParameter), as the aggregates check them.
void check_sketch_encoder(SketchMechanism id, double epsilon, int64_t hashes, int64_t width);

}  // namespace ldp
