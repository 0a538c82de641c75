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

namespace {

std::string short_num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  char shorter[64];
  std::snprintf(shorter, sizeof shorter, "%g", v);
  return std::strtod(shorter, nullptr) == v ? shorter : buf;
}

// A whole string as a finite double, or nullopt.
std::optional<double> to_double(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

// A whole string of digits as an int64, or nullopt.
std::optional<int64_t> to_count(const std::string& s) {
  int64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || s[0] == '-' || r.ec != std::errc() || r.ptr != s.data() + s.size())
    return std::nullopt;
  return v;
}

inline void append_int(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}

inline void append_prefix(std::string& out, int64_t user_id, int round) {
  append_int(out, user_id);
  out.push_back('\t');
  append_int(out, round);
  out.push_back('\t');
}

// Bytes as 8 characters '0'/'1' each, and as 2 hex digits each. Built at compile time: as
// a const global with a constructor, a Release build (GCC 12, -O3) read the table as all
// zeros, and the loader wrote sue, oue and cms reports as NUL bytes.
struct TextTables {
  char bits[256][8];
  char hex[256][2];
};
constexpr TextTables make_text_tables() {
  TextTables t{};
  constexpr char kHex[] = "0123456789ABCDEF";
  for (int b = 0; b < 256; ++b) {
    for (int j = 0; j < 8; ++j) t.bits[b][j] = ((b >> (7 - j)) & 1) ? '1' : '0';
    t.hex[b][0] = kHex[b >> 4];
    t.hex[b][1] = kHex[b & 15];
  }
  return t;
}
constexpr TextTables kText = make_text_tables();

}  // namespace

// ---------------------------------------------------------------------------
// Distributions

ItemDistribution parse_item_distribution(const std::string& spec) {
  static const char* kForms = "uniform, zipf:S, constant:V or words:PATH";
  ItemDistribution d;
  d.spec = spec;
  size_t colon = spec.find(':');
  std::string kind = spec.substr(0, colon);
  std::string rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  auto need_arg = [&](const char* what) {
    if (colon == std::string::npos || rest.empty())
      throw UsageError("--distribution " + spec + ": " + kind + " takes " + what +
                       " (expected " + kForms + ")");
  };
  if (kind == "uniform") {
    if (colon != std::string::npos)
      throw UsageError("--distribution " + spec + ": uniform takes no parameter (items are "
                       "uniform over [0, k); expected " + kForms + ")");
    d.kind = ItemDistribution::Kind::Uniform;
  } else if (kind == "zipf") {
    need_arg("an exponent S");
    d.kind = ItemDistribution::Kind::Zipf;
    auto s = to_double(rest);
    if (!s || !(*s > 0 && *s <= 100))
      throw UsageError("--distribution " + spec + ": S must be a number in (0, 100], got '" +
                       rest + "'");
    d.s = *s;
  } else if (kind == "constant") {
    need_arg("an item V");
    d.kind = ItemDistribution::Kind::Constant;
    auto v = to_count(rest);
    if (!v) throw UsageError("--distribution " + spec + ": V must be an item (an integer >= 0), "
                             "got '" + rest + "'");
    d.value = *v;
  } else if (kind == "words") {
    need_arg("a file PATH");
    d.kind = ItemDistribution::Kind::Words;
    d.path = rest;
  } else {
    throw UsageError("--distribution " + spec + ": unknown item distribution '" + kind +
                     "' (expected " + kForms + ")");
  }
  return d;
}

std::vector<WordCount> read_word_counts(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read " + path + ": " + std::strerror(errno));
  std::vector<WordCount> words;
  std::string line;
  int64_t lineno = 0;
  bool seen_line = false;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const bool first = !seen_line;
    seen_line = true;
    size_t tab = line.find('\t');
    auto where = [&] { return path + ":" + std::to_string(lineno) + ": "; };
    if (tab == std::string::npos) {
      if (first) continue;  // a header without a tab
      throw UsageError(where() + "expected word<TAB>count, found no tab");
    }
    if (line.find('\t', tab + 1) != std::string::npos)
      throw UsageError(where() + "expected two tab-separated fields, word and count");
    std::string count_text = line.substr(tab + 1);
    auto count = to_count(count_text);
    if (!count) {
      if (first) continue;  // the header word<TAB>count
      throw UsageError(where() + "the count must be an integer >= 0, found '" +
                       count_text.substr(0, 40) + "'");
    }
    words.push_back({line.substr(0, tab), *count});
  }
  if (in.bad()) throw UsageError("error reading " + path + ": " + std::strerror(errno));
  if (words.empty()) throw UsageError(path + ": no word<TAB>count lines found");
  std::stable_sort(words.begin(), words.end(),
                   [](const WordCount& a, const WordCount& b) { return a.count > b.count; });
  return words;
}

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

void validate_freq_spec(const FreqLoadSpec& s) {
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

LocalSummary::LocalSummary(FreqMechanism id, const FreqParams& p) {
  size_t size = freq_summary_size(id, p);
  mem_.assign((size + 7) / 8, 0);
  freq_summary_init(get(), id, p);
}

std::string LocalSummary::text() const {
  std::string out(freq_summary_text_size(**this), '\0');
  freq_summary_to_text(**this, out.data(), out.size());
  out.resize(std::strlen(out.c_str()));
  return out;
}

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

std::vector<int64_t> FreqTally::top_items(size_t limit) const {
  std::vector<int64_t> items(true_counts.size());
  for (size_t i = 0; i < items.size(); ++i) items[i] = static_cast<int64_t>(i);
  limit = std::min(limit, items.size());
  std::partial_sort(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(limit),
                    items.end(), [this](int64_t a, int64_t b) {
                      int64_t ca = true_counts[static_cast<size_t>(a)];
                      int64_t cb = true_counts[static_cast<size_t>(b)];
                      return ca != cb ? ca > cb : a < b;
                    });
  items.resize(limit);
  return items;
}

// ---------------------------------------------------------------------------
// Formatting

void append_grr_row(std::string& out, int64_t user_id, int round, int64_t item) {
  append_prefix(out, user_id, round);
  append_int(out, item);
  out.push_back('\n');
}

void append_int_field(std::string& out, int64_t v) { append_int(out, v); }

void append_unary_row(std::string& out, int64_t user_id, int round, const uint8_t* bytes,
                      int64_t k) {
  append_prefix(out, user_id, round);
  append_varbit(out, bytes, k);
  out.push_back('\n');
}

void append_varbit(std::string& out, const uint8_t* bytes, int64_t k) {
  const size_t whole = static_cast<size_t>(k / 8);
  if (k % 4 == 0) {
    // varbit input "X..." reads 4 bits per hex digit, the first digit the leftmost bits
    out.push_back('X');
    size_t at = out.size();
    out.resize(at + static_cast<size_t>(k / 4));
    char* p = &out[at];
    for (size_t i = 0; i < whole; ++i, p += 2) std::memcpy(p, kText.hex[bytes[i]], 2);
    if (k % 8 != 0) *p = kText.hex[bytes[whole]][0];
  } else {
    size_t at = out.size();
    out.resize(at + static_cast<size_t>(k));
    char* p = &out[at];
    for (size_t i = 0; i < whole; ++i, p += 8) std::memcpy(p, kText.bits[bytes[i]], 8);
    std::memcpy(p, kText.bits[bytes[whole]], static_cast<size_t>(k % 8));
  }
}

void append_dbitflip_row(std::string& out, int64_t user_id, int round, const int32_t* buckets,
                         const bool* bits, int64_t d) {
  append_prefix(out, user_id, round);
  out.push_back('{');
  for (int64_t i = 0; i < d; ++i) {
    if (i) out.push_back(',');
    append_int(out, buckets[i]);
  }
  out.append("}\t{", 3);
  for (int64_t i = 0; i < d; ++i) {
    if (i) out.push_back(',');
    out.push_back(bits[i] ? 't' : 'f');
  }
  out.append("}\n", 2);
}

void append_olh_row(std::string& out, int64_t user_id, int round, int64_t seed, int64_t y) {
  append_prefix(out, user_id, round);
  append_int(out, seed);
  out.push_back('\t');
  append_int(out, y);
  out.push_back('\n');
}

void append_hadamard_row(std::string& out, int64_t user_id, int round, int64_t row,
                         bool plus_one) {
  append_prefix(out, user_id, round);
  append_int(out, row);
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

FreqLoadResult generate_freq_reports(const FreqLoadSpec& spec, const ChunkSink& sink,
                                     const ProgressFn& progress, size_t chunk_bytes) {
  validate_freq_spec(spec);
  ItemPopulation population(spec.distribution, spec.k);

  std::unique_ptr<RandomSource> pop_rng = make_random(spec.seed, 0);
  std::unique_ptr<RandomSource> enc_rng = make_random(spec.seed, 1);
  RandomSource& prng = *pop_rng;
  RandomSource& erng = *enc_rng;

  std::vector<FreqTally> rounds;
  for (int r = 0; r < spec.rounds; ++r) rounds.push_back(empty_tally(spec));

  ChunkedRows out(sink, progress, chunk_bytes, 64 + static_cast<size_t>(spec.k) + 16 * static_cast<size_t>(spec.d));
  std::string& buf = out.buf();
  int64_t done = 0;

  ReportWriter writer(spec);
  try {
    if (spec.memoize) {
      for (int64_t i = 0; i < spec.users; ++i) {
        const int64_t uid = spec.first_user_id + i;
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
        done += spec.rounds;
        out.rows_done(done);
      }
    } else {
      FreqTally& t = rounds[0];
      FreqSummary* local = t.local ? t.local->get() : nullptr;
      int64_t* truth = t.true_counts.data();
      for (int64_t i = 0; i < spec.users; ++i) {
        int64_t item = population.next(prng);
        ++truth[item];
        writer.write(buf, spec.first_user_id + i, 1, item, erng, nullptr, local);
        ++done;
        out.rows_done(done);
      }
      t.reports = spec.users;
    }
    out.finish(done);
  } catch (const ldp::Error& e) {
    // The core refused a parameter or a report the validation above let through.
    throw UsageError(std::string("the core library refused the load: ") + e.what());
  }

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

std::vector<FreqColumn> freq_report_columns(FreqMechanism m) {
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

std::string quote_ident(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::vector<std::string> report_copy_columns(const std::vector<FreqColumn>& report_columns) {
  std::vector<std::string> cols{quote_ident("user_id"), quote_ident("round")};
  for (const FreqColumn& c : report_columns) cols.push_back(quote_ident(c.name));
  return cols;
}

std::string report_create_table_sql(const std::string& quoted_table,
                                    const std::vector<FreqColumn>& report_columns) {
  std::string sql = "CREATE TABLE IF NOT EXISTS " + quoted_table +
                    " (user_id bigint NOT NULL, round integer NOT NULL";
  for (const FreqColumn& c : report_columns)
    sql += ", " + quote_ident(c.name) + " " + c.sql_type + " NOT NULL";
  return sql + ")";
}

std::vector<std::string> freq_copy_columns(FreqMechanism m) {
  return report_copy_columns(freq_report_columns(m));
}

std::string freq_create_table_sql(const std::string& quoted_table, FreqMechanism m) {
  return report_create_table_sql(quoted_table, freq_report_columns(m));
}

}  // namespace ldp::tools
