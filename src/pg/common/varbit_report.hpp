// A varbit report where it lies in a row, for the transition functions of the
// bit-string mechanisms (SUE, OUE, cms): no copy, and the next rows prefetched.
#pragma once

#include "pg/common/glue.hpp"  // postgres.h first

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ldp_pg {

struct VarbitView {
  const uint8_t* bits;  // bit i at bit 7 - i % 8 of bits[i / 8] (varbit's layout)
  int64 nbits;          // the bit length the value declares
  int64 nbytes;         // the bytes it holds after its length word
};

// The bits of a varbit datum as it lies in the row, not toasted (a short or a 4-byte
// header), without the copy that detoasting makes of a short one; false for anything
// else (the caller's general path detoasts it). The caller checks nbits and nbytes.
inline bool varbit_in_place(Datum d, VarbitView* out) {
  const auto* v = reinterpret_cast<const struct varlena*>(DatumGetPointer(d));
  const char* data;
  int64 size;
  if (VARATT_IS_4B_U(v)) {
    data = VARDATA(v);
    size = static_cast<int64>(VARSIZE(v)) - VARHDRSZ;
  } else if (VARATT_IS_1B(v) && !VARATT_IS_1B_E(v)) {
    data = VARDATA_SHORT(v);
    size = static_cast<int64>(VARSIZE_SHORT(v)) - VARHDRSZ_SHORT;
  } else {
    return false;
  }
  int32 len;
  if (unlikely(size < static_cast<int64>(sizeof(len)))) return false;
  std::memcpy(&len, data, sizeof(len));
  out->bits = reinterpret_cast<const uint8_t*>(data + sizeof(len));
  out->nbits = len;
  out->nbytes = size - static_cast<int64>(sizeof(len));
  return true;
}

// A sequential scan reads a heap page's rows from its end down: the next rows lie just
// below this one, about a report and a row header each. Reading a report's bits
// upwards, row after row downwards, defeats the hardware's stream prefetcher, and each
// report's bits were a cache miss (70% of cms_agg's time at 1024 bits). So the lines
// of the next two rows are prefetched (at most 8 lines; a prefetch never faults, and
// one that guesses wrong, at a page's first row or in another plan, costs nothing
// else). Inlined always: GCC finds a function of prefetches alone free of side
// effects and drops the call.
__attribute__((always_inline)) inline void prefetch_next_rows(const VarbitView& r) {
  const int64 below = std::min<int64>(2 * (r.nbytes + 48) + 64, 8 * 64);
  for (int64 off = 64; off <= below; off += 64) __builtin_prefetch(r.bits - off);
}

}  // namespace ldp_pg
