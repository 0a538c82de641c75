// Big-endian readers and writers shared by the summaries' binary forms (the
// byte order PostgreSQL's send/recv use). Every read is bounds-checked and a
// short input raises InvalidBinary naming the type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/common/error.hpp"

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
  // The counter width of a format-3 body (1, 2, 4 or 8: compact_counter_bytes), the
  // byte `offset` bytes ahead, read without being consumed: so that the body's length
  // can be checked before anything is allocated.
  int counter_width_at(size_t offset) const {
    if (left <= offset) fail("truncated");
    const int bytes = p[offset];
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
      throw_error(ErrorKind::InvalidBinary, "invalid binary %s: %d bytes per counter, not 1, 2, 4 or 8", type, bytes);
    return bytes;
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
  // v ^ (v >> 63) is v for v >= 0 and -v - 1 for v < 0: v fits k bytes when that is below
  // 2^(8k-1). An OR over four lanes, a pass at memory speed (every flattened state).
  uint64_t m[4] = {0, 0, 0, 0};
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (size_t k = 0; k < 4; ++k) m[k] |= static_cast<uint64_t>(v[i + k] ^ (v[i + k] >> 63));
  for (; i < n; ++i) m[0] |= static_cast<uint64_t>(v[i] ^ (v[i] >> 63));
  const uint64_t all = m[0] | m[1] | m[2] | m[3];
  if (all <= static_cast<uint64_t>(INT8_MAX)) return 1;
  if (all <= static_cast<uint64_t>(INT16_MAX)) return 2;
  if (all <= static_cast<uint64_t>(INT32_MAX)) return 4;
  return 8;
}
// x at q, big-endian.
template <typename U>
inline void put_be(uint8_t* q, U x) {
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    if constexpr (sizeof(U) == 2) x = __builtin_bswap16(x);
    if constexpr (sizeof(U) == 4) x = __builtin_bswap32(x);
  }
  std::memcpy(q, &x, sizeof x);
}
// n counters at `bytes` bytes each (compact_counter_bytes), big-endian: a loop of byte
// swaps per width.
inline void put_counters(uint8_t*& o, const int64_t* v, size_t n, int bytes) {
  switch (bytes) {
    case 1:
      for (size_t i = 0; i < n; ++i) o[i] = static_cast<uint8_t>(v[i]);
      break;
    case 2:
      for (size_t i = 0; i < n; ++i) put_be(o + 2 * i, static_cast<uint16_t>(v[i]));
      break;
    case 4:
      for (size_t i = 0; i < n; ++i) put_be(o + 4 * i, static_cast<uint32_t>(v[i]));
      break;
    default:
      put_be64s(o, v, n);
      return;
  }
  o += static_cast<size_t>(bytes) * n;
}
inline uint64_t double_bits(double d) {
  uint64_t v;
  std::memcpy(&v, &d, 8);
  return v;
}

}  // namespace ldp
