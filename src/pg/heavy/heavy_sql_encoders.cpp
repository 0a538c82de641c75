// SQL encoders of the heavy-hitters family, for simulation and tests (devices encode
// with the core SDK, heavy/heavy_summary.hpp); see common/encoders.hpp.
// <mechanism>_encode(item text | bigint, protocol, seed): one report row of the columns
// the mechanism's aggregate reads, in its order.
#include "pg/common/glue.hpp"  // postgres.h first

#include <string_view>

#include "pg/common/encoders.hpp"
#include "pg/heavy/heavy_glue.hpp"

using ldp_pg::with_rng;

namespace {

Datum row(FunctionCallInfo fcinfo, const ldp::HeavyReport& r) {  // treehist
  Datum v[5] = {Int32GetDatum(static_cast<int32>(r.level)), Int32GetDatum(static_cast<int32>(r.hash_index)),
                Int32GetDatum(static_cast<int32>(r.coefficient)), BoolGetDatum(r.prefix_report),
                BoolGetDatum(r.item_report)};
  bool nulls[5] = {};
  return ldp_pg::composite_result(fcinfo, v, nulls, 5);
}

Datum row(FunctionCallInfo fcinfo, const ldp::PemReport& r) {
  Datum v[4] = {Int32GetDatum(static_cast<int32>(r.group)), Int32GetDatum(static_cast<int32>(r.hash_index)),
                Int32GetDatum(static_cast<int32>(r.coefficient)), BoolGetDatum(r.report)};
  bool nulls[4] = {};
  return ldp_pg::composite_result(fcinfo, v, nulls, 4);
}

Datum row(FunctionCallInfo fcinfo, const ldp::SfpReport& r) {
  Datum v[7] = {Int32GetDatum(static_cast<int32>(r.position)),    Int32GetDatum(static_cast<int32>(r.hash_index)),
                Int32GetDatum(static_cast<int32>(r.coefficient)), BoolGetDatum(r.fragment_report),
                Int32GetDatum(static_cast<int32>(r.word_hash_index)),
                Int32GetDatum(static_cast<int32>(r.word_coefficient)), BoolGetDatum(r.word_report)};
  bool nulls[7] = {};
  return ldp_pg::composite_result(fcinfo, v, nulls, 7);
}

Datum row(FunctionCallInfo fcinfo, const ldp::BitstogramReport& r) {
  Datum v[6] = {Int32GetDatum(static_cast<int32>(r.coordinate)),  Int32GetDatum(static_cast<int32>(r.hadamard_row)),
                BoolGetDatum(r.symbol_report),                      Int32GetDatum(static_cast<int32>(r.hash_index)),
                Int32GetDatum(static_cast<int32>(r.coefficient)), BoolGetDatum(r.item_report)};
  bool nulls[6] = {};
  return ldp_pg::composite_result(fcinfo, v, nulls, 6);
}

// The protocol argument, which must be of m's mechanism (22023 otherwise).
ldp::HeavyProtocol protocol_of(FunctionCallInfo fcinfo, const HeavyGlueMechanism& m) {
  return heavy_protocol_arg(fcinfo, 1, m.id, m.encoder);
}

template <class Report, class Encode>
Datum encode_text(FunctionCallInfo fcinfo, const HeavyGlueMechanism& m, Encode encode) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  const ldp::HeavyProtocol p = protocol_of(fcinfo, m);
  const text* t = PG_GETARG_TEXT_PP(0);
  const std::string_view item(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
  return row(fcinfo, with_rng<Report>(fcinfo, 2, [&](ldp::RandomSource& rng) { return encode(p, item, rng); }));
}

template <class Report, class Encode>
Datum encode_int8(FunctionCallInfo fcinfo, const HeavyGlueMechanism& m, Encode encode) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  const ldp::HeavyProtocol p = protocol_of(fcinfo, m);
  const int64 item = PG_GETARG_INT64(0);
  return row(fcinfo, with_rng<Report>(fcinfo, 2, [&](ldp::RandomSource& rng) { return encode(p, item, rng); }));
}

}  // namespace

LDP_FUNCTION(ldp_treehist_encode) { return encode_text<ldp::HeavyReport>(fcinfo, kTreeHistGlue, ldp::treehist_encode); }
LDP_FUNCTION(ldp_treehist_encode_int8) {
  return encode_int8<ldp::HeavyReport>(fcinfo, kTreeHistGlue, ldp::treehist_encode_int);
}
LDP_FUNCTION(ldp_pem_encode) { return encode_text<ldp::PemReport>(fcinfo, kPemGlue, ldp::pem_encode); }
LDP_FUNCTION(ldp_pem_encode_int8) { return encode_int8<ldp::PemReport>(fcinfo, kPemGlue, ldp::pem_encode_int); }
LDP_FUNCTION(ldp_sfp_encode) { return encode_text<ldp::SfpReport>(fcinfo, kSfpGlue, ldp::sfp_encode); }
LDP_FUNCTION(ldp_sfp_encode_int8) { return encode_int8<ldp::SfpReport>(fcinfo, kSfpGlue, ldp::sfp_encode_int); }
LDP_FUNCTION(ldp_bitstogram_encode) {
  return encode_text<ldp::BitstogramReport>(fcinfo, kBitstogramGlue, ldp::bitstogram_encode);
}
LDP_FUNCTION(ldp_bitstogram_encode_int8) {
  return encode_int8<ldp::BitstogramReport>(fcinfo, kBitstogramGlue, ldp::bitstogram_encode_int);
}
