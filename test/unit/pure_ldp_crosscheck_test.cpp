// Cross-check against the public Python library pure-LDP (Samuel Maddock, MIT
// licence; commit in test/data/pure_ldp/params.txt): the reports its clients
// produced for a fixed population (GRR = its DEClient, SUE / OUE = UEClient,
// OLH = LHClient with use_olh) decode here to its servers' estimates, to
// floating-point rounding. The fixtures and how they were made:
// test/data/README.md and test/data/make_pure_ldp_fixture.py.
//
// What pure-LDP's servers compute (read from its code, and confirmed here):
//   GRR  DEServer:  (c·C_v - n)/(c - k), c = e^eps + k - 1
//   SUE  UEServer:  (C_v - n·q)/(p - q), p = e^{eps/2}/(e^{eps/2}+1), q = 1 - p
//   OUE  UEServer:  (C_v - n·q)/(p - q), p = 1/2, q = 1/(e^eps+1)
//   OLH  LHServer:  g/(p·g - 1)·C_v - n/(p·g - 1), p = e^eps/(e^eps+g-1),
//                   g = int(round(e^eps)) + 1 (Python's round: halves to even)
// Each is n·(C_v/n - q)/(p - q) with the p and q of docs/algorithms/frequency.md (OLH's q is
// 1/g: (C - n/g)/(p - 1/g) rearranged), i.e. the same unbiased estimator as ours,
// only in counts (n·f) rather than frequencies and with e^eps computed as
// math.pow(math.e, eps) in DE and UE. So no estimator differs by formula, and the
// assertions are: identical support counts (exact integers), and
// |n·f̂_ours - est_pure_ldp| <= 1e-12 · n/(p - q), where n/(p - q) bounds the two
// terms the estimate is the difference of (C_v/(p-q) and n·q/(p-q)): an estimate
// near 0 is the difference of two numbers of that size, so its error is measured
// against that size, not against itself. Observed errors are ~1e-16 of it.
//
// Items: pure-LDP takes data 1..k and maps it to the index x - 1 (its default
// index_mapper); reports and the OLH hash text use that index, which is our item.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_summary.hpp"
#include "freq_test_support.hpp"

#ifndef LDP_TEST_DATA_DIR
#error "LDP_TEST_DATA_DIR must name test/data (CMakeLists.txt defines it)"
#endif

namespace {

using ldp::FreqMechanism;
using ldp::FreqParams;
using ldp_test::Freq;

const std::string kDir = std::string(LDP_TEST_DATA_DIR) + "/pure_ldp/";

std::vector<std::string> ReadLines(const std::string& name) {
  std::ifstream in(kDir + name);
  EXPECT_TRUE(in.good()) << "cannot open " << kDir + name;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(s);
  while (std::getline(in, field, sep)) out.push_back(field);
  return out;
}

int64_t ToInt(const std::string& s) {
  size_t pos = 0;
  long long v = std::stoll(s, &pos);
  EXPECT_EQ(pos, s.size()) << "not an integer: " << s;
  return v;
}

uint64_t ToU64(const std::string& s) {
  size_t pos = 0;
  unsigned long long v = std::stoull(s, &pos);
  EXPECT_EQ(pos, s.size()) << "not an unsigned integer: " << s;
  return v;
}

// Python's repr() of a float is the shortest text that round-trips; strtod reads
// it back to the same double.
double ToDouble(const std::string& s) {
  size_t pos = 0;
  double v = std::stod(s, &pos);
  EXPECT_EQ(pos, s.size()) << "not a number: " << s;
  return v;
}

struct Params {
  double epsilon = 0;
  int64_t k = 0, n = 0, g = 0;
};

Params LoadParams() {
  std::map<std::string, std::string> kv;
  for (const auto& line : ReadLines("params.txt")) {
    auto tab = line.find('\t');
    if (tab != std::string::npos) kv[line.substr(0, tab)] = line.substr(tab + 1);
  }
  Params p;
  p.epsilon = ToDouble(kv["epsilon"]);
  p.k = ToInt(kv["k"]);
  p.n = ToInt(kv["n"]);
  p.g = ToInt(kv["olh_g"]);
  return p;
}

// pure-LDP's output for one item: its support count, its estimate (a count), and
// the estimate projected onto the simplex (its estimate_all normalization=2).
struct Theirs {
  int64_t support;
  double estimate, normsub;
};

std::vector<Theirs> LoadEstimates(const std::string& protocol, int64_t k) {
  std::vector<Theirs> out(k, Theirs{-1, NAN, NAN});
  for (const auto& line : ReadLines("estimates.txt")) {
    auto f = Split(line, '\t');
    EXPECT_EQ(f.size(), 5u) << line;
    if (f.size() != 5 || f[0] != protocol) continue;
    int64_t v = ToInt(f[1]);
    EXPECT_TRUE(v >= 0 && v < k) << line;
    if (v >= 0 && v < k) out[v] = Theirs{ToInt(f[2]), ToDouble(f[3]), ToDouble(f[4])};
  }
  return out;
}

// p and q of docs/algorithms/frequency.md, written here independently of the library.
struct PQ {
  double p, q;
};
PQ Probabilities(FreqMechanism m, const Params& P) {
  const double e = std::exp(P.epsilon), w = std::exp(P.epsilon / 2), k = P.k, g = P.g;
  switch (m) {
    case FreqMechanism::GRR:
      return {e / (e + k - 1), 1 / (e + k - 1)};
    case FreqMechanism::SUE:
      return {w / (w + 1), 1 / (w + 1)};
    case FreqMechanism::OUE:
      return {0.5, 1 / (e + 1)};
    case FreqMechanism::OLH:
      return {e / (e + g - 1), 1 / g};
    default:
      ADD_FAILURE() << "not a pure protocol of this test";
      return {1, 0};
  }
}

Freq Decode(FreqMechanism m, const std::string& protocol, const Params& P) {
  Freq f(m, FreqParams{P.epsilon, P.k, 0});
  for (const auto& line : ReadLines(protocol + "_reports.txt")) {
    switch (m) {
      case FreqMechanism::GRR:
        ldp::freq_add_item(f.get(), ToInt(line));
        break;
      case FreqMechanism::SUE:
      case FreqMechanism::OUE: {
        // bit v = item v from the left: MSB-first bytes, as a varbit
        std::vector<uint8_t> bytes((line.size() + 7) / 8, 0);
        for (size_t i = 0; i < line.size(); ++i) {
          EXPECT_TRUE(line[i] == '0' || line[i] == '1') << line;
          if (line[i] == '1') bytes[i / 8] |= static_cast<uint8_t>(0x80u >> (i % 8));
        }
        ldp::freq_add_bits(f.get(), bytes.data(), static_cast<int64_t>(line.size()));
        break;
      }
      case FreqMechanism::OLH: {
        auto fields = Split(line, '\t');
        EXPECT_EQ(fields.size(), 2u) << line;
        // the seed exactly as pure-LDP passed it to xxhash (< 2^63)
        ldp::freq_add_olh(f.get(), ToU64(fields[0]), ToInt(fields[1]));
        break;
      }
      default:
        ADD_FAILURE();
    }
  }
  return f;
}

struct Case {
  const char* protocol;
  FreqMechanism mech;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.protocol; }

class PureLdpCrosscheck : public ::testing::TestWithParam<Case> {};

TEST(PureLdpFixture, Parameters) {
  Params P = LoadParams();
  EXPECT_EQ(P.epsilon, 1.5);
  EXPECT_EQ(P.k, 16);
  EXPECT_EQ(P.n, 2000);
  // pure-LDP's g = int(round(e^eps)) + 1 is ours; the fixture needs g > 2.
  EXPECT_EQ(ldp::olh_range(P.epsilon), P.g);
  EXPECT_GT(P.g, 2);
  // the population the reports came from
  int64_t total = 0;
  for (const auto& line : ReadLines("population.txt")) total += ToInt(Split(line, '\t').at(1));
  EXPECT_EQ(total, P.n);
}

TEST_P(PureLdpCrosscheck, SameCountsAndEstimates) {
  const Case c = GetParam();
  const Params P = LoadParams();
  const Freq ours = Decode(c.mech, c.protocol, P);
  const auto theirs = LoadEstimates(c.protocol, P.k);
  ASSERT_EQ(ours->n, P.n);
  ASSERT_EQ(static_cast<int64_t>(theirs.size()), P.k);

  const auto est = ours.estimate();
  const PQ pq = Probabilities(c.mech, P);
  const double n = static_cast<double>(P.n);
  const double scale = n / (pq.p - pq.q);  // bounds both terms of the difference
  const double tol = 1e-12 * scale;

  // our frequencies after norm-sub, in counts like pure-LDP's normalization=2
  std::vector<double> normsub = est.freq;
  ldp::apply_consistency(ldp::Consistency::NormSub, normsub.data(), P.k);

  double worst = 0, worst_normsub = 0;
  for (int64_t v = 0; v < P.k; ++v) {
    SCOPED_TRACE(::testing::Message() << c.protocol << " item " << v);
    // (a) the support counts: exact
    EXPECT_EQ(ours.get()->counters()[v], theirs[v].support);
    // (b) the estimates, converted to counts (pure-LDP returns n·f)
    const double ours_count = n * est.freq[v];
    EXPECT_NEAR(ours_count, theirs[v].estimate, tol)
        << "ours " << ::testing::PrintToString(ours_count) << " theirs "
        << ::testing::PrintToString(theirs[v].estimate);
    worst = std::fmax(worst, std::fabs(ours_count - theirs[v].estimate) / scale);
    // (c) projection onto the simplex (our norm-sub, their normalization=2)
    EXPECT_NEAR(n * normsub[v], theirs[v].normsub, tol);
    worst_normsub = std::fmax(worst_normsub, std::fabs(n * normsub[v] - theirs[v].normsub) / scale);
    // and the formula of docs/algorithms/frequency.md on the (shared) counts
    const double pure = (static_cast<double>(theirs[v].support) / n - pq.q) / (pq.p - pq.q);
    EXPECT_NEAR(est.freq[v], pure, 1e-12 / (pq.p - pq.q));
  }
  RecordProperty("worst_relative_to_n_over_gap", ::testing::PrintToString(worst));
  RecordProperty("worst_normsub_relative_to_n_over_gap", ::testing::PrintToString(worst_normsub));
  std::printf("%s: worst |ours - pure-LDP| = %.3g · n/(p-q) (estimates), %.3g (norm-sub)\n",
              c.protocol, worst, worst_normsub);
}

INSTANTIATE_TEST_SUITE_P(Protocols, PureLdpCrosscheck,
                         ::testing::Values(Case{"grr", FreqMechanism::GRR},
                                           Case{"sue", FreqMechanism::SUE},
                                           Case{"oue", FreqMechanism::OUE},
                                           Case{"olh", FreqMechanism::OLH}),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return std::string(i.param.protocol);
                         });

// The hash itself: H_s(v) = XXH32(decimal v, s mod 2^32) mod g, as pure-LDP's
// LHServer computes it, for seeds at the edges of the 32-bit truncation (0, 2^31,
// 2^32 - 1, 2^32, 2^63 - 1, ...) and of the fixture, v in [0, 1024), g in {2, 5, 21, 149}.
TEST(PureLdpFixture, OlhHashMatches) {
  int64_t checked = 0;
  for (const auto& line : ReadLines("olh_hashes.txt")) {
    auto f = Split(line, '\t');
    ASSERT_EQ(f.size(), 3u);
    const uint64_t seed = ToU64(f[0]);
    const int64_t g = ToInt(f[1]);
    const auto h = Split(f[2], ',');
    ASSERT_EQ(h.size(), 1024u);
    int mismatches = 0;
    for (int64_t v = 0; v < static_cast<int64_t>(h.size()); ++v) {
      const int64_t want = ToInt(h[v]);
      if (static_cast<int64_t>(ldp::olh_hash(seed, v, g)) != want && ++mismatches <= 5)
        ADD_FAILURE() << "seed " << seed << " g " << g << " v " << v << ": ours "
                      << ldp::olh_hash(seed, v, g) << ", pure-LDP " << want;
      ++checked;
    }
  }
  EXPECT_GE(checked, 30 * 1024);
}

// The decoder of freq_add_olh (incremental decimal text, fast reduction mod g)
// agrees with olh_hash on every report of the fixture and every item.
TEST(PureLdpFixture, OlhSupportFromHash) {
  const Params P = LoadParams();
  std::vector<int64_t> support(P.k, 0);
  for (const auto& line : ReadLines("olh_reports.txt")) {
    auto f = Split(line, '\t');
    const uint64_t seed = ToU64(f.at(0));
    const int64_t y = ToInt(f.at(1));
    for (int64_t v = 0; v < P.k; ++v) support[v] += ldp::olh_hash(seed, v, P.g) == y;
  }
  const auto theirs = LoadEstimates("olh", P.k);
  for (int64_t v = 0; v < P.k; ++v) EXPECT_EQ(support[v], theirs[v].support) << v;
}

}  // namespace
