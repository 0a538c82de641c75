// The stored form shared by every summary type: what a table holds, what send
// writes and recv reads (format 2). Written and read byte by byte, big-endian
// (the order PostgreSQL sends in), never as a memory image, so the bytes mean the
// same on every host and to every build:
//
//   offset 0  4 bytes  magic "LDPS"
//          4  u8       format version (2)
//          5  u8       family (Family below)
//          6  u8       mechanism (the family's registry id)
//          7  ...      the mechanism's parameters (8 bytes each: f64 as its IEEE
//                      bits, i64 two's complement), then i64 n (reports), then the
//                      family's counters
//
// From the mechanism byte on, a body is the family's format-1 binary form without
// its leading version byte: format 1 (u8 version = 1, then the body) is what send
// wrote up to extension 0.4.0, and recv still reads it. The header is the only
// part every family shares; each family reads and writes its own body.
//
// Format 3 (extension 0.7.0; the families with counter arrays: sketches, heavy hitters, RAPPOR, ranges) is format 2
// with the counter array compact: after n, u8 bytes per counter (1, 2, 4 or 8, the
// fewest that hold every counter) and the counters at that width, big-endian two's
// complement (common/byte_reader.hpp: compact_counter_bytes, put_counters,
// ByteReader::counters). Readers of those families take formats 2 and 3.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/error.hpp"

namespace ldp {

enum class Family : uint8_t { Mean = 1, Frequency = 2, Sketch = 3, Heavy = 4, Rappor = 5, Range = 6 };

constexpr uint8_t kStoredMagic[4] = {'L', 'D', 'P', 'S'};
constexpr uint8_t kStoredFormat = 2;
constexpr uint8_t kStoredFormatCompact = 3;  // format 2 with compact counters
constexpr size_t kStoredHeaderSize = 6;  // magic, format, family
constexpr uint8_t kFormat1Version = 1;   // the leading byte of a format-1 binary form

// Writes the 6-byte header (format 2, or kStoredFormatCompact).
void write_stored_header(uint8_t* out, Family family, uint8_t format = kStoredFormat);
// True when the bytes begin with the magic (a format-2 form, possibly malformed).
bool has_stored_magic(const uint8_t* p, size_t len);

// The body (from the mechanism byte) of a binary form of this family: format 2
// (header checked), format 3 when the family has compact counters, or format 1
// (leading version byte 1). Throws InvalidBinary naming `type` for anything else.
struct StoredBody {
  const uint8_t* p;
  size_t len;
  int format;  // 1, 2 or 3
};
StoredBody stored_body(const uint8_t* p, size_t len, Family family, const char* type,
                       bool compact_counters = false);

// What a reader checks of signed counters (each report adds ±1 to one of `cells` cells:
// Hadamard response, hcms, hashtogram, TreeHist's SP and SF). Cell i then holds n_i
// reports with |S_i| <= n_i and S_i = n_i mod 2, Σ n_i = n; such n_i exist iff Σ|S_i| <=
// n and n - Σ|S_i| is even. Returns -1 when the counters fit n >= 0; else the cell at
// which Σ|S| first exceeds n, or `cells` when only the parity fails (*total = Σ|S|).
inline int64_t signed_counters_misfit(const int64_t* c, int64_t cells, int64_t n, int64_t* total) {
  *total = 0;
  for (int64_t i = 0; i < cells; ++i) {
    if (c[i] < -n || c[i] > n) return i;
    const int64_t a = c[i] < 0 ? -c[i] : c[i];
    if (a > n - *total) return i;
    *total += a;
  }
  return (n - *total) % 2 != 0 ? cells : -1;
}

// into += from for two summaries of the same parameters whose counters no report moves
// by more than 1 (sketches, heavy hitters): the report counts (OutOfRange, "merged <what>
// would count more than 2^63 reports", before anything changes), then the cells. Every
// counter is bounded by its summary's n in magnitude, so no counter overflows when the
// report counts do not.
inline void merge_counters(int64_t* n, int64_t* c, int64_t from_n, const int64_t* from_c, int64_t cells,
                           const char* what) {
  int64_t sum = 0;
  if (__builtin_add_overflow(*n, from_n, &sum))
    throw_error(ErrorKind::OutOfRange, "merged %s would count more than 2^63 reports", what);
  for (int64_t i = 0; i < cells; ++i) c[i] += from_c[i];
  *n = sum;
}

}  // namespace ldp
