// Square Wave (core/range/square_wave.hpp) over seeded populations, without a server: each
// run draws USERS devices from a population over 2^10 buckets and runs the core's encoder
// and histogram (what ldp.sw_encode and range_agg run), then the core's decode.
//
//   ldp_sw_bench coverage [USERS=100000] [TRIALS=20] [EPSILON=1] [BINS=16] [REPLICATES=50] [SMOOTHING=0]
//     sw_density with its bootstrap (what ldp.density runs); every group's 95% interval,
//     frequency ± 1.96·std_error, checked against the group's true share of the run's
//     devices. Per population: the checks, the coverage, the point's root mean squared
//     error beside the mean bootstrap standard error, the mean absolute bias over the
//     trials, the EM iterations and the seconds per density call.
//   ldp_sw_bench grid [USERS=100000] [EPSILON=1] [SMOOTHING=0] [SEEDS=4]
//     EM (or EMS) on grids of d_in × d_out from 128 to 4096 over the same reports, as a
//     protocol of 10 bits would: mean squared error of 16 and 64 groups, the Wasserstein
//     distance (the mean |F̂ − F| over 64 groups), EM iterations and seconds per run.
//
// bench/RESULTS.md has the figures; docs/algorithms/ranges.md#square-wave cites them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/range/square_wave.hpp"

namespace {

constexpr int kBits = 10;
constexpr int64_t kDomain = int64_t{1} << kBits;

int64_t clamp_bucket(double v) {
  return std::clamp<int64_t>(static_cast<int64_t>(std::floor(v * kDomain)), 0, kDomain - 1);
}

// A device's bucket of [0, 1024).
int64_t draw(const std::string& population, ldp::RandomSource& rng) {
  if (population == "mixture") {  // 40% N(0.3, 0.08), 30% N(0.75, 0.05), 30% uniform
    const double z = rng.uniform();
    if (z < 0.4) return clamp_bucket(0.3 + 0.08 * rng.normal());
    if (z < 0.7) return clamp_bucket(0.75 + 0.05 * rng.normal());
    return static_cast<int64_t>(rng.below(kDomain));
  }
  if (population == "lognormal") return clamp_bucket(0.15 * std::exp(0.6 * rng.normal()));  // latencies
  if (population == "points") return rng.uniform() < 0.5 ? 300 : 700;                        // two point masses
  return static_cast<int64_t>(rng.below(kDomain));
}

struct Run {
  std::vector<int64_t> truth;  // devices per bucket
  std::vector<double> reports;
};

Run draw_run(const std::string& population, const ldp::SwGrid& g, int64_t users, uint64_t seed) {
  Run r{std::vector<int64_t>(kDomain, 0), {}};
  ldp::SeededRandom rng(seed);
  r.reports.reserve(static_cast<size_t>(users));
  for (int64_t u = 0; u < users; ++u) {
    const int64_t b = draw(population, rng);
    ++r.truth[static_cast<size_t>(b)];
    r.reports.push_back(ldp::sw_encode(g, b, rng));
  }
  return r;
}

std::vector<double> true_groups(const Run& r, int64_t users, int64_t bins) {
  std::vector<double> out(static_cast<size_t>(bins), 0.0);
  for (int64_t b = 0; b < kDomain; ++b)
    out[static_cast<size_t>(b * bins / kDomain)] += static_cast<double>(r.truth[static_cast<size_t>(b)]) / users;
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int coverage(int argc, char** argv) {
  const int64_t users = argc > 0 ? std::atoll(argv[0]) : 100000;
  const int trials = argc > 1 ? std::atoi(argv[1]) : 20;
  const double eps = argc > 2 ? std::atof(argv[2]) : 1;
  const int64_t bins = argc > 3 ? std::atoll(argv[3]) : 16;
  const int replicates = argc > 4 ? std::atoi(argv[4]) : 50;
  const bool smoothing = argc > 5 && std::atoi(argv[5]) != 0;
  const ldp::SwGrid g = ldp::sw_grid(eps, kBits);
  std::printf("ldp_sw_bench coverage %lld %d %g %lld %d %d: %s, n = %lld, epsilon = %g, %lld bins, %d replicates\n",
              static_cast<long long>(users), trials, eps, static_cast<long long>(bins), replicates, smoothing ? 1 : 0,
              smoothing ? "EMS" : "EM", static_cast<long long>(users), eps, static_cast<long long>(bins), replicates);
  std::printf("| population | checks | coverage | RMSE | mean se | mean abs bias | EM iterations | s per call |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const std::string population : {"mixture", "uniform", "lognormal"}) {
    int64_t checks = 0, covered = 0, iterations = 0;
    double sq = 0, se_sum = 0, secs = 0;
    std::vector<double> bias(static_cast<size_t>(bins), 0.0);
    for (int t = 0; t < trials; ++t) {
      const Run r = draw_run(population, g, users, static_cast<uint64_t>(1000 * t + population.size()));
      std::vector<int64_t> hist(static_cast<size_t>(g.d_out), 0);
      for (double y : r.reports) ldp::sw_add_report(g, hist.data(), y);
      ldp::SwDensityQuery q;
      q.bins = bins;
      q.replicates = replicates;
      q.seed = static_cast<uint64_t>(t);
      q.em.smoothing = smoothing;
      const auto start = std::chrono::steady_clock::now();
      const ldp::SwDensity d = ldp::sw_density(g, hist.data(), q);
      secs += seconds_since(start);
      iterations += d.fit.iterations;
      const std::vector<double> truth = true_groups(r, users, bins);
      for (size_t k = 0; k < d.bins.size(); ++k) {
        const double err = d.bins[k].frequency - truth[k];
        ++checks;
        covered += std::fabs(err) <= 1.96 * d.bins[k].std_error;
        sq += err * err;
        se_sum += d.bins[k].std_error;
        bias[k] += err / trials;
      }
    }
    double abs_bias = 0;
    for (double b : bias) abs_bias += std::fabs(b) / static_cast<double>(bins);
    std::printf("| %s | %lld | %.1f%% | %.4f | %.4f | %.4f | %.0f | %.2f |\n", population.c_str(),
                static_cast<long long>(checks), 100.0 * static_cast<double>(covered) / static_cast<double>(checks),
                std::sqrt(sq / static_cast<double>(checks)), se_sum / static_cast<double>(checks), abs_bias,
                static_cast<double>(iterations) / trials, secs / trials);
    std::fflush(stdout);
  }
  return 0;
}

int grid(int argc, char** argv) {
  const int64_t users = argc > 0 ? std::atoll(argv[0]) : 100000;
  const double eps = argc > 1 ? std::atof(argv[1]) : 1;
  const bool smoothing = argc > 2 && std::atoi(argv[2]) != 0;
  const int seeds = argc > 3 ? std::atoi(argv[3]) : 4;
  std::printf("ldp_sw_bench grid %lld %g %d %d: %s, n = %lld, epsilon = %g, %d seeds\n", static_cast<long long>(users),
              eps, smoothing ? 1 : 0, seeds, smoothing ? "EMS" : "EM", static_cast<long long>(users), eps, seeds);
  std::printf("| population | d_in | d_out | MSE 16 | MSE 64 | Wasserstein | iterations | s per run |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  const int64_t shapes[][2] = {{128, 128}, {256, 256}, {512, 512}, {1024, 1024}, {1024, 256},
                               {1024, 2048}, {1024, 4096}, {256, 1024}};
  for (const char* population : {"mixture", "lognormal", "points"}) {
    for (const auto& shape : shapes) {
      const ldp::SwGrid g = ldp::sw_grid(eps, kBits, shape[0], shape[1]);
      const ldp::SwKernel kernel(g);
      double mse16 = 0, mse64 = 0, w1 = 0, iterations = 0, secs = 0;
      for (int s = 1; s <= seeds; ++s) {
        const Run r = draw_run(population, g, users, static_cast<uint64_t>(s));
        std::vector<int64_t> hist(static_cast<size_t>(g.d_out), 0);
        for (double y : r.reports) ldp::sw_add_report(g, hist.data(), y);
        ldp::SwEmOptions o;
        o.smoothing = smoothing;
        const auto start = std::chrono::steady_clock::now();
        const ldp::SwEmResult fit = kernel.em(hist.data(), o);
        secs += seconds_since(start) / seeds;
        iterations += static_cast<double>(fit.iterations) / seeds;
        for (int64_t bins : {16, 64}) {
          std::vector<double> est(static_cast<size_t>(bins));
          ldp::sw_group_shares(g, fit.theta.data(), bins, est.data());
          const std::vector<double> truth = true_groups(r, users, bins);
          double sq = 0, cdf = 0;
          for (size_t k = 0; k < est.size(); ++k) {
            sq += (est[k] - truth[k]) * (est[k] - truth[k]) / static_cast<double>(bins);
            cdf += est[k] - truth[k];
            if (bins == 64) w1 += std::fabs(cdf) / 64 / seeds;
          }
          (bins == 16 ? mse16 : mse64) += sq / seeds;
        }
      }
      std::printf("| %s | %lld | %lld | %.3g | %.3g | %.4f | %.0f | %.3f |\n", population,
                  static_cast<long long>(shape[0]), static_cast<long long>(shape[1]), mse16, mse64, w1, iterations, secs);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "coverage") == 0) return coverage(argc - 2, argv + 2);
  if (argc >= 2 && std::strcmp(argv[1], "grid") == 0) return grid(argc - 2, argv + 2);
  std::fprintf(stderr, "usage: ldp_sw_bench coverage|grid [arguments]: see bench/sw_bench.cpp\n");
  return 2;
}
