#include "core/oracles/sketch_hash.hpp"

#include <cstring>

#include <xxhash.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

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

namespace {
bool have_avx512() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return yes;
#else
  return false;
#endif
}
}  // namespace

void ItemHashes::hashes(uint64_t first, uint64_t stride, int64_t count, uint64_t* out) const {
  if (short_ && have_avx512()) {
    hashes_avx512(first, stride, count, out);
    return;
  }
  hashes_portable(first, stride, count, out);
}

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12 warns about the intrinsics' own undefined pass-through operands.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
// The steps of hashes_portable on eight 64-bit lanes: vprolq, vpxorq, vpmullq.
__attribute__((target("avx512f,avx512dq"))) void ItemHashes::hashes_avx512(uint64_t first, uint64_t stride,
                                                                           int64_t count, uint64_t* out) const {
  const __m512i p1 = _mm512_set1_epi64(static_cast<long long>(kP1)), p2 = _mm512_set1_epi64(static_cast<long long>(kP2)),
                p3 = _mm512_set1_epi64(static_cast<long long>(kP3)), p4 = _mm512_set1_epi64(static_cast<long long>(kP4));
  __m512i seed = _mm512_add_epi64(
      _mm512_set1_epi64(static_cast<long long>(start_ + first)),
      _mm512_mullo_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(static_cast<long long>(stride))));
  const __m512i step = _mm512_set1_epi64(static_cast<long long>(8 * stride));
  for (int64_t b = 0; b < count; b += 8, seed = _mm512_add_epi64(seed, step)) {
    __m512i h = seed;
    for (int l = 0; l < lanes_; ++l)
      h = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_rol_epi64(_mm512_xor_si512(h, _mm512_set1_epi64(static_cast<long long>(lane_[l]))), 27), p1), p4);
    if (words_ != 0)
      h = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_rol_epi64(_mm512_xor_si512(h, _mm512_set1_epi64(static_cast<long long>(word_))), 23), p2), p3);
    for (int c = 0; c < bytes_; ++c)
      h = _mm512_mullo_epi64(_mm512_rol_epi64(_mm512_xor_si512(h, _mm512_set1_epi64(static_cast<long long>(byte_[c]))), 11), p1);
    h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 33));
    h = _mm512_mullo_epi64(h, p2);
    h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 29));
    h = _mm512_mullo_epi64(h, p3);
    h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 32));
    if (count - b >= 8)
      _mm512_storeu_si512(out + b, h);
    else
      _mm512_mask_storeu_epi64(out + b, static_cast<__mmask8>((1u << (count - b)) - 1), h);
  }
}
#pragma GCC diagnostic pop
#else
void ItemHashes::hashes_avx512(uint64_t first, uint64_t stride, int64_t count, uint64_t* out) const {
  hashes_portable(first, stride, count, out);
}
#endif

void ItemHashes::hashes_portable(uint64_t first, uint64_t stride, int64_t count, uint64_t* out) const {
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
