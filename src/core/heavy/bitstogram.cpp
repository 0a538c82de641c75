// Bitstogram (Bassily et al. 2017 §4, second step; docs/algorithms/heavy-hitters.md#bitstogram):
// the device encoder, the oracles' estimates, and the decoder that reads each bucket's
// item off its coordinates.
//
// Items are D = levels coordinates of chars_per_level characters (default 1: |Σ| = 27 over
// [a-z] and the pad '*'; the bytes and int64 domains: one byte, |Σ| = 256, the bytes
// domain's end symbol 0xFF after a short text). Public: h(v) = XXH64(v, kBitstogramBucketSeed)
// mod T, T = buckets, over the item's bytes as every hash of the family (unpadded).
//
// Device: a coordinate ℓ uniform in [1, D], sent with the report; two reports at ε/2 each
// (ours: the paper states neither the budget split nor these oracles):
//   - the Hadamard response (oracles/hadamard_response.hpp, the frequency family's
//     hadamard mechanism) of the value h(v)·|Σ| + v[ℓ] over T·|Σ| values: a row in
//     [0, K), K = the smallest power of two >= T·|Σ| + 1, and y = H[row][value + 1] by
//     randomized response;
//   - the count-sketch bit of v (oracles/count_sketch.hpp), TreeHist's final oracle.
// Summary: sketch ℓ - 1 holds coordinate ℓ's K Hadamard-response sums (hashes·width = K
// cells, row-major, so cell a is HR row a), sketch D the final count sketch SF.
// Prepared table: heavy_prepare transforms each row of width cells; `prepare` below then
// transforms across the K/width rows, which makes each coordinate's sketch the Hadamard
// transform of size K (H_K = H_{K/width} ⊗ H_width).
//
// Estimates, c = c(ε/2):
//   (t, b) at coordinate ℓ:  f̂_ℓ(t, b) = D·c·(H·S_ℓ)[t·|Σ| + b + 1]   σ_B = c·sqrt(n·D)
//   item v:                   f̂(v) = median_j t·c·g_j(v)·FWHT(SF[j])[h_j(v)]   σ_F = c·sqrt(π·n/2)
// (σ_B derived: about n/D users report coordinate ℓ, each term squares to c², and
// the estimate is scaled by D.)
//
// Decoder (heavy_hitters): for each bucket t in [0, T) and each coordinate ℓ, v̂(t)[ℓ] =
// argmax_b f̂_ℓ(t, b); the item v̂(t) is its symbols up to the first pad (end symbol), and
// it is a candidate when it is one an item can be (bytes: valid UTF-8 without U+0000) and
// its own bucket is t (ours: a reported item's coordinates are filed under its own h(v),
// so a reconstruction that hashes elsewhere is noise; this drops nothing that is right).
// Candidates with f̂(v̂) >= τ are returned, with σ_F. No other filter (requiring
// Σ_b f̂_ℓ(t, b) >= τ, whose SE is sqrt(|Σ|)·σ_B, discards true heavy hitters).
// Recall of an item of count f (collisions aside): every coordinate's argmax is right
// with probability about (1 - Q(f/(√2·σ_B)))^(D·(|Σ|-1)): 0.99 at f = 5.4σ_B = 29√n for 6
// characters over [a-z] at ε = 2 (σ_B = 5.30√n), 0.5 at 20√n, 0.03 at 15√n.
//
// Defaults (ours): T as large as the Hadamard-response vector of the power of two at or
// above 4√n0·|Σ| + 1 cells allows, T = (K - 1)/|Σ| >= 4√n0 (T = the power of two >= 4√n0
// would leave, with |Σ| = 27, 16% of K unused, which more buckets take at no cost:
// T = 4,854 at n0 = 10^6, K = 2^17), K at most 2^22 and (D + 1)·K <= kMaxHeavyCells
// (int64, D = 8: K = 2^19, T = 2,047; bytes of 6: K = 2^20, T = 4,095). width = the
// larger of min(1024, K/8) and K/256, hashes = K/width (so 8 to 256 rows for the final
// count sketch). τ = 15√n with an alphabet, 30√n for bytes and int64 (heavy_decode.cpp).
#include <xxhash.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <string>
#include <vector>

#include "core/common/decode_limits.hpp"
#include "core/common/error.hpp"
#include "core/common/interrupt.hpp"
#include "core/common/select.hpp"
#include "core/common/stats.hpp"
#include "core/heavy/heavy_internal.hpp"
#include "core/heavy/heavy_summary.hpp"
#include "core/oracles/count_sketch.hpp"
#include "core/oracles/hadamard_response.hpp"

namespace ldp {

namespace {

double c_half(const HeavyProtocol& p) { return heavy_c(p.epsilon / 2); }

int64_t bucket_of(const HeavyProtocol& p, std::string_view v) {
  return static_cast<int64_t>(XXH64(v.data(), v.size(), kBitstogramBucketSeed) % static_cast<uint64_t>(p.buckets));
}

int64_t pow2_at_least(double x) {
  int64_t k = 1;
  while (static_cast<double>(k) < x) k <<= 1;
  return k;
}
int64_t pow2_at_most(int64_t x) {
  int64_t k = 1;
  while (k <= x / 2) k <<= 1;
  return k;
}

// The number of characters of the UTF-8 text a (valid: the protocol's alphabet).
int64_t char_count(std::string_view a) {
  int64_t n = 0;
  for (size_t i = 0; i < a.size(); i += static_cast<size_t>(utf8_char_length(a.substr(i)))) ++n;
  return n;
}

// v[ℓ], the symbol of coordinate ℓ (1-based) in [0, |Σ|): alphabet, the characters'
// indices in the alphabet as digits in base |alphabet| + 1, the pad the last digit;
// bytes and int64, the byte (kHeavyEnd after a text). No allocation (the encoder's path).
int64_t symbol_of(const HeavyProtocol& p, const HeavyItem& item, int64_t coordinate) {
  const auto from = static_cast<size_t>(item.prefix_end[coordinate - 1]);
  const auto to = static_cast<size_t>(item.prefix_end[coordinate]);
  if (p.dom() != HeavyDomain::Alphabet)
    return from < item.bytes.size() ? static_cast<uint8_t>(item.bytes[from]) : static_cast<int64_t>(kHeavyEnd);
  const std::string_view alphabet = p.alphabet_view(), bytes(item.bytes);
  const int64_t base = char_count(alphabet) + 1;  // the pad is digit base - 1
  int64_t symbol = 0;
  size_t i = from;
  for (int64_t d = 0; d < p.chars_per_level; ++d) {
    int64_t digit = base - 1;
    if (i < to) {
      const auto len = static_cast<size_t>(utf8_char_length(bytes.substr(i)));
      // UTF-8 synchronizes itself: the character is found at a character boundary
      digit = char_count(alphabet.substr(0, alphabet.find(bytes.substr(i, len))));
      i += len;
    }
    symbol = symbol * base + digit;
  }
  return symbol;
}

BitstogramReport encode(const HeavyProtocol& p, const HeavyItem& item, RandomSource& rng) {
  BitstogramReport r;
  r.coordinate = 1 + static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.levels)));
  const int64_t sigma = heavy_symbols(p);
  check_epsilon(p.epsilon / 2);  // each report at ε/2, in range as a hadamard frequency oracle's
  const HadamardReport hr =
      hadamard_response(bucket_of(p, item.bytes) * sigma + symbol_of(p, item, r.coordinate), p.epsilon / 2,
                        bitstogram_hadamard_order(p), rng);
  r.hadamard_row = hr.row;
  r.symbol_report = hr.plus_one;
  r.hash_index = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.hashes)));
  r.coefficient = static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.width)));
  const bool x = count_sketch_entry(item.bytes, r.hash_index, r.coefficient, p.width);
  r.item_report = x != rng.bernoulli(1.0 / (1.0 + std::exp(p.epsilon / 2)));
  return r;
}

double sigma_symbol(const HeavySummary& s) {  // σ_B
  return c_half(s.protocol) * std::sqrt(static_cast<double>(s.n) * static_cast<double>(s.protocol.levels));
}
double sigma_final(const HeavySummary& s) { return heavy_count_sketch_sigma(s, 1); }

HeavyCountSketch final_oracle(const HeavySummary& s, const int64_t* table) {
  return HeavyCountSketch(s, table, s.protocol.levels, static_cast<double>(s.protocol.hashes) * c_half(s.protocol));
}

HeavyEstimate frequency(const HeavySummary& s, const int64_t* table, const HeavyItem& it) {
  return {final_oracle(s, table).estimate(it.bytes), sigma_final(s)};
}

HeavyEstimate level_frequency(const HeavySummary& s, const int64_t* table, const HeavyItem& it, int64_t level) {
  const HeavyProtocol& p = s.protocol;
  const int64_t col = bucket_of(p, it.bytes) * heavy_symbols(p) + symbol_of(p, it, level) + 1;
  const double sum = static_cast<double>(table[(level - 1) * s.sketch_cells() + col]);
  return {static_cast<double>(p.levels) * c_half(p) * sum, sigma_symbol(s)};
}

// Each coordinate's sketch: the transform across its K/width rows (the rows' own
// transforms are done), exact as fwht_exact.
void prepare(const HeavySummary& s, int64_t* table) {
  const int64_t m = s.protocol.width, rows = s.protocol.hashes;
  InterruptPoll poll;
  for (int64_t l = 0; l < s.protocol.levels; ++l) {
    auto* t = reinterpret_cast<uint64_t*>(table + l * s.sketch_cells());
    for (int64_t h = 1; h < rows; h <<= 1)
      for (int64_t i = 0; i < rows; i += 2 * h)
        for (int64_t j = i; j < i + h; ++j) {
          uint64_t* a = t + j * m;
          uint64_t* b = t + (j + h) * m;
          for (int64_t c = 0; c < m; ++c) {
            const uint64_t x = a[c], y = b[c];
            a[c] = x + y;
            b[c] = x - y;
          }
          poll.tick(m);
        }
  }
}

void decode(const HeavySummary& s, const int64_t* table, const HeavyHittersQuery&, DecodeBudget& budget,
            HeavyHitters* out) {
  const HeavyProtocol& p = s.protocol;
  const int64_t sigma = heavy_symbols(p), T = p.buckets, D = p.levels;
  // First every bucket's item, spelt by the most frequent symbol of each coordinate (σ
  // cells each) and kept when it hashes to that bucket; then one query of the count
  // sketch's t rows for each item kept.
  budget.plan(static_cast<double>(T * D * sigma), "bitstogram's %" PRId64 " buckets (%" PRId64 " coordinates × %"
              PRId64 " symbols)", T, D, sigma);
  budget.hold(static_cast<double>(T) * heavy_node_bytes(p, p.max_length), "bitstogram's items of %" PRId64 " buckets", T);
  InterruptPoll poll;
  const std::vector<std::string> chars =
      p.dom() == HeavyDomain::Alphabet ? heavy_alphabet_chars(p) : std::vector<std::string>();
  const auto base = static_cast<int64_t>(chars.size()) + 1;
  std::vector<std::string> spelt;  // in bucket order
  std::string item;
  std::vector<int64_t> digits(static_cast<size_t>(p.chars_per_level));
  for (int64_t t = 0; t < T; ++t) {
    poll.tick(D * sigma);
    item.clear();
    bool closed = false;
    int64_t length = 0;  // characters (the alphabet domain)
    for (int64_t l = 0; l < D && !closed; ++l) {
      const int64_t* col = table + l * s.sketch_cells() + t * sigma + 1;
      const int64_t b = std::max_element(col, col + sigma) - col;  // the first of ties
      if (p.dom() != HeavyDomain::Alphabet) {
        if (p.dom() == HeavyDomain::Bytes && b == kHeavyEnd)
          closed = true;
        else
          item.push_back(static_cast<char>(b));
        continue;
      }
      int64_t rest = b;
      for (int64_t d = p.chars_per_level - 1; d >= 0; --d, rest /= base) digits[static_cast<size_t>(d)] = rest % base;
      for (int64_t d : digits) {
        if (d == base - 1) closed = true;
        if (closed) break;
        item += chars[static_cast<size_t>(d)];
        ++length;
      }
    }
    if (length > p.max_length) continue;  // a last coordinate of fewer characters, filled
    if (p.dom() == HeavyDomain::Bytes &&
        (utf8_prefix_state(item) != 0 || item.find('\0') != std::string::npos))
      continue;
    if (bucket_of(p, item) == t) spelt.push_back(item);
  }
  const auto valid = static_cast<int64_t>(spelt.size());
  budget.plan(static_cast<double>(valid * p.hashes), "bitstogram's %" PRId64 " items spelt in their buckets (× %"
              PRId64 " sketch rows)", valid, p.hashes);
  HeavyCountSketch oracle = final_oracle(s, table);
  for (std::string& v : spelt) {
    poll.tick(p.hashes);
    double* rows = oracle.rows(v);
    if (!median_at_least(rows, oracle.t(), out->threshold)) continue;
    HeavyHitter h{};
    h.item = std::move(v);
    h.count = median_of(rows, oracle.t());
    out->items.push_back(std::move(h));
  }
  out->candidates.push_back(T);
  out->survivors.push_back(valid);
  out->candidates.push_back(valid);
  out->survivors.push_back(static_cast<int64_t>(out->items.size()));
}

}  // namespace

int64_t bitstogram_hadamard_order(const HeavyProtocol& p) { return hadamard_order(p.buckets * heavy_symbols(p)); }

namespace {
void check_buckets(int64_t buckets, int64_t symbols) {
  if (buckets < 1 || buckets > (kMaxHadamardOrder - 1) / symbols)
    throw_error(ErrorKind::InvalidParameter,
                "bitstogram buckets must be in [1, %" PRId64 "] (buckets * %" PRId64 " symbols below 2^22), got %"
                PRId64,
                (kMaxHadamardOrder - 1) / symbols, symbols, buckets);
}

// ---- its protocol: buckets, T (heavy_internal.hpp: HeavyProtocolField) ----

int64_t get_buckets(const HeavyProtocol& p) { return p.buckets; }
bool set_buckets(HeavyProtocol* p, int64_t v) {
  p->buckets = v;  // any value: the validation checks it
  return true;
}
int64_t given_buckets(const HeavyProtocolSpec& spec) { return spec.buckets; }
const HeavyProtocolField kBuckets = {
    "buckets", "width", get_buckets, set_buckets, given_buckets, "buckets", "buckets out of range", "bitstogram",
};

// The checks of its buckets and Hadamard-response size (validate_heavy_protocol).
void validate(const HeavyProtocol& p, int64_t symbols) {
  check_buckets(p.buckets, symbols);
  const int64_t k = std::max<int64_t>(2, p.buckets * symbols);
  const int64_t K = hadamard_order(k);
  if (p.hashes * p.width != K)
    throw_error(ErrorKind::InvalidParameter,
                "bitstogram's hashes * width must be K = %" PRId64
                " (the smallest power of two >= buckets * symbols + 1 = %" PRId64 " * %" PRId64
                " + 1: a coordinate's Hadamard-response vector), got %" PRId64 " * %" PRId64
                " (leave hashes, width or buckets to the default)",
                K, p.buckets, symbols, p.hashes, p.width);
}

// The defaults of buckets, hashes and width (heavy_protocol_build; p's other fields are set).
void defaults(const HeavyProtocolSpec& spec, HeavyProtocol* p) {
  p->buckets = spec.buckets;
  p->hashes = spec.hashes;
  p->width = spec.width;
  if (p->levels < 1 || p->levels > kMaxHeavyLevels || p->chars_per_level < 1 ||
      p->chars_per_level > kMaxHeavyCharsPerLevel)
    return;  // refused by validate_heavy_protocol
  const int64_t sigma = heavy_symbols(*p);
  if (sigma > kMaxHeavySymbols) return;
  const bool given_cells = spec.hashes > 0 && spec.width > 0 && spec.hashes <= kMaxHeavyHashes &&
                           spec.width <= kMaxHeavyWidth;
  int64_t K = 0;
  if (spec.buckets > 0) {
    check_buckets(spec.buckets, sigma);
    K = hadamard_order(std::max<int64_t>(2, spec.buckets * sigma));
  } else if (given_cells) {
    K = spec.hashes * spec.width;
    p->buckets = (K - 1) / sigma;
    return;
  } else {
    const int64_t cap = std::min(kMaxHadamardOrder, pow2_at_most(kMaxHeavyCells / (p->levels + 1)));
    const double want = 4 * std::sqrt(static_cast<double>(p->expected_users)) * static_cast<double>(sigma) + 1;
    K = std::min(cap, pow2_at_least(want));
    if (spec.width > K && spec.width <= cap && (spec.width & (spec.width - 1)) == 0) K = spec.width;
    p->buckets = (K - 1) / sigma;
  }
  if (p->width == 0)
    p->width = p->hashes > 0 ? std::max<int64_t>(1, K / p->hashes)
                             : std::max<int64_t>(2, std::max(std::min<int64_t>(1024, K / 8), K / 256));
  if (p->hashes == 0) p->hashes = std::max<int64_t>(1, K / p->width);
}

}  // namespace

BitstogramReport bitstogram_encode(const HeavyProtocol& p, std::string_view item, RandomSource& rng) {
  return heavy_encode_item(p, HeavyMechanism::Bitstogram, item, rng, encode);
}
BitstogramReport bitstogram_encode_int(const HeavyProtocol& p, int64_t item, RandomSource& rng) {
  return heavy_encode_item(p, HeavyMechanism::Bitstogram, item, rng, encode);
}

extern const HeavyMechanismImpl kBitstogramImpl = {
    HeavyMechanism::Bitstogram,
    "bitstogram",
    /*extra_sketches=*/1,
    {"coordinates", "final"},
    /*default_chars_per_level=*/1,  // D = 6 coordinates of one character, |Σ| = 27
    /*default_hashes=*/0,           // its own defaults (below)
    /*default_width=*/0,
    {15, 30},
    sigma_symbol,
    sigma_final,
    frequency,
    level_frequency,
    decode,
    prepare,
    {&kBuckets, nullptr},
    defaults,
    validate,
};

}  // namespace ldp
