// ldp.mean_summary as a varlena: an 8-byte prefix (length word + padding, so the
// core struct is 8-byte aligned) followed by the flat ldp::MeanSummary.
#pragma once

#include "common/glue.hpp"
#include "mean/mean_summary.hpp"

struct MeanVar {
  int32 vl_len_;
  int32 pad_;  // 0, or kMeanPackedTag
  ldp::MeanSummary s;  // followed by ldp::MeanSums for real-valued mechanisms
};

// The stored form of real-valued summaries: pad_ = kMeanPackedTag and, after the
// 8-byte prefix, the portable binary form (send/recv) instead of the memory
// image. About 100 bytes instead of 1.2 KB (two 70-limb exact sums), validated
// whenever it is read. The aggregates' final function (mean_final), the input
// functions and rollup return it; every reader unpacks it (mean_var_arg); the
// transition states stay memory images. Memory images (of bit mechanisms, or
// stored by earlier versions) keep pad_ = 0 and are read as they are.
constexpr int32 kMeanPackedTag = 0x4b434150;  // "PACK"
// The summary in its stored form: packed for real-valued mechanisms, else the
// memory image, in the current memory context.
MeanVar* mean_var_stored(const ldp::MeanSummary& s);

// A new empty summary (parameters validated) in the current memory context.
MeanVar* mean_var_new(ldp::MeanMechanism id, const ldp::MeanParams& p);
// A palloc'd copy of a core summary of the given size.
MeanVar* mean_var_from_core(const void* summary, size_t size);
// The summary argument, detoasted and checked.
const MeanVar* mean_var_arg(FunctionCallInfo fcinfo, int argno);
// A copy of the argument that this call may modify.
MeanVar* mean_var_arg_copy(FunctionCallInfo fcinfo, int argno);
// The mechanism's parameters from the arguments that follow the report
// (epsilon [, max_value] [, gamma]); first is the argument number of epsilon.
ldp::MeanParams mean_params_args(FunctionCallInfo fcinfo, ldp::MeanMechanism id, int first);

#define PG_RETURN_MEAN_VAR(v) PG_RETURN_POINTER(v)
