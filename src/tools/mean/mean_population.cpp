#include "tools/mean/mean_population.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include "core/common/error.hpp"
#include "core/common/exact_sum.hpp"
#include "core/mean/mean_encoders.hpp"
#include "core/mean/mean_summary.hpp"

namespace ldp::tools {

// ---------------------------------------------------------------------------
// Mechanisms

const char* mechanism_name(Mechanism m) {
  switch (m) {
    case Mechanism::RR: return "rr";
    case Mechanism::OneBit: return "onebit";
    case Mechanism::Laplace: return "laplace";
    case Mechanism::Piecewise: return "piecewise";
  }
  return "?";
}

std::optional<Mechanism> parse_mechanism(const std::string& name) {
  for (Mechanism m : {Mechanism::RR, Mechanism::OneBit, Mechanism::Laplace, Mechanism::Piecewise})
    if (name == mechanism_name(m)) return m;
  return std::nullopt;
}

bool real_valued(Mechanism m) { return m == Mechanism::Laplace || m == Mechanism::Piecewise; }

const char* report_sql_type(Mechanism m) {
  return real_valued(m) ? "double precision" : "boolean";
}

namespace {

MeanMechanism core_id(Mechanism m) {
  switch (m) {
    case Mechanism::RR: return MeanMechanism::RR;
    case Mechanism::OneBit: return MeanMechanism::OneBit;
    case Mechanism::Laplace: return MeanMechanism::Laplace;
    case Mechanism::Piecewise: return MeanMechanism::Piecewise;
  }
  return MeanMechanism::RR;
}

MeanParams core_params(const LoadSpec& s) {
  MeanParams p;
  p.epsilon = s.epsilon;
  p.max_value = s.mechanism == Mechanism::RR ? 1.0 : s.max_value;
  p.gamma = s.mechanism == Mechanism::OneBit ? s.gamma : 0.0;
  return p;
}

constexpr int kMaxRounds = 100000;

}  // namespace

void validate_spec(const LoadSpec& s) {
  const char* name = mechanism_name(s.mechanism);
  if (!(std::isfinite(s.epsilon) && s.epsilon > 0 && s.epsilon <= 700))
    throw UsageError("--epsilon must be a number in (0, 700], got " + short_num(s.epsilon));
  if (s.users < 1) throw UsageError("--users must be at least 1");
  if (s.users > INT64_MAX / kMaxRounds) throw UsageError("--users is too large");
  if (s.first_user_id < 0 || s.first_user_id > INT64_MAX - s.users)
    throw UsageError("--first-user-id must be >= 0 and leave room for every user id");
  if (s.mechanism != Mechanism::RR) {
    if (!(std::isfinite(s.max_value) && s.max_value > 0 && s.max_value <= 1e300))
      throw UsageError(std::string("--max-value must be a number in (0, 1e300] for ") + name +
                       ", got " + short_num(s.max_value));
  } else if (s.max_value != 1.0) {
    throw UsageError("--max-value does not apply to rr (it estimates a proportion of bits)");
  }
  if (s.mechanism != Mechanism::OneBit) {
    if (s.gamma != 0) throw UsageError(std::string("--gamma applies to onebit only, not ") + name);
    if (s.granularity != 0 || s.rounds != 1 || s.constant_users)
      throw UsageError(std::string("--granularity, --rounds and --constant-users apply to "
                                   "onebit only, not ") + name);
  } else {
    if (!(s.gamma >= 0 && s.gamma < 0.5))
      throw UsageError("--gamma must be in [0, 0.5), got " + short_num(s.gamma));
    if (s.granularity != 0 && !(s.granularity > 0 && s.granularity <= s.max_value))
      throw UsageError("--granularity must be in (0, max_value = " + short_num(s.max_value) +
                       "], got " + short_num(s.granularity));
    if (s.granularity > 0 && s.max_value / s.granularity > 1e6)
      throw UsageError("--granularity " + short_num(s.granularity) + " gives " +
                       short_num(std::round(s.max_value / s.granularity) + 1) +
                       " rounding points per user; use at most 10^6");
    if (s.rounds < 1 || s.rounds > kMaxRounds)
      throw UsageError("--rounds must be in [1, " + std::to_string(kMaxRounds) + "]");
    if (s.granularity > 0 &&
        static_cast<double>(s.users) * (std::round(s.max_value / s.granularity) + 1) > 1e11)
      throw UsageError("--granularity " + short_num(s.granularity) +
                       " is too fine for this many users: every user's device keeps one memo "
                       "entry per rounding point; use a coarser grid");
    if (s.rounds > 1 && s.granularity == 0)
      throw UsageError("--rounds needs --granularity: repeated collection uses alpha-point "
                       "rounding and memoization (--granularity = max_value is the coarsest)");
    if (s.constant_users && s.rounds == 1)
      throw UsageError("--constant-users only makes sense with --rounds > 1");
    if (!(s.drift >= 0 && s.drift <= 1))
      throw UsageError("--drift must be in [0, 1], got " + short_num(s.drift));
  }
  if (s.mechanism == Mechanism::RR) {
    const Distribution& d = s.distribution;
    bool bits = d.kind == Distribution::Kind::Bernoulli ||
                (d.kind == Distribution::Kind::Constant && (d.a == 0 || d.a == 1));
    if (!bits)
      throw UsageError("rr encodes bits: use --distribution bernoulli:P or constant:0 / "
                       "constant:1, not " + d.spec);
  }
  if (static_cast<double>(s.users) * s.rounds > 9e15)
    throw UsageError("--users times --rounds is too large");
}

// ---------------------------------------------------------------------------
// Formatting

void append_row(std::string& out, int64_t user_id, int round, bool report) {
  append_row_prefix(out, user_id, round);
  out.append(report ? "t\n" : "f\n", 2);
}

void append_row(std::string& out, int64_t user_id, int round, double report) {
  append_row_prefix(out, user_id, round);
  append_double(out, report);
  out.push_back('\n');
}

// ---------------------------------------------------------------------------
// Generation

namespace {

// Running totals of one round: the truth and a local decoder state.
struct Accumulator {
  alignas(8) unsigned char summary[kMaxMeanSummarySize];
  ExactSum true_sum;

  Accumulator(MeanMechanism id, const MeanParams& p) {
    mean_summary_init(s(), id, p);
    true_sum.clear();
  }
  MeanSummary* s() { return reinterpret_cast<MeanSummary*>(summary); }
  const MeanSummary* s() const { return reinterpret_cast<const MeanSummary*>(summary); }

  Tally tally(bool real) const {
    Tally t;
    const MeanSummary& m = *s();
    t.reports = m.n;
    if (m.n == 0) return t;
    double n = static_cast<double>(m.n);
    t.true_mean = static_cast<double>(true_sum.to_long_double() / static_cast<long double>(n));
    if (real) {
      long double sum = m.sums()->sum.to_long_double();
      t.report_sum = static_cast<double>(sum);
      t.report_mean = static_cast<double>(sum / static_cast<long double>(n));
    } else {
      t.ones = m.ones;
      t.report_sum = static_cast<double>(m.ones);
      t.report_mean = static_cast<double>(m.ones) / n;
    }
    t.estimate = mean_estimate(m);
    return t;
  }
};

// One report of a user's value (no OneBitMeanClient), added to the round's summary: its row.
void encode_one(const LoadSpec& spec, const MeanParams& p, double x, RandomSource& rng, MeanSummary* s,
                std::string& out, int64_t uid) {
  switch (spec.mechanism) {
    case Mechanism::RR: {
      bool bit = rr_encode(x != 0, p.epsilon, rng);
      mean_add_bit(s, bit);
      append_row(out, uid, 1, bit);
      break;
    }
    case Mechanism::OneBit: {
      bool bit = output_perturb(onebit_mean_encode(x, p.epsilon, p.max_value, rng), p.gamma, rng);
      mean_add_bit(s, bit);
      append_row(out, uid, 1, bit);
      break;
    }
    case Mechanism::Laplace: {
      double y = laplace_mean_encode(x, p.epsilon, p.max_value, rng);
      mean_add_real(s, y);
      append_row(out, uid, 1, y);
      break;
    }
    case Mechanism::Piecewise: {
      double y = piecewise_mean_encode(x, p.epsilon, p.max_value, rng);
      mean_add_real(s, y);
      append_row(out, uid, 1, y);
      break;
    }
  }
}

}  // namespace

LoadResult generate_reports(const Validated<LoadSpec>& checked, const ChunkSink& sink, const ProgressFn& progress,
                            size_t chunk_bytes) {
  const LoadSpec& spec = *checked;
  const MeanMechanism id = core_id(spec.mechanism);
  const MeanParams params = core_params(spec);
  const bool real = real_valued(spec.mechanism);
  Population population(spec.distribution, params.max_value, spec.users);

  std::unique_ptr<RandomSource> pop_rng = make_random(spec.seed, 0);
  std::unique_ptr<RandomSource> enc_rng = make_random(spec.seed, 1);
  RandomSource& prng = *pop_rng;
  RandomSource& erng = *enc_rng;

  std::vector<std::unique_ptr<Accumulator>> acc;
  for (int r = 0; r < spec.rounds; ++r) acc.push_back(std::make_unique<Accumulator>(id, params));

  ChunkedRows out(sink, progress, chunk_bytes, 128);
  std::string& buf = out.buf();
  const double m = params.max_value;
  const bool client_mode = spec.mechanism == Mechanism::OneBit && spec.granularity > 0;
  for_each_device(spec.users, out, [&](int64_t i) -> int64_t {
    const int64_t uid = spec.first_user_id + i;
    const double base = population.next(prng);
    if (!client_mode) {
      Accumulator& a = *acc[0];
      a.true_sum.add(base);
      encode_one(spec, params, base, erng, a.s(), buf, uid);
      return 1;
    }
    // One device: alpha and the memo persist across this user's rounds.
    OneBitMeanClient client(params.epsilon, m, spec.granularity, params.gamma, erng);
    for (int r = 1; r <= spec.rounds; ++r) {
      double x = base;
      if (spec.rounds > 1 && !spec.constant_users && spec.drift > 0) {
        x = base * (1.0 - spec.drift + 2.0 * spec.drift * prng.uniform());
        x = std::fmin(std::fmax(x, 0.0), m);
      }
      bool bit = client.report(x, erng);
      Accumulator& a = *acc[static_cast<size_t>(r - 1)];
      mean_add_bit(a.s(), bit);
      a.true_sum.add(x);
      append_row(buf, uid, r, bit);
    }
    return spec.rounds;
  });

  LoadResult result;
  result.clamped = population.clamped();
  result.effective_epsilon = spec.mechanism == Mechanism::OneBit && params.gamma > 0
                                 ? output_perturbation_epsilon(params.epsilon, params.gamma)
                                 : params.epsilon;
  auto total = std::make_unique<Accumulator>(id, params);
  for (auto& a : acc) {
    result.rounds.push_back(a->tally(real));
    mean_summary_merge(total->s(), *a->s());
    total->true_sum.merge(a->true_sum);
  }
  result.total = total->tally(real);
  char text[kMaxMeanSummaryText];
  mean_summary_to_text(*total->s(), text, sizeof text);
  result.summary = text;
  return result;
}

// ---------------------------------------------------------------------------
// Tables

std::vector<ReportColumn> mean_report_columns(Mechanism m) { return {{"report", report_sql_type(m)}}; }

}  // namespace ldp::tools
