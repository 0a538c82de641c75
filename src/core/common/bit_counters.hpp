// Counting the bits of many bit strings at once, a byte-wide counter per bit: the hot
// path of the reports that are bit strings (SUE and OUE, Apple's CMS). Bit i of a
// string (MSB-first, PostgreSQL's varbit layout) adds 1 to byte counter i; eight byte
// counters share a 64-bit word, which no carry crosses while every counter stays
// below 256, so the caller moves them into its int64 counters at least every 255
// strings (flush_byte_counters).
#pragma once

#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
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

// words[j] (8-byte aligned, (nbits + 7) / 8 of them) += the bits of byte j of bits.
inline void add_bits_to_byte_counters(const uint8_t* bits, int64_t nbits, uint64_t* words) {
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
