// ldp.heavy_protocol: the public value devices download and aggregates check (core
// heavy/heavy_protocol.hpp). Stored as its binary form (a version byte, then the
// fields, big-endian): portable, and read without parsing text. Text I/O is the
// protocol's text form v1:<mechanism>{...}; the builders fill every parameter not
// given from the defaults for the expected number of users
// (docs/algorithms/heavy-hitters.md#protocols-and-item-domains).
#include "pg/common/glue.hpp"  // postgres.h first

#include <string>

#include "pg/heavy/heavy_glue.hpp"

using ldp::HeavyProtocol;

namespace {

HeavyProtocol protocol_of(const struct varlena* v) {
  HeavyProtocol p{};
  LDP_CORE(p = ldp::heavy_protocol_from_binary(reinterpret_cast<const uint8_t*>(VARDATA_ANY(v)),
                                                VARSIZE_ANY_EXHDR(v)));
  return p;
}

int64 optional_int4(FunctionCallInfo fcinfo, int argno) { return PG_ARGISNULL(argno) ? 0 : PG_GETARG_INT32(argno); }

// A parameter given as an int but 0 or negative: 0 means "the default" to the core, so
// refuse it here rather than fill it in.
void check_given(FunctionCallInfo fcinfo, int argno, const char* name) {
  if (!PG_ARGISNULL(argno) && PG_GETARG_INT32(argno) <= 0)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s must be positive, got %d", name, PG_GETARG_INT32(argno)),
                    errhint("NULL (or leaving it out) gives the default.")));
}

// What a builder was given, as plain data: the core's spec (which holds a std::string) is
// made inside LDP_CORE only, so no PostgreSQL error can longjmp over its destructor.
struct Given {
  ldp::HeavyMechanism mechanism;
  ldp::HeavyDomain domain;
  const char* alphabet;  // nullptr: none
  size_t alphabet_len;
  int64 max_length, start_length, chars_per_level, hashes, width;  // 0 (start_length -1): the default
  int64 buckets;                                                   // Bitstogram's T; 0: the default
};

Datum build(FunctionCallInfo fcinfo, const Given& g) {
  const double epsilon = ldp_param_float8(fcinfo, 0, "epsilon");
  if (PG_ARGISNULL(1)) ldp_null_param("users");
  const int64 users = PG_GETARG_INT64(1);
  HeavyProtocol p{};
  LDP_CORE({
    ldp::HeavyProtocolSpec spec;
    spec.mechanism = g.mechanism;
    spec.domain = g.domain;
    spec.epsilon = epsilon;
    spec.expected_users = users;
    if (g.alphabet != nullptr) spec.alphabet.assign(g.alphabet, g.alphabet_len);
    spec.max_length = g.max_length;
    spec.start_length = g.start_length;
    spec.chars_per_level = g.chars_per_level;
    spec.hashes = g.hashes;
    spec.width = g.width;
    spec.buckets = g.buckets;
    p = ldp::heavy_protocol_build(spec);
  });
  return heavy_protocol_datum(p);
}
}  // namespace

HeavyProtocol heavy_protocol_arg(FunctionCallInfo fcinfo, int argno) {
  if (PG_ARGISNULL(argno)) ldp_null_param("protocol");
  return protocol_of(PG_GETARG_VARLENA_PP(argno));
}

HeavyProtocol heavy_protocol_arg(FunctionCallInfo fcinfo, int argno, ldp::HeavyMechanism m, const char* fn) {
  const HeavyProtocol p = heavy_protocol_arg(fcinfo, argno);
  if (p.mech() != m)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s takes a %s protocol, got a %s one", fn, ldp::heavy_mechanism_name(m),
                           ldp::heavy_mechanism_name(p.mech()))));
  return p;
}

Datum heavy_protocol_datum(const HeavyProtocol& p) {
  size_t len = 0;
  LDP_CORE(len = ldp::heavy_protocol_binary_size(p));
  auto* v = static_cast<struct varlena*>(palloc(VARHDRSZ + len));
  SET_VARSIZE(v, VARHDRSZ + len);
  LDP_CORE(ldp::heavy_protocol_to_binary(p, reinterpret_cast<uint8_t*>(VARDATA(v)), len));
  PG_RETURN_POINTER(v);
}

LDP_FUNCTION(ldp_heavy_protocol_in) {
  HeavyProtocol p{};
  LDP_CORE(p = ldp::heavy_protocol_from_text(PG_GETARG_CSTRING(0)));
  return heavy_protocol_datum(p);
}

char* heavy_protocol_cstring(const HeavyProtocol& p) {
  // The text fits this buffer (the fields' names and numbers, and an alphabet of at most
  // 256 bytes, each escaped at most twice); it is palloc'd before the core's std::string
  // exists, so nothing can longjmp over the string's destructor.
  constexpr size_t kCap = 2048;
  char* out = static_cast<char*>(palloc(kCap));
  LDP_CORE({
    const std::string text = ldp::heavy_protocol_to_text(p);
    if (text.size() >= kCap) throw ldp::Error(ldp::ErrorKind::Internal, "heavy_protocol text too long");
    memcpy(out, text.c_str(), text.size() + 1);
  });
  return out;
}

LDP_FUNCTION(ldp_heavy_protocol_out) { PG_RETURN_CSTRING(heavy_protocol_cstring(protocol_of(PG_GETARG_VARLENA_PP(0)))); }

LDP_FUNCTION(ldp_heavy_protocol_recv) {
  StringInfo in = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  HeavyProtocol p{};
  LDP_CORE(p = ldp::heavy_protocol_from_binary(reinterpret_cast<const uint8_t*>(in->data + in->cursor),
                                                static_cast<size_t>(in->len - in->cursor)));
  in->cursor = in->len;
  return heavy_protocol_datum(p);
}

LDP_FUNCTION(ldp_heavy_protocol_send) {
  const struct varlena* v = PG_GETARG_VARLENA_PP(0);
  protocol_of(v);  // never sends bytes it could not read back
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + VARSIZE_ANY_EXHDR(v)));
  SET_VARSIZE(out, VARHDRSZ + VARSIZE_ANY_EXHDR(v));
  memcpy(VARDATA(out), VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
  PG_RETURN_BYTEA_P(out);
}

namespace {

// <mechanism>_protocol(epsilon, users, alphabet DEFAULT 'a..z', max_length, [start_length
// (PEM),] chars_per_level, hashes, width [, buckets (Bitstogram)]): the mechanism's row
// (heavy_glue.hpp) says which it takes. alphabet NULL means any UTF-8 text as bytes, one
// byte per level (group, fragment).
Datum text_protocol(FunctionCallInfo fcinfo, const HeavyGlueMechanism& m) {
  Given g{m.id, ldp::HeavyDomain::Alphabet, nullptr, 0, 0, -1, 0, 0, 0, 0};
  if (PG_ARGISNULL(2)) {
    g.domain = ldp::HeavyDomain::Bytes;
  } else {
    const text* a = PG_GETARG_TEXT_PP(2);
    g.alphabet = VARDATA_ANY(a);
    g.alphabet_len = VARSIZE_ANY_EXHDR(a);
    if (g.alphabet_len == 0)
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("the alphabet must not be empty"),
                      errhint("alphabet => NULL takes any UTF-8 text, one byte per level.")));
  }
  const int s_arg = m.start_length ? 5 : 4;  // chars_per_level; then hashes, width
  check_given(fcinfo, 3, "max_length");
  check_given(fcinfo, s_arg, "chars_per_level");
  check_given(fcinfo, s_arg + 1, "hashes");
  check_given(fcinfo, s_arg + 2, "width");
  if (g.domain == ldp::HeavyDomain::Bytes && !PG_ARGISNULL(s_arg) && PG_GETARG_INT32(s_arg) != 1)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("without an alphabet a level is one byte: chars_per_level must be 1 or NULL, got %d",
                           PG_GETARG_INT32(s_arg))));
  g.max_length = optional_int4(fcinfo, 3);
  if (m.start_length && !PG_ARGISNULL(4)) {
    if (PG_GETARG_INT32(4) < 0)
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("start_length must be >= 0, got %d", PG_GETARG_INT32(4))));
    g.start_length = PG_GETARG_INT32(4);
  }
  g.chars_per_level = optional_int4(fcinfo, s_arg);
  g.hashes = optional_int4(fcinfo, s_arg + 1);
  g.width = optional_int4(fcinfo, s_arg + 2);
  if (m.buckets) {  // <m>_protocol(..., width, buckets)
    check_given(fcinfo, s_arg + 3, "buckets");
    g.buckets = optional_int4(fcinfo, s_arg + 3);
  }
  return build(fcinfo, g);
}

// <mechanism>_int8_protocol(epsilon, users, hashes, width [, buckets]): 64-bit integer
// ids, one big-endian byte per level (group, fragment).
Datum int8_protocol(FunctionCallInfo fcinfo, const HeavyGlueMechanism& m) {
  check_given(fcinfo, 2, "hashes");
  check_given(fcinfo, 3, "width");
  Given g{m.id, ldp::HeavyDomain::Int64, nullptr, 0, 0, -1, 0, optional_int4(fcinfo, 2), optional_int4(fcinfo, 3), 0};
  if (m.buckets) {  // <m>_int8_protocol(..., width, buckets)
    check_given(fcinfo, 4, "buckets");
    g.buckets = optional_int4(fcinfo, 4);
  }
  return build(fcinfo, g);
}

}  // namespace

LDP_FUNCTION(ldp_treehist_protocol) { return text_protocol(fcinfo, kTreeHistGlue); }
LDP_FUNCTION(ldp_pem_protocol) { return text_protocol(fcinfo, kPemGlue); }
LDP_FUNCTION(ldp_sfp_protocol) { return text_protocol(fcinfo, kSfpGlue); }
LDP_FUNCTION(ldp_treehist_int8_protocol) { return int8_protocol(fcinfo, kTreeHistGlue); }
LDP_FUNCTION(ldp_pem_int8_protocol) { return int8_protocol(fcinfo, kPemGlue); }
LDP_FUNCTION(ldp_sfp_int8_protocol) { return int8_protocol(fcinfo, kSfpGlue); }
LDP_FUNCTION(ldp_bitstogram_protocol) { return text_protocol(fcinfo, kBitstogramGlue); }
LDP_FUNCTION(ldp_bitstogram_int8_protocol) { return int8_protocol(fcinfo, kBitstogramGlue); }
