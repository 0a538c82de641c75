// Helpers shared by the frequency-oracle loader tests (freq_loader_test.cpp without a
// server, freq_loader_db_test.cpp with one).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/freq/freq_encoders.hpp"
#include "tools/freq/freq_population.hpp"

namespace ldp::tools::testing {

using ldp::FreqMechanism;

// A temporary file (with content, if any), removed at the end of the scope.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& content = "") {
    char p[] = "/tmp/ldp_loader_test_XXXXXX";
    int fd = mkstemp(p);
    EXPECT_GE(fd, 0);
    close(fd);
    path = p;
    if (!content.empty()) std::ofstream(path) << content;
  }
  ~TempFile() { unlink(path.c_str()); }
};

// The word fixture (test/data/README.md): the tests need nothing outside the checkout.
inline const std::string kWords = std::string(LDP_TEST_DATA_DIR) + "/subtlex_top1000.tsv";

inline FreqLoadSpec make_spec(FreqMechanism m, double epsilon, int64_t k,
                              const std::string& dist, int64_t users, uint64_t seed,
                              int64_t d = 0) {
  FreqLoadSpec s;
  s.mechanism = m;
  s.epsilon = epsilon;
  s.k = k;
  s.d = d;
  s.distribution = parse_item_distribution(dist);
  s.users = users;
  s.seed = seed;
  return s;
}

inline std::string generate_text(const FreqLoadSpec& spec, FreqLoadResult* result = nullptr) {
  std::string all;
  FreqLoadResult r =
      generate_freq_reports(spec, [&all](std::string& lines) { all += lines; }, {}, 4096);
  if (result) *result = std::move(r);
  return all;
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0, p;
  while ((p = s.find(sep, start)) != std::string::npos) {
    out.push_back(s.substr(start, p - start));
    start = p + 1;
  }
  out.push_back(s.substr(start));
  return out;
}

inline std::vector<std::vector<std::string>> parse_lines(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) rows.push_back(split(line, '\t'));
  return rows;
}

// A varbit's COPY text (0/1 string, or X followed by hex digits) as MSB-first bytes.
inline std::vector<uint8_t> varbit_bytes(const std::string& text, int64_t* nbits) {
  std::string bits;
  if (!text.empty() && text[0] == 'X') {
    for (size_t i = 1; i < text.size(); ++i) {
      int v = std::stoi(text.substr(i, 1), nullptr, 16);
      for (int j = 3; j >= 0; --j) bits.push_back(((v >> j) & 1) ? '1' : '0');
    }
  } else {
    bits = text;
  }
  *nbits = static_cast<int64_t>(bits.size());
  std::vector<uint8_t> bytes((bits.size() + 7) / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    EXPECT_TRUE(bits[i] == '0' || bits[i] == '1') << text;
    if (bits[i] == '1') bytes[i / 8] |= static_cast<uint8_t>(0x80 >> (i % 8));
  }
  return bytes;
}

// Decodes COPY text the way the aggregates read the table: every row into a fresh
// summary (so the formatting is checked against what the loader tallied).
inline LocalSummary decode_text(const FreqLoadSpec& s, const std::string& text) {
  LocalSummary sum(s.mechanism, ldp::FreqParams{s.epsilon, s.k, s.d});
  for (const auto& f : parse_lines(text)) {
    switch (s.mechanism) {
      case FreqMechanism::GRR:
        EXPECT_EQ(f.size(), 3u);
        ldp::freq_add_item(sum.get(), std::stoll(f[2]));
        break;
      case FreqMechanism::SUE:
      case FreqMechanism::OUE: {
        EXPECT_EQ(f.size(), 3u);
        int64_t nbits = 0;
        auto bytes = varbit_bytes(f[2], &nbits);
        ldp::freq_add_bits(sum.get(), bytes.data(), nbits);
        break;
      }
      case FreqMechanism::DBitFlip: {
        EXPECT_EQ(f.size(), 4u);
        EXPECT_EQ(f[2].front(), '{');
        EXPECT_EQ(f[3].back(), '}');
        auto b = split(f[2].substr(1, f[2].size() - 2), ',');
        auto v = split(f[3].substr(1, f[3].size() - 2), ',');
        EXPECT_EQ(b.size(), v.size());
        std::vector<int32_t> buckets;
        std::unique_ptr<bool[]> bits(new bool[v.size()]);
        for (size_t i = 0; i < b.size(); ++i) {
          buckets.push_back(std::stoi(b[i]));
          EXPECT_TRUE(v[i] == "t" || v[i] == "f");
          bits[i] = v[i] == "t";
        }
        ldp::freq_add_dbitflip(sum.get(), buckets.data(), bits.get(),
                               static_cast<int64_t>(buckets.size()));
        break;
      }
      case FreqMechanism::OLH:
        EXPECT_EQ(f.size(), 4u);
        ldp::freq_add_olh(sum.get(), std::stoull(f[2]), std::stoll(f[3]));
        break;
      case FreqMechanism::Hadamard:
        EXPECT_EQ(f.size(), 4u);
        EXPECT_TRUE(f[3] == "t" || f[3] == "f");
        ldp::freq_add_hadamard(sum.get(), std::stoll(f[2]), f[3] == "t");
        break;
    }
  }
  return sum;
}

struct MechCase {
  FreqMechanism mechanism;
  int64_t d;
  std::string agg;  // over the table's columns, epsilon 2 and k 64
};

inline const std::vector<MechCase>& all_mechanisms() {
  static const std::vector<MechCase> cases{
      {FreqMechanism::GRR, 0, "ldp.grr_agg(report, 2.0, 64)"},
      {FreqMechanism::SUE, 0, "ldp.sue_agg(report, 2.0)"},
      {FreqMechanism::OUE, 0, "ldp.oue_agg(report, 2.0)"},
      {FreqMechanism::DBitFlip, 4, "ldp.dbitflip_agg(buckets, bits, 2.0, 64)"},
      {FreqMechanism::OLH, 0, "ldp.olh_agg(seed, report, 2.0, 64)"},
      {FreqMechanism::Hadamard, 0, "ldp.hadamard_agg(\"row\", report, 2.0, 64)"},
  };
  return cases;
}

}  // namespace ldp::tools::testing
