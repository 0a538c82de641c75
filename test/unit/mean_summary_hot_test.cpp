// The fast path of mean_add_real (ExactSum::add_hot behind one comparison): the
// summary it builds is the one plain exact additions build, bit for bit, in any
// order, split or parsed in the middle of a run; every report it takes lies in
// the windows add_hot requires; summaries of the earlier memory layout convert.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "core/common/exact_sum.hpp"
#include "core/mean/mean_summary.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::ExactSum;
using ldp::MeanMechanism;
using ldp::MeanParams;
using ldp_test::Summary;
using ldp_test::ThrowsKind;

struct Config {
  const char* name;
  MeanMechanism id;
  MeanParams params;
  bool fast;  // the fast path is on
};

void PrintTo(const Config& c, std::ostream* os) { *os << c.name; }

const Config kConfigs[] = {
    {"laplace_1_100", MeanMechanism::Laplace, {1.0, 100, 0}, true},
    {"laplace_01_86400", MeanMechanism::Laplace, {0.1, 86400, 0}, true},
    {"laplace_5_1", MeanMechanism::Laplace, {5.0, 1, 0}, true},
    {"laplace_1_huge_m", MeanMechanism::Laplace, {1.0, 1e200, 0}, true},
    {"laplace_1_tiny_m", MeanMechanism::Laplace, {1.0, 1e-200, 0}, true},
    // reports near 2^-1000 or 2^1000: off (ExactSum::hot_top_ok), exact additions only
    {"laplace_700_tiny_m", MeanMechanism::Laplace, {700, 1e-300, 0}, false},
    {"laplace_small_eps_huge_m", MeanMechanism::Laplace, {1e-3, 1e300, 0}, false},
    {"piecewise_1_100", MeanMechanism::Piecewise, {1.0, 100, 0}, true},
    {"piecewise_ln9_10", MeanMechanism::Piecewise, {std::log(9.0), 10, 0}, true},
    {"piecewise_01_86400", MeanMechanism::Piecewise, {0.1, 86400, 0}, true},
    {"piecewise_700_3", MeanMechanism::Piecewise, {700, 3, 0}, true},
};

// h as mean_add_real computes it
double square_unit(const ldp::MeanSummary& s, double y) {
  double u = y / s.max_value;
  return u * u;
}

// The top of the window a split was made for: split = 1.5 * 2^(top + run).
int split_top(double split) { return std::ilogb(split) - ldp::kHotRunLog2; }

// Reports of every kind: spread over the range, concentrated like Laplace noise,
// near zero (the exact path), straddling the fast path's threshold, and the ends.
std::vector<double> reports(const Summary& s, size_t count, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  const double lo = s->report_lo, hi = s->report_hi, m = s->max_value;
  const double b = m / s->epsilon;
  const double min_sq = s->sums()->hot_min_sq;
  std::vector<double> ys;
  while (ys.size() < count) {
    double y;
    switch (g() % 8) {
      case 0:
      case 1:
        y = lo + unit(g) * (hi - lo);
        break;
      case 2:
      case 3: {  // value in [0, m] plus Laplace(m/eps) noise
        double u = unit(g) - 0.5;
        y = unit(g) * m - b * std::copysign(std::log1p(-2 * std::fabs(u)), u);
        break;
      }
      case 4:  // tiny: the exact path
        y = std::ldexp(unit(g) - 0.5, -static_cast<int>(g() % 1100));
        break;
      case 5: {  // around the threshold: |y| = m sqrt(min_sq), give or take a few ulps
        double t = std::isnan(min_sq) ? m : m * std::sqrt(min_sq);
        for (int k = static_cast<int>(g() % 9) - 4; k > 0; --k) t = std::nextafter(t, 0.0);
        for (int k = static_cast<int>(g() % 5); k > 0; --k) t = std::nextafter(t, hi);
        y = (g() & 1) ? t : -t;
        break;
      }
      case 6:
        y = (g() & 1) ? lo : hi;
        break;
      default:
        y = (g() & 1) ? std::nextafter(lo, hi) : std::nextafter(hi, lo);
    }
    y = std::fmin(std::fmax(y, lo), hi);
    ys.push_back(y);
  }
  return ys;
}

Summary summarize(const Config& c, const std::vector<double>& ys, size_t from, size_t to) {
  Summary s(c.id, c.params);
  for (size_t i = from; i < to; ++i) s.add_real(ys[i]);
  return s;
}

// The exact sums of the reports and of their rounded squares by plain
// ExactSum::add, as text: what the fast path must reproduce.
struct PlainSums {
  std::string sum, sumsq;
};
PlainSums plain_exact_sums(const Summary& probe, const std::vector<double>& ys) {
  ExactSum sum, sumsq;
  sum.clear();
  sumsq.clear();
  for (double y : ys) {
    sum.add(y);
    sumsq.add(square_unit(*probe, y));
  }
  return {sum.to_text(), sumsq.to_text()};
}

class HotPath : public ::testing::TestWithParam<Config> {};

// Every report the fast path takes lies in the windows ExactSum::add_hot requires.
TEST_P(HotPath, FastReportsLieInTheirWindows) {
  Summary s(GetParam().id, GetParam().params);
  const ldp::MeanSums* m = s->sums();
  ASSERT_EQ(!std::isnan(m->hot_min_sq), GetParam().fast);
  if (!GetParam().fast) return;
  const int width = ExactSum::hot_width(ldp::kHotRunLog2);
  const int top_sum = split_top(m->hot_split_sum), top_sq = split_top(m->hot_split_sq);
  ASSERT_EQ(m->hot_split_sum, ExactSum::hot_split(top_sum, ldp::kHotRunLog2));
  ASSERT_EQ(m->hot_split_sq, ExactSum::hot_split(top_sq, ldp::kHotRunLog2));
  ASSERT_TRUE(ExactSum::hot_top_ok(top_sum, ldp::kHotRunLog2));
  ASSERT_TRUE(ExactSum::hot_top_ok(top_sq, ldp::kHotRunLog2));
  size_t fast = 0;
  for (double y : reports(s, 200000, 5)) {
    double h = square_unit(*s, y);
    if (!(h >= m->hot_min_sq)) continue;
    ++fast;
    ASSERT_GE(std::fabs(y), std::ldexp(1.0, top_sum - width)) << y;
    ASSERT_LT(std::fabs(y), std::ldexp(1.0, top_sum)) << y;
    ASSERT_GE(h, std::ldexp(1.0, top_sq - width)) << y;
    ASSERT_LT(h, std::ldexp(1.0, top_sq)) << y;
  }
  EXPECT_GT(fast, 100000u);  // most reports take it
}

// The summary equals plain exact sums of the reports and of their rounded squares.
TEST_P(HotPath, EqualsPlainExactSums) {
  const Config& c = GetParam();
  Summary probe(c.id, c.params);
  std::vector<double> ys = reports(probe, 5000, 17);
  PlainSums plain = plain_exact_sums(probe, ys);
  Summary s = summarize(c, ys, 0, ys.size());
  EXPECT_EQ(s->n, static_cast<int64_t>(ys.size()));
  EXPECT_EQ(s->sums()->sum.to_text(), plain.sum);
  EXPECT_EQ(s->sums()->sumsq_unit.to_text(), plain.sumsq);
  // and in any order
  std::shuffle(ys.begin(), ys.end(), std::mt19937_64(3));
  EXPECT_EQ(summarize(c, ys, 0, ys.size()).text(), s.text());
}

// A run of reports that all take the fast path, at the top of the range: the
// largest hot sums a flush period can build.
TEST_P(HotPath, RunsAtTheEndsOfTheRange) {
  const Config& c = GetParam();
  Summary probe(c.id, c.params);
  for (double y : {probe->report_lo, probe->report_hi}) {
    std::vector<double> ys(3 * (1 << ldp::kHotRunLog2) + 7, y);
    PlainSums plain = plain_exact_sums(probe, ys);
    Summary s = summarize(c, ys, 0, ys.size());
    EXPECT_EQ(s->sums()->sum.to_text(), plain.sum) << y;
    EXPECT_EQ(s->sums()->sumsq_unit.to_text(), plain.sumsq) << y;
  }
}

// Parsing (text or binary) or merging in the middle of a flush period, then
// adding more reports, gives the serial summary.
TEST_P(HotPath, ContinuesAfterParseAndMerge) {
  const Config& c = GetParam();
  Summary probe(c.id, c.params);
  std::vector<double> ys = reports(probe, 2000, 23);
  const Summary serial = summarize(c, ys, 0, ys.size());
  for (size_t cut : {size_t{1}, size_t{255}, size_t{256}, size_t{300}, size_t{1111}}) {
    Summary head = summarize(c, ys, 0, cut);
    Summary t = Summary::from_text(head.text()), b = Summary::from_binary(head.binary());
    Summary merged = summarize(c, ys, 0, cut / 2);
    merged.merge(summarize(c, ys, cut / 2, cut));
    for (size_t i = cut; i < ys.size(); ++i) {
      head.add_real(ys[i]);
      t.add_real(ys[i]);
      b.add_real(ys[i]);
      merged.add_real(ys[i]);
    }
    SCOPED_TRACE("cut " + std::to_string(cut));
    EXPECT_EQ(head.text(), serial.text());
    EXPECT_EQ(t.text(), serial.text());
    EXPECT_EQ(b.binary(), serial.binary());
    EXPECT_EQ(merged.text(), serial.text());
    EXPECT_EQ(merged.estimate().std_error, serial.estimate().std_error);
  }
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, HotPath, ::testing::ValuesIn(kConfigs),
                         [](const auto& info) { return std::string(info.param.name); });

// Squares that overflow turn the fast path off; reports still add exactly, and
// a rejected report leaves the summary as it was.
// mean_try_add_real (the transition function's inline step) takes exactly the
// possible reports whose square is in the hot window, and leaves every other
// report to mean_add_real without touching a byte of the summary.
TEST_P(HotPath, TryAddTakesExactlyTheFastReports) {
  const Config& c = GetParam();
  Summary s(c.id, c.params);
  std::vector<double> ys = reports(s, 20000, 23);
  const double lo = s->report_lo, hi = s->report_hi;
  ys.push_back(std::nextafter(hi, HUGE_VAL));
  ys.push_back(std::nextafter(lo, -HUGE_VAL));
  ys.push_back(std::numeric_limits<double>::quiet_NaN());
  ys.push_back(HUGE_VAL);
  size_t taken = 0, left = 0;
  for (double y : ys) {
    const bool fast = y >= lo && y <= hi && square_unit(*s, y) >= s->sums()->hot_min_sq;
    Summary before = s;
    const bool took = ldp::mean_try_add_real(s.get(), y);
    ASSERT_EQ(took, fast) << y;
    if (took) {
      ++taken;
      ASSERT_EQ(s->n, before->n + 1);
    } else {
      ++left;
      ASSERT_EQ(std::memcmp(s.get(), before.get(), ldp::kMaxMeanSummarySize), 0) << y;
      if (y >= lo && y <= hi) s.add_real(y);
    }
  }
  EXPECT_GT(left, 4u);  // the four impossible ones and the tiny reports
  if (c.fast) {
    EXPECT_GT(taken, ys.size() / 2);
  }
  EXPECT_EQ(s.text(), summarize(c, ys, 0, ys.size() - 4).text());
}

TEST(HotPath, OnAtTheSmallestEpsilon) {
  // At the smallest epsilon the widest reports still have representable squares, so
  // the fast path is on (before 0.4.0, eps = 1e-200 turned it off) and gives the
  // exact sums of the references.
  Summary s(MeanMechanism::Laplace, {ldp::kMinEpsilon, 1, 0});
  EXPECT_FALSE(std::isnan(s->sums()->hot_min_sq));
  ExactSum sum, sumsq;
  sum.clear();
  sumsq.clear();
  std::mt19937_64 g(4);
  for (int i = 0; i < 600; ++i) {
    // magnitudes up to 2^23 (report_hi is about 1e7 < 2^24) and down to 2^-106, both signs
    double mantissa = static_cast<double>(g() >> 11);
    int shift = static_cast<int>(g() % 77);
    double y = std::ldexp(mantissa, -30 - shift) * ((g() & 1) ? 1 : -1);
    ASSERT_LE(std::fabs(y), s->report_hi);
    s.add_real(y);
    sum.add(y);
    sumsq.add(y * y);
  }
  EXPECT_EQ(s->sums()->sum.to_text(), sum.to_text());
  EXPECT_EQ(s->sums()->sumsq_unit.to_text(), sumsq.to_text());
  EXPECT_EQ(s->n, 600);
}

TEST(HotPathReject, LeavesTheSummaryAsItWas) {
  Summary s(MeanMechanism::Laplace, {1, 10, 0});
  for (int i = 0; i < 100; ++i) s.add_real(0.25 * i);
  const std::string before = s.text();
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { s.add_real(1e6); }));
  EXPECT_EQ(s.text(), before);
}

// ---------------------------------------------------------------------------
// The earlier memory layout (no hot sums, no fast-path fields).

std::vector<uint64_t> legacy_image(Summary s) {
  ldp::mean_flush_hot(s.get());
  std::vector<uint64_t> img(ldp::kLegacyRealSummarySize / 8, 0);
  auto* p = reinterpret_cast<unsigned char*>(img.data());
  std::memcpy(p, s.get(), sizeof(ldp::MeanSummary));
  const size_t one = (ExactSum::kLimbs + 1) * sizeof(int64_t);
  std::memcpy(p + sizeof(ldp::MeanSummary), &s->sums()->sum, one);
  std::memcpy(p + sizeof(ldp::MeanSummary) + one, &s->sums()->sumsq_unit, one);
  return img;
}

TEST(LegacyLayout, IsUpgraded) {
  EXPECT_EQ(ldp::kLegacyRealSummarySize, 1200u);
  for (const Config& c : kConfigs) {
    Summary probe(c.id, c.params);
    std::vector<double> ys = reports(probe, 700, 41);
    Summary s = summarize(c, ys, 0, 500);
    std::vector<uint64_t> img = legacy_image(s);
    const auto& old = *reinterpret_cast<const ldp::MeanSummary*>(img.data());
    ASSERT_TRUE(ldp::mean_summary_is_legacy(old, ldp::kLegacyRealSummarySize));
    Summary up;
    size_t size = ldp::mean_summary_upgrade_legacy(old, ldp::kLegacyRealSummarySize, up.get());
    EXPECT_EQ(size, ldp::mean_summary_size(c.id));
    EXPECT_EQ(up.text(), s.text()) << c.name;
    // the derived fields are set
    EXPECT_EQ(std::isnan(up->sums()->hot_min_sq), !c.fast);
    if (c.fast) {
      EXPECT_EQ(up->sums()->hot_min_sq, s->sums()->hot_min_sq);
    }
    EXPECT_EQ(up->sums()->hot_split_sum, s->sums()->hot_split_sum);
    for (size_t i = 500; i < ys.size(); ++i) {
      up.add_real(ys[i]);
      s.add_real(ys[i]);
    }
    EXPECT_EQ(up.text(), s.text()) << c.name;
  }
}

TEST(LegacyLayout, OnlyThatLayoutIsTakenForIt) {
  Summary s(MeanMechanism::Piecewise, {1, 10, 0});
  s.add_real(3);
  std::vector<uint64_t> img = legacy_image(s);
  auto* old = reinterpret_cast<ldp::MeanSummary*>(img.data());
  const size_t size = ldp::mean_summary_size(MeanMechanism::Piecewise);
  EXPECT_NE(size, ldp::kLegacyRealSummarySize);
  EXPECT_FALSE(ldp::mean_summary_is_legacy(*s, size));  // the current layout
  EXPECT_NO_THROW(ldp::mean_summary_check(*s, size));
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal,
                         [&] { ldp::mean_summary_check(*old, ldp::kLegacyRealSummarySize); }));
  Summary out;
  old->version = 2;
  EXPECT_FALSE(ldp::mean_summary_is_legacy(*old, ldp::kLegacyRealSummarySize));
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] {
    ldp::mean_summary_upgrade_legacy(*old, ldp::kLegacyRealSummarySize, out.get());
  }));
  old->version = ldp::kMeanSummaryVersion;
  old->mechanism = static_cast<uint8_t>(MeanMechanism::OneBit);  // not real-valued
  EXPECT_FALSE(ldp::mean_summary_is_legacy(*old, ldp::kLegacyRealSummarySize));
}

}  // namespace
