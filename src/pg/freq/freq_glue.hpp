// ldp.freq_summary in the server: its codec (common/summary_datum.hpp: a flat
// stored form, or a live summary while an aggregate runs) and what the
// transition functions and accessors share.
#pragma once

#include "pg/common/summary_datum.hpp"
#include "core/freq/freq_summary.hpp"

extern const ldp_pg::SummaryCodec kFreqCodec;

// The summary argument, readable: validated, pending counts settled.
inline const ldp::FreqSummary& freq_arg(FunctionCallInfo fcinfo, int argno) {
  return *static_cast<const ldp::FreqSummary*>(ldp_pg::summary_arg(fcinfo, argno, &kFreqCodec));
}
inline ldp::FreqSummary* freq_core(ldp_pg::LiveSummary* live) {
  return static_cast<ldp::FreqSummary*>(live->core());
}
// A new live summary: empty (parameters validated; SUE/OUE with their pending
// area), or a copy of s (without one).
ldp_pg::LiveSummary* freq_live_new(FunctionCallInfo fcinfo, ldp::FreqMechanism id,
                                   const ldp::FreqParams& p);
ldp_pg::LiveSummary* freq_live_copy(FunctionCallInfo fcinfo, const ldp::FreqSummary& s);
// A flat datum holding the stored form of s.
inline Datum freq_stored(const ldp::FreqSummary& s) { return ldp_pg::stored_datum(&kFreqCodec, &s); }
