// ldp.freq_summary as a varlena: an 8-byte prefix (length word + padding, so the
// core struct is 8-byte aligned) followed by the flat ldp::FreqSummary and its
// int64 counters.
#pragma once

#include "freq/freq_summary.hpp"
#include "common/glue.hpp"

struct FreqVar {
  int32 vl_len_;
  int32 pad_;
  ldp::FreqSummary s;  // followed by s.width int64 counters
};

inline size_t freq_var_core_size(const FreqVar* v) { return VARSIZE(v) - offsetof(FreqVar, s); }

// A new empty summary (parameters validated) in the current memory context.
FreqVar* freq_var_new(ldp::FreqMechanism id, const ldp::FreqParams& p);
// The summary argument, detoasted and checked.
const FreqVar* freq_var_arg(FunctionCallInfo fcinfo, int argno);
// A copy of the argument that this call may modify.
FreqVar* freq_var_arg_copy(FunctionCallInfo fcinfo, int argno);
