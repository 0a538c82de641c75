// Apple's SFP, sequence fragment puzzle, as pure-LDP implements it
// (docs/algorithms/heavy-hitters.md#sfp-sequence-fragment-puzzle), with HCMS oracles so
// that the summary stays fixed in size.
//
// Device: the item v (padded with '*' to L = max_length, hashed unpadded: heavy_protocol.hpp),
// its 8-bit hash h(v) = XXH64(v, kSfpHashSeed) mod 256, a position p uniform in [0, P),
// P = ceil(L/s), and the fragment v[p·s : (p+1)·s] (fewer characters at a last partial
// position: s need not divide L, unlike pure-LDP). Two HCMS reports at ε/2 each, with
// their own (j, l): one on the byte h(v) followed by the fragment's bytes (pure-LDP's
// str(h) + "_" + fragment), one on v. The row carries the position as pure-LDP's l = p·s.
//
// Decoder (heavy_hitters):
//   1. At each position, every (h, fragment) is estimated (256·|Σ|^s of them; the
//      fragment oracle's estimates scaled by P, pure-LDP's missing scaling) and kept
//      when f̂_p >= τ_frag = min(τ, max(τ - 2σ_frag, z_r·σ_frag)), z_r = Φ⁻¹(1 - r/|Σ|^s)
//      with r = noise_children (ours): about r noise fragments per hash value and
//      position, so that the Cartesian products stay near 256·r^P plus the true ones.
//      At the string default (τ/σ_frag = 4.00, r = 8, |Σ|^s = 729) τ_frag = 2.29σ_frag =
//      8.59√n: a word at τ passes one position with probability Φ(1.71) = 0.956, all
//      three with 0.87; a word at τ + 3σ_frag (the recall bound), with
//      Φ(4.71)³ ≈ 1.
//   2. For each hash value with kept fragments at every position, the Cartesian product
//      of its fragments, refused (InvalidParameter) past kMaxHeavyCandidates words. A
//      word is dropped unless it is one an item can be (pads only at its end; the bytes
//      domain: valid UTF-8) and its own 8-bit hash is the hash value (ours: a reported
//      item's fragments carry its own hash, so any other word is noise; this drops
//      255/256 of the products before the word oracle).
//   3. The remaining words with f̂ >= τ from the word oracle are returned, with σ_word.
#include <xxhash.h>

#include <cinttypes>
#include <cmath>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/heavy/heavy_internal.hpp"
#include "core/heavy/heavy_summary.hpp"
#include "core/oracles/hcms_oracle.hpp"

namespace ldp {

namespace {

uint8_t word_hash(std::string_view v) { return static_cast<uint8_t>(XXH64(v.data(), v.size(), kSfpHashSeed)); }

// The fragment oracle's item: the hash byte, then the fragment's bytes.
std::string fragment_key(uint8_t h, std::string_view fragment) {
  std::string key(1, static_cast<char>(h));
  key += fragment;
  return key;
}

std::string_view fragment_of(const HeavyItem& item, int64_t position) {  // 0-based
  const auto from = static_cast<size_t>(item.prefix_end[position]);
  return std::string_view(item.bytes).substr(from, static_cast<size_t>(item.prefix_end[position + 1]) - from);
}

SfpReport encode(const HeavyProtocol& p, const HeavyItem& item, RandomSource& rng) {
  const auto position = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.levels)));
  const std::string key = fragment_key(word_hash(item.bytes), fragment_of(item, position));
  const double flip = 1.0 / (1.0 + std::exp(p.epsilon / 2));
  SfpReport r;
  r.position = position * p.chars_per_level;
  r.hash_index = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.hashes)));
  r.coefficient = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.width)));
  r.fragment_report = hcms_entry(key, r.hash_index, r.coefficient, p.width) != rng.bernoulli(flip);
  r.word_hash_index = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.hashes)));
  r.word_coefficient = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.width)));
  r.word_report = hcms_entry(item.bytes, r.word_hash_index, r.word_coefficient, p.width) != rng.bernoulli(flip);
  return r;
}

double sigma_fragment(const HeavySummary& s) {
  return heavy_c(s.protocol.epsilon / 2) * std::sqrt(static_cast<double>(s.protocol.levels) * static_cast<double>(s.n));
}
double sigma_word(const HeavySummary& s) {
  return heavy_c(s.protocol.epsilon / 2) * std::sqrt(static_cast<double>(s.n));
}

// Position p's fragment oracle: HCMS at ε/2 over about n/P reports, scaled by P.
HeavyHcms fragment_oracle(const HeavySummary& s, const int64_t* table, int64_t position) {
  const double positions = static_cast<double>(s.protocol.levels);
  return HeavyHcms(s, table, position, s.protocol.epsilon / 2, static_cast<double>(s.n) / positions, positions);
}
HeavyHcms word_oracle(const HeavySummary& s, const int64_t* table) {
  return HeavyHcms(s, table, s.protocol.levels, s.protocol.epsilon / 2, static_cast<double>(s.n), 1);
}

HeavyEstimate frequency(const HeavySummary& s, const int64_t* table, const HeavyItem& it) {
  return {word_oracle(s, table).estimate(it.bytes), sigma_word(s)};
}

HeavyEstimate level_frequency(const HeavySummary& s, const int64_t* table, const HeavyItem& it, int64_t level) {
  const std::string key = fragment_key(word_hash(it.bytes), fragment_of(it, level - 1));
  return {fragment_oracle(s, table, level - 1).estimate(key), sigma_fragment(s)};
}

// The Cartesian product of one hash value's kept fragments, position by position.
struct Puzzle {
  const HeavyProtocol& p;
  const std::vector<std::vector<const HeavyNode*>>& kept;  // [position]
  uint8_t hash;
  double threshold;
  HeavyHcms& oracle;
  InterruptPoll& poll;
  int64_t made = 0;
  std::vector<HeavyHitter>& items;

  void solve(int64_t position, std::string& word, bool closed) {
    if (position == p.levels) {
      poll.tick();
      if (p.dom() == HeavyDomain::Bytes && utf8_prefix_state(word) != 0) return;
      ++made;
      if (word_hash(word) != hash) return;
      poll.tick(p.hashes);
      const double f = oracle.estimate(word);
      if (f < threshold) return;
      HeavyHitter h{};
      h.item = word;
      h.count = f;
      items.push_back(std::move(h));
      return;
    }
    const size_t base = word.size();
    for (const HeavyNode* frag : kept[static_cast<size_t>(position)]) {
      if (closed && frag->chars != 0) continue;  // after a pad (end) only pads (ends)
      word.resize(base);
      word += frag->bytes;
      if (p.dom() == HeavyDomain::Bytes && utf8_prefix_state(word) < 0) continue;
      solve(position + 1, word, closed || frag->closed);
    }
    word.resize(base);
  }
};

void decode(const HeavySummary& s, const int64_t* table, const HeavyHittersQuery& q, DecodeBudget& budget,
            HeavyHitters* out) {
  const HeavyProtocol& p = s.protocol;
  const HeavyExtender extender(p);
  const int64_t positions = p.levels;
  const double keep_at = heavy_prune_threshold(out->threshold, out->sigma_prune, q.noise_children,
                                               extender.fanout(p.chars_per_level), 0, static_cast<double>(s.n), false);
  // Every position's fragments are known from the protocol: 256·(fragments) queries of t
  // rows each, and at most that many kept (a pointer each), planned before the first.
  double queries = 0, fragment_bytes = 0;
  for (int64_t pos = 0; pos < positions; ++pos) {
    const int64_t room = std::min(p.chars_per_level, p.max_length - pos * p.chars_per_level);
    const double frags = extender.fragments(room);
    heavy_check_candidates(p, 256.0 * frags, pos + 1, out->threshold);
    queries += 256.0 * frags;
    fragment_bytes += frags * heavy_node_bytes(p, room) + 256.0 * frags * sizeof(const HeavyNode*);
  }
  budget.hold(fragment_bytes, "sfp's fragments (%.0f at %" PRId64 " positions)", queries, positions);
  budget.plan(queries * static_cast<double>(p.hashes), "sfp's fragments (%.0f at %" PRId64 " positions × %" PRId64
              " sketch rows)", queries, positions, p.hashes);
  InterruptPoll poll;
  // fragments[p]: every fragment of position p; kept[h][p]: those kept with hash value h.
  std::vector<std::vector<HeavyNode>> fragments(static_cast<size_t>(positions));
  std::vector<std::vector<std::vector<const HeavyNode*>>> kept(
      256, std::vector<std::vector<const HeavyNode*>>(static_cast<size_t>(positions)));
  for (int64_t pos = 0; pos < positions; ++pos) {
    const int64_t room = std::min(p.chars_per_level, p.max_length - pos * p.chars_per_level);
    std::vector<HeavyNode>& frags = fragments[static_cast<size_t>(pos)];
    extender.extend(HeavyNode{std::string(), 0, false}, room, room, false, frags);
    if (static_cast<double>(frags.size()) != extender.fragments(room))
      throw_error(ErrorKind::Internal, "sfp: %zu fragments at position %" PRId64 ", %.0f planned", frags.size(), pos,
                  extender.fragments(room));
    HeavyHcms oracle = fragment_oracle(s, table, pos);
    int64_t survivors = 0;
    std::string key;
    for (int h = 0; h < 256; ++h)
      for (const HeavyNode& frag : frags) {
        poll.tick(p.hashes);
        key.assign(1, static_cast<char>(h));
        key += frag.bytes;
        if (oracle.estimate(key) < keep_at) continue;
        kept[static_cast<size_t>(h)][static_cast<size_t>(pos)].push_back(&frag);
        ++survivors;
      }
    out->prune_thresholds.push_back(keep_at);
    out->candidates.push_back(256 * static_cast<int64_t>(frags.size()));
    out->survivors.push_back(survivors);
  }
  double products = 0;
  for (const auto& by_position : kept) {
    double product = 1;
    for (const auto& frags : by_position) product *= static_cast<double>(frags.size());
    products += product;
  }
  heavy_check_candidates(p, products, positions + 1, out->threshold);
  // Each word is hashed; one in 256 (its own hash value) is read on the word oracle's t rows.
  budget.plan(products * (1 + static_cast<double>(p.hashes) / 256),
              "sfp's %.0f words of the fragments' products (and their word-oracle queries)", products);
  HeavyHcms oracle = word_oracle(s, table);
  int64_t made = 0;
  std::string word;
  for (int h = 0; h < 256; ++h) {
    Puzzle puzzle{p, kept[static_cast<size_t>(h)], static_cast<uint8_t>(h), out->threshold, oracle, poll, 0, out->items};
    word.clear();
    puzzle.solve(0, word, false);
    made += puzzle.made;
  }
  out->candidates.push_back(made);
  out->survivors.push_back(static_cast<int64_t>(out->items.size()));
}

// Its own check (validate_heavy_protocol): 256·|Σ| fragments queried at each position
// (|Σ| < 2^16 here: no overflow).
void validate(const HeavyProtocol&, int64_t symbols) {
  if (256 * symbols > kMaxHeavyCandidates)
    throw_error(ErrorKind::InvalidParameter,
                "sfp queries 256 * (symbols per fragment) fragments at each position, at most %" PRId64
                ": got 256 * %" PRId64 " (fewer chars_per_level)",
                kMaxHeavyCandidates, symbols);
}

}  // namespace

SfpReport sfp_encode(const HeavyProtocol& p, std::string_view item, RandomSource& rng) {
  return heavy_encode_item(p, HeavyMechanism::SFP, item, rng, encode);
}
SfpReport sfp_encode_int(const HeavyProtocol& p, int64_t item, RandomSource& rng) {
  return heavy_encode_item(p, HeavyMechanism::SFP, item, rng, encode);
}

extern const HeavyMechanismImpl kSfpImpl = {
    HeavyMechanism::SFP,
    "sfp",
    /*extra_sketches=*/1,
    {"fragments", "word"},
    /*default_chars_per_level=*/2,  // P = 3 positions of 2 characters for 6: 256·27² fragments a position
    /*default_hashes=*/64,
    /*default_width=*/4096,
    {15, 30},
    sigma_fragment,
    sigma_word,
    frequency,
    level_frequency,
    decode,
    /*prepare=*/nullptr,
    {nullptr, nullptr},
    /*defaults=*/nullptr,
    validate,
};

}  // namespace ldp
