// ldp.range_protocol: the public value devices download and the aggregate checks (core
// range/range_protocol.hpp): ε, the domain's bits, the mechanism and the mapping of a
// value to its bucket. Stored as its binary form (a version byte, then the fields,
// big-endian); text I/O is the protocol's text form v1:haar{...} or v1:hh{...}; the
// builder ldp.range_protocol(epsilon, domain_bits, mechanism, branching, mapping, lo, hi).
#include "pg/common/glue.hpp"  // postgres.h first

#include <string>

#include "pg/range/range_glue.hpp"

using ldp::RangeProtocol;

namespace {

RangeProtocol protocol_of(const struct varlena* v) {
  RangeProtocol p{};
  LDP_CORE(p = ldp::range_protocol_from_binary(reinterpret_cast<const uint8_t*>(VARDATA_ANY(v)),
                                                VARSIZE_ANY_EXHDR(v)));
  return p;
}

}  // namespace

RangeProtocol range_protocol_arg(FunctionCallInfo fcinfo, int argno) {
  if (PG_ARGISNULL(argno)) ldp_null_param("protocol");
  return protocol_of(PG_GETARG_VARLENA_PP(argno));
}

void range_require_wire(const RangeProtocol& p, bool tree, const char* fn) {
  bool takes = false;
  LDP_CORE(takes = ldp::range_takes_tree_reports(p));
  if (takes == tree) return;
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("%s takes %s, not a %s protocol", fn,
                         tree ? "a protocol whose reports are (level, hadamard_row, report)" : "a Square Wave (sw) protocol",
                         ldp::range_mechanism_name(p.mechanism)),
                  takes ? errhint("A %s protocol's reports are (level, hadamard_row, report): ldp.range_encode and "
                                  "ldp.range_agg(level, hadamard_row, report, protocol).",
                                  ldp::range_mechanism_name(p.mechanism))
                        : errhint("A Square Wave protocol's reports are one float8 each: ldp.sw_encode and "
                                  "ldp.range_agg(report, protocol).")));
}

Datum range_protocol_datum(const RangeProtocol& p) {
  size_t len = 0;
  LDP_CORE(len = ldp::range_protocol_binary_size(p));
  auto* v = static_cast<struct varlena*>(palloc(VARHDRSZ + len));
  SET_VARSIZE(v, VARHDRSZ + len);
  LDP_CORE(ldp::range_protocol_to_binary(p, reinterpret_cast<uint8_t*>(VARDATA(v)), len));
  PG_RETURN_POINTER(v);
}

char* range_protocol_cstring(const RangeProtocol& p) {
  // The text fits this buffer (three numbers in their shortest form and the names); it is
  // palloc'd before the core's std::string exists, so nothing can longjmp over the
  // string's destructor.
  constexpr size_t kCap = 256;
  char* out = static_cast<char*>(palloc(kCap));
  LDP_CORE({
    const std::string text = ldp::range_protocol_to_text(p);
    if (text.size() >= kCap) throw ldp::Error(ldp::ErrorKind::Internal, "range_protocol text too long");
    memcpy(out, text.c_str(), text.size() + 1);
  });
  return out;
}

LDP_FUNCTION(ldp_range_protocol_in) {
  RangeProtocol p{};
  LDP_CORE(p = ldp::range_protocol_from_text(PG_GETARG_CSTRING(0)));
  return range_protocol_datum(p);
}

LDP_FUNCTION(ldp_range_protocol_out) { PG_RETURN_CSTRING(range_protocol_cstring(protocol_of(PG_GETARG_VARLENA_PP(0)))); }

LDP_FUNCTION(ldp_range_protocol_recv) {
  StringInfo in = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  RangeProtocol p{};
  LDP_CORE(p = ldp::range_protocol_from_binary(reinterpret_cast<const uint8_t*>(in->data + in->cursor),
                                                static_cast<size_t>(in->len - in->cursor)));
  in->cursor = in->len;
  return range_protocol_datum(p);
}

LDP_FUNCTION(ldp_range_protocol_send) {
  const struct varlena* v = PG_GETARG_VARLENA_PP(0);
  protocol_of(v);  // never sends bytes it could not read back
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + VARSIZE_ANY_EXHDR(v)));
  SET_VARSIZE(out, VARHDRSZ + VARSIZE_ANY_EXHDR(v));
  memcpy(VARDATA(out), VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
  PG_RETURN_BYTEA_P(out);
}

// range_protocol(epsilon, domain_bits, mechanism DEFAULT 'haar', branching DEFAULT NULL,
// mapping DEFAULT 'floor', lo DEFAULT NULL, hi DEFAULT NULL): branching for hh only (NULL:
// its default, 4); lo and hi for the linear and log mappings only.
LDP_FUNCTION(ldp_range_protocol) {
  const double epsilon = ldp_param_float8(fcinfo, 0, "epsilon");
  const int64 bits = ldp_param_int4(fcinfo, 1, "domain_bits");
  if (PG_ARGISNULL(2)) ldp_null_param("mechanism");
  if (PG_ARGISNULL(4)) ldp_null_param("mapping");
  char* mechanism = text_to_cstring(PG_GETARG_TEXT_PP(2));
  char* mapping = text_to_cstring(PG_GETARG_TEXT_PP(4));
  const bool branching_given = !PG_ARGISNULL(3);
  const int64 branching = branching_given ? PG_GETARG_INT32(3) : 0;
  RangeProtocol p{};
  bool takes_branching = true;
  LDP_CORE({
    p.epsilon = epsilon;
    p.domain_bits = static_cast<int>(bits);
    p.mechanism = ldp::range_mechanism_from_name(mechanism);
    p.mapping = ldp::range_mapping_from_name(mapping);
    takes_branching = ldp::range_protocol_takes(p, "branching");
  });
  if (branching_given && !takes_branching)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("a %s protocol takes no branching (branching is hh's)", mechanism),
                    errhint("Leave branching out, or use mechanism => 'hh' with branching 2 or 4.")));
  LDP_CORE({
    ldp::range_protocol_defaults(&p);  // then the given value, which the validation checks (0 too)
    if (branching_given) ldp::range_protocol_give(&p, "branching", branching);
  });
  const bool bounded = p.mapping != ldp::RangeMapping::Floor;
  if (bounded && (PG_ARGISNULL(5) || PG_ARGISNULL(6)))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("a %s mapping needs lo and hi, the value interval its buckets cut", mapping),
                    errhint("ldp.range_protocol(epsilon, domain_bits, mapping => '%s', lo => ..., hi => ...).",
                            mapping)));
  if (!bounded && (!PG_ARGISNULL(5) || !PG_ARGISNULL(6)))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("a floor mapping takes no lo or hi"),
                    errhint("Leave them out: bucket b holds the values [b, b + 1). For other bounds use mapping "
                            "=> 'linear' or 'log'.")));
  if (bounded) {
    p.lo = PG_GETARG_FLOAT8(5);
    p.hi = PG_GETARG_FLOAT8(6);
  }
  LDP_CORE(ldp::validate_range_protocol(p));
  pfree(mechanism);
  pfree(mapping);
  return range_protocol_datum(p);
}
