// The heavy-hitters family's registry of mechanisms, and what every mechanism shares:
// size, init, adding reports, merging, the prepared table (heavy_summary.hpp). The
// mechanisms' encoders and decoders are in their own files (treehist.cpp, pem.cpp,
// sfp.cpp), the decoders' shared pieces in heavy_decode.cpp, the forms in heavy_codec.cpp.
#include "core/heavy/heavy_summary.hpp"

#include <cinttypes>
#include <cstring>

#include "core/common/error.hpp"
#include "core/common/fwht.hpp"
#include "core/common/stored_form.hpp"
#include "core/heavy/heavy_internal.hpp"

namespace ldp {

extern const HeavyMechanismImpl kTreeHistImpl;
extern const HeavyMechanismImpl kPemImpl;
extern const HeavyMechanismImpl kSfpImpl;
extern const HeavyMechanismImpl kBitstogramImpl;

namespace {
const HeavyMechanismImpl* const kMechanisms[] = {&kTreeHistImpl, &kBitstogramImpl, &kPemImpl, &kSfpImpl};

[[noreturn]] void impossible(const char* name, const char* what, int64_t lo, int64_t hi, int64_t got) {
  throw_error(ErrorKind::ImpossibleReport, "%s %s must be in [%" PRId64 ", %" PRId64 "), got %" PRId64, name, what, lo,
              hi, got);
}

void check_mechanism(const HeavySummary& s, HeavyMechanism m) {
  if (s.protocol.mech() != m)
    throw_error(ErrorKind::InvalidParameter, "a %s report cannot be added to a %s summary", heavy_impl(m).name,
                heavy_mechanism_name(s.protocol.mech()));
  if (s.n == INT64_MAX) throw_error(ErrorKind::OutOfRange, "heavy-hitters summary would count more than 2^63 reports");
}

// The cell of an HCMS or count-sketch report (row, coefficient) in one sketch.
int64_t cell(const HeavyProtocol& p, const char* name, const char* row, int64_t j, const char* col, int64_t r) {
  if (j < 0 || j >= p.hashes) impossible(name, row, 0, p.hashes, j);
  if (r < 0 || r >= p.width) impossible(name, col, 0, p.width, r);
  return j * p.width + r;
}
}  // namespace

const HeavyMechanismImpl* heavy_impl_from_byte(uint8_t id) {
  for (const auto* m : kMechanisms)
    if (static_cast<uint8_t>(m->id) == id) return m;
  return nullptr;
}

HeavyImpls heavy_impls() { return {kMechanisms, sizeof kMechanisms / sizeof kMechanisms[0]}; }

const HeavyMechanismImpl& heavy_impl(HeavyMechanism id) {
  const HeavyMechanismImpl* m = heavy_impl_from_byte(static_cast<uint8_t>(id));
  if (m == nullptr) throw_error(ErrorKind::Internal, "unknown heavy-hitters mechanism %d", static_cast<int>(id));
  return *m;
}

size_t heavy_summary_size(const HeavyProtocol& p) {
  validate_heavy_protocol(p);
  return sizeof(HeavySummary) + sizeof(int64_t) * static_cast<size_t>(p.cells());
}

void heavy_summary_init(HeavySummary* s, const HeavyProtocol& p) {
  const size_t size = heavy_summary_size(p);
  std::memset(static_cast<void*>(s), 0, size);
  s->protocol = p;
  s->n = 0;
}

void heavy_add_report(HeavySummary* s, const HeavyReport& r) {
  const HeavyProtocol& p = s->protocol;
  if (p.mech() != HeavyMechanism::TreeHist) check_mechanism(*s, HeavyMechanism::TreeHist);
  const char* name = heavy_mechanism_name(p.mech());
  if (r.level < 1 || r.level > p.levels)
    throw_error(ErrorKind::ImpossibleReport, "%s level must be in [1, levels = %" PRId64 "], got %" PRId64, name,
                p.levels, r.level);
  if (r.hash_index < 0 || r.hash_index >= p.hashes)
    throw_error(ErrorKind::ImpossibleReport, "%s hash_index must be in [0, hashes = %" PRId64 "), got %" PRId64, name,
                p.hashes, r.hash_index);
  if (r.coefficient < 0 || r.coefficient >= p.width)
    throw_error(ErrorKind::ImpossibleReport, "%s coefficient must be in [0, width = %" PRId64 "), got %" PRId64, name,
                p.width, r.coefficient);
  if (s->n == INT64_MAX) throw_error(ErrorKind::OutOfRange, "heavy-hitters summary would count more than 2^63 reports");
  const int64_t cell = r.hash_index * p.width + r.coefficient;
  s->prune(r.level)[cell] += r.prefix_report ? 1 : -1;
  s->final_counters()[cell] += r.item_report ? 1 : -1;
  s->n += 1;
}

namespace {
// The pending area: the buffer, then an int8 sum per counter.
size_t sums_bytes(int64_t cells) { return static_cast<size_t>((cells + 7) / 8 * 8); }
int8_t* pending_sums(HeavySummary* s) { return reinterpret_cast<int8_t*>(heavy_pending_buffer(s) + kHeavyBuffer); }
// A sum that reaches ±kSpill is added to its counter and starts again at 0, so that the
// int8s hold [-kSpill + 1, kSpill - 1] between increments and never overflow.
constexpr int kSpill = 127;
}  // namespace

size_t heavy_pending_bytes(const HeavyProtocol& p) { return sizeof(uint32_t) * kHeavyBuffer + sums_bytes(p.cells()); }

void heavy_summary_add_pending_area(HeavySummary* s) {
  s->pending = 1;
  s->buffered = 0;
  s->block = s->protocol.hashes * s->protocol.width;
  std::memset(heavy_pending_buffer(s), 0, heavy_pending_bytes(s->protocol));
}

// The buffered increments into the int8 sums, a sum at ±kSpill into its counter (the
// sum's own cache line tells: no other memory is read per increment). Prefetching a few
// increments ahead keeps several misses in flight.
void heavy_apply_buffer(HeavySummary* s) {
  int8_t* sums = pending_sums(s);
  int64_t* counters = s->counters();
  const uint32_t* b = heavy_pending_buffer(s);
  const int64_t count = s->buffered;
  constexpr int64_t kAhead = 16;
  for (int64_t i = 0; i < count; ++i) {
    if (i + kAhead < count) __builtin_prefetch(sums + (b[i + kAhead] >> 1), 1);
    const uint32_t cell = b[i] >> 1;
    const int v = sums[cell] + static_cast<int>(b[i] & 1) * 2 - 1;
    if (__builtin_expect(v == kSpill || v == -kSpill, 0)) {
      counters[cell] += v;
      sums[cell] = 0;
    } else {
      sums[cell] = static_cast<int8_t>(v);
    }
  }
  if (count > 0) s->pending = 2;  // sums to flush
  s->buffered = 0;
}

void heavy_flush_pending(HeavySummary* s) {
  if (s->pending == 0) return;
  heavy_apply_buffer(s);
  if (s->pending == 1) return;  // every sum 0 (settled before, nothing added since)
  int8_t* sums = pending_sums(s);
  int64_t* c = s->counters();
  for (int64_t i = 0, n = s->cells(); i < n; ++i) c[i] += sums[i];
  std::memset(sums, 0, static_cast<size_t>(s->cells()));
  s->pending = 1;
}

void pem_add_report(HeavySummary* s, const PemReport& r) {
  check_mechanism(*s, HeavyMechanism::PEM);
  const HeavyProtocol& p = s->protocol;
  if (r.group < 0 || r.group >= p.levels) impossible("pem", "group_index", 0, p.levels, r.group);
  const int64_t c = cell(p, "pem", "hash_index", r.hash_index, "coefficient", r.coefficient);
  s->sketch(r.group)[c] += r.report ? 1 : -1;
  s->n += 1;
}

void sfp_add_report(HeavySummary* s, const SfpReport& r) {
  check_mechanism(*s, HeavyMechanism::SFP);
  const HeavyProtocol& p = s->protocol;
  if (r.position < 0 || r.position >= p.max_length || r.position % p.chars_per_level != 0)
    throw_error(ErrorKind::ImpossibleReport,
                "sfp fragment_start must be a multiple of chars_per_level = %" PRId64 " in [0, max_length = %" PRId64
                "), got %" PRId64,
                p.chars_per_level, p.max_length, r.position);
  const int64_t c = cell(p, "sfp", "hash_index", r.hash_index, "coefficient", r.coefficient);
  const int64_t w = cell(p, "sfp", "word_hash_index", r.word_hash_index, "word_coefficient", r.word_coefficient);
  s->sketch(r.position / p.chars_per_level)[c] += r.fragment_report ? 1 : -1;
  s->sketch(p.levels)[w] += r.word_report ? 1 : -1;
  s->n += 1;
}

void bitstogram_add_report(HeavySummary* s, const BitstogramReport& r) {
  check_mechanism(*s, HeavyMechanism::Bitstogram);
  const HeavyProtocol& p = s->protocol;
  if (r.coordinate < 1 || r.coordinate > p.levels)
    throw_error(ErrorKind::ImpossibleReport, "bitstogram coordinate must be in [1, levels = %" PRId64 "], got %" PRId64,
                p.levels, r.coordinate);
  const int64_t rows = bitstogram_hadamard_order(p);
  if (r.hadamard_row < 0 || r.hadamard_row >= rows) impossible("bitstogram", "hadamard_row", 0, rows, r.hadamard_row);
  const int64_t c = cell(p, "bitstogram", "hash_index", r.hash_index, "coefficient", r.coefficient);
  s->sketch(r.coordinate - 1)[r.hadamard_row] += r.symbol_report ? 1 : -1;
  s->sketch(p.levels)[c] += r.item_report ? 1 : -1;
  s->n += 1;
}

void heavy_summary_merge(HeavySummary* into, const HeavySummary& from) {
  if (!same_heavy_protocol(into->protocol, from.protocol))
    throw_error(ErrorKind::InvalidParameter, "cannot merge heavy-hitters summaries of different protocols: %s and %s",
                heavy_protocol_to_text(into->protocol).c_str(), heavy_protocol_to_text(from.protocol).c_str());
  merge_counters(&into->n, into->counters(), from.n, from.counters(), into->cells(), "heavy-hitters summary");
}

void heavy_prepare(const HeavySummary& s, int64_t* table) {
  const int64_t m = s.protocol.width, rows = s.protocol.sketches() * s.protocol.hashes;
  std::memcpy(table, s.counters(), sizeof(int64_t) * static_cast<size_t>(s.cells()));
  InterruptPoll poll;
  const int64_t row_work = fwht_work(m);
  for (int64_t i = 0; i < rows; ++i) {
    fwht_exact(reinterpret_cast<uint64_t*>(table + i * m), m);  // Σ|S| <= n
    poll.tick(row_work);
  }
  if (const auto prepare = heavy_impl(s.protocol.mech()).prepare) prepare(s, table);
}

}  // namespace ldp
