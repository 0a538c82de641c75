#include "sketch/sketch_hash.hpp"

#include <cstring>

#include <xxhash.h>

namespace ldp {

namespace {

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ULL, kP2 = 0xC2B2AE3D27D4EB4FULL, kP3 = 0x165667B19E3779F9ULL,
                   kP4 = 0x85EBCA77C2B2AE63ULL, kP5 = 0x27D4EB2F165667C5ULL;

template <int R>
inline uint64_t rotl64(uint64_t x) {
  return (x << R) | (x >> (64 - R));
}
inline uint64_t read_le(const unsigned char* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
inline uint64_t avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

}  // namespace

ItemHashes::ItemHashes(std::string_view item) : item_(item), short_(item.size() < 32) {
  if (!short_) return;
  const auto* p = reinterpret_cast<const unsigned char*>(item.data());
  size_t len = item.size();
  start_ = kP5 + static_cast<uint64_t>(len);
  for (; len >= 8; p += 8, len -= 8) lane_[lanes_++] = rotl64<31>(read_le(p, 8) * kP2) * kP1;
  if (len >= 4) {
    word_ = read_le(p, 4) * kP1;
    words_ = 1;
    p += 4;
    len -= 4;
  }
  for (; len > 0; ++p, --len) byte_[bytes_++] = uint64_t{*p} * kP5;
}

void ItemHashes::hashes(uint64_t first, uint64_t stride, int64_t count, uint64_t* out) const {
  if (!short_) {
    for (int64_t i = 0; i < count; ++i)
      out[i] = XXH64(item_.data(), item_.size(), first + static_cast<uint64_t>(i) * stride);
    return;
  }
  constexpr int kBlock = 8;  // independent chains in flight
  for (int64_t b = 0; b < count; b += kBlock) {
    const int n = count - b < kBlock ? static_cast<int>(count - b) : kBlock;
    uint64_t h[kBlock];
    for (int s = 0; s < kBlock; ++s) h[s] = start_ + first + static_cast<uint64_t>(b + s) * stride;
    for (int l = 0; l < lanes_; ++l)
      for (int s = 0; s < kBlock; ++s) h[s] = rotl64<27>(h[s] ^ lane_[l]) * kP1 + kP4;
    if (words_ != 0)
      for (int s = 0; s < kBlock; ++s) h[s] = rotl64<23>(h[s] ^ word_) * kP2 + kP3;
    for (int c = 0; c < bytes_; ++c)
      for (int s = 0; s < kBlock; ++s) h[s] = rotl64<11>(h[s] ^ byte_[c]) * kP1;
    for (int s = 0; s < n; ++s) out[b + s] = avalanche(h[s]);
  }
}

}  // namespace ldp
