// The conventions' hash, XXH64(item, seed), of one item under many seeds: what a
// candidate's estimate costs (cms and hcms hash it with seeds 0..k-1, hashtogram
// with 0..2t-1).
//
// For an item under 32 bytes XXH64 (Collet, the xxHash spec) is: h = seed + P5 +
// len; each 8-byte little-endian lane x: h = rotl(h ^ round(0, x), 27)·P1 + P4, with
// round(0, x) = rotl(x·P2, 31)·P1; a 4-byte word w: h = rotl(h ^ w·P1, 23)·P2 + P3;
// each remaining byte b: h = rotl(h ^ b·P5, 11)·P1; then the avalanche. Only the
// first term depends on the seed, so the item's steps are computed once and every
// seed then costs a short chain of multiplies, eight seeds at once. Longer items
// call libxxhash for each seed. libxxhash stays the reference: the unit tests
// compare the two for every length up to 40 bytes.
#pragma once

#include <cstdint>
#include <string_view>

namespace ldp {

class ItemHashes {
 public:
  explicit ItemHashes(std::string_view item);
  // out[i] = XXH64(item, first + i·stride) for i in [0, count): eight seeds per
  // instruction with AVX-512 where the CPU has it (checked at run time), else
  // hashes_portable.
  void hashes(uint64_t first, uint64_t stride, int64_t count, uint64_t* out) const;
  // The same in plain C++, eight seeds interleaved (the tests compare both paths).
  void hashes_portable(uint64_t first, uint64_t stride, int64_t count, uint64_t* out) const;

 private:
  void hashes_avx512(uint64_t first, uint64_t stride, int64_t count, uint64_t* out) const;
  std::string_view item_;
  bool short_;
  uint64_t start_;  // P5 + len (+ seed)
  int lanes_ = 0, words_ = 0, bytes_ = 0;
  uint64_t lane_[3];  // round(0, lane)
  uint64_t word_;     // w·P1
  uint64_t byte_[3];  // b·P5
};

}  // namespace ldp
