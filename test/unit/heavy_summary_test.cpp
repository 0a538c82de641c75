// The heavy-hitters family's protocol, encoder, summary and forms
// (docs/algorithms/heavy-hitters.md; src/core/heavy/): defaults, refusals, hand-computed
// reports and estimates, merges, and the text and binary forms with every malformation the
// readers must refuse; for TreeHist, then PEM and SFP (the last section). Statistical tests
// are in heavy_estimator_test.cpp.
#include "core/heavy/heavy_summary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/heavy/heavy_protocol.hpp"
#include "heavy_test_support.hpp"
#include "core/oracles/count_sketch.hpp"
#include "core/oracles/hcms_oracle.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::HeavyDomain;
using ldp::HeavyMechanism;
using ldp_test::Heavy;
using ldp_test::MechProtocol;
using ldp_test::PreparedHeavy;
using ldp_test::Protocol;
using ldp_test::ThrowsKind;
using ldp_test::binary_of;
using ldp_test::from_binary;
using ldp_test::from_text;
using ldp_test::text_of;

double C(double x) { return (std::exp(x) + 1) / (std::exp(x) - 1); }  // c(x)

// ---- the protocol ----

TEST(HeavyProtocol, DefaultsAreTheTableOfAlgorithms61) {
  ldp::HeavyProtocol s6 = Protocol(HeavyDomain::Alphabet, 2, 1000000);
  EXPECT_EQ(s6.alphabet_view(), "abcdefghijklmnopqrstuvwxyz");
  EXPECT_EQ(s6.max_length, 6);
  EXPECT_EQ(s6.chars_per_level, 2);
  EXPECT_EQ(s6.levels, 3);
  EXPECT_EQ(s6.hashes, 128);
  EXPECT_EQ(s6.width, 1024);
  EXPECT_EQ(ldp::heavy_symbols(s6), 729);
  EXPECT_EQ(Protocol(HeavyDomain::Alphabet, 2, 10000000).hashes, 256);
  EXPECT_EQ(Protocol(HeavyDomain::Alphabet, 2, 100).hashes, 8);  // at least 8 rows (one collision cannot carry an item)
  EXPECT_EQ(Protocol(HeavyDomain::Alphabet, 2, 100000).hashes, 16);
  ldp::HeavyProtocol i6 = Protocol(HeavyDomain::Int64, 2, 1000000);
  EXPECT_EQ(i6.levels, 8);
  EXPECT_EQ(i6.max_length, 8);
  EXPECT_EQ(i6.hashes, 64);
  EXPECT_EQ(ldp::heavy_symbols(i6), 256);
  EXPECT_EQ(Protocol(HeavyDomain::Int64, 2, 10000000).hashes, 256);
  ldp::HeavyProtocol b = Protocol(HeavyDomain::Bytes, 1, 600000);
  EXPECT_EQ(b.levels, 6);
  EXPECT_EQ(b.chars_per_level, 1);
  EXPECT_EQ(b.hashes, 64);  // 600000/12000 = 50 -> 64
  // levels given without max_length: max_length = levels·s
  ldp::HeavyProtocolSpec spec;
  spec.epsilon = 1;
  spec.expected_users = 1000;
  spec.levels = 4;
  EXPECT_EQ(ldp::heavy_protocol_build(spec).max_length, 8);
  // a UTF-8 alphabet: 3 characters + pad, 2 per level
  EXPECT_EQ(ldp::heavy_symbols(Protocol(HeavyDomain::Alphabet, 1, 1000, 0, 0, 4, 2, "äöü")), 16);
}

TEST(HeavyProtocol, OutOfRangeParametersAreRefused) {
  auto bad = [](auto f) { return ThrowsKind(ErrorKind::InvalidParameter, f); };
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 0, 1000); }));
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 2, 0); }));
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 2, 1000, 0, 1000); }));  // width not 2^r
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 2, 1000, -1); }));
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 2, 1000, 0, 0, 0, 0, "ab*"); }));    // the pad
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 2, 1000, 0, 0, 0, 0, "aba"); }));    // repeated
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 2, 1000, 0, 0, 0, 0, "a\xff"); }));  // not UTF-8
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 2, 1000, 0, 0, 0, 4); }));           // 27^4 symbols
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 2, 1000, 0, 0, 200, 2); }));         // 100 levels
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Alphabet, 2, 1000, 4096, 4096); }));           // 4·2^24 cells
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Int64, 2, 1000, 0, 0, 4); }));
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Bytes, 2, 1000, 0, 0, 0, 2); }));
  EXPECT_TRUE(bad([] { Protocol(HeavyDomain::Bytes, 2, 1000, 0, 0, 0, 0, "abc"); }));
  ldp::HeavyProtocolSpec spec;
  spec.epsilon = 1;
  spec.expected_users = 1000;
  spec.max_length = 6;
  spec.levels = 4;  // not ceil(6/2)
  EXPECT_TRUE(bad([&] { ldp::heavy_protocol_build(spec); }));
  // the size bound is checked before anything is allocated
  ldp::HeavyProtocol big = Protocol(HeavyDomain::Alphabet, 2, 1000);
  big.hashes = int64_t{1} << 16;
  big.width = int64_t{1} << 22;
  EXPECT_TRUE(bad([&] { ldp::heavy_summary_size(big); }));
}

TEST(HeavyProtocol, TextFormRoundTripsAndParsesStrictly) {
  ldp::HeavyProtocol p = Protocol(HeavyDomain::Alphabet, 2, 1000000);
  const std::string text = ldp::heavy_protocol_to_text(p);
  EXPECT_EQ(text,
            "v1:treehist{epsilon=2,domain=alphabet,alphabet=\"abcdefghijklmnopqrstuvwxyz\",max_length=6,"
            "chars_per_level=2,levels=3,hashes=128,width=1024,expected_users=1000000}");
  EXPECT_TRUE(ldp::same_heavy_protocol(ldp::heavy_protocol_from_text(text.c_str()), p));
  ldp::HeavyProtocol q = Protocol(HeavyDomain::Alphabet, 0.5, 50, 4, 16, 3, 1, "a\"\\é");
  const std::string qt = ldp::heavy_protocol_to_text(q);
  EXPECT_NE(qt.find("alphabet=\"a\\\"\\\\é\""), std::string::npos) << qt;
  EXPECT_TRUE(ldp::same_heavy_protocol(ldp::heavy_protocol_from_text(qt.c_str()), q));
  ldp::HeavyProtocol i = Protocol(HeavyDomain::Int64, 1, 5000);
  EXPECT_EQ(ldp::heavy_protocol_to_text(i),
            "v1:treehist{epsilon=1,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=8,width=1024,"
            "expected_users=5000}");
  EXPECT_TRUE(ldp::same_heavy_protocol(ldp::heavy_protocol_from_text(ldp::heavy_protocol_to_text(i).c_str()), i));
  const char* bad[] = {
      "v1:treehist{epsilon=1,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=1,width=1024}",
      "v1:treehist{epsilon=1,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=1,width=1024,"
      "expected_users=5000,n=0}",
      "v1:treehist{epsilon=1,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=1,width=1024,"
      "expected_users=5000} ",
      "v1:treehist{epsilon=1,domain=int32,max_length=8,chars_per_level=1,levels=8,hashes=1,width=1024,"
      "expected_users=5000}",
      "v1:treehist{epsilon=1,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=1,width=1000,"
      "expected_users=5000}",
      "v1:treehist{epsilon=1,domain=alphabet,alphabet=\"a\\b\",max_length=2,chars_per_level=1,levels=2,"
      "hashes=1,width=2,expected_users=5}",
      "v1:treehist{epsilon=1,domain=alphabet,alphabet=\"ab,max_length=2,chars_per_level=1,levels=2,"
      "hashes=1,width=2,expected_users=5}",
      "v1:treehist{epsilon=1,domain=alphabet,alphabet=\"a*\",max_length=2,chars_per_level=1,levels=2,"
      "hashes=1,width=2,expected_users=5}",
      "v1:treehist{epsilon=1,domain=bytes,alphabet=\"ab\",max_length=2,chars_per_level=1,levels=2,"
      "hashes=1,width=2,expected_users=5}",
      "v1:bitstogram{epsilon=1,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=1,width=1024,"
      "expected_users=5000}",
  };
  for (const char* t : bad)
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { ldp::heavy_protocol_from_text(t); })) << t;
}

// ---- items and the encoder ----

TEST(HeavyItem, PrefixesAreTheUnpaddedBytesOfEachLevel) {
  ldp::HeavyItem it;
  ldp::heavy_item_from_text(Protocol(HeavyDomain::Alphabet, 2, 1000), "abcde", &it);
  EXPECT_EQ(it.prefix(1), "ab");
  EXPECT_EQ(it.prefix(2), "abcd");
  EXPECT_EQ(it.prefix(3), "abcde");
  ldp::heavy_item_from_text(Protocol(HeavyDomain::Alphabet, 2, 1000), "a", &it);
  EXPECT_EQ(it.prefix(1), "a");
  EXPECT_EQ(it.prefix(3), "a");
  ldp::heavy_item_from_text(Protocol(HeavyDomain::Alphabet, 2, 1000, 0, 0, 4, 2, "äöü"), "äöü", &it);
  EXPECT_EQ(it.prefix(1), "äö");
  EXPECT_EQ(it.prefix(2), "äöü");
  ldp::heavy_item_from_text(Protocol(HeavyDomain::Bytes, 2, 1000), "né", &it);  // 3 bytes
  EXPECT_EQ(it.prefix(1), "n");
  EXPECT_EQ(it.prefix(2), "n\xc3");
  EXPECT_EQ(it.prefix(3), "né");
  EXPECT_EQ(it.prefix(6), "né");
  ldp::heavy_item_from_int(Protocol(HeavyDomain::Int64, 2, 1000), 258, &it);
  EXPECT_EQ(ldp_test::hex(std::vector<uint8_t>(it.bytes.begin(), it.bytes.end())), "0000000000000102");
  EXPECT_EQ(it.prefix(7), std::string(6, '\0') + "\x01");
  ldp::heavy_item_from_int(Protocol(HeavyDomain::Int64, 2, 1000), -1, &it);
  EXPECT_EQ(it.bytes, std::string(8, '\xff'));
}

TEST(HeavyEncoder, RefusesItemsItCannotEncode) {
  ldp::SeededRandom rng(1);
  const ldp::HeavyProtocol p = Protocol(HeavyDomain::Alphabet, 2, 1000);
  auto out_of_range = [&](const ldp::HeavyProtocol& q, const std::string& item, const char* says) {
    try {
      ldp::treehist_encode(q, item, rng);
    } catch (const ldp::Error& e) {
      if (e.kind() != ErrorKind::OutOfRange) return ::testing::AssertionFailure() << e.what();
      if (std::string(e.what()).find(says) == std::string::npos)
        return ::testing::AssertionFailure() << "\"" << e.what() << "\" does not say " << says;
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "no error";
  };
  EXPECT_TRUE(out_of_range(p, "abC", "'C' at position 3"));
  EXPECT_TRUE(out_of_range(p, "a*", "'*' at position 2"));  // the pad is not a character
  EXPECT_TRUE(out_of_range(p, "héllo", "'é' at position 2"));
  EXPECT_TRUE(out_of_range(p, "abcdefg", "too long"));
  EXPECT_TRUE(out_of_range(p, "ab\xff", "not valid UTF-8"));
  const ldp::HeavyProtocol b = Protocol(HeavyDomain::Bytes, 2, 1000);
  EXPECT_TRUE(out_of_range(b, "abcdefg", "too long"));
  EXPECT_TRUE(out_of_range(b, "ab\xc3", "not valid UTF-8"));
  EXPECT_TRUE(out_of_range(b, "\xed\xa0\x80", "not valid UTF-8"));  // a surrogate
  EXPECT_NO_THROW(ldp::treehist_encode(b, "日本", rng));
  EXPECT_NO_THROW(ldp::treehist_encode(p, "", rng));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::treehist_encode_int(p, 5, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::treehist_encode(Protocol(HeavyDomain::Int64, 2, 1000), "5", rng); }));
}

// Without flips (ε = 700: a flip has probability 1/(1+e^350)), each bit is the count sketch's
// entry g_j(u)·H[r][h_j(u)] of the prefix at the drawn level and of the whole item, computed
// here from the conventions' hash.
TEST(HeavyEncoder, ReportsTheHadamardEntriesOfPrefixAndItem) {
  const ldp::HeavyProtocol p = Protocol(HeavyDomain::Alphabet, 700, 1000, 8, 16);
  auto entry = [](const std::string& u, int64_t j, int64_t r) {
    const int64_t h = static_cast<int64_t>(ldp::sketch_hash(u, static_cast<uint64_t>(2 * j)) % 16);
    const int g = (ldp::sketch_hash(u, static_cast<uint64_t>(2 * j + 1)) & 1) == 0 ? 1 : -1;
    const int H = (__builtin_popcountll(static_cast<uint64_t>(r & h)) & 1) == 0 ? 1 : -1;
    return g * H == 1;
  };
  ldp::SeededRandom rng(7);
  const std::string prefixes[] = {"", "ab", "abcd", "abcde"};
  int64_t per_level[4] = {0, 0, 0, 0};
  for (int i = 0; i < 600; ++i) {
    const ldp::HeavyReport r = ldp::treehist_encode(p, "abcde", rng);
    ASSERT_GE(r.level, 1);
    ASSERT_LE(r.level, 3);
    ASSERT_LT(r.hash_index, 8);
    ASSERT_LT(r.coefficient, 16);
    ++per_level[r.level];
    EXPECT_EQ(r.prefix_report, entry(prefixes[r.level], r.hash_index, r.coefficient));
    EXPECT_EQ(r.item_report, entry("abcde", r.hash_index, r.coefficient));
    EXPECT_EQ(r.prefix_report, ldp::count_sketch_entry(prefixes[r.level], r.hash_index, r.coefficient, 16));
  }
  for (int l = 1; l <= 3; ++l) EXPECT_GT(per_level[l], 150) << l;
  // At ε = 0.01 each bit is kept with probability e^0.005/(1+e^0.005) ≈ 0.50125.
  const ldp::HeavyProtocol noisy = Protocol(HeavyDomain::Alphabet, 0.01, 1000, 8, 16);
  int kept = 0;
  for (int i = 0; i < 4000; ++i) {
    const ldp::HeavyReport r = ldp::treehist_encode(noisy, "abcde", rng);
    kept += r.item_report == entry("abcde", r.hash_index, r.coefficient);
  }
  EXPECT_NEAR(kept / 4000.0, 0.5, 0.03);
}

// ---- the summary ----

// D = 2 levels of one character, t = 3 rows, m = 4: one report per row. FWHT of a single
// ±1 at column r is ±H[r][·], so row j's estimate is scale·g_j(u)·y_j·H[r_j][h_j(u)]
// with scale = t·c(ε/2) (final) or D·t·c(ε/2) (a prefix); the estimate is their median.
TEST(HeavySummary, HandComputedReportsAndEstimates) {
  const ldp::HeavyProtocol p = Protocol(HeavyDomain::Alphabet, 2, 100, 3, 4, 2, 1, "ab");
  Heavy s(p);
  const int64_t r[] = {1, 2, 3};
  const bool y_prefix[] = {true, false, true}, y_item[] = {false, true, true};
  for (int64_t j = 0; j < 3; ++j) ldp::heavy_add_report(s.get(), {1, j, r[j], y_prefix[j], y_item[j]});
  EXPECT_EQ(s->n, 3);
  EXPECT_EQ(s->counters()[0 * 4 + 1], 1);               // SP[1][0][1]
  EXPECT_EQ(s->counters()[1 * 4 + 2], -1);              // SP[1][1][2]
  EXPECT_EQ(s->counters()[2 * 3 * 4 + 0 * 4 + 1], -1);  // SF[0][1]
  EXPECT_EQ(s->counters()[2 * 3 * 4 + 2 * 4 + 3], 1);   // SF[2][3]
  auto expected = [&](const std::string& u, const bool* y, double scale) {
    std::vector<double> rows;
    for (int64_t j = 0; j < 3; ++j) {
      const int64_t h = static_cast<int64_t>(ldp::sketch_hash(u, static_cast<uint64_t>(2 * j)) % 4);
      const int g = (ldp::sketch_hash(u, static_cast<uint64_t>(2 * j + 1)) & 1) == 0 ? 1 : -1;
      const int H = (__builtin_popcountll(static_cast<uint64_t>(r[j] & h)) & 1) == 0 ? 1 : -1;
      rows.push_back(scale * g * (y[j] ? 1 : -1) * H);
    }
    std::sort(rows.begin(), rows.end());
    return rows[1];
  };
  const double c = C(1.0);
  PreparedHeavy prep(s);
  for (const std::string u : {"ab", "ba", "a", ""}) {
    EXPECT_NEAR(prep(u).count, expected(u, y_item, 3 * c), 1e-12) << u;
    EXPECT_NEAR(prep(u).std_error, c * std::sqrt(M_PI * 3 / 2), 1e-12);
  }
  for (const std::string u : {"a", "b", ""}) {
    EXPECT_NEAR(prep.prefix(u, 1).count, expected(u, y_prefix, 2 * 3 * c), 1e-12) << u;
    EXPECT_NEAR(prep.prefix(u, 1).std_error, c * std::sqrt(M_PI * 3 * 2 / 2), 1e-12);
  }
  EXPECT_EQ(prep.prefix("ab", 2).count, 0);  // no level-2 reports
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { prep("abc"); }));
}

TEST(HeavySummary, ImpossibleReportsAreRefusedAndCountNothing) {
  Heavy s(Protocol(HeavyDomain::Alphabet, 2, 100, 3, 4));
  const ldp::HeavyReport bad[] = {{0, 0, 0, true, true}, {4, 0, 0, true, true},  {1, -1, 0, true, true},
                                  {1, 3, 0, true, true}, {1, 0, -1, true, true}, {1, 0, 4, true, true}};
  for (const ldp::HeavyReport& r : bad)
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::heavy_add_report(s.get(), r); }));
  EXPECT_EQ(s->n, 0);
  for (int64_t i = 0; i < s->cells(); ++i) ASSERT_EQ(s->counters()[i], 0);
}

TEST(HeavySummary, MergeAddsAndRefusesOtherProtocols) {
  ldp::SeededRandom rng(3);
  const ldp::HeavyProtocol p = Protocol(HeavyDomain::Alphabet, 2, 100, 2, 8);
  Heavy a = ldp_test::simulate(p, {{"the", 20}, {"of", 5}}, rng);
  Heavy b = ldp_test::simulate(p, {{"and", 7}}, rng);
  Heavy sum = a;
  ldp::heavy_summary_merge(sum.get(), *b);
  EXPECT_EQ(sum->n, 32);
  for (int64_t i = 0; i < sum->cells(); ++i) ASSERT_EQ(sum->counters()[i], a->counters()[i] + b->counters()[i]);
  for (const ldp::HeavyProtocol& q :
       {Protocol(HeavyDomain::Alphabet, 1, 100, 2, 8), Protocol(HeavyDomain::Alphabet, 2, 101, 2, 8),
        Protocol(HeavyDomain::Alphabet, 2, 100, 2, 8, 0, 0, "abc")}) {
    Heavy other(q);
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::heavy_summary_merge(sum.get(), *other); }));
  }
  EXPECT_EQ(sum->n, 32);
}

TEST(HeavyHitters, EmptySummariesAndRefusals) {
  Heavy empty(Protocol(HeavyDomain::Alphabet, 2, 100, 2, 8));
  const ldp::HeavyHitters h = PreparedHeavy(empty).hitters();
  EXPECT_TRUE(h.items.empty());
  EXPECT_EQ(h.threshold, 0);
  ldp::SeededRandom rng(4);
  Heavy s = ldp_test::simulate(Protocol(HeavyDomain::Alphabet, 2, 100, 1, 2), {{"the", 30}, {"a", 10}}, rng);
  const PreparedHeavy prep(s);
  ldp::HeavyHittersQuery q;
  q.threshold = std::nan("");
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { prep.hitters(q); }));
  q.threshold = -1;
  q.noise_children = -1;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { prep.hitters(q); }));
  // τ = 0 keeps every prefix: 703 × 729 at level 2 is allowed, 512,487 × 729 at level 3 is not.
  q.noise_children = 8;
  q.threshold = 0;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { prep.hitters(q); }));
  q.threshold = 1e300;  // nothing passes
  EXPECT_TRUE(prep.hitters(q).items.empty());
}

// A max_length that is not a multiple of chars_per_level: the last level holds one
// character, so no returned item is longer than max_length; a pad ends an item.
TEST(HeavyHitters, ItemsFitMaxLengthAndPadsEndThem) {
  const ldp::HeavyProtocol p = Protocol(HeavyDomain::Alphabet, 6, 8000, 16, 64, 3, 2, "abcx");
  ldp::SeededRandom rng(12);
  Heavy s = ldp_test::simulate(p, {{"abc", 3000}, {"ab", 2000}, {"x", 1500}, {"", 1000}, {"cab", 500}}, rng);
  ldp::HeavyHittersQuery q;
  q.threshold = 700;
  const ldp::HeavyHitters h = PreparedHeavy(s).hitters(q);
  std::vector<std::string> got;
  for (const ldp::HeavyHitter& x : h.items) got.push_back(x.item);
  EXPECT_EQ(got, (std::vector<std::string>{"abc", "ab", "x", ""}));
  // level 1: 4 + 4·4 + 1 symbols; level 2 (one character left): 4 + 1 per open survivor
  EXPECT_EQ(h.candidates[0], 21);
}

// ---- forms ----


TEST(HeavyCodec, TextAndFixedBytes) {
  Heavy s(Protocol(HeavyDomain::Alphabet, 1, 10, 1, 2, 1, 1, "ab"));
  ldp::heavy_add_report(s.get(), {1, 0, 1, false, true});
  EXPECT_EQ(text_of(s),
            "v1:treehist{epsilon=1,domain=alphabet,alphabet=\"ab\",max_length=1,chars_per_level=1,levels=1,"
            "hashes=1,width=2,expected_users=10,n=1,prune=[0,-1],final=[0,1]}");
  // "LDPS", format 3, family 4 (heavy), mechanism 1, domain 1, epsilon, max_length,
  // chars_per_level, levels, hashes, width, expected_users, u16 alphabet bytes and the
  // alphabet, n, 1 byte per counter, the counters.
  EXPECT_EQ(ldp_test::hex(binary_of(s)),
            "4c445053"
            "03"
            "04"
            "01"
            "01"
            "3ff0000000000000"
            "0000000000000001"
            "0000000000000001"
            "0000000000000001"
            "0000000000000001"
            "0000000000000002"
            "000000000000000a"
            "0002"
            "6162"
            "0000000000000001"
            "01"
            "00"
            "ff"
            "00"
            "01");
}

TEST(HeavyCodec, RoundTripsOfEveryDomain) {
  ldp::SeededRandom rng(9);
  struct Case {
    ldp::HeavyProtocol p;
    std::vector<std::pair<std::string, int64_t>> pop;
  };
  const Case cases[] = {
      {Protocol(HeavyDomain::Alphabet, 1.25, 300, 4, 8), {{"the", 50}, {"you", 30}, {"", 3}}},
      {Protocol(HeavyDomain::Alphabet, 1, 300, 2, 4, 3, 1, "äö\"\\"), {{"ä\"", 9}, {"\\", 2}}},
      {Protocol(HeavyDomain::Bytes, 2, 300, 2, 4, 6), {{"日本", 10}, {"ab", 4}}},
  };
  for (const Case& c : cases) {
    Heavy s = ldp_test::simulate(c.p, c.pop, rng);
    for (const Heavy& back : {from_text(text_of(s)), from_binary(binary_of(s))}) ASSERT_EQ(back.buf, s.buf);
  }
  Heavy i(Protocol(HeavyDomain::Int64, 3, 300, 2, 4));
  for (int k = 0; k < 40; ++k) ldp::heavy_add_report(i.get(), ldp::treehist_encode_int(i->protocol, -k * 1000, rng));
  for (const Heavy& back : {from_text(text_of(i)), from_binary(binary_of(i))}) ASSERT_EQ(back.buf, i.buf);
  // wide counters: 2, 4 and 8 bytes each
  for (int64_t v : {int64_t{300}, int64_t{70000}, int64_t{1} << 33}) {
    Heavy w(Protocol(HeavyDomain::Alphabet, 1, 10, 1, 2, 1, 1, "ab"));
    w.get()->counters()[1] = -v;  // SP
    w.get()->counters()[2] = v;   // SF
    w.get()->n = v;
    EXPECT_EQ(from_binary(binary_of(w)).buf, w.buf) << v;
    EXPECT_EQ(from_text(text_of(w)).buf, w.buf) << v;
  }
}

TEST(HeavyCodec, MalformedFormsAreRefused) {
  const std::string head =
      "v1:treehist{epsilon=1,domain=alphabet,alphabet=\"ab\",max_length=1,chars_per_level=1,levels=1,hashes=1,"
      "width=2,expected_users=10,";
  auto bad_text = [](const std::string& t) { return ThrowsKind(ErrorKind::InvalidText, [&] { from_text(t); }); };
  EXPECT_NO_THROW(from_text(head + "n=3,prune=[0,-1],final=[1,0]}"));
  EXPECT_TRUE(bad_text(head + "n=1,prune=[0],final=[0,1]}"));      // short
  EXPECT_TRUE(bad_text(head + "n=1,prune=[0,1,0],final=[0,1]}"));  // long
  EXPECT_TRUE(bad_text(head + "n=1,prune=[0,-2],final=[0,1]}"));   // Σ|SP| > n
  EXPECT_TRUE(bad_text(head + "n=1,prune=[0,1],final=[1,1]}"));    // Σ|SF| > n
  EXPECT_TRUE(bad_text(head + "n=2,prune=[0,1],final=[0,0]}"));    // parity
  EXPECT_TRUE(bad_text(head + "n=-1,prune=[0,0],final=[0,0]}"));
  EXPECT_TRUE(bad_text(head + "n=1,prune=[0,1],final=[0,1]} "));
  EXPECT_TRUE(bad_text(head + "n=1,prune=[0,1]}"));
  EXPECT_TRUE(bad_text(head + "n=1,final=[0,1],prune=[0,1]}"));
  EXPECT_TRUE(
      bad_text("v1:treehist{epsilon=1,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=1024,width=4096,"
               "expected_users=10,n=0,prune=[0],final=[0]}"));  // over the bound: refused before allocating
  EXPECT_TRUE(
      bad_text("v1:treehist{epsilon=1,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=64,width=4096,"
               "expected_users=10,n=0,prune=[0],final=[0]}"));  // too short for its counters

  Heavy s(Protocol(HeavyDomain::Alphabet, 1, 10, 2, 4, 2, 1, "ab"));
  ldp::heavy_add_report(s.get(), {2, 1, 3, true, false});
  const std::vector<uint8_t> good = binary_of(s);
  auto bad_binary = [](const std::vector<uint8_t>& b) {
    return ThrowsKind(ErrorKind::InvalidBinary, [&] { from_binary(b); });
  };
  for (size_t len = 0; len < good.size(); ++len)
    EXPECT_TRUE(bad_binary(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<long>(len)))) << len;
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_TRUE(bad_binary(longer));
  std::vector<uint8_t> b = good;
  b[5] = 3;  // a sketch summary's header
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[4] = 2;  // format 2: never written for this family
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[6] = 9;  // mechanism
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[7] = 9;  // domain
  EXPECT_TRUE(bad_binary(b));
  const size_t fields = 6 + 2 + 8 * 7 + 2 + 2, width_at = fields + 8;
  ASSERT_EQ(good[width_at], 1);
  for (uint8_t w : {0, 3, 5, 7, 9, 16, 255}) {
    b = good;
    b[width_at] = w;
    EXPECT_TRUE(bad_binary(b)) << int(w);
  }
  b = good;
  b[width_at] = 2;  // claims 2 bytes per counter with the bytes of 1
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[good.size() - 1] = 3;  // SF = 3 > n = 1
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[6 + 2 + 8 * 4 + 7] = 0x40;  // hashes = 64: the length no longer matches
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[6 + 2 + 8 * 4 + 4] = 0x40;  // hashes = 2^30: over the bound
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[6 + 2 + 8 * 7 + 1] = 3;  // the alphabet's length
  EXPECT_TRUE(bad_binary(b));
}

// ---- PEM and SFP ----

TEST(HeavyProtocol, PemAndSfpDefaultsAndTextForms) {
  const ldp::HeavyProtocol pem = MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 1000000);
  EXPECT_EQ(pem.start_length, 0);
  EXPECT_EQ(pem.chars_per_level, 3);
  EXPECT_EQ(pem.levels, 2);
  EXPECT_EQ(pem.hashes, 64);
  EXPECT_EQ(pem.width, 4096);
  EXPECT_EQ(pem.sketches(), 2);
  EXPECT_EQ(pem.cells(), 2 * 64 * 4096);
  EXPECT_EQ(ldp::heavy_protocol_to_text(pem),
            "v1:pem{epsilon=2,domain=alphabet,alphabet=\"abcdefghijklmnopqrstuvwxyz\",max_length=6,start_length=0,"
            "chars_per_level=3,levels=2,hashes=64,width=4096,expected_users=1000000}");
  EXPECT_EQ(MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 10000000).hashes, 64);  // whatever n0
  EXPECT_EQ(MechProtocol(HeavyMechanism::PEM, HeavyDomain::Bytes, 2, 1000000).levels, 6);
  EXPECT_EQ(MechProtocol(HeavyMechanism::PEM, HeavyDomain::Int64, 2, 1000000).levels, 8);
  // s0 = 1, s = 3 for 6 characters: g = ceil(5/3) = 2, the last group's prefixes are whole items
  const ldp::HeavyProtocol odd = MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 1000, 4, 8, 6, 3, 1);
  EXPECT_EQ(odd.levels, 2);
  const ldp::HeavyProtocol sfp = MechProtocol(HeavyMechanism::SFP, HeavyDomain::Alphabet, 2, 1000000);
  EXPECT_EQ(sfp.chars_per_level, 2);
  EXPECT_EQ(sfp.levels, 3);
  EXPECT_EQ(sfp.sketches(), 4);
  EXPECT_EQ(ldp::heavy_protocol_to_text(sfp),
            "v1:sfp{epsilon=2,domain=alphabet,alphabet=\"abcdefghijklmnopqrstuvwxyz\",max_length=6,"
            "chars_per_level=2,levels=3,hashes=64,width=4096,expected_users=1000000}");
  EXPECT_EQ(MechProtocol(HeavyMechanism::SFP, HeavyDomain::Int64, 2, 1000000).levels, 8);
  for (const ldp::HeavyProtocol& p : {pem, odd, sfp, MechProtocol(HeavyMechanism::SFP, HeavyDomain::Bytes, 1, 50)}) {
    const std::string t = ldp::heavy_protocol_to_text(p);
    EXPECT_TRUE(ldp::same_heavy_protocol(ldp::heavy_protocol_from_text(t.c_str()), p)) << t;
  }
  EXPECT_FALSE(ldp::same_heavy_protocol(pem, odd));
  auto bad = [](auto f) { return ThrowsKind(ErrorKind::InvalidParameter, f); };
  EXPECT_TRUE(bad([] { MechProtocol(static_cast<HeavyMechanism>(5), HeavyDomain::Alphabet, 2, 1000); }));
  EXPECT_TRUE(bad([] { MechProtocol(HeavyMechanism::TreeHist, HeavyDomain::Alphabet, 2, 1000, 0, 0, 6, 2, 1); }));
  EXPECT_TRUE(bad([] { MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 1000, 0, 0, 6, 2, 6); }));
  EXPECT_TRUE(bad([] { MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 1000, 0, 0, 6, 2, -2); }));
  // PEM: 27^5 strings in group 0, over kMaxHeavyCandidates; int64 with s0 = 2: 256³
  EXPECT_TRUE(bad([] { MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 1000, 0, 0, 6, 3, 2); }));
  EXPECT_TRUE(bad([] { MechProtocol(HeavyMechanism::PEM, HeavyDomain::Int64, 2, 1000, 0, 0, 8, 1, 2); }));
  EXPECT_NO_THROW(MechProtocol(HeavyMechanism::PEM, HeavyDomain::Int64, 2, 1000, 0, 0, 8, 1, 1));
  // SFP: 256 · 27³ fragments a position, over kMaxHeavyCandidates
  EXPECT_TRUE(bad([] { MechProtocol(HeavyMechanism::SFP, HeavyDomain::Alphabet, 2, 1000, 0, 0, 6, 3); }));
  const char* bad_text[] = {
      // no start_length, a start_length where it does not belong, out of range
      "v1:pem{epsilon=2,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=2,width=4,expected_users=5}",
      "v1:sfp{epsilon=2,domain=int64,max_length=8,start_length=0,chars_per_level=1,levels=8,hashes=2,width=4,"
      "expected_users=5}",
      "v1:pem{epsilon=2,domain=int64,max_length=8,start_length=8,chars_per_level=1,levels=0,hashes=2,width=4,"
      "expected_users=5}",
      "v1:pem{epsilon=2,domain=int64,max_length=8,start_length=70000,chars_per_level=1,levels=8,hashes=2,width=4,"
      "expected_users=5}",
      "v1:pem{epsilon=2,domain=int64,max_length=8,start_length=1,chars_per_level=1,levels=8,hashes=2,width=4,"
      "expected_users=5}",  // levels must be 7
      "v1:sfp{epsilon=2,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=2,width=3,expected_users=5}",
  };
  for (const char* t : bad_text)
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { ldp::heavy_protocol_from_text(t); })) << t;
  EXPECT_NO_THROW(ldp::heavy_protocol_from_text(
      "v1:pem{epsilon=2,domain=int64,max_length=8,start_length=1,chars_per_level=1,levels=7,hashes=2,width=4,"
      "expected_users=5}"));
}

// Without flips (ε = 700: SFP's ε/2 flips with probability 1/(1+e^350)), each report is the
// HCMS entry H[l][h_j(u)] of what it reports, computed here from the conventions' hash: PEM
// the group's prefix, SFP the hash byte followed by the fragment, and the word.
TEST(HeavyEncoder, PemAndSfpReportTheirHcmsEntries) {
  auto entry = [](const std::string& u, int64_t j, int64_t l, int64_t m) {
    const auto h = static_cast<int64_t>(ldp::sketch_hash(u, static_cast<uint64_t>(j)) % static_cast<uint64_t>(m));
    return (__builtin_popcountll(static_cast<uint64_t>(l & h)) & 1) == 0;
  };
  ldp::SeededRandom rng(17);
  const ldp::HeavyProtocol pem = MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 700, 1000, 8, 16, 7, 2, 1);
  ASSERT_EQ(pem.levels, 3);  // prefixes of 3, 5 and 7 characters
  const std::string prefixes[] = {"abc", "abcde", "abcde"};
  int64_t per_group[3] = {0, 0, 0};
  for (int i = 0; i < 600; ++i) {
    const ldp::PemReport r = ldp::pem_encode(pem, "abcde", rng);
    ASSERT_GE(r.group, 0);
    ASSERT_LT(r.group, 3);
    ASSERT_LT(r.hash_index, 8);
    ASSERT_LT(r.coefficient, 16);
    ++per_group[r.group];
    EXPECT_EQ(r.report, entry(prefixes[r.group], r.hash_index, r.coefficient, 16));
    EXPECT_EQ(r.report, ldp::hcms_entry(prefixes[r.group], r.hash_index, r.coefficient, 16));
  }
  for (int64_t g : per_group) EXPECT_GT(g, 150);
  const ldp::HeavyProtocol sfp = MechProtocol(HeavyMechanism::SFP, HeavyDomain::Alphabet, 700, 1000, 8, 16, 5, 2);
  ASSERT_EQ(sfp.levels, 3);  // fragments "ab", "cd", "e" (s need not divide L)
  const std::string word = "abcde", fragments[] = {"ab", "cd", "e"};
  const char hash = static_cast<char>(ldp::sketch_hash(word, ldp::kSfpHashSeed) & 255);
  int64_t per_position[3] = {0, 0, 0};
  for (int i = 0; i < 600; ++i) {
    const ldp::SfpReport r = ldp::sfp_encode(sfp, word, rng);
    ASSERT_EQ(r.position % 2, 0);
    ASSERT_GE(r.position, 0);
    ASSERT_LT(r.position, 5);
    ++per_position[r.position / 2];
    EXPECT_EQ(r.fragment_report,
              entry(std::string(1, hash) + fragments[r.position / 2], r.hash_index, r.coefficient, 16));
    EXPECT_EQ(r.word_report, entry(word, r.word_hash_index, r.word_coefficient, 16));
  }
  for (int64_t p : per_position) EXPECT_GT(p, 150);
  // the int64 domain: the 8 big-endian bytes
  const ldp::HeavyProtocol ints = MechProtocol(HeavyMechanism::PEM, HeavyDomain::Int64, 700, 1000, 8, 16);
  const ldp::PemReport r = ldp::pem_encode_int(ints, 258, rng);
  EXPECT_EQ(r.report,
            entry(std::string("\0\0\0\0\0\0\1\2", static_cast<size_t>(r.group) + 1), r.hash_index, r.coefficient, 16));
  // the encoders take their own mechanism's protocol, and the alphabet's items only
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::pem_encode(sfp, "ab", rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sfp_encode(pem, "ab", rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::sfp_encode(sfp, "abcdef", rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::pem_encode(pem, "aB", rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::pem_encode_int(pem, 1, rng); }));
}

// g = 2 groups (PEM) or P = 2 positions (SFP), t = 2 rows, m = 4. The FWHT of one ±1 at
// column l is ±H[l][·], so an estimate is scale·(m/(m-1))·(c·Σ_j y_j·H[l_j][h_j(u)] -
// reports/m), scale and reports as heavy_summary.hpp states them.
TEST(HeavySummary, PemAndSfpHandComputedReportsAndEstimates) {
  const int64_t l[] = {1, 3};
  const bool y[] = {true, false};
  auto expected = [&](const std::string& u, double eps, double reports, double scale) {
    double sum = 0;
    for (int64_t j = 0; j < 2; ++j) {
      const int64_t h = static_cast<int64_t>(ldp::sketch_hash(u, static_cast<uint64_t>(j)) % 4);
      sum += (y[j] ? 1 : -1) * ((__builtin_popcountll(static_cast<uint64_t>(l[j] & h)) & 1) == 0 ? 1 : -1);
    }
    return scale * 4.0 / 3.0 * (C(eps) * sum - reports / 4);
  };
  const ldp::HeavyProtocol pp = MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 100, 2, 4, 2, 1, 0);
  Heavy pem(pp);
  for (int64_t j = 0; j < 2; ++j) ldp::pem_add_report(pem.get(), {0, j, l[j], y[j]});
  EXPECT_EQ(pem->n, 2);
  EXPECT_EQ(pem->counters()[1], 1);   // G[0][0][1]
  EXPECT_EQ(pem->counters()[7], -1);  // G[0][1][3]
  PreparedHeavy prep(pem);
  const double sigma_pem = C(2) * std::sqrt(2.0 * 2);
  for (const std::string u : {"az", "b", ""}) {
    EXPECT_NEAR(prep.prefix(u, 1).count, expected(u.substr(0, 1), 2, 1, 2), 1e-12) << u;
    EXPECT_NEAR(prep.prefix(u, 1).std_error, sigma_pem, 1e-12);
  }
  EXPECT_NEAR(prep("ab").count, 2 * 4.0 / 3.0 * -0.25, 1e-12);  // no group-1 reports
  EXPECT_NEAR(prep("ab").std_error, sigma_pem, 1e-12);

  const ldp::HeavyProtocol sp = MechProtocol(HeavyMechanism::SFP, HeavyDomain::Alphabet, 2, 100, 2, 4, 2, 1);
  Heavy sfp(sp);
  for (int64_t j = 0; j < 2; ++j) ldp::sfp_add_report(sfp.get(), {0, j, l[j], y[j], j, l[j], y[j]});
  EXPECT_EQ(sfp->counters()[1], 1);    // F[0][0][1]
  EXPECT_EQ(sfp->counters()[7], -1);   // F[0][1][3]
  EXPECT_EQ(sfp->counters()[17], 1);   // W[0][1]
  EXPECT_EQ(sfp->counters()[23], -1);  // W[1][3]
  PreparedHeavy sprep(sfp);
  for (const std::string u : {"ab", "b", "zz", ""}) {
    const std::string key =
        std::string(1, static_cast<char>(ldp::sketch_hash(u, ldp::kSfpHashSeed) & 255)) + u.substr(0, 1);
    EXPECT_NEAR(sprep.prefix(u, 1).count, expected(key, 1, 1, 2), 1e-12) << u;
    EXPECT_NEAR(sprep.prefix(u, 1).std_error, C(1) * std::sqrt(2.0 * 2), 1e-12);
    EXPECT_NEAR(sprep(u).count, expected(u, 1, 2, 1), 1e-12) << u;
    EXPECT_NEAR(sprep(u).std_error, C(1) * std::sqrt(2.0), 1e-12);
  }
}

TEST(HeavySummary, PemAndSfpImpossibleReportsAndOtherMechanismsAreRefused) {
  Heavy pem(MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 100, 3, 4));        // g = 2
  Heavy sfp(MechProtocol(HeavyMechanism::SFP, HeavyDomain::Alphabet, 2, 100, 3, 4, 5, 2));  // P = 3
  Heavy tree(Protocol(HeavyDomain::Alphabet, 2, 100, 3, 4));
  const ldp::PemReport bad_pem[] = {{-1, 0, 0, true}, {2, 0, 0, true},  {0, -1, 0, true},
                                    {0, 3, 0, true},  {0, 0, -1, true}, {0, 0, 4, true}};
  for (const ldp::PemReport& r : bad_pem)
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::pem_add_report(pem.get(), r); }));
  const ldp::SfpReport bad_sfp[] = {{-2, 0, 0, true, 0, 0, true}, {1, 0, 0, true, 0, 0, true},
                                    {6, 0, 0, true, 0, 0, true},  {0, 3, 0, true, 0, 0, true},
                                    {0, 0, 4, true, 0, 0, true},  {0, 0, 0, true, -1, 0, true},
                                    {0, 0, 0, true, 0, 4, true},  {4, 0, 0, true, 3, 0, true}};
  for (const ldp::SfpReport& r : bad_sfp)
    EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::sfp_add_report(sfp.get(), r); }));
  EXPECT_NO_THROW(ldp::sfp_add_report(sfp.get(), {4, 2, 3, true, 2, 3, false}));  // the last, partial position
  EXPECT_EQ(pem->n, 0);
  EXPECT_EQ(sfp->n, 1);
  for (int64_t i = 0; i < pem->cells(); ++i) ASSERT_EQ(pem->counters()[i], 0);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::pem_add_report(sfp.get(), {0, 0, 0, true}); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] {
    ldp::sfp_add_report(tree.get(), {0, 0, 0, true, 0, 0, true});
  }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] {
    ldp::heavy_add_report(pem.get(), {1, 0, 0, true, true});
  }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::heavy_summary_merge(pem.get(), *sfp); }));
}

TEST(HeavyCodec, PemAndSfpTextBinaryAndRefusals) {
  Heavy pem(MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 1, 10, 1, 2, 3, 1, 1, "ab"));  // g = 2
  ldp::pem_add_report(pem.get(), {1, 0, 1, false});
  const std::string pem_text =
      "v1:pem{epsilon=1,domain=alphabet,alphabet=\"ab\",max_length=3,start_length=1,chars_per_level=1,levels=2,"
      "hashes=1,width=2,expected_users=10,n=1,groups=[0,0,0,-1]}";
  EXPECT_EQ(text_of(pem), pem_text);
  // as TreeHist's body (HeavyCodec.TextAndFixedBytes), with i64 start_length after
  // expected_users: mechanism 3, domain 1, ..., start_length 1, the alphabet, n, width, counters
  EXPECT_EQ(ldp_test::hex(binary_of(pem)),
            "4c445053030403013ff0000000000000"
            "0000000000000003000000000000000100000000000000020000000000000001"
            "0000000000000002000000000000000a0000000000000001"
            "00026162"
            "000000000000000101"
            "000000ff");
  Heavy sfp(MechProtocol(HeavyMechanism::SFP, HeavyDomain::Alphabet, 1, 10, 1, 2, 1, 1));  // P = 1
  ldp::sfp_add_report(sfp.get(), {0, 0, 1, true, 0, 0, false});
  const std::string sfp_text =
      "v1:sfp{epsilon=1,domain=alphabet,alphabet=\"abcdefghijklmnopqrstuvwxyz\",max_length=1,chars_per_level=1,"
      "levels=1,hashes=1,width=2,expected_users=10,n=1,fragments=[0,1],word=[-1,0]}";
  EXPECT_EQ(text_of(sfp), sfp_text);
  for (const Heavy* h : {&pem, &sfp}) {
    EXPECT_EQ(from_text(text_of(*h)).buf, h->buf);
    EXPECT_EQ(from_binary(binary_of(*h)).buf, h->buf);
  }
  ldp::SeededRandom rng(19);
  const std::pair<ldp::HeavyProtocol, std::vector<std::pair<std::string, int64_t>>> cases[] = {
      {MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 1.5, 300, 4, 8), {{"the", 50}, {"you", 30}, {"", 3}}},
      {MechProtocol(HeavyMechanism::PEM, HeavyDomain::Bytes, 2, 300, 2, 4, 6, 1, 1), {{"日本", 10}, {"ab", 4}}},
      {MechProtocol(HeavyMechanism::SFP, HeavyDomain::Alphabet, 1, 300, 4, 8, 5), {{"abcde", 9}, {"z", 2}}},
      {MechProtocol(HeavyMechanism::SFP, HeavyDomain::Bytes, 2, 300, 2, 4), {{"né", 10}, {"", 4}}},
  };
  for (const auto& [p, pop] : cases) {
    Heavy s = ldp_test::simulate(p, pop, rng);
    for (const Heavy& back : {from_text(text_of(s)), from_binary(binary_of(s))}) ASSERT_EQ(back.buf, s.buf);
  }
  auto bad_text = [](const std::string& t) { return ThrowsKind(ErrorKind::InvalidText, [&] { from_text(t); }); };
  const std::string pem_head = pem_text.substr(0, pem_text.find("n=1"));
  EXPECT_TRUE(bad_text(pem_head + "n=1,groups=[0,0,1,-1]}"));          // Σ|G| > n
  EXPECT_TRUE(bad_text(pem_head + "n=2,groups=[0,0,0,-1]}"));          // parity
  EXPECT_TRUE(bad_text(pem_head + "n=1,groups=[0,0,-1]}"));            // short
  EXPECT_TRUE(bad_text(pem_head + "n=1,prune=[0,0,0,-1]}"));           // TreeHist's array
  EXPECT_TRUE(bad_text(pem_head + "n=1,groups=[0,0,0,-1],word=[]}"));  // a block it has not
  const std::string sfp_head = sfp_text.substr(0, sfp_text.find("n=1"));
  EXPECT_TRUE(bad_text(sfp_head + "n=1,fragments=[0,1]}"));              // no word oracle
  EXPECT_TRUE(bad_text(sfp_head + "n=1,fragments=[0,1],word=[1,1]}"));   // Σ|W| > n
  EXPECT_TRUE(bad_text(sfp_head + "n=1,fragments=[0,0],word=[-1,0]}"));  // parity of F
  EXPECT_TRUE(bad_text(sfp_head + "n=1,word=[-1,0],fragments=[0,1]}"));
  auto bad_binary = [](const std::vector<uint8_t>& b) {
    return ThrowsKind(ErrorKind::InvalidBinary, [&] { from_binary(b); });
  };
  const std::vector<uint8_t> good = binary_of(pem);
  for (size_t len = 0; len < good.size(); ++len)
    EXPECT_TRUE(bad_binary(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<long>(len)))) << len;
  std::vector<uint8_t> b = good;
  b[6] = 2;  // bitstogram: start_length read as buckets, hashes * width not its K
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[6] = 5;  // unknown
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[6] = 1;  // read as TreeHist, start_length is taken for the alphabet's length
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[6 + 2 + 8 * 7 + 7] = 3;  // start_length = max_length
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[6 + 2 + 8 * 7 + 5] = 1;  // start_length = 2^16 + 6
  EXPECT_TRUE(bad_binary(b));
  b = good;
  b[good.size() - 1] = 0;  // parity: n = 1, Σ|G| = 0
  EXPECT_TRUE(bad_binary(b));
}

// Each mechanism's default protocol over UTF-8 bytes and 64-bit integers, at n = 10^5
// with four heavy items and one-holder filler: every item with f >= τ + 3σ_P found,
// nothing with f <= τ - 3σ returned; items are text without ends, integers in decimal.
TEST(HeavyHitters, PemAndSfpFindHeavyItemsOfEveryDomain) {
  const int64_t heavy[] = {20000, 17000, 15000, 12000};
  const std::string words[] = {"日本", "né", "ab", ""};
  const int64_t ints[] = {-5, 1099511627776, 7, INT64_MIN};
  for (HeavyMechanism mech : {HeavyMechanism::PEM, HeavyMechanism::SFP})
    for (HeavyDomain dom : {HeavyDomain::Bytes, HeavyDomain::Int64}) {
      const ldp::HeavyProtocol p = MechProtocol(mech, dom, 2, 100000);
      ldp::SeededRandom rng(23);
      Heavy s(p);
      std::vector<std::string> truth;
      for (int k = 0; k < 4; ++k) {
        truth.push_back(dom == HeavyDomain::Int64 ? std::to_string(ints[k]) : words[k]);
        for (int64_t u = 0; u < heavy[k]; ++u) {
          if (dom == HeavyDomain::Bytes) {
            ldp_test::report(s, words[k], rng);
          } else if (mech == HeavyMechanism::PEM) {
            ldp::pem_add_report(s.get(), ldp::pem_encode_int(p, ints[k], rng));
          } else {
            ldp::sfp_add_report(s.get(), ldp::sfp_encode_int(p, ints[k], rng));
          }
        }
      }
      for (int64_t u = 0; u < 36000; ++u) {  // filler, distinct
        if (dom == HeavyDomain::Bytes) {
          ldp_test::report(s, std::to_string(100000 + u), rng);
        } else if (mech == HeavyMechanism::PEM) {
          ldp::pem_add_report(s.get(), ldp::pem_encode_int(p, static_cast<int64_t>(rng.next_u64()), rng));
        } else {
          ldp::sfp_add_report(s.get(), ldp::sfp_encode_int(p, static_cast<int64_t>(rng.next_u64()), rng));
        }
      }
      const ldp::HeavyHitters h = PreparedHeavy(s).hitters();
      const double n = static_cast<double>(s->n);
      EXPECT_EQ(h.threshold, 30 * std::sqrt(n));
      std::printf("%s %s: τ %.0f = %.2f σ_P, σ_F %.0f; returned", ldp::heavy_mechanism_name(mech),
                  ldp::heavy_domain_name(dom), h.threshold, h.threshold_in_se, h.sigma_final);
      for (const ldp::HeavyHitter& x : h.items) std::printf(" '%s' %.0f", x.item.c_str(), x.count);
      std::printf("\n");
      for (int k = 0; k < 4; ++k) {
        const bool must = static_cast<double>(heavy[k]) >= h.threshold + 3 * h.sigma_prune;
        const bool found = std::any_of(h.items.begin(), h.items.end(), [&](const ldp::HeavyHitter& x) {
          return x.item == truth[static_cast<size_t>(k)];
        });
        if (must) {
          EXPECT_TRUE(found) << truth[static_cast<size_t>(k)];
        }
      }
      for (const ldp::HeavyHitter& x : h.items) {
        EXPECT_NE(std::find(truth.begin(), truth.end(), x.item), truth.end()) << x.item;  // filler: f = 1
        if (dom == HeavyDomain::Int64) {
          EXPECT_EQ(x.item, std::to_string(x.integer));
        }
      }
      EXPECT_GE(h.items.size(), 2u);
    }
}

// A threshold of 0 keeps about half of all noise: PEM's second group would query half
// of 18,279 survivors × 18,279, SFP's products half of 729 fragments per hash value and
// position, cubed, times 256: both past kMaxHeavyCandidates, refused. An empty summary
// returns nothing; a negative noise_children is refused.
TEST(HeavyHitters, PemAndSfpRefuseCandidateSetsPastTheBound) {
  for (HeavyMechanism mech : {HeavyMechanism::PEM, HeavyMechanism::SFP}) {
    const ldp::HeavyProtocol p = MechProtocol(mech, HeavyDomain::Alphabet, 2, 2000, 4, 64);
    Heavy empty(p);
    EXPECT_TRUE(PreparedHeavy(empty).hitters().items.empty());
    ldp::SeededRandom rng(29);
    Heavy s = ldp_test::simulate(p, {{"the", 1000}, {"of", 1000}}, rng);
    const PreparedHeavy prep(s);
    ldp::HeavyHittersQuery zero;
    zero.threshold = 0;
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { prep.hitters(zero); }))
        << ldp::heavy_mechanism_name(mech);
    ldp::HeavyHittersQuery negative;
    negative.noise_children = -1;
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { prep.hitters(negative); }));
  }
}

}  // namespace

// An alphabet holding U+0000 (test/fuzz.sh's finding: a binary protocol with the
// alphabet "a\0c" was read, and its text form, cut at the NUL, did not read back) is
// refused by the builder and by the binary form.
TEST(HeavyProtocol, AlphabetWithoutNul) {
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [] {
    Protocol(HeavyDomain::Alphabet, 1, 100, 1, 2, 2, 1, std::string("a\0c", 3));
  }));
  const ldp::HeavyProtocol p = Protocol(HeavyDomain::Alphabet, 1, 100, 1, 2, 2, 1, "abc");
  std::vector<uint8_t> b(ldp::heavy_protocol_binary_size(p));
  ldp::heavy_protocol_to_binary(p, b.data(), b.size());
  EXPECT_TRUE(ldp::same_heavy_protocol(ldp::heavy_protocol_from_binary(b.data(), b.size()), p));
  b[b.size() - 2] = 0;  // "abc" -> "a\0c"
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { ldp::heavy_protocol_from_binary(b.data(), b.size()); }));
}
