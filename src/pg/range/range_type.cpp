// ldp.range_summary: the codec (common/summary_datum.hpp), text and binary I/O, live
// states, and the accessors every family has (report_count, epsilon, mechanism,
// protocol). The answers (range_frequency, cdf, quantiles, histogram) are in
// range_accessors.cpp.
#include "pg/common/glue.hpp"  // postgres.h first

#include <string_view>

#include "core/common/stored_form.hpp"
#include "pg/common/core_codec.hpp"
#include "pg/range/range_glue.hpp"

using ldp::RangeSummary;

namespace {

// Format 3 only (the family was never stored otherwise); what the core's codec functions do for it.
using Codec = LDP_CORE_CODEC(RangeSummary, range_summary);

void range_settle(void* core) { ldp::range_flush_deferred(static_cast<ldp::RangeSummary*>(core)); }

}  // namespace

ldp_pg::LiveSummary* range_live_new(FunctionCallInfo fcinfo, const ldp::RangeProtocol& p) {
  size_t size = 0;
  LDP_CORE(size = ldp::range_summary_size(p));  // validated and within the cap: nothing allocated before
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kRangeCodec, size);
  LDP_CORE(ldp::range_summary_init(RangeGlue::core(live), p));
  return live;
}

ldp_pg::LiveSummary* range_live_copy(FunctionCallInfo fcinfo, const RangeSummary& s) {
  const size_t size = ldp::range_summary_size(s);
  ldp_pg::LiveSummary* live = ldp_pg::live_new(fcinfo, &kRangeCodec, size);
  memcpy(live->core(), &s, size);
  return live;
}

LDP_FUNCTION(ldp_range_summary_in) { return Codec::in(fcinfo, &kRangeCodec); }
LDP_FUNCTION(ldp_range_summary_out) { return Codec::out(fcinfo, &kRangeCodec); }
LDP_FUNCTION(ldp_range_summary_recv) { return Codec::recv(fcinfo, &kRangeCodec); }
LDP_FUNCTION(ldp_range_summary_send) { return ldp_pg::summary_send(fcinfo, &kRangeCodec); }

LDP_FUNCTION(ldp_range_report_count) { PG_RETURN_INT64(RangeGlue::arg(fcinfo, 0).n); }
LDP_FUNCTION(ldp_range_epsilon) { PG_RETURN_FLOAT8(RangeGlue::arg(fcinfo, 0).protocol.epsilon); }
LDP_FUNCTION(ldp_range_mechanism) {
  PG_RETURN_TEXT_P(cstring_to_text(ldp::range_mechanism_name(RangeGlue::arg(fcinfo, 0).protocol.mechanism)));
}
LDP_FUNCTION(ldp_range_protocol_of) { PG_RETURN_DATUM(range_protocol_datum(RangeGlue::arg(fcinfo, 0).protocol)); }

// ---- the codec (common/summary_datum.hpp) ----

namespace {
bool names_mechanism(const char* name, size_t len) { return ldp::range_mechanism_known(name, len); }
}  // namespace

const ldp_pg::SummaryCodec kRangeCodec = {
    "range_summary", static_cast<uint8_t>(ldp::Family::Range), "range", names_mechanism,
    ldp_range_summary_in, ldp_range_summary_out, ldp_range_report_count, ldp_range_epsilon,
    ldp_range_mechanism, Codec::read_flat, range_settle, Codec::stored_size, Codec::write_stored};
