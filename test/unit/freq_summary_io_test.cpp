// The text and binary forms of the frequency-oracle summary: pinned layouts,
// lossless byte-identical round trips, and every kind of malformed input rejected
// with InvalidText / InvalidBinary.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
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
using ldp_test::Freq;
using ldp_test::format2;
using ldp_test::hex;
using ldp_test::ThrowsKind;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

Freq Grr() { return Freq(FreqMechanism::GRR, {1, 4, 0}, 10, {1, 2, 3, 4}); }
Freq Dbf() {
  return Freq(FreqMechanism::DBitFlip, {1, 4, 2}, 3, {2, 1, 2, 1, /*ones*/ 1, 0, 2, 0});
}
Freq Had() { return Freq(FreqMechanism::Hadamard, {1, 3, 0}, 10, {2, -3, 1, 4}); }

TEST(FreqTextForm, IsPinned) {
  EXPECT_EQ(Grr().text(), "v1:grr{epsilon=1,k=4,n=10,counts=[1,2,3,4]}");
  EXPECT_EQ(Freq(FreqMechanism::SUE, {0.5, 3, 0}, 2, {0, 2, 1}).text(),
            "v1:sue{epsilon=0.5,k=3,n=2,counts=[0,2,1]}");
  EXPECT_EQ(Freq(FreqMechanism::OUE, {std::log(3.0), 2, 0}, 0, {0, 0}).text(),
            "v1:oue{epsilon=1.0986122886681098,k=2,n=0,counts=[0,0]}");
  EXPECT_EQ(Dbf().text(), "v1:dbitflip{epsilon=1,k=4,d=2,n=3,holders=[2,1,2,1],ones=[1,0,2,0]}");
  EXPECT_EQ(Freq(FreqMechanism::OLH, {1e-4, 3, 0}, 4, {4, 0, 1}).text(),
            "v1:olh{epsilon=1e-04,k=3,n=4,counts=[4,0,1]}");
  EXPECT_EQ(Had().text(), "v1:hadamard{epsilon=1,k=3,n=10,sums=[2,-3,1,4]}");
  EXPECT_EQ(Freq(FreqMechanism::Hadamard, {700, 4, 0}).text(),
            "v1:hadamard{epsilon=700,k=4,n=0,sums=[0,0,0,0,0,0,0,0]}");
}

// Builds binary forms field by field (big-endian, as PostgreSQL sends).
struct Bin {
  std::vector<uint8_t> b;
  Bin& u8(uint8_t v) {
    b.push_back(v);
    return *this;
  }
  Bin& i64(int64_t x) {
    auto v = static_cast<uint64_t>(x);
    for (int i = 7; i >= 0; --i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Bin& f64(double d) {
    int64_t v;
    std::memcpy(&v, &d, 8);
    return i64(v);
  }
  Bin& i64s(std::initializer_list<int64_t> xs) {
    for (int64_t x : xs) i64(x);
    return *this;
  }
};

Bin GrrBin(double eps, int64_t k, int64_t n) { return Bin().u8(1).u8(1).f64(eps).i64(k).i64(n); }
Bin DbfBin(int64_t k, int64_t d, int64_t n) { return Bin().u8(1).u8(4).f64(1).i64(k).i64(d).i64(n); }
Bin HadBin(int64_t k, int64_t n) { return Bin().u8(1).u8(6).f64(1).i64(k).i64(n); }

// Format 2 (common/stored_form.hpp): "LDPS", format 2, family 2 (frequency), then
// the format-1 body; format 1 (send up to 0.4.0) still reads to the same summary.
TEST(FreqBinaryForm, IsPinned) {
  EXPECT_EQ(Grr().binary(), format2(GrrBin(1, 4, 10).i64s({1, 2, 3, 4}).b, 2));
  EXPECT_EQ(Dbf().binary(), format2(DbfBin(4, 2, 3).i64s({2, 1, 2, 1, 1, 0, 2, 0}).b, 2));
  EXPECT_EQ(Had().binary(), format2(HadBin(3, 10).i64s({2, -3, 1, 4}).b, 2));
  EXPECT_EQ(Grr().binary().size(), 6 + 1 + 8 * 3 + 8 * 4u);
  EXPECT_EQ(hex(Had().binary()), "4c445053" "02" "02" "06" "3ff0000000000000" "0000000000000003"
                                 "000000000000000a" "0000000000000002" "fffffffffffffffd"
                                 "0000000000000001" "0000000000000004");
  for (const Bin& f1 : {GrrBin(1, 4, 10).i64s({1, 2, 3, 4}), DbfBin(4, 2, 3).i64s({2, 1, 2, 1, 1, 0, 2, 0}),
                        HadBin(3, 10).i64s({2, -3, 1, 4})})
    EXPECT_EQ(Freq::from_binary(f1.b).binary(), format2(f1.b, 2));
}

// Summaries of encoded reports of every mechanism, and edge cases.
std::vector<Freq> Samples() {
  std::vector<Freq> out;
  ldp::SeededRandom rng(5);
  const double eps = 1.7;
  Freq grr(FreqMechanism::GRR, {eps, 9, 0}), sue(FreqMechanism::SUE, {eps, 13, 0}),
      oue(FreqMechanism::OUE, {0.3, 8, 0}), dbf(FreqMechanism::DBitFlip, {eps, 9, 4}),
      olh(FreqMechanism::OLH, {eps, 30, 0}), had(FreqMechanism::Hadamard, {eps, 9, 0});
  uint8_t bytes[2];
  int32_t buckets[4];
  bool bits[4];
  for (int i = 0; i < 200; ++i) {
    int64_t x = i % 7;
    ldp::freq_add_item(grr.get(), ldp::grr_encode(x, eps, 9, rng));
    ldp::sue_encode(x, eps, 13, rng, bytes);
    ldp::freq_add_bits(sue.get(), bytes, 13);
    ldp::oue_encode(x, 0.3, 8, rng, bytes);
    ldp::freq_add_bits(oue.get(), bytes, 8);
    ldp::dbitflip_encode(x, eps, 9, 4, rng, buckets, bits);
    ldp::freq_add_dbitflip(dbf.get(), buckets, bits, 4);
    ldp::OlhReport o = ldp::olh_encode(x, eps, 30, rng);
    ldp::freq_add_olh(olh.get(), static_cast<uint64_t>(o.seed), o.y);
    ldp::HadamardReport h = ldp::hadamard_encode(x, eps, 9, rng);
    ldp::freq_add_hadamard(had.get(), h.row, h.plus_one);
  }
  for (Freq* f : {&grr, &sue, &oue, &dbf, &olh, &had}) out.push_back(*f);
  out.push_back(Grr());
  out.push_back(Dbf());
  out.push_back(Had());
  out.push_back(Freq(FreqMechanism::GRR, {0.1, 2, 0}));  // empty
  out.push_back(Freq(FreqMechanism::SUE, {std::nextafter(700.0, 0.0), 3, 0}));
  out.push_back(Freq(FreqMechanism::DBitFlip, {ldp::kMinEpsilon, 3, 3}));  // the smallest epsilon
  const int64_t big = INT64_MAX;
  out.push_back(Freq(FreqMechanism::GRR, {1, 2, 0}, big, {big, 0}));
  out.push_back(Freq(FreqMechanism::Hadamard, {1, 2, 0}, big, {-big, 0, 0, 0}));
  return out;
}

TEST(FreqRoundTrip, TextAndBinaryAreLosslessAndByteIdentical) {
  for (const Freq& s : Samples()) {
    std::string text = s.text();
    SCOPED_TRACE(text);
    Freq t = Freq::from_text(text);
    EXPECT_TRUE(t.same_bytes(s));
    EXPECT_EQ(t.text(), text);
    EXPECT_EQ(ldp::freq_summary_parse_size(text.c_str()), s.size());
    std::vector<uint8_t> bin = s.binary();
    Freq b = Freq::from_binary(bin);
    EXPECT_TRUE(b.same_bytes(s));
    EXPECT_EQ(b.binary(), bin);
    EXPECT_EQ(ldp::freq_summary_binary_parse_size(bin.data(), bin.size()), s.size());
    t.check();
    b.check();
  }
}

TEST(FreqRoundTrip, OutputBuffersMustBeLargeEnough) {
  Freq s = Grr();
  std::vector<char> text(ldp::freq_summary_text_size(*s) - 1);
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal,
                         [&] { ldp::freq_summary_to_text(*s, text.data(), text.size()); }));
  std::vector<uint8_t> bin(ldp::freq_summary_binary_size(*s) - 1);
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal,
                         [&] { ldp::freq_summary_to_binary(*s, bin.data(), bin.size()); }));
  // the parse needs the size parse_size gave
  std::string t = s.text();
  std::vector<uint64_t> buf(s.size() / 8 + 1);
  EXPECT_TRUE(ThrowsKind(ErrorKind::Internal, [&] {
    ldp::freq_summary_from_text(t.c_str(), reinterpret_cast<ldp::FreqSummary*>(buf.data()),
                                s.size() + 8);
  }));
}

// A short input cannot make the caller allocate a huge summary.
TEST(FreqParseSize, RejectsShortInputsClaimingHugeSummaries) {
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [] {
    ldp::freq_summary_parse_size("v1:sue{epsilon=1,k=4194304,n=0,counts=[0]}");
  }));
  std::vector<uint8_t> b = Bin().u8(1).u8(2).f64(1).i64(4194304).i64(0).i64(0).b;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary,
                         [&] { ldp::freq_summary_binary_parse_size(b.data(), b.size()); }));
  // the size comes from the header alone
  EXPECT_EQ(ldp::freq_summary_parse_size("v1:hadamard{epsilon=1,k=3,n=1,sums=[9,9,9,9]}"),
            sizeof(ldp::FreqSummary) + 4 * 8);
}

// ---------------------------------------------------------------------------
// Malformed text.

struct BadText {
  const char* name;
  std::string text;
};
void PrintTo(const BadText& c, std::ostream* os) { *os << c.name; }

class MalformedFreqText : public ::testing::TestWithParam<BadText> {};

TEST_P(MalformedFreqText, IsInvalidText) {
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { Freq::from_text(GetParam().text); }))
      << GetParam().text;
}

const std::string G = "v1:grr{epsilon=1,k=4,";  // + n=10,counts=[1,2,3,4]}
const std::string D = "v1:dbitflip{epsilon=1,k=4,d=2,";  // + n=3,holders=[2,1,2,1],ones=[1,0,2,0]}
const std::string H = "v1:hadamard{epsilon=1,k=3,";  // + n=10,sums=[2,-3,1,4]}

INSTANTIATE_TEST_SUITE_P(
    Inputs, MalformedFreqText,
    ::testing::Values(
        BadText{"empty", ""}, BadText{"version_2", "v2:grr{epsilon=1,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"version_0", "v0:grr{epsilon=1,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"version_10", "v10:grr{epsilon=1,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"no_version", "grr{epsilon=1,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"unknown_mechanism", "v1:rr{epsilon=1,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"uppercase_mechanism", "v1:GRR{epsilon=1,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"no_braces", "v1:grr"}, BadText{"unclosed", G + "n=10,counts=[1,2,3,4]"},
        BadText{"unclosed_array", G + "n=10,counts=[1,2,3,4}"},
        BadText{"missing_counts", G + "n=10}"}, BadText{"missing_n", G + "counts=[1,2,3,4]}"},
        BadText{"missing_k", "v1:grr{epsilon=1,n=10,counts=[1,2,3,4]}"},
        BadText{"missing_epsilon", "v1:grr{k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"fields_reordered", "v1:grr{k=4,epsilon=1,n=10,counts=[1,2,3,4]}"},
        BadText{"space_after_comma", "v1:grr{epsilon=1, k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"space_in_array", G + "n=10,counts=[1, 2,3,4]}"},
        BadText{"space_before_value", G + "n= 10,counts=[1,2,3,4]}"},
        BadText{"trailing_text", G + "n=10,counts=[1,2,3,4]}x"},
        BadText{"trailing_space", G + "n=10,counts=[1,2,3,4]} "},
        BadText{"trailing_brace", G + "n=10,counts=[1,2,3,4]}}"},
        BadText{"leading_space", " " + G + "n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_empty", "v1:grr{epsilon=,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_garbage", "v1:grr{epsilon=1x,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_nan", "v1:grr{epsilon=nan,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_inf", "v1:grr{epsilon=inf,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_overflow", "v1:grr{epsilon=1e999,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_zero", "v1:grr{epsilon=0,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_negative", "v1:grr{epsilon=-1,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_over_700", "v1:grr{epsilon=701,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_plus", "v1:grr{epsilon=+1,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"epsilon_hex", "v1:grr{epsilon=0x1p0,k=4,n=10,counts=[1,2,3,4]}"},
        BadText{"k_1", "v1:grr{epsilon=1,k=1,n=1,counts=[1]}"},
        BadText{"k_fraction", "v1:grr{epsilon=1,k=4.0,n=10,counts=[1,2,3,4]}"},
        BadText{"k_negative", "v1:grr{epsilon=1,k=-4,n=10,counts=[1,2,3,4]}"},
        BadText{"k_over_max", "v1:grr{epsilon=1,k=4194305,n=10,counts=[1,2,3,4]}"},
        BadText{"k_over_bigint", "v1:grr{epsilon=1,k=9223372036854775808,n=10,counts=[1]}"},
        BadText{"n_negative", G + "n=-1,counts=[0,0,0,0]}"},
        BadText{"n_fraction", G + "n=1.5,counts=[1,0,0,0]}"},
        BadText{"n_plus", G + "n=+10,counts=[1,2,3,4]}"},
        BadText{"n_over_bigint", G + "n=9223372036854775808,counts=[1,2,3,4]}"},
        BadText{"n_empty", G + "n=,counts=[1,2,3,4]}"},
        BadText{"counts_too_few", G + "n=6,counts=[1,2,3]}"},
        BadText{"counts_too_many", G + "n=10,counts=[1,2,3,4,0]}"},
        BadText{"counts_empty_array", G + "n=0,counts=[]}"},
        BadText{"counts_empty_value", G + "n=10,counts=[1,,3,4]}"},
        BadText{"counts_trailing_comma", G + "n=10,counts=[1,2,3,4,]}"},
        BadText{"counts_no_brackets", G + "n=10,counts=1,2,3,4}"},
        BadText{"counts_wrong_name", G + "n=10,count=[1,2,3,4]}"},
        BadText{"counts_negative", G + "n=10,counts=[-1,2,5,4]}"},
        BadText{"counts_fraction", G + "n=10,counts=[1.0,2,3,4]}"},
        BadText{"counts_nan", G + "n=10,counts=[nan,2,3,4]}"},
        BadText{"counts_over_bigint", G + "n=10,counts=[99999999999999999999,2,3,4]}"},
        BadText{"grr_sum_below_n", G + "n=11,counts=[1,2,3,4]}"},
        BadText{"grr_sum_above_n", G + "n=9,counts=[1,2,3,4]}"},
        BadText{"grr_count_above_n", G + "n=5,counts=[6,0,0,0]}"},
        BadText{"grr_with_d", "v1:grr{epsilon=1,k=4,d=2,n=10,counts=[1,2,3,4]}"},
        BadText{"n0_with_counts", "v1:sue{epsilon=1,k=2,n=0,counts=[0,1]}"},
        BadText{"sue_count_above_n", "v1:sue{epsilon=1,k=2,n=3,counts=[4,0]}"},
        BadText{"oue_count_negative", "v1:oue{epsilon=1,k=2,n=3,counts=[-1,0]}"},
        BadText{"olh_count_above_n", "v1:olh{epsilon=1,k=2,n=3,counts=[1,4]}"},
        BadText{"olh_epsilon_too_large", "v1:olh{epsilon=16,k=2,n=0,counts=[0,0]}"},
        BadText{"dbitflip_missing_d", "v1:dbitflip{epsilon=1,k=4,n=3,holders=[2,1,2,1],ones=[1,0,2,0]}"},
        BadText{"dbitflip_d_zero", "v1:dbitflip{epsilon=1,k=4,d=0,n=0,holders=[0,0,0,0],ones=[0,0,0,0]}"},
        BadText{"dbitflip_d_over_k", "v1:dbitflip{epsilon=1,k=4,d=5,n=0,holders=[0,0,0,0],ones=[0,0,0,0]}"},
        BadText{"dbitflip_missing_ones", D + "n=3,holders=[2,1,2,1]}"},
        BadText{"dbitflip_arrays_swapped", D + "n=3,ones=[1,0,2,0],holders=[2,1,2,1]}"},
        BadText{"dbitflip_holders_sum", D + "n=3,holders=[2,1,2,2],ones=[1,0,2,0]}"},
        BadText{"dbitflip_holder_above_n", D + "n=3,holders=[4,0,2,0],ones=[1,0,2,0]}"},
        BadText{"dbitflip_ones_above_holders", D + "n=3,holders=[2,1,2,1],ones=[1,2,2,0]}"},
        BadText{"dbitflip_ones_negative", D + "n=3,holders=[2,1,2,1],ones=[1,-1,2,0]}"},
        BadText{"dbitflip_ones_short", D + "n=3,holders=[2,1,2,1],ones=[1,0,2]}"},
        BadText{"hadamard_k_values", H + "n=10,sums=[2,-3,1]}"},
        BadText{"hadamard_sum_above_n", H + "n=3,sums=[4,0,0,-1]}"},
        BadText{"hadamard_abs_total_above_n", H + "n=9,sums=[2,-3,1,4]}"},
        BadText{"hadamard_parity", H + "n=11,sums=[2,-3,1,4]}"},
        BadText{"hadamard_minus_alone", H + "n=10,sums=[2,-,1,4]}"},
        BadText{"hadamard_double_minus", H + "n=10,sums=[2,--3,1,4]}"},
        BadText{"hadamard_plus", H + "n=10,sums=[+2,-3,1,4]}"},
        BadText{"huge_k_short_text", "v1:oue{epsilon=1,k=4194304,n=0,counts=[0]}"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(FreqTextErrors, MessagesSayWhatWasExpected) {
  auto message = [](const std::string& t) -> std::string {
    try {
      Freq::from_text(t);
    } catch (const ldp::Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_NE(message(G + "n=6,counts=[1,2,3]}").find("counts has 3 values, expected 4"),
            std::string::npos);
  EXPECT_NE(message(G + "n=10,counts=[1,2,3,4,0]}").find("more than the 4 values"),
            std::string::npos);
  EXPECT_NE(message("v1:grr{epsilon=nan,k=4,n=10,counts=[1,2,3,4]}").find("a finite number"),
            std::string::npos);
  EXPECT_NE(message(G + "n=10,counts=[-1,2,5,4]}").find("a non-negative integer"),
            std::string::npos);
  EXPECT_NE(message("v1:rr{epsilon=1}").find("a mechanism name"), std::string::npos);
  EXPECT_NE(message(G + "n=11,counts=[1,2,3,4]}").find("sum to n = 11"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Malformed binary.

struct BadBinary {
  const char* name;
  std::vector<uint8_t> bytes;
};
void PrintTo(const BadBinary& c, std::ostream* os) { *os << c.name; }

class MalformedFreqBinary : public ::testing::TestWithParam<BadBinary> {};

TEST_P(MalformedFreqBinary, IsInvalidBinary) {
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { Freq::from_binary(GetParam().bytes); }));
}

std::vector<uint8_t> Truncated(std::vector<uint8_t> b, size_t drop) {
  b.resize(b.size() - drop);
  return b;
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, MalformedFreqBinary,
    ::testing::Values(
        BadBinary{"empty", {}}, BadBinary{"version_only", {1}},
        BadBinary{"version_2", Bin().u8(2).u8(1).f64(1).i64(4).i64(10).i64s({1, 2, 3, 4}).b},
        BadBinary{"version_0", Bin().u8(0).u8(1).f64(1).i64(4).i64(10).i64s({1, 2, 3, 4}).b},
        BadBinary{"mechanism_0", Bin().u8(1).u8(0).f64(1).i64(4).i64(10).i64s({1, 2, 3, 4}).b},
        BadBinary{"mechanism_7", Bin().u8(1).u8(7).f64(1).i64(4).i64(10).i64s({1, 2, 3, 4}).b},
        BadBinary{"truncated_header", Bin().u8(1).u8(1).f64(1).b},
        BadBinary{"truncated_counters", Truncated(GrrBin(1, 4, 10).i64s({1, 2, 3, 4}).b, 3)},
        BadBinary{"missing_counter", GrrBin(1, 4, 6).i64s({1, 2, 3}).b},
        BadBinary{"trailing_byte", GrrBin(1, 4, 10).i64s({1, 2, 3, 4}).u8(0).b},
        BadBinary{"epsilon_nan", GrrBin(kNaN, 4, 10).i64s({1, 2, 3, 4}).b},
        BadBinary{"epsilon_inf", GrrBin(kInf, 4, 10).i64s({1, 2, 3, 4}).b},
        BadBinary{"epsilon_zero", GrrBin(0, 4, 10).i64s({1, 2, 3, 4}).b},
        BadBinary{"epsilon_negative", GrrBin(-1, 4, 10).i64s({1, 2, 3, 4}).b},
        BadBinary{"k_1", GrrBin(1, 1, 1).i64s({1}).b},
        BadBinary{"k_negative", GrrBin(1, -4, 10).i64s({1, 2, 3, 4}).b},
        BadBinary{"k_huge", GrrBin(1, int64_t{1} << 40, 10).i64s({1, 2, 3, 4}).b},
        BadBinary{"n_negative", GrrBin(1, 4, -1).i64s({0, 0, 0, 0}).b},
        BadBinary{"grr_sum", GrrBin(1, 4, 11).i64s({1, 2, 3, 4}).b},
        BadBinary{"grr_negative", GrrBin(1, 4, 10).i64s({-1, 3, 4, 4}).b},
        BadBinary{"grr_overflowing_counts", GrrBin(1, 2, INT64_MAX).i64s({INT64_MAX, INT64_MAX}).b},
        BadBinary{"dbitflip_d_zero", DbfBin(4, 0, 0).i64s({0, 0, 0, 0, 0, 0, 0, 0}).b},
        BadBinary{"dbitflip_d_over_k", DbfBin(4, 5, 0).i64s({0, 0, 0, 0, 0, 0, 0, 0}).b},
        BadBinary{"dbitflip_holders_sum", DbfBin(4, 2, 3).i64s({2, 2, 2, 1, 1, 0, 2, 0}).b},
        BadBinary{"dbitflip_ones_above_holders", DbfBin(4, 2, 3).i64s({2, 1, 2, 1, 3, 0, 2, 0}).b},
        BadBinary{"dbitflip_k_counters", DbfBin(4, 2, 3).i64s({2, 1, 2, 1}).b},
        BadBinary{"hadamard_parity", HadBin(3, 11).i64s({2, -3, 1, 4}).b},
        BadBinary{"hadamard_abs_above_n", HadBin(3, 10).i64s({2, -3, 1, -11}).b},
        BadBinary{"hadamard_int64_min", HadBin(3, 10).i64s({INT64_MIN, 0, 0, 0}).b},
        BadBinary{"hadamard_k_counters", HadBin(3, 10).i64s({2, -3, 1}).b},
        BadBinary{"olh_epsilon_too_large",
                  Bin().u8(1).u8(5).f64(16).i64(2).i64(0).i64s({0, 0}).b}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
