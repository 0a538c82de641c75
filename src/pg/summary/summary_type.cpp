// ldp.summary: any summary, of any family, in the stored form (format 2, or 3 for
// the families with compact counters; its header names the family). It is what a collection keeps per epoch, so that
// collections, and whatever else stores summaries of several kinds, need no
// branch per family: a value is cast to and from its family's own type
// (ldp.mean_summary, ldp.freq_summary, ...), and its text form, binary form and
// the accessors every family has are its family's.
//
// The registry of families in the server is kCodecs: a new family adds its codec
// here, two cast functions below, and a row of ldp.summary_kinds. It stands above the
// families' glue (it includes each one's <family>_glue.hpp), hence its own folder.
#include "pg/common/summary_datum.hpp"

#include "core/common/stored_form.hpp"
#include "pg/freq/freq_glue.hpp"
#include "pg/heavy/heavy_glue.hpp"
#include "pg/mean/mean_glue.hpp"
#include "pg/range/range_glue.hpp"
#include "pg/rappor/rappor_glue.hpp"
#include "pg/sketch/sketch_glue.hpp"

namespace {

const ldp_pg::SummaryCodec* const kCodecs[] = {&kMeanCodec,  &kFreqCodec,   &kSketchCodec,
                                                &kHeavyCodec, &kRapporCodec, &kRangeCodec};

[[noreturn]] void bad_summary(int code, const char* what) {
  ereport(ERROR, (errcode(code), errmsg("invalid ldp.summary: %s", what)));
  pg_unreachable();
}

// The family of a stored form (the detoasted value v), from its header.
const ldp_pg::SummaryCodec* codec_of(const struct varlena* v) {
  const auto* p = reinterpret_cast<const uint8_t*>(VARDATA_ANY(v));
  size_t len = VARSIZE_ANY_EXHDR(v);
  // (the family's codec checks that it writes this format: ldp::stored_body)
  if (!ldp::has_stored_magic(p, len) || len < ldp::kStoredHeaderSize ||
      (p[4] != ldp::kStoredFormat && p[4] != ldp::kStoredFormatCompact))
    bad_summary(ERRCODE_INVALID_BINARY_REPRESENTATION, "not a summary in the stored form (format 2 or 3)");
  for (const ldp_pg::SummaryCodec* c : kCodecs)
    if (c->family == p[5]) return c;
  bad_summary(ERRCODE_INVALID_BINARY_REPRESENTATION, "unknown summary family");
}

// The family of a summary argument from its header alone: an out-of-line or compressed
// value is fetched only as far as its first bytes (a slice), so that a cast per row of
// a table of large summaries does not read them whole.
const ldp_pg::SummaryCodec* codec_arg(FunctionCallInfo fcinfo, int argno) {
  Datum d = PG_GETARG_DATUM(argno);
  auto* v = reinterpret_cast<struct varlena*>(DatumGetPointer(d));
  if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
    v = PG_DETOAST_DATUM_SLICE(d, 0, static_cast<int32>(ldp::kStoredHeaderSize));
  return codec_of(v);
}

// The typed value as an ldp.summary (a family type's value may be live, or a form
// an earlier version stored: always re-encoded).
Datum from_typed(FunctionCallInfo fcinfo, const ldp_pg::SummaryCodec* codec) {
  return ldp_pg::stored_datum(codec, ldp_pg::summary_arg(fcinfo, 0, codec));
}

// An ldp.summary as its family's type: the same datum (a TOAST pointer stays one, so the
// family's prepared caches key on it), once its family is checked from the header. The
// rest is validated by whatever reads it: every reader of every family validates.
Datum to_typed(FunctionCallInfo fcinfo, const ldp_pg::SummaryCodec* want) {
  const ldp_pg::SummaryCodec* have = codec_arg(fcinfo, 0);
  if (have != want)
    ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                    errmsg("a %s summary is not an ldp.%s", have->kind, want->type),
                    errhint("ldp.summary_kind() tells a summary's kind.")));
  PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

// A family's accessor on the argument, which may return NULL (RAPPOR's epsilon without a
// finite value), as DirectFunctionCall1 may not.
Datum call_accessor(FunctionCallInfo fcinfo, PGFunction fn) {
  LOCAL_FCINFO(inner, 1);
  InitFunctionCallInfoData(*inner, nullptr, 1, PG_GET_COLLATION(), nullptr, nullptr);
  inner->args[0].value = PG_GETARG_DATUM(0);
  inner->args[0].isnull = false;
  Datum result = fn(inner);
  if (inner->isnull) PG_RETURN_NULL();
  return result;
}

}  // namespace

LDP_FUNCTION(ldp_summary_in) {
  const char* text = PG_GETARG_CSTRING(0);
  const char* colon = strchr(text, ':');
  const char* brace = colon != nullptr ? strchr(colon, '{') : nullptr;
  if (brace != nullptr)
    for (const ldp_pg::SummaryCodec* c : kCodecs)
      if (c->names_mechanism(colon + 1, static_cast<size_t>(brace - colon - 1)))
        return DirectFunctionCall1(c->in, PG_GETARG_DATUM(0));
  ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                  errmsg("invalid input syntax for type summary: no mechanism of any summary kind "
                         "in \"%.200s\"", text)));
  pg_unreachable();
}

LDP_FUNCTION(ldp_summary_out) {
  return DirectFunctionCall1(codec_arg(fcinfo, 0)->out, PG_GETARG_DATUM(0));
}

// Formats 2 and 3 only: a format-1 form does not say its family (its family type reads it).
LDP_FUNCTION(ldp_summary_recv) {
  StringInfo in = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  size_t len = static_cast<size_t>(in->len - in->cursor);
  auto* v = static_cast<struct varlena*>(palloc(VARHDRSZ + len));
  SET_VARSIZE(v, VARHDRSZ + len);
  memcpy(VARDATA(v), in->data + in->cursor, len);
  in->cursor = in->len;
  const ldp_pg::SummaryCodec* c = codec_of(v);
  PG_RETURN_DATUM(ldp_pg::stored_datum(c, c->read_flat(VARDATA(v), len)));
}

LDP_FUNCTION(ldp_summary_send) {
  auto* v = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
  const ldp_pg::SummaryCodec* c = codec_of(v);
  (void)c->read_flat(VARDATA(v), VARSIZE(v) - VARHDRSZ);  // validated
  bytea* out = static_cast<bytea*>(palloc(VARSIZE(v)));
  memcpy(out, v, VARSIZE(v));
  PG_RETURN_BYTEA_P(out);
}

LDP_FUNCTION(ldp_summary_kind) { PG_RETURN_TEXT_P(cstring_to_text(codec_arg(fcinfo, 0)->kind)); }
LDP_FUNCTION(ldp_summary_report_count) {
  return DirectFunctionCall1(codec_arg(fcinfo, 0)->report_count, PG_GETARG_DATUM(0));
}
LDP_FUNCTION(ldp_summary_epsilon) { return call_accessor(fcinfo, codec_arg(fcinfo, 0)->epsilon); }
LDP_FUNCTION(ldp_summary_mechanism) {
  return DirectFunctionCall1(codec_arg(fcinfo, 0)->mechanism, PG_GETARG_DATUM(0));
}

// Casts: one pair per family.
LDP_FUNCTION(ldp_summary_from_mean) { return from_typed(fcinfo, &kMeanCodec); }
LDP_FUNCTION(ldp_summary_to_mean) { return to_typed(fcinfo, &kMeanCodec); }
LDP_FUNCTION(ldp_summary_from_freq) { return from_typed(fcinfo, &kFreqCodec); }
LDP_FUNCTION(ldp_summary_to_freq) { return to_typed(fcinfo, &kFreqCodec); }
LDP_FUNCTION(ldp_summary_from_sketch) { return from_typed(fcinfo, &kSketchCodec); }
LDP_FUNCTION(ldp_summary_to_sketch) { return to_typed(fcinfo, &kSketchCodec); }
LDP_FUNCTION(ldp_summary_from_heavy) { return from_typed(fcinfo, &kHeavyCodec); }
LDP_FUNCTION(ldp_summary_to_heavy) { return to_typed(fcinfo, &kHeavyCodec); }
LDP_FUNCTION(ldp_summary_from_rappor) { return from_typed(fcinfo, &kRapporCodec); }
LDP_FUNCTION(ldp_summary_to_rappor) { return to_typed(fcinfo, &kRapporCodec); }
LDP_FUNCTION(ldp_summary_from_range) { return from_typed(fcinfo, &kRangeCodec); }
LDP_FUNCTION(ldp_summary_to_range) { return to_typed(fcinfo, &kRangeCodec); }
