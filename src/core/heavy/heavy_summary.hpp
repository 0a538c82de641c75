// The heavy-hitters summary (ALGORITHMS.md §6.1, TreeHist): integer counters of the
// reports, for the protocol it embeds (heavy_protocol.hpp), plus n.
//
//   SP[ℓ][j][r]  levels × hashes × width: Σ y_P of the reports with level ℓ, row j,
//                coefficient r (the prefix oracle of level ℓ);
//   SF[j][r]     hashes × width: Σ y_F of the reports with row j, coefficient r (the
//                final oracle, on whole items).
// Each report adds ±1 to one cell of each. Merges add counters, so any order and any
// parallel plan give the same summary bit for bit.
//
// Decoding is prepare, then answer: heavy_prepare transforms every row once
// ((levels + 1)·hashes fast Walsh–Hadamard transforms, exact); heavy_hitters walks
// the prefix tree on the prepared table, and heavy_frequency answers one item.
// Estimates, with c = c(ε/2) = (e^{ε/2}+1)/(e^{ε/2}-1) and median over the rows j
// (numpy's: the mean of the middle two for even t):
//   prefix u at level ℓ:  f̂_ℓ(u) = median_j D·t·c·g_j(u)·FWHT(SP[ℓ][j])[h_j(u)]
//   item v:               f̂(v)   = median_j t·c·g_j(v)·FWHT(SF[j])[h_j(v)]
// with standard errors (derived, ALGORITHMS.md §6.1) σ_P = c·sqrt(π·n·D/2) and
// σ_F = c·sqrt(π·n/2). Fixed hashes add a collision bias that is not in σ (§5.1: RMS
// about sqrt(Σ_{y≠v} f(y)²/(m·t)) for the mean over rows); it can reach the standard
// error next to a much heavier item.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/random.hpp"
#include "heavy/heavy_protocol.hpp"

namespace ldp {

// An aggregation state may have a pending area after the counters (never in the text or
// binary forms), as the signed sketches have (sketch_summary.hpp): a buffer of the last
// reports' cell increments (each a 32-bit cell index and sign), then an int16 per counter
// that a full buffer is applied to with the cells prefetched, then a uint16 per row (of
// width cells) counting the increments in its int16s, which are added to the counters
// before one could overflow. A report then costs two stores into a buffer in the L1
// cache; the int16s (2 MiB at the string default for 10^7 users, against 8 MiB of
// counters) mostly stay in the L2 cache, and the misses of a full buffer overlap where
// each report's two misses stalled the scan (3.5x sum(int4) before). Readers see the
// counters with the pending counts added (heavy_flush_pending, which the glue runs
// before anything reads a live summary).
struct HeavySummary {
  HeavyProtocol protocol;
  int64_t n;          // reports counted
  uint32_t pending;   // 1: a pending area follows the counters; 0: none
  uint32_t buffered;  // cell increments waiting in it
  int64_t block;      // with a pending area: hashes·width, the cells of one oracle

  int64_t cells() const { return protocol.cells(); }
  int64_t* counters() { return reinterpret_cast<int64_t*>(this + 1); }
  const int64_t* counters() const { return reinterpret_cast<const int64_t*>(this + 1); }
  // SP[level] for level in 1..levels, then SF (= prune(levels + 1)).
  int64_t* prune(int64_t level) { return counters() + (level - 1) * protocol.hashes * protocol.width; }
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

// One report row (what the device encoder returns): level in 1..levels, hash_index in
// [0, hashes), coefficient in [0, width); y_P and y_F as +1 -> true. ImpossibleReport
// for anything out of range (nothing is counted then).
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
// TreeHist's report into a state with its pending area, checked by the caller (the
// aggregate's hot path): level in 1..levels, cell = hash_index·width + coefficient.
inline void treehist_add_pending(HeavySummary* s, int64_t level, int64_t cell, bool prefix_report, bool item_report) {
  const int64_t block = s->block;
  uint32_t* b = heavy_pending_buffer(s) + s->buffered;
  b[0] = static_cast<uint32_t>((level - 1) * block + cell) << 1 | static_cast<uint32_t>(prefix_report);
  b[1] = static_cast<uint32_t>(s->protocol.levels * block + cell) << 1 | static_cast<uint32_t>(item_report);
  s->n += 1;
  if ((s->buffered += 2) == kHeavyBuffer) heavy_apply_buffer(s);
}

// into += from (the same protocol, else InvalidParameter).
void heavy_summary_merge(HeavySummary* into, const HeavySummary& from);

// ---- device encoders (the SDK) ----
// TreeHist: (ℓ, j, r) uniform from rng, then y_P on the item's level-ℓ prefix and y_F on
// the item, each §5.1's bit at ε/2 with the same (j, r). Items the protocol cannot
// encode: OutOfRange (heavy_item_from_text).
HeavyReport treehist_encode(const HeavyProtocol& p, std::string_view item, RandomSource& rng);
HeavyReport treehist_encode_int(const HeavyProtocol& p, int64_t item, RandomSource& rng);

// ---- decoding ----
// The prepared table: the summary's cells, each row transformed. s.n > 0 not required.
void heavy_prepare(const HeavySummary& s, int64_t* table);

struct HeavyEstimate {
  double count;      // f̂, in reports
  double std_error;  // σ_F (σ_P for a prefix), in reports
};
// The final oracle's estimate of an item (OutOfRange as the encoder for an item it cannot
// encode), and the level-ℓ prefix oracle's estimate of its prefix (tests, diagnostics).
HeavyEstimate heavy_frequency(const HeavySummary& s, const int64_t* table, std::string_view item);
HeavyEstimate heavy_frequency_int(const HeavySummary& s, const int64_t* table, int64_t item);
HeavyEstimate heavy_prefix_frequency(const HeavySummary& s, const int64_t* table, std::string_view item, int64_t level);

// TreeHist's noise children per survivor, r (ALGORITHMS.md §6.1, "ours, revised"):
// levels 1..D-1 keep a prefix whose estimate is >= τ_P = min(τ, max(τ - 2σ_P, z·σ_P)).
// The floor z·σ_P, z = Φ⁻¹(1 - p), lets an absent child through with probability p:
//   p = min(r/|Σ|, r·(n/τ)/|C_ℓ|), |C_ℓ| the candidates queried at level ℓ.
// The first term is §6.1's rule, z_r = Φ⁻¹(1 - r/|Σ|): each survivor brings about r
// noise children, so the candidates stay bounded where τ - 2σ_P alone exploded (144
// survivors to 11,851 at n = 10^6). But noise survivors have noise children too: with
// r/|Σ| alone the survivors grow r-fold per level, harmless for the string default's
// two pruned levels and fatal for deep trees (int64, D = 8: 69,618 survivors at level
// 6 of 7 at n = 2·10^5, 17.8M queries for the next). The second term (ours,
// 2026-11-25) caps the noise survivors of a level at r·n/τ, r for each of the at most
// n/τ items that can be heavy: it leaves the string default as §6.1 has it (its
// candidates are below |Σ|·n/τ) and makes deep trees' growth linear.
// At the string default (τ/σ_P = 3.19) the floor decides, τ_P = 2.29σ_P, 0.9σ_P below
// τ. Why r = 8: §6.1's Gaussian model of SUBTLEX-US at n = 10^7 gives recall 0.90 at τ
// with r = 8 against 0.81 with r = ½ (which made τ_P = τ and lost true heavy hitters
// at the cuts), and r = 16 adds nothing (0.90) for twice the final candidates (1.2M
// against 570k).
constexpr double kTreeHistNoiseChildren = 8;
// Queries one level may make (survivors × |Σ|) before heavy_hitters refuses: about 6 s
// of decoding. Raise the threshold instead.
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
  double noise_children = kTreeHistNoiseChildren;  // r
};
struct HeavyHitters {
  std::vector<HeavyHitter> items;        // f̂ >= τ, by f̂ descending (ties: by item bytes)
  double threshold;                      // τ
  std::vector<double> prune_thresholds;  // τ_P of each level 1..levels-1
  double sigma_prune, sigma_final;       // σ_P, σ_F
  double threshold_in_se;                // τ/σ_P
  std::vector<int64_t> candidates;       // queried at each level 1..levels ([0] = level 1)
  std::vector<int64_t> survivors;        // kept at each level 1..levels-1; [levels-1]: returned
};
// The default τ over √n: 15 for the alphabet domain, 30 for int64 and bytes (deeper trees).
double heavy_default_threshold_scale(const HeavyProtocol& p);
// InvalidParameter when a level would query more than kMaxHeavyCandidates prefixes, or
// for a negative noise_children. An empty summary returns nothing.
HeavyHitters heavy_hitters(const HeavySummary& s, const int64_t* table, const HeavyHittersQuery& q = {});

// ---- codecs ----
// Text: v1:treehist{<the protocol's fields>,n=<n>,prune=[SP row-major],final=[SF]}.
// Two steps, so the caller allocates.
size_t heavy_summary_text_size(const HeavySummary& s);  // including the NUL
void heavy_summary_to_text(const HeavySummary& s, char* out, size_t cap);
size_t heavy_summary_parse_size(const char* text);
void heavy_summary_from_text(const char* text, HeavySummary* out, size_t size);
// Binary: the stored-form header (format 3, family Heavy), the protocol's fields
// (heavy_internal.hpp), i64 n, u8 bytes per counter, then SP and SF at that width.
size_t heavy_summary_binary_size(const HeavySummary& s);
void heavy_summary_to_binary(const HeavySummary& s, uint8_t* out, size_t cap);
size_t heavy_summary_binary_parse_size(const uint8_t* p, size_t len);
void heavy_summary_from_binary(const uint8_t* p, size_t len, HeavySummary* out, size_t size);

}  // namespace ldp
