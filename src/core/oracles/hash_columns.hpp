// The hashes' conventions of the sketch oracles (count sketch, HCMS) and the sketch
// family: an item's hash under a seed is XXH64 of its bytes, and its column in a row
// of a given width is that hash mod the width. Inline, with libxxhash inlined too.
#pragma once

#include <cstdint>
#include <string_view>

#define XXH_INLINE_ALL  // the per-candidate hashes are the estimates' whole cost
#include <xxhash.h>

namespace ldp {

// The conventions' hash: XXH64 of the item's bytes with this seed.
inline uint64_t sketch_xxh64(std::string_view item, uint64_t seed) {
  return XXH64(item.data(), item.size(), seed);
}
// Column of a hash value in [0, width): h mod width (a mask for a power of two).
inline int64_t sketch_column(uint64_t h, int64_t width) {
  const auto w = static_cast<uint64_t>(width);
  return static_cast<int64_t>((w & (w - 1)) == 0 ? h & (w - 1) : h % w);
}
// The same for many hash values of one width, without a division each: a mask for a
// power of two, else the remainder computed directly from a 128-bit reciprocal
// M = ceil(2^128 / width), as (M·h mod 2^128)·width / 2^128 (Lemire, Kaser and Kurz,
// "Faster remainder by direct computation", 2019: exact for every 64-bit h and width,
// since 128 bits are at least 64 plus the bits of the width). Widths like Apple's
// 1000 otherwise cost a 64-bit division per row of every candidate. width >= 2.
class SketchColumns {
 public:
  explicit SketchColumns(int64_t width)
      : width_(static_cast<uint64_t>(width)), mask_((width_ & (width_ - 1)) == 0 ? width_ - 1 : 0) {
    if (mask_ == 0) reciprocal_ = ~static_cast<unsigned __int128>(0) / width_ + 1;
  }
  int64_t operator()(uint64_t h) const {
    if (mask_ != 0) return static_cast<int64_t>(h & mask_);
    const unsigned __int128 low = reciprocal_ * h;  // mod 2^128
    const unsigned __int128 bottom = (static_cast<unsigned __int128>(static_cast<uint64_t>(low)) * width_) >> 64;
    const unsigned __int128 top = static_cast<unsigned __int128>(static_cast<uint64_t>(low >> 64)) * width_;
    return static_cast<int64_t>((top + bottom) >> 64);
  }

 private:
  uint64_t width_;
  uint64_t mask_;  // width - 1 for a power of two, else 0
  unsigned __int128 reciprocal_ = 0;
};

}  // namespace ldp
