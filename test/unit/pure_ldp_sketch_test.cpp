// Cross-check against pure-LDP's CMS and HCMS (test/data/pure_ldp_sketch/, made by
// test/data/make_pure_ldp_sketch_fixture.py with pure-LDP's own clients and
// servers): the reports its clients produced, decoded by the core, give its
// servers' estimates (their estimate is our count) to floating-point rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/sketch/sketch_summary.hpp"
#include "sketch_test_support.hpp"

#ifndef LDP_TEST_DATA_DIR
#error "LDP_TEST_DATA_DIR must name test/data (CMakeLists.txt defines it)"
#endif

namespace {

const std::string kDir = std::string(LDP_TEST_DATA_DIR) + "/pure_ldp_sketch/";

std::vector<std::vector<std::string>> lines(const std::string& name) {
  std::ifstream in(kDir + name);
  EXPECT_TRUE(in.good()) << kDir + name;
  std::vector<std::vector<std::string>> out;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, '\t')) fields.push_back(f);
    out.push_back(fields);
  }
  return out;
}

std::map<std::string, std::string> params() {
  std::map<std::string, std::string> p;
  std::ifstream in(kDir + "params.txt");
  std::string line;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (eq != std::string::npos) p[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return p;
}

// pure-LDP's estimates of one protocol: item -> estimate.
std::map<std::string, double> estimates(const std::string& protocol) {
  std::map<std::string, double> out;
  for (const auto& f : lines("estimates.txt"))
    if (f.size() == 3 && f[0] == protocol) out[f[1]] = std::stod(f[2]);
  return out;
}

void expect_same(const ldp_test::Sketch& s, const std::string& protocol) {
  auto want = estimates(protocol);
  ASSERT_GE(want.size(), 40u);
  ldp_test::Prepared p(s);
  double worst = 0;
  for (const auto& [item, est] : want) {
    double got = p(item).count;
    // relative to the estimates' scale (an estimate near 0 has no relative digits)
    double err = std::fabs(got - est) / static_cast<double>(s->n);
    worst = std::fmax(worst, err);
    EXPECT_LE(err, 1e-12) << protocol << " " << item << ": ours " << got << ", pure-LDP " << est;
  }
  std::printf("%s: %zu items, max |ours - pure-LDP| / n = %.3g\n", protocol.c_str(), want.size(), worst);
}

TEST(PureLdpSketch, CmsEstimatesEqualPureLdps) {
  auto p = params();
  ldp_test::Sketch s(ldp::SketchMechanism::CMS, std::stod(p["epsilon"]), std::stoll(p["cms_k"]),
                     std::stoll(p["cms_m"]));
  for (const auto& f : lines("cms_reports.txt")) {
    ASSERT_EQ(f.size(), 2u);
    std::vector<uint8_t> bytes((f[1].size() + 7) / 8, 0);
    for (size_t i = 0; i < f[1].size(); ++i)
      if (f[1][i] == '1') bytes[i / 8] |= static_cast<uint8_t>(0x80 >> (i % 8));
    ldp::sketch_add_cms(s.get(), std::stoll(f[0]), bytes.data(), static_cast<int64_t>(f[1].size()));
  }
  EXPECT_EQ(s->n, std::stoll(p["cms_n"]));
  expect_same(s, "cms");
}

TEST(PureLdpSketch, HcmsEstimatesEqualPureLdps) {
  auto p = params();
  ldp_test::Sketch s(ldp::SketchMechanism::HCMS, std::stod(p["epsilon"]), std::stoll(p["hcms_k"]),
                     std::stoll(p["hcms_m"]));
  for (const auto& f : lines("hcms_reports.txt")) {
    ASSERT_EQ(f.size(), 3u);
    ldp::sketch_add_signed(s.get(), std::stoll(f[0]), std::stoll(f[1]), f[2] == "1");
  }
  EXPECT_EQ(s->n, std::stoll(p["hcms_n"]));
  expect_same(s, "hcms");
}

}  // namespace
