// Every summary type's two lives (issue 12):
//
// - stored: a flat varlena holding the stored form (common/stored_form.hpp),
//   which is what a table holds, what send writes and what every function
//   returns; never a memory image. Readers also take the forms earlier versions
//   stored (memory images of this host's 0.1.0–0.4.0 builds, see each family's
//   read_flat), which only this host can have written: a data directory does not
//   move between architectures.
// - live: an expanded object (utils/expandeddatum.h) holding the core summary in
//   memory, which a transition function creates and then updates in place while
//   the aggregate runs. PostgreSQL flattens it into the stored form whenever it
//   stores, copies or sends it (get_flat_size / flatten_into), so a memory image
//   never leaves the backend. A transition function trusts only a read-write live
//   summary of its own codec; anything else (a user-defined aggregate's initcond,
//   a stored value) is read, validated and merged into a new live summary.
//
// A family contributes one SummaryCodec (<family>_type.cpp; its I/O from the core's
// codec functions: core_codec.hpp) and reads its summaries through SummaryGlue.
#pragma once

#include "pg/common/glue.hpp"  // postgres.h first

#include <cstring>

extern "C" {
#include "utils/expandeddatum.h"
#include "utils/memutils.h"
}

namespace ldp_pg {

struct SummaryCodec {
  const char* type;  // the SQL type, for messages: "mean_summary"
  uint8_t family;    // ldp::Family: the stored form's family byte
  const char* kind;  // its row in ldp.summary_kinds: "mean", "frequency"
  // True when `name` (a text form's "v1:<name>{") is one of the family's mechanisms.
  bool (*names_mechanism)(const char* name, size_t len);
  // The family type's own SQL functions, which ldp.summary (summary/summary_type.cpp)
  // calls for a value of this family: input, output and the shared accessors.
  PGFunction in, out, report_count, epsilon, mechanism;
  // A readable core summary from a detoasted flat datum's content (after its
  // length word), in any form any version stored: validated, in place or
  // palloc'd in the current memory context. Raises errors (22P03 for bytes that
  // are no summary).
  const void* (*read_flat)(const char* content, size_t len);
  // Brings a live summary into the form readers see, in place: pending counts
  // and hot sums moved into the counters (the value does not change).
  void (*settle)(void* core);
  // The stored form of a settled core summary: its size, and the bytes.
  size_t (*stored_size)(const void* core);
  void (*write_stored)(const void* core, uint8_t* out, size_t len);
  // True for a family whose transition functions may return a new live summary in place
  // of their state (RAPPOR's grows by copying when a report brings a new cohort): each
  // of its states gets a memory context of its own, which the executor deletes with the
  // state it replaces (ExecAggTransReparent); false shares one context (live_new).
  bool replaces_state;
};

struct LiveSummary {
  ExpandedObjectHeader hdr;
  const SummaryCodec* codec;
  size_t size;  // bytes of the core summary that follows (8-byte aligned)

  static constexpr size_t kCoreOffset = (sizeof(ExpandedObjectHeader) + 2 * 8 + 15) & ~size_t{15};
  void* core() { return reinterpret_cast<char*>(this) + kCoreOffset; }
  Datum rw_datum() { return EOHPGetRWDatum(&hdr); }
};

extern const ExpandedObjectMethods kLiveSummaryMethods;

// A new live summary with a zeroed core of `size` bytes, in its own memory
// context under the aggregate's context (or the current one outside an aggregate).
LiveSummary* live_new(FunctionCallInfo fcinfo, const SummaryCodec* codec, size_t size);

// The argument when it is a read-write live summary of this codec (the
// aggregate's own state), else nullptr. Cheap: the per-row path.
inline LiveSummary* live_rw_arg(FunctionCallInfo fcinfo, int argno, const SummaryCodec* codec) {
  Datum d = PG_GETARG_DATUM(argno);
  if (!VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(d))) return nullptr;
  // DatumGetEOHP, inline (the server's is a call, on every row)
  varatt_expanded ptr;
  std::memcpy(&ptr, VARDATA_EXTERNAL(DatumGetPointer(d)), sizeof(ptr));
  ExpandedObjectHeader* eoh = ptr.eohptr;
  if (eoh->eoh_methods != &kLiveSummaryMethods) return nullptr;
  auto* live = reinterpret_cast<LiveSummary*>(eoh);
  return live->codec == codec ? live : nullptr;
}

// The fast path of a transition function's row: the aggregate's own live summary of
// this codec (argument 0), when its parameters are constants of the query (trans_site,
// read on the first row, says so). Else nullptr: the row takes the general path, which
// makes the state, checks the parameters and raises the errors.
inline LiveSummary* live_fast_state(FunctionCallInfo fcinfo, const SummaryCodec* codec) {
  const auto* site = static_cast<const TransSite*>(fcinfo->flinfo->fn_extra);
  if (unlikely(site == nullptr || !site->params_stable || PG_ARGISNULL(0))) return nullptr;
  return live_rw_arg(fcinfo, 0, codec);
}

// The summary argument as a readable core summary: a live one of this codec
// settled in place, anything else detoasted and read (read_flat).
const void* summary_arg(FunctionCallInfo fcinfo, int argno, const SummaryCodec* codec);

// A flat datum holding the stored form of a (settled) core summary.
Datum stored_datum(const SummaryCodec* codec, const void* core);
// The binary output (send) of every family: its stored form, as bytea.
Datum summary_send(FunctionCallInfo fcinfo, const SummaryCodec* codec);

// What every family's glue does with its core summary type S and its codec C, written
// once (<family>_glue.hpp: `using FreqGlue = ldp_pg::SummaryGlue<ldp::FreqSummary,
// &kFreqCodec>;`).
template <class S, const SummaryCodec* C>
struct SummaryGlue {
  // The summary argument, readable: validated, a live one settled (summary_arg).
  static const S& arg(FunctionCallInfo fcinfo, int argno) {
    return *static_cast<const S*>(summary_arg(fcinfo, argno, C));
  }
  static S* core(LiveSummary* live) { return static_cast<S*>(live->core()); }
  // A flat datum holding the stored form of s (settled).
  static Datum stored(const S& s) { return stored_datum(C, &s); }
  // The aggregate's own live state (argument 0) when it is one of this family, else nullptr.
  static LiveSummary* own_state(FunctionCallInfo fcinfo) { return live_rw_arg(fcinfo, 0, C); }
  // live_fast_state of this family.
  static LiveSummary* fast_state(FunctionCallInfo fcinfo) { return live_fast_state(fcinfo, C); }

  // A transition function's new live state `live` (just made empty): the state argument,
  // when there is one (not the aggregate's own live summary: an initcond, a stored
  // value), read, validated and merged into it (merge(S*, const S&) refuses other
  // parameters: 22023), within kMaxAdoptedReports. *state: the datum to return.
  template <class Merge>
  static S* adopt(FunctionCallInfo fcinfo, LiveSummary* live, Merge merge, Datum* state) {
    S* st = core(live);
    if (!PG_ARGISNULL(0)) {
      const S& given = arg(fcinfo, 0);
      LDP_CORE(merge(st, given));
    }
    if (unlikely(st->n > kMaxAdoptedReports)) raise_adopted_too_large(st->n);
    *state = live->rw_datum();
    return st;
  }

  // The strict combine function (also rollup's transition): the aggregate's own live
  // summary is merged into in place; any other first argument (PostgreSQL's copy of the
  // first non-NULL input, a direct call) is copied into a new live summary first
  // (copy(fcinfo, s)).
  template <class Copy, class Merge>
  static Datum combine(FunctionCallInfo fcinfo, Copy copy, Merge merge) {
    LiveSummary* into = own_state(fcinfo);
    if (into == nullptr) into = copy(fcinfo, arg(fcinfo, 0));
    const S& from = arg(fcinfo, 1);
    LDP_CORE(merge(core(into), from));
    PG_RETURN_DATUM(into->rw_datum());
  }
};

// Prepare, then answer: what an accessor computes once from a summary argument
// (a family's decode: transforms, every item's estimate) and keeps in fn_extra for
// the rest of the query, so that calling it row by row with the same summary costs
// one decode. The value is keyed by the argument itself: its TOAST pointer when it
// lies out of line (a toasted value does not change while a query runs), else its
// bytes as they lie (compressed or not: equal bytes are the same summary, and nothing
// is decompressed to compare); a live argument (an aggregate's result in the same expression) is
// prepared on each call. make() allocates in the context it is given; release()
// frees what make() allocated when the next summary replaces it.
using PrepareFn = void* (*)(FunctionCallInfo fcinfo, MemoryContext mcxt);
using ReleaseFn = void (*)(void* prepared);
void* prepared_summary(FunctionCallInfo fcinfo, int argno, PrepareFn make, ReleaseFn release);

// The same, kept for the session rather than the query: the value outlives the query in
// its own memory context, one slot per make function (the last summary it prepared), so
// that asking again of a stored summary in a later query costs no decode and reads none of
// the summary. The key of a stored, out-of-line summary is its TOAST pointer (relation,
// value OID, sizes: a stored value is never changed in place, an UPDATE writes a new one)
// and its first kSessionKeyPrefix bytes (the stored form's header, protocol and report
// count, one TOAST chunk); of an in-line one, its bytes. A live argument is prepared for
// the query only (prepared_summary). make() is given a fresh context; an error in it
// leaves the slot as it was. The value must depend on the summary alone.
constexpr size_t kSessionKeyPrefix = 64;
void* session_prepared_summary(FunctionCallInfo fcinfo, int argno, PrepareFn make, ReleaseFn release);

}  // namespace ldp_pg
