// ExactSum: an exact, order-independent sum of doubles (a Kulisch-style
// superaccumulator). Every finite double is a multiple of 2^-1074; the sum is
// held as a two's-complement integer multiple of 2^-kBias in base-2^32 digits,
// each digit kept in an int64 limb so that ~2^30 additions fit before carries
// must be propagated. The result does not depend on the order of additions or
// on how the input is split between partial sums: parallel plans give the
// serial result bit for bit.
//
// The struct is flat and trivially copyable: it lives inside aggregate states.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ldp {

struct ExactSum {
  static constexpr int kBias = 1088;        // bit 0 of limb 0 has weight 2^-kBias
  static constexpr int kLimbs = 70;         // 2240 bits: |sum| < 2^1151 with room for the sign
  static constexpr int64_t kNormalizeEvery = int64_t{1} << 30;

  int64_t limb[kLimbs];
  int64_t pending;  // additions since the last carry propagation

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

  // Propagate carries: afterwards every limb but the top is in [0, 2^32) and
  // the top limb is 0 or -1 (the sign). This is the canonical form.
  void normalize();
  void merge(const ExactSum& other);

  bool is_negative() const;  // requires normalized form
  bool is_zero() const;      // requires normalized form
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
