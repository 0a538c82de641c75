// The range family's summary (core/range/range_summary.hpp): the protocol's forms, adding
// reports and their refusals, the memory cap, the text and binary forms with every
// damaged form refused, merges, and the prepared decode against HaarDecoded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/stored_form.hpp"
#include "core/range/haar.hpp"
#include "core/range/range_protocol.hpp"
#include "core/range/range_quantile.hpp"
#include "core/range/range_summary.hpp"
#include "range_test_support.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::RangeMapping;
using ldp::RangeProtocol;
using ldp_test::Range;
using ldp_test::RangeDecode;
using ldp_test::range_protocol;
using ldp_test::ThrowsKind;

RangeProtocol mapped(RangeMapping m, double lo, double hi, int k = 10) {
  RangeProtocol p = range_protocol(k, 1);
  p.mapping = m;
  p.lo = lo;
  p.hi = hi;
  return p;
}

TEST(RangeProtocolForms, TextAndBinaryRoundTrip) {
  const std::vector<std::pair<RangeProtocol, std::string>> cases = {
      {range_protocol(16, 1), "v1:haar{epsilon=1,domain_bits=16,mapping=floor}"},
      {mapped(RangeMapping::Linear, -2.5, 100), "v1:haar{epsilon=1,domain_bits=10,mapping=linear,lo=-2.5,hi=100}"},
      {mapped(RangeMapping::Log, 0.1, 60000, 24), "v1:haar{epsilon=1,domain_bits=24,mapping=log,lo=0.1,hi=60000}"},
  };
  for (const auto& [p, text] : cases) {
    EXPECT_EQ(ldp::range_protocol_to_text(p), text);
    const RangeProtocol q = ldp::range_protocol_from_text(text.c_str());
    EXPECT_TRUE(ldp::same_range_protocol(p, q)) << text;
    std::vector<uint8_t> bin(ldp::range_protocol_binary_size(p));
    ldp::range_protocol_to_binary(p, bin.data(), bin.size());
    EXPECT_TRUE(ldp::same_range_protocol(p, ldp::range_protocol_from_binary(bin.data(), bin.size()))) << text;
  }
  RangeProtocol e = range_protocol(8, 0.30000000000000004);
  EXPECT_EQ(ldp::range_protocol_from_text(ldp::range_protocol_to_text(e).c_str()).epsilon, e.epsilon);
}

TEST(RangeProtocolForms, MalformedFormsAreRefused) {
  for (const char* bad : {
           "v1:haar{epsilon=1,domain_bits=16}",                                   // no mapping
           "v1:haar{epsilon=1,domain_bits=16,mapping=floor,lo=0,hi=1}",          // bounds of floor
           "v1:haar{epsilon=1,domain_bits=16,mapping=cubic}",                    // unknown mapping
           "v1:haar{epsilon=1,domain_bits=16,mapping=linear}",                   // no bounds
           "v1:haar{epsilon=1,domain_bits=16,mapping=linear,lo=5,hi=5}",         // lo = hi
           "v1:haar{epsilon=1,domain_bits=16,mapping=log,lo=0,hi=5}",            // log from 0
           "v1:haar{epsilon=1,domain_bits=5,mapping=log,lo=5e-324,hi=1e+06}",    // hi/lo overflows (the fuzzer's)
           "v1:haar{epsilon=1,domain_bits=0,mapping=floor}",                     // no domain
           "v1:haar{epsilon=1,domain_bits=25,mapping=floor}",                    // past 24
           "v1:haar{epsilon=1,domain_bits=99999999999999999999,mapping=floor}",  // past bigint
           "v1:haar{epsilon=0,domain_bits=16,mapping=floor}",                    // ε
           "v1:haar{epsilon=nan,domain_bits=16,mapping=floor}",
           "v1:hh{epsilon=1,domain_bits=16,mapping=floor}",                      // unknown mechanism
           "v1:haar{epsilon=1,domain_bits=16,mapping=floor}x",                   // trailing
           "v2:haar{epsilon=1,domain_bits=16,mapping=floor}",
       })
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { ldp::range_protocol_from_text(bad); })) << bad;
  uint8_t good[35];
  ASSERT_EQ(ldp::range_protocol_binary_size(range_protocol(16, 1)), sizeof good);
  ldp::range_protocol_to_binary(range_protocol(16, 1), good, sizeof good);
  auto refused = [&](std::vector<uint8_t> b) {
    return ThrowsKind(ErrorKind::InvalidBinary, [&] { ldp::range_protocol_from_binary(b.data(), b.size()); });
  };
  std::vector<uint8_t> b(good, good + sizeof good);
  EXPECT_TRUE(refused({}));
  EXPECT_TRUE(refused(std::vector<uint8_t>(b.begin(), b.end() - 1)));  // truncated
  std::vector<uint8_t> t = b;
  t.push_back(0);
  EXPECT_TRUE(refused(t));  // trailing
  t = b;
  t[0] = 2;
  EXPECT_TRUE(refused(t));  // version
  t = b;
  t[1] = 9;
  EXPECT_TRUE(refused(t));  // mechanism
  t = b;
  t[2] = 7;
  EXPECT_TRUE(refused(t));  // mapping
  t = b;
  t[3 + 8 + 7] = 25;
  EXPECT_TRUE(refused(t));  // domain_bits
  t = b;
  t[3 + 16 + 7] = 1;
  EXPECT_TRUE(refused(t));  // a floor protocol with a bound
  t = b;
  t[3 + 16] = 0x80;
  EXPECT_TRUE(refused(t));  // ... or with lo = -0 (the fuzzer's: the text form has no bounds to say it)
}

TEST(RangeSummary, HandComputedReportsAndText) {
  Range r(range_protocol(2, 1));
  ldp::range_add_report(r.get(), 0, 0, true);
  ldp::range_add_report(r.get(), 1, 1, false);
  ldp::range_add_report(r.get(), 1, 1, false);
  ldp::range_add_report(r.get(), 1, 0, true);
  EXPECT_EQ(r->n, 4);
  EXPECT_EQ(r.text(), "v1:haar{epsilon=1,domain_bits=2,mapping=floor,n=4,levels=[1,3],sums=[1,1,-2]}");
  EXPECT_EQ(Range::from_text(r.text()).text(), r.text());
  EXPECT_EQ(Range::from_binary(r.binary()).text(), r.text());
  // header, fields (34 bytes), n, width 1, then 2 + 3 one-byte counters
  const std::vector<uint8_t> bin = r.binary();
  ASSERT_EQ(bin.size(), ldp::kStoredHeaderSize + 34 + 8 + 1 + 5);
  EXPECT_EQ(bin[4], ldp::kStoredFormatCompact);
  EXPECT_EQ(bin[5], static_cast<uint8_t>(ldp::Family::Range));
  EXPECT_EQ(bin[6 + 34 + 8], 1);
  EXPECT_EQ(static_cast<int8_t>(bin.back()), -2);
}

TEST(RangeSummary, ImpossibleReportsAreRefusedAndCountNothing) {
  Range r(range_protocol(4, 1));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::range_add_report(r.get(), 4, 0, true); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::range_add_report(r.get(), -1, 0, true); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::range_add_report(r.get(), 2, 4, true); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::range_add_report(r.get(), 2, -1, true); }));
  EXPECT_EQ(r->n, 0);
  for (int64_t i = 0; i < r->cells(); ++i) EXPECT_EQ(r->counters()[i], 0);
  r->n = INT64_MAX;
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::range_add_report(r.get(), 0, 0, true); }));
}

// k = 22 is the widest summary (32 MiB of counters); wider ones are refused before
// anything is allocated, by the size (54000 in the server) and by the forms (22P02, 22P03).
TEST(RangeSummary, DomainsPastTheCapAreRefusedBeforeAllocating) {
  EXPECT_EQ(ldp::range_summary_size(range_protocol(22, 1)),
            sizeof(ldp::RangeSummary) + 8 * (22 + (size_t{1} << 22) - 1));
  for (int k : {23, 24})
    EXPECT_TRUE(ThrowsKind(ErrorKind::LimitExceeded, [&] { ldp::range_summary_size(range_protocol(k, 1)); })) << k;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_summary_size(range_protocol(25, 1)); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] {
    ldp::range_summary_parse_size("v1:haar{epsilon=1,domain_bits=23,mapping=floor,n=0,levels=[],sums=[]}");
  }));
  // a binary form of k = 2 whose domain_bits byte says 24
  Range r(range_protocol(2, 1));
  std::vector<uint8_t> b = r.binary();
  b[6 + 2 + 8 + 7] = 24;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { ldp::range_summary_binary_parse_size(b.data(), b.size()); }));
}

TEST(RangeSummary, RoundTripsAndCompactWidths) {
  for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{300}, int64_t{70000}}) {
    const Range r = ldp_test::simulate_range(mapped(RangeMapping::Log, 1, 1000, 5), n, 11 + n,
                                              [](int64_t i) { return 1.0 + static_cast<double>(i % 997); });
    EXPECT_EQ(r->n, n);
    const Range t = Range::from_text(r.text()), b = Range::from_binary(r.binary());
    EXPECT_EQ(t.text(), r.text());
    EXPECT_EQ(b.text(), r.text());
    EXPECT_EQ(0, std::memcmp(b->counters(), r->counters(), 8 * static_cast<size_t>(r->cells())));
    // the width holds the largest counter, a level's report count (about n/k)
    int64_t largest = 0;
    for (int64_t i = 0; i < r->cells(); ++i) largest = std::max<int64_t>(largest, std::llabs(r->counters()[i]));
    const int width = r.binary()[6 + 34 + 8];
    EXPECT_EQ(width, largest < 128 ? 1 : largest < 32768 ? 2 : 4) << n;
    if (n == 70000) EXPECT_EQ(width, 2);
  }
}

// Each check of the reader, by a form that breaks it alone.
TEST(RangeSummary, DamagedTextFormsAreRefused) {
  const std::string head = "v1:haar{epsilon=1,domain_bits=2,mapping=floor,";
  for (const char* body : {
           "n=-4,levels=[1,3],sums=[1,1,-2]}",   // negative n
           "n=4,levels=[-1,5],sums=[1,1,-2]}",   // a negative level count
           "n=4,levels=[1,2],sums=[1,1,-2]}",    // Σ n_j != n
           "n=4,levels=[2,3],sums=[1,1,-2]}",    // a level count past n
           "n=4,levels=[1,3],sums=[1,2,-2]}",    // |S| past level 1's 3 reports
           "n=4,levels=[1,3],sums=[3,1,-2]}",    // |S| past level 0's 1 report
           "n=4,levels=[1,3],sums=[0,1,-2]}",    // level 0: 1 - 0 is odd
           "n=4,levels=[1,3],sums=[1,1,-1]}",    // level 1: 3 - 2 is odd
           "n=4,levels=[1,3],sums=[1,1]}",       // too few sums
           "n=4,levels=[1,3],sums=[1,1,-2,0]}",  // too many
           "n=4,levels=[1,3,0],sums=[1,1,-2]}",  // too many levels
           "n=4,sums=[1,1,-2],levels=[1,3]}",    // out of order
           "n=4,levels=[1,3],sums=[1,1,-2]",     // no end
           "n=4,levels=[1,3]}",                  // no sums
       }) {
    const std::string t = head + body;
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { Range::from_text(t); })) << t;
  }
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] {
    Range::from_text("v1:haar{epsilon=1,domain_bits=20,mapping=floor,n=0,levels=[0],sums=[0]}");
  }));  // too short for 2^20 counters: refused by the length before allocating
}

TEST(RangeSummary, DamagedBinaryFormsAreRefused) {
  const Range r = ldp_test::simulate_range(range_protocol(3, 1), 50, 5, [](int64_t i) { return double(i % 8); });
  const std::vector<uint8_t> good = r.binary();
  auto refused = [](const std::vector<uint8_t>& b) {
    return ThrowsKind(ErrorKind::InvalidBinary, [&] { Range::from_binary(b); });
  };
  const size_t n_at = 6 + 34, width_at = n_at + 8, counters_at = width_at + 1;
  std::vector<uint8_t> b;
  EXPECT_TRUE(refused({}));
  EXPECT_TRUE(refused(std::vector<uint8_t>(good.begin(), good.end() - 1)));  // truncated
  b = good;
  b.push_back(0);
  EXPECT_TRUE(refused(b));  // trailing
  b = good;
  b[4] = 2;
  EXPECT_TRUE(refused(b));  // format 2: never written
  b = good;
  b[5] = static_cast<uint8_t>(ldp::Family::Heavy);
  EXPECT_TRUE(refused(b));  // another family
  b = good;
  b[0] = 'X';
  EXPECT_TRUE(refused(b));  // no magic
  b = good;
  b[width_at] = 3;
  EXPECT_TRUE(refused(b));  // counter width
  b = good;
  b[n_at] = 0x80;
  EXPECT_TRUE(refused(b));  // negative n
  b = good;
  b[n_at + 7] = static_cast<uint8_t>(b[n_at + 7] + 2);
  EXPECT_TRUE(refused(b));  // Σ n_j != n
  b = good;
  b[counters_at + 3] = static_cast<uint8_t>(b[counters_at + 3] + 1);  // S_0[0] + 1: parity
  EXPECT_TRUE(refused(b));
  b = good;
  b[counters_at + 3] = 100;  // |S_0[0]| past n_0
  EXPECT_TRUE(refused(b));
  b = good;
  b[6] = 2;
  EXPECT_TRUE(refused(b));  // unknown mechanism
  b = good;
  b[7] = 0;
  EXPECT_TRUE(refused(b));  // unknown mapping
}

TEST(RangeSummary, MergeAddsAndRefusesOtherProtocols) {
  const RangeProtocol p = range_protocol(5, 1.5);
  auto value = [](int64_t i) { return static_cast<double>((i * 7) % 32); };
  Range a = ldp_test::simulate_range(p, 400, 1, value);
  const Range b = ldp_test::simulate_range(p, 250, 2, value);
  Range expect(p);
  for (int64_t i = 0; i < expect->cells(); ++i) expect->counters()[i] = a->counters()[i] + b->counters()[i];
  expect->n = 650;
  ldp::range_summary_merge(a.get(), *b);
  EXPECT_EQ(a.text(), expect.text());
  Range other(range_protocol(5, 1.0));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_summary_merge(a.get(), *other); }));
  Range linear(mapped(RangeMapping::Linear, 0, 32, 5));
  Range linear2(mapped(RangeMapping::Linear, 0, 33, 5));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_summary_merge(linear.get(), *linear2); }));
  Range big(p);
  big->n = INT64_MAX - 10;
  EXPECT_TRUE(ThrowsKind(ErrorKind::OutOfRange, [&] { ldp::range_summary_merge(big.get(), *b); }));
  EXPECT_EQ(big->n, INT64_MAX - 10);
}

TEST(RangeSummary, EncoderMapsValuesAndRefusesNaN) {
  ldp::SeededRandom rng(3);
  const RangeProtocol p = range_protocol(6, 700);  // no flips
  for (double v : {-5.0, 0.0, 17.9, 63.0, 1e300}) {
    const int64_t bucket = ldp::range_bucket(p, v);
    for (int t = 0; t < 20; ++t) {
      const ldp::RangeReport r = ldp::range_encode(p, v, rng);
      EXPECT_EQ(r.plus_one, ldp::haar_true_sign(6, bucket, r.level, r.row)) << v;
    }
  }
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_encode(p, std::nan(""), rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::range_encode(range_protocol(0, 1), 1, rng); }));
}

// The prepared decode (flat, what the glue keeps) answers as HaarDecoded and CdfIndex do,
// bit for bit.
TEST(RangeSummary, PreparedDecodeIsHaarDecoded) {
  const RangeProtocol p = range_protocol(8, 1);
  const Range r = ldp_test::simulate_range(p, 20000, 9, [](int64_t i) { return static_cast<double>((i * i) % 200); });
  ldp::HaarCounts counts(8);
  counts.n.assign(r->level_counts(), r->level_counts() + 8);
  counts.sums.assign(r->row_sums(), r->row_sums() + 255);
  const ldp::HaarDecoded dec(p, counts);
  RangeDecode prep(*r);
  for (int64_t x = 0; x < 256; x += 7) {
    EXPECT_EQ(prep.prefix(x).estimate, dec.prefix(x).estimate);
    EXPECT_EQ(prep.prefix(x).variance, dec.prefix(x).variance);
    EXPECT_EQ(prep.range(x / 2, x).estimate, dec.range(x / 2, x).estimate);
    EXPECT_EQ(prep.range(x / 2, x).variance, dec.range(x / 2, x).variance);
  }
  const ldp::CdfIndex index(256, [&](int64_t x) { return dec.prefix(x); });
  for (double phi : {0.0, 0.1, 0.5, 0.95, 1.0}) {
    const ldp::QuantileAnswer a = prep.quantile(phi, 1.96), b = index.quantile(phi, 1.96);
    EXPECT_EQ(a.bucket, b.bucket);
    EXPECT_EQ(a.lower, b.lower);
    EXPECT_EQ(a.upper, b.upper);
  }
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { prep.quantile(1.5, 1.96); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { prep.quantile(std::nan(""), 1.96); }));
}

// A level without reports leaves the answers that need it without a variance (+Inf);
// the quantile's point is still the first x with F̂(x) >= φ (0·Inf is not NaN there),
// and its interval spans what the level leaves unknown.
TEST(RangeSummary, ALevelWithoutReportsLeavesItsAnswersWithoutVariance) {
  const RangeProtocol p = range_protocol(4, 700);
  Range r(p);
  const std::vector<int64_t> users = {1, 2, 2, 9, 12, 15};
  for (int j = 1; j < 4; ++j)  // level 0 gets no report
    for (int64_t row = 0; row < (int64_t{1} << j); ++row)
      for (int64_t v : users) ldp::range_add_report(r.get(), j, row, ldp::haar_true_sign(4, v, j, row));
  RangeDecode prep(*r);
  EXPECT_TRUE(std::isinf(prep.prefix(3).variance));   // needs level 0
  EXPECT_EQ(prep.prefix(15).variance, 0);             // the whole domain needs nothing
  EXPECT_NEAR(prep.range(0, 7).estimate, 0.5, 1e-12);  // level 0's coefficient taken as 0 (here truly 0)
  const ldp::QuantileAnswer q = prep.quantile(0.25, 1.96);
  EXPECT_LT(q.bucket, 15);
  EXPECT_EQ(q.lower, 0);
  EXPECT_EQ(q.upper, 15);
}

}  // namespace
