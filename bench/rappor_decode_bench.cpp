// Decode time of the RAPPOR core (issue 21's bench: 128 bits, 2 hashes, 64 cohorts, 10^6
// reports; 1,000 and 10,000 candidates). The summary is drawn as the unit tests draw it
// (test/unit/rappor_test_support.hpp: exact per-bit binomials of devices reporting once):
// 200 strings with 10^6·c/i devices (Zipf, s = 1), the rest absent candidates. Prints one
// line per candidate count: seconds per rappor_decode (best of 3), detected strings, and
// writes the counts file (sum_bits.py's format) and the candidates, so that decode.R can
// decode the same counts (bench/rappor_decode_r.sh).
//
//   ldp_rappor_decode_bench OUTDIR [CANDIDATES...]   (default 1000 10000)
//   DECODE_R_ESTIMATES=1 ldp_rappor_decode_bench ...  (RapporDecodeOptions::decode_r_estimates)
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "../test/unit/rappor_test_support.hpp"
#include "core/rappor/rappor_summary.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTDIR [CANDIDATES...]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {1000, 10000};
  ldp::RapporParams P;
  P.bits = 128;
  P.hashes = 2;
  P.cohorts = 64;
  P.f = 0.5;
  P.p = 0.25;
  P.q = 0.75;
  ldp_test::RapporPopulation pop;
  double h = 0;
  for (int i = 1; i <= 200; ++i) h += 1.0 / i;
  int64_t total = 0;
  for (int i = 1; i <= 200; ++i) {
    const auto n = static_cast<int64_t>(1e6 / (h * i));
    pop.items.push_back({"s" + std::to_string(i), n});
    total += n;
  }
  pop.items.back().second += 1000000 - total;
  const ldp::RapporAccumulator acc = ldp_test::rappor_simulate(P, pop, 1);
  const ldp::RapporSummary& s = acc.summary();
  {
    std::ofstream params(dir + "/params.csv");
    params << "k,h,m,p,q,f\n128,2,64,0.25,0.75,0.5\n";
    std::ofstream counts(dir + "/counts.csv");
    for (int64_t c = 0; c < P.cohorts; ++c) {
      const int64_t n = ldp::rappor_cohort_reports(s, c);
      const int64_t* ones = ldp::rappor_cohort_ones(s, c);
      counts << n;
      for (int64_t b = 0; b < P.bits; ++b) counts << ',' << (ones ? ones[b] : 0);
      counts << '\n';
    }
  }
  for (int S : sizes) {
    std::vector<std::string> cands;
    for (int i = 1; i <= 200 && static_cast<int>(cands.size()) < S; ++i) cands.push_back("s" + std::to_string(i));
    for (int i = 0; static_cast<int>(cands.size()) < S; ++i) cands.push_back("absent" + std::to_string(i));
    std::ofstream(dir + "/candidates_" + std::to_string(S) + ".txt") << [&] {
      std::string t;
      for (const auto& c : cands) t += c + "\n";
      return t;
    }();
    const std::vector<std::string_view> v(cands.begin(), cands.end());
    double best = 1e9, best_cpu = 1e9;
    ldp::RapporDecode d;
    ldp::RapporDecodeOptions opt;
    opt.decode_r_estimates = std::getenv("DECODE_R_ESTIMATES") != nullptr;
    for (int rep = 0; rep < 3; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      const std::clock_t c0 = std::clock();
      d = ldp::rappor_decode(s, v, opt);
      best_cpu = std::min(best_cpu, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    {
      std::ofstream kept(dir + "/screened_" + std::to_string(S) + ".txt");
      for (int64_t j : d.screened_candidates) kept << cands[static_cast<size_t>(j)] << '\n';
    }
    int detected = 0, true_detected = 0;
    for (size_t j = 0; j < cands.size(); ++j) {
      detected += d.items[j].detected;
      true_detected += d.items[j].detected && j < 200;
    }
    std::printf("candidates %d: %.3f s per rappor_decode (best of 3; CPU %.3f s), lasso %d (kept %lld), detected %d "
                "(%d true), fit iterations %lld\n",
                S, best, best_cpu, d.lasso, static_cast<long long>(d.screened), detected, true_detected,
                static_cast<long long>(d.fit_iterations));
  }
  return 0;
}
