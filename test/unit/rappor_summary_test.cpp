// The RAPPOR summary (src/core/rappor/rappor_summary.*, rappor_codec.cpp): counting
// reports in sum_bits.py's order, sparse cohort rows and their growth, merges, the size
// bound, and the text and binary forms with the malformations the readers refuse.
#include "core/rappor/rappor_summary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/heavy/heavy_summary.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::RapporAccumulator;
using ldp::RapporBits;
using ldp::RapporParams;
using ldp::RapporSummary;
using ldp_test::ThrowsKind;

RapporParams Params16() {
  RapporParams p;
  p.bits = 16;
  p.hashes = 2;
  p.cohorts = 64;
  p.f = 0.5;
  p.p = 0.25;
  p.q = 0.75;
  return p;
}

RapporBits from_string(const std::string& s) {
  RapporBits v;
  const auto k = static_cast<int64_t>(s.size());
  for (int64_t j = 0; j < k; ++j)
    if (s[static_cast<size_t>(j)] == '1') v.set(k - 1 - j);
  return v;
}

std::string text_of(const RapporSummary& s) {
  std::string t(ldp::rappor_summary_text_size(s), '\0');
  ldp::rappor_summary_to_text(s, t.data(), t.size());
  t.resize(t.size() - 1);
  return t;
}

std::vector<uint8_t> binary_of(const RapporSummary& s) {
  std::vector<uint8_t> b(ldp::rappor_summary_binary_size(s));
  ldp::rappor_summary_to_binary(s, b.data(), b.size());
  return b;
}

std::vector<uint64_t> parse_text(const std::string& t) {
  const size_t size = ldp::rappor_summary_parse_size(t.c_str());
  std::vector<uint64_t> buf(size / 8);
  ldp::rappor_summary_from_text(t.c_str(), reinterpret_cast<RapporSummary*>(buf.data()), size);
  return buf;
}

std::vector<uint64_t> parse_binary(const std::vector<uint8_t>& b) {
  const size_t size = ldp::rappor_summary_binary_parse_size(b.data(), b.size());
  std::vector<uint64_t> buf(size / 8);
  ldp::rappor_summary_from_binary(b.data(), b.size(), reinterpret_cast<RapporSummary*>(buf.data()), size);
  return buf;
}

const RapporSummary& as_summary(const std::vector<uint64_t>& buf) {
  return *reinterpret_cast<const RapporSummary*>(buf.data());
}

RapporAccumulator Sample(uint64_t seed, int64_t reports) {
  RapporAccumulator acc(Params16(), 2);
  ldp::SeededRandom rng(seed);
  for (int64_t i = 0; i < reports; ++i) {
    const int64_t cohort = static_cast<int64_t>(rng.below(64));
    acc.add(cohort, ldp::rappor_encode("item" + std::to_string(rng.below(5)), cohort, "s" + std::to_string(i), 16,
                                       2, 0.5, 0.25, 0.75, rng));
  }
  return acc;
}

TEST(RapporSummary, CountsBitsAsSumBits) {
  RapporAccumulator acc(Params16(), 1);
  // character j of the report is Bloom bit 15 - j (sum_bits.py)
  const RapporBits r = from_string("1000000100101100");
  uint8_t data[2];
  ldp::rappor_to_varbit(r, 16, data);
  acc.add_varbit(3, data, 16);
  acc.add(3, r);
  acc.add(1, from_string("0000000000000001"));
  const RapporSummary& s = acc.summary();
  EXPECT_EQ(s.n, 3);
  ASSERT_EQ(s.rows, 2);
  EXPECT_EQ(s.row(0)[0], 1);
  EXPECT_EQ(s.row(1)[0], 3);
  EXPECT_EQ(ldp::rappor_cohort_reports(s, 3), 2);
  EXPECT_EQ(ldp::rappor_cohort_reports(s, 2), 0);
  const int64_t* ones = ldp::rappor_cohort_ones(s, 3);
  for (int64_t b = 0; b < 16; ++b) EXPECT_EQ(ones[b], r.test(b) ? 2 : 0) << b;
  EXPECT_EQ(ldp::rappor_cohort_ones(s, 1)[0], 1);
  EXPECT_EQ(ldp::rappor_cohort_ones(s, 5), nullptr);
}

TEST(RapporSummary, FullSummaryAsksToGrow) {
  std::vector<uint64_t> buf(ldp::rappor_summary_size(Params16(), 1) / 8);
  auto* s = reinterpret_cast<RapporSummary*>(buf.data());
  ldp::rappor_summary_init(s, Params16(), 1);
  EXPECT_TRUE(ldp::rappor_add_bits(s, 7, from_string("0000000000000011")));
  EXPECT_FALSE(ldp::rappor_add_bits(s, 2, from_string("0000000000000011")));  // nothing counted
  EXPECT_EQ(s->n, 1);
  EXPECT_EQ(ldp::rappor_grown_capacity(*s), 8);
  std::vector<uint64_t> big(ldp::rappor_summary_size(Params16(), 8) / 8);
  ldp::rappor_summary_copy(*s, reinterpret_cast<RapporSummary*>(big.data()), 8);
  EXPECT_TRUE(ldp::rappor_add_bits(reinterpret_cast<RapporSummary*>(big.data()), 2, from_string("0000000000000011")));
  EXPECT_EQ(as_summary(big).row(0)[0], 2);
  EXPECT_EQ(as_summary(big).n, 2);
}

TEST(RapporSummary, MergeEqualsOneSummaryOfAllReports) {
  RapporAccumulator a = Sample(1, 300), b = Sample(2, 200);
  RapporAccumulator all(Params16(), 1);
  all.merge(a.summary());
  all.merge(b.summary());
  // the same reports counted into one summary
  RapporAccumulator direct(Params16());
  for (auto [seed, n] : {std::pair<uint64_t, int64_t>{1, 300}, {2, 200}}) {
    ldp::SeededRandom rng(seed);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t cohort = static_cast<int64_t>(rng.below(64));
      direct.add(cohort, ldp::rappor_encode("item" + std::to_string(rng.below(5)), cohort, "s" + std::to_string(i),
                                            16, 2, 0.5, 0.25, 0.75, rng));
    }
  }
  EXPECT_EQ(text_of(all.summary()), text_of(direct.summary()));
  EXPECT_EQ(all.summary().n, 500);
  // merge order does not matter
  RapporAccumulator other(Params16());
  other.merge(b.summary());
  other.merge(a.summary());
  EXPECT_EQ(text_of(other.summary()), text_of(all.summary()));
  RapporParams q = Params16();
  q.q = 0.8;
  RapporAccumulator c(q);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { c.merge(a.summary()); }));
}

TEST(RapporSummary, BadReportsAndParameters) {
  RapporAccumulator acc(Params16());
  const uint8_t data[4] = {0, 0, 0, 0};
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { acc.add_varbit(64, data, 16); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { acc.add_varbit(-1, data, 16); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { acc.add_varbit(0, data, 15); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { acc.add_varbit(0, data, 32); }));
  RapporBits wide;
  wide.set(20);
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { acc.add(0, wide); }));
  EXPECT_EQ(acc.summary().n, 0);
  for (auto edit : std::vector<void (*)(RapporParams&)>{
           [](RapporParams& p) { p.bits = 0; }, [](RapporParams& p) { p.bits = 257; },
           [](RapporParams& p) { p.hashes = 17; }, [](RapporParams& p) { p.cohorts = 0; },
           [](RapporParams& p) { p.cohorts = int64_t{1} << 31; }, [](RapporParams& p) { p.f = 1; },
           [](RapporParams& p) { p.p = 0.75; }, [](RapporParams& p) { p.q = 1.01; }}) {
    RapporParams p = Params16();
    edit(p);
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { RapporAccumulator x(p); }));
  }
  // cohorts up to 2^31 - 1, rows bounded by kMaxRapporCells
  RapporParams big = Params16();
  big.bits = 256;
  big.cohorts = INT32_MAX;
  RapporAccumulator wide_acc(big);
  wide_acc.add(INT32_MAX - 1, RapporBits{});
  EXPECT_EQ(ldp::rappor_max_rows(big), ldp::kMaxRapporCells / 258);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::rappor_summary_size(big, ldp::rappor_max_rows(big) + 1); }));
}

TEST(RapporSummary, TextAndBinaryRoundTrips) {
  for (int64_t n : {0, 1, 40, 3000, 20000}) {
    RapporAccumulator acc = Sample(11 + static_cast<uint64_t>(n), n);
    const std::string t = text_of(acc.summary());
    EXPECT_EQ(text_of(as_summary(parse_text(t))), t);
    const std::vector<uint8_t> b = binary_of(acc.summary());
    EXPECT_EQ(text_of(as_summary(parse_binary(b))), t);
    // compact counters: 1 byte while every count fits int8 (cohort ids < 64 do)
    const size_t counters = static_cast<size_t>(acc.summary().rows * 18);
    const int width = n <= 3000 ? 1 : 2;  // N_c about n/64
    EXPECT_EQ(b.size(), 6 + 1 + 48 + 16 + 1 + counters * static_cast<size_t>(width)) << n;
  }
  const std::string empty = text_of(RapporAccumulator(Params16()).summary());
  EXPECT_EQ(empty, "v1:rappor{bits=16,hashes=2,cohorts=64,f=0.5,p=0.25,q=0.75,n=0,rows=0,cohort=[],reports=[],ones=[]}");
}

// -0 is stored as 0 (found by the SQL fuzzer: a form with f=-0 and reports given with
// f = 0 merged, but printed differently)
TEST(RapporSummary, NegativeZeroIsZero) {
  const std::string t = "v1:rappor{bits=4,hashes=1,cohorts=3,f=-0,p=-0,q=0.75,n=0,rows=0,cohort=[],reports=[],ones=[]}";
  EXPECT_EQ(text_of(as_summary(parse_text(t))),
            "v1:rappor{bits=4,hashes=1,cohorts=3,f=0,p=0,q=0.75,n=0,rows=0,cohort=[],reports=[],ones=[]}");
  RapporParams p = Params16();
  p.f = -0.0;
  EXPECT_FALSE(std::signbit(RapporAccumulator(p).summary().params.f));
}

TEST(RapporSummary, TextRejections) {
  RapporAccumulator acc(Params16());
  acc.add(2, from_string("0000000000000011"));
  acc.add(5, from_string("1000000000000001"));
  const std::string good = text_of(acc.summary());
  EXPECT_EQ(good,
            "v1:rappor{bits=16,hashes=2,cohorts=64,f=0.5,p=0.25,q=0.75,n=2,rows=2,cohort=[2,5],reports=[1,1],"
            "ones=[1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]}");
  auto bad = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    t.replace(at, from.size(), to);
    return ThrowsKind(ErrorKind::InvalidText, [&] { parse_text(t); });
  };
  EXPECT_TRUE(bad("v1:rappor", "v1:rapor"));
  EXPECT_TRUE(bad("v1:", "v2:"));
  EXPECT_TRUE(bad("bits=16", "bits=0"));
  EXPECT_TRUE(bad("hashes=2", "hashes=17"));
  EXPECT_TRUE(bad("p=0.25", "p=0.8"));
  EXPECT_TRUE(bad("f=0.5", "f=1"));
  EXPECT_TRUE(bad("q=0.75", "q=nan"));
  EXPECT_TRUE(bad("n=2", "n=3"));                 // Σ N_c != n
  EXPECT_TRUE(bad("rows=2", "rows=3"));           // arrays too short
  EXPECT_TRUE(bad("rows=2", "rows=99999999"));    // beyond the bound: refused before allocating
  EXPECT_TRUE(bad("cohort=[2,5]", "cohort=[5,2]"));  // not increasing
  EXPECT_TRUE(bad("cohort=[2,5]", "cohort=[2,64]"));  // outside [0, m)
  EXPECT_TRUE(bad("cohort=[2,5]", "cohort=[2,2]"));
  EXPECT_TRUE(bad("reports=[1,1]", "reports=[0,2]"));  // an empty row
  EXPECT_TRUE(bad("ones=[1,1", "ones=[2,1"));          // more ones than reports
  EXPECT_TRUE(bad("ones=[1,1", "ones=[-1,1"));
  EXPECT_TRUE(bad(",0,1]}", ",0,1,0]}"));  // too many counts
  EXPECT_TRUE(bad("]}", "]} "));
  EXPECT_NO_THROW(parse_text(good));
}

TEST(RapporSummary, BinaryRejections) {
  RapporAccumulator acc = Sample(5, 50);
  const std::vector<uint8_t> good = binary_of(acc.summary());
  EXPECT_NO_THROW(parse_binary(good));
  auto bad = [&](std::vector<uint8_t> b) { return ThrowsKind(ErrorKind::InvalidBinary, [&] { parse_binary(b); }); };
  std::vector<uint8_t> b = good;
  b.pop_back();
  EXPECT_TRUE(bad(b));  // truncated
  b = good;
  b.push_back(0);
  EXPECT_TRUE(bad(b));  // trailing
  b = good;
  b[4] = 2;
  EXPECT_TRUE(bad(b));  // format 2: never written for this family
  b = good;
  b[5] = 3;
  EXPECT_TRUE(bad(b));  // a sketch summary
  b = good;
  b[6] = 2;
  EXPECT_TRUE(bad(b));  // unknown mechanism
  b = good;
  b[6 + 1 + 7] = 0;
  EXPECT_TRUE(bad(b));  // bits = 0
  b = good;
  b[6 + 1 + 56] = 0x7f;  // rows: huge, refused before allocating
  EXPECT_TRUE(bad(b));
  b = good;
  b[6 + 1 + 64] = 3;  // counter width
  EXPECT_TRUE(bad(b));
  b = good;
  b[6 + 1 + 48 + 7] ^= 1;  // n no longer Σ N_c
  EXPECT_TRUE(bad(b));
  b = good;
  b[6 + 1 + 64 + 1] = 70;  // first cohort outside [0, 64)
  EXPECT_TRUE(bad(b));
  EXPECT_TRUE(bad({}));
  // another family's reader names this one
  try {
    ldp::heavy_summary_binary_parse_size(good.data(), good.size());
    ADD_FAILURE() << "the heavy-hitters reader took a RAPPOR summary";
  } catch (const ldp::Error& e) {
    EXPECT_NE(std::string(e.what()).find("a RAPPOR summary"), std::string::npos) << e.what();
  }
}

}  // namespace
