#include "tools/common/population.hpp"

#include <cctype>
#include <cinttypes>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace ldp::tools {

std::string short_num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // prefer the short form when it is exact
  char shorter[64];
  std::snprintf(shorter, sizeof shorter, "%g", v);
  return std::strtod(shorter, nullptr) == v ? shorter : buf;
}

std::string num(double v) {
  std::string s;
  append_double(s, v);
  return s;
}

void print_mechanism(const std::string& mechanism, double epsilon) {
  std::printf("mechanism=%s\nepsilon=%s\n", mechanism.c_str(), num(epsilon).c_str());
}

void print_seed_and_table(const std::optional<uint64_t>& seed, const std::string& table) {
  if (seed)
    std::printf("seed=%" PRIu64 "\n", *seed);
  else
    std::printf("seed=none\n");
  std::printf("table=%s\n", table.c_str());
}

std::optional<double> to_double(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

// splitmix64: independent streams from one user seed.
uint64_t mix_seed(uint64_t seed, uint64_t stream) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::unique_ptr<ldp::RandomSource> make_random(const std::optional<uint64_t>& seed, uint64_t stream) {
  if (seed) return std::make_unique<ldp::SeededRandom>(mix_seed(*seed, stream));
  return std::make_unique<ldp::SecureRandom>();
}

// ---------------------------------------------------------------------------
// Formatting

void append_double(std::string& out, double v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}

void append_int_field(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}

void append_row_prefix(std::string& out, int64_t user_id, int round) {
  append_int_field(out, user_id);
  out.push_back('\t');
  append_int_field(out, round);
  out.push_back('\t');
}

// ---------------------------------------------------------------------------
// Tables

std::string quote_ident(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string quote_literal(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  return out + "'";
}

std::vector<std::string> report_copy_columns(const std::vector<ReportColumn>& report_columns) {
  std::vector<std::string> cols{quote_ident("user_id"), quote_ident("round")};
  for (const ReportColumn& c : report_columns) cols.push_back(quote_ident(c.name));
  return cols;
}

std::string report_create_table_sql(const std::string& quoted_table, const std::vector<ReportColumn>& report_columns) {
  std::string sql = "CREATE TABLE IF NOT EXISTS " + quoted_table + " (user_id bigint NOT NULL, round integer NOT NULL";
  for (const ReportColumn& c : report_columns) sql += ", " + quote_ident(c.name) + " " + c.sql_type + " NOT NULL";
  return sql + ")";
}

std::string aggregate_call(const std::string& function, const std::vector<ReportColumn>& columns,
                           const std::vector<std::string>& parameters) {
  std::string sql = function + "(";
  for (const ReportColumn& c : columns) sql += quote_ident(c.name) + ", ";
  for (const std::string& p : parameters) sql += p + ", ";
  sql.resize(sql.size() - 2);
  return sql + ")";
}

std::string quote_table_name(const std::string& name) {
  std::vector<std::string> parts;
  size_t i = 0;
  auto bad = [&](const std::string& why) {
    return UsageError("--table '" + name + "': " + why + " (expected name, schema.name, or \"Quoted\" parts)");
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
      while (i < name.size() && (std::isalnum(static_cast<unsigned char>(name[i])) || name[i] == '_' ||
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
    out += quote_ident(parts[k]);
  }
  return out;
}

}  // namespace ldp::tools
