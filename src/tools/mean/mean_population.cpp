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

namespace {

std::string fmt_num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // prefer the short form when it is exact
  char shorter[64];
  std::snprintf(shorter, sizeof shorter, "%g", v);
  if (std::strtod(shorter, nullptr) == v) return shorter;
  return buf;
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

double number_arg(const std::string& text, const std::string& what, const std::string& spec) {
  auto v = to_double(text);
  if (!v)
    throw UsageError("--distribution " + spec + ": " + what + " must be a finite number, got '" +
                     text + "'");
  return *v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t p = s.find(sep, start);
    if (p == std::string::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, p - start));
    start = p + 1;
  }
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

constexpr int64_t kMaxZipfRanks = 10'000'000;

}  // namespace

// splitmix64: independent streams from one user seed.
uint64_t mix_seed(uint64_t seed, uint64_t stream) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::unique_ptr<ldp::RandomSource> make_random(const std::optional<uint64_t>& seed,
                                               uint64_t stream) {
  if (seed) return std::make_unique<ldp::SeededRandom>(mix_seed(*seed, stream));
  return std::make_unique<ldp::SecureRandom>();
}

// ---------------------------------------------------------------------------
// Distributions

Distribution parse_distribution(const std::string& spec) {
  static const char* kForms =
      "constant:V, uniform:A:B, normal:MU:SIGMA, zipf:S:K, bernoulli:P or file:PATH[:COLUMN]";
  Distribution d;
  d.spec = spec;
  size_t colon = spec.find(':');
  std::string kind = spec.substr(0, colon);
  std::string rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  auto args = split(rest, ':');
  auto need = [&](size_t n) {
    if (colon == std::string::npos || args.size() != n)
      throw UsageError("--distribution " + spec + ": " + kind + " takes " + std::to_string(n) +
                       " parameter" + (n == 1 ? "" : "s") + " (expected " + kForms + ")");
  };
  if (kind == "constant") {
    need(1);
    d.kind = Distribution::Kind::Constant;
    d.a = number_arg(args[0], "V", spec);
  } else if (kind == "uniform") {
    need(2);
    d.kind = Distribution::Kind::Uniform;
    d.a = number_arg(args[0], "A", spec);
    d.b = number_arg(args[1], "B", spec);
    if (!(d.a <= d.b))
      throw UsageError("--distribution " + spec + ": uniform:A:B needs A <= B");
  } else if (kind == "normal") {
    need(2);
    d.kind = Distribution::Kind::Normal;
    d.a = number_arg(args[0], "MU", spec);
    d.b = number_arg(args[1], "SIGMA", spec);
    if (!(d.b >= 0)) throw UsageError("--distribution " + spec + ": SIGMA must be >= 0");
  } else if (kind == "zipf") {
    need(2);
    d.kind = Distribution::Kind::Zipf;
    d.a = number_arg(args[0], "S", spec);
    if (!(d.a > 0)) throw UsageError("--distribution " + spec + ": S must be > 0");
    double k = number_arg(args[1], "K", spec);
    if (!(k >= 1 && k <= static_cast<double>(kMaxZipfRanks) && k == std::floor(k)))
      throw UsageError("--distribution " + spec + ": K must be an integer in [1, " +
                       std::to_string(kMaxZipfRanks) + "]");
    d.k = static_cast<int64_t>(k);
  } else if (kind == "bernoulli") {
    need(1);
    d.kind = Distribution::Kind::Bernoulli;
    d.a = number_arg(args[0], "P", spec);
    if (!(d.a >= 0 && d.a <= 1))
      throw UsageError("--distribution " + spec + ": P must be in [0, 1]");
  } else if (kind == "file") {
    d.kind = Distribution::Kind::File;
    if (colon == std::string::npos || rest.empty())
      throw UsageError("--distribution " + spec + ": expected file:PATH or file:PATH:COLUMN");
    d.path = rest;
    size_t last = rest.rfind(':');
    if (last != std::string::npos && last + 1 < rest.size() &&
        rest.find_first_not_of("0123456789", last + 1) == std::string::npos) {
      std::string col = rest.substr(last + 1);
      if (col.size() > 6 || std::stoi(col) < 1)
        throw UsageError("--distribution " + spec + ": COLUMN must be an integer >= 1");
      d.column = std::stoi(col);
      d.path = rest.substr(0, last);
    }
    if (d.path.empty()) throw UsageError("--distribution " + spec + ": empty PATH");
  } else {
    throw UsageError("--distribution " + spec + ": unknown distribution '" + kind +
                     "' (expected " + kForms + ")");
  }
  return d;
}

std::vector<double> read_values_file(const std::string& path, int column) {
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read " + path + ": " + std::strerror(errno));
  std::vector<double> values;
  std::string line;
  int64_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    auto fields = split(line, '\t');
    std::optional<double> v;
    std::string field;
    if (static_cast<size_t>(column) <= fields.size()) {
      field = trim(fields[column - 1]);
      v = to_double(field);
    }
    if (!v) {
      if (values.empty()) continue;  // a header
      if (static_cast<size_t>(column) > fields.size())
        throw UsageError(path + ":" + std::to_string(lineno) + ": no column " +
                         std::to_string(column) + " (the line has " +
                         std::to_string(fields.size()) + " tab-separated fields)");
      throw UsageError(path + ":" + std::to_string(lineno) + ": expected a number in column " +
                       std::to_string(column) + ", found '" + field.substr(0, 40) + "'");
    }
    values.push_back(*v);
  }
  if (in.bad()) throw UsageError("error reading " + path + ": " + std::strerror(errno));
  if (values.empty())
    throw UsageError(path + ": no numbers found in column " + std::to_string(column));
  return values;
}

Population::Population(const Distribution& d, double max_value, int64_t users)
    : d_(d), max_value_(max_value) {
  auto in_range = [&](double v, const char* what) {
    if (!(v >= 0 && v <= max_value))
      throw UsageError("--distribution " + d.spec + ": " + what + " = " + fmt_num(v) +
                       " is outside [0, max_value = " + fmt_num(max_value) + "]");
  };
  switch (d.kind) {
    case Distribution::Kind::Constant:
      in_range(d.a, "V");
      break;
    case Distribution::Kind::Uniform:
      in_range(d.a, "A");
      in_range(d.b, "B");
      break;
    case Distribution::Kind::Normal:
      in_range(d.a, "MU");
      break;
    case Distribution::Kind::Bernoulli:
      if (max_value < 1)
        throw UsageError("--distribution " + d.spec + ": bernoulli values are 0 and 1, but "
                         "max_value = " + fmt_num(max_value) + " < 1");
      break;
    case Distribution::Kind::Zipf: {
      if (static_cast<double>(d.k) > max_value)
        throw UsageError("--distribution " + d.spec + ": zipf values are ranks 1.." +
                         std::to_string(d.k) + ", above max_value = " + fmt_num(max_value));
      values_.resize(static_cast<size_t>(d.k));
      double c = 0;
      for (int64_t r = 1; r <= d.k; ++r) {
        c += std::pow(static_cast<double>(r), -d.a);
        values_[static_cast<size_t>(r - 1)] = c;
      }
      break;
    }
    case Distribution::Kind::File:
      values_ = read_values_file(d.path, d.column);
      if (static_cast<int64_t>(values_.size()) < users)
        throw UsageError("--distribution " + d.spec + ": the file holds " +
                         std::to_string(values_.size()) + " values, fewer than --users " +
                         std::to_string(users));
      break;
  }
}

bool Population::bits_only() const {
  switch (d_.kind) {
    case Distribution::Kind::Bernoulli:
      return true;
    case Distribution::Kind::Constant:
      return d_.a == 0 || d_.a == 1;
    default:
      return false;
  }
}

double Population::clamp(double v) {
  if (v >= 0 && v <= max_value_) return v;
  ++clamped_;
  return v < 0 ? 0.0 : max_value_;
}

double Population::next(RandomSource& rng) {
  switch (d_.kind) {
    case Distribution::Kind::Constant:
      return d_.a;
    case Distribution::Kind::Uniform:
      return std::fmin(d_.a + (d_.b - d_.a) * rng.uniform(), d_.b);
    case Distribution::Kind::Normal:
      return clamp(d_.a + d_.b * rng.normal());
    case Distribution::Kind::Bernoulli:
      return rng.bernoulli(d_.a) ? 1.0 : 0.0;
    case Distribution::Kind::Zipf: {
      double u = rng.uniform() * values_.back();
      size_t i = static_cast<size_t>(std::upper_bound(values_.begin(), values_.end(), u) -
                                     values_.begin());
      if (i >= values_.size()) i = values_.size() - 1;
      return static_cast<double>(i + 1);
    }
    case Distribution::Kind::File:
      if (next_index_ >= values_.size())
        throw UsageError("--distribution " + d_.spec + ": more users than values in the file");
      return clamp(values_[next_index_++]);
  }
  return 0;
}

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
    throw UsageError("--epsilon must be a number in (0, 700], got " + fmt_num(s.epsilon));
  if (s.users < 1) throw UsageError("--users must be at least 1");
  if (s.users > INT64_MAX / kMaxRounds) throw UsageError("--users is too large");
  if (s.first_user_id < 0 || s.first_user_id > INT64_MAX - s.users)
    throw UsageError("--first-user-id must be >= 0 and leave room for every user id");
  if (s.mechanism != Mechanism::RR) {
    if (!(std::isfinite(s.max_value) && s.max_value > 0 && s.max_value <= 1e300))
      throw UsageError(std::string("--max-value must be a number in (0, 1e300] for ") + name +
                       ", got " + fmt_num(s.max_value));
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
      throw UsageError("--gamma must be in [0, 0.5), got " + fmt_num(s.gamma));
    if (s.granularity != 0 && !(s.granularity > 0 && s.granularity <= s.max_value))
      throw UsageError("--granularity must be in (0, max_value = " + fmt_num(s.max_value) +
                       "], got " + fmt_num(s.granularity));
    if (s.granularity > 0 && s.max_value / s.granularity > 1e6)
      throw UsageError("--granularity " + fmt_num(s.granularity) + " gives " +
                       fmt_num(std::round(s.max_value / s.granularity) + 1) +
                       " rounding points per user; use at most 10^6");
    if (s.rounds < 1 || s.rounds > kMaxRounds)
      throw UsageError("--rounds must be in [1, " + std::to_string(kMaxRounds) + "]");
    if (s.granularity > 0 &&
        static_cast<double>(s.users) * (std::round(s.max_value / s.granularity) + 1) > 1e11)
      throw UsageError("--granularity " + fmt_num(s.granularity) +
                       " is too fine for this many users: every user's device keeps one memo "
                       "entry per rounding point; use a coarser grid");
    if (s.rounds > 1 && s.granularity == 0)
      throw UsageError("--rounds needs --granularity: repeated collection uses alpha-point "
                       "rounding and memoization (--granularity = max_value is the coarsest)");
    if (s.constant_users && s.rounds == 1)
      throw UsageError("--constant-users only makes sense with --rounds > 1");
    if (!(s.drift >= 0 && s.drift <= 1))
      throw UsageError("--drift must be in [0, 1], got " + fmt_num(s.drift));
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

namespace {
inline void append_int(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}
}  // namespace

void append_double(std::string& out, double v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}

void append_row(std::string& out, int64_t user_id, int round, bool report) {
  append_int(out, user_id);
  out.push_back('\t');
  append_int(out, round);
  out.append(report ? "\tt\n" : "\tf\n", 3);
}

void append_row(std::string& out, int64_t user_id, int round, double report) {
  append_int(out, user_id);
  out.push_back('\t');
  append_int(out, round);
  out.push_back('\t');
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

}  // namespace

LoadResult generate_reports(const LoadSpec& spec, const ChunkSink& sink,
                            const ProgressFn& progress, size_t chunk_bytes) {
  validate_spec(spec);
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
  int64_t done = 0;

  const double eps = spec.epsilon, m = params.max_value, gamma = params.gamma;
  const bool client_mode = spec.mechanism == Mechanism::OneBit && spec.granularity > 0;

  try {
    for (int64_t i = 0; i < spec.users; ++i) {
      const int64_t uid = spec.first_user_id + i;
      const double base = population.next(prng);
      if (client_mode) {
        // One device: alpha and the memo persist across this user's rounds.
        OneBitMeanClient client(eps, m, spec.granularity, gamma, erng);
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
        done += spec.rounds;
      } else {
        Accumulator& a = *acc[0];
        a.true_sum.add(base);
        switch (spec.mechanism) {
          case Mechanism::RR: {
            bool bit = rr_encode(base != 0, eps, erng);
            mean_add_bit(a.s(), bit);
            append_row(buf, uid, 1, bit);
            break;
          }
          case Mechanism::OneBit: {
            bool bit = output_perturb(onebit_mean_encode(base, eps, m, erng), gamma, erng);
            mean_add_bit(a.s(), bit);
            append_row(buf, uid, 1, bit);
            break;
          }
          case Mechanism::Laplace: {
            double y = laplace_mean_encode(base, eps, m, erng);
            mean_add_real(a.s(), y);
            append_row(buf, uid, 1, y);
            break;
          }
          case Mechanism::Piecewise: {
            double y = piecewise_mean_encode(base, eps, m, erng);
            mean_add_real(a.s(), y);
            append_row(buf, uid, 1, y);
            break;
          }
        }
        ++done;
      }
      out.rows_done(done);
    }
    out.finish(done);
  } catch (const ldp::Error& e) {
    // The core rejected a parameter or value the validation above let through.
    throw UsageError(std::string("the core library refused the load: ") + e.what());
  }

  LoadResult result;
  result.clamped = population.clamped();
  result.effective_epsilon =
      spec.mechanism == Mechanism::OneBit && gamma > 0 ? output_perturbation_epsilon(eps, gamma)
                                                       : eps;
  auto total = std::make_unique<Accumulator>(id, params);
  for (auto& a : acc) {
    result.rounds.push_back(a->tally(real));
    mean_summary_merge(total->s(), *a->s());
    total->true_sum.merge(a->true_sum);
  }
  result.total = total->tally(real);
  return result;
}

// ---------------------------------------------------------------------------
// SQL names

std::string quote_table_name(const std::string& name) {
  std::vector<std::string> parts;
  size_t i = 0;
  auto bad = [&](const std::string& why) {
    return UsageError("--table '" + name + "': " + why +
                      " (expected name, schema.name, or \"Quoted\" parts)");
  };
  for (;;) {
    std::string part;
    if (i < name.size() && name[i] == '"') {
      ++i;
      for (;;) {
        if (i >= name.size()) throw bad("unterminated quoted identifier");
        if (name[i] == '"') {
          if (i + 1 < name.size() && name[i + 1] == '"') {
            part.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        part.push_back(name[i++]);
      }
      if (part.empty()) throw bad("empty quoted identifier");
    } else {
      size_t b = i;
      while (i < name.size() &&
             (std::isalnum(static_cast<unsigned char>(name[i])) || name[i] == '_' ||
              name[i] == '$' || static_cast<unsigned char>(name[i]) >= 0x80))
        ++i;
      part = name.substr(b, i - b);
      if (part.empty()) throw bad("missing identifier");
      if (std::isdigit(static_cast<unsigned char>(part[0])) || part[0] == '$')
        throw bad("an unquoted identifier cannot start with '" + part.substr(0, 1) + "'");
      for (char& c : part)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    if (part.size() > 63) throw bad("identifier longer than 63 bytes");
    parts.push_back(part);
    if (i == name.size()) break;
    if (name[i] != '.') throw bad(std::string("unexpected character '") + name[i] + "'");
    ++i;
  }
  if (parts.size() > 2) throw bad("too many dots");
  std::string out;
  for (size_t k = 0; k < parts.size(); ++k) {
    if (k) out.push_back('.');
    out.push_back('"');
    for (char c : parts[k]) {
      if (c == '"') out.push_back('"');
      out.push_back(c);
    }
    out.push_back('"');
  }
  return out;
}

std::string create_table_sql(const std::string& quoted_table, Mechanism m) {
  return "CREATE TABLE IF NOT EXISTS " + quoted_table +
         " (user_id bigint NOT NULL, round integer NOT NULL, report " + report_sql_type(m) +
         " NOT NULL)";
}

}  // namespace ldp::tools
