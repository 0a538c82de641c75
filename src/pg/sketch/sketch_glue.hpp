// ldp.sketch_summary in the server: its codec (common/summary_datum.hpp) and what
// the transition functions and accessors share.
#pragma once

#include "pg/common/summary_datum.hpp"
#include "core/sketch/sketch_summary.hpp"

extern const ldp_pg::SummaryCodec kSketchCodec;
// SketchGlue::arg (validated, pending counts settled), core, stored, adopt, combine.
using SketchGlue = ldp_pg::SummaryGlue<ldp::SketchSummary, &kSketchCodec>;

// A new live summary: empty (parameters validated before anything is allocated),
// or a copy of s.
ldp_pg::LiveSummary* sketch_live_new(FunctionCallInfo fcinfo, ldp::SketchMechanism id,
                                     const ldp::SketchParams& p);
ldp_pg::LiveSummary* sketch_live_copy(FunctionCallInfo fcinfo, const ldp::SketchSummary& s);
