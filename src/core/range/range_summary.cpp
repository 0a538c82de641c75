// The range family's summary: size, init, adding reports, merging, the device encoder
// and the prepared decode (range_summary.hpp). The forms are in range_codec.cpp, the
// mechanism's mathematics in haar.cpp, the quantile search in range_quantile.cpp.
#include "core/range/range_summary.hpp"

#include <cinttypes>
#include <cstring>
#include <string>

#include "core/common/error.hpp"
#include "core/common/stored_form.hpp"

namespace ldp {

void check_range_summary_bits(const RangeProtocol& p) {
  if (p.domain_bits > kMaxRangeSummaryBits)
    throw_error(ErrorKind::LimitExceeded,
                "a range summary of domain_bits = %d would hold %" PRId64
                " counters (%" PRId64 " MiB); this build keeps summaries of at most domain_bits = %d (%d MiB)",
                p.domain_bits, static_cast<int64_t>(p.domain_bits) + (int64_t{1} << p.domain_bits) - 1,
                (int64_t{1} << p.domain_bits) * 8 >> 20, kMaxRangeSummaryBits, (1 << kMaxRangeSummaryBits) * 8 >> 20);
}

size_t range_summary_size(const RangeProtocol& p) {
  validate_range_protocol(p);
  check_range_summary_bits(p);
  return sizeof(RangeSummary) +
         sizeof(int64_t) * static_cast<size_t>(p.domain_bits + (int64_t{1} << p.domain_bits) - 1);
}

void range_summary_init(RangeSummary* s, const RangeProtocol& p) {
  const size_t size = range_summary_size(p);
  std::memset(static_cast<void*>(s), 0, size);
  s->protocol = p;
  s->n = 0;
}

void range_add_report(RangeSummary* s, int64_t level, int64_t row, bool plus_one) {
  haar_check_report(s->levels(), level, row);
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

HaarReport range_encode(const RangeProtocol& p, double value, RandomSource& rng) {
  validate_range_protocol(p);
  const int64_t bucket = range_bucket(p, value);
  return haar_encode(p, bucket, rng);  // the only mechanism (validate_range_protocol)
}

// ---- the prepared decode ----

size_t range_prepared_size(const RangeProtocol& p) {
  const int64_t d = p.domain();
  return sizeof(RangePrepared) + sizeof(int64_t) * static_cast<size_t>(p.domain_bits) +
         sizeof(double) * static_cast<size_t>(d - 1) + sizeof(CdfBlock) * static_cast<size_t>(CdfSearch::blocks_for(d));
}

void range_prepare(const RangeSummary& s, RangePrepared* out, size_t size) {
  if (size != range_prepared_size(s.protocol))
    throw_error(ErrorKind::Internal, "range prepared decode: buffer of %zu bytes for %zu", size,
                range_prepared_size(s.protocol));
  out->protocol = s.protocol;
  out->n = s.n;
  out->c2 = haar_c2(s.protocol.epsilon);
  out->blocks_built = 0;
  std::memcpy(out->level_counts(), s.level_counts(), sizeof(int64_t) * static_cast<size_t>(s.levels()));
  haar_decode(s.protocol, s.level_counts(), s.row_sums(), out->coefficients());
}

HaarView range_view(const RangePrepared& d) {
  return HaarView{d.protocol.domain_bits, d.c2, d.level_counts(), d.coefficients()};
}

namespace {
LinearAnswer view_prefix(const void* context, int64_t x) { return static_cast<const HaarView*>(context)->prefix(x); }
}  // namespace

void range_prepare_quantiles(RangePrepared* d) {
  if (d->blocks_built) return;
  const HaarView v = range_view(*d);
  CdfSearch::build(d->protocol.domain(), view_prefix, &v, d->blocks());
  d->blocks_built = 1;
}

QuantileAnswer range_quantile(const RangePrepared& d, double phi, double z) {
  if (!d.blocks_built) throw_error(ErrorKind::Internal, "range_quantile before range_prepare_quantiles");
  const HaarView v = range_view(d);
  return CdfSearch(d.protocol.domain(), view_prefix, &v, d.blocks()).quantile(phi, z);
}

}  // namespace ldp
