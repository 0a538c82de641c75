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
};

inline void put_be64(uint8_t*& o, uint64_t v) {
  for (int i = 7; i >= 0; --i) *o++ = static_cast<uint8_t>(v >> (8 * i));
}
inline void put_be64(std::vector<uint8_t>& o, uint64_t v) {
  for (int i = 7; i >= 0; --i) o.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline uint64_t double_bits(double d) {
  uint64_t v;
  std::memcpy(&v, &d, 8);
  return v;
}

}  // namespace ldp
