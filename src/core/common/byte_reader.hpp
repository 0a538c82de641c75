// Big-endian readers and writers shared by the summaries' binary forms (the
// byte order PostgreSQL's send/recv use). Every read is bounds-checked and a
// short input raises InvalidBinary naming the type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/error.hpp"

namespace ldp {

struct ByteReader {
  const uint8_t* p;
  size_t left;
  const char* type;  // for messages: "mean_summary", "freq_summary"

  [[noreturn]] void fail(const char* what) const {
    throw_error(ErrorKind::InvalidBinary, "invalid binary %s: %s", type, what);
  }
  uint64_t u64() {
    if (left < 8) fail("truncated");
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
    p += 8;
    left -= 8;
    return v;
  }
  int64_t i64() { return static_cast<int64_t>(u64()); }
  double f64() {
    uint64_t v = u64();
    double d;
    std::memcpy(&d, &v, 8);
    return d;
  }
  uint8_t u8() {
    if (left < 1) fail("truncated");
    --left;
    return *p++;
  }
  // n counters stored at `bytes` bytes each (1, 2, 4 or 8: compact_counter_bytes; 8
  // for the i64 counters of format 1 and 2), big-endian two's complement,
  // sign-extended into out: one bounds check, then a loop of byte swaps.
  void counters(int64_t* out, size_t n, int bytes) {
    if (n > left / static_cast<size_t>(bytes)) fail("truncated");
    switch (bytes) {
      case 1: for (size_t i = 0; i < n; ++i) out[i] = static_cast<int8_t>(p[i]); break;
      case 2: for (size_t i = 0; i < n; ++i) out[i] = static_cast<int16_t>(be<uint16_t>(p + 2 * i)); break;
      case 4: for (size_t i = 0; i < n; ++i) out[i] = static_cast<int32_t>(be<uint32_t>(p + 4 * i)); break;
      case 8: for (size_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(be<uint64_t>(p + 8 * i)); break;
      default: fail("counter width is not 1, 2, 4 or 8 bytes");
    }
    p += static_cast<size_t>(bytes) * n;
    left -= static_cast<size_t>(bytes) * n;
  }

 private:
  template <typename U>
  static U be(const uint8_t* q) {
    U v;
    std::memcpy(&v, q, sizeof v);
    if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
      if constexpr (sizeof(U) == 2) v = __builtin_bswap16(v);
      if constexpr (sizeof(U) == 4) v = __builtin_bswap32(v);
      if constexpr (sizeof(U) == 8) v = __builtin_bswap64(v);
    }
    return v;
  }
};

inline void put_be64(uint8_t*& o, uint64_t v) {
  for (int i = 7; i >= 0; --i) *o++ = static_cast<uint8_t>(v >> (8 * i));
}
inline void put_be64(std::vector<uint8_t>& o, uint64_t v) {
  for (int i = 7; i >= 0; --i) o.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
// n int64 values, big-endian (the counters).
inline void put_be64s(uint8_t*& o, const int64_t* v, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = static_cast<uint64_t>(v[i]);
    if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) x = __builtin_bswap64(x);
    std::memcpy(o + 8 * i, &x, 8);
  }
  o += 8 * n;
}
// Compact counters (stored-form format 3): the fewest bytes, 1, 2, 4 or 8, that hold
// every one of the n counters as two's complement. Most sketch counters fit in 2 or 4:
// a stored or shipped summary (a parallel worker's state) is that much smaller.
inline int compact_counter_bytes(const int64_t* v, size_t n) {
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < n; ++i) {
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
  }
  if (lo >= INT8_MIN && hi <= INT8_MAX) return 1;
  if (lo >= INT16_MIN && hi <= INT16_MAX) return 2;
  if (lo >= INT32_MIN && hi <= INT32_MAX) return 4;
  return 8;
}
// n counters at `bytes` bytes each (compact_counter_bytes), big-endian.
inline void put_counters(uint8_t*& o, const int64_t* v, size_t n, int bytes) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = static_cast<uint64_t>(v[i]);
    for (int b = bytes - 1; b >= 0; --b) *o++ = static_cast<uint8_t>(x >> (8 * b));
  }
}
inline uint64_t double_bits(double d) {
  uint64_t v;
  std::memcpy(&v, &d, 8);
  return v;
}

}  // namespace ldp
