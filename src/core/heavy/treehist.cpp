// TreeHist (Bassily et al. 2017 §3; docs/algorithms/heavy-hitters.md#treehist): the device
// encoder, the oracles' estimates, and the decoder that walks the prefix tree.
//
// Device: public randomness (ℓ, j, r) uniform over [1..D]×[0,t)×[0,m), drawn from the
// device's generator and sent with the report. Two count-sketch bits at ε/2 each with the same
// (j, r): y_P on the prefix v[1:ℓ·s] (its bytes, unpadded) and y_F on the whole item v.
// Each is x = g_j(u)·H[r][h_j(u)], kept with probability e^{ε/2}/(1+e^{ε/2}), else
// negated (oracles/count_sketch.hpp: the hashtogram sketch's oracle and hashes).
//
// Decoder (heavy_hitters): C_1 = Σ; at levels ℓ = 1..D-1 keep the candidates with
// f̂_ℓ(u) >= τ_P = min(τ, max(τ - 2σ_P, z_r·σ_P)), z_r = Φ⁻¹(1 - r/|Σ|) (r =
// kTreeHistNoiseChildren), and set C_{ℓ+1} = survivors × Σ. Every candidate that is an
// item by itself (u followed by pads or the end symbol; alphabet and bytes domains) is
// asked of the final oracle at the level where its last character is placed, whether
// or not it survives the cut (ours, 2026-11-26): a word of ℓ·s characters or fewer never
// meets its own prefix cut (its level-ℓ prefix is itself: "she" at level 2 was pruned
// at τ_P = τ - 0.9σ_P with probability up to 0.2 for a word at τ), and candidates ending
// with a pad are not kept (their only child is themselves). The level-D candidates go
// straight to the final oracle; the items with f̂(v) >= τ are returned, by f̂
// descending, trailing pad removed. Default τ
// from the summary's own n: 15√n for the alphabet domain (the string default, D = 3,
// τ/σ_P = 3.19 at ε = 2), 30√n for int64 (D = 8, 3.91) and for the bytes domain
// (ours: D = 6 levels of 256 symbols is a tree like the integers'; at 15√n its τ/σ_P
// would be 2.26, with τ_P = z_8·σ_P only 0.4σ_P below τ).
// Candidates that no item can produce are never queried: in the alphabet domain a pad
// is followed only by pads (a symbol "*a" or a child of "ab*" other than the pad), in the
// bytes domain a prefix must begin valid UTF-8 and the end symbol follows only a whole
// character and only end symbols follow it. Threshold tests use median_at_least (one
// pass, no selection); only the returned items pay for their median.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/select.hpp"
#include "core/common/stats.hpp"
#include "core/heavy/heavy_internal.hpp"
#include "core/heavy/heavy_summary.hpp"
#include "core/oracles/count_sketch.hpp"

namespace ldp {

namespace {

double c_half(const HeavyProtocol& p) { return 1.0 / std::tanh(p.epsilon / 4); }  // c(ε/2)

HeavyReport encode(const HeavyProtocol& p, const HeavyItem& item, RandomSource& rng) {
  const auto level = 1 + static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.levels)));
  const auto j = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.hashes)));
  const auto r = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.width)));
  const bool x_prefix = count_sketch_entry(item.prefix(level), j, r, p.width);
  const bool x_item = count_sketch_entry(item.bytes, j, r, p.width);
  const double flip = 1.0 / (1.0 + std::exp(p.epsilon / 2));
  const bool flip_prefix = rng.bernoulli(flip);
  const bool flip_item = rng.bernoulli(flip);
  return {level, j, r, x_prefix != flip_prefix, x_item != flip_item};
}

// A level's prefix oracle (scaled by D·t·c(ε/2)), or the final one (level D + 1, t·c(ε/2)).
HeavyCountSketch oracle_of(const HeavySummary& s, const int64_t* table, int64_t level) {
  const HeavyProtocol& p = s.protocol;
  return HeavyCountSketch(s, table, level - 1,
                          static_cast<double>(level <= p.levels ? p.levels * p.hashes : p.hashes) * c_half(p));
}

double sigma_prune(const HeavySummary& s) {
  return heavy_count_sketch_sigma(s, static_cast<double>(s.protocol.levels));
}
double sigma_final(const HeavySummary& s) { return heavy_count_sketch_sigma(s, 1); }

// A symbol's bytes, its characters before any pad, and whether it ends the item (pad).
struct Symbol {
  std::string bytes;
  int64_t chars;
  bool closes;
};

// The symbols of one level in the alphabet domain: those with pads only at the end (the
// others no item produces), the all-pad one last.
std::vector<Symbol> alphabet_symbols(const HeavyProtocol& p) {
  const std::vector<std::string> chars = heavy_alphabet_chars(p);
  std::vector<Symbol> out;
  // Symbols as (k characters, then s - k pads), k = s down to 0: all characters^k.
  for (int64_t k = p.chars_per_level; k >= 0; --k) {
    std::vector<size_t> digit(static_cast<size_t>(k), 0);
    while (true) {
      Symbol sym{std::string(), k, k < p.chars_per_level};
      for (size_t d : digit) sym.bytes += chars[d];
      out.push_back(std::move(sym));
      int64_t i = k - 1;
      for (; i >= 0; --i) {
        if (++digit[static_cast<size_t>(i)] < chars.size()) break;
        digit[static_cast<size_t>(i)] = 0;
      }
      if (i < 0) break;
    }
  }
  return out;
}

// Calls f(child bytes, closed) for every child at `level` of `parent` (a prefix of
// whole symbols, none of them a pad or the end) that an item can produce (the alphabet
// domain: no more than max_length characters; the bytes domain: whole characters at the
// last level); closed: the child ends with a pad or the end symbol, or is full.
template <class F>
void for_each_child(const HeavyProtocol& p, const std::vector<Symbol>& symbols, const std::string& parent,
                    int64_t level, std::string& buf, F&& f) {
  const bool last = level == p.levels;
  buf = parent;
  const size_t base = buf.size();
  switch (p.dom()) {
    case HeavyDomain::Alphabet: {
      const int64_t room = p.max_length - (level - 1) * p.chars_per_level;  // characters left
      for (const Symbol& sym : symbols) {
        if (sym.chars > room) continue;
        buf.resize(base);
        buf += sym.bytes;
        f(std::string_view(buf), sym.closes || sym.chars == room);
      }
      return;
    }
    case HeavyDomain::Bytes:
      if (utf8_prefix_state(parent) == 0) f(std::string_view(parent), true);  // the end symbol
      buf.resize(base + 1);
      for (int b = 0; b < 256; ++b) {
        if (b == kHeavyEnd || b == 0) continue;  // U+0000 is no item (heavy_item_from_text)
        buf[base] = static_cast<char>(b);
        const int state = utf8_prefix_state(buf);
        if (state < 0 || (last && state > 0)) continue;
        f(std::string_view(buf), false);
      }
      return;
    case HeavyDomain::Int64:
      buf.resize(base + 1);
      for (int b = 0; b < 256; ++b) {
        buf[base] = static_cast<char>(b);
        f(std::string_view(buf), false);
      }
      return;
  }
}

// Whether a prefix of whole symbols is an item by itself, followed by pads (alphabet) or
// the end symbol (bytes: whole UTF-8 characters); an int64 item has all its levels.
bool can_end(const HeavyProtocol& p, std::string_view prefix) {
  switch (p.dom()) {
    case HeavyDomain::Alphabet: return true;
    case HeavyDomain::Bytes: return utf8_prefix_state(prefix) == 0;
    case HeavyDomain::Int64: return false;
  }
  return false;
}

}  // namespace

HeavyReport treehist_encode(const HeavyProtocol& p, std::string_view item, RandomSource& rng) {
  return heavy_encode_item(p, HeavyMechanism::TreeHist, item, rng, encode);
}
HeavyReport treehist_encode_int(const HeavyProtocol& p, int64_t item, RandomSource& rng) {
  return heavy_encode_item(p, HeavyMechanism::TreeHist, item, rng, encode);
}

namespace {

HeavyEstimate frequency(const HeavySummary& s, const int64_t* table, const HeavyItem& it) {
  return {oracle_of(s, table, s.protocol.levels + 1).estimate(it.bytes), sigma_final(s)};
}

HeavyEstimate level_frequency(const HeavySummary& s, const int64_t* table, const HeavyItem& it, int64_t level) {
  return {oracle_of(s, table, level).estimate(it.prefix(level)), sigma_prune(s)};
}

// Refuses a level that would query more than kMaxHeavyCandidates prefixes, `parents`
// survivors of the level before × |Σ|.
[[noreturn]] void throw_too_many(const HeavyProtocol& p, int64_t level, size_t parents, int64_t sigma,
                                 double threshold) {
  throw_error(ErrorKind::InvalidParameter,
              "%s would query %" PRId64 " prefixes at level %" PRId64 " (%zu survivors × %" PRId64
              " symbols), more than %" PRId64 ": raise the threshold (%g)",
              heavy_mechanism_name(p.mech()), static_cast<int64_t>(parents) * sigma, level, parents, sigma,
              kMaxHeavyCandidates, threshold);
}
// The same, found while the level before still runs (its survivors are already too
// many: the walk stops there, without querying the rest of that level).
[[noreturn]] void throw_too_many_survivors(const HeavyProtocol& p, int64_t level, size_t max_parents, int64_t sigma,
                                           double threshold) {
  throw_error(ErrorKind::InvalidParameter,
              "%s would query more than %" PRId64 " prefixes at level %" PRId64 " (more than %zu survivors of level %"
              PRId64 " × %" PRId64 " symbols): raise the threshold (%g)",
              heavy_mechanism_name(p.mech()), kMaxHeavyCandidates, level, max_parents, level - 1, sigma, threshold);
}

void decode(const HeavySummary& s, const int64_t* table, const HeavyHittersQuery& q, DecodeBudget& budget,
            HeavyHitters* result) {
  const HeavyProtocol& p = s.protocol;
  const double n = static_cast<double>(s.n);
  HeavyHitters& out = *result;
  const int64_t sigma = heavy_symbols(p);
  const auto max_parents = static_cast<size_t>(kMaxHeavyCandidates / sigma);

  const std::vector<Symbol> symbols = p.dom() == HeavyDomain::Alphabet ? alphabet_symbols(p) : std::vector<Symbol>();
  std::vector<std::string> parents{std::string()}, next;  // the survivors: prefixes that are not closed
  std::string buf;
  HeavyCountSketch final = oracle_of(s, table, p.levels + 1);
  InterruptPoll poll;
  for (int64_t level = 1; level <= p.levels; ++level) {
    const bool last = level == p.levels;
    if (parents.size() > max_parents) throw_too_many(p, level, parents.size(), sigma, out.threshold);
    HeavyCountSketch oracle = oracle_of(s, table, level);
    double prune_at = out.threshold;
    // The level's queries (at the last level at most survivors × |Σ|), each reading the
    // level's sketch and, for a child that can end an item, the final one: t rows each.
    auto queries = static_cast<double>(parents.size()) * static_cast<double>(sigma);
    if (!last) {  // τ_P (heavy_summary.hpp, kTreeHistNoiseChildren)
      int64_t count = 0;
      for (const std::string& parent : parents)
        for_each_child(p, symbols, parent, level, buf, [&](std::string_view, bool) {
          ++count;
          poll.tick();
        });
      prune_at = heavy_prune_threshold(out.threshold, out.sigma_prune, q.noise_children, static_cast<double>(sigma),
                                       count, n, true);
      out.prune_thresholds.push_back(prune_at);
      queries = static_cast<double>(count);
    }
    const int64_t rows = p.hashes * (last || p.dom() == HeavyDomain::Int64 ? 1 : 2);
    budget.plan(queries * static_cast<double>(rows), "treehist level %" PRId64 " (%.0f prefixes × %" PRId64
                " sketch rows)", level, queries, rows);
    int64_t queried = 0;
    next.clear();
    for (const std::string& parent : parents)
      for_each_child(p, symbols, parent, level, buf, [&](std::string_view child, bool closed) {
        ++queried;
        poll.tick(rows);
        // The child as a whole item, unless it only ends its parent (the pad or end
        // symbol: the same bytes, tested at the level before).
        if ((level == 1 || child.size() > parent.size()) && (last || can_end(p, child))) {
          double* rows = final.rows(child);
          if (median_at_least(rows, final.t(), out.threshold)) {
            HeavyHitter h{};
            h.item = std::string(child);
            h.count = median_of(rows, final.t());
            out.items.push_back(std::move(h));
          }
        }
        if (!last && !closed && oracle.at_least(child, prune_at)) {
          next.emplace_back(child);
          if (next.size() > max_parents) throw_too_many_survivors(p, level + 1, max_parents, sigma, out.threshold);
        }
      });
    out.candidates.push_back(queried);
    out.survivors.push_back(last ? static_cast<int64_t>(out.items.size()) : static_cast<int64_t>(next.size()));
    parents.swap(next);
  }
}

}  // namespace

extern const HeavyMechanismImpl kTreeHistImpl = {
    HeavyMechanism::TreeHist,      "treehist",
    /*extra_sketches=*/1,          {"prune", "final"},
    /*default_chars_per_level=*/2,
    /*default_hashes=*/0,  // n0/(2000·levels), heavy_protocol.cpp
    /*default_width=*/1024,        {15, 30},           sigma_prune, sigma_final, frequency, level_frequency, decode,
    /*prepare=*/nullptr,
    {nullptr, nullptr},
    /*defaults=*/nullptr,  // the shared rule: hashes n0/(2000·levels), heavy_protocol.cpp
    /*validate=*/nullptr,
};

}  // namespace ldp
