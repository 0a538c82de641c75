// ldp.heavy_summary and ldp.heavy_protocol in the server: the summary's codec
// (common/summary_datum.hpp), the mechanisms' rows, and what the transition functions,
// builders, encoders and accessors share.
#pragma once

#include "pg/common/summary_datum.hpp"
#include "core/heavy/heavy_summary.hpp"

extern const ldp_pg::SummaryCodec kHeavyCodec;
// HeavyGlue::arg (validated, pending counts settled), core, stored, adopt, combine.
using HeavyGlue = ldp_pg::SummaryGlue<ldp::HeavySummary, &kHeavyCodec>;

// A mechanism in the glue (the core's registry: heavy_summary.cpp), one row each: the
// argument layouts of its SQL functions, which the transition functions and builders
// read (heavy_aggregates.cpp, heavy_protocol_type.cpp).
struct HeavyGlueMechanism {
  ldp::HeavyMechanism id;
  // <m>_trans(state, the report's columns..., protocol): the protocol is its parameter.
  ldp_pg::TransLayout trans;
  // <m>_encode(item, protocol, seed), for messages (heavy_sql_encoders.cpp).
  const char* encoder;
  // The builders <m>_protocol(epsilon, users, alphabet, max_length, [start_length,]
  // chars_per_level, hashes, width [, buckets]) and <m>_int8_protocol(epsilon, users,
  // hashes, width [, buckets]): whether they take the mechanism's own fields
  // (core: its registry row's `fields`).
  bool start_length, buckets;
};
inline constexpr HeavyGlueMechanism kTreeHistGlue{
    ldp::HeavyMechanism::TreeHist, {"treehist_trans", 5}, "treehist_encode", false, false};
inline constexpr HeavyGlueMechanism kPemGlue{ldp::HeavyMechanism::PEM, {"pem_trans", 4}, "pem_encode", true, false};
inline constexpr HeavyGlueMechanism kSfpGlue{ldp::HeavyMechanism::SFP, {"sfp_trans", 7}, "sfp_encode", false, false};
inline constexpr HeavyGlueMechanism kBitstogramGlue{
    ldp::HeavyMechanism::Bitstogram, {"bitstogram_trans", 6}, "bitstogram_encode", false, true};

// A new live summary: empty (the protocol validated, its size bounded, before anything
// is allocated), or a copy of s.
ldp_pg::LiveSummary* heavy_live_new(FunctionCallInfo fcinfo, const ldp::HeavyProtocol& p);
ldp_pg::LiveSummary* heavy_live_copy(FunctionCallInfo fcinfo, const ldp::HeavySummary& s);

// An ldp.heavy_protocol argument (NULL: 22004 naming it), read and validated; with a
// mechanism, one of it (22023 naming fn otherwise).
ldp::HeavyProtocol heavy_protocol_arg(FunctionCallInfo fcinfo, int argno);
ldp::HeavyProtocol heavy_protocol_arg(FunctionCallInfo fcinfo, int argno, ldp::HeavyMechanism m, const char* fn);
// The datum of ldp.heavy_protocol holding p, and p's text form (palloc'd).
Datum heavy_protocol_datum(const ldp::HeavyProtocol& p);
char* heavy_protocol_cstring(const ldp::HeavyProtocol& p);
