// The text and binary forms of the mean summary: pinned layouts, and every kind
// of malformed input rejected with InvalidText / InvalidBinary.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "core/common/exact_sum.hpp"
#include "core/mean/mean_summary.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::MeanMechanism;
using ldp_test::format2;
using ldp_test::hex;
using ldp_test::bits;
using ldp_test::reals;
using ldp_test::Summary;
using ldp_test::ThrowsKind;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------
// Malformed text and binary.

// The exact forms these malformed inputs are derived from.
TEST(TextForm, IsPinned) {
  EXPECT_EQ(bits(MeanMechanism::RR, {1, 1, 0}, 8, 6).text(), "v1:rr{epsilon=1,n=8,ones=6}");
  EXPECT_EQ(bits(MeanMechanism::OneBit, {1, 10, 0.2}, 8, 6).text(),
            "v1:onebit{epsilon=1,max_value=10,gamma=0.2,n=8,ones=6}");
  EXPECT_EQ(reals(MeanMechanism::Laplace, {1, 10, 0}, {5}).text(),
            "v1:laplace{epsilon=1,max_value=10,n=1,sum=0x5p0,sumsq_unit=0x40000000p-32}");
  EXPECT_EQ(Summary(MeanMechanism::Piecewise, {1, 10, 0}).text(),
            "v1:piecewise{epsilon=1,max_value=10,n=0,sum=0,sumsq_unit=0}");
}

struct BadText {
  const char* name;
  std::string text;
};

void PrintTo(const BadText& c, std::ostream* os) { *os << c.name; }

class MalformedText : public ::testing::TestWithParam<BadText> {};

TEST_P(MalformedText, IsInvalidText) {
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidText, [&] { Summary::from_text(GetParam().text); }))
      << GetParam().text;
}

// rr: v1:rr{epsilon=1,n=8,ones=6}
const std::string kRrTail = ",n=8,ones=6}";
const std::string kOneBitHead = "v1:onebit{epsilon=1,max_value=10,gamma=0";
const std::string kLaplaceHead = "v1:laplace{epsilon=1,max_value=10,";

INSTANTIATE_TEST_SUITE_P(
    Inputs, MalformedText,
    ::testing::Values(
        BadText{"empty", ""}, BadText{"version_2", "v2:rr{epsilon=1" + kRrTail},
        BadText{"version_0", "v0:rr{epsilon=1" + kRrTail},
        BadText{"version_10", "v10:rr{epsilon=1" + kRrTail},
        BadText{"no_version", "rr{epsilon=1" + kRrTail},
        BadText{"unknown_mechanism", "v1:grr{epsilon=1" + kRrTail},
        BadText{"uppercase_mechanism", "v1:RR{epsilon=1" + kRrTail}, BadText{"no_braces", "v1:rr"},
        BadText{"unclosed", "v1:rr{epsilon=1,n=8,ones=6"},
        BadText{"missing_ones", "v1:rr{epsilon=1,n=8}"},
        BadText{"missing_n", "v1:rr{epsilon=1,ones=6}"},
        BadText{"missing_epsilon", "v1:rr{n=8,ones=6}"},
        BadText{"fields_reordered", "v1:rr{n=8,epsilon=1,ones=6}"},
        BadText{"space_after_comma", "v1:rr{epsilon=1, n=8,ones=6}"},
        BadText{"rr_with_max_value", "v1:rr{epsilon=1,max_value=1" + kRrTail},
        BadText{"rr_with_sums", "v1:rr{epsilon=1,n=1,sum=0x1p0,sumsq_unit=0x1p0}"},
        BadText{"onebit_missing_gamma", "v1:onebit{epsilon=1,max_value=10" + kRrTail},
        BadText{"onebit_missing_max_value", "v1:onebit{epsilon=1,gamma=0" + kRrTail},
        BadText{"trailing_text", "v1:rr{epsilon=1" + kRrTail + "x"},
        BadText{"trailing_space", "v1:rr{epsilon=1" + kRrTail + " "},
        BadText{"trailing_brace", "v1:rr{epsilon=1" + kRrTail + "}"},
        BadText{"empty_value", "v1:rr{epsilon=" + kRrTail},
        BadText{"epsilon_garbage", "v1:rr{epsilon=1x" + kRrTail},
        BadText{"epsilon_nan", "v1:rr{epsilon=nan" + kRrTail},
        BadText{"epsilon_inf", "v1:rr{epsilon=inf" + kRrTail},
        BadText{"epsilon_overflow", "v1:rr{epsilon=1e999" + kRrTail},
        BadText{"epsilon_zero", "v1:rr{epsilon=0" + kRrTail},
        BadText{"epsilon_negative", "v1:rr{epsilon=-1" + kRrTail},
        BadText{"epsilon_over_700", "v1:rr{epsilon=701" + kRrTail},
        BadText{"max_value_inf", "v1:onebit{epsilon=1,max_value=inf,gamma=0" + kRrTail},
        BadText{"max_value_zero", "v1:onebit{epsilon=1,max_value=0,gamma=0" + kRrTail},
        BadText{"gamma_nan", "v1:onebit{epsilon=1,max_value=10,gamma=nan" + kRrTail},
        BadText{"gamma_half", "v1:onebit{epsilon=1,max_value=10,gamma=0.5" + kRrTail},
        BadText{"gamma_negative", "v1:onebit{epsilon=1,max_value=10,gamma=-0.1" + kRrTail},
        BadText{"n_negative", kOneBitHead + ",n=-1,ones=0}"},
        BadText{"n_fraction", kOneBitHead + ",n=1.5,ones=0}"},
        BadText{"n_plus_sign", kOneBitHead + ",n=+8,ones=6}"},
        BadText{"n_over_bigint", kOneBitHead + ",n=9223372036854775808,ones=6}"},
        BadText{"n_20_digits", kOneBitHead + ",n=10000000000000000000,ones=6}"},
        BadText{"ones_above_n", kOneBitHead + ",n=8,ones=9}"},
        BadText{"ones_negative", kOneBitHead + ",n=8,ones=-1}"},
        BadText{"n0_with_sum", kLaplaceHead + "n=0,sum=0x5p0,sumsq_unit=0}"},
        BadText{"n0_with_sumsq", kLaplaceHead + "n=0,sum=0,sumsq_unit=0x40000000p-32}"},
        BadText{"sum_above_range", kLaplaceHead + "n=1,sum=0x4000p0,sumsq_unit=0x40000000p-32}"},
        BadText{"sum_below_range",
                "v1:piecewise{epsilon=1,max_value=10,n=1,sum=-0x4000p0,sumsq_unit=0x1p0}"},
        BadText{"sumsq_below_cauchy_schwarz", kLaplaceHead + "n=2,sum=0xap0,sumsq_unit=0}"},
        BadText{"sumsq_above_range", kLaplaceHead + "n=1,sum=0x5p0,sumsq_unit=0x1p40}"},
        BadText{"sumsq_negative", kLaplaceHead + "n=1,sum=0x5p0,sumsq_unit=-0x40000000p-32}"},
        BadText{"sum_not_hex", kLaplaceHead + "n=1,sum=5,sumsq_unit=0x40000000p-32}"},
        BadText{"sum_bad_hex", kLaplaceHead + "n=1,sum=0x5q0,sumsq_unit=0x40000000p-32}"},
        BadText{"sum_nan", kLaplaceHead + "n=1,sum=nan,sumsq_unit=0x40000000p-32}"},
        BadText{"sum_out_of_exact_range", kLaplaceHead + "n=1,sum=0x1p2000,sumsq_unit=0}"},
        BadText{"missing_sumsq", kLaplaceHead + "n=1,sum=0x5p0}"},
        BadText{"laplace_with_ones", kLaplaceHead + "n=8,ones=6}"}),
    [](const auto& info) { return std::string(info.param.name); });

// Builds binary forms field by field (big-endian, as PostgreSQL sends).
struct Bin {
  std::vector<uint8_t> b;
  Bin& u8(uint8_t v) {
    b.push_back(v);
    return *this;
  }
  Bin& u64(uint64_t v) {
    for (int i = 7; i >= 0; --i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Bin& i64(int64_t v) { return u64(static_cast<uint64_t>(v)); }
  Bin& f64(double d) {
    uint64_t v;
    std::memcpy(&v, &d, 8);
    return u64(v);
  }
  Bin& exact(double x) {  // the ExactSum form of a single double
    ldp::ExactSum s;
    s.clear();
    s.add(x);
    s.to_bytes(b);
    return *this;
  }
  Bin& raw(std::initializer_list<uint8_t> bytes) {
    b.insert(b.end(), bytes);
    return *this;
  }
};

Bin rr_bin(uint8_t version, uint8_t mech, double eps, int64_t n, int64_t ones) {
  return Bin().u8(version).u8(mech).f64(eps).i64(n).i64(ones);
}
Bin onebit_bin(double eps, double m, double gamma, int64_t n, int64_t ones) {
  return Bin().u8(1).u8(2).f64(eps).f64(m).f64(gamma).i64(n).i64(ones);
}
Bin laplace_bin(int64_t n) { return Bin().u8(1).u8(3).f64(1).f64(10).i64(n); }

// Format 2 (common/stored_form.hpp): "LDPS", format 2, family 1 (mean), then the
// format-1 body; format 1 (send up to 0.4.0) still reads to the same summary.
TEST(BinaryForm, IsPinned) {
  Summary rr = bits(MeanMechanism::RR, {1, 1, 0}, 8, 6);
  EXPECT_EQ(rr.binary(), format2(rr_bin(1, 1, 1, 8, 6).b, 1));
  EXPECT_EQ(hex(rr.binary()),
            "4c445053" "02" "01" "01" "3ff0000000000000" "0000000000000008" "0000000000000006");
  Summary onebit = bits(MeanMechanism::OneBit, {1, 10, 0.2}, 8, 6);
  EXPECT_EQ(onebit.binary(), format2(onebit_bin(1, 10, 0.2, 8, 6).b, 1));
  Summary laplace = reals(MeanMechanism::Laplace, {1, 10, 0}, {5});
  EXPECT_EQ(laplace.binary(), format2(laplace_bin(1).exact(5).exact(0.25).b, 1));
  for (const Bin& f1 : {rr_bin(1, 1, 1, 8, 6), onebit_bin(1, 10, 0.2, 8, 6),
                        laplace_bin(1).exact(5).exact(0.25)}) {
    Summary from1 = Summary::from_binary(f1.b);
    EXPECT_EQ(from1.binary(), format2(f1.b, 1));
  }
}

struct BadBinary {
  const char* name;
  std::vector<uint8_t> bytes;
};

void PrintTo(const BadBinary& c, std::ostream* os) { *os << c.name; }

class MalformedBinary : public ::testing::TestWithParam<BadBinary> {};

TEST_P(MalformedBinary, IsInvalidBinary) {
  EXPECT_TRUE(
      ThrowsKind(ErrorKind::InvalidBinary, [&] { Summary::from_binary(GetParam().bytes); }));
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, MalformedBinary,
    ::testing::Values(BadBinary{"empty", {}}, BadBinary{"version_2", rr_bin(2, 1, 1, 8, 6).b},
                      BadBinary{"version_0", rr_bin(0, 1, 1, 8, 6).b},
                      BadBinary{"mechanism_0", rr_bin(1, 0, 1, 8, 6).b},
                      BadBinary{"mechanism_9", rr_bin(1, 9, 1, 8, 6).b},
                      BadBinary{"trailing_byte", rr_bin(1, 1, 1, 8, 6).u8(0).b},
                      BadBinary{"n_negative", rr_bin(1, 1, 1, -1, 0).b},
                      BadBinary{"ones_above_n", rr_bin(1, 1, 1, 8, 9).b},
                      BadBinary{"ones_negative", rr_bin(1, 1, 1, 8, -1).b},
                      BadBinary{"epsilon_nan", rr_bin(1, 1, kNaN, 8, 6).b},
                      BadBinary{"epsilon_zero", rr_bin(1, 1, 0, 8, 6).b},
                      BadBinary{"epsilon_inf", rr_bin(1, 1, kInf, 8, 6).b},
                      BadBinary{"max_value_inf", onebit_bin(1, kInf, 0, 8, 6).b},
                      BadBinary{"max_value_negative", onebit_bin(1, -10, 0, 8, 6).b},
                      BadBinary{"gamma_half", onebit_bin(1, 10, 0.5, 8, 6).b},
                      BadBinary{"gamma_nan", onebit_bin(1, 10, kNaN, 8, 6).b},
                      BadBinary{"bad_exact_sign",
                                laplace_bin(1).raw({2, 0, 34, 0, 1, 0, 0, 0, 5}).exact(0.25).b},
                      BadBinary{"bad_exact_count",
                                laplace_bin(1).raw({0, 0, 34, 0, 9, 0, 0, 0, 5}).exact(0.25).b},
                      BadBinary{"missing_sumsq", laplace_bin(1).exact(5).b},
                      BadBinary{"n0_with_sum", laplace_bin(0).exact(5).exact(0).b},
                      BadBinary{"sum_above_range", laplace_bin(1).exact(16384).exact(0.25).b},
                      BadBinary{"sumsq_below_cauchy_schwarz", laplace_bin(2).exact(10).exact(0).b},
                      BadBinary{"sumsq_above_range", laplace_bin(1).exact(5).exact(0x1p40).b}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
