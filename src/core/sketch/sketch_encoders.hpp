// Device-side encoders of the sketch oracles (the SDK): an item is any byte
// string (UTF-8 text; an integer as its decimal text). Each validates its
// parameters as the aggregates do (InvalidParameter).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/common/random.hpp"

namespace ldp {

// cms: a row j and width bits, written MSB-first into bytes ((width + 7) / 8 of
// them; bit i = 1 iff v[i] = +1, as in ldp.cms_agg's varbit).
int64_t cms_encode(std::string_view item, double epsilon, int64_t hashes, int64_t width,
                   RandomSource& rng, uint8_t* bytes);

// hcms and hashtogram: (row, coefficient, y) with y = +1 as true.
struct SignedSketchReport {
  int64_t hash_index;
  int64_t coefficient;
  bool report;
};
SignedSketchReport hcms_encode(std::string_view item, double epsilon, int64_t hashes, int64_t width,
                               RandomSource& rng);
SignedSketchReport hashtogram_encode(std::string_view item, double epsilon, int64_t hashes,
                                     int64_t width, RandomSource& rng);

}  // namespace ldp
