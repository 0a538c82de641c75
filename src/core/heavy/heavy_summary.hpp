// The heavy-hitters summary: integer counters of the reports, for the protocol it
// embeds (heavy_protocol.hpp), plus n. The counters are the protocol's sketches() sketches
// of hashes × width, one after the other, each row-major; what they are is the
// mechanism's (the registry in heavy_summary.cpp):
//
//   treehist  SP[ℓ][j][r] (levels sketches: Σ y_P of the reports with level ℓ, row j,
//             coefficient r: the prefix oracle of level ℓ), then SF[j][r] (Σ y_F: the
//             final oracle, on whole items). Text arrays prune=[...], final=[...].
//   pem       G[i][j][l] (levels = g sketches: Σ y of the reports of group i, HCMS row j,
//             coefficient l). Text array groups=[...].
//   sfp       F[p][j][l] (levels = P sketches: Σ y of the fragment reports at position
//             p), then W[j][l] (Σ y of the word reports). Text arrays fragments=[...],
//             word=[...].
//   bitstogram B[ℓ][a] (levels = D sketches of K = hashes·width cells, row-major: Σ y of
//             the Hadamard-response reports of coordinate ℓ at row a), then SF[j][r] (the
//             final count sketch, as TreeHist's). Text arrays coordinates=[...], final=[...].
// Each report adds ±1 to one cell of the first block and, where there is a second, ±1 to
// one cell of it. Merges add counters, so any order and any parallel plan give the same
// summary bit for bit.
//
// Decoding is prepare, then answer: heavy_prepare transforms every row once (sketches ×
// hashes fast Walsh–Hadamard transforms, exact; every oracle here is Hadamard-coded);
// heavy_hitters runs the mechanism's decoder on the prepared table, heavy_frequency
// answers one item from the final oracle. Estimates and standard errors:
//
// TreeHist, with c = c(ε/2) = (e^{ε/2}+1)/(e^{ε/2}-1) and median over the rows j
// (numpy's: the mean of the middle two for even t):
//   prefix u at level ℓ:  f̂_ℓ(u) = median_j D·t·c·g_j(u)·FWHT(SP[ℓ][j])[h_j(u)]
//   item v:               f̂(v)   = median_j t·c·g_j(v)·FWHT(SF[j])[h_j(v)]
// with standard errors (derived, docs/algorithms/heavy-hitters.md#treehist)
// σ_P = c·sqrt(π·n·D/2) and
// σ_F = c·sqrt(π·n/2). Default τ = 15√n (alphabet; τ/σ_P = 3.19 at ε = 2), 30√n (bytes,
// int64).
//
// PEM (heavy-hitters.md#pem-prefix-extending), HCMS oracles at the full ε (a device
// reports one group), c = c(ε):
//   prefix u of group i:  f̂_i(u) = g·(m/(m-1))·( c·Σ_j FWHT(G[i][j])[h_j(u)] - (n/g)/m )
// (ours: the group's own report count is not kept, n/g stands for it in the -n_i/m
// term; the difference has SD sqrt(n/g)/(m-1), 10^-4·σ at m = 4096). Standard error of
// every group's estimates (derived): σ_PEM = c(ε)·sqrt(g·n). The output's estimates
// are the last group's, with σ_PEM. Default τ = 15√n (alphabet: g = 2, τ/σ_PEM = 8.08
// at ε = 2), 30√n (bytes: g = 6, 9.33; int64: g = 8, 8.08).
//
// SFP (heavy-hitters.md#sfp-sequence-fragment-puzzle), HCMS oracles at ε/2 each (a
// device sends a fragment and its word), c =
// c(ε/2): the fragment oracle of position p holds about n/P reports and its estimates
// are scaled by the P positions (pure-LDP does not scale them: a threshold then means
// different things for fragments and words; here both are counts of users):
//   (h, u) at position p:  f̂_p(h, u) = P·(m/(m-1))·( c·Σ_j FWHT(F[p][j])[h_j(h‖u)] - (n/P)/m )
//   word v:                f̂(v)      = (m/(m-1))·( c·Σ_j FWHT(W[j])[h_j(v)] - n/m )
// with σ_frag = c(ε/2)·sqrt(P·n) and σ_word = c(ε/2)·sqrt(n) (derived). Default τ =
// 15√n (alphabet: P = 3, τ/σ_frag = 4.00, τ/σ_word = 6.93 at ε = 2), 30√n (bytes: P = 6,
// 5.66 and 13.9; int64: P = 8, 4.90 and 13.9).
//
// Bitstogram (heavy-hitters.md#bitstogram, bitstogram.cpp), c = c(ε/2), T buckets, h(v)
// the item's bucket:
//   (t, b) at coordinate ℓ:  f̂_ℓ(t, b) = D·c·(H_K·B[ℓ])[t·|Σ| + b + 1]
//   item v:                   f̂(v) = TreeHist's final estimate
// with σ_B = c·sqrt(n·D) (derived) and σ_F. Default τ = 15√n (alphabet; τ/σ_B = 2.83
// at ε = 2, D = 6), 30√n (bytes, int64); its decoder prunes nothing with σ_B, which decides
// how each bucket's item is spelt.
//
// Fixed hashes add a collision bias that is not in σ (sketches.md#hash-collisions; for
// TreeHist's count sketch RMS about sqrt(Σ_{y≠v} f(y)²/(m·t)) for the mean over rows, for
// HCMS with t·(m-1)); it can reach the standard error next to a much heavier item.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/decode_limits.hpp"
#include "core/common/random.hpp"
#include "core/heavy/heavy_protocol.hpp"

namespace ldp {

// An aggregation state may have a pending area after the counters (never in the text or
// binary forms), as the signed sketches have (sketch_summary.hpp): a buffer of the last
// reports' cell increments (each a 32-bit cell index and sign), then an int8 per counter
// that a full buffer is applied to with the cells prefetched; a sum that reaches ±127 is
// added to its counter and starts again at 0 (the increment's own cache line tells, so
// nothing else is read per increment). A report then costs two stores into a buffer in
// the L1 cache; the int8s (1 MiB at TreeHist's string default for 10^7 users, 3.5 MiB at
// Bitstogram's, against 8 and 28 MiB of counters) mostly stay in the L2 cache, and the
// misses of a full buffer overlap where each report's two misses stalled the scan (3.5x
// sum(int4) before; int16 sums with a count per row of width cells before 0.9.0's
// Bitstogram made its state too large for the L2 cache). Readers see the counters with
// the pending counts added (heavy_flush_pending, which the glue runs before anything
// reads a live summary).
struct HeavySummary {
  HeavyProtocol protocol;
  int64_t n;          // reports counted
  uint32_t pending;   // a pending area follows the counters: 2 (its sums may hold counts) or 1
                      // (they are all 0); 0: none
  uint32_t buffered;  // cell increments waiting in it
  int64_t block;      // with a pending area: hashes·width, the cells of one oracle

  int64_t cells() const { return protocol.cells(); }
  int64_t sketch_cells() const { return protocol.hashes * protocol.width; }
  int64_t* counters() { return reinterpret_cast<int64_t*>(this + 1); }
  const int64_t* counters() const { return reinterpret_cast<const int64_t*>(this + 1); }
  // Sketch i (0-based) of sketches(): level i + 1's, then the extra one (i = levels).
  int64_t* sketch(int64_t i) { return counters() + i * sketch_cells(); }
  // TreeHist: SP[level] for level in 1..levels, then SF (= prune(levels + 1)).
  int64_t* prune(int64_t level) { return sketch(level - 1); }
  int64_t* final_counters() { return prune(protocol.levels + 1); }
};
static_assert(sizeof(HeavySummary) % 8 == 0, "counters must stay 8-byte aligned");

// Bytes of a summary of this (validated) protocol; InvalidParameter otherwise.
size_t heavy_summary_size(const HeavyProtocol& p);
inline size_t heavy_summary_size(const HeavySummary& s) {
  return sizeof(HeavySummary) + sizeof(int64_t) * static_cast<size_t>(s.cells());
}
// An empty summary in caller memory of heavy_summary_size bytes.
void heavy_summary_init(HeavySummary* s, const HeavyProtocol& p);

// A TreeHist report row (what the device encoder returns): level in 1..levels,
// hash_index in [0, hashes), coefficient in [0, width); y_P and y_F as +1 -> true.
// ImpossibleReport for anything out of range (nothing is counted then), InvalidParameter
// for a summary of another mechanism.
struct HeavyReport {
  int64_t level;
  int64_t hash_index;
  int64_t coefficient;
  bool prefix_report;
  bool item_report;
};
void heavy_add_report(HeavySummary* s, const HeavyReport& r);

// The pending area (see HeavySummary): its bytes, its setup in a summary just
// initialized in memory of heavy_summary_size + heavy_pending_bytes bytes, applying a
// full buffer, and moving everything pending into the counters (the area stays, empty).
constexpr int64_t kHeavyBuffer = 4096;  // cell increments buffered before they are applied
static_assert(kMaxHeavyCells <= (int64_t{1} << 31), "a cell index and its sign fit 32 bits");
size_t heavy_pending_bytes(const HeavyProtocol& p);
void heavy_summary_add_pending_area(HeavySummary* s);
void heavy_apply_buffer(HeavySummary* s);
void heavy_flush_pending(HeavySummary* s);
inline uint32_t* heavy_pending_buffer(HeavySummary* s) { return reinterpret_cast<uint32_t*>(s->counters() + s->cells()); }
// A report into a state with its pending area, checked by the caller (the aggregates'
// hot paths): one ±1 into sketch a (0-based) at cell = hash_index·width + coefficient
// (PEM: the group's sketch), or two (TreeHist: level - 1's sketch and the final one at the
// same cell; SFP: the position's fragment sketch and the word sketch at its own cell).
inline void heavy_add_pending(HeavySummary* s, int64_t a, int64_t cell, bool plus_one) {
  uint32_t* b = heavy_pending_buffer(s) + s->buffered;
  b[0] = static_cast<uint32_t>(a * s->block + cell) << 1 | static_cast<uint32_t>(plus_one);
  s->n += 1;
  if (++s->buffered >= kHeavyBuffer - 1) heavy_apply_buffer(s);
}
inline void heavy_add_pending2(HeavySummary* s, int64_t a, int64_t cell_a, bool plus_a, int64_t b_sketch,
                               int64_t cell_b, bool plus_b) {
  uint32_t* b = heavy_pending_buffer(s) + s->buffered;
  b[0] = static_cast<uint32_t>(a * s->block + cell_a) << 1 | static_cast<uint32_t>(plus_a);
  b[1] = static_cast<uint32_t>(b_sketch * s->block + cell_b) << 1 | static_cast<uint32_t>(plus_b);
  s->n += 1;
  if ((s->buffered += 2) >= kHeavyBuffer - 1) heavy_apply_buffer(s);
}

// A PEM report row (SQL columns in this order; SQL names group group_index): group in
// [0, g) (0-based, as pure-LDP's), the HCMS row hash_index in [0, hashes) and coefficient in [0, width), and
// report = y, +1 as true, on the item's prefix of s0 + (group+1)·s characters.
struct PemReport {
  int64_t group;
  int64_t hash_index;
  int64_t coefficient;
  bool report;
};
void pem_add_report(HeavySummary* s, const PemReport& r);

// An SFP report row (SQL columns in this order; SQL names position fragment_start): the
// fragment's first character (byte), a multiple of s in [0, max_length) (pure-LDP's l); the
// fragment oracle's HCMS row, coefficient and y (+1 as true) on (8-bit hash, fragment); the word
// oracle's HCMS row, coefficient and y on the whole item.
struct SfpReport {
  int64_t position;
  int64_t hash_index;
  int64_t coefficient;
  bool fragment_report;
  int64_t word_hash_index;
  int64_t word_coefficient;
  bool word_report;
};
void sfp_add_report(HeavySummary* s, const SfpReport& r);

// A Bitstogram report row (SQL columns in this order): the coordinate ℓ in 1..levels, the
// Hadamard-response row in [0, K) and its y (+1 as true) on (h(v), v[ℓ]), the final
// count sketch's row, coefficient and y on v. K = bitstogram_hadamard_order(p).
struct BitstogramReport {
  int64_t coordinate;
  int64_t hadamard_row;
  bool symbol_report;
  int64_t hash_index;
  int64_t coefficient;
  bool item_report;
};
void bitstogram_add_report(HeavySummary* s, const BitstogramReport& r);
// K: the Hadamard-response size of each coordinate, the smallest power of two >= T·|Σ| + 1
// (freq/hadamard.cpp's hadamard_order of T·|Σ| values).
int64_t bitstogram_hadamard_order(const HeavyProtocol& p);

// into += from (the same protocol, else InvalidParameter).
void heavy_summary_merge(HeavySummary* into, const HeavySummary& from);

// ---- device encoders (the SDK) ----
// TreeHist: (ℓ, j, r) uniform from rng, then y_P on the item's level-ℓ prefix and y_F on
// the item, each a count-sketch bit at ε/2 with the same (j, r). Items the protocol cannot
// encode: OutOfRange (heavy_item_from_text).
HeavyReport treehist_encode(const HeavyProtocol& p, std::string_view item, RandomSource& rng);
HeavyReport treehist_encode_int(const HeavyProtocol& p, int64_t item, RandomSource& rng);
// PEM: group uniform in [0, g), (j, l) uniform, y = H[l][h_j(prefix)] kept with
// probability e^ε/(1+e^ε), else negated (the HCMS device on the group's prefix).
PemReport pem_encode(const HeavyProtocol& p, std::string_view item, RandomSource& rng);
PemReport pem_encode_int(const HeavyProtocol& p, int64_t item, RandomSource& rng);
// SFP: position uniform over {0, s, ..., (P-1)·s}; the fragment report is HCMS at ε/2
// on the byte h(v) = XXH64(v, kSfpHashSeed) mod 256 followed by the fragment's bytes
// (unpadded), the word report HCMS at ε/2 on v, each with its own (j, l).
SfpReport sfp_encode(const HeavyProtocol& p, std::string_view item, RandomSource& rng);
SfpReport sfp_encode_int(const HeavyProtocol& p, int64_t item, RandomSource& rng);
// Bitstogram: coordinate ℓ uniform in [1, D]; the Hadamard response at ε/2
// (freq/hadamard.cpp's hadamard_encode) of the value h(v)·|Σ| + v[ℓ] over T·|Σ| values,
// h(v) = XXH64(v, kBitstogramBucketSeed) mod T; the count-sketch bit at ε/2 of v.
BitstogramReport bitstogram_encode(const HeavyProtocol& p, std::string_view item, RandomSource& rng);
BitstogramReport bitstogram_encode_int(const HeavyProtocol& p, int64_t item, RandomSource& rng);
constexpr uint64_t kBitstogramBucketSeed = 0xFFFFFFFFFFFFFFFEull;  // no count-sketch row's seed either
// The seed of SFP's 8-bit hash of the whole item (ours: pure-LDP uses 10, which is also an
// HCMS row's seed; no row's seed is this one, hashes <= 2^16).
constexpr uint64_t kSfpHashSeed = 0xFFFFFFFFFFFFFFFFull;

// ---- decoding ----
// The prepared table: the summary's cells, each row transformed. s.n > 0 not required.
void heavy_prepare(const HeavySummary& s, int64_t* table);

struct HeavyEstimate {
  double count;      // f̂, in reports
  double std_error;  // the final σ (the level's σ for a prefix or fragment), in reports
};
// The final oracle's estimate of an item (OutOfRange as the encoder for an item it cannot
// encode), and level ℓ's estimate of its prefix (TreeHist level ℓ, PEM group ℓ - 1) or of
// its fragment (SFP position ℓ - 1) (tests, diagnostics; for int64, the 8 big-endian
// bytes).
HeavyEstimate heavy_frequency(const HeavySummary& s, const int64_t* table, std::string_view item);
HeavyEstimate heavy_frequency_int(const HeavySummary& s, const int64_t* table, int64_t item);
HeavyEstimate heavy_prefix_frequency(const HeavySummary& s, const int64_t* table, std::string_view item, int64_t level);

// TreeHist's noise children per survivor, r
// (docs/algorithms/heavy-hitters.md#pruning-the-prefix-tree):
// levels 1..D-1 keep a prefix whose estimate is >= τ_P = min(τ, max(τ - 2σ_P, z·σ_P)).
// The floor z·σ_P, z = Φ⁻¹(1 - p), lets an absent child through with probability p:
//   p = min(r/|Σ|, r·(n/τ)/|C_ℓ|), |C_ℓ| the candidates queried at level ℓ.
// The first term gives z_r = Φ⁻¹(1 - r/|Σ|): each survivor brings about r
// noise children, so the candidates stay bounded where τ - 2σ_P alone exploded (144
// survivors to 11,851 at n = 10^6). But noise survivors have noise children too: with
// r/|Σ| alone the survivors grow r-fold per level, harmless for the string default's
// two pruned levels and fatal for deep trees (int64, D = 8: 69,618 survivors at level
// 6 of 7 at n = 2·10^5, 17.8M queries for the next). The second term (ours,
// 2026-11-25) caps the noise survivors of a level at r·n/τ, r for each of the at most
// n/τ items that can be heavy: it leaves the string default as the first term has it (its
// candidates are below |Σ|·n/τ) and makes deep trees' growth linear.
// At the string default (τ/σ_P = 3.19) the floor decides, τ_P = 2.29σ_P, 0.9σ_P below
// τ. Why r = 8: a Gaussian model of SUBTLEX-US at n = 10^7 gives recall 0.90 at τ
// with r = 8 against 0.81 with r = ½ (which made τ_P = τ and lost true heavy hitters
// at the cuts), and r = 16 adds nothing (0.90) for twice the final candidates (1.2M
// against 570k). Whole items are asked of the final oracle at the level where they end
// (treehist.cpp), so a short word never meets its own prefix cut: measured over 5
// seeds at 10^7 (bench/heavy_seeds.sh), no true word above τ was lost to pruning with
// r = 8 (recall 0.929 at τ, the cut's own noise allowing about 0.92), one of 238 with
// r = 4 (half the final candidates and of the decode time).
constexpr double kTreeHistNoiseChildren = 8;
// Queries one level may make (survivors × |Σ|; a PEM group: survivors × |Σ|^s; SFP: the
// words its Cartesian products make, and 256·|Σ|^s fragments a position) before
// heavy_hitters refuses: about 6 s of TreeHist's decoding. Raise the threshold instead.
constexpr int64_t kMaxHeavyCandidates = int64_t{1} << 22;

struct HeavyHitter {
  std::string item;     // alphabet, bytes: the text (trailing pad or end removed); int64: decimal
  int64_t integer;      // int64 domain: the value (else 0)
  double count;         // f̂(v)
  double frequency;     // f̂(v)/n
  double std_error;     // σ_F/n
  double lower, upper;  // (f̂ ∓ 1.96·σ_F)/n
};
struct HeavyHittersQuery {
  double threshold = -1;  // τ in reports; < 0: the default, heavy_default_threshold_scale·√n
  // r: TreeHist's noise children per survivor; PEM's likewise per group; SFP's noise
  // fragments per hash value and position (sfp.cpp).
  double noise_children = kTreeHistNoiseChildren;
  DecodeLimits limits;  // the work and memory the walk may plan (common/decode_limits.hpp)
};
struct HeavyHitters {
  std::vector<HeavyHitter> items;        // f̂ >= τ, by f̂ descending (ties: by item bytes)
  double threshold;                      // τ
  std::vector<double> prune_thresholds;  // τ_P of each level 1..levels-1 (SFP: τ_frag of each position)
  double sigma_prune, sigma_final;       // σ_P, σ_F (PEM: σ_PEM twice; SFP: σ_frag, σ_word)
  double threshold_in_se;                // τ/σ_P
  // TreeHist, PEM: queried at each level 1..levels ([0] = level 1), kept at each level
  // 1..levels-1 and [levels-1]: returned. SFP: [p] the fragments queried and kept at
  // position p, then [P]: the words the Cartesian products made (before the hash check)
  // and the words returned.
  std::vector<int64_t> candidates;
  std::vector<int64_t> survivors;
  double planned_work = 0;  // the operations the walk planned (HeavyHittersQuery::limits)
};
// The default τ over √n: 15 for the alphabet domain, 30 for int64 and bytes (deeper
// trees), for every mechanism (the registry's threshold_scale); in the bytes domain at
// least 4σ_P/√n (heavy_decode.cpp: 61.4 for TreeHist over 32 bytes at ε = 2).
double heavy_default_threshold_scale(const HeavyProtocol& p);
// The default τ of a summary, in reports: heavy_default_threshold_scale·√n.
double heavy_threshold(const HeavySummary& s);
// InvalidParameter when a level would query more than kMaxHeavyCandidates prefixes (SFP:
// fragments, or words of the Cartesian products), or for a negative noise_children;
// LimitExceeded before a step that would pass q.limits (the work of a level: its queries
// times the sketch rows each reads; the memory of PEM's candidates and SFP's fragments).
// Polls for a cancel (common/interrupt.hpp). An empty summary returns nothing.
HeavyHitters heavy_hitters(const HeavySummary& s, const int64_t* table, const HeavyHittersQuery& q = {});

// ---- codecs ----
// Text: v1:treehist{<the protocol's fields>,n=<n>,prune=[SP row-major],final=[SF]};
// v1:pem{...,n=<n>,groups=[G]}; v1:sfp{...,n=<n>,fragments=[F],word=[W]}.
// Two steps, so the caller allocates.
size_t heavy_summary_text_size(const HeavySummary& s);  // including the NUL
void heavy_summary_to_text(const HeavySummary& s, char* out, size_t cap);
size_t heavy_summary_parse_size(const char* text);
void heavy_summary_from_text(const char* text, HeavySummary* out, size_t size);
// Binary: the stored-form header (format 3, family Heavy), the protocol's fields
// (heavy_internal.hpp), i64 n, u8 bytes per counter, then every counter at that width.
size_t heavy_summary_binary_size(const HeavySummary& s);
void heavy_summary_to_binary(const HeavySummary& s, uint8_t* out, size_t cap);
size_t heavy_summary_binary_parse_size(const uint8_t* p, size_t len);
void heavy_summary_from_binary(const uint8_t* p, size_t len, HeavySummary* out, size_t size);

}  // namespace ldp
