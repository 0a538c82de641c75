// ldp.freq_summary in the server: its codec (common/summary_datum.hpp: a flat
// stored form, or a live summary while an aggregate runs) and what the
// transition functions and accessors share.
#pragma once

#include "pg/common/summary_datum.hpp"
#include "core/freq/freq_summary.hpp"

extern const ldp_pg::SummaryCodec kFreqCodec;
// FreqGlue::arg (validated, pending counts settled), core, stored, adopt, combine.
using FreqGlue = ldp_pg::SummaryGlue<ldp::FreqSummary, &kFreqCodec>;

// A new live summary: empty (parameters validated; SUE/OUE with their pending
// area), or a copy of s (without one).
ldp_pg::LiveSummary* freq_live_new(FunctionCallInfo fcinfo, ldp::FreqMechanism id,
                                   const ldp::FreqParams& p);
ldp_pg::LiveSummary* freq_live_copy(FunctionCallInfo fcinfo, const ldp::FreqSummary& s);
