#include "tools/common/numbers.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

namespace ldp::tools {

namespace {

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

// ---------------------------------------------------------------------------
// Distributions

Distribution parse_distribution(const std::string& spec) {
  static const char* kForms =
      "constant:V, uniform:A:B, normal:MU:SIGMA, lognormal:MU:SIGMA, zipf:S:K, bernoulli:P or file:PATH[:COLUMN]";
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
  } else if (kind == "normal" || kind == "lognormal") {
    need(2);
    d.kind = kind == "normal" ? Distribution::Kind::Normal : Distribution::Kind::Lognormal;
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
      throw UsageError("--distribution " + d.spec + ": " + what + " = " + short_num(v) +
                       " is outside [0, max_value = " + short_num(max_value) + "]");
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
    case Distribution::Kind::Lognormal:  // the median e^MU
      in_range(std::exp(d.a), "e^MU");
      break;
    case Distribution::Kind::Bernoulli:
      if (max_value < 1)
        throw UsageError("--distribution " + d.spec + ": bernoulli values are 0 and 1, but "
                         "max_value = " + short_num(max_value) + " < 1");
      break;
    case Distribution::Kind::Zipf: {
      if (static_cast<double>(d.k) > max_value)
        throw UsageError("--distribution " + d.spec + ": zipf values are ranks 1.." +
                         std::to_string(d.k) + ", above max_value = " + short_num(max_value));
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
    case Distribution::Kind::Lognormal:
      return clamp(std::exp(d_.a + d_.b * rng.normal()));
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

NumberPopulation number_population(const CommandLine& cl) {
  NumberPopulation out;
  out.users = cl.count(options::users, 1000000);
  out.seed = cl.seed(options::seed);
  out.first_user_id = cl.count(options::first_user_id, 1);
  out.distribution = parse_distribution(cl.text(options::distribution));
  if (out.distribution.kind == Distribution::Kind::File && !cl.has(options::users))
    out.users = static_cast<int64_t>(read_values_file(out.distribution.path, out.distribution.column).size());
  return out;
}

}  // namespace ldp::tools
