#include "core/common/exact_sum.hpp"

#include <cmath>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace ldp {

void ExactSum::flush_hot() {
  // Zeroed before the additions: add() may normalize, which flushes again.
  double hi = hot_hi, lo = hot_lo;
  hot_hi = 0;
  hot_lo = 0;
  add(hi);
  add(lo);
}

void ExactSum::normalize() {
  flush_hot();
  int64_t carry = 0;
  for (int i = 0; i < kLimbs - 1; ++i) {
    int64_t v = limb[i] + carry;
    carry = v >> 32;  // arithmetic shift: floor division by 2^32
    limb[i] = v - (carry * (int64_t{1} << 32));
  }
  limb[kLimbs - 1] += carry;
  pending = 0;
}

void ExactSum::merge(const ExactSum& other) {
  ExactSum o = other;
  o.normalize();
  normalize();
  for (int i = 0; i < kLimbs; ++i) limb[i] += o.limb[i];
  normalize();
}

bool ExactSum::is_negative() const { return limb[kLimbs - 1] < 0; }

bool ExactSum::is_zero() const {
  for (int i = 0; i < kLimbs; ++i)
    if (limb[i] != 0) return false;
  return true;
}

void ExactSum::magnitude(bool* negative, std::vector<uint32_t>* digits) const {
  ExactSum c = *this;
  c.normalize();
  *negative = c.is_negative();
  digits->assign(kLimbs, 0);
  if (*negative) {
    // two's complement negation: invert and add one, base 2^32
    uint64_t carry = 1;
    for (int i = 0; i < kLimbs; ++i) {
      uint64_t v = static_cast<uint64_t>(~static_cast<uint32_t>(c.limb[i])) + carry;
      (*digits)[i] = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
  } else {
    for (int i = 0; i < kLimbs; ++i) (*digits)[i] = static_cast<uint32_t>(c.limb[i]);
  }
}

long double ExactSum::to_long_double() const {
  bool neg;
  std::vector<uint32_t> d;
  magnitude(&neg, &d);
  int top = kLimbs - 1;
  while (top >= 0 && d[top] == 0) --top;
  if (top < 0) return 0.0L;
  long double r = 0.0L;
  // The top four digits (>= 97 significant bits) determine the long double.
  for (int i = top; i >= 0 && i > top - 4; --i)
    r += std::ldexp(static_cast<long double>(d[i]), 32 * i - kBias);
  return neg ? -r : r;
}

std::string ExactSum::to_text() const {
  bool neg;
  std::vector<uint32_t> d;
  magnitude(&neg, &d);
  int top = kLimbs - 1;
  while (top >= 0 && d[top] == 0) --top;
  if (top < 0) return "0";
  int low = 0;
  while (d[low] == 0) ++low;
  std::string s = neg ? "-0x" : "0x";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%x", d[top]);
  s += buf;
  for (int i = top - 1; i >= low; --i) {
    std::snprintf(buf, sizeof buf, "%08x", d[i]);
    s += buf;
  }
  std::snprintf(buf, sizeof buf, "p%d", 32 * low - kBias);
  s += buf;
  return s;
}

bool ExactSum::set_magnitude(bool negative, int lowest_limb, const std::vector<uint32_t>& digits) {
  clear();
  if (lowest_limb < 0) return false;
  // The magnitude must leave the top limb free for the sign and the headroom
  // of further additions: reject anything reaching the top two limbs.
  size_t n = digits.size();
  while (n > 0 && digits[n - 1] == 0) --n;
  if (n == 0) return true;
  if (static_cast<size_t>(lowest_limb) + n > static_cast<size_t>(kLimbs - 2)) return false;
  for (size_t i = 0; i < n; ++i) limb[lowest_limb + i] = digits[i];
  if (negative) {
    for (int i = 0; i < kLimbs; ++i) limb[i] = -limb[i];
    normalize();
  }
  return true;
}

bool ExactSum::from_text(const char* b, const char* e) {
  if (e - b == 1 && *b == '0') {
    clear();
    return true;
  }
  bool neg = false;
  if (b < e && *b == '-') {
    neg = true;
    ++b;
  }
  if (e - b < 4 || b[0] != '0' || (b[1] != 'x' && b[1] != 'X')) return false;
  b += 2;
  const char* hex_begin = b;
  while (b < e && std::isxdigit(static_cast<unsigned char>(*b))) ++b;
  const char* hex_end = b;
  if (hex_end == hex_begin || hex_end - hex_begin > 8 * kLimbs) return false;
  if (b >= e || (*b != 'p' && *b != 'P')) return false;
  ++b;
  // exponent: optional sign, at most 6 digits
  bool eneg = false;
  if (b < e && (*b == '-' || *b == '+')) {
    eneg = *b == '-';
    ++b;
  }
  if (b == e || e - b > 6) return false;
  long exp = 0;
  for (; b < e; ++b) {
    if (*b < '0' || *b > '9') return false;
    exp = exp * 10 + (*b - '0');
  }
  if (eneg) exp = -exp;
  // Bit position of the hex integer's lowest bit.
  long pos = exp + kBias;
  if (pos < 0 || pos > 32L * kLimbs) return false;
  // Build digits with the lowest bit at position pos.
  std::vector<uint32_t> digits(kLimbs + 1, 0);
  long bit = pos;
  for (const char* q = hex_end; q != hex_begin;) {
    --q;
    unsigned v = std::isdigit(static_cast<unsigned char>(*q)) ? *q - '0' : (std::tolower(*q) - 'a' + 10);
    for (int k = 0; k < 4; ++k, ++bit) {
      if (v & (1u << k)) {
        if (bit >= 32L * kLimbs) return false;
        digits[bit >> 5] |= 1u << (bit & 31);
      }
    }
  }
  return set_magnitude(neg, 0, digits);
}

void ExactSum::to_bytes(std::vector<uint8_t>& out) const {
  bool neg;
  std::vector<uint32_t> d;
  magnitude(&neg, &d);
  int top = kLimbs - 1;
  while (top >= 0 && d[top] == 0) --top;
  int low = 0;
  while (low <= top && d[low] == 0) ++low;
  uint16_t count = top < 0 ? 0 : static_cast<uint16_t>(top - low + 1);
  if (top < 0) low = 0;
  out.push_back(neg ? 1 : 0);
  out.push_back(static_cast<uint8_t>(low >> 8));
  out.push_back(static_cast<uint8_t>(low));
  out.push_back(static_cast<uint8_t>(count >> 8));
  out.push_back(static_cast<uint8_t>(count));
  for (int i = 0; i < count; ++i) {
    uint32_t v = d[low + i];
    out.push_back(static_cast<uint8_t>(v >> 24));
    out.push_back(static_cast<uint8_t>(v >> 16));
    out.push_back(static_cast<uint8_t>(v >> 8));
    out.push_back(static_cast<uint8_t>(v));
  }
}

size_t ExactSum::from_bytes(const uint8_t* p, size_t len) {
  if (len < 5) return 0;
  if (p[0] > 1) return 0;
  bool neg = p[0] == 1;
  int low = (p[1] << 8) | p[2];
  size_t count = static_cast<size_t>((p[3] << 8) | p[4]);
  if (count > static_cast<size_t>(kLimbs) || len - 5 < 4 * count) return 0;
  std::vector<uint32_t> d(count);
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* q = p + 5 + 4 * i;
    d[i] = (uint32_t{q[0]} << 24) | (uint32_t{q[1]} << 16) | (uint32_t{q[2]} << 8) | q[3];
  }
  // A canonical encoding has no zero digit at either end.
  if (count > 0 && (d[0] == 0 || d[count - 1] == 0)) return 0;
  if (count == 0 && (neg || low != 0)) return 0;
  if (!set_magnitude(neg, low, d)) return 0;
  return 5 + 4 * count;
}

}  // namespace ldp
