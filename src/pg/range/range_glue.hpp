// ldp.range_summary and ldp.range_protocol in the server: the summary's codec
// (common/summary_datum.hpp), the aggregate's row, and what the transition function,
// builder, encoder and accessors share.
#pragma once

#include "pg/common/summary_datum.hpp"
#include "core/range/range_summary.hpp"

extern const ldp_pg::SummaryCodec kRangeCodec;
// RangeGlue::arg (validated), core, stored, adopt, combine.
using RangeGlue = ldp_pg::SummaryGlue<ldp::RangeSummary, &kRangeCodec>;

// range_trans(state, level, hadamard_row, report, protocol): the report's three columns, then the
// protocol (range_aggregates.cpp).
inline constexpr ldp_pg::TransLayout kRangeTrans{"range_trans", 3};
// range_sw_trans(state, report, protocol): Square Wave's one real, then the protocol.
inline constexpr ldp_pg::TransLayout kRangeSwTrans{"range_sw_trans", 1};

// A new live summary: empty (the protocol validated, its size within the cap —
// 54000 past it — before anything is allocated), or a copy of s.
ldp_pg::LiveSummary* range_live_new(FunctionCallInfo fcinfo, const ldp::RangeProtocol& p);
ldp_pg::LiveSummary* range_live_copy(FunctionCallInfo fcinfo, const ldp::RangeSummary& s);

// An ldp.range_protocol argument (NULL: 22004 naming it), read and validated.
ldp::RangeProtocol range_protocol_arg(FunctionCallInfo fcinfo, int argno);
// 22023 unless p's reports are the wire format `fn` takes: (level, hadamard_row, report)
// when tree is true, else Square Wave's one real; the hint names the function that takes
// p's reports.
void range_require_wire(const ldp::RangeProtocol& p, bool tree, const char* fn);
// The datum of ldp.range_protocol holding p, and p's text form (palloc'd).
Datum range_protocol_datum(const ldp::RangeProtocol& p);
char* range_protocol_cstring(const ldp::RangeProtocol& p);
