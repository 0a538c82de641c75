// The range decoders against the authors' code (issue 31): test/data/range/ holds counters
// of HaarHRR reports and what the decoders of github Tejasvk/RangeQueries (Cormode,
// Kulkarni and Srivastava's C++, VLDB 2019) answer for them (bench/range_reference.sh
// regenerates them; test/data/README.md says how). The core decodes the same counters:
// every coefficient and every range must be the peer's, to rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/range/haar.hpp"

#ifndef LDP_TEST_DATA_DIR
#error "LDP_TEST_DATA_DIR must name test/data (CMakeLists.txt defines it)"
#endif

namespace {

const std::string kDir = std::string(LDP_TEST_DATA_DIR) + "/range/";

// The file's lines that are not comments, each split on blanks.
std::vector<std::vector<std::string>> Rows(const std::string& name) {
  std::ifstream in(kDir + name);
  EXPECT_TRUE(in.good()) << "cannot open " << kDir + name;
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    rows.emplace_back();
    for (std::string f; fields >> f;) rows.back().push_back(f);
  }
  return rows;
}

struct HaarCase {
  ldp::RangeProtocol protocol;
  int64_t n = 0;
  ldp::HaarCounts counts{1};
};

HaarCase LoadHaar() {
  const auto rows = Rows("haar_counts.txt");
  HaarCase c;
  if (rows.size() != 3) {
    ADD_FAILURE() << "haar_counts.txt: expected 3 rows, got " << rows.size();
    return c;
  }
  const int k = std::stoi(rows[0][0]);
  c.protocol.domain_bits = k;
  c.protocol.epsilon = std::stod(rows[0][1]);
  c.n = std::stoll(rows[0][2]);
  c.counts = ldp::HaarCounts(k);
  EXPECT_EQ(rows[1].size(), static_cast<size_t>(k));
  EXPECT_EQ(rows[2].size(), c.counts.sums.size());
  for (size_t j = 0; j < rows[1].size() && j < c.counts.n.size(); ++j) c.counts.n[j] = std::stoll(rows[1][j]);
  for (size_t i = 0; i < rows[2].size() && i < c.counts.sums.size(); ++i) c.counts.sums[i] = std::stoll(rows[2][i]);
  return c;
}

TEST(RangeReference, HaarCoefficientsAreThePeers) {
  const HaarCase c = LoadHaar();
  ASSERT_EQ(c.counts.reports(), c.n);
  const ldp::HaarDecoded d(c.protocol, c.counts);
  const int k = c.protocol.domain_bits;
  const auto rows = Rows("haar_coefficients.txt");
  ASSERT_EQ(rows.size(), size_t{1} << k);
  // index 0: the peer's N/D (the mass every bucket starts with; ours is implicit)
  EXPECT_DOUBLE_EQ(std::stod(rows[0][1]), static_cast<double>(c.n) / static_cast<double>(int64_t{1} << k));
  double worst = 0;
  for (int j = 0; j < k; ++j) {
    for (int64_t q = 0; q < (int64_t{1} << j); ++q) {
      const int64_t i = (int64_t{1} << j) + q;
      ASSERT_EQ(std::stoll(rows[i][0]), i);
      // the peer's N·d̂/2^(k−j)
      const double peer = std::stod(rows[i][1]) * std::ldexp(1.0, k - j) / static_cast<double>(c.n);
      worst = std::max(worst, std::fabs(peer - d.coefficient(j, q)));
      ASSERT_NEAR(peer, d.coefficient(j, q), 1e-12) << "level " << j << " node " << q;
    }
  }
  RecordProperty("worst_coefficient_difference", std::to_string(worst));
}

TEST(RangeReference, HaarRangesAreThePeers) {
  const HaarCase c = LoadHaar();
  const ldp::HaarDecoded d(c.protocol, c.counts);
  const auto rows = Rows("haar_ranges.txt");
  ASSERT_EQ(rows.size(), (size_t{1} << c.protocol.domain_bits) + 400);
  double worst = 0;
  for (const auto& r : rows) {
    const int64_t lo = std::stoll(r[0]), hi = std::stoll(r[1]);
    const double peer = std::stod(r[2]);
    const double ours = d.range(lo, hi).estimate;
    worst = std::max(worst, std::fabs(peer - ours));
    ASSERT_NEAR(peer, ours, 1e-9) << "[" << lo << ", " << hi << "]";
  }
  RecordProperty("worst_range_difference", std::to_string(worst));
  std::printf("HaarHRR against the peer: %zu ranges, largest difference %.3g\n", rows.size(), worst);
}

}  // namespace
