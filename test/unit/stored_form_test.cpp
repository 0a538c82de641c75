// The binary forms extension 0.4.0 sent (format 1), recorded on x86-64 by the
// 0.4.0 build (test/data/forms/forms_0.4.0.txt), read by this build: the same
// summary (its text form, recorded alongside) and, written again, format 2 with
// the same body. The codec reads and writes bytes with shifts (common/byte_reader.hpp),
// never a host integer's memory, so these bytes mean the same on any host; the
// tests below pin them byte for byte.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/stored_form.hpp"
#include "freq_test_support.hpp"
#include "test_support.hpp"

#ifndef LDP_TEST_DATA_DIR
#error "LDP_TEST_DATA_DIR must name test/data (CMakeLists.txt defines it)"
#endif

namespace {

using ldp_test::format2;
using ldp_test::hex;
using ldp_test::Freq;
using ldp_test::Summary;
using ldp_test::ThrowsKind;
using ldp::ErrorKind;

struct Recorded {
  std::string label, text;
  std::vector<uint8_t> binary;
};

std::vector<uint8_t> unhex(const std::string& h) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(h.substr(i, 2), nullptr, 16)));
  return out;
}

std::vector<Recorded> recorded() {
  std::ifstream in(std::string(LDP_TEST_DATA_DIR) + "/forms/forms_0.4.0.txt");
  std::vector<Recorded> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, '|');) f.push_back(x);
    if (f.size() == 4) rows.push_back({f[0], f[1], unhex(f[3])});
  }
  return rows;
}

bool is_mean(const std::string& text) {
  for (const char* m : {"v1:rr{", "v1:onebit{", "v1:laplace{", "v1:piecewise{"})
    if (text.rfind(m, 0) == 0) return true;
  return false;
}

TEST(RecordedForms, Format1ReadsAndWritesFormat2) {
  std::vector<Recorded> rows = recorded();
  ASSERT_EQ(rows.size(), 11u) << "test/data/forms/forms_0.4.0.txt";
  for (const Recorded& r : rows) {
    ASSERT_FALSE(r.binary.empty()) << r.label;
    EXPECT_EQ(r.binary[0], ldp::kFormat1Version) << r.label;
    if (is_mean(r.text)) {
      Summary s = Summary::from_binary(r.binary);
      EXPECT_EQ(s.text(), r.text) << r.label;
      EXPECT_EQ(s.binary(), format2(r.binary, 1)) << r.label;
      EXPECT_EQ(Summary::from_binary(s.binary()).text(), r.text) << r.label;
    } else {
      Freq f = Freq::from_binary(r.binary);
      EXPECT_EQ(f.text(), r.text) << r.label;
      EXPECT_EQ(f.binary(), format2(r.binary, 2)) << r.label;
      EXPECT_EQ(Freq::from_binary(f.binary()).text(), r.text) << r.label;
    }
  }
}

TEST(StoredForm, HeaderIsChecked) {
  std::vector<uint8_t> rr = Summary::from_text("v1:rr{epsilon=1,n=8,ones=6}").binary();
  EXPECT_EQ(hex(std::vector<uint8_t>(rr.begin(), rr.begin() + 6)), "4c4450530201");
  std::vector<uint8_t> wrong_family = rr;
  wrong_family[5] = 2;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { Summary::from_binary(wrong_family); }));
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { Freq::from_binary(rr); }));
  std::vector<uint8_t> format3 = rr;
  format3[4] = 3;
  EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { Summary::from_binary(format3); }));
  for (size_t len = 0; len < 7; ++len) {
    std::vector<uint8_t> cut(rr.begin(), rr.begin() + len);
    EXPECT_TRUE(ThrowsKind(ErrorKind::InvalidBinary, [&] { Summary::from_binary(cut); })) << len;
  }
}

}  // namespace
