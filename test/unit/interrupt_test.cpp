// Cancels and limits of the decoders (issue 27; common/interrupt.hpp, common/decode_limits.hpp):
// without a probe polling does nothing; with one, check_interrupt throws ldp::Interrupted;
// a decode over its limits is refused (LimitExceeded) naming them; and every long
// decoder notices a cancel soon: a probe that fires at a given time into the decode, and
// the time from then until ldp::Interrupted reaches the caller.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/common/decode_limits.hpp"
#include "core/common/interrupt.hpp"
#include "core/freq/freq_summary.hpp"
#include "heavy_test_support.hpp"
#include "core/rappor/rappor_client.hpp"
#include "core/rappor/rappor_summary.hpp"
#include "core/range/square_wave.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "test_support.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using ldp::HeavyDomain;
using ldp::HeavyMechanism;

// A cancel may take this long to land (the issue: about 100 ms; the wall clock of a
// shared machine adds its scheduling). Sanitizer builds run 2-3 times slower.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kLatencyBoundMs = 600;
#else
constexpr double kLatencyBoundMs = 150;
#endif

// "Refused at once": at most this many polls of the cancel probe before the refusal.
constexpr int kRefusedAtOncePolls = 1000;

Clock::time_point g_fire;
bool fire_probe() noexcept { return Clock::now() >= g_fire; }
bool always() noexcept { return true; }
// Counts the polls of a decode that is never cancelled: how much of its work ran.
int g_polls = 0;
bool count_polls() noexcept {
  ++g_polls;
  return false;
}

// Registers a probe for the scope of a test, and removes it after.
struct ProbeScope {
  explicit ProbeScope(ldp::InterruptProbe p) { ldp::set_interrupt_probe(p); }
  ~ProbeScope() { ldp::set_interrupt_probe(nullptr); }
};

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Runs f with a probe that fires `after_ms` from now: the milliseconds from the firing to
// the Interrupted that f throws, or -1 when f returned first.
double cancel_latency_ms(const std::function<void()>& f, double after_ms) {
  const ProbeScope scope(fire_probe);
  g_fire = Clock::now() + std::chrono::microseconds(static_cast<int64_t>(after_ms * 1000));
  try {
    f();
  } catch (const ldp::Interrupted&) {
    return ms_since(g_fire);
  }
  return -1;
}

// f, uninterrupted, takes t0; a probe firing at 10%, 30% and 50% of t0 lands within the
// bound each time (the phases of a decode in turn). A run may be faster than the first
// one and end before the later firings: only the first must be cancelled.
void expect_cancels_land(const char* name, const std::function<void()>& f) {
  const auto start = Clock::now();
  f();
  const double t0 = ms_since(start);
  bool first = true;
  for (double at : {0.1, 0.3, 0.5}) {
    const double latency = cancel_latency_ms(f, at * t0);
    std::printf("%s: %.0f ms uninterrupted; cancelled at %.0f ms, %s %.1f ms later\n", name, t0, at * t0,
                latency < 0 ? "finished first" : "landed", latency);
    if (first) {
      EXPECT_GE(latency, 0) << name << " finished before a cancel at " << at * t0 << " ms";
      first = false;
    }
    EXPECT_LT(latency, kLatencyBoundMs) << name << " at " << at * t0 << " ms";
  }
}

// A walk too long to finish: the probe fires at 50 ms and 400 ms into it.
void expect_walk_cancels(const char* name, const std::function<void()>& f) {
  for (double at : {50.0, 400.0}) {
    const double latency = cancel_latency_ms(f, at);
    std::printf("%s: cancelled at %.0f ms, landed %.1f ms later\n", name, at, latency);
    EXPECT_GE(latency, 0) << name;
    EXPECT_LT(latency, kLatencyBoundMs) << name << " at " << at << " ms";
  }
}

// A summary of one report under p (a TreeHist one of the item 7 for int64).
ldp_test::Heavy one_report(const ldp::HeavyProtocol& p) {
  ldp::SeededRandom rng(9);
  ldp_test::Heavy s(p);
  if (p.dom() == HeavyDomain::Int64)
    ldp::heavy_add_report(s.get(), ldp::treehist_encode_int(p, 7, rng));
  else
    ldp_test::report(s, "a", rng);
  return s;
}

TEST(Interrupt, WithoutAProbePollingDoesNothing) {
  ldp::set_interrupt_probe(nullptr);
  EXPECT_NO_THROW(ldp::check_interrupt());
  ldp::InterruptPoll poll;
  EXPECT_NO_THROW(for (int i = 0; i < 4 * ldp::kInterruptPollWork; ++i) poll.tick());
}

TEST(Interrupt, AProbeMakesPollsThrowInterrupted) {
  const ProbeScope scope(always);
  EXPECT_THROW(ldp::check_interrupt(), ldp::Interrupted);
  ldp::InterruptPoll poll;
  for (int64_t i = 1; i < ldp::kInterruptPollWork; ++i) poll.tick();  // polls once per kInterruptPollWork units
  EXPECT_THROW(poll.tick(), ldp::Interrupted);
  // a cancel is no ldp::Error: nothing in the core catches it as one
  bool as_error = false;
  try {
    ldp::check_interrupt();
  } catch (const ldp::Error&) {
    as_error = true;
  } catch (const ldp::Interrupted&) {
  }
  EXPECT_FALSE(as_error);
}

TEST(DecodeLimits, ABudgetRefusesTheStepThatWouldPassItsLimits) {
  ldp::DecodeLimits limits;
  limits.max_work = 1000;
  limits.max_memory = 1 << 20;
  limits.work_name = "the.work";
  limits.memory_name = "the.memory";
  ldp::DecodeBudget budget(limits, "decoder");
  budget.plan(600, "step %d", 1);
  EXPECT_EQ(budget.planned(), 600);
  try {
    budget.plan(600, "step %d", 2);
    ADD_FAILURE() << "not refused";
  } catch (const ldp::Error& e) {
    EXPECT_EQ(e.kind(), ldp::ErrorKind::LimitExceeded);
    EXPECT_STREQ(e.what(), "decoder: step 2 would take about 600 operations (1.2e+03 with the steps before it), more "
                           "than the.work = 1e+03");
  }
  EXPECT_EQ(budget.planned(), 600);  // a refused step is not counted
  budget.hold(1 << 20, "all of it");
  try {
    budget.hold(3e9, "a matrix of %d columns", 5);
    ADD_FAILURE() << "not refused";
  } catch (const ldp::Error& e) {
    EXPECT_EQ(e.kind(), ldp::ErrorKind::LimitExceeded);
    EXPECT_STREQ(e.what(), "decoder: a matrix of 5 columns would hold about 2.8 GB, more than the.memory = 1 MB");
  }
  // planning polls for a cancel
  const ProbeScope scope(always);
  EXPECT_THROW(budget.plan(1, "step 3"), ldp::Interrupted);
}

// The reproductions, refused under limits like the glue's defaults before any of
// the walk runs: SFP under sfp_protocol(2, 1000, 'abcdefghijklmno', 96, 3, 2048, 64), and
// TreeHist under treehist_int8_protocol(2, 1000, 65536, 8) at threshold 0 (level 2).
TEST(DecodeLimits, TheReportedHeavyHittersAreRefusedAtOnce) {
  const ldp::HeavyProtocol sfp = ldp_test::MechProtocol(HeavyMechanism::SFP, HeavyDomain::Alphabet, 2, 1000, 2048,
                                                        64, 96, 3, -1, "abcdefghijklmno");
  const ldp::HeavyProtocol treehist =
      ldp_test::MechProtocol(HeavyMechanism::TreeHist, HeavyDomain::Int64, 2, 1000, 65536, 8);
  ldp::HeavyHittersQuery q;
  q.limits.max_work = ldp::kDefaultMaxDecodeWork;
  for (const ldp::HeavyProtocol& p : {sfp, treehist}) {
    const ldp_test::Heavy s = one_report(p);
    const ldp_test::PreparedHeavy prep(s);
    q.threshold = p.dom() == HeavyDomain::Int64 ? 0 : -1;
    // at once: before the walk's work, which polls every 0.1-0.3 ms of it (a wall-clock
    // bound failed on a loaded machine under ASan; the polls do not depend on the load)
    const ProbeScope scope(count_polls);
    g_polls = 0;
    EXPECT_TRUE(ldp_test::ThrowsKind(ldp::ErrorKind::LimitExceeded, [&] { prep.hitters(q); }))
        << ldp::heavy_protocol_to_text(p);
    std::printf("%s: refused after %d polls\n", ldp::heavy_protocol_to_text(p).c_str(), g_polls);
    EXPECT_LE(g_polls, kRefusedAtOncePolls) << ldp::heavy_protocol_to_text(p);
  }
}

// The RAPPOR summary: 2^31 - 1 cohorts, 2^20 of them with a report (2 bits, 4
// hashes: 2^22 counters, the bound), written row by row.
std::vector<int64_t> many_cohorts() {
  ldp::RapporParams P;
  P.bits = 2;
  P.hashes = 4;
  P.cohorts = 2147483647;
  P.f = 0.5, P.p = 0.25, P.q = 0.75;
  const int64_t rows = int64_t{1} << 20;
  std::vector<int64_t> buf(ldp::rappor_summary_size(P, rows) / 8);
  auto* s = reinterpret_cast<ldp::RapporSummary*>(buf.data());
  ldp::rappor_summary_init(s, P, rows);
  for (int64_t c = 0; c < rows; ++c) {
    int64_t* row = s->row(c);
    row[0] = c * 2047;
    row[1] = 1;
    row[2] = c % 3 == 0;
    row[3] = c % 3 != 0;
  }
  s->rows = rows;
  s->n = rows;
  return buf;
}

TEST(DecodeLimits, RapporRefusesADesignMatrixPastTheMemoryLimit) {
  const std::vector<int64_t> many = many_cohorts();
  const auto& summary = *reinterpret_cast<const ldp::RapporSummary*>(many.data());
  std::vector<std::string> names;
  for (int i = 0; i < 60; ++i) names.push_back("c" + std::to_string(i));
  const std::vector<std::string_view> candidates(names.begin(), names.end());
  ldp::RapporDecodeOptions o;
  o.limits.max_memory = 1 << 30;
  const ProbeScope scope(count_polls);
  g_polls = 0;
  EXPECT_TRUE(ldp_test::ThrowsKind(ldp::ErrorKind::LimitExceeded, [&] { ldp::rappor_decode(summary, candidates, o); }));
  std::printf("RAPPOR: refused after %d polls\n", g_polls);
  EXPECT_LE(g_polls, kRefusedAtOncePolls);
}

// ---- how soon a cancel lands ----


TEST(Interrupt, EveryHeavyHittersWalkNoticesACancel) {
  struct Case {
    const char* name;
    ldp::HeavyProtocol p;
    double threshold;
  };
  const std::vector<Case> cases = {
      {"treehist int64, 65536 rows, threshold 0",
       ldp_test::MechProtocol(HeavyMechanism::TreeHist, HeavyDomain::Int64, 2, 1000, 65536, 8), 0},
      {"pem, 65536 rows", ldp_test::MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 1000, 65536, 64), 0},
      {"sfp, the reported protocol",
       ldp_test::MechProtocol(HeavyMechanism::SFP, HeavyDomain::Alphabet, 2, 1000, 2048, 64, 96, 3, -1,
                              "abcdefghijklmno"),
       -1},
  };
  for (const Case& c : cases) {
    const ldp_test::Heavy s = one_report(c.p);
    const ldp_test::PreparedHeavy prep(s);
    ldp::HeavyHittersQuery q;
    q.threshold = c.threshold;
    expect_walk_cancels(c.name, [&] { prep.hitters(q); });
  }
  // Bitstogram queries the items its buckets spell: a table made so that every word of 3
  // letters is spelt in its own bucket (77,672 buckets, about 16,000 of them then hold a
  // word), each read on 65,536 rows.
  const ldp::HeavyProtocol p =
      ldp_test::MechProtocol(HeavyMechanism::Bitstogram, HeavyDomain::Alphabet, 2, 1000, 65536, 32, 3, 1);
  const ldp_test::Heavy s = one_report(p);
  std::vector<int64_t> table(static_cast<size_t>(s->cells()), 0);
  const int64_t K = s->sketch_cells(), sigma = 27;
  for (char a = 'a'; a <= 'z'; ++a)
    for (char b = 'a'; b <= 'z'; ++b)
      for (char c = 'a'; c <= 'z'; ++c) {
        const char word[3] = {a, b, c};
        const auto t = static_cast<int64_t>(XXH64(word, 3, ldp::kBitstogramBucketSeed) % static_cast<uint64_t>(p.buckets));
        for (int64_t l = 0; l < 3; ++l) table[static_cast<size_t>(l * K + t * sigma + 1 + (word[l] - 'a'))] += 1;
      }
  expect_walk_cancels("bitstogram, every bucket spelling a word, 65536 rows",
                      [&] { ldp::heavy_hitters(*s, table.data()); });
}

TEST(Interrupt, PreparingAndEstimatingNoticeACancel) {
  // the largest table, 2^23 cells: two transforms of 2^22
  const ldp::HeavyProtocol pem = ldp_test::MechProtocol(HeavyMechanism::PEM, HeavyDomain::Alphabet, 2, 1000, 1,
                                                        int64_t{1} << 22);
  const ldp_test::Heavy s = one_report(pem);
  std::vector<int64_t> table(static_cast<size_t>(s->cells()));
  expect_cancels_land("heavy_prepare, 2 rows of 2^22", [&] { ldp::heavy_prepare(*s, table.data()); });

  ldp::SketchParams sp;
  sp.epsilon = 2;
  sp.hashes = 1;
  sp.width = int64_t{1} << 22;
  std::vector<int64_t> sk(ldp::sketch_summary_size(ldp::SketchMechanism::HCMS, sp) / 8);
  auto* sketch = reinterpret_cast<ldp::SketchSummary*>(sk.data());
  ldp::sketch_summary_init(sketch, ldp::SketchMechanism::HCMS, sp);
  std::vector<int64_t> st(static_cast<size_t>(sketch->cells()));
  expect_cancels_land("sketch_prepare, hcms 1 × 2^22", [&] { ldp::sketch_prepare(*sketch, st.data()); });

  // frequencies over k = 2^22: Hadamard's transform, and norm-sub's sort
  for (const ldp::FreqMechanism m : {ldp::FreqMechanism::Hadamard, ldp::FreqMechanism::GRR}) {
    ldp::FreqParams fp;
    fp.epsilon = 1;
    fp.k = m == ldp::FreqMechanism::Hadamard ? (int64_t{1} << 22) - 1 : int64_t{1} << 22;
    std::vector<int64_t> fb(ldp::freq_summary_size(m, fp) / 8 + 1);
    auto* f = reinterpret_cast<ldp::FreqSummary*>(fb.data());
    ldp::freq_summary_init(f, m, fp);
    if (m == ldp::FreqMechanism::GRR)
      for (int64_t v = 0; v < 1000; ++v) ldp::freq_add_item(f, (v * 7919) % fp.k);
    else
      for (int64_t r = 0; r < 1000; ++r) ldp::freq_add_hadamard(f, (r * 7919) % f->g, r % 2 == 0);
    std::vector<double> freq(static_cast<size_t>(fp.k)), se(freq.size());
    if (m == ldp::FreqMechanism::Hadamard) {
      expect_cancels_land("hadamard estimate, K = 2^22", [&] { ldp::freq_estimate(*f, freq.data(), se.data()); });
    } else {
      ldp::freq_estimate(*f, freq.data(), se.data());
      std::vector<double> post(freq.size());
      expect_cancels_land("norm-sub over k = 2^22", [&] {
        post = freq;
        ldp::apply_consistency(ldp::Consistency::NormSub, post.data(), fp.k);
      });
    }
  }
}

// RAPPOR: a cohort's design-matrix rows, the LASSO screening, the constrained fit.
ldp::RapporAccumulator rappor_population(int64_t bits, int64_t cohorts, int64_t reports, int64_t strings) {
  ldp::RapporParams P;
  P.bits = bits;
  P.hashes = 2;
  P.cohorts = cohorts;
  P.f = 0.5, P.p = 0.25, P.q = 0.75;
  ldp::RapporAccumulator acc(P);
  ldp::SeededRandom rng(11);
  for (int64_t i = 0; i < reports; ++i) {
    const int64_t cohort = static_cast<int64_t>(rng.below(static_cast<uint64_t>(cohorts)));
    const uint64_t u = rng.below(static_cast<uint64_t>(strings));
    const std::string item = "s" + std::to_string(u * u / static_cast<uint64_t>(strings));  // skewed to s0
    const ldp::RapporBits bloom = ldp::rappor_bloom(item, cohort, bits, 2);
    acc.add(cohort, ldp::rappor_irr(ldp::rappor_prr(bloom, std::to_string(i), bits, P.f), bits, P.p, P.q, rng));
  }
  return acc;
}

// The README's decode-time workloads (128 bits, 64 cohorts; 1,000 candidates without
// screening, 10,000 with) fit the glue's default limits.
TEST(DecodeLimits, TheDocumentedRapporDecodesFitTheDefaults) {
  const ldp::RapporAccumulator acc = rappor_population(128, 64, 20000, 200);
  ldp::RapporDecodeOptions o;
  o.limits.max_work = ldp::kDefaultMaxDecodeWork;
  o.limits.max_memory = ldp::kDefaultMaxDecodeMemory;
  for (int64_t count : {1000, 10000}) {
    std::vector<std::string> names;
    for (int64_t i = 0; i < count; ++i) names.push_back("s" + std::to_string(i));
    const std::vector<std::string_view> candidates(names.begin(), names.end());
    ldp::RapporDecode d;
    EXPECT_NO_THROW(d = ldp::rappor_decode(acc.summary(), candidates, o)) << count;
    std::printf("%lld candidates: planned %.3g operations, LASSO %d\n", static_cast<long long>(count), d.planned_work,
                d.lasso);
    EXPECT_EQ(d.lasso, count > 8192 * 0.8);
  }
}

TEST(Interrupt, RapporDecodingNoticesACancel) {
  struct Case {
    const char* name;
    int64_t bits, cohorts, candidates;
  };
  for (const Case& c : {Case{"rappor_decode, LASSO: 12,000 candidates over 2,048 rows", 32, 64, 12000},
                        Case{"rappor_decode, no LASSO: 500 candidates over 8,192 rows", 128, 64, 500}}) {
    const ldp::RapporAccumulator acc = rappor_population(c.bits, c.cohorts, 20000, 200);
    std::vector<std::string> names;
    for (int64_t i = 0; i < c.candidates; ++i) names.push_back("s" + std::to_string(i));
    const std::vector<std::string_view> candidates(names.begin(), names.end());
    expect_cancels_land(c.name, [&] { ldp::rappor_decode(acc.summary(), candidates); });
  }
  // the design matrix of many cohorts (the 2^31 - 1 cohorts): 10 candidates
  const std::vector<int64_t> many = many_cohorts();
  const auto& summary = *reinterpret_cast<const ldp::RapporSummary*>(many.data());
  const std::vector<std::string_view> few = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
  expect_walk_cancels("rappor_decode, 2^20 cohorts with reports", [&] { ldp::rappor_decode(summary, few); });
}

// Square Wave's density: EM runs of a few thousand iterations each, the bootstrap's
// replicates in turn; both poll.
TEST(Interrupt, SquareWaveDensityNoticesACancel) {
  const ldp::SwGrid g = ldp::sw_grid(1, 10);
  std::vector<int64_t> hist(static_cast<size_t>(g.d_out), 0);
  ldp::SeededRandom rng(4);
  for (int u = 0; u < 100000; ++u)
    ldp::sw_add_report(g, hist.data(), ldp::sw_encode(g, static_cast<int64_t>(rng.below(400)) + 300, rng));
  ldp::SwDensityQuery q;
  q.bins = 32;
  q.replicates = 1;
  expect_cancels_land("Square Wave density, 2 EM runs over 1024 + 1024 cells",
                      [&] { ldp::sw_density(g, hist.data(), q); });
}

}  // namespace
