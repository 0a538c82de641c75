// The sketch family's registry and what every sketch mechanism shares: parameters,
// adding reports, merging, hashing and the prepared table.
#include "core/sketch/sketch_summary.hpp"

#include <cinttypes>
#include <cstring>
#include <vector>

#include "core/common/bit_counters.hpp"
#include "core/common/error.hpp"
#include "core/common/fwht.hpp"
#include "core/common/stats.hpp"
#include "core/common/stored_form.hpp"
#include "core/oracles/hcms_oracle.hpp"
#include "core/sketch/sketch_internal.hpp"

namespace ldp {

extern const SketchMechanismImpl kCmsImpl;
extern const SketchMechanismImpl kHcmsImpl;
extern const SketchMechanismImpl kHashtogramImpl;

namespace {
const SketchMechanismImpl* const kMechanisms[] = {&kCmsImpl, &kHcmsImpl, &kHashtogramImpl};
}  // namespace

const SketchMechanismImpl* sketch_impl_from_byte(uint8_t id) {
  for (const auto* m : kMechanisms)
    if (static_cast<uint8_t>(m->info.id) == id) return m;
  return nullptr;
}

const SketchMechanismImpl& sketch_impl(SketchMechanism id) {
  const SketchMechanismImpl* m = sketch_impl_from_byte(static_cast<uint8_t>(id));
  if (m == nullptr) throw_error(ErrorKind::Internal, "unknown sketch mechanism %d", static_cast<int>(id));
  return *m;
}

const SketchMechanismInfo& sketch_mechanism(SketchMechanism id) { return sketch_impl(id).info; }

const SketchMechanismInfo* sketch_mechanism_by_name(const char* name, size_t len) {
  for (const auto* m : kMechanisms)
    if (std::strlen(m->info.name) == len && std::memcmp(m->info.name, name, len) == 0) return &m->info;
  return nullptr;
}

std::string sketch_mechanism_names() {
  std::string names;
  for (const auto* m : kMechanisms) names += (names.empty() ? "" : ", ") + std::string(m->info.name);
  return names;
}

void validate_sketch_params(SketchMechanism id, const SketchParams& p) {
  const SketchMechanismImpl& m = sketch_impl(id);
  check_epsilon(p.epsilon);
  if (p.hashes < 1 || p.hashes > kMaxSketchHashes)
    throw_error(ErrorKind::InvalidParameter, "hashes must be in [1, %" PRId64 "], got %" PRId64,
                kMaxSketchHashes, p.hashes);
  if (p.width < 2 || p.width > kMaxSketchCells)
    throw_error(ErrorKind::InvalidParameter, "width must be in [2, %" PRId64 "], got %" PRId64,
                kMaxSketchCells, p.width);
  if (m.power_of_two && (p.width & (p.width - 1)) != 0)
    throw_error(ErrorKind::InvalidParameter, "width must be a power of two for %s, got %" PRId64,
                m.info.name, p.width);
  if (p.hashes > kMaxSketchCells / p.width)
    throw_error(ErrorKind::InvalidParameter,
                "hashes * width must be at most %" PRId64 " (a summary of 32 MiB), got %" PRId64
                " * %" PRId64,
                kMaxSketchCells, p.hashes, p.width);
}

void check_sketch_encoder(SketchMechanism id, double epsilon, int64_t hashes, int64_t width) {
  validate_sketch_params(id, SketchParams{epsilon, hashes, width});
}

size_t sketch_summary_size(SketchMechanism id, const SketchParams& p) {
  validate_sketch_params(id, p);
  return sizeof(SketchSummary) + sizeof(int64_t) * static_cast<size_t>(p.hashes * p.width);
}

void sketch_summary_init(SketchSummary* s, SketchMechanism id, const SketchParams& p) {
  validate_sketch_params(id, p);
  std::memset(s, 0, sizeof(SketchSummary) + sizeof(int64_t) * static_cast<size_t>(p.hashes * p.width));
  s->mechanism = static_cast<uint8_t>(id);
  s->epsilon = p.epsilon;
  s->hashes = p.hashes;
  s->width = p.width;
}

void throw_sketch_params_changed(const SketchSummary& s, double epsilon, int64_t hashes, int64_t width) {
  throw_error(ErrorKind::InvalidParameter,
              "%s parameters changed between rows: epsilon %.17g, hashes %" PRId64 ", width %" PRId64
              " then epsilon %.17g, hashes %" PRId64 ", width %" PRId64,
              sketch_mechanism(s.mech()).name, s.epsilon, s.hashes, s.width, epsilon, hashes, width);
}

namespace {
[[noreturn]] void bad_row(const SketchSummary& s, int64_t j) {
  throw_error(ErrorKind::ImpossibleReport, "%s hash_index must be in [0, hashes = %" PRId64 "), got %" PRId64,
              sketch_mechanism(s.mech()).name, s.hashes, j);
}
void check_mechanism(const SketchSummary& s, bool want_signed) {
  if (sketch_impl(s.mech()).signed_counters != want_signed)
    throw_error(ErrorKind::Internal, "a %s report added to a %s summary",
                want_signed ? "signed" : "cms", sketch_mechanism(s.mech()).name);
}
}  // namespace

namespace {
constexpr int kPendingRows = 255;  // a byte counter never overflows
uint8_t* pending_row(SketchSummary* s, int64_t j) {
  return reinterpret_cast<uint8_t*>(s->counters() + s->cells()) + j * s->pending_stride;
}
uint8_t* pending_counts(SketchSummary* s) { return pending_row(s, s->hashes); }
void flush_row(SketchSummary* s, int64_t j) {
  flush_byte_counters(pending_row(s, j), s->counters() + j * s->width, s->width);
  pending_counts(s)[j] = 0;
}
}  // namespace

namespace {
// The signed pending area: the buffer, the int16 counters, the rows' report counts.
size_t signed_sums_bytes(int64_t cells) { return static_cast<size_t>((cells * 2 + 7) / 8 * 8); }
size_t signed_rows_bytes(int64_t hashes) { return static_cast<size_t>((hashes * 2 + 7) / 8 * 8); }
int16_t* signed_sums(SketchSummary* s) {
  return reinterpret_cast<int16_t*>(sketch_signed_pending(s) + 1);
}
uint16_t* signed_row_counts(SketchSummary* s) {
  return reinterpret_cast<uint16_t*>(reinterpret_cast<char*>(signed_sums(s)) + signed_sums_bytes(s->cells()));
}
}  // namespace

size_t sketch_pending_bytes(SketchMechanism id, const SketchParams& p) {
  if (sketch_impl(id).signed_counters)
    return sizeof(SketchSignedPending) + signed_sums_bytes(p.hashes * p.width) + signed_rows_bytes(p.hashes);
  const size_t stride = static_cast<size_t>((p.width + 7) / 8 * 8);  // whole words of 8 counters
  const size_t counts = static_cast<size_t>((p.hashes + 7) / 8 * 8);
  return static_cast<size_t>(p.hashes) * stride + counts;
}

void sketch_summary_add_pending_area(SketchSummary* s) {
  const bool is_signed = sketch_impl(s->mech()).signed_counters;
  s->pending_stride = is_signed ? 2 : static_cast<uint32_t>((s->width + 7) / 8 * 8);
  std::memset(s->counters() + s->cells(), 0, sketch_pending_bytes(s->mech(), {s->epsilon, s->hashes, s->width}));
}

namespace {
// A row's int16 counters take at most this many reports before they are added to the
// counters: an int16 never overflows.
constexpr uint16_t kSignedRowMax = 32767;

void flush_signed_row(SketchSummary* s, int64_t j) {
  const int64_t m = s->width;
  int16_t* sums = signed_sums(s) + j * m;
  int64_t* c = s->counters() + j * m;
  for (int64_t i = 0; i < m; ++i) c[i] += sums[i];
  std::memset(sums, 0, sizeof(int16_t) * static_cast<size_t>(m));
  signed_row_counts(s)[j] = 0;
}

// The buffered reports into the int16 counters (the width is a power of two: a cell's
// row is its index shifted). The cells of a large sketch are cache misses: prefetching
// a few reports ahead keeps several in flight.
void apply_signed_buffer(SketchSummary* s) {
  SketchSignedPending* p = sketch_signed_pending(s);
  int16_t* sums = signed_sums(s);
  uint16_t* rows = signed_row_counts(s);
  const int shift = __builtin_ctzll(static_cast<uint64_t>(s->width));
  const uint32_t* b = p->buffer;
  const int64_t count = p->buffered;
  constexpr int64_t kAhead = 16;
  for (int64_t i = 0; i < count; ++i) {
    if (i + kAhead < count) __builtin_prefetch(sums + (b[i + kAhead] >> 1), 1);
    const uint32_t cell = b[i] >> 1;
    sums[cell] += static_cast<int16_t>(static_cast<int>(b[i] & 1) * 2 - 1);
    if (++rows[cell >> shift] == kSignedRowMax) flush_signed_row(s, cell >> shift);
  }
  p->buffered = 0;
}
}  // namespace

void sketch_apply_signed_buffer(SketchSummary* s) { apply_signed_buffer(s); }

void sketch_flush_pending(SketchSummary* s) {
  if (s->pending_stride == 0) return;
  if (sketch_impl(s->mech()).signed_counters) {
    apply_signed_buffer(s);
    const uint16_t* rows = signed_row_counts(s);
    for (int64_t j = 0; j < s->hashes; ++j)
      if (rows[j] != 0) flush_signed_row(s, j);
    return;
  }
  const uint8_t* counts = pending_counts(s);
  for (int64_t j = 0; j < s->hashes; ++j)
    if (counts[j] != 0) flush_row(s, j);
}

void sketch_add_cms(SketchSummary* s, int64_t j, const uint8_t* bytes, int64_t nbits) {
  check_mechanism(*s, false);
  if (j < 0 || j >= s->hashes) bad_row(*s, j);
  if (nbits != s->width)
    throw_error(ErrorKind::ImpossibleReport,
                "cms report must have width = %" PRId64 " bits (the length of the first report), got %" PRId64,
                s->width, nbits);
  if (s->pending_stride != 0) {
    sketch_add_cms_pending(s, j, bytes);
    return;
  }
  add_set_bits(bytes, nbits, s->counters() + j * s->width);
  s->n += 1;
}

void sketch_add_cms_pending(SketchSummary* s, int64_t j, const uint8_t* bytes) {
  add_bits_to_byte_counters(bytes, s->width, reinterpret_cast<uint64_t*>(pending_row(s, j)));
  if (++pending_counts(s)[j] == kPendingRows) flush_row(s, j);
  s->n += 1;
}

void sketch_add_signed(SketchSummary* s, int64_t j, int64_t l, bool plus_one) {
  check_mechanism(*s, true);
  if (j < 0 || j >= s->hashes) bad_row(*s, j);
  if (l < 0 || l >= s->width)
    throw_error(ErrorKind::ImpossibleReport,
                "%s coefficient must be in [0, width = %" PRId64 "), got %" PRId64,
                sketch_mechanism(s->mech()).name, s->width, l);
  if (s->pending_stride != 0) {
    sketch_add_signed_pending(s, j, l, plus_one);
    return;
  }
  s->counters()[j * s->width + l] += plus_one ? 1 : -1;
  s->n += 1;
}

// `from` is settled (no pending counts: the glue flushes a live summary before reading
// it); `into` may be an aggregation state with pending counts, kept apart.
void sketch_summary_merge(SketchSummary* into, const SketchSummary& from) {
  if (into->mechanism != from.mechanism || !same_sketch_params(*into, from.epsilon, from.hashes, from.width))
    throw_error(ErrorKind::InvalidParameter,
                "cannot merge sketch summaries of different mechanisms or parameters: %s (epsilon "
                "%.17g, hashes %" PRId64 ", width %" PRId64 ") and %s (epsilon %.17g, hashes %" PRId64
                ", width %" PRId64 ")",
                sketch_mechanism(into->mech()).name, into->epsilon, into->hashes, into->width,
                sketch_mechanism(from.mech()).name, from.epsilon, from.hashes, from.width);
  merge_counters(&into->n, into->counters(), from.n, from.counters(), into->cells(), "sketch summary");
}

uint64_t sketch_hash(std::string_view item, uint64_t seed) {
  return sketch_xxh64(item, seed);
}

double sketch_row_sum(const SketchSummary& s, const int64_t* table, std::string_view item, uint64_t* scratch) {
  return sketch_table_row_sum(table, s.hashes, s.width, item, scratch);
}

void sketch_prepare(const SketchSummary& s, int64_t* table) {
  const size_t bytes = sizeof(int64_t) * static_cast<size_t>(s.cells());
  std::memcpy(table, s.counters(), bytes);
  if (!sketch_impl(s.mech()).transformed) return;
  InterruptPoll poll;
  const int64_t row_work = fwht_work(s.width);
  for (int64_t j = 0; j < s.hashes; ++j) {
    fwht_exact(reinterpret_cast<uint64_t*>(table + j * s.width), s.width);  // exact: Σ|S| <= n
    poll.tick(row_work);
  }
}

SketchEstimate sketch_estimate(const SketchSummary& s, const int64_t* table, std::string_view item,
                               uint64_t* scratch) {
  return sketch_impl(s.mech()).estimate(s, table, item, scratch);
}

}  // namespace ldp
