// ldp.sketch_summary in the server: its codec (common/summary_datum.hpp) and what
// the transition functions and accessors share.
#pragma once

#include "pg/common/summary_datum.hpp"
#include "core/sketch/sketch_summary.hpp"

extern const ldp_pg::SummaryCodec kSketchCodec;

// The summary argument, readable and validated.
inline const ldp::SketchSummary& sketch_arg(FunctionCallInfo fcinfo, int argno) {
  return *static_cast<const ldp::SketchSummary*>(ldp_pg::summary_arg(fcinfo, argno, &kSketchCodec));
}
inline ldp::SketchSummary* sketch_core(ldp_pg::LiveSummary* live) {
  return static_cast<ldp::SketchSummary*>(live->core());
}
// A new live summary: empty (parameters validated before anything is allocated),
// or a copy of s.
ldp_pg::LiveSummary* sketch_live_new(FunctionCallInfo fcinfo, ldp::SketchMechanism id,
                                     const ldp::SketchParams& p);
ldp_pg::LiveSummary* sketch_live_copy(FunctionCallInfo fcinfo, const ldp::SketchSummary& s);
