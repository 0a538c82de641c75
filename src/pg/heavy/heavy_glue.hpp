// ldp.heavy_summary and ldp.heavy_protocol in the server: the summary's codec
// (common/summary_datum.hpp) and what the transition functions, encoders and
// accessors share.
#pragma once

#include "pg/common/summary_datum.hpp"
#include "core/heavy/heavy_summary.hpp"

extern const ldp_pg::SummaryCodec kHeavyCodec;

// The summary argument, readable and validated.
inline const ldp::HeavySummary& heavy_arg(FunctionCallInfo fcinfo, int argno) {
  return *static_cast<const ldp::HeavySummary*>(ldp_pg::summary_arg(fcinfo, argno, &kHeavyCodec));
}
inline ldp::HeavySummary* heavy_core(ldp_pg::LiveSummary* live) {
  return static_cast<ldp::HeavySummary*>(live->core());
}
// A new live summary: empty (the protocol validated, its size bounded, before anything
// is allocated), or a copy of s.
ldp_pg::LiveSummary* heavy_live_new(FunctionCallInfo fcinfo, const ldp::HeavyProtocol& p);
ldp_pg::LiveSummary* heavy_live_copy(FunctionCallInfo fcinfo, const ldp::HeavySummary& s);

// An ldp.heavy_protocol argument (NULL: 22004 naming it), read and validated.
ldp::HeavyProtocol heavy_protocol_arg(FunctionCallInfo fcinfo, int argno);
// The datum of ldp.heavy_protocol holding p, and p's text form (palloc'd).
Datum heavy_protocol_datum(const ldp::HeavyProtocol& p);
char* heavy_protocol_cstring(const ldp::HeavyProtocol& p);
