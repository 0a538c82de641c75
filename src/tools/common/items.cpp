#include "tools/common/items.hpp"

#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace ldp::tools {

namespace {

// A whole string of digits as an int64, or nullopt.
std::optional<int64_t> to_count(const std::string& s) {
  int64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || s[0] == '-' || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
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

ItemDistribution parse_item_distribution(const std::string& spec) {
  static const char* kForms = "uniform, zipf:S, constant:V or words:PATH";
  ItemDistribution d;
  d.spec = spec;
  size_t colon = spec.find(':');
  std::string kind = spec.substr(0, colon);
  std::string rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  auto need_arg = [&](const char* what) {
    if (colon == std::string::npos || rest.empty())
      throw UsageError("--distribution " + spec + ": " + kind + " takes " + what + " (expected " + kForms + ")");
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
      throw UsageError("--distribution " + spec + ": S must be a number in (0, 100], got '" + rest + "'");
    d.s = *s;
  } else if (kind == "constant") {
    need_arg("an item V");
    d.kind = ItemDistribution::Kind::Constant;
    auto v = to_count(rest);
    if (!v) throw UsageError("--distribution " + spec + ": V must be an item (an integer >= 0), got '" + rest + "'");
    d.value = *v;
  } else if (kind == "words") {
    need_arg("a file PATH");
    d.kind = ItemDistribution::Kind::Words;
    d.path = rest;
  } else {
    throw UsageError("--distribution " + spec + ": unknown item distribution '" + kind + "' (expected " + kForms + ")");
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
      throw UsageError(where() + "the count must be an integer >= 0, found '" + count_text.substr(0, 40) + "'");
    }
    words.push_back({line.substr(0, tab), *count});
  }
  if (in.bad()) throw UsageError("error reading " + path + ": " + std::strerror(errno));
  if (words.empty()) throw UsageError(path + ": no word<TAB>count lines found");
  std::stable_sort(words.begin(), words.end(),
                   [](const WordCount& a, const WordCount& b) { return a.count > b.count; });
  return words;
}

std::vector<double> zipf_cdf(int64_t k, double s) {
  std::vector<double> cdf;
  cdf.reserve(static_cast<size_t>(k));
  long double c = 0;
  for (int64_t i = 0; i < k; ++i) cdf.push_back(static_cast<double>(c += std::pow(i + 1.0, -s)));
  return cdf;
}

std::vector<int64_t> ItemTally::top_items(size_t limit) const {
  std::vector<int64_t> items(true_counts.size());
  for (size_t i = 0; i < items.size(); ++i) items[i] = static_cast<int64_t>(i);
  limit = std::min(limit, items.size());
  std::partial_sort(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(limit), items.end(),
                    [this](int64_t a, int64_t b) {
                      int64_t ca = true_counts[static_cast<size_t>(a)];
                      int64_t cb = true_counts[static_cast<size_t>(b)];
                      return ca != cb ? ca > cb : a < b;
                    });
  items.resize(limit);
  return items;
}

void write_truth_file(const std::string& path, const std::vector<std::string>& items, const ItemTally& truth) {
  std::ofstream out(path);
  if (!out) throw UsageError("cannot write the truth to " + path + ": " + std::strerror(errno));
  out << "item\tcount\n";
  for (int64_t i : truth.top_items(items.size())) {
    const int64_t c = truth.true_counts[static_cast<size_t>(i)];
    if (c == 0) break;
    out << items[static_cast<size_t>(i)] << '\t' << c << '\n';
  }
  out.close();
  if (!out) throw UsageError("error writing the truth to " + path);
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

// ---------------------------------------------------------------------------
// Printing

void print_load_lines(const std::optional<uint64_t>& seed, const std::string& table, const ItemTally& t) {
  print_seed_and_table(seed, table);
  std::printf("reports=%" PRId64 "\n", t.reports);
  int64_t distinct = 0;
  for (int64_t c : t.true_counts) distinct += c > 0;
  std::printf("distinct_items=%" PRId64 "\n", distinct);
}

double max_abs_error(const ItemTally& t, const std::vector<ItemEstimate>& est) {
  double worst = 0;
  for (size_t v = 0; v < est.size(); ++v)
    worst = std::fmax(worst, std::fabs(est[v].frequency - t.true_frequency(static_cast<int64_t>(v))));
  return worst;
}

std::string item_list(const std::vector<int64_t>& items) {
  std::string list;
  for (int64_t i : items) list += (list.empty() ? "" : ",") + std::to_string(i);
  return list;
}

void print_top_items(const std::vector<int64_t>& top, const std::vector<std::string>& words, const ItemTally& t,
                     const std::vector<ItemEstimate>& est) {
  std::printf("top_items=%s\n", item_list(top).c_str());
  for (int64_t item : top) {
    const auto v = static_cast<size_t>(item);
    if (v < words.size()) std::printf("item.%" PRId64 ".word=%s\n", item, words[v].c_str());
    std::printf("item.%" PRId64 ".true_count=%" PRId64 "\n", item, t.true_counts[v]);
    std::printf("item.%" PRId64 ".true_frequency=%s\n", item, num(t.true_frequency(item)).c_str());
    if (!est.empty()) {
      std::printf("item.%" PRId64 ".local_frequency=%s\n", item, num(est[v].frequency).c_str());
      std::printf("item.%" PRId64 ".local_std_error=%s\n", item, num(est[v].std_error).c_str());
    }
  }
}

}  // namespace ldp::tools
