// Against google/rappor itself (test/data/rappor/, made by bench/rappor_reference.sh): the
// Bloom filters and PRRs its Python client printed, its sum_bits.py counts, and the
// detected sets and estimates of its decode.R under 30 R seeds (issue 21, "What it must
// show"): our detected set's Jaccard similarity with decode.R's consensus (strings
// detected in at least 15 of the 30 runs) is at least min(0.9, the worst of one run
// against the other 29's consensus); every string all 30 runs detect is detected; and
// Σ|estimate - truth| over the candidates (0 where not detected) is at most 1.1 times
// decode.R's mean.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/rappor/rappor_summary.hpp"

namespace {

std::string Dir() { return std::string(LDP_TEST_DATA_DIR) + "/rappor/"; }

std::vector<std::vector<std::string>> ReadCsv(const std::string& name, bool header) {
  std::ifstream in(Dir() + name);
  EXPECT_TRUE(in.good()) << name;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  if (header) std::getline(in, line);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) f.push_back(cell);
    rows.push_back(f);
  }
  return rows;
}

ldp::RapporParams Params() {
  const auto rows = ReadCsv("params.csv", true);
  ldp::RapporParams p;
  p.bits = std::stoll(rows.at(0).at(0));
  p.hashes = std::stoll(rows[0][1]);
  p.cohorts = std::stoll(rows[0][2]);
  p.p = std::stod(rows[0][3]);
  p.q = std::stod(rows[0][4]);
  p.f = std::stod(rows[0][5]);
  return p;
}

std::vector<std::pair<std::string, int64_t>> Truth() {
  std::vector<std::pair<std::string, int64_t>> t;
  for (const auto& r : ReadCsv("truth.csv", true)) t.push_back({r.at(0), std::stoll(r.at(1))});
  return t;
}

ldp::RapporAccumulator CountsSummary(const ldp::RapporParams& P) {
  ldp::RapporAccumulator acc(P);
  const auto rows = ReadCsv("counts.csv", false);
  EXPECT_EQ(static_cast<int64_t>(rows.size()), P.cohorts);
  for (int64_t c = 0; c < static_cast<int64_t>(rows.size()); ++c) {
    const auto& r = rows[static_cast<size_t>(c)];
    EXPECT_EQ(static_cast<int64_t>(r.size()), P.bits + 1);
    const int64_t N = std::stoll(r[0]);
    if (N == 0) continue;
    std::vector<int64_t> ones(static_cast<size_t>(P.bits));
    for (int64_t b = 0; b < P.bits; ++b) ones[static_cast<size_t>(b)] = std::stoll(r[static_cast<size_t>(b + 1)]);
    acc.add_counts(c, N, ones.data());
  }
  return acc;
}

double Jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
  size_t inter = 0;
  for (const auto& x : a) inter += b.count(x);
  const size_t uni = a.size() + b.size() - inter;
  return uni == 0 ? 1.0 : static_cast<double>(inter) / static_cast<double>(uni);
}

TEST(RapporReference, ClientReportsOfThePythonClient) {
  const ldp::RapporParams P = Params();
  const auto truth = Truth();
  const auto rows = ReadCsv("client_reports.csv", true);
  ASSERT_GE(rows.size(), 400u);
  ldp::RapporAccumulator acc(P);
  for (const auto& r : rows) {
    const int64_t uid = std::stoll(r.at(0)), cohort = std::stoll(r.at(1));
    // devices are numbered in truth.csv's order
    int64_t before = 0;
    std::string item;
    for (const auto& [s, n] : truth) {
      if (uid < before + n) {
        item = s;
        break;
      }
      before += n;
    }
    const ldp::RapporBits bloom = ldp::rappor_bloom(item, cohort, P.bits, P.hashes);
    ASSERT_EQ(ldp::rappor_bit_string(bloom, P.bits), r.at(2)) << uid;
    const ldp::RapporBits prr = ldp::rappor_prr(bloom, "secret" + std::to_string(uid), P.bits, P.f);
    ASSERT_EQ(ldp::rappor_bit_string(prr, P.bits), r.at(3)) << uid;
    // the IRR, as a varbit in the client's character order, counts as sum_bits.py does
    const std::string& irr = r.at(4);
    std::vector<uint8_t> data((irr.size() + 7) / 8, 0);
    for (size_t j = 0; j < irr.size(); ++j)
      if (irr[j] == '1') data[j / 8] |= static_cast<uint8_t>(0x80 >> (j % 8));
    acc.add_varbit(cohort, data.data(), static_cast<int64_t>(irr.size()));
  }
  EXPECT_EQ(acc.summary().n, static_cast<int64_t>(rows.size()));
}

TEST(RapporReference, DecodeAgreesWithDecodeR) {
  const ldp::RapporParams P = Params();
  const ldp::RapporAccumulator acc = CountsSummary(P);
  std::map<std::string, int64_t> truth;
  int64_t devices = 0;
  for (const auto& [s, n] : Truth()) truth[s] = n, devices += n;
  EXPECT_EQ(acc.summary().n, devices);
  std::vector<std::string> cands;
  {
    std::ifstream in(Dir() + "candidates.txt");
    std::string line;
    while (std::getline(in, line)) cands.push_back(line);
  }
  ASSERT_EQ(cands.size(), 100u);
  // decode.R's 30 runs
  std::map<int, std::map<std::string, double>> runs;
  for (const auto& r : ReadCsv("decode_runs.csv", true)) runs[std::stoi(r.at(0))][r.at(1)] = std::stod(r.at(2));
  ASSERT_EQ(runs.size(), 30u);
  auto consensus = [&](int skip) {
    std::map<std::string, int> votes;
    int voters = 0;
    for (const auto& [seed, fit] : runs) {
      if (seed == skip) continue;
      ++voters;
      for (const auto& [s, e] : fit) votes[s] += 1;
    }
    std::set<std::string> out;
    for (const auto& [s, v] : votes)
      if (2 * v >= voters) out.insert(s);
    return out;
  };
  auto l1 = [&](const std::map<std::string, double>& est) {
    double e = 0;
    for (const auto& c : cands) {
      const auto it = est.find(c);
      e += std::fabs((it == est.end() ? 0.0 : it->second) - static_cast<double>(truth.count(c) ? truth[c] : 0));
    }
    return e;
  };
  const std::set<std::string> all_runs_consensus = consensus(0);
  double worst = 1, theirs_l1 = 0;
  std::set<std::string> always;
  for (const auto& c : cands) {
    bool all = true;
    for (const auto& [seed, fit] : runs) all = all && fit.count(c) > 0;
    if (all) always.insert(c);
  }
  for (const auto& [seed, fit] : runs) {
    std::set<std::string> mine;
    for (const auto& [s, e] : fit) mine.insert(s);
    worst = std::min(worst, Jaccard(mine, consensus(seed)));
    theirs_l1 += l1(fit) / static_cast<double>(runs.size());
  }
  for (bool decode_r : {true, false}) {
    ldp::RapporDecodeOptions o;
    o.decode_r_estimates = decode_r;
    const ldp::RapporDecode d =
        ldp::rappor_decode(acc.summary(), std::vector<std::string_view>(cands.begin(), cands.end()), o);
    std::set<std::string> ours;
    std::map<std::string, double> est;
    for (size_t j = 0; j < cands.size(); ++j)
      if (d.items[j].detected) ours.insert(cands[j]), est[cands[j]] = d.items[j].count;
    const double jac = Jaccard(ours, all_runs_consensus), ours_l1 = l1(est);
    size_t absent = 0;
    for (const auto& s : ours) absent += truth.count(s) == 0;
    std::printf("  %s: detected %zu (%zu absent), consensus %zu, Jaccard %.3f (decode.R's worst run %.3f); "
                "sum|est - truth| %.0f against decode.R's mean %.0f; all-30 strings %zu\n",
                decode_r ? "Decode's estimates" : "the default", ours.size(), absent, all_runs_consensus.size(), jac, worst, ours_l1, theirs_l1, always.size());
    if (!decode_r) {  // the default (Decode's estimates for the detected are printed for comparison)
      for (const auto& s : always) EXPECT_TRUE(ours.count(s)) << s;
      EXPECT_GE(jac, std::min(0.9, worst));
      EXPECT_LE(ours_l1, 1.1 * theirs_l1);
    }
  }
}

}  // namespace
