// ExactSum: an exact, order-independent sum of doubles (a Kulisch-style
// superaccumulator). Every finite double is a multiple of 2^-1074; the sum is
// held as a two's-complement integer multiple of 2^-kBias in base-2^32 digits,
// each digit kept in an int64 limb so that ~2^30 additions fit before carries
// must be propagated. The result does not depend on the order of additions or
// on how the input is split between partial sums: parallel plans give the
// serial result bit for bit.
//
// The struct is flat and trivially copyable: it lives inside aggregate states.
//
// Besides the limbs it holds two "hot" partial sums, plain doubles fed by
// add_hot(): a caller that knows the magnitude of its values can add them with a
// few floating-point operations that are exact by construction (see add_hot).
// The value of the sum is limbs + hot_hi + hot_lo; every reader (normalize, merge,
// the text and binary forms, to_long_double) folds the hot sums into the limbs
// first, so nothing observable depends on which path an addition took.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

// add_hot relies on IEEE binary64 operations rounded one at a time: no
// reassociation (-ffast-math), no excess precision (x87), and no contraction
// of a multiply feeding an add into an FMA (the builds pass -ffp-contract=off).
#if defined(__FAST_MATH__)
#error "ldp's exact sums need IEEE arithmetic: do not build with -ffast-math"
#endif

namespace ldp {

struct ExactSum {
  static constexpr int kBias = 1088;        // bit 0 of limb 0 has weight 2^-kBias
  static constexpr int kLimbs = 70;         // 2240 bits: |sum| < 2^1151 with room for the sign
  static constexpr int64_t kNormalizeEvery = int64_t{1} << 30;

  int64_t limb[kLimbs];
  int64_t pending;  // additions since the last carry propagation
  // Hot partial sums of add_hot(); their exact values are part of the sum.
  double hot_hi;
  double hot_lo;

  void clear() { std::memset(this, 0, sizeof *this); }

  // x must be finite (the caller validates reports).
  inline void add(double x) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    int e = static_cast<int>((bits >> 52) & 0x7ff);
    uint64_t mant = bits & ((uint64_t{1} << 52) - 1);
    if (e == 0) {
      if (mant == 0) return;
      e = 1;  // subnormal
    } else {
      mant |= uint64_t{1} << 52;
    }
    // value = mant * 2^(e - 1075); its lowest bit sits at bit position pos.
    int pos = e - 1075 + kBias;
    int idx = pos >> 5;
    int sh = pos & 31;
    // mant << sh spans up to 85 bits: its low 32 bits, then the rest, which is
    // mant >> (32 - sh) (no 128-bit shift needed since sh <= 31 and mant < 2^53).
    uint64_t high = mant >> (32 - sh);
    // Branch-free sign: the signs of real-valued reports are unpredictable.
    int64_t neg = -static_cast<int64_t>(bits >> 63);  // 0 or -1
    int64_t d0 = static_cast<int64_t>(static_cast<uint32_t>(mant << sh));
    int64_t d1 = static_cast<int64_t>(static_cast<uint32_t>(high));
    int64_t d2 = static_cast<int64_t>(high >> 32);
    limb[idx] += (d0 ^ neg) - neg;
    limb[idx + 1] += (d1 ^ neg) - neg;
    limb[idx + 2] += (d2 ^ neg) - neg;
    if (++pending >= kNormalizeEvery) normalize();
  }

  // ---- Hot path ----
  // add_hot(x, split) adds x exactly with four floating-point operations when
  //   - split == hot_split(top, run_log2) for one (top, run_log2), 2 <= run_log2
  //     <= 16, the same for every add_hot since the hot sums were last flushed;
  //   - 2^(top - hot_width(run_log2)) <= |x| < 2^top;
  //   - at most 2^run_log2 add_hot calls happen between flushes (flush_hot,
  //     normalize, merge, clear, from_text, from_bytes);
  //   - hot_top_ok(top, run_log2) and hot_path_available.
  // Why it is exact (in any rounding mode): with K = 2^run_log2, p = top +
  // run_log2 - 52 and split = 1.5 * 2^(p + 52), x + split lies in the binade of
  // split, whose spacing is 2^p, so xh = (x + split) - split is x rounded to a
  // multiple of 2^p (|xh| <= |x| + 2^p), computed exactly, and xl = x - xh
  // (|xl| <= 2^p, a multiple of the lowest bit of x) is exact too. hot_hi is a
  // multiple of 2^p of magnitude <= K (2^top + 2^p) <= 2^(p + 53); hot_lo is a
  // multiple of 2^(top - width - 52) of magnitude <= K 2^p = 2^(top - width + 1)
  // with width = 53 - 2 run_log2. Both are therefore doubles at every step and
  // each addition is exact.
  static constexpr bool hot_path_available = FLT_EVAL_METHOD == 0;
  static constexpr int hot_width(int run_log2) { return 53 - 2 * run_log2; }
  static double hot_split(int top, int run_log2) { return std::ldexp(1.5, top + run_log2); }
  // Keeps every quantity far from overflow and from the subnormal range.
  static constexpr bool hot_top_ok(int top, int run_log2) {
    return run_log2 >= 2 && run_log2 <= 16 && top - hot_width(run_log2) >= -960 &&
           top + run_log2 <= 960;
  }
  inline void add_hot(double x, double split) {
    double xh = (x + split) - split;
    hot_hi += xh;
    hot_lo += x - xh;
  }
  // Moves the hot sums into the limbs (exact additions of two doubles).
  void flush_hot();

  // Flush the hot sums and propagate carries: afterwards the hot sums are 0,
  // every limb but the top is in [0, 2^32) and the top limb is 0 or -1 (the
  // sign). This is the canonical form.
  void normalize();
  void merge(const ExactSum& other);

  bool is_negative() const;  // requires normalized form (hot sums flushed)
  bool is_zero() const;      // requires normalized form (hot sums flushed)
  // Nearest-below long double of the exact value (deterministic: depends only
  // on the exact value). Works on a normalized copy.
  long double to_long_double() const;
  double to_double() const { return static_cast<double>(to_long_double()); }

  // Canonical exact text: "0", or [-]0x<hex digits>p<binary exponent>, the
  // value being the hex integer times 2^exponent. Lossless.
  std::string to_text() const;
  // Parses what to_text() prints (and any [-]0x<hex>p<exp> whose value fits).
  // Returns false on malformed input or a value out of range.
  bool from_text(const char* begin, const char* end);

  // Portable binary form: sign byte, int16 lowest limb, uint16 count, count
  // big-endian uint32 magnitude digits.
  void to_bytes(std::vector<uint8_t>& out) const;
  // Returns the number of bytes consumed, or 0 on malformed input.
  size_t from_bytes(const uint8_t* p, size_t len);

 private:
  // Magnitude digits (base 2^32) of the normalized value, and its sign.
  void magnitude(bool* negative, std::vector<uint32_t>* digits) const;
  bool set_magnitude(bool negative, int lowest_limb, const std::vector<uint32_t>& digits);
};

}  // namespace ldp
