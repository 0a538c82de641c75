// Our side of bench/pure_ldp_compare.sh: the core's decode rate of OLH reports
// (freq_add_olh for every report, then freq_estimate of every item), in reports
// per second, the median of REPEATS runs. Built with -DLDP_BUILD_BENCH=ON.
//
//   ldp_olh_decode_bench REPORTS EPSILON K [REPEATS [PURE_ESTIMATES N_PURE]]
//
// REPORTS: "seed<TAB>y" a line (bench/pure_ldp_bench.py writes those of
// pure-LDP's client). With PURE_ESTIMATES (pure-LDP's estimates, counts, one a
// line, of the first N_PURE reports) it also decodes those N_PURE reports and
// prints the largest difference from pure-LDP's, relative to n/(p - q).
// For reference it also times GRR (freq_add_item) and OUE (freq_add_bits) at K
// on as many reports of our own encoders.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/random.hpp"
#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_summary.hpp"

namespace {

struct Summary {
  Summary(ldp::FreqMechanism m, double eps, int64_t k) {
    ldp::FreqParams p{eps, k, 0};
    buf.assign((ldp::freq_summary_size(m, p) + 7) / 8, 0);
    ldp::freq_summary_init(get(), m, p);
  }
  ldp::FreqSummary* get() { return reinterpret_cast<ldp::FreqSummary*>(buf.data()); }
  std::vector<uint64_t> buf;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Runs `decode` (one full decode, including estimation) `repeats` times.
void time_it(const char* name, size_t n, int repeats, const std::function<void()>& decode) {
  std::vector<double> secs;
  for (int r = 0; r < repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    decode();
    secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::printf("ours %s reports=%zu seconds=[", name, n);
  for (size_t i = 0; i < secs.size(); ++i) std::printf("%s%.4f", i ? ", " : "", secs[i]);
  std::printf("] median_rate=%.1f\n", static_cast<double>(n) / median(secs));
  std::fflush(stdout);
}

volatile double sink;  // keeps the estimates alive

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 4 && argc != 5 && argc != 7) {
    std::fprintf(stderr,
                 "usage: %s REPORTS EPSILON K [REPEATS [PURE_ESTIMATES N_PURE]]\n", argv[0]);
    return 2;
  }
  const double eps = std::strtod(argv[2], nullptr);
  const int64_t k = std::strtoll(argv[3], nullptr, 10);
  const int repeats = argc >= 5 ? std::atoi(argv[4]) : 3;

  std::vector<uint64_t> seeds;
  std::vector<int64_t> ys;
  {
    std::ifstream in(argv[1]);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", argv[1]);
      return 1;
    }
    uint64_t s;
    int64_t y;
    while (in >> s >> y) {
      seeds.push_back(s);
      ys.push_back(y);
    }
  }
  const size_t n = seeds.size();
  std::vector<double> freq(k), se(k);

  auto decode_olh = [&](size_t count, Summary& sum) {
    for (size_t i = 0; i < count; ++i) ldp::freq_add_olh(sum.get(), seeds[i], ys[i]);
    ldp::freq_estimate(*sum.get(), freq.data(), se.data());
    sink = freq[0];
  };
  time_it("olh", n, repeats, [&] {
    Summary sum(ldp::FreqMechanism::OLH, eps, k);
    decode_olh(n, sum);
  });

  if (argc == 7) {  // same estimates as pure-LDP on the reports it decoded
    const size_t n_pure = std::strtoull(argv[6], nullptr, 10);
    std::ifstream in(argv[5]);
    std::vector<double> theirs;
    for (double x; in >> x;) theirs.push_back(x);
    if (theirs.size() != static_cast<size_t>(k) || n_pure > n) {
      std::fprintf(stderr, "%s: expected %lld estimates (and N_PURE <= %zu)\n", argv[5],
                   static_cast<long long>(k), n);
      return 1;
    }
    Summary sum(ldp::FreqMechanism::OLH, eps, k);
    decode_olh(n_pure, sum);
    const double e = std::exp(eps), g = static_cast<double>(sum.get()->g);
    const double scale = static_cast<double>(n_pure) / (e / (e + g - 1) - 1 / g);
    double worst = 0;
    for (int64_t v = 0; v < k; ++v)
      worst = std::max(worst, std::fabs(static_cast<double>(n_pure) * freq[v] - theirs[v]) / scale);
    std::printf("check olh first %zu reports: max |n*f_ours - pure-LDP| = %.3g * n/(p-q)%s\n",
                n_pure, worst, worst <= 1e-12 ? " (same)" : " (DIFFERENT)");
    if (!(worst <= 1e-12)) return 1;
  }

  // For reference: GRR and OUE at the same k, on reports of our own encoders.
  ldp::SeededRandom rng(1);
  std::vector<int64_t> items(n);
  for (auto& y : items) y = ldp::grr_encode(static_cast<int64_t>(rng.below(k)), eps, k, rng);
  time_it("grr", n, repeats, [&] {
    Summary sum(ldp::FreqMechanism::GRR, eps, k);
    for (int64_t y : items) ldp::freq_add_item(sum.get(), y);
    ldp::freq_estimate(*sum.get(), freq.data(), se.data());
    sink = freq[0];
  });
  const size_t n_oue = std::min<size_t>(n, 100000), bytes = (k + 7) / 8;
  std::vector<uint8_t> bits(n_oue * bytes);
  for (size_t i = 0; i < n_oue; ++i)
    ldp::oue_encode(static_cast<int64_t>(rng.below(k)), eps, k, rng, &bits[i * bytes]);
  time_it("oue", n_oue, repeats, [&] {
    Summary sum(ldp::FreqMechanism::OUE, eps, k);
    for (size_t i = 0; i < n_oue; ++i) ldp::freq_add_bits(sum.get(), &bits[i * bytes], k);
    ldp::freq_estimate(*sum.get(), freq.data(), se.data());
    sink = freq[0];
  });
  return 0;
} catch (const ldp::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
