// The decoder state of every frequency oracle over [0, k): a flat, versioned,
// trivially copyable header followed by int64 counters, stored by the glue in a
// varlena and updated in place as the aggregate's transition state.
//
// Counters (all integers, so every plan decodes to the same bits):
//   GRR, SUE, OUE, OLH  width k:  C[v], the support count of item v
//   dBitFlip            width 2k: holders[v] (reports that sampled bucket v),
//                                 then ones[v] (of those, reports whose bit was 1)
//   Hadamard            width K:  S[j], the sum of the +1/-1 reports of row j
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/common/stats.hpp"

namespace ldp {

enum class FreqMechanism : uint8_t {
  GRR = 1,
  SUE = 2,
  OUE = 3,
  DBitFlip = 4,
  OLH = 5,
  Hadamard = 6,
};

constexpr int64_t kMaxDomain = int64_t{1} << 22;  // largest k (and K) accepted
constexpr uint8_t kFreqSummaryVersion = 1;

struct FreqParams {
  double epsilon = 0;
  int64_t k = 0;
  int64_t d = 0;  // dBitFlip: buckets per report (fixed by the first row); 0 elsewhere
};

struct FreqSummary {
  uint8_t version;
  uint8_t mechanism;
  // SUE/OUE aggregation states only (never in the text or binary forms): reports
  // counted in a byte-wide pending area that follows the counters, pending_bytes
  // long (0: no pending area). Readers see the counters with the pending counts
  // added (freq_summary_flushed_copy); the glue never hands them anything else.
  uint16_t pending;
  uint32_t pending_bytes;
  double epsilon;
  int64_t k;      // domain size
  int64_t d;      // dBitFlip: buckets per report; 0 elsewhere
  int64_t g;      // OLH: hash range round(e^eps)+1; Hadamard: K (power of two >= k+1); 0 elsewhere
  int64_t width;  // number of int64 counters that follow
  int64_t n;      // reports counted

  FreqMechanism mech() const { return static_cast<FreqMechanism>(mechanism); }
  int64_t* counters() { return reinterpret_cast<int64_t*>(this + 1); }
  const int64_t* counters() const { return reinterpret_cast<const int64_t*>(this + 1); }
};
static_assert(sizeof(FreqSummary) % 8 == 0, "counters must stay 8-byte aligned");

struct FreqMechanismInfo {
  FreqMechanism id;
  const char* name;  // text form: grr, sue, oue, dbitflip, olh, hadamard
};
const FreqMechanismInfo& freq_mechanism(FreqMechanism id);  // throws Internal on unknown
const FreqMechanismInfo* freq_mechanism_by_name(const char* name, size_t len);
// The registry's names, "grr, sue, ...", for messages.
std::string freq_mechanism_names();

// Validates epsilon and k (and d for dBitFlip: 1 <= d <= k); throws InvalidParameter.
void validate_freq_params(FreqMechanism id, const FreqParams& p);
// Bytes needed for a summary (header + counters) with these parameters (validated).
size_t freq_summary_size(FreqMechanism id, const FreqParams& p);
// Initializes an empty summary in caller memory of freq_summary_size bytes.
void freq_summary_init(FreqSummary* s, FreqMechanism id, const FreqParams& p);

// Per-row parameter check: epsilon (bitwise), k and d.
inline bool same_freq_params(const FreqSummary& s, double epsilon, int64_t k, int64_t d) {
  return std::memcmp(&s.epsilon, &epsilon, sizeof(double)) == 0 && s.k == k && s.d == d;
}
[[noreturn]] void throw_freq_params_changed(const FreqSummary& s, double epsilon, int64_t k,
                                            int64_t d);

// ---- the pending area of SUE/OUE aggregation states ----
// Bytes of the pending area for a mechanism and k (SUE, OUE: k rounded up to 8; 0 for
// the others, which have none).
size_t freq_pending_bytes(FreqMechanism id, int64_t k);
// Adds a pending area to a summary just initialized in memory of
// freq_summary_size + freq_pending_bytes bytes.
void freq_summary_add_pending_area(FreqSummary* s);
// Moves the pending counts into the counters (the area stays, empty).
void freq_flush_pending(FreqSummary* s);
// The summary without its pending area, pending counts added, into out (of
// freq_summary_size bytes): what every reader must see.
void freq_summary_flushed_copy(const FreqSummary& s, FreqSummary* out);
// Size of a summary without its pending area.
inline size_t freq_summary_canonical_size(const FreqSummary& s) {
  return sizeof(FreqSummary) + sizeof(int64_t) * static_cast<size_t>(s.width);
}
constexpr int kFreqPendingRows = 255;  // a pending byte never overflows

// ---- adding reports (each validates the report: ImpossibleReport otherwise) ----
// GRR: an item y in [0, k). Inline: it is the whole per-row work of grr_agg.
[[noreturn]] void throw_bad_grr_report(const FreqSummary& s, int64_t y);
inline void freq_add_item(FreqSummary* s, int64_t y) {
  if (s->mechanism != static_cast<uint8_t>(FreqMechanism::GRR) || y < 0 || y >= s->k)
    throw_bad_grr_report(*s, y);
  s->counters()[y] += 1;
  s->n += 1;
}
// SUE / OUE: k bits, bit v at bit position v counting from the most significant
// bit of bytes[0] (PostgreSQL's varbit layout). nbits must equal k.
void freq_add_bits(FreqSummary* s, const uint8_t* bytes, int64_t nbits);
// The same for a report of k bits into a SUE/OUE state with its pending area (the
// aggregates' fast path: the caller has checked the mechanism and the length).
void freq_add_bits_pending(FreqSummary* s, const uint8_t* bytes);
// dBitFlip: d distinct buckets in [0, k) and their bits.
// Every case, with the errors; freq_add_dbitflip takes the common one inline.
void freq_add_dbitflip_general(FreqSummary* s, const int32_t* buckets, const bool* bits, int64_t d);
inline void freq_add_dbitflip(FreqSummary* s, const int32_t* buckets, const bool* bits, int64_t d) {
  // A valid report of a small d (Ding et al. 2017 use d = 1..4): all checks in one pass.
  if (d <= 8 && d == s->d && s->mechanism == static_cast<uint8_t>(FreqMechanism::DBitFlip)) {
    bool ok = true;
    for (int64_t i = 0; i < d; ++i) {
      ok &= buckets[i] >= 0 && buckets[i] < s->k;
      for (int64_t j = 0; j < i; ++j) ok &= buckets[i] != buckets[j];
    }
    if (ok) {
      int64_t* holders = s->counters();
      int64_t* ones = holders + s->k;
      for (int64_t i = 0; i < d; ++i) {
        holders[buckets[i]] += 1;
        ones[buckets[i]] += bits[i] ? 1 : 0;
      }
      s->n += 1;
      return;
    }
  }
  freq_add_dbitflip_general(s, buckets, bits, d);
}
// OLH: the device's seed (its low 32 bits seed XXH32) and y in [0, g).
void freq_add_olh(FreqSummary* s, uint64_t seed, int64_t y);
// Hadamard response: a row in [0, K) and the report (true = +1, false = -1).
void freq_add_hadamard(FreqSummary* s, int64_t row, bool plus_one);

// into += from (same mechanism, epsilon, k, d); throws InvalidParameter.
void freq_summary_merge(FreqSummary* into, const FreqSummary& from);

// ---- estimation ----
enum class Consistency { None, Clip, NormSub };
// Parses none | clip | norm-sub; throws InvalidParameter naming the choices.
Consistency parse_consistency(const char* name, size_t len);

// Unbiased estimates of every item's frequency (fraction of n) and their
// standard errors, written to freq[k] and std_error[k]. Requires n > 0.
void freq_estimate(const FreqSummary& s, double* freq, double* std_error);
// Post-processing (Wang et al., NDSS 2020): clip negatives to 0, or norm-sub
// (Euclidean projection onto the probability simplex). In place.
void apply_consistency(Consistency c, double* freq, int64_t k);

// The OLH hash: XXH32(decimal text of v, seed mod 2^32) mod g.
uint32_t olh_hash(uint64_t seed, int64_t v, int64_t g);

// ---- codecs ----
// Text: v1:grr{epsilon=1,k=4,n=10,counts=[1,2,3,4]} (dbitflip adds d and has
// holders=[..],ones=[..]; hadamard names its counters sums=[..] over K rows).
// Length of the text form, including the terminating NUL.
size_t freq_summary_text_size(const FreqSummary& s);
void freq_summary_to_text(const FreqSummary& s, char* out, size_t cap);
// Parsing is two-step so the caller can allocate: the size of the summary the
// text describes (validated syntax), then the parse into out of that size.
size_t freq_summary_parse_size(const char* text);
void freq_summary_from_text(const char* text, FreqSummary* out, size_t size);
// Binary (send/recv): big-endian header fields then the counters.
size_t freq_summary_binary_size(const FreqSummary& s);
void freq_summary_to_binary(const FreqSummary& s, uint8_t* out, size_t cap);
size_t freq_summary_binary_parse_size(const uint8_t* p, size_t len);
void freq_summary_from_binary(const uint8_t* p, size_t len, FreqSummary* out, size_t size);
// Cheap check of a summary held in memory (version, mechanism, width vs size).
void freq_summary_check(const FreqSummary& s, size_t size);

}  // namespace ldp
