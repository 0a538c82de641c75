// Sketch frequency oracles over an open domain of strings (docs/algorithms/sketches.md):
// a device hashes its item into one of `hashes` rows of `width` columns and sends
// one noisy report; the server keeps integer counters per row and column and
// estimates the count of any candidate string afterwards.
//
//   cms         Apple's Count Mean Sketch: report (j, v ∈ {±1}^width), width bits.
//               Counters P[j][i] = reports of row j with v[i] = +1 ("counts").
//   hcms        Apple's Hadamard Count Mean Sketch: report (j, l, y = ±1), width a
//               power of two. Counters S[j][l] = Σ y ("sums").
//   hashtogram  Bassily et al.'s count sketch with Hadamard compression: report
//               (j, r, y = ±1) with sign hashes g_j, the median over rows. S[j][r].
//
// Hashes (xxHash's XXH64 of the item's UTF-8 bytes): cms and hcms use
// h_j(x) = XXH64(x, seed j) mod width, as pure-LDP does; hashtogram uses
// h_j(x) = XXH64(x, 2j) mod width and g_j(x) = 1 - 2·(XXH64(x, 2j+1) & 1).
//
// Counters are integers, so merges in any order and any parallel plan give the
// same summary bit for bit. Estimation is prepare, then answer: sketch_prepare
// turns the counters into a table once (hcms and hashtogram: one fast
// Walsh–Hadamard transform per row), after which a candidate costs `hashes` hash
// evaluations and table reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace ldp {

enum class SketchMechanism : uint8_t { CMS = 1, HCMS = 2, Hashtogram = 3 };

// Bounds, checked before anything is allocated: a summary holds at most
// kMaxSketchCells counters (8 bytes each: 32 MiB), hashes <= kMaxSketchHashes.
constexpr int64_t kMaxSketchCells = int64_t{1} << 22;
constexpr int64_t kMaxSketchHashes = int64_t{1} << 16;

struct SketchParams {
  double epsilon = 0;
  int64_t hashes = 0;
  int64_t width = 0;
};

// The in-memory summary: this header, then hashes·width int64 counters, row-major.
// An aggregation state also has a pending area after the counters (never in the text
// or binary forms), small enough to stay in the core's cache where the counters of a
// large sketch (2 MiB for 256 x 1024) do not:
//   cms:              a row of byte-wide counters per hash row, pending_stride bytes
//                     each, then a byte per row counting its pending reports (< 255);
//   hcms, hashtogram: the reports themselves, buffered (kSketchSignedBuffer of them,
//                     each a 32-bit cell index and sign), then an int16 per counter
//                     (pending_stride = 2) that a full buffer is applied to with the
//                     cells prefetched, then a uint16 per row counting the reports in
//                     its int16 counters, which are added to the counters before one
//                     could overflow. A report then costs a store into a buffer in the
//                     L1 cache, and the cache misses of a full buffer overlap, where
//                     each report's miss stalled the scan.
// Readers see the counters with the pending counts added (sketch_flush_pending, which
// the glue runs before anything reads a live summary).
struct SketchSummary {
  uint8_t mechanism;
  uint8_t pad[3];
  uint32_t pending_stride;  // 0: no pending area
  double epsilon;
  int64_t hashes;
  int64_t width;
  int64_t n;  // reports counted

  SketchMechanism mech() const { return static_cast<SketchMechanism>(mechanism); }
  int64_t cells() const { return hashes * width; }
  int64_t* counters() { return reinterpret_cast<int64_t*>(this + 1); }
  const int64_t* counters() const { return reinterpret_cast<const int64_t*>(this + 1); }
};
static_assert(sizeof(SketchSummary) % 8 == 0, "counters must stay 8-byte aligned");

struct SketchMechanismInfo {
  SketchMechanism id;
  const char* name;  // cms, hcms, hashtogram
};
const SketchMechanismInfo& sketch_mechanism(SketchMechanism id);  // Internal on unknown
const SketchMechanismInfo* sketch_mechanism_by_name(const char* name, size_t len);
std::string sketch_mechanism_names();  // "cms, hcms, hashtogram", for messages

// Validates epsilon, hashes and width (and the bound on hashes·width); throws
// InvalidParameter.
void validate_sketch_params(SketchMechanism id, const SketchParams& p);
// Bytes of a summary with these (validated) parameters.
size_t sketch_summary_size(SketchMechanism id, const SketchParams& p);
inline size_t sketch_summary_size(const SketchSummary& s) {
  return sizeof(SketchSummary) + sizeof(int64_t) * static_cast<size_t>(s.cells());
}
// An empty summary in caller memory of sketch_summary_size bytes.
void sketch_summary_init(SketchSummary* s, SketchMechanism id, const SketchParams& p);
// The pending area of an aggregation state: its bytes, and its setup in a summary just
// initialized in memory of sketch_summary_size + sketch_pending_bytes bytes.
size_t sketch_pending_bytes(SketchMechanism id, const SketchParams& p);
void sketch_summary_add_pending_area(SketchSummary* s);
// Moves the pending counts into the counters (the area stays, empty).
void sketch_flush_pending(SketchSummary* s);

inline bool same_sketch_params(const SketchSummary& s, double epsilon, int64_t hashes, int64_t width) {
  return std::memcmp(&s.epsilon, &epsilon, sizeof(double)) == 0 && s.hashes == hashes &&
         s.width == width;
}
[[noreturn]] void throw_sketch_params_changed(const SketchSummary& s, double epsilon, int64_t hashes,
                                              int64_t width);

// ---- adding reports (ImpossibleReport for a report the mechanism cannot produce) ----
// cms: row j and `nbits` bits, bit i at bit position i from the most significant bit
// of bytes[0] (PostgreSQL's varbit layout); nbits must equal the width.
void sketch_add_cms(SketchSummary* s, int64_t j, const uint8_t* bytes, int64_t nbits);
// hcms, hashtogram: row j, column (coefficient) l, y = +1 (true) or -1.
void sketch_add_signed(SketchSummary* s, int64_t j, int64_t l, bool plus_one);
// The same for a valid report into a state with its pending area (the aggregates' hot
// paths; the caller has checked j, l, the width and the mechanism).
void sketch_add_cms_pending(SketchSummary* s, int64_t j, const uint8_t* bytes);
constexpr int64_t kSketchSignedBuffer = 1024;  // reports buffered before they are applied
struct SketchSignedPending {                   // the head of a signed pending area
  int64_t buffered;                            // reports in the buffer
  uint32_t buffer[kSketchSignedBuffer];        // cell index << 1 | (y = +1)
};
static_assert(sizeof(SketchSignedPending) % 8 == 0, "the int16 counters stay aligned");
static_assert(kMaxSketchCells <= (int64_t{1} << 31), "a cell index and its sign fit 32 bits");
void sketch_apply_signed_buffer(SketchSummary* s);  // applies a full buffer
inline SketchSignedPending* sketch_signed_pending(SketchSummary* s) {
  return reinterpret_cast<SketchSignedPending*>(s->counters() + s->cells());
}
inline void sketch_add_signed_pending(SketchSummary* s, int64_t j, int64_t l, bool plus_one) {
  SketchSignedPending* p = sketch_signed_pending(s);
  p->buffer[p->buffered] = static_cast<uint32_t>(j * s->width + l) << 1 | static_cast<uint32_t>(plus_one);
  s->n += 1;
  if (++p->buffered == kSketchSignedBuffer) sketch_apply_signed_buffer(s);
}

// into += from (same mechanism and parameters, else InvalidParameter).
void sketch_summary_merge(SketchSummary* into, const SketchSummary& from);

// ---- estimation: prepare, then answer ----
// The hash of the conventions: XXH64 of the item's bytes with this seed.
uint64_t sketch_hash(std::string_view item, uint64_t seed);

// The table the estimates read, hashes·width int64 (cms: the counters; hcms and
// hashtogram: each row's Walsh–Hadamard transform, exact). s.n > 0 not required.
void sketch_prepare(const SketchSummary& s, int64_t* table);

struct SketchEstimate {
  double count;      // unbiased estimate of the item's number of reports
  double std_error;  // its standard error (in reports), from the closed form
};
// Scratch space of sketch_estimate, in uint64_t words (the item's hashes, the rows'
// estimates).
inline size_t sketch_scratch_words(const SketchSummary& s) { return 3 * static_cast<size_t>(s.hashes); }
// One candidate from a prepared table, with scratch of sketch_scratch_words(s)
// words. Requires s.n > 0.
SketchEstimate sketch_estimate(const SketchSummary& s, const int64_t* table, std::string_view item,
                               uint64_t* scratch);

// ---- codecs ----
// Text: v1:cms{epsilon=2,hashes=2,width=4,n=3,counts=[...]} (row-major; hcms and
// hashtogram name their counters sums=[...]). Two steps, so the caller allocates.
size_t sketch_summary_text_size(const SketchSummary& s);  // including the NUL
void sketch_summary_to_text(const SketchSummary& s, char* out, size_t cap);
size_t sketch_summary_parse_size(const char* text);
void sketch_summary_from_text(const char* text, SketchSummary* out, size_t size);
// Binary: the stored form (common/stored_form.hpp, family Sketch): mechanism,
// f64 epsilon, i64 hashes, i64 width, i64 n, then the counters, big-endian.
size_t sketch_summary_binary_size(const SketchSummary& s);
void sketch_summary_to_binary(const SketchSummary& s, uint8_t* out, size_t cap);
size_t sketch_summary_binary_parse_size(const uint8_t* p, size_t len);
void sketch_summary_from_binary(const uint8_t* p, size_t len, SketchSummary* out, size_t size);

}  // namespace ldp
