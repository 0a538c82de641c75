// ldp.mean_summary in the server: its codec (common/summary_datum.hpp: a flat
// stored form, or a live summary while an aggregate runs) and what the
// transition functions and accessors share.
#pragma once

#include "pg/common/summary_datum.hpp"
#include "core/mean/mean_summary.hpp"

extern const ldp_pg::SummaryCodec kMeanCodec;
// MeanGlue::arg (validated, hot sums settled), core, stored, adopt, combine.
using MeanGlue = ldp_pg::SummaryGlue<ldp::MeanSummary, &kMeanCodec>;

// A new live summary: empty (parameters validated), or a copy of s.
ldp_pg::LiveSummary* mean_live_new(FunctionCallInfo fcinfo, ldp::MeanMechanism id,
                                   const ldp::MeanParams& p);
ldp_pg::LiveSummary* mean_live_copy(FunctionCallInfo fcinfo, const ldp::MeanSummary& s);

// The mechanism's parameters from the arguments that follow the report
// (epsilon [, max_value] [, gamma]); first is the argument number of epsilon.
ldp::MeanParams mean_params_args(FunctionCallInfo fcinfo, ldp::MeanMechanism id, int first);
