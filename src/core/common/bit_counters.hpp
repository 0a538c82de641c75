// Counting the bits of many bit strings at once, a byte-wide counter per bit: the hot
// path of the reports that are bit strings (SUE and OUE, Apple's CMS). Bit i of a
// string (MSB-first, PostgreSQL's varbit layout) adds 1 to byte counter i; eight byte
// counters share a 64-bit word, which no carry crosses while every counter stays
// below 256, so the caller moves them into its int64 counters at least every 255
// strings (flush_byte_counters).
#pragma once

#include <cstdint>
#include <cstring>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace ldp {

namespace bit_counters_detail {
// kSpread[b]: byte i of the (little-endian) word is bit 7 - i of b.
constexpr uint64_t spread(unsigned b) {
  uint64_t w = 0;
  for (int i = 0; i < 8; ++i) w |= static_cast<uint64_t>((b >> (7 - i)) & 1u) << (8 * i);
  return w;
}
struct SpreadTable {
  uint64_t v[256];
  constexpr SpreadTable() : v() {
    for (unsigned b = 0; b < 256; ++b) v[b] = spread(b);
  }
};
inline constexpr SpreadTable kSpreadTable{};
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the byte counters' words are little-endian");
}  // namespace bit_counters_detail

// words[j] (8-byte aligned, (nbits + 7) / 8 of them) += the bits of byte j of bits: in
// plain C++ with SSE2 (the reference the tests compare with).
inline void add_bits_to_byte_counters_portable(const uint8_t* bits, int64_t nbits, uint64_t* words) {
  const uint64_t* spread = bit_counters_detail::kSpreadTable.v;
  const int64_t nbytes = (nbits + 7) / 8;
  int64_t j = 0;
#if defined(__SSE2__)
  // 16 bytes of bits → 128 byte counters: each byte repeated 8 times by three rounds of
  // unpacking, its bits picked by one mask, a set bit = 0xff = -1.
  const __m128i mask = _mm_set_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
  for (; j + 16 <= nbytes; j += 16) {
    __m128i r = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bits + j));
    __m128i halves[2] = {_mm_unpacklo_epi8(r, r), _mm_unpackhi_epi8(r, r)};
    auto* out = reinterpret_cast<__m128i*>(words + j);
    for (int h = 0; h < 2; ++h) {
      __m128i q[2] = {_mm_unpacklo_epi16(halves[h], halves[h]), _mm_unpackhi_epi16(halves[h], halves[h])};
      for (int e = 0; e < 2; ++e) {
        __m128i x[2] = {_mm_unpacklo_epi32(q[e], q[e]), _mm_unpackhi_epi32(q[e], q[e])};
        for (int f = 0; f < 2; ++f) {
          __m128i set = _mm_cmpeq_epi8(_mm_and_si128(x[f], mask), mask);
          __m128i* o = out + 4 * h + 2 * e + f;
          _mm_storeu_si128(o, _mm_sub_epi8(_mm_loadu_si128(o), set));  // 8-byte aligned
        }
      }
    }
  }
#endif
  for (; j < nbytes; ++j) words[j] += spread[bits[j]];
}

#if defined(__x86_64__) && defined(__GNUC__)
namespace bit_counters_detail {
inline bool have_avx512_gfni() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("gfni");
  return yes;
}
// 64 bytes of bits → 512 byte counters: GF2P8AFFINEQB with the matrix 0x8040201008040201
// reverses the bits of every byte, so that each 8 bytes read as a little-endian word are
// the mask of their 64 counters (bit t = counter t); one masked byte add per 64 counters.
__attribute__((target("avx512f,avx512bw,gfni"))) inline int64_t add_bits_avx512(const uint8_t* bits,
                                                                                 int64_t nbytes,
                                                                                 uint64_t* words) {
  const __m512i reverse = _mm512_set1_epi64(static_cast<long long>(0x8040201008040201ULL));
  const __m512i one = _mm512_set1_epi8(1);
  int64_t j = 0;
  for (; j + 64 <= nbytes; j += 64) {
    __m512i x = _mm512_gf2p8affine_epi64_epi8(_mm512_loadu_si512(bits + j), reverse, 0);
    alignas(64) uint64_t m[8];
    _mm512_store_si512(m, x);
    for (int t = 0; t < 8; ++t) {
      void* o = words + j + 8 * t;
      __m512i v = _mm512_loadu_si512(o);
      _mm512_storeu_si512(o, _mm512_mask_add_epi8(v, _cvtu64_mask64(m[t]), v, one));
    }
  }
  return j;
}
}  // namespace bit_counters_detail
#endif

// The same, with AVX-512 and GFNI for whole 64-byte blocks where the CPU has them
// (checked at run time).
inline void add_bits_to_byte_counters(const uint8_t* bits, int64_t nbits, uint64_t* words) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (nbits >= 512 && bit_counters_detail::have_avx512_gfni()) {
    const int64_t done = bit_counters_detail::add_bits_avx512(bits, (nbits + 7) / 8, words);
    add_bits_to_byte_counters_portable(bits + done, nbits - 8 * done, words + done);
    return;
  }
#endif
  add_bits_to_byte_counters_portable(bits, nbits, words);
}

// counters[i] += bit i of bits, visiting only the set bits, 64 at a time: a string
// costs about its number of ones in increments (the path without byte counters).
inline void add_set_bits(const uint8_t* bits, int64_t nbits, int64_t* counters) {
  const int64_t words = nbits / 64;
  for (int64_t w = 0; w < words; ++w) {
    uint64_t x;
    std::memcpy(&x, bits + 8 * w, 8);
    x = __builtin_bswap64(x);               // bit 63 is the word's first (leftmost) position
    int64_t* cw = counters + 64 * w + 63;  // position 63 - t for bit t
    while (x != 0) {
      cw[-__builtin_ctzll(x)] += 1;
      x &= x - 1;  // clear the lowest set bit: a one-cycle dependency chain
    }
  }
  for (int64_t i = 64 * words; i < nbits; ++i) counters[i] += (bits[i >> 3] >> (7 - (i & 7))) & 1;
}

// counters[i] += bytes[i] for i < len, and the byte counters back to 0.
inline void flush_byte_counters(uint8_t* bytes, int64_t* counters, int64_t len) {
  for (int64_t i = 0; i < len; ++i) counters[i] += bytes[i];
  std::memset(bytes, 0, static_cast<size_t>(len));
}

}  // namespace ldp
