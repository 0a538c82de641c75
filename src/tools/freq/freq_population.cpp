#include "tools/freq/freq_population.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/freq/freq_encoders.hpp"

namespace ldp::tools {

// ---------------------------------------------------------------------------
// Distributions

ItemPopulation::ItemPopulation(const ItemDistribution& d, int64_t k) : d_(d), k_(k) {
  if (k < 1) throw UsageError("--k must be at least 1");
  switch (d.kind) {
    case ItemDistribution::Kind::Uniform:
      break;
    case ItemDistribution::Kind::Constant:
      if (d.value >= k)
        throw UsageError("--distribution " + d.spec + ": V = " + std::to_string(d.value) +
                         " is not an item of [0, k = " + std::to_string(k) + ")");
      break;
    case ItemDistribution::Kind::Zipf: {
      cdf_.resize(static_cast<size_t>(k));
      double c = 0;
      for (int64_t i = 0; i < k; ++i) {
        c += std::pow(static_cast<double>(i + 1), -d.s);
        cdf_[static_cast<size_t>(i)] = c;
      }
      break;
    }
    case ItemDistribution::Kind::Words: {
      std::vector<WordCount> all = read_word_counts(d.path);
      words_in_file_ = static_cast<int64_t>(all.size());
      size_t used = std::min(all.size(), static_cast<size_t>(k));
      long double total = 0, top = 0;
      for (size_t i = 0; i < all.size(); ++i) {
        total += all[i].count;
        if (i < used) top += all[i].count;
      }
      if (top <= 0)
        throw UsageError("--distribution " + d.spec + ": the top " + std::to_string(used) +
                         " words all have count 0");
      top_k_share_ = static_cast<double>(top / total);
      words_.reserve(used);
      cdf_.resize(used);
      long double c = 0;
      for (size_t i = 0; i < used; ++i) {
        words_.push_back(std::move(all[i].word));
        c += all[i].count;
        cdf_[i] = static_cast<double>(c);
      }
      break;
    }
  }
}

int64_t ItemPopulation::draw_cdf(RandomSource& rng) const {
  return static_cast<int64_t>(draw_cdf_index(cdf_, rng));
}

// ---------------------------------------------------------------------------
// Mechanisms and specs

const char* freq_mechanism_name(FreqMechanism m) { return freq_mechanism(m).name; }

std::optional<FreqMechanism> parse_freq_mechanism(const std::string& name) {
  const FreqMechanismInfo* info = freq_mechanism_by_name(name.data(), name.size());
  if (info == nullptr) return std::nullopt;
  return info->id;
}

namespace {
constexpr int kMaxRounds = 100000;
constexpr double kMaxLocalBytes = 2.0 * (1 << 30);  // per-round local summaries and truths
}  // namespace

void validate_spec(const FreqLoadSpec& s) {
  const char* name = freq_mechanism_name(s.mechanism);
  const bool dbitflip = s.mechanism == FreqMechanism::DBitFlip;
  if (!dbitflip && s.d != 0)
    throw UsageError(std::string("--d applies to dbitflip only, not ") + name);
  if (dbitflip && s.d == 0)
    throw UsageError("dbitflip needs --d D, the buckets per report, in [1, k] (Ding et al. "
                     "2017 evaluate d = 1, 2, 4 for dBitFlipPM; d = k is SUE)");
  if (!dbitflip && s.memoize)
    throw UsageError(std::string("--memoize applies to dbitflip only (dBitFlipPM), not ") + name);
  try {
    validate_freq_params(s.mechanism, FreqParams{s.epsilon, s.k, dbitflip ? s.d : 0});
  } catch (const ldp::Error& e) {
    std::string msg = e.what();
    // the core names the parameters epsilon, k and d: so do the options
    throw UsageError(std::string("invalid parameters for ") + name + ": " + msg +
                     " (--epsilon, --k" + (dbitflip ? ", --d" : "") + ")");
  }
  if (s.users < 1) throw UsageError("--users must be at least 1");
  if (s.rounds < 1 || s.rounds > kMaxRounds)
    throw UsageError("--rounds must be in [1, " + std::to_string(kMaxRounds) + "]");
  if (s.rounds > 1 && !s.memoize)
    throw UsageError("--rounds needs --memoize: repeated collection without memoization "
                     "would spend epsilon again every round (only dBitFlipPM memoizes)");
  if (s.users > INT64_MAX / s.rounds || static_cast<double>(s.users) * s.rounds > 9e15)
    throw UsageError("--users times --rounds is too large");
  if (s.first_user_id < 0 || s.first_user_id > INT64_MAX - s.users)
    throw UsageError("--first-user-id must be >= 0 and leave room for every user id");
  if (!(s.redraw >= 0 && s.redraw <= 1))
    throw UsageError("--redraw must be in [0, 1], got " + short_num(s.redraw));
  if (s.redraw > 0 && s.rounds == 1)
    throw UsageError("--redraw only makes sense with --rounds > 1");
  if (s.rounds > 1) {
    double width = s.mechanism == FreqMechanism::DBitFlip ? 3.0 : 2.0;
    if (static_cast<double>(s.rounds) * width * 8.0 * static_cast<double>(s.k) > kMaxLocalBytes)
      throw UsageError("--rounds times --k is too large: the loader keeps the truth and a "
                       "local summary of every round (at most 2 GiB)");
  }
}

// ---------------------------------------------------------------------------
// Local decoding

LocalSummary::LocalSummary(FreqMechanism id, const FreqParams& p) : LocalState(freq_summary_size(id, p)) {
  freq_summary_init(get(), id, p);
}

std::string LocalSummary::text() const { return core_text(**this, freq_summary_text_size, freq_summary_to_text); }

std::vector<ItemEstimate> local_frequencies(const FreqSummary& s, Consistency c) {
  std::vector<ItemEstimate> out;
  if (s.n == 0) return out;
  const auto k = static_cast<size_t>(s.k);
  std::vector<double> freq(k), se(k);
  freq_estimate(s, freq.data(), se.data());
  std::vector<double> post = freq;
  apply_consistency(c, post.data(), s.k);
  const double z = normal_critical_value(0.95);
  const double n = static_cast<double>(s.n);
  out.resize(k);
  for (size_t v = 0; v < k; ++v) {
    double lo = freq[v] - z * se[v], hi = freq[v] + z * se[v];
    if (c != Consistency::None) {
      lo = lo < 0 ? 0 : (lo > 1 ? 1 : lo);
      hi = hi < 0 ? 0 : (hi > 1 ? 1 : hi);
    }
    out[v] = {post[v], post[v] * n, se[v], lo, hi};
  }
  return out;
}

// ---------------------------------------------------------------------------
// Formatting

void append_grr_row(std::string& out, int64_t user_id, int round, int64_t item) {
  append_row_prefix(out, user_id, round);
  append_int_field(out, item);
  out.push_back('\n');
}

void append_unary_row(std::string& out, int64_t user_id, int round, const uint8_t* bytes,
                      int64_t k) {
  append_row_prefix(out, user_id, round);
  append_varbit(out, bytes, k);
  out.push_back('\n');
}

void append_dbitflip_row(std::string& out, int64_t user_id, int round, const int32_t* buckets,
                         const bool* bits, int64_t d) {
  append_row_prefix(out, user_id, round);
  out.push_back('{');
  for (int64_t i = 0; i < d; ++i) {
    if (i) out.push_back(',');
    append_int_field(out, buckets[i]);
  }
  out.append("}\t{", 3);
  for (int64_t i = 0; i < d; ++i) {
    if (i) out.push_back(',');
    out.push_back(bits[i] ? 't' : 'f');
  }
  out.append("}\n", 2);
}

void append_olh_row(std::string& out, int64_t user_id, int round, int64_t seed, int64_t y) {
  append_row_prefix(out, user_id, round);
  append_int_field(out, seed);
  out.push_back('\t');
  append_int_field(out, y);
  out.push_back('\n');
}

void append_hadamard_row(std::string& out, int64_t user_id, int round, int64_t row,
                         bool plus_one) {
  append_row_prefix(out, user_id, round);
  append_int_field(out, row);
  out.append(plus_one ? "\tt\n" : "\tf\n", 3);
}

// ---------------------------------------------------------------------------
// Generation

namespace {

// Encodes one report of `item` with the core, adds it to the local summaries (the
// round's and, for several rounds, nothing else: the total is merged at the end) and
// formats its row. One per load; holds the per-report scratch buffers.
class ReportWriter {
 public:
  explicit ReportWriter(const FreqLoadSpec& s)
      : s_(s), bytes_(static_cast<size_t>((s.k + 7) / 8)), buckets_(static_cast<size_t>(s.d)),
        bits_(new bool[static_cast<size_t>(s.d > 0 ? s.d : 1)]) {}

  // client: the user's DBitFlipClient (memoize), else null.
  void write(std::string& out, int64_t uid, int round, int64_t item, RandomSource& rng,
             DBitFlipClient* client, FreqSummary* local) {
    const double eps = s_.epsilon;
    const int64_t k = s_.k;
    switch (s_.mechanism) {
      case FreqMechanism::GRR: {
        int64_t y = grr_encode(item, eps, k, rng);
        if (local) freq_add_item(local, y);
        append_grr_row(out, uid, round, y);
        break;
      }
      case FreqMechanism::SUE:
      case FreqMechanism::OUE: {
        if (s_.mechanism == FreqMechanism::SUE)
          sue_encode(item, eps, k, rng, bytes_.data());
        else
          oue_encode(item, eps, k, rng, bytes_.data());
        if (local) freq_add_bits(local, bytes_.data(), k);
        append_unary_row(out, uid, round, bytes_.data(), k);
        break;
      }
      case FreqMechanism::DBitFlip: {
        if (client)
          client->report(item, rng, buckets_.data(), bits_.get());
        else
          dbitflip_encode(item, eps, k, s_.d, rng, buckets_.data(), bits_.get());
        if (local) freq_add_dbitflip(local, buckets_.data(), bits_.get(), s_.d);
        append_dbitflip_row(out, uid, round, buckets_.data(), bits_.get(), s_.d);
        break;
      }
      case FreqMechanism::OLH: {
        OlhReport r = olh_encode(item, eps, k, rng);
        if (local) freq_add_olh(local, static_cast<uint64_t>(r.seed), r.y);
        append_olh_row(out, uid, round, r.seed, r.y);
        break;
      }
      case FreqMechanism::Hadamard: {
        HadamardReport r = hadamard_encode(item, eps, k, rng);
        if (local) freq_add_hadamard(local, r.row, r.plus_one);
        append_hadamard_row(out, uid, round, r.row, r.plus_one);
        break;
      }
    }
  }

 private:
  const FreqLoadSpec& s_;
  std::vector<uint8_t> bytes_;
  std::vector<int32_t> buckets_;
  std::unique_ptr<bool[]> bits_;
};

FreqTally empty_tally(const FreqLoadSpec& s) {
  FreqTally t;
  t.true_counts.assign(static_cast<size_t>(s.k), 0);
  if (s.local_decode) t.local.emplace(s.mechanism, FreqParams{s.epsilon, s.k, s.d});
  return t;
}

}  // namespace

FreqLoadResult generate_freq_reports(const Validated<FreqLoadSpec>& checked, const ChunkSink& sink,
                                     const ProgressFn& progress, size_t chunk_bytes) {
  const FreqLoadSpec& spec = *checked;
  ItemPopulation population(spec.distribution, spec.k);

  std::unique_ptr<RandomSource> pop_rng = make_random(spec.seed, 0);
  std::unique_ptr<RandomSource> enc_rng = make_random(spec.seed, 1);
  RandomSource& prng = *pop_rng;
  RandomSource& erng = *enc_rng;

  std::vector<FreqTally> rounds;
  for (int r = 0; r < spec.rounds; ++r) rounds.push_back(empty_tally(spec));
  FreqSummary* local = rounds[0].local ? rounds[0].local->get() : nullptr;  // one round
  int64_t* truth = rounds[0].true_counts.data();

  ChunkedRows out(sink, progress, chunk_bytes, 64 + static_cast<size_t>(spec.k) + 16 * static_cast<size_t>(spec.d));
  std::string& buf = out.buf();
  ReportWriter writer(spec);
  for_each_device(spec.users, out, [&](int64_t i) -> int64_t {
    const int64_t uid = spec.first_user_id + i;
    if (!spec.memoize) {
      int64_t item = population.next(prng);
      ++truth[item];
      writer.write(buf, uid, 1, item, erng, nullptr, local);
      return 1;
    }
    // One device: its d buckets and its memo persist across this user's rounds.
    DBitFlipClient client(spec.epsilon, spec.k, spec.d, erng);
    int64_t item = population.next(prng);
    for (int r = 1; r <= spec.rounds; ++r) {
      if (r > 1 && spec.redraw > 0 && prng.bernoulli(spec.redraw)) item = population.next(prng);
      FreqTally& t = rounds[static_cast<size_t>(r - 1)];
      ++t.true_counts[static_cast<size_t>(item)];
      ++t.reports;
      writer.write(buf, uid, r, item, erng, &client, t.local ? t.local->get() : nullptr);
    }
    return spec.rounds;
  });
  if (!spec.memoize) rounds[0].reports = spec.users;

  FreqLoadResult result;
  result.words = population.words();
  result.words_in_file = population.words_in_file();
  result.top_k_share = population.top_k_share();
  if (spec.rounds == 1) {
    result.total = std::move(rounds[0]);
    return result;
  }
  result.total = empty_tally(spec);
  for (const FreqTally& t : rounds) {
    result.total.reports += t.reports;
    for (size_t v = 0; v < t.true_counts.size(); ++v)
      result.total.true_counts[v] += t.true_counts[v];
    if (t.local) freq_summary_merge(result.total.local->get(), **t.local);
  }
  result.rounds = std::move(rounds);
  return result;
}

// ---------------------------------------------------------------------------
// Tables

std::vector<ReportColumn> freq_report_columns(FreqMechanism m) {
  switch (m) {
    case FreqMechanism::GRR: return {{"report", "integer"}};
    case FreqMechanism::SUE:
    case FreqMechanism::OUE: return {{"report", "bit varying"}};
    case FreqMechanism::DBitFlip: return {{"buckets", "integer[]"}, {"bits", "boolean[]"}};
    case FreqMechanism::OLH: return {{"seed", "bigint"}, {"report", "integer"}};
    case FreqMechanism::Hadamard: return {{"row", "integer"}, {"report", "boolean"}};
  }
  return {};
}

}  // namespace ldp::tools
