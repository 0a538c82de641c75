// Google Benchmark micro-benchmarks of the core's frequency-oracle decoders
// (built with -DLDP_BUILD_BENCH=ON as ldp_core_bench). Items/second is reports
// added per second; OLH's cost is k hash evaluations a report.
//
//   build/ldp_core_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "core/common/random.hpp"
#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_summary.hpp"
#include "core/mean/mean_encoders.hpp"
#include "core/mean/mean_summary.hpp"

namespace {

constexpr double kEps = 1.5;
constexpr size_t kReports = 4096;  // cycled through

struct Summary {
  Summary(ldp::FreqMechanism m, int64_t k) {
    ldp::FreqParams p{kEps, k, 0};
    buf.assign((ldp::freq_summary_size(m, p) + 7) / 8, 0);
    ldp::freq_summary_init(get(), m, p);
  }
  ldp::FreqSummary* get() { return reinterpret_cast<ldp::FreqSummary*>(buf.data()); }
  std::vector<uint64_t> buf;
};

void BM_FreqAddOlh(benchmark::State& state) {
  const int64_t k = state.range(0);
  ldp::SeededRandom rng(1);
  std::vector<ldp::OlhReport> reports;
  for (size_t i = 0; i < kReports; ++i)
    reports.push_back(ldp::olh_encode(static_cast<int64_t>(rng.below(k)), kEps, k, rng));
  Summary s(ldp::FreqMechanism::OLH, k);
  size_t i = 0;
  for (auto _ : state) {
    const auto& r = reports[i++ % kReports];
    ldp::freq_add_olh(s.get(), static_cast<uint64_t>(r.seed), r.y);
  }
  benchmark::DoNotOptimize(s.get()->counters()[0]);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FreqAddOlh)->Arg(16)->Arg(1024)->Arg(65536);

void BM_FreqAddItem(benchmark::State& state) {
  const int64_t k = state.range(0);
  ldp::SeededRandom rng(1);
  std::vector<int64_t> reports;
  for (size_t i = 0; i < kReports; ++i)
    reports.push_back(ldp::grr_encode(static_cast<int64_t>(rng.below(k)), kEps, k, rng));
  Summary s(ldp::FreqMechanism::GRR, k);
  size_t i = 0;
  for (auto _ : state) ldp::freq_add_item(s.get(), reports[i++ % kReports]);
  benchmark::DoNotOptimize(s.get()->counters()[0]);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FreqAddItem)->Arg(16)->Arg(1024);

void BM_FreqAddBitsOue(benchmark::State& state) {
  const int64_t k = state.range(0);
  const size_t bytes = static_cast<size_t>((k + 7) / 8);
  ldp::SeededRandom rng(1);
  std::vector<uint8_t> reports(kReports * bytes);
  for (size_t i = 0; i < kReports; ++i)
    ldp::oue_encode(static_cast<int64_t>(rng.below(k)), kEps, k, rng, &reports[i * bytes]);
  Summary s(ldp::FreqMechanism::OUE, k);
  size_t i = 0;
  for (auto _ : state) ldp::freq_add_bits(s.get(), &reports[(i++ % kReports) * bytes], k);
  benchmark::DoNotOptimize(s.get()->counters()[0]);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FreqAddBitsOue)->Arg(16)->Arg(1024);

void BM_FreqEstimateOlh(benchmark::State& state) {
  const int64_t k = state.range(0);
  ldp::SeededRandom rng(1);
  Summary s(ldp::FreqMechanism::OLH, k);
  for (int i = 0; i < 100; ++i) {
    auto r = ldp::olh_encode(static_cast<int64_t>(rng.below(k)), kEps, k, rng);
    ldp::freq_add_olh(s.get(), static_cast<uint64_t>(r.seed), r.y);
  }
  std::vector<double> freq(k), se(k);
  for (auto _ : state) {
    ldp::freq_estimate(*s.get(), freq.data(), se.data());
    benchmark::DoNotOptimize(freq.data());
  }
  state.SetItemsProcessed(state.iterations() * k);
}
BENCHMARK(BM_FreqEstimateOlh)->Arg(1024);

void BM_OlhHash(benchmark::State& state) {
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  int64_t v = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ldp::olh_hash(seed, v, 5));
    v = (v + 1) & 1023;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OlhHash);

}  // namespace

// One real-valued report into a mean summary: range check, division, square, and
// the two exact additions (ExactSum::add_hot behind one comparison, or ExactSum::add).
static void mean_add_real_bench(benchmark::State& state, ldp::MeanMechanism id,
                                const std::vector<double>& ys) {
  alignas(8) static char buf[ldp::kMaxMeanSummarySize];
  auto* s = reinterpret_cast<ldp::MeanSummary*>(buf);
  ldp::mean_summary_init(s, id, {1.0, 100.0, 0.0});
  size_t i = 0;
  for (auto _ : state) {
    ldp::mean_add_real(s, ys[i++ & (ys.size() - 1)]);
  }
  benchmark::DoNotOptimize(s->n);
  state.SetItemsProcessed(state.iterations());
}

// Laplace reports (epsilon 1, max_value 100), nearly all on the fast path.
static void BM_MeanAddReal(benchmark::State& state) {
  ldp::SeededRandom rng(1);
  std::vector<double> ys(1 << 16);
  for (double& y : ys) y = 50 + rng.laplace(100);
  mean_add_real_bench(state, ldp::MeanMechanism::Laplace, ys);
}
BENCHMARK(BM_MeanAddReal);

// Piecewise reports (epsilon 1, max_value 100) from the encoder.
static void BM_MeanAddRealPiecewise(benchmark::State& state) {
  ldp::SeededRandom rng(1);
  std::vector<double> ys(1 << 16);
  for (double& y : ys) y = ldp::piecewise_mean_encode(rng.uniform() * 100, 1.0, 100, rng);
  mean_add_real_bench(state, ldp::MeanMechanism::Piecewise, ys);
}
BENCHMARK(BM_MeanAddRealPiecewise);

// The worst case: Laplace reports so close to 0 (|y| < 0.01) that every one takes
// the general path (two ExactSum::add).
static void BM_MeanAddRealExactPath(benchmark::State& state) {
  ldp::SeededRandom rng(1);
  std::vector<double> ys(1 << 16);
  for (double& y : ys) y = (rng.uniform() - 0.5) * 0.02;
  mean_add_real_bench(state, ldp::MeanMechanism::Laplace, ys);
}
BENCHMARK(BM_MeanAddRealExactPath);

BENCHMARK_MAIN();
