// Merging frequency-oracle summaries (equal to the summary of the concatenated
// reports, byte for byte; mismatches named) and the consistency post-processing
// (clip, norm-sub = the Euclidean projection onto the probability simplex).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_summary.hpp"
#include "freq_test_support.hpp"
#include "core/common/random.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::FreqMechanism;
using ldp::FreqParams;
using ldp_test::Close;
using ldp_test::Freq;
using ldp_test::ThrowsKind;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

void ExpectAll(const std::vector<double>& got, const std::vector<double>& want,
               const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_TRUE(Close(got[i], want[i], 1e-12)) << what << "[" << i << "]";
}

// ---------------------------------------------------------------------------
// Merge.

// Summaries of the same reports, of both halves and of all of them.
struct Split {
  Freq first, second, all;
};

Split Reports(FreqMechanism id, FreqParams p, int n, uint64_t seed) {
  Split out{Freq(id, p), Freq(id, p), Freq(id, p)};
  ldp::SeededRandom rng(seed);
  std::vector<uint8_t> bytes((p.k + 7) / 8);
  std::vector<int32_t> buckets(p.d > 0 ? p.d : 1);
  std::unique_ptr<bool[]> bits(new bool[buckets.size()]);
  for (int i = 0; i < n; ++i) {
    int64_t x = static_cast<int64_t>(rng.below(p.k));
    for (Freq* s : {i < n / 3 ? &out.first : &out.second, &out.all}) {
      ldp::SeededRandom r(seed * 7919 + i);  // the same report for both
      switch (id) {
        case FreqMechanism::GRR:
          ldp::freq_add_item(s->get(), ldp::grr_encode(x, p.epsilon, p.k, r));
          break;
        case FreqMechanism::SUE:
        case FreqMechanism::OUE:
          (id == FreqMechanism::SUE ? ldp::sue_encode : ldp::oue_encode)(x, p.epsilon, p.k, r,
                                                                         bytes.data());
          ldp::freq_add_bits(s->get(), bytes.data(), p.k);
          break;
        case FreqMechanism::DBitFlip:
          ldp::dbitflip_encode(x, p.epsilon, p.k, p.d, r, buckets.data(), bits.get());
          ldp::freq_add_dbitflip(s->get(), buckets.data(), bits.get(), p.d);
          break;
        case FreqMechanism::OLH: {
          ldp::OlhReport o = ldp::olh_encode(x, p.epsilon, p.k, r);
          ldp::freq_add_olh(s->get(), static_cast<uint64_t>(o.seed), o.y);
          break;
        }
        case FreqMechanism::Hadamard: {
          ldp::HadamardReport h = ldp::hadamard_encode(x, p.epsilon, p.k, r);
          ldp::freq_add_hadamard(s->get(), h.row, h.plus_one);
          break;
        }
      }
    }
  }
  return out;
}

struct MergeCase {
  const char* name;
  FreqMechanism id;
  FreqParams p;
};
void PrintTo(const MergeCase& c, std::ostream* os) { *os << c.name; }

const MergeCase kMergeCases[] = {
    {"grr", FreqMechanism::GRR, {1, 6, 0}},           {"sue", FreqMechanism::SUE, {1, 11, 0}},
    {"oue", FreqMechanism::OUE, {1, 9, 0}},           {"dbitflip", FreqMechanism::DBitFlip, {1, 7, 3}},
    {"olh", FreqMechanism::OLH, {2, 20, 0}},          {"hadamard", FreqMechanism::Hadamard, {1, 5, 0}},
    {"dbitflip_large_d", FreqMechanism::DBitFlip, {1, 40, 20}},
};

class FreqMerge : public ::testing::TestWithParam<MergeCase> {};

TEST_P(FreqMerge, EqualsTheSummaryOfTheConcatenation) {
  const MergeCase& c = GetParam();
  Split s = Reports(c.id, c.p, 300, 11);
  EXPECT_EQ(s.all->n, 300);
  EXPECT_FALSE(s.first.same_bytes(s.all));
  Freq a = s.first;
  a.merge(s.second);
  EXPECT_TRUE(a.same_bytes(s.all)) << a.text() << "\n" << s.all.text();
  Freq b = s.second;
  b.merge(s.first);
  EXPECT_TRUE(b.same_bytes(s.all));
  Freq e = s.all;
  e.merge(Freq(c.id, c.p));  // an empty summary changes nothing
  EXPECT_TRUE(e.same_bytes(s.all));
  // the summary built from reports passes the codecs' validation
  EXPECT_TRUE(Freq::from_text(s.all.text()).same_bytes(s.all));
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, FreqMerge, ::testing::ValuesIn(kMergeCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(FreqMergeErrors, MismatchesAreInvalidParameter) {
  Freq base(FreqMechanism::DBitFlip, {1, 4, 2});
  auto fails = [&](FreqMechanism id, FreqParams p, const char* word) {
    Freq into = base;
    Freq from(id, p);
    try {
      into.merge(from);
    } catch (const ldp::Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "merge did not fail: " << word;
  };
  fails(FreqMechanism::DBitFlip, {2, 4, 2}, "epsilon");
  fails(FreqMechanism::DBitFlip, {std::nextafter(1.0, 2.0), 4, 2}, "epsilon");
  fails(FreqMechanism::DBitFlip, {1, 5, 2}, "different k");
  fails(FreqMechanism::DBitFlip, {1, 4, 3}, "different d");
  fails(FreqMechanism::SUE, {1, 8, 0}, "different mechanisms");
}

// ---------------------------------------------------------------------------
// Consistency.

TEST(FreqConsistency, ParsesTheThreeNames) {
  auto parse = [](const std::string& s) { return ldp::parse_consistency(s.data(), s.size()); };
  EXPECT_EQ(parse("none"), ldp::Consistency::None);
  EXPECT_EQ(parse("clip"), ldp::Consistency::Clip);
  EXPECT_EQ(parse("norm-sub"), ldp::Consistency::NormSub);
  for (const char* bad : {"", "None", "norm_sub", "normsub", "clip ", "bogus"})
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { parse(bad); })) << bad;
}

TEST(FreqConsistency, ClipAndNormSubByHand) {
  std::vector<double> f = {0.5, 0.4, 0.3, -0.2};
  auto clip = f;
  ldp::apply_consistency(ldp::Consistency::Clip, clip.data(), 4);
  EXPECT_EQ(clip, (std::vector<double>{0.5, 0.4, 0.3, 0.0}));
  auto none = f;
  ldp::apply_consistency(ldp::Consistency::None, none.data(), 4);
  EXPECT_EQ(none, f);
  // sum of the top three is 1.2: delta = 0.2/3, and -0.2 - delta < 0
  auto ns = f;
  ldp::apply_consistency(ldp::Consistency::NormSub, ns.data(), 4);
  ExpectAll(ns, {0.5 - 0.2 / 3, 0.4 - 0.2 / 3, 0.3 - 0.2 / 3, 0.0}, "norm-sub");
  // total below 1: everything is raised
  std::vector<double> low = {0.1, 0.2, -0.1};
  ldp::apply_consistency(ldp::Consistency::NormSub, low.data(), 3);
  // the sum is 0.2: all three are raised by 0.8/3 (-0.1 + 0.8/3 > 0)
  ExpectAll(low, {0.1 + 0.8 / 3, 0.2 + 0.8 / 3, -0.1 + 0.8 / 3}, "raised");
}

// norm-sub is the Euclidean projection onto the simplex: x >= 0, Σ x = 1, and the
// optimality conditions: x_i = f_i - δ where x_i > 0, and f_i <= δ where x_i = 0.
TEST(FreqConsistency, NormSubIsTheSimplexProjection) {
  ldp::SeededRandom rng(3);
  for (int t = 0; t < 300; ++t) {
    int k = 2 + static_cast<int>(rng.below(40));
    double spread = t % 3 == 0 ? 0.01 : (t % 3 == 1 ? 0.5 : 5.0);
    std::vector<double> f(k);
    for (double& x : f) x = (rng.uniform() - 0.3) * spread;
    auto x = f;
    ldp::apply_consistency(ldp::Consistency::NormSub, x.data(), k);
    double sum = 0, delta = kNaN;
    for (int i = 0; i < k; ++i) {
      ASSERT_GE(x[i], 0.0);
      sum += x[i];
      if (x[i] > 0) delta = f[i] - x[i];
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
    ASSERT_FALSE(std::isnan(delta));
    for (int i = 0; i < k; ++i) {
      if (x[i] > 0) {
        EXPECT_NEAR(f[i] - x[i], delta, 1e-12);
      } else {
        EXPECT_LE(f[i], delta + 1e-12);
      }
    }
    // a point of the simplex is its own projection
    auto again = x;
    ldp::apply_consistency(ldp::Consistency::NormSub, again.data(), k);
    for (int i = 0; i < k; ++i) EXPECT_NEAR(again[i], x[i], 1e-12);
  }
}

}  // namespace
