// The sketch family's core: the hash test vectors of
// docs/algorithms/README.md#hashes-and-bit-orders, hand-computed estimates, parameters and
// reports refused, merging, and the text and binary forms (fixed bytes, round trips, malformed
// input).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/oracles/sketch_hash.hpp"
#include "core/sketch/sketch_encoders.hpp"
#include "core/sketch/sketch_internal.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "sketch_test_support.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::SketchMechanism;
using ldp_test::Prepared;
using ldp_test::Sketch;
using ldp_test::ThrowsKind;

const SketchMechanism kAll[] = {SketchMechanism::CMS, SketchMechanism::HCMS, SketchMechanism::Hashtogram};

TEST(SketchHash, TestVectorsOfTheConventions) {
  // docs/algorithms/README.md#hashes-and-bit-orders: xxh64(str(x), seed=j) % 1024.
  const uint64_t apple[] = {671, 694, 919}, forty_two[] = {697, 502, 565};
  for (uint64_t j = 0; j < 3; ++j) {
    EXPECT_EQ(ldp::sketch_hash("apple", j) % 1024, apple[j]) << j;
    EXPECT_EQ(ldp::sketch_hash("42", j) % 1024, forty_two[j]) << j;
  }
}

TEST(SketchEstimate, CmsByHand) {
  // hashes 2, width 4: h_0(apple) = 671 mod 4 = 3, h_1(apple) = 694 mod 4 = 2.
  Sketch s(SketchMechanism::CMS, 1.0, 2, 4);
  const uint8_t r1[] = {0x10}, r2[] = {0x20}, r3[] = {0x90};  // 0001, 0010, 1001
  ldp::sketch_add_cms(s.get(), 0, r1, 4);
  ldp::sketch_add_cms(s.get(), 1, r2, 4);
  ldp::sketch_add_cms(s.get(), 0, r3, 4);
  // P[0] = [1,0,0,2], P[1] = [0,0,1,0]: Σ_j P[j][h_j(apple)] = 2 + 1 = 3, n = 3
  const double c = (std::exp(0.5) + 1) / (std::exp(0.5) - 1);
  const double want = 4.0 / 3.0 * (c * 3 - 3 * ((c - 1) / 2 + 0.25));
  Prepared p(s);
  EXPECT_NEAR(p("apple").count, want, 1e-12 * std::fabs(want));
  const double var = 16.0 / 9.0 * 3 * (c * c - 1) / 4 + (3 - std::fmin(std::fmax(want, 0.0), 3.0)) / 3;
  EXPECT_NEAR(p("apple").std_error, std::sqrt(var), 1e-12);
}

TEST(SketchEstimate, HcmsByHand) {
  // hashes 1, width 4, S[0] = [1, -1, 0, 1]: FWHT = [1, 1, -1, 3]; h_0(apple) = 3.
  Sketch s(SketchMechanism::HCMS, 1.0, 1, 4);
  ldp::sketch_add_signed(s.get(), 0, 0, true);
  ldp::sketch_add_signed(s.get(), 0, 1, false);
  ldp::sketch_add_signed(s.get(), 0, 3, true);
  Prepared p(s);
  EXPECT_EQ(p.table, (std::vector<int64_t>{1, 1, -1, 3}));
  const double c = (std::exp(1.0) + 1) / (std::exp(1.0) - 1);
  const double want = 4.0 / 3.0 * (c * 3 - 0.75);
  EXPECT_NEAR(p("apple").count, want, 1e-12 * want);
  const double f = std::fmin(want, 3.0);
  EXPECT_NEAR(p("apple").std_error, std::sqrt(16.0 / 9.0 * (3 * c * c - f - (3 - f) / 16)), 1e-12);
}

TEST(SketchEstimate, HashtogramByHandIsTheMedianOfSignedRows) {
  // t = 3 rows, width 4; one report per row. The row estimates are t·c·g_j·T[j][h_j].
  Sketch s(SketchMechanism::Hashtogram, 1.0, 3, 4);
  ldp::sketch_add_signed(s.get(), 0, 1, true);
  ldp::sketch_add_signed(s.get(), 1, 2, false);
  ldp::sketch_add_signed(s.get(), 2, 3, true);
  const double c = (std::exp(1.0) + 1) / (std::exp(1.0) - 1);
  std::vector<double> rows;
  const int64_t col[] = {1, 2, 3};
  const int sign[] = {1, -1, 1};
  for (int64_t j = 0; j < 3; ++j) {
    int64_t h = static_cast<int64_t>(ldp::sketch_hash("apple", 2 * j) % 4);
    int g = (ldp::sketch_hash("apple", 2 * j + 1) & 1) == 0 ? 1 : -1;
    int H = (__builtin_popcountll(static_cast<uint64_t>(col[j] & h)) & 1) == 0 ? 1 : -1;
    rows.push_back(3 * c * g * sign[j] * H);  // FWHT of a single ±1 at col[j]
  }
  std::sort(rows.begin(), rows.end());
  Prepared p(s);
  EXPECT_NEAR(p("apple").count, rows[1], 1e-12);
  const double f = std::fmin(std::fmax(rows[1], 0.0), 3.0);
  EXPECT_NEAR(p("apple").std_error, std::sqrt(M_PI / 2 * 3 * c * c - f), 1e-12);
}

TEST(SketchEstimate, HashtogramMedianOfAnEvenNumberOfRowsIsTheMeanOfTheMiddleTwo) {
  Sketch s(SketchMechanism::Hashtogram, 2.0, 4, 2);
  ldp::SketchSummary* p = s.get();
  // Rows: S[j] = [a, 0], so T[j] = [a, a] whatever h_j; a = 1, 3, 5, 7 (n = 16).
  const int64_t a[] = {1, 3, 5, 7};
  for (int64_t j = 0; j < 4; ++j) p->counters()[j * 2] = a[j];
  p->n = 16;
  const double c = (std::exp(2.0) + 1) / (std::exp(2.0) - 1);
  std::vector<double> rows;
  for (int64_t j = 0; j < 4; ++j)
    rows.push_back(4 * c * a[j] * ((ldp::sketch_hash("x", 2 * j + 1) & 1) == 0 ? 1 : -1));
  std::sort(rows.begin(), rows.end());
  Prepared prep(s);
  EXPECT_NEAR(prep("x").count, (rows[1] + rows[2]) / 2, 1e-12);
}

TEST(SketchParams, RefusedBeforeAnythingIsAllocated) {
  for (SketchMechanism id : kAll) {
    auto size = [&](double e, int64_t k, int64_t m) { return ldp::sketch_summary_size(id, {e, k, m}); };
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { size(0, 4, 64); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { size(NAN, 4, 64); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { size(1, 0, 64); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { size(1, 4, 1); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { size(1, ldp::kMaxSketchHashes + 1, 2); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { size(1, 2048, 4096); }));  // 2^23 cells
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { size(1, INT64_MAX, INT64_MAX); }));
    EXPECT_EQ(size(1, 1024, 4096), sizeof(ldp::SketchSummary) + 8 * (size_t{1} << 22));
  }
  EXPECT_NO_THROW(ldp::sketch_summary_size(SketchMechanism::CMS, {1, 4, 1000}));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::sketch_summary_size(SketchMechanism::HCMS, {1, 4, 1000}); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter,
                         [&] { ldp::sketch_summary_size(SketchMechanism::Hashtogram, {1, 4, 96}); }));
}

TEST(SketchReports, ImpossibleReportsAreRefusedAndCountNothing) {
  Sketch cms(SketchMechanism::CMS, 1.0, 4, 16);
  const uint8_t bits[2] = {0xff, 0xff};
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::sketch_add_cms(cms.get(), 4, bits, 16); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::sketch_add_cms(cms.get(), -1, bits, 16); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::sketch_add_cms(cms.get(), 0, bits, 15); }));
  EXPECT_EQ(cms->n, 0);
  Sketch h(SketchMechanism::HCMS, 1.0, 4, 16);
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::sketch_add_signed(h.get(), 4, 0, true); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::sketch_add_signed(h.get(), 0, 16, true); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::ImpossibleReport, [&] { ldp::sketch_add_signed(h.get(), 0, -1, true); }));
  EXPECT_EQ(h->n, 0);
  // A cms report of 70 bits: the word-at-a-time path and the tail agree with the bits.
  Sketch w(SketchMechanism::CMS, 1.0, 1, 70);
  uint8_t many[9] = {0x80, 0, 0, 0, 0, 0, 0, 0x01, 0xc0};  // bits 0, 63, 64, 65
  ldp::sketch_add_cms(w.get(), 0, many, 70);
  for (int64_t i = 0; i < 70; ++i)
    EXPECT_EQ(w->counters()[i], (i == 0 || i == 63 || i == 64 || i == 65) ? 1 : 0) << i;
}

TEST(SketchMerge, AddsAndRefusesOtherParameters) {
  ldp::SeededRandom rng(5);
  std::vector<std::pair<std::string, int>> pop = {{"a", 30}, {"b", 20}};
  for (SketchMechanism id : kAll) {
    Sketch a = ldp_test::simulate(id, 1.0, 4, 16, pop, rng), b = ldp_test::simulate(id, 1.0, 4, 16, pop, rng);
    Sketch sum = a;
    ldp::sketch_summary_merge(sum.get(), *b);
    EXPECT_EQ(sum->n, 100);
    for (int64_t i = 0; i < 64; ++i) EXPECT_EQ(sum->counters()[i], a->counters()[i] + b->counters()[i]);
    Sketch other(id, 1.0, 4, 32), eps(id, 2.0, 4, 16), rows(id, 1.0, 2, 32);
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sketch_summary_merge(sum.get(), *other); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sketch_summary_merge(sum.get(), *eps); }));
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sketch_summary_merge(sum.get(), *rows); }));
  }
  Sketch c(SketchMechanism::CMS, 1.0, 4, 16), h(SketchMechanism::HCMS, 1.0, 4, 16);
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::sketch_summary_merge(c.get(), *h); }));
}

std::string text_of(const Sketch& s) {
  std::string out(ldp::sketch_summary_text_size(*s), '\0');
  ldp::sketch_summary_to_text(*s, out.data(), out.size());
  out.pop_back();
  return out;
}
Sketch from_text(const std::string& text) {
  Sketch s(ldp::sketch_summary_parse_size(text.c_str()));
  ldp::sketch_summary_from_text(text.c_str(), s.get(), s.bytes());
  return s;
}
std::vector<uint8_t> binary_of(const Sketch& s) {
  std::vector<uint8_t> out(ldp::sketch_summary_binary_size(*s));
  ldp::sketch_summary_to_binary(*s, out.data(), out.size());
  return out;
}
Sketch from_binary(const std::vector<uint8_t>& b) {
  Sketch s(ldp::sketch_summary_binary_parse_size(b.data(), b.size()));
  ldp::sketch_summary_from_binary(b.data(), b.size(), s.get(), s.bytes());
  return s;
}

TEST(SketchCodec, TextAndFixedBytes) {
  Sketch s(SketchMechanism::HCMS, 1.0, 1, 2);
  ldp::sketch_add_signed(s.get(), 0, 1, false);
  EXPECT_EQ(text_of(s), "v1:hcms{epsilon=1,hashes=1,width=2,n=1,sums=[0,-1]}");
  // Written by shifts, so the same on every host: "LDPS", format 3, family 3 (sketch),
  // mechanism 2, then big-endian epsilon, hashes, width, n, the bytes per counter (1)
  // and the counters at that width.
  EXPECT_EQ(ldp_test::hex(binary_of(s)),
            "4c445053" "03" "03" "02" "3ff0000000000000" "0000000000000001" "0000000000000002"
            "0000000000000001" "01" "00" "ff");
  // The same summary as 0.6.0 wrote it (format 2, i64 counters) still reads.
  const std::vector<uint8_t> format2 = ldp_test::unhex(
      "4c445053" "02" "03" "02" "3ff0000000000000" "0000000000000001" "0000000000000002"
      "0000000000000001" "0000000000000000" "ffffffffffffffff");
  EXPECT_EQ(from_binary(format2).buf, s.buf);
  Sketch c(SketchMechanism::CMS, 0.5, 2, 3);
  const uint8_t r[] = {0xa0};  // 101
  ldp::sketch_add_cms(c.get(), 1, r, 3);
  EXPECT_EQ(text_of(c), "v1:cms{epsilon=0.5,hashes=2,width=3,n=1,counts=[0,0,0,1,0,1]}");
}

TEST(SketchCodec, RoundTripsOfEveryMechanism) {
  ldp::SeededRandom rng(9);
  std::vector<std::pair<std::string, int>> pop = {{"the", 50}, {"you", 30}, {"ünïcödé", 7}};
  for (SketchMechanism id : kAll) {
    Sketch s = ldp_test::simulate(id, 1.25, 3, 8, pop, rng);
    for (const Sketch& back : {from_text(text_of(s)), from_binary(binary_of(s))}) {
      ASSERT_EQ(back.buf, s.buf) << ldp::sketch_mechanism(id).name;
    }
  }
}

TEST(SketchCodec, MalformedFormsAreRefused) {
  auto bad_text = [](const char* t) {
    return ThrowsKind(ErrorKind::InvalidText, [&] { from_text(t); });
  };
  EXPECT_TRUE(bad_text("v1:cms{epsilon=1,hashes=1,width=2,n=1,counts=[1]}"));         // short
  EXPECT_TRUE(bad_text("v1:cms{epsilon=1,hashes=1,width=2,n=1,counts=[1,0,0]}"));     // long
  EXPECT_TRUE(bad_text("v1:cms{epsilon=1,hashes=1,width=2,n=1,counts=[2,0]}"));       // > n
  EXPECT_TRUE(bad_text("v1:cms{epsilon=1,hashes=2,width=2,n=1,counts=[1,0,0,1]}"));   // rows need 2
  EXPECT_TRUE(bad_text("v1:cms{epsilon=1,hashes=1,width=2,n=1,counts=[-1,0]}"));
  EXPECT_TRUE(bad_text("v1:hcms{epsilon=1,hashes=1,width=2,n=1,sums=[1,1]}"));       // Σ|S| > n
  EXPECT_TRUE(bad_text("v1:hcms{epsilon=1,hashes=1,width=2,n=2,sums=[1,0]}"));       // parity
  EXPECT_TRUE(bad_text("v1:hcms{epsilon=1,hashes=1,width=3,n=0,sums=[0,0,0]}"));     // not 2^r
  EXPECT_TRUE(bad_text("v1:hcms{epsilon=0,hashes=1,width=2,n=0,sums=[0,0]}"));
  EXPECT_TRUE(bad_text("v1:hcms{epsilon=1,hashes=4096,width=4096,n=0,sums=[0]}"));   // bound
  EXPECT_TRUE(bad_text("v1:hcms{epsilon=1,hashes=99999999999,width=2,n=0,sums=[0]}"));
  EXPECT_TRUE(bad_text("v1:sketch{epsilon=1,hashes=1,width=2,n=0,sums=[0,0]}"));
  EXPECT_TRUE(bad_text("v1:hashtogram{epsilon=1,hashes=1,width=2,n=0,sums=[0,0]} "));
  EXPECT_NO_THROW(from_text("v1:hashtogram{epsilon=1,hashes=1,width=2,n=3,sums=[-1,0]}"));

  Sketch s(SketchMechanism::Hashtogram, 1.0, 2, 4);
  ldp::sketch_add_signed(s.get(), 1, 3, true);
  std::vector<uint8_t> good = binary_of(s);
  auto bad_binary = [](std::vector<uint8_t> b) {
    return ThrowsKind(ErrorKind::InvalidBinary, [&] { from_binary(b); });
  };
  for (size_t len = 0; len < good.size(); ++len)
    EXPECT_TRUE(bad_binary(std::vector<uint8_t>(good.begin(), good.begin() + len))) << len;
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_TRUE(bad_binary(longer));
  std::vector<uint8_t> family = good;
  family[5] = 2;  // a frequency summary's header
  EXPECT_TRUE(bad_binary(family));
  std::vector<uint8_t> mech = good;
  mech[6] = 9;
  EXPECT_TRUE(bad_binary(mech));
  std::vector<uint8_t> count = good;
  count[good.size() - 1] = 3;  // S = 3 > n = 1
  EXPECT_TRUE(bad_binary(count));
  std::vector<uint8_t> format1(good.begin() + 5, good.end());
  format1[0] = 1;  // a version-1 image: sketches never had one
  EXPECT_TRUE(bad_binary(format1));
  const size_t width_at = 6 + 1 + 32;  // header, mechanism, epsilon, hashes, width, n
  ASSERT_EQ(good[width_at], 1);
  for (uint8_t w : {0, 3, 5, 7, 9, 16, 255}) {
    std::vector<uint8_t> bad = good;
    bad[width_at] = w;  // not 1, 2, 4 or 8 bytes per counter
    EXPECT_TRUE(bad_binary(bad)) << int(w);
  }
  std::vector<uint8_t> wider = good;
  wider[width_at] = 2;  // claims 2 bytes per counter with the bytes of 1
  EXPECT_TRUE(bad_binary(wider));
  std::vector<uint8_t> format4 = good;
  format4[4] = 4;
  EXPECT_TRUE(bad_binary(format4));
}

// Format 3 stores each counter in the fewest bytes that hold them all (1, 2, 4 or 8),
// and reads back exactly, at every width's edges and in format 2 too.
TEST(SketchCodec, CompactCountersAtEveryWidth) {
  struct Case { int64_t lo, hi; int bytes; };
  const Case cases[] = {{0, 0, 1}, {-128, 127, 1}, {-129, 5, 2}, {0, 128, 2}, {-32768, 32767, 2},
                        {0, 32768, 4}, {-32769, 0, 4}, {INT32_MIN, INT32_MAX, 4},
                        {0, int64_t{INT32_MAX} + 1, 8}, {int64_t{INT32_MIN} - 1, 0, 8},
                        {-(int64_t{1} << 40), int64_t{1} << 40, 8}};
  for (const Case& c : cases) {
    Sketch s(SketchMechanism::HCMS, 1.0, 2, 4);
    int64_t* v = s.get()->counters();
    v[0] = c.lo;
    v[5] = c.hi;
    v[7] = c.lo / 3;
    // n that the counters can come from: Σ|S| with the right parity
    int64_t total = 0;
    for (int i = 0; i < 8; ++i) total += v[i] < 0 ? -v[i] : v[i];
    s.get()->n = total;
    std::vector<uint8_t> b = binary_of(s);
    EXPECT_EQ(b[4], 3);
    EXPECT_EQ(b[6 + 1 + 32], c.bytes) << c.lo << " " << c.hi;
    EXPECT_EQ(b.size(), 6 + 1 + 32 + 1 + 8 * static_cast<size_t>(c.bytes));
    EXPECT_EQ(from_binary(b).buf, s.buf) << c.lo << " " << c.hi;
    // the same counters in format 2
    std::vector<uint8_t> f2(b.begin(), b.begin() + 6 + 1 + 32);
    f2[4] = 2;
    for (int i = 0; i < 8; ++i)
      for (int k = 7; k >= 0; --k) f2.push_back(static_cast<uint8_t>(static_cast<uint64_t>(v[i]) >> (8 * k)));
    EXPECT_EQ(from_binary(f2).buf, s.buf);
  }
}

TEST(SketchEncoders, RefuseWhatTheAggregatesRefuse) {
  ldp::SeededRandom rng(1);
  uint8_t bytes[16];
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::cms_encode("x", 0, 4, 64, rng, bytes); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::hcms_encode("x", 1, 4, 100, rng); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidParameter, [&] { ldp::hashtogram_encode("x", 1, 0, 64, rng); }));
}

TEST(SketchEncoders, HcmsAndHashtogramReportTheirHadamardEntry) {
  // With a huge epsilon nothing is flipped: y = H[l][h_j(x)] (hcms), g_j(x)·H[r][h_j(x)].
  ldp::SeededRandom rng(3);
  for (int i = 0; i < 200; ++i) {
    auto r = ldp::hcms_encode("word", 60, 8, 16, rng);
    int64_t h = static_cast<int64_t>(ldp::sketch_hash("word", static_cast<uint64_t>(r.hash_index)) % 16);
    EXPECT_EQ(r.report, (__builtin_popcountll(static_cast<uint64_t>(r.coefficient & h)) & 1) == 0);
    auto t = ldp::hashtogram_encode("word", 60, 8, 16, rng);
    int64_t b = static_cast<int64_t>(ldp::sketch_hash("word", static_cast<uint64_t>(2 * t.hash_index)) % 16);
    bool g = (ldp::sketch_hash("word", static_cast<uint64_t>(2 * t.hash_index + 1)) & 1) == 0;
    EXPECT_EQ(t.report, ((__builtin_popcountll(static_cast<uint64_t>(t.coefficient & b)) & 1) == 0) == g);
    uint8_t bits[2];
    int64_t j = ldp::cms_encode("word", 60, 8, 16, rng, bits);
    int64_t hc = static_cast<int64_t>(ldp::sketch_hash("word", static_cast<uint64_t>(j)) % 16);
    EXPECT_EQ((bits[0] << 8 | bits[1]), 1 << (15 - hc));
  }
}

}  // namespace

namespace {
TEST(SketchHash, ManySeedsAgreeWithLibxxhashForEveryLength) {
  // ItemHashes folds a short item into steps shared by every seed; libxxhash is the
  // reference, for every length across the short path's edges (8, 12, 16, 24, 32).
  std::string text;
  for (int i = 0; i < 40; ++i) text.push_back(static_cast<char>(0x21 + (i * 37) % 200));
  for (size_t len = 0; len <= 40; ++len) {
    std::string_view item(text.data(), len);
    for (int64_t count : {1, 8, 19}) {  // whole and partial blocks of eight seeds
      std::vector<uint64_t> got(static_cast<size_t>(count)), portable(static_cast<size_t>(count));
      ldp::ItemHashes(item).hashes(5, 3, count, got.data());  // AVX-512 where the CPU has it
      ldp::ItemHashes(item).hashes_portable(5, 3, count, portable.data());
      for (int64_t i = 0; i < count; ++i) {
        ASSERT_EQ(got[i], ldp::sketch_hash(item, 5 + 3 * static_cast<uint64_t>(i))) << "len " << len << " i " << i;
        ASSERT_EQ(portable[i], got[i]) << "len " << len << " i " << i;
      }
    }
  }
  uint64_t one;
  ldp::ItemHashes("apple").hashes(2, 1, 1, &one);
  EXPECT_EQ(one % 1024, 919u);
}
}  // namespace

namespace {
TEST(SketchPending, ByteCountersGiveTheSameSummaryAsDirectCounts) {
  // A cms aggregation state counts bits in byte-wide counters flushed every 255 reports
  // of a row; it must end as the plain counters do, for widths on and off the 16-byte
  // SIMD blocks and rows that flush several times.
  for (int64_t width : {5, 64, 100, 128, 1000, 1024}) {
    ldp::SketchParams p{2.0, 3, width};
    Sketch plain(SketchMechanism::CMS, 2.0, 3, width);
    size_t size = ldp::sketch_summary_size(SketchMechanism::CMS, p), pending = ldp::sketch_pending_bytes(SketchMechanism::CMS, p);
    ASSERT_GT(pending, 0u);
    Sketch live(size + pending + 8);
    ldp::sketch_summary_init(live.get(), SketchMechanism::CMS, p);
    ldp::sketch_summary_add_pending_area(live.get());
    ldp::SeededRandom rng(static_cast<uint64_t>(width));
    std::vector<uint8_t> bits(static_cast<size_t>((width + 7) / 8));
    for (int r = 0; r < 2000; ++r) {
      int64_t j = ldp::cms_encode("w" + std::to_string(r % 7), 2.0, 3, width, rng, bits.data());
      ldp::sketch_add_cms(plain.get(), j, bits.data(), width);
      ldp::sketch_add_cms(live.get(), j, bits.data(), width);
    }
    ldp::sketch_flush_pending(live.get());
    EXPECT_EQ(live->n, plain->n);
    EXPECT_TRUE(std::equal(plain->counters(), plain->counters() + plain->cells(), live->counters())) << width;
    EXPECT_EQ(ldp::sketch_pending_bytes(SketchMechanism::HCMS, {2.0, 3, 64}), sizeof(ldp::SketchSignedPending) + 2 * 3 * 64 + 8);
  }
}
}  // namespace

namespace {
TEST(SketchPending, Int16CountersOfSignedSketchesGiveTheSameSummary) {
  // hcms and hashtogram states buffer 1024 reports, apply them to int16 counters, and
  // add a row of those to the counters after 32767 of its reports: 70,000 reports into
  // 2 rows of 4 counters flush each row once or twice and leave some reports buffered
  // and some in the int16 counters.
  for (SketchMechanism id : {SketchMechanism::HCMS, SketchMechanism::Hashtogram}) {
    ldp::SketchParams p{1.0, 2, 4};
    Sketch plain(id, 1.0, 2, 4);
    size_t size = ldp::sketch_summary_size(id, p), pending = ldp::sketch_pending_bytes(id, p);
    Sketch live(size + pending);
    ldp::sketch_summary_init(live.get(), id, p);
    ldp::sketch_summary_add_pending_area(live.get());
    ldp::SeededRandom rng(3);
    for (int r = 0; r < 70000; ++r) {
      int64_t j = static_cast<int64_t>(rng.below(2)), l = static_cast<int64_t>(rng.below(4));
      bool y = rng.below(10) < 9;  // mostly +1: the pending counters run high
      ldp::sketch_add_signed(plain.get(), j, l, y);
      ldp::sketch_add_signed(live.get(), j, l, y);
    }
    ldp::sketch_flush_pending(live.get());
    EXPECT_EQ(live->n, 70000);
    EXPECT_TRUE(std::equal(plain->counters(), plain->counters() + 8, live->counters()));
  }
}
}  // namespace

namespace {
TEST(SketchColumns, DirectRemainderEqualsTheDivisionForEveryWidthAndHash) {
  // The candidates' columns without a division (Lemire's direct remainder) must equal
  // h % width exactly: every width up to 5000, the largest allowed, widths next to
  // powers of two, and hashes at the edges (0, 2^64 - 1, multiples of the width and
  // their neighbours) and random.
  std::vector<int64_t> widths;
  for (int64_t w = 2; w <= 5000; ++w) widths.push_back(w);
  for (int b = 13; b <= 22; ++b)
    for (int64_t d : {-1, 0, 1}) widths.push_back((int64_t{1} << b) + d);
  widths.push_back(ldp::kMaxSketchCells);
  ldp::SeededRandom rng(99);
  int64_t checked = 0;
  for (int64_t w : widths) {
    if (w > ldp::kMaxSketchCells) continue;
    const ldp::SketchColumns column(w);
    const auto uw = static_cast<uint64_t>(w);
    std::vector<uint64_t> hs = {0, 1, uw - 1, uw, uw + 1, ~uint64_t{0}, ~uint64_t{0} - 1,
                                (~uint64_t{0} / uw) * uw, (~uint64_t{0} / uw) * uw - 1};
    for (int i = 0; i < 64; ++i) hs.push_back(rng.next_u64());
    for (uint64_t h : hs) {
      ASSERT_EQ(column(h), static_cast<int64_t>(h % uw)) << "h " << h << " width " << w;
      ASSERT_EQ(column(h), ldp::sketch_column(h, w));
      ++checked;
    }
  }
  EXPECT_GT(checked, 360000);
}
}  // namespace
