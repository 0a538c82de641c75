// SQL encoders of the heavy-hitters family, for simulation and tests (devices encode
// with the core SDK, heavy/heavy_summary.hpp); see common/encoders.hpp.
// treehist_encode(item text | bigint, protocol, seed).
#include "common/glue.hpp"  // postgres.h first

#include <string_view>

#include "common/encoders.hpp"
#include "heavy/heavy_glue.hpp"

using ldp_pg::with_rng;

namespace {

// (level, hash_index, coefficient, prefix_report, item_report)
Datum treehist_result(FunctionCallInfo fcinfo, const ldp::HeavyReport& r) {
  Datum values[5] = {Int32GetDatum(static_cast<int32>(r.level)), Int32GetDatum(static_cast<int32>(r.hash_index)),
                     Int32GetDatum(static_cast<int32>(r.coefficient)), BoolGetDatum(r.prefix_report),
                     BoolGetDatum(r.item_report)};
  bool nulls[5] = {false, false, false, false, false};
  return ldp_pg::composite_result(fcinfo, values, nulls, 5);
}

ldp::HeavyProtocol treehist_protocol_arg(FunctionCallInfo fcinfo) {
  ldp::HeavyProtocol p = heavy_protocol_arg(fcinfo, 1);
  if (p.mech() != ldp::HeavyMechanism::TreeHist)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("treehist_encode takes a treehist protocol, got a %s one",
                           ldp::heavy_mechanism_name(p.mech()))));
  return p;
}

}  // namespace

LDP_FUNCTION(ldp_treehist_encode) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  const ldp::HeavyProtocol p = treehist_protocol_arg(fcinfo);
  const text* t = PG_GETARG_TEXT_PP(0);
  const std::string_view item(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
  auto r = with_rng<ldp::HeavyReport>(fcinfo, 2, [&](ldp::RandomSource& rng) {
    return ldp::treehist_encode(p, item, rng);
  });
  return treehist_result(fcinfo, r);
}

LDP_FUNCTION(ldp_treehist_encode_int8) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  const ldp::HeavyProtocol p = treehist_protocol_arg(fcinfo);
  const int64 item = PG_GETARG_INT64(0);
  auto r = with_rng<ldp::HeavyReport>(fcinfo, 2, [&](ldp::RandomSource& rng) {
    return ldp::treehist_encode_int(p, item, rng);
  });
  return treehist_result(fcinfo, r);
}
