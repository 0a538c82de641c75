// ExactSum: exact, order-independent sums of doubles, and their text and binary forms.
#include "core/common/exact_sum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace {

using ldp::ExactSum;

const double kTiny = std::numeric_limits<double>::denorm_min();  // 2^-1074
const double kMin = DBL_MIN;                                     // 2^-1022
const double kMax = DBL_MAX;

ExactSum zero() {
  ExactSum s;
  s.clear();
  return s;
}

ExactSum sum_of(const std::vector<double>& xs) {
  ExactSum s = zero();
  for (double x : xs) s.add(x);
  return s;
}

std::string text_of(const std::vector<double>& xs) { return sum_of(xs).to_text(); }

std::vector<uint8_t> bytes_of(const ExactSum& s) {
  std::vector<uint8_t> out;
  s.to_bytes(out);
  return out;
}

bool parse(const std::string& t, ExactSum* out) {
  return out->from_text(t.data(), t.data() + t.size());
}

// The canonical text of K * 2^scale_exp, written independently of ExactSum:
// the magnitude times 2^1088 in base-2^32 digits, top digit without leading zeros,
// trailing zero digits folded into the exponent.
std::string reference_text(__int128 k, int scale_exp) {
  if (k == 0) return "0";
  bool neg = k < 0;
  unsigned __int128 mag =
      neg ? -static_cast<unsigned __int128>(k) : static_cast<unsigned __int128>(k);
  int pos = scale_exp + ExactSum::kBias;  // bit position of K's lowest bit
  int low = pos / 32;
  unsigned __int128 u = mag << (pos % 32);  // callers keep |K| < 2^96
  while ((u & 0xffffffffu) == 0) {
    u >>= 32;
    ++low;
  }
  std::vector<uint32_t> digits;
  for (; u != 0; u >>= 32) digits.push_back(static_cast<uint32_t>(u));
  char buf[32];
  std::string s = neg ? "-0x" : "0x";
  std::snprintf(buf, sizeof buf, "%x", digits.back());
  s += buf;
  for (size_t i = digits.size() - 1; i-- > 0;) {
    std::snprintf(buf, sizeof buf, "%08x", digits[i]);
    s += buf;
  }
  std::snprintf(buf, sizeof buf, "p%d", 32 * low - ExactSum::kBias);
  return s + buf;
}

// A double of varied magnitude: mostly moderate, some subnormal or tiny, some near
// the top of the range, random sign and 53 random mantissa bits.
double random_double(std::mt19937_64& g) {
  uint64_t kind = g() % 10;
  int e;
  if (kind < 6)
    e = static_cast<int>(g() % 81) - 40;
  else if (kind < 8)
    e = -1100 + static_cast<int>(g() % 100);  // subnormal and tiny
  else if (kind < 9)
    e = 950 + static_cast<int>(g() % 51);
  else
    e = -1022 + static_cast<int>(g() % 2023);
  double x = std::ldexp(static_cast<double>(g() >> 11), e - 53);
  return (g() & 1) ? -x : x;
}

std::vector<double> integers(int from, int to, bool alternate_sign) {
  std::vector<double> xs;
  for (int k = from; k <= to; ++k) xs.push_back(alternate_sign && (k % 2) ? -k : k);
  return xs;
}

std::vector<double> repeated(double x, int times) { return std::vector<double>(times, x); }

std::vector<double> powers_of_two(int from, int to) {
  std::vector<double> xs;
  for (int k = from; k <= to; ++k) xs.push_back(std::ldexp(1.0, k));
  return xs;
}

// ---------------------------------------------------------------------------
// Sums whose exact value is a double: to_double() gives it and the canonical
// text is the text of that double alone, in any order.

struct ExactCase {
  const char* name;
  std::vector<double> inputs;
  double expected;
};

void PrintTo(const ExactCase& c, std::ostream* os) { *os << c.name; }

class ExactSumIsExact : public ::testing::TestWithParam<ExactCase> {};

TEST_P(ExactSumIsExact, EqualsTheExactResultInAnyOrder) {
  const ExactCase& c = GetParam();
  ExactSum s = sum_of(c.inputs);
  EXPECT_EQ(s.to_double(), c.expected);
  EXPECT_EQ(s.to_text(), text_of({c.expected}));
  std::vector<double> reversed(c.inputs.rbegin(), c.inputs.rend());
  EXPECT_EQ(text_of(reversed), s.to_text());
  s.normalize();  // is_negative() reads the canonical form
  EXPECT_EQ(s.is_negative(), c.expected < 0);
  EXPECT_EQ(s.is_zero(), c.expected == 0);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ExactSumIsExact,
    ::testing::Values(
        ExactCase{"integers_1_to_1000", integers(1, 1000, false), 500500},
        ExactCase{"alternating_integers", integers(1, 1000, true), 500},
        ExactCase{"powers_of_two_0_to_52", powers_of_two(0, 52), 0x1p53 - 1},
        ExactCase{"cancellation_1e300", {1e300, 1, -1e300}, 1},
        ExactCase{"cancellation_1e100_twice", {1, 1e100, 1, -1e100}, 2},
        ExactCase{"tiny_between_huge", {-1e300, 1e-300, 1e300}, 1e-300},
        ExactCase{
            "partial_sums_beyond_dbl_max", {kMax, kMax, kMax, -kMax, -kMax, -kMax, kTiny}, kTiny},
        ExactCase{"top_power_twice_minus_once", {0x1p1023, 0x1p1023, -0x1p1023}, 0x1p1023},
        ExactCase{"three_denorm_min", repeated(kTiny, 3), 3 * kTiny},
        ExactCase{"thousand_denorm_min", repeated(kTiny, 1000), 1000 * kTiny},
        ExactCase{"dbl_min_minus_denorm_min", {kMin, -kTiny}, std::nextafter(kMin, 0.0)},
        ExactCase{"huge_and_tiny_mix", {kMax, kTiny, -kMax, kTiny}, 2 * kTiny},
        ExactCase{"decimal_fractions_cancel", {0.1, 0.2, -0.1, -0.2}, 0},
        ExactCase{"signed_zeros", {0.0, -0.0}, 0}, ExactCase{"negative_result", {-3, 1}, -2},
        ExactCase{"negative_tiny_result", {1e300, -kTiny, -1e300}, -kTiny}),
    [](const auto& info) { return std::string(info.param.name); });

// 2^-60 + ... + 2^0 = 2 - 2^-60 is not a double: the text must still be exact.
TEST(ExactSum, KeepsBitsADoubleCannotHold) {
  EXPECT_EQ(text_of(powers_of_two(-60, 0)), reference_text((__int128{1} << 61) - 1, -60));
  EXPECT_EQ(text_of({1, 0x1p-80}), reference_text((__int128{1} << 80) + 1, -80));
  // DBL_MAX + 2^-1074 holds 2098 significant bits; removing DBL_MAX leaves 2^-1074.
  ExactSum s = sum_of({kMax, kTiny});
  s.add(-kMax);
  EXPECT_EQ(s.to_text(), text_of({kTiny}));
}

// The canonical text form, pinned literally (computed independently with exact rationals).
struct TextCase {
  double value;
  const char* text;
};

void PrintTo(const TextCase& c, std::ostream* os) { *os << c.text; }

class ExactSumCanonicalText : public ::testing::TestWithParam<TextCase> {};

TEST_P(ExactSumCanonicalText, PrintsTheCanonicalForm) {
  EXPECT_EQ(text_of({GetParam().value}), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(
    Literals, ExactSumCanonicalText,
    ::testing::Values(TextCase{0.0, "0"}, TextCase{1.0, "0x1p0"}, TextCase{500500.0, "0x7a314p0"},
                      TextCase{-0.75, "-0xc0000000p-32"}, TextCase{kTiny, "0x4000p-1088"},
                      TextCase{3 * kTiny, "0xc000p-1088"}, TextCase{kMax, "0xfffffffffffff800p960"},
                      TextCase{-kMin, "-0x4p-1024"}, TextCase{0.1, "0x1999999999999a00p-64"},
                      TextCase{-1e300, "-0x17e43c8800759c0000p928"}));

// ---------------------------------------------------------------------------
// Randomized oracles.

// Knuth's TwoSum: a + b == s + err exactly, both doubles.
TEST(ExactSum, MatchesTwoSumOnRandomPairs) {
  std::mt19937_64 g(20240601);
  for (int i = 0; i < 20000; ++i) {
    double a = random_double(g), b = random_double(g);
    double s = a + b;
    double bb = s - a;
    double err = (a - (s - bb)) + (b - bb);
    ASSERT_EQ(text_of({a, b}), text_of({s, err})) << a << " + " << b;
    ASSERT_EQ(sum_of({a, b, -s}).to_double(), err) << a << " + " << b;
  }
}

// Sums of scaled integers computed exactly in 128-bit arithmetic.
TEST(ExactSum, MatchesIntegerArithmeticOnScaledIntegers) {
  std::mt19937_64 g(77);
  for (int scale : {-1074, -300, -30, 0, 17, 900}) {
    ExactSum s = zero();
    __int128 k = 0;
    for (int i = 0; i < 100000; ++i) {
      int64_t ki = static_cast<int64_t>(g() >> 14) - (int64_t{1} << 49);  // |ki| < 2^50
      k += ki;
      s.add(std::ldexp(static_cast<double>(ki), scale));
    }
    EXPECT_EQ(s.to_text(), reference_text(k, scale)) << "scale 2^" << scale;
    long double exact = std::ldexp(static_cast<long double>(k), scale);
    EXPECT_LE(std::fabs(s.to_double() - exact), std::fabs(exact) * 0x1p-52) << scale;
  }
}

// 2^20 copies of DBL_MAX accumulate without normalizing in between; so do their negations.
TEST(ExactSum, RepeatedHugeAdditionsStayExact) {
  ExactSum s = zero();
  const int kTimes = 1 << 20;
  for (int i = 0; i < kTimes; ++i) s.add(kMax);
  // DBL_MAX = (2^53 - 1) * 2^971
  EXPECT_EQ(s.to_text(), reference_text(((__int128{1} << 53) - 1) << 20, 971));
  EXPECT_FALSE(s.is_negative());
  for (int i = 0; i < kTimes; ++i) s.add(-kMax);
  s.normalize();
  EXPECT_TRUE(s.is_zero());
  EXPECT_EQ(s.to_text(), "0");
}

// The periodic carry propagation (every 2^30 additions) must not change the value.
TEST(ExactSum, NormalizationThresholdKeepsTheValue) {
  std::mt19937_64 g(5);
  std::vector<double> xs;
  for (int i = 0; i < 1000; ++i) xs.push_back(random_double(g));
  ExactSum plain = sum_of(xs);
  ExactSum near = zero();
  near.pending = ExactSum::kNormalizeEvery - 500;  // forces a normalization halfway
  for (double x : xs) near.add(x);
  EXPECT_LT(near.pending, 600);
  EXPECT_EQ(near.to_text(), plain.to_text());
  // The canonical form: digits in [0, 2^32), top limb 0 or -1.
  near.normalize();
  for (int i = 0; i < ExactSum::kLimbs - 1; ++i) {
    ASSERT_GE(near.limb[i], 0);
    ASSERT_LT(near.limb[i], int64_t{1} << 32);
  }
  EXPECT_TRUE(near.limb[ExactSum::kLimbs - 1] == 0 || near.limb[ExactSum::kLimbs - 1] == -1);
}

// The same 100k doubles, shuffled, split into random partial sums (some empty)
// and merged in random trees: bit-identical text, bytes and double.
TEST(ExactSum, OrderAndSplitIndependent) {
  std::mt19937_64 g(424242);
  std::vector<double> xs;
  for (int i = 0; i < 100000; ++i) {
    // one value in ten cancels an earlier one exactly
    xs.push_back(i > 0 && g() % 10 == 0 ? -xs[g() % xs.size()] : random_double(g));
  }
  const ExactSum serial = sum_of(xs);
  const std::string want_text = serial.to_text();
  const std::vector<uint8_t> want_bytes = bytes_of(serial);
  ASSERT_NE(want_text, "0");

  // one part, a few, many, and more parts than values (then most are empty)
  for (size_t parts : {1, 2, 7, 300, 5000, 30000, 150000}) {
    std::shuffle(xs.begin(), xs.end(), g);
    std::vector<size_t> cuts = {0, xs.size()};
    for (size_t p = 1; p < parts; ++p) cuts.push_back(g() % (xs.size() + 1));
    std::sort(cuts.begin(), cuts.end());
    std::vector<ExactSum> partials;
    for (size_t p = 0; p + 1 < cuts.size(); ++p) {
      ExactSum s = zero();
      for (size_t i = cuts[p]; i < cuts[p + 1]; ++i) s.add(xs[i]);
      partials.push_back(s);
    }
    while (partials.size() > 1) {  // merge two random partials until one is left
      size_t i = g() % partials.size(), j = g() % (partials.size() - 1);
      if (j >= i) ++j;
      partials[i].merge(partials[j]);
      partials[j] = partials.back();
      partials.pop_back();
    }
    SCOPED_TRACE(std::to_string(parts) + " parts");
    EXPECT_EQ(partials[0].to_text(), want_text);
    EXPECT_EQ(bytes_of(partials[0]), want_bytes);
    EXPECT_EQ(partials[0].to_double(), serial.to_double());
  }
}

// ---------------------------------------------------------------------------
// The hot path: add_hot within its window gives exactly what add gives.

// A double of random sign in the window [2^(top - width), 2^top) of add_hot with
// 2^run additions: mostly 53 random mantissa bits; one in four is an edge of the
// window, has an all-ones mantissa or lies halfway between multiples of the
// split's spacing 2^p (a tie).
double random_in_window(std::mt19937_64& g, int top, int run) {
  const int width = ExactSum::hot_width(run), p = top + run - 52;
  double x;
  switch (g() % 16) {
    case 0:
      x = std::ldexp(1.0, top - width);  // the bottom edge
      break;
    case 1:
      x = std::nextafter(std::ldexp(1.0, top), 0.0);  // just below the top
      break;
    case 2:  // all-ones mantissa, in a random binade of the window
      x = std::ldexp(static_cast<double>((uint64_t{1} << 53) - 1),
                     top - 53 - static_cast<int>(g() % width));
      break;
    case 3: {  // (2j + 1) 2^(p-1): a tie of the rounding to multiples of 2^p
      uint64_t j = g() % (uint64_t{1} << 40);
      x = std::ldexp(static_cast<double>(2 * j + 1), p - 1);
      if (!(x >= std::ldexp(1.0, top - width) && x < std::ldexp(1.0, top)))
        x = std::ldexp(1.0, top - 2);
      break;
    }
    default: {
      int e = top - 1 - static_cast<int>(g() % width);
      x = std::ldexp(static_cast<double>((g() >> 11) | (uint64_t{1} << 52)), e - 52);
    }
  }
  return (g() & 1) ? -x : x;
}

// Adds xs through add_hot (flushing every 2^run additions, as the precondition
// requires) and through add; both must give the same canonical text.
void expect_hot_equals_add(const std::vector<double>& xs, int top, int run) {
  const double split = ExactSum::hot_split(top, run);
  ExactSum hot = zero(), plain = zero();
  for (size_t i = 0; i < xs.size(); ++i) {
    hot.add_hot(xs[i], split);
    plain.add(xs[i]);
    if ((i + 1) % (size_t{1} << run) == 0) hot.flush_hot();
  }
  ASSERT_EQ(hot.to_text(), plain.to_text()) << "top " << top << ", run 2^" << run;
  ASSERT_EQ(bytes_of(hot), bytes_of(plain));
}

TEST(ExactSumHot, EqualsAddOnRandomWindows) {
  ASSERT_TRUE(ExactSum::hot_path_available);
  std::mt19937_64 g(31337);
  for (int run : {2, 4, 8, 12, 16}) {
    const int width = ExactSum::hot_width(run);
    for (int top : {-960 + width, -300, -20, 0, 1, 17, 52, 53, 200, 960 - run}) {
      ASSERT_TRUE(ExactSum::hot_top_ok(top, run)) << top << " " << run;
      std::vector<double> xs;
      for (int i = 0; i < 3 * (1 << run) + 5; ++i) xs.push_back(random_in_window(g, top, run));
      expect_hot_equals_add(xs, top, run);
    }
  }
  EXPECT_FALSE(ExactSum::hot_top_ok(-961 + ExactSum::hot_width(8), 8));
  EXPECT_FALSE(ExactSum::hot_top_ok(953, 8));
  EXPECT_FALSE(ExactSum::hot_top_ok(0, 1));
  EXPECT_FALSE(ExactSum::hot_top_ok(0, 17));
}

// The worst cases of the bounds on the hot sums: 2^run values of one sign just
// below the top of the window (each rounding up to the next multiple of the
// spacing 2^p), and 2^run values of one sign whose low parts x - xh all have the
// largest magnitude 2^(p-1) - (lowest bit of the window).
TEST(ExactSumHot, ExtremeRunsStayExact) {
  for (int run : {2, 8, 16}) {
    const int width = ExactSum::hot_width(run), top = 10, p = top + run - 52;
    const int n = 1 << run;
    const double below_top = std::nextafter(std::ldexp(1.0, top), 0.0);
    expect_hot_equals_add(std::vector<double>(n, below_top), top, run);
    expect_hot_equals_add(std::vector<double>(n, -below_top), top, run);
    // in the lowest binade of the window, whose lowest bit is 2^(top - width - 52)
    const double low_heavy = std::ldexp(std::ldexp(1.0, run - 1) + 1.5, p) -
                             std::ldexp(1.0, top - width - 52);
    ASSERT_GE(low_heavy, std::ldexp(1.0, top - width));
    ASSERT_LT(low_heavy, std::ldexp(1.0, top - width + 1));
    expect_hot_equals_add(std::vector<double>(n, low_heavy), top, run);
    expect_hot_equals_add(std::vector<double>(n, -low_heavy), top, run);
    expect_hot_equals_add(std::vector<double>(n, std::ldexp(1.0, top - width)), top, run);
  }
}

// The split is exact in every rounding mode, not only to nearest.
TEST(ExactSumHot, ExactInEveryRoundingMode) {
  std::mt19937_64 g(8);
  const int run = 8, top = 5;
  std::vector<double> xs;
  for (int i = 0; i < 4 * (1 << run); ++i) xs.push_back(random_in_window(g, top, run));
  const std::string want = sum_of(xs).to_text();
  const double split = ExactSum::hot_split(top, run);
  volatile double one = 1.0, tiny = 0x1p-60;
  for (int mode : {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
    ExactSum hot = zero();
    ASSERT_EQ(std::fesetround(mode), 0);
    const bool rounds_up = one + tiny != 1.0;  // the mode is in effect
    for (size_t i = 0; i < xs.size(); ++i) {
      hot.add_hot(xs[i], split);
      if ((i + 1) % (1 << run) == 0) hot.flush_hot();
    }
    std::fesetround(FE_TONEAREST);
    EXPECT_EQ(rounds_up, mode == FE_UPWARD);
    EXPECT_EQ(hot.to_text(), want) << "rounding mode " << mode;
  }
}

// Every reader sees the hot sums without an explicit flush: text, bytes, double,
// normalize (then is_zero / is_negative), and merge on either side.
TEST(ExactSumHot, EveryReaderFoldsTheHotSums) {
  std::mt19937_64 g(99);
  const int run = 8, top = 3;
  const double split = ExactSum::hot_split(top, run);
  std::vector<double> xs;
  for (int i = 0; i < 100; ++i) xs.push_back(random_in_window(g, top, run));
  ExactSum hot = zero();
  for (double x : xs) hot.add_hot(x, split);
  ASSERT_TRUE(hot.hot_hi != 0 || hot.hot_lo != 0);  // not vacuous
  const ExactSum plain = sum_of(xs);
  EXPECT_EQ(hot.to_text(), plain.to_text());
  EXPECT_EQ(bytes_of(hot), bytes_of(plain));
  EXPECT_EQ(hot.to_double(), plain.to_double());
  EXPECT_EQ(hot.to_long_double(), plain.to_long_double());
  ExactSum a = zero(), b = hot;
  a.add(0.5);
  a.merge(hot);            // hot as the argument
  b.merge(sum_of({0.5}));  // hot as the target
  ExactSum c = plain;
  c.add(0.5);
  EXPECT_EQ(a.to_text(), c.to_text());
  EXPECT_EQ(b.to_text(), c.to_text());
  // cancellation to zero and to a negative value through the hot sums
  ExactSum z = hot;
  for (double x : xs) z.add(-x);
  z.normalize();
  EXPECT_EQ(z.hot_hi, 0.0);
  EXPECT_EQ(z.hot_lo, 0.0);
  EXPECT_TRUE(z.is_zero());
  EXPECT_EQ(z.to_text(), "0");
  ExactSum neg = zero();
  for (double x : xs) neg.add_hot(-std::fabs(x), split);
  neg.normalize();
  EXPECT_TRUE(neg.is_negative());
  // parsing overwrites the hot sums too
  ExactSum parsed = hot;
  ASSERT_TRUE(parse("0x1p0", &parsed));
  EXPECT_EQ(parsed.to_text(), "0x1p0");
}

// flush_hot may trigger the periodic normalization (through add): the value stays.
TEST(ExactSumHot, FlushAtTheNormalizationThreshold) {
  const double split = ExactSum::hot_split(4, 8);
  ExactSum s = zero();
  s.pending = ExactSum::kNormalizeEvery - 1;
  s.add_hot(3.25, split);
  s.add_hot(-0x1.23456789abcdep-20, split);
  s.flush_hot();
  EXPECT_LT(s.pending, 3);
  EXPECT_EQ(s.to_text(), sum_of({3.25, -0x1.23456789abcdep-20}).to_text());
}

// ---------------------------------------------------------------------------
// Round trips.

std::vector<ExactSum> sample_sums() {
  std::mt19937_64 g(9);
  std::vector<ExactSum> out = {zero(),
                               sum_of({1}),
                               sum_of({-0.75}),
                               sum_of({kTiny}),
                               sum_of({-kTiny, kMax}),
                               sum_of(repeated(kMax, 1000)),
                               sum_of(repeated(-kMax, 1000)),
                               sum_of(powers_of_two(-1074, 1023))};
  for (int k = 0; k < 50; ++k) {
    ExactSum s = zero();
    for (int i = 0; i < 200; ++i) s.add(random_double(g));
    out.push_back(s);
  }
  return out;
}

TEST(ExactSum, TextRoundTripIsLossless) {
  for (const ExactSum& s : sample_sums()) {
    std::string t = s.to_text();
    ExactSum back = zero();
    back.add(1.0);  // from_text must overwrite, not accumulate
    ASSERT_TRUE(parse(t, &back)) << t;
    EXPECT_EQ(back.to_text(), t);
    EXPECT_EQ(bytes_of(back), bytes_of(s));
  }
}

TEST(ExactSum, BytesRoundTripIsLossless) {
  for (const ExactSum& s : sample_sums()) {
    std::vector<uint8_t> b = bytes_of(s);
    b.push_back(0xAB);  // trailing bytes belong to the caller
    ExactSum back = zero();
    back.add(1.0);
    ASSERT_EQ(back.from_bytes(b.data(), b.size()), b.size() - 1) << s.to_text();
    EXPECT_EQ(back.to_text(), s.to_text());
    b.pop_back();
    EXPECT_EQ(bytes_of(back), b);
  }
}

// Non-canonical spellings of one value parse to the same canonical value.
TEST(ExactSum, ParsesEquivalentSpellings) {
  for (const char* t : {"0x1p0", "0X1P0", "0x10p-4", "0x0001p0", "0x1p+0", "0x100000000p-32"}) {
    ExactSum s = zero();
    ASSERT_TRUE(parse(t, &s)) << t;
    EXPECT_EQ(s.to_text(), "0x1p0") << t;
  }
  ExactSum s = zero();
  ASSERT_TRUE(parse("-0xAbCp4", &s));
  EXPECT_EQ(s.to_double(), -0xabcp4);
  ASSERT_TRUE(parse("0x0p0", &s));
  EXPECT_EQ(s.to_text(), "0");
}

// The largest accepted magnitude leaves the top two limbs free for sign and headroom.
TEST(ExactSum, RangeBoundary) {
  ExactSum s = zero();
  EXPECT_TRUE(parse("0x1p1087", &s));
  EXPECT_EQ(s.to_text(), "0x80000000p1056");  // 2^1087, in whole base-2^32 digits
  EXPECT_TRUE(parse("0x1p-1088", &s));
  EXPECT_FALSE(parse("0x1p1088", &s));
  EXPECT_FALSE(parse("0x1p-1089", &s));
  // bytes: lowest limb 67 with one digit is the top accepted position
  std::vector<uint8_t> ok = {0, 0, 67, 0, 1, 0, 0, 0, 1};
  EXPECT_EQ(s.from_bytes(ok.data(), ok.size()), ok.size());
  EXPECT_EQ(s.to_text(), "0x1p1056");
  std::vector<uint8_t> too_high = {0, 0, 68, 0, 1, 0, 0, 0, 1};
  EXPECT_EQ(s.from_bytes(too_high.data(), too_high.size()), 0u);
}

// ---------------------------------------------------------------------------
// Malformed input.

class ExactSumMalformedText : public ::testing::TestWithParam<std::string> {};

TEST_P(ExactSumMalformedText, IsRejected) {
  ExactSum s = zero();
  EXPECT_FALSE(parse(GetParam(), &s)) << "'" << GetParam() << "'";
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, ExactSumMalformedText,
    ::testing::Values("", "1", "-", "-0", "+0x1p0", "00", "x1p0", "1p0", "0x", "0xp0", "0x1",
                      "0x1p", "0x1p-", "0x1p+", "0x1p+-1", "0xg1p0", "0x1gp0", "0x1q0", "0x1.8p0",
                      "0x1p1a", "0x1p0 ", " 0x1p0", "0x1p0\n", "--0x1p0", "0x-1p0",
                      "0x1p9999999" /* exponent over 6 digits */, "0x1p999999", "0x1p-999999",
                      "0x1p1200" /* out of range */, "0x1p-1089" /* below 2^-1088 */,
                      "0x" + std::string(561, '1') + "p0" /* more hex digits than limbs */,
                      "0x" + std::string(300, 'f') + "p0" /* 1200 bits: out of range */));

std::vector<uint8_t> encoded(uint8_t sign, uint16_t low, uint16_t count,
                             const std::vector<uint32_t>& digits) {
  std::vector<uint8_t> b = {sign, static_cast<uint8_t>(low >> 8), static_cast<uint8_t>(low),
                            static_cast<uint8_t>(count >> 8), static_cast<uint8_t>(count)};
  for (uint32_t d : digits)
    for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<uint8_t>(d >> shift));
  return b;
}

struct BytesCase {
  const char* name;
  std::vector<uint8_t> bytes;
};

void PrintTo(const BytesCase& c, std::ostream* os) { *os << c.name; }

class ExactSumMalformedBytes : public ::testing::TestWithParam<BytesCase> {};

TEST_P(ExactSumMalformedBytes, IsRejected) {
  ExactSum s = zero();
  EXPECT_EQ(s.from_bytes(GetParam().bytes.data(), GetParam().bytes.size()), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, ExactSumMalformedBytes,
    ::testing::Values(
        BytesCase{"empty", {}}, BytesCase{"short_header", {0, 0, 0, 0}},
        BytesCase{"sign_byte_2", encoded(2, 34, 1, {1})},
        BytesCase{"digits_missing", encoded(0, 34, 1, {})},
        BytesCase{"count_lies", encoded(0, 34, 3, {1, 2})},
        BytesCase{"digit_truncated",
                  [] {
                    auto b = encoded(0, 34, 1, {1});
                    b.pop_back();
                    return b;
                  }()},
        BytesCase{"zero_leading_digit", encoded(0, 34, 2, {1, 0})},
        BytesCase{"zero_lowest_digit", encoded(0, 34, 2, {0, 1})},
        BytesCase{"negative_zero", encoded(1, 0, 0, {})},
        BytesCase{"zero_with_position", encoded(0, 5, 0, {})},
        BytesCase{"count_beyond_limbs", encoded(0, 0, 71, std::vector<uint32_t>(71, 1))},
        BytesCase{"reaches_top_limbs", encoded(0, 60, 9, std::vector<uint32_t>(9, 1))},
        BytesCase{"huge_position", encoded(0, 0xffff, 1, {1})}),
    [](const auto& info) { return std::string(info.param.name); });

// Every proper prefix of a valid encoding is rejected.
TEST(ExactSum, TruncatedBytesAreRejected) {
  for (const ExactSum& s : sample_sums()) {
    std::vector<uint8_t> b = bytes_of(s);
    for (size_t len = 0; len < b.size(); ++len) {
      ExactSum back = zero();
      ASSERT_EQ(back.from_bytes(b.data(), len), 0u) << s.to_text() << " cut to " << len;
    }
  }
}

}  // namespace
