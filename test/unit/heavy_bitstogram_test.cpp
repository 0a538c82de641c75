// Bitstogram (Bassily et al. 2017 §4, docs/algorithms/heavy-hitters.md#bitstogram;
// src/core/heavy/bitstogram.cpp): the protocol's defaults and forms, the encoder's reports
// against the formulas, hand-computed counters and estimates, refusals, the codec's round
// trips, and the decoder reading items of every domain off their coordinates. Its statistical
// tests (σ_B and σ_F within 10%, coverage, rollup, SUBTLEX-US words at the default) are in
// heavy_estimator_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/heavy/heavy_protocol.hpp"
#include "core/heavy/heavy_summary.hpp"
#include "heavy_test_support.hpp"
#include "core/oracles/count_sketch.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::HeavyDomain;
using ldp::HeavyMechanism;
using ldp_test::Heavy;
using ldp_test::PreparedHeavy;
using ldp_test::ThrowsKind;

double C(double x) { return (std::exp(x) + 1) / (std::exp(x) - 1); }  // c(x)

ldp::HeavyProtocol Bits(HeavyDomain domain, double epsilon, int64_t users, int64_t hashes = 0, int64_t width = 0,
                        int64_t max_length = 0, int64_t chars_per_level = 0, const std::string& alphabet = "",
                        int64_t buckets = 0) {
  return ldp_test::MechProtocol(HeavyMechanism::Bitstogram, domain, epsilon, users, hashes, width, max_length,
                                chars_per_level, -1, alphabet, buckets);
}

int64_t Bucket(const ldp::HeavyProtocol& p, const std::string& v) {
  return static_cast<int64_t>(ldp::sketch_hash(v, ldp::kBitstogramBucketSeed) % static_cast<uint64_t>(p.buckets));
}

TEST(Bitstogram, DefaultsAndForms) {
  // [a-z], 6 characters one per coordinate: |Σ| = 27; K = the power of two >= 4√n0·27 + 1
  const ldp::HeavyProtocol p = Bits(HeavyDomain::Alphabet, 2, 1000000);
  EXPECT_EQ(p.levels, 6);
  EXPECT_EQ(p.chars_per_level, 1);
  EXPECT_EQ(p.buckets, 4854);  // (2^17 - 1)/27
  EXPECT_EQ(p.hashes * p.width, 1 << 17);
  EXPECT_EQ(p.width, 1024);
  EXPECT_EQ(ldp::bitstogram_hadamard_order(p), 1 << 17);
  EXPECT_EQ(ldp::heavy_protocol_to_text(p),
            "v1:bitstogram{epsilon=2,domain=alphabet,alphabet=\"abcdefghijklmnopqrstuvwxyz\",max_length=6,"
            "chars_per_level=1,levels=6,hashes=128,width=1024,buckets=4854,expected_users=1000000}");
  const ldp::HeavyProtocol big = Bits(HeavyDomain::Alphabet, 2, 10000000);
  EXPECT_EQ(big.buckets, 19418);  // (2^19 - 1)/27
  EXPECT_EQ(big.hashes, 256);
  EXPECT_EQ(big.width, 2048);
  // int64: 9 sketches of at most 2^23/9 cells: K = 2^19; bytes of 6: K = 2^20
  const ldp::HeavyProtocol ints = Bits(HeavyDomain::Int64, 2, 1000000);
  EXPECT_EQ(ints.levels, 8);
  EXPECT_EQ(ints.buckets, 2047);
  EXPECT_EQ(ints.hashes * ints.width, 1 << 19);
  const ldp::HeavyProtocol bytes = Bits(HeavyDomain::Bytes, 2, 1000000);
  EXPECT_EQ(bytes.buckets, 4095);
  EXPECT_EQ(bytes.hashes * bytes.width, 1 << 20);
  // buckets given: hashes·width follow; hashes and width given: buckets follow
  EXPECT_EQ(Bits(HeavyDomain::Alphabet, 2, 1000, 0, 0, 0, 0, "", 100).hashes *
                Bits(HeavyDomain::Alphabet, 2, 1000, 0, 0, 0, 0, "", 100).width,
            4096);
  EXPECT_EQ(Bits(HeavyDomain::Alphabet, 2, 1000, 16, 1024).buckets, 606);
  for (const ldp::HeavyProtocol& q : {p, ints, bytes, Bits(HeavyDomain::Alphabet, 1, 50, 0, 0, 5, 2, "xé\"")}) {
    const std::string t = ldp::heavy_protocol_to_text(q);
    EXPECT_TRUE(ldp::same_heavy_protocol(ldp::heavy_protocol_from_text(t.c_str()), q)) << t;
    std::vector<uint8_t> b(ldp::heavy_protocol_binary_size(q));
    ldp::heavy_protocol_to_binary(q, b.data(), b.size());
    EXPECT_TRUE(ldp::same_heavy_protocol(ldp::heavy_protocol_from_binary(b.data(), b.size()), q)) << t;
  }
  EXPECT_FALSE(ldp::same_heavy_protocol(p, Bits(HeavyDomain::Alphabet, 2, 1000000, 0, 0, 0, 0, "", 4000)));
  auto bad = [](auto f) { return ThrowsKind(ErrorKind::InvalidParameter, f); };
  EXPECT_TRUE(bad([] { Bits(HeavyDomain::Alphabet, 2, 1000, 3, 1024); }));  // hashes·width not a power of two
  EXPECT_TRUE(bad([] { Bits(HeavyDomain::Alphabet, 2, 1000, 16, 1024, 0, 0, "", 100); }));
  EXPECT_TRUE(bad([] { Bits(HeavyDomain::Alphabet, 2, 1000, 0, 0, 0, 0, "", 200000); }));  // T·|Σ| >= 2^22
  ldp::HeavyProtocolSpec tree;
  tree.epsilon = 2;
  tree.expected_users = 1000;
  tree.buckets = 10;
  EXPECT_TRUE(bad([&] { ldp::heavy_protocol_build(tree); }));  // buckets is bitstogram's
  const char* bad_text[] = {
      "v1:bitstogram{epsilon=2,domain=alphabet,alphabet=\"ab\",max_length=2,chars_per_level=1,levels=2,hashes=2,"
      "width=4,expected_users=10}",  // no buckets
      "v1:bitstogram{epsilon=2,domain=alphabet,alphabet=\"ab\",max_length=2,chars_per_level=1,levels=2,hashes=2,"
      "width=4,buckets=0,expected_users=10}",
      "v1:bitstogram{epsilon=2,domain=alphabet,alphabet=\"ab\",max_length=2,chars_per_level=1,levels=2,hashes=2,"
      "width=4,buckets=3,expected_users=10}",  // K = 16
      "v1:treehist{epsilon=2,domain=alphabet,alphabet=\"ab\",max_length=2,chars_per_level=1,levels=2,hashes=2,"
      "width=4,buckets=2,expected_users=10}",
  };
  for (const char* t : bad_text)
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { ldp::heavy_protocol_from_text(t); })) << t;
  EXPECT_NO_THROW(ldp::heavy_protocol_from_text(
      "v1:bitstogram{epsilon=2,domain=alphabet,alphabet=\"ab\",max_length=2,chars_per_level=1,levels=2,hashes=2,"
      "width=4,buckets=2,expected_users=10}"));
}

// Without flips (ε = 700), each report is the Hadamard entry H[row][h(v)·|Σ| + v[ℓ] + 1]
// and the count sketch's entry of v.
TEST(Bitstogram, EncoderReportsItsEntries) {
  ldp::SeededRandom rng(23);
  const ldp::HeavyProtocol p = Bits(HeavyDomain::Alphabet, 700, 1000, 0, 0, 5, 2, "abc", 50);
  ASSERT_EQ(p.levels, 3);  // "ab", "ca", "b" then the pad: symbols base 4, |Σ| = 16
  const int64_t K = ldp::bitstogram_hadamard_order(p);
  ASSERT_EQ(K, 1024);
  const std::string v = "abcab";
  const int64_t symbols[] = {0 * 4 + 1, 2 * 4 + 0, 1 * 4 + 3};
  int64_t per[3] = {0, 0, 0};
  for (int i = 0; i < 600; ++i) {
    const ldp::BitstogramReport r = ldp::bitstogram_encode(p, v, rng);
    ASSERT_GE(r.coordinate, 1);
    ASSERT_LE(r.coordinate, 3);
    ASSERT_GE(r.hadamard_row, 0);
    ASSERT_LT(r.hadamard_row, K);
    ++per[r.coordinate - 1];
    const int64_t col = Bucket(p, v) * 16 + symbols[r.coordinate - 1] + 1;
    EXPECT_EQ(r.symbol_report, (__builtin_popcountll(static_cast<uint64_t>(r.hadamard_row & col)) & 1) == 0);
    EXPECT_EQ(r.item_report, ldp::count_sketch_entry(v, r.hash_index, r.coefficient, p.width));
  }
  for (int64_t c : per) EXPECT_GT(c, 150);
  // int64: byte ℓ of the 8 big-endian bytes; bytes: the end symbol 0xFF after the text
  const ldp::HeavyProtocol ints = Bits(HeavyDomain::Int64, 700, 1000, 0, 0, 0, 0, "", 10);
  const ldp::BitstogramReport r = ldp::bitstogram_encode_int(ints, 258, rng);
  const int64_t byte = r.coordinate == 7 ? 1 : r.coordinate == 8 ? 2 : 0;
  const int64_t col = Bucket(ints, std::string("\0\0\0\0\0\0\1\2", 8)) * 256 + byte + 1;
  EXPECT_EQ(r.symbol_report, (__builtin_popcountll(static_cast<uint64_t>(r.hadamard_row & col)) & 1) == 0);
  const ldp::HeavyProtocol bytes = Bits(HeavyDomain::Bytes, 700, 1000, 0, 0, 3, 0, "", 10);
  for (int i = 0; i < 50; ++i) {
    const ldp::BitstogramReport b = ldp::bitstogram_encode(bytes, "é", rng);
    const int64_t sym = b.coordinate == 1 ? 0xC3 : b.coordinate == 2 ? 0xA9 : 0xFF;
    const int64_t c = Bucket(bytes, "é") * 256 + sym + 1;
    EXPECT_EQ(b.symbol_report, (__builtin_popcountll(static_cast<uint64_t>(b.hadamard_row & c)) & 1) == 0);
  }
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::bitstogram_encode(p, "abcabc", rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::bitstogram_encode(p, "abd", rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::bitstogram_encode_int(p, 1, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] {
    ldp::bitstogram_encode(ldp_test::Protocol(HeavyDomain::Alphabet, 2, 1000), "ab", rng);
  }));
}

// D = 2, alphabet "ab" (|Σ| = 3), T = 2: K = 8 = 2 rows of 4. One report at HR row 5 (row
// 1 of the sketch, column 1) and final cell (1, 3): the prepared coordinate is
// H[5][·] over all 8 columns (the transform across rows included), so a (bucket, symbol)
// estimate is D·c(ε/2)·H[5][col].
TEST(Bitstogram, HandComputedCountersAndEstimates) {
  const ldp::HeavyProtocol p = Bits(HeavyDomain::Alphabet, 2, 100, 2, 0, 2, 1, "ab", 2);
  ASSERT_EQ(p.hashes * p.width, 8);
  Heavy s(p);
  ldp::bitstogram_add_report(s.get(), {2, 5, true, 1, 3, false});
  EXPECT_EQ(s->counters()[8 + 5], 1);
  EXPECT_EQ(s->counters()[16 + p.width + 3], -1);
  EXPECT_EQ(s->n, 1);
  PreparedHeavy prep(s);
  for (const std::string v : {"a", "ab", "b", "ba", ""}) {
    const int64_t sym = v.size() < 2 ? 2 : v[1] - 'a';
    const int64_t col = Bucket(p, v) * 3 + sym + 1;
    const double h = (__builtin_popcountll(static_cast<uint64_t>(5 & col)) & 1) == 0 ? 1 : -1;
    const ldp::HeavyEstimate e = prep.prefix(v, 2);
    EXPECT_DOUBLE_EQ(e.count, 2 * C(1) * h) << v;
    EXPECT_DOUBLE_EQ(e.std_error, C(1) * std::sqrt(2.0)) << v;  // σ_B = c(ε/2)·sqrt(n·D)
    EXPECT_DOUBLE_EQ(prep(v).std_error, C(1) * std::sqrt(M_PI / 2));
  }
  // refused: nothing counted
  Heavy before = s;
  const ldp::BitstogramReport bad[] = {{0, 0, true, 0, 0, true}, {3, 0, true, 0, 0, true}, {1, -1, true, 0, 0, true},
                                       {1, 8, true, 0, 0, true}, {1, 0, true, 2, 0, true}, {1, 0, true, 0, 4, true}};
  for (const ldp::BitstogramReport& r : bad)
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::bitstogram_add_report(s.get(), r); }));
  EXPECT_EQ(s.buf, before.buf);
  Heavy tree(ldp_test::Protocol(HeavyDomain::Alphabet, 2, 100, 2, 4));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::bitstogram_add_report(tree.get(), {1, 0, true, 0, 0, true}); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::heavy_add_report(s.get(), {1, 0, 0, true, true}); }));
}

// Items of every domain read off their coordinates at ε = 8 (σ_B well below their counts),
// through both forms of the summary.
TEST(Bitstogram, DecoderFindsItemsOfEveryDomain) {
  ldp::SeededRandom rng(29);
  struct Case {
    ldp::HeavyProtocol p;
    std::vector<std::pair<std::string, int64_t>> pop;
    double threshold;
  };
  std::vector<Case> cases = {
      {Bits(HeavyDomain::Alphabet, 8, 12000, 0, 0, 5, 2, "abc"), {{"abcab", 3000}, {"c", 2500}, {"", 2000}}, 1200},
      {Bits(HeavyDomain::Bytes, 8, 12000, 0, 0, 4), {{"é!", 3000}, {"ok", 2500}, {"a", 2000}}, 1200},
  };
  for (int i = 0; i < 300; ++i) {  // filler, 10 holders each
    const std::string w = std::string(1, static_cast<char>('a' + i % 3)) + static_cast<char>('a' + (i / 3) % 3) +
                          static_cast<char>('a' + (i / 9) % 3) + static_cast<char>('a' + (i / 27) % 3);
    cases[0].pop.push_back({w + "b", 10});
    cases[1].pop.push_back({std::to_string(1000 + i), 10});
  }
  for (const Case& c : cases) {
    const Heavy s = ldp_test::simulate(c.p, c.pop, rng);
    for (const Heavy& back : {ldp_test::from_text(ldp_test::text_of(s)), ldp_test::from_binary(ldp_test::binary_of(s))})
      ASSERT_EQ(back.buf, s.buf);
    ldp::HeavyHittersQuery q;
    q.threshold = c.threshold;
    const ldp::HeavyHitters h = PreparedHeavy(s).hitters(q);
    std::map<std::string, double> got;
    for (const ldp::HeavyHitter& x : h.items) got[x.item] = x.count;
    ASSERT_EQ(got.size(), 3u) << ldp::heavy_protocol_to_text(c.p);
    for (size_t k = 0; k < 3; ++k) {
      ASSERT_EQ(got.count(c.pop[k].first), 1u) << c.pop[k].first;
      EXPECT_NEAR(got[c.pop[k].first], static_cast<double>(c.pop[k].second), 5 * h.sigma_final);
    }
    EXPECT_EQ(h.candidates[0], c.p.buckets);
  }
  // int64 ids, one of them negative
  const ldp::HeavyProtocol ints = Bits(HeavyDomain::Int64, 8, 20000);
  Heavy s(ints);
  const std::pair<int64_t, int64_t> heavy[] = {{-5, 4000}, {1099511627776, 3000}};
  for (const auto& [v, f] : heavy)
    for (int64_t u = 0; u < f; ++u) ldp::bitstogram_add_report(s.get(), ldp::bitstogram_encode_int(ints, v, rng));
  for (int i = 0; i < 13000; ++i)
    ldp::bitstogram_add_report(s.get(), ldp::bitstogram_encode_int(ints, static_cast<int64_t>(rng.next_u64()), rng));
  ldp::HeavyHittersQuery q;
  q.threshold = 1500;
  const ldp::HeavyHitters h = PreparedHeavy(s).hitters(q);
  ASSERT_EQ(h.items.size(), 2u);
  EXPECT_EQ(h.items[0].item, "-5");
  EXPECT_EQ(h.items[0].integer, -5);
  EXPECT_EQ(h.items[1].item, "1099511627776");
  EXPECT_NEAR(h.threshold_in_se, 1500 / (C(4) * std::sqrt(8.0 * 20000)), 1e-9);
}

}  // namespace
