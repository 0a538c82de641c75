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
  // n big-endian int64 values at once (the counters): one bounds check, then a loop
  // the compiler turns into byte swaps.
  void i64s(int64_t* out, size_t n) {
    if (n > left / 8) fail("truncated");
    for (size_t i = 0; i < n; ++i) {
      uint64_t v;
      std::memcpy(&v, p + 8 * i, 8);
      if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) v = __builtin_bswap64(v);
      out[i] = static_cast<int64_t>(v);
    }
    p += 8 * n;
    left -= 8 * n;
  }
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
inline uint64_t double_bits(double d) {
  uint64_t v;
  std::memcpy(&v, &d, 8);
  return v;
}

}  // namespace ldp
