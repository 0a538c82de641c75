// PEM, prefix extending (Wang et al., as pure-LDP implements it;
// docs/algorithms/heavy-hitters.md#pem-prefix-extending), with HCMS oracles so that the
// summary stays fixed in size.
//
// Device: a group i uniform in [0, g), g = ceil((L - s0)/s); the item's prefix of
// s0 + (i+1)·s characters (the item padded with '*' to L and cut, hashed unpadded: the
// family's convention, heavy_protocol.hpp), reported by the HCMS device at the full ε (the
// groups are disjoint): (j, l) uniform, y = H[l][h_j(prefix)] kept with probability
// e^ε/(1+e^ε). A prefix longer than the item is the whole item: with s not dividing
// L - s0 the last group's prefixes are the items themselves (pure-LDP cuts them longer
// than its padded strings: a defect not copied).
//
// Decoder (heavy_hitters): group 0's candidates are every string of s0 + s symbols that
// an item can begin with (pads only at the end; the bytes domain: prefixes of valid
// UTF-8); each group's survivors are extended by every s symbols for the next group.
// Groups 0..g-2 keep the candidates with f̂_i(u) >= τ_P, the same rule as TreeHist's
// levels (heavy_summary.hpp, kTreeHistNoiseChildren) with |Σ|^s the children per
// survivor: τ_P = min(τ, max(τ - 2σ_PEM, z·σ_PEM)); at the string default (τ/σ_PEM = 8.08)
// τ_P = τ - 2σ_PEM = 6.08σ_PEM, so a prefix of an item at τ survives with probability
// Φ(2) = 0.977 and noise survivors are about 18,279·Q(6.08) ≈ 10^-5 a group (pruning
// by threshold, every survivor extended: pure-LDP's lazy filter, which extends only the
// first survivor from the third group on, is not copied). The last group's candidates
// with f̂ >= τ are returned, f̂ from the last group's oracle, standard error σ_PEM.
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

// Characters (bytes) of group i's prefixes.
int64_t group_length(const HeavyProtocol& p, int64_t group) {
  return std::min(p.max_length, p.start_length + (group + 1) * p.chars_per_level);
}

PemReport encode(const HeavyProtocol& p, const HeavyItem& item, RandomSource& rng) {
  const auto group = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.levels)));
  const auto j = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.hashes)));
  const auto l = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.width)));
  const bool x = hcms_entry(item.prefix(group + 1), j, l, p.width);
  const bool flip = rng.bernoulli(1.0 / (1.0 + std::exp(p.epsilon)));
  return {group, j, l, x != flip};
}

double sigma(const HeavySummary& s) {
  return heavy_c(s.protocol.epsilon) * std::sqrt(static_cast<double>(s.protocol.levels) * static_cast<double>(s.n));
}

// Group i's oracle: HCMS at ε over about n/g reports, scaled by g.
HeavyHcms group_oracle(const HeavySummary& s, const int64_t* table, int64_t group) {
  const double g = static_cast<double>(s.protocol.levels);
  return HeavyHcms(s, table, group, s.protocol.epsilon, static_cast<double>(s.n) / g, g);
}

HeavyEstimate frequency(const HeavySummary& s, const int64_t* table, const HeavyItem& it) {
  return {group_oracle(s, table, s.protocol.levels - 1).estimate(it.bytes), sigma(s)};
}

HeavyEstimate level_frequency(const HeavySummary& s, const int64_t* table, const HeavyItem& it, int64_t level) {
  return {group_oracle(s, table, level - 1).estimate(it.prefix(level)), sigma(s)};
}

void decode(const HeavySummary& s, const int64_t* table, const HeavyHittersQuery& q, DecodeBudget& budget,
            HeavyHitters* out) {
  const HeavyProtocol& p = s.protocol;
  const HeavyExtender extender(p);
  const bool utf8 = p.dom() == HeavyDomain::Bytes;
  std::vector<HeavyNode> parents{HeavyNode{std::string(), 0, false}}, candidates;
  InterruptPoll poll;
  for (int64_t group = 0; group < p.levels; ++group) {
    const bool last = group == p.levels - 1;
    const int64_t steps = group == 0 ? p.start_length + p.chars_per_level : p.chars_per_level;
    const double queries = static_cast<double>(parents.size()) * extender.fanout(steps);
    heavy_check_candidates(p, queries, group + 1, out->threshold);
    // At most `queries` candidates of group_length characters, each read on t rows.
    budget.hold(queries * heavy_node_bytes(p, group_length(p, group)), "pem group %" PRId64 "'s %.0f candidates",
                group, queries);
    budget.plan(queries * static_cast<double>(p.hashes), "pem group %" PRId64 " (%.0f candidates × %" PRId64
                " sketch rows)", group, queries, p.hashes);
    candidates.clear();
    for (const HeavyNode& parent : parents) {
      extender.extend(parent, steps, group_length(p, group), utf8, candidates);
      poll.tick(static_cast<int64_t>(extender.fanout(steps)));
    }
    HeavyHcms oracle = group_oracle(s, table, group);
    double keep_at = out->threshold;
    if (!last) {
      keep_at =
          heavy_prune_threshold(out->threshold, out->sigma_prune, q.noise_children, extender.fanout(p.chars_per_level),
                                static_cast<int64_t>(candidates.size()), static_cast<double>(s.n), true);
      out->prune_thresholds.push_back(keep_at);
    }
    parents.clear();
    for (HeavyNode& c : candidates) {
      poll.tick(p.hashes);
      const double f = oracle.estimate(c.bytes);
      if (f < keep_at) continue;
      if (!last) {
        parents.push_back(std::move(c));
        continue;
      }
      HeavyHitter h{};
      h.item = std::move(c.bytes);
      h.count = f;
      out->items.push_back(std::move(h));
    }
    out->candidates.push_back(static_cast<int64_t>(candidates.size()));
    out->survivors.push_back(last ? static_cast<int64_t>(out->items.size()) : static_cast<int64_t>(parents.size()));
  }
}

// ---- its protocol: start_length, s0 (heavy_internal.hpp: HeavyProtocolField) ----

int64_t get_start_length(const HeavyProtocol& p) { return p.start_length; }
bool set_start_length(HeavyProtocol* p, int64_t v) {
  if (v < 0 || v > UINT16_MAX) return false;
  p->start_length = static_cast<uint16_t>(v);
  return true;
}
const HeavyProtocolField kStartLength = {
    "start_length", "max_length", get_start_length, set_start_length,
    /*given=*/nullptr,  // s0: every protocol's levels count from it; the validation refuses it elsewhere
    "start_length in [0, max_length)", "start_length out of range", "PEM",
};

// Group 0 queries every string of s0 + s symbols.
void validate(const HeavyProtocol& p, int64_t) {
  const double base = static_cast<double>(heavy_symbol_base(p));
  const int64_t first = p.start_length + p.chars_per_level;
  if (std::pow(base, static_cast<double>(first)) > static_cast<double>(kMaxHeavyCandidates))
    throw_error(ErrorKind::InvalidParameter,
                "pem queries every string of start_length + chars_per_level symbols in its first group, at most "
                "%" PRId64 ": got start_length + chars_per_level = %" PRId64,
                kMaxHeavyCandidates, first);
}

}  // namespace

PemReport pem_encode(const HeavyProtocol& p, std::string_view item, RandomSource& rng) {
  return heavy_encode_item(p, HeavyMechanism::PEM, item, rng, encode);
}
PemReport pem_encode_int(const HeavyProtocol& p, int64_t item, RandomSource& rng) {
  return heavy_encode_item(p, HeavyMechanism::PEM, item, rng, encode);
}

extern const HeavyMechanismImpl kPemImpl = {
    HeavyMechanism::PEM,
    "pem",
    /*extra_sketches=*/0,
    {"groups", nullptr},
    /*default_chars_per_level=*/3,  // s0 = 0, s = 3: g = 2 for 6 characters, 27³ candidates in group 0
    /*default_hashes=*/64,
    /*default_width=*/4096,
    {15, 30},
    sigma,
    sigma,
    frequency,
    level_frequency,
    decode,
    /*prepare=*/nullptr,
    {&kStartLength, nullptr},
    /*defaults=*/nullptr,
    validate,
};

}  // namespace ldp
