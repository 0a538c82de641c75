#include "tools/heavy/heavy_population.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "core/common/error.hpp"

namespace ldp::tools {

// ---------------------------------------------------------------------------
// The protocol and the population

HeavyLoadSpec heavy_words_spec(HeavyMechanism m, const std::string& path, int64_t users, uint64_t seed) {
  HeavyLoadSpec s;
  s.mechanism = m;
  s.epsilon = 2;
  s.users = users;
  s.words_path = path;
  s.seed = seed;
  return s;
}

bool parse_heavy_mechanism(const std::string& name, HeavyMechanism* out) {
  for (HeavyMechanism m :
       {HeavyMechanism::TreeHist, HeavyMechanism::Bitstogram, HeavyMechanism::PEM, HeavyMechanism::SFP})
    if (name == heavy_mechanism_name(m)) {
      *out = m;
      return true;
    }
  return false;
}

namespace {

// The protocol of the spec (UsageError naming the options when the core refuses it).
HeavyProtocol heavy_load_protocol(const HeavyLoadSpec& s) {
  HeavyProtocolSpec p;
  p.mechanism = s.mechanism;
  p.start_length = s.start_length;
  p.epsilon = s.epsilon;
  p.expected_users = s.expected_users > 0 ? s.expected_users : s.users;
  if (s.integers()) {
    p.domain = HeavyDomain::Int64;
  } else if (s.bytes_domain) {
    p.domain = HeavyDomain::Bytes;
  } else {
    p.domain = HeavyDomain::Alphabet;
    p.alphabet = s.alphabet;
  }
  p.max_length = s.max_length;
  p.chars_per_level = s.chars_per_level;
  p.hashes = s.hashes;
  p.width = s.width;
  try {
    return heavy_protocol_build(p);
  } catch (const ldp::Error& e) {
    throw UsageError(std::string("invalid ") + heavy_mechanism_name(s.mechanism) + " protocol: " + e.what() +
                     " (--epsilon, --users/--expected-users, --alphabet, --max-length, --chars-per-level, "
                     "--hashes, --width" + (s.mechanism == HeavyMechanism::PEM ? ", --start-length)" : ")"));
  }
}

}  // namespace

HeavyProtocol validate_spec(const HeavyLoadSpec& s) {
  if (s.users < 1) throw UsageError("--users must be at least 1");
  if (static_cast<double>(s.users) > 9e15) throw UsageError("--users is too large");
  if (s.expected_users < 0) throw UsageError("--expected-users must be at least 1");
  if (s.first_user_id < 0 || s.first_user_id > INT64_MAX - s.users)
    throw UsageError("--first-user-id must be >= 0 and leave room for every user id");
  if (s.integers()) {
    if (!(s.zipf_s > 0) || !std::isfinite(s.zipf_s))
      throw UsageError(std::string(heavy_mechanism_name(s.mechanism)) +
                       " draws words (--words FILE) or Zipf integer ids (--distribution zipf:S with --k K, S > 0)");
    if (s.k < 1 || s.k > (int64_t{1} << 22)) throw UsageError("--k (the Zipf ranks) must be in [1, 4194304]");
    if (!s.alphabet.empty() || s.bytes_domain || s.max_length != 0 || s.chars_per_level != 0 || s.lowercase)
      throw UsageError("--alphabet, --bytes, --max-length, --chars-per-level and --lowercase apply to words, not to "
                       "integer ids (8 bytes, one per level)");
  } else {
    if (s.bytes_domain && !s.alphabet.empty()) throw UsageError("give either --alphabet or --bytes, not both");
    if (s.bytes_domain && s.chars_per_level > 1)
      throw UsageError("with --bytes a level is one byte: --chars-per-level must be 1");
    if (s.k != 0) throw UsageError("--k applies to Zipf integer ids, not to words");
  }
  if (s.start_length >= 0 && s.mechanism != HeavyMechanism::PEM)
    throw UsageError("--start-length applies to pem only");
  return heavy_load_protocol(s);
}

namespace {

// Why the protocol cannot encode a word ("" when it can).
std::string refusal(const HeavyProtocol& p, const std::string& word, HeavyItem* item) {
  try {
    heavy_item_from_text(p, word, item);
    return "";
  } catch (const ldp::Error& e) {
    return e.what();
  }
}

}  // namespace

HeavyWords read_heavy_words(const HeavyLoadSpec& spec, const HeavyProtocol& p) {
  std::vector<WordCount> all = read_word_counts(spec.words_path);
  HeavyWords out;
  out.in_file = static_cast<int64_t>(all.size());
  std::unordered_map<std::string, size_t> at;  // word -> index in out.words
  std::unordered_set<std::string> seen;        // the file's words, to refuse repeats
  at.reserve(all.size());
  seen.reserve(all.size());
  long double total = 0, skipped = 0;
  HeavyItem item;
  for (WordCount& w : all) {
    if (!seen.insert(w.word).second)
      throw UsageError(spec.words_path + ": the word '" + w.word.substr(0, 60) +
                       "' is listed twice (a word's count must be on one line)");
    total += w.count;
    std::string word = w.word;
    if (spec.lowercase)
      for (char& c : word)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    const std::string why = refusal(p, word, &item);
    if (!why.empty()) {
      ++out.skipped;
      skipped += w.count;
      if (out.skipped_examples.size() < 3) out.skipped_examples.push_back("'" + w.word.substr(0, 40) + "': " + why);
      continue;
    }
    auto found = at.find(word);
    if (found != at.end()) {  // lowercase: "The" adds to "the"
      out.counts[found->second] += w.count;
      ++out.folded;
      continue;
    }
    at.emplace(word, out.words.size());
    out.words.push_back(std::move(word));
    out.counts.push_back(w.count);
  }
  out.skipped_share = total > 0 ? static_cast<double>(skipped / total) : 0;
  if (spec.lowercase) {  // folding may have changed the order
    std::vector<size_t> order(out.words.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return out.counts[a] > out.counts[b]; });
    HeavyWords sorted = out;
    for (size_t i = 0; i < order.size(); ++i) {
      sorted.words[i] = out.words[order[i]];
      sorted.counts[i] = out.counts[order[i]];
    }
    out = std::move(sorted);
  }
  long double kept = 0;
  for (int64_t c : out.counts) kept += c;
  if (out.words.empty() || kept <= 0)
    throw UsageError(spec.words_path + ": the protocol can encode none of its words with a count above 0 (" +
                     std::to_string(out.skipped) + " skipped" +
                     (out.skipped_examples.empty() ? std::string() : ", e.g. " + out.skipped_examples[0]) + ")");
  return out;
}

int64_t heavy_zipf_id(const HeavyLoadSpec& spec, int64_t rank) {
  return spec.scrambled_ids ? static_cast<int64_t>(SeededRandom::mix(static_cast<uint64_t>(rank))) : rank + 1;
}

// ---------------------------------------------------------------------------
// Local decoding

LocalHeavy::LocalHeavy(const HeavyProtocol& p) : LocalState(heavy_summary_size(p)) { heavy_summary_init(get(), p); }

std::string LocalHeavy::text() const { return core_text(**this, heavy_summary_text_size, heavy_summary_to_text); }

HeavyHitters LocalHeavy::hitters(const HeavyHittersQuery& q) const {
  std::vector<int64_t> table(static_cast<size_t>((*this)->cells()));
  heavy_prepare(**this, table.data());
  return heavy_hitters(**this, table.data(), q);
}

std::vector<HeavyEstimate> LocalHeavy::frequencies(const std::vector<std::string>& items) const {
  std::vector<int64_t> table(static_cast<size_t>((*this)->cells()));
  heavy_prepare(**this, table.data());
  std::vector<HeavyEstimate> out;
  out.reserve(items.size());
  const bool ints = (*this)->protocol.dom() == HeavyDomain::Int64;
  for (const std::string& v : items)
    out.push_back(ints ? heavy_frequency_int(**this, table.data(), std::stoll(v))
                       : heavy_frequency(**this, table.data(), v));
  return out;
}

HeavyQuality heavy_quality(const HeavyLoadResult& r, const HeavyHitters& h) {
  HeavyQuality q;
  std::unordered_map<std::string, int64_t> truth;
  truth.reserve(r.items.size());
  for (size_t i = 0; i < r.items.size(); ++i) {
    const int64_t c = r.truth.true_counts[i];
    truth.emplace(r.items[i], c);
    q.true_heavy += static_cast<double>(c) >= h.threshold;
  }
  for (const HeavyHitter& x : h.items) {
    auto f = truth.find(x.item);
    q.hits += f != truth.end() && static_cast<double>(f->second) >= h.threshold;
  }
  q.returned = static_cast<int64_t>(h.items.size());
  if (q.true_heavy > 0) q.recall = static_cast<double>(q.hits) / static_cast<double>(q.true_heavy);
  if (q.returned > 0) q.precision = static_cast<double>(q.hits) / static_cast<double>(q.returned);
  return q;
}

// ---------------------------------------------------------------------------
// Formatting and generation

namespace {

// "user_id\t1\ta\tb": every heavy row's first four fields (round 1, then the level,
// group, position or coordinate, then the row).
void append_row_start(std::string& out, int64_t user_id, int64_t a, int64_t b) {
  append_int_field(out, user_id);
  out.append("\t1\t", 3);
  append_int_field(out, a);
  out.push_back('\t');
  append_int_field(out, b);
}

// "user_id\t1\ta\tb\tc": with the coefficient (TreeHist, PEM, SFP).
void append_row_head(std::string& out, int64_t user_id, int64_t a, int64_t b, int64_t c) {
  append_row_start(out, user_id, a, b);
  out.push_back('\t');
  append_int_field(out, c);
}

}  // namespace

void append_treehist_row(std::string& out, int64_t user_id, const HeavyReport& r) {
  append_row_head(out, user_id, r.level, r.hash_index, r.coefficient);
  out.append(r.prefix_report ? "\tt" : "\tf", 2);
  out.append(r.item_report ? "\tt\n" : "\tf\n", 3);
}

namespace {

void append_pem_row(std::string& out, int64_t user_id, const PemReport& r) {
  append_row_head(out, user_id, r.group, r.hash_index, r.coefficient);
  out.append(r.report ? "\tt\n" : "\tf\n", 3);
}

void append_sfp_row(std::string& out, int64_t user_id, const SfpReport& r) {
  append_row_head(out, user_id, r.position, r.hash_index, r.coefficient);
  out.append(r.fragment_report ? "\tt\t" : "\tf\t", 3);
  append_int_field(out, r.word_hash_index);
  out.push_back('\t');
  append_int_field(out, r.word_coefficient);
  out.append(r.word_report ? "\tt\n" : "\tf\n", 3);
}

void append_bitstogram_row(std::string& out, int64_t user_id, const BitstogramReport& r) {
  append_row_start(out, user_id, r.coordinate, r.hadamard_row);
  out.append(r.symbol_report ? "\tt\t" : "\tf\t", 3);
  append_int_field(out, r.hash_index);
  out.push_back('\t');
  append_int_field(out, r.coefficient);
  out.append(r.item_report ? "\tt\n" : "\tf\n", 3);
}

// One device's report of a word or of an integer id by one mechanism's encoder: counted
// into local (when given) and, with rows, its COPY row appended.
template <class Item, class Report>
void encode_with(Report (*text)(const HeavyProtocol&, std::string_view, RandomSource&),
                 Report (*integer)(const HeavyProtocol&, int64_t, RandomSource&),
                 void (*add)(HeavySummary*, const Report&), void (*append)(std::string&, int64_t, const Report&),
                 const HeavyProtocol& p, const Item& item, RandomSource& rng, HeavySummary* local, std::string* rows,
                 int64_t user_id) {
  Report r;
  if constexpr (std::is_same_v<Item, int64_t>)
    r = integer(p, item, rng);
  else
    r = text(p, item, rng);
  if (local) add(local, r);
  if (rows) append(*rows, user_id, r);
}

// The same by the protocol's mechanism.
template <class Item>
void encode_heavy(const HeavyProtocol& p, const Item& item, RandomSource& rng, HeavySummary* local,
                  std::string* rows, int64_t user_id) {
  switch (p.mech()) {
    case HeavyMechanism::PEM:
      return encode_with(pem_encode, pem_encode_int, pem_add_report, append_pem_row, p, item, rng, local, rows,
                         user_id);
    case HeavyMechanism::Bitstogram:
      return encode_with(bitstogram_encode, bitstogram_encode_int, bitstogram_add_report, append_bitstogram_row, p,
                         item, rng, local, rows, user_id);
    case HeavyMechanism::SFP:
      return encode_with(sfp_encode, sfp_encode_int, sfp_add_report, append_sfp_row, p, item, rng, local, rows,
                         user_id);
    default:
      return encode_with(treehist_encode, treehist_encode_int, heavy_add_report, append_treehist_row, p, item, rng,
                         local, rows, user_id);
  }
}

}  // namespace

HeavyLoadResult generate_heavy_reports(const Validated<HeavyLoadSpec>& checked, const ChunkSink& sink,
                                       const ProgressFn& progress, size_t chunk_bytes) {
  const HeavyLoadSpec& spec = *checked;
  HeavyLoadResult result;
  result.protocol = checked.protocol();
  const HeavyProtocol& p = result.protocol;

  // The items and their weights: encodable words by count, or Zipf ranks.
  std::vector<double> cdf;
  std::vector<int64_t> ids;  // zipf: the id of each rank
  if (!spec.integers()) {
    result.words = read_heavy_words(spec, p);
    result.items = result.words.words;
    long double c = 0;
    cdf.reserve(result.words.counts.size());
    for (int64_t n : result.words.counts) cdf.push_back(static_cast<double>(c += n));
  } else {
    cdf = zipf_cdf(spec.k, spec.zipf_s);
    ids.reserve(static_cast<size_t>(spec.k));
    result.items.reserve(static_cast<size_t>(spec.k));
    for (int64_t i = 0; i < spec.k; ++i) {
      ids.push_back(heavy_zipf_id(spec, i));
      result.items.push_back(std::to_string(ids.back()));
    }
  }
  result.truth.true_counts.assign(result.items.size(), 0);
  if (spec.local_decode) result.local.emplace(p);
  HeavySummary* local = result.local ? result.local->get() : nullptr;
  int64_t* truth = result.truth.true_counts.data();

  std::unique_ptr<RandomSource> pop_rng = make_random(spec.seed, 0);
  std::unique_ptr<RandomSource> enc_rng = make_random(spec.seed, 1);
  RandomSource& prng = *pop_rng;
  RandomSource& erng = *enc_rng;
  ChunkedRows out(sink, progress, chunk_bytes, 128);
  std::string* rows = sink ? &out.buf() : nullptr;  // no sink: nothing formatted
  for_each_device(spec.users, out, [&](int64_t u) -> int64_t {
    const size_t i = draw_cdf_index(cdf, prng);
    ++truth[i];
    if (spec.integers())
      encode_heavy(p, ids[i], erng, local, rows, spec.first_user_id + u);
    else
      encode_heavy(p, result.items[i], erng, local, rows, spec.first_user_id + u);
    return 1;
  });
  result.truth.reports = spec.users;
  return result;
}

std::vector<ReportColumn> heavy_report_columns(HeavyMechanism m) {
  if (m == HeavyMechanism::PEM)
    return {{"group_index", "integer"}, {"hash_index", "integer"}, {"coefficient", "integer"}, {"report", "boolean"}};
  if (m == HeavyMechanism::SFP)
    return {{"fragment_start", "integer"}, {"hash_index", "integer"},      {"coefficient", "integer"},
            {"fragment_report", "boolean"}, {"word_hash_index", "integer"}, {"word_coefficient", "integer"},
            {"word_report", "boolean"}};
  if (m == HeavyMechanism::Bitstogram)
    return {{"coordinate", "integer"}, {"hadamard_row", "integer"}, {"symbol_report", "boolean"},
            {"hash_index", "integer"}, {"coefficient", "integer"},  {"item_report", "boolean"}};
  return {{"level", "integer"},
          {"hash_index", "integer"},
          {"coefficient", "integer"},
          {"prefix_report", "boolean"},
          {"item_report", "boolean"}};
}

}  // namespace ldp::tools
