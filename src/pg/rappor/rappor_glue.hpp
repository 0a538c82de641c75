// ldp.rappor_summary in the server: its codec (common/summary_datum.hpp) and what
// the transition functions and accessors share.
#pragma once

#include "pg/common/summary_datum.hpp"
#include "core/rappor/rappor_summary.hpp"

extern const ldp_pg::SummaryCodec kRapporCodec;
// RapporGlue::arg (validated), core, stored.
using RapporGlue = ldp_pg::SummaryGlue<ldp::RapporSummary, &kRapporCodec>;

// A new live summary with room for `capacity` cohorts: empty (parameters and capacity
// validated before anything is allocated), or a copy of s (capacity >= s.rows).
ldp_pg::LiveSummary* rappor_live_new(FunctionCallInfo fcinfo, const ldp::RapporParams& p, int64 capacity);
ldp_pg::LiveSummary* rappor_live_copy(FunctionCallInfo fcinfo, const ldp::RapporSummary& s, int64 capacity);
