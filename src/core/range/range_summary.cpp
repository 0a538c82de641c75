// The range family's registry of mechanisms, and what every mechanism shares: size,
// init, adding reports, merging, the device encoder and the prepared decode
// (range_summary.hpp). The forms are in range_codec.cpp, each mechanism's mathematics in
// its own file (haar.cpp, hh.cpp), the quantile search in range_quantile.cpp.
#include "core/range/range_summary.hpp"

#include <cinttypes>
#include <cstring>
#include <string>

#include "core/common/error.hpp"
#include "core/common/stored_form.hpp"
#include "core/range/range_internal.hpp"
#include "core/range/square_wave.hpp"

namespace ldp {

extern const RangeMechanismImpl kHaarImpl;
extern const RangeMechanismImpl kHhImpl;
extern const RangeMechanismImpl kSwImpl;

namespace {
const RangeMechanismImpl* const kMechanisms[] = {&kHaarImpl, &kHhImpl, &kSwImpl};
}  // namespace

const RangeMechanismImpl* range_impl_from_byte(uint8_t id) {
  for (const auto* m : kMechanisms)
    if (static_cast<uint8_t>(m->id) == id) return m;
  return nullptr;
}

RangeImpls range_impls() { return {kMechanisms, sizeof kMechanisms / sizeof kMechanisms[0]}; }

const RangeMechanismImpl& range_impl(RangeMechanism id) {
  const RangeMechanismImpl* m = range_impl_from_byte(static_cast<uint8_t>(id));
  if (m == nullptr) throw_error(ErrorKind::Internal, "unknown range mechanism %d", static_cast<int>(id));
  return *m;
}

int64_t range_summary_cells(const RangeProtocol& p) {
  const RangeMechanismImpl& m = range_impl(p.mechanism);
  int64_t cells = m.counts(p);
  if (m.segment != nullptr)
    for (int64_t i = 0, counts = m.counts(p); i < counts; ++i) cells += m.segment(p, i);
  return cells;
}

void check_range_summary_bits(const RangeProtocol& p) {
  if (p.domain_bits <= kMaxRangeSummaryBits) return;
  RangeProtocol widest = p;
  widest.domain_bits = kMaxRangeSummaryBits;
  const int64_t cells = range_summary_cells(p), cap = range_summary_cells(widest);
  if (cells > cap) {  // a mechanism whose counters do not grow with the domain (sw) passes
    throw_error(ErrorKind::LimitExceeded,
                "a range summary of domain_bits = %d would hold %" PRId64 " counters (%" PRId64
                " MiB); this build keeps summaries of at most domain_bits = %d (%" PRId64 " MiB)",
                p.domain_bits, cells, cells * 8 >> 20, kMaxRangeSummaryBits, cap * 8 >> 20);
  }
}

size_t range_summary_size(const RangeProtocol& p) {
  validate_range_protocol(p);
  check_range_summary_bits(p);
  return sizeof(RangeSummary) + sizeof(int64_t) * static_cast<size_t>(range_summary_cells(p));
}

void range_summary_init(RangeSummary* s, const RangeProtocol& p) {
  const size_t size = range_summary_size(p);
  std::memset(static_cast<void*>(s), 0, size);
  const RangeMechanismImpl& m = range_impl(p.mechanism);
  s->protocol = p;
  s->n = 0;
  s->count_cells = m.counts(p);
  s->first_level = m.first_level;
  s->segments = m.segment != nullptr ? s->count_cells : 0;
  if (s->segments > kMaxRangeSegments)
    throw_error(ErrorKind::Internal, "a range mechanism with %" PRId64 " segments", s->segments);
  int64_t at = s->count_cells;
  for (int64_t i = 0; i < s->segments; ++i) {
    s->segment_at[i] = at;
    at += m.segment(p, i);
  }
  s->segment_at[s->segments] = at;
  s->cell_count = at;
}

void range_flush_deferred(RangeSummary* s) {
  int64_t* c = s->counters();
  for (int64_t& due : s->deferred) {
    if (due != 0) c[(due >> 1) - 1] += (due & 1) != 0 ? 1 : -1;
    due = 0;
  }
  s->deferred_next = 0;
}

bool range_takes_tree_reports(const RangeProtocol& p) { return range_impl(p.mechanism).check_report != nullptr; }

void range_add_report(RangeSummary* s, int64_t level, int64_t row, bool plus_one) {
  const RangeMechanismImpl& m = range_impl(s->protocol.mechanism);
  if (m.check_report == nullptr)
    throw_error(ErrorKind::ImpossibleReport, "a %s summary takes no (level, hadamard_row, report) reports", m.name);
  m.check_report(s->protocol, level, row);
  if (!range_report_fits(s, level, row))
    throw_error(ErrorKind::Internal, "a %s report passed its checks but not the summary's layout", m.name);
  if (s->n == INT64_MAX) throw_error(ErrorKind::OutOfRange, "range summary would count more than 2^63 reports");
  range_add_unchecked(s, level, row, plus_one);
}

void range_summary_merge(RangeSummary* into, const RangeSummary& from) {
  if (!same_range_protocol(into->protocol, from.protocol)) {
    const std::string a = range_protocol_to_text(into->protocol), b = range_protocol_to_text(from.protocol);
    throw_error(ErrorKind::InvalidParameter, "cannot merge range summaries of different protocols: %s and %s",
                a.c_str(), b.c_str());
  }
  merge_counters(&into->n, into->counters(), from.n, from.counters(), into->cells(), "range summaries");
}

RangeReport range_encode(const RangeProtocol& p, double value, RandomSource& rng) {
  validate_range_protocol(p);
  const RangeMechanismImpl& m = range_impl(p.mechanism);
  if (m.encode == nullptr)
    throw_error(ErrorKind::InvalidParameter, "a %s protocol's reports are not (level, hadamard_row, report)", m.name);
  const int64_t bucket = range_bucket(p, value);
  return m.encode(p, bucket, rng);
}

// ---- the prepared decode ----

size_t range_prepared_size(const RangeProtocol& p) {
  const RangeMechanismImpl& m = range_impl(p.mechanism);
  const size_t blocks = m.prefix != nullptr ? static_cast<size_t>(CdfSearch::blocks_for(p.domain())) : 0;
  return sizeof(RangePrepared) + m.prepared_bytes(p) + sizeof(CdfBlock) * blocks;
}

void range_prepare(const RangeSummary& s, RangePrepared* out, size_t size) {
  if (size != range_prepared_size(s.protocol))
    throw_error(ErrorKind::Internal, "range prepared decode: buffer of %zu bytes for %zu", size,
                range_prepared_size(s.protocol));
  const RangeMechanismImpl& m = range_impl(s.protocol.mechanism);
  out->protocol = s.protocol;
  out->n = s.n;
  out->area_bytes = static_cast<int64_t>(m.prepared_bytes(s.protocol));
  out->blocks_built = 0;
  m.prepare(s, out->area());
}

bool range_has_density(const RangeProtocol& p) { return range_impl(p.mechanism).density != nullptr; }

SwDensity range_density(const RangePrepared& d, const SwDensityQuery& q) {
  const RangeMechanismImpl& m = range_impl(d.protocol.mechanism);
  if (m.density == nullptr)
    throw_error(ErrorKind::InvalidParameter, "density needs a Square Wave (sw) summary; a %s summary has none", m.name);
  return m.density(d, q);
}

bool range_has_linear(const RangeProtocol& p) {
  const RangeMechanismImpl& m = range_impl(p.mechanism);
  return m.prefix != nullptr && m.range != nullptr;
}

void range_require_linear(const RangeProtocol& p, const char* what) {
  const RangeMechanismImpl& m = range_impl(p.mechanism);
  if (!range_has_linear(p))
    throw_error(ErrorKind::InvalidParameter, "%s needs a mechanism with linear answers; a %s summary has none", what,
                m.name);
}

LinearAnswer range_prefix(const RangePrepared& d, int64_t x) {
  const RangeMechanismImpl& m = range_impl(d.protocol.mechanism);
  if (m.prefix == nullptr) throw_error(ErrorKind::Internal, "a %s summary has no prefixes", m.name);
  return m.prefix(d.protocol, d.area(), x);
}

LinearAnswer range_answer(const RangePrepared& d, int64_t lo, int64_t hi) {
  const RangeMechanismImpl& m = range_impl(d.protocol.mechanism);
  if (m.range == nullptr) throw_error(ErrorKind::Internal, "a %s summary has no ranges", m.name);
  return m.range(d.protocol, d.area(), lo, hi);
}

namespace {
LinearAnswer prepared_prefix(const void* context, int64_t x) {
  return range_prefix(*static_cast<const RangePrepared*>(context), x);
}
}  // namespace

void range_prepare_quantiles(RangePrepared* d) {
  if (d->blocks_built) return;
  range_require_linear(d->protocol, "a quantile");
  CdfSearch::build(d->protocol.domain(), prepared_prefix, d, d->blocks());
  d->blocks_built = 1;
}

double range_quantiles_work(const RangeProtocol& p) {
  const RangeMechanismImpl& m = range_impl(p.mechanism);
  return m.prefix_cost == nullptr ? 0 : static_cast<double>(p.domain()) * m.prefix_cost(p);
}

QuantileAnswer range_quantile(const RangePrepared& d, double phi, double z) {
  if (!d.blocks_built) throw_error(ErrorKind::Internal, "range_quantile before range_prepare_quantiles");
  return CdfSearch(d.protocol.domain(), prepared_prefix, &d, d.blocks()).quantile(phi, z);
}

}  // namespace ldp
