// The SQL encoder of the range family, for simulation and tests (devices encode with
// the core SDK, range/range_summary.hpp's range_encode); see common/encoders.hpp.
// range_encode(value float8, protocol, seed): one report row (level, hadamard_row, report), the
// columns ldp.range_agg reads, in its order; sw_encode(value, protocol, seed): a Square Wave
// protocol's report, one float8.
#include "pg/common/glue.hpp"  // postgres.h first

#include "pg/common/encoders.hpp"
#include "pg/range/range_glue.hpp"
#include "core/range/square_wave.hpp"

LDP_FUNCTION(ldp_range_encode) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  const ldp::RangeProtocol p = range_protocol_arg(fcinfo, 1);
  range_require_wire(p, true, "range_encode");
  const double value = PG_GETARG_FLOAT8(0);
  const ldp::RangeReport r = ldp_pg::with_rng<ldp::RangeReport>(
      fcinfo, 2, [&](ldp::RandomSource& rng) { return ldp::range_encode(p, value, rng); });
  Datum v[3] = {Int32GetDatum(r.level), Int64GetDatum(r.row), BoolGetDatum(r.plus_one)};
  bool nulls[3] = {};
  return ldp_pg::composite_result(fcinfo, v, nulls, 3);
}

LDP_FUNCTION(ldp_sw_encode) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  const ldp::RangeProtocol p = range_protocol_arg(fcinfo, 1);
  range_require_wire(p, false, "sw_encode");
  const double value = PG_GETARG_FLOAT8(0);
  PG_RETURN_FLOAT8(ldp_pg::with_rng<double>(
      fcinfo, 2, [&](ldp::RandomSource& rng) { return ldp::range_sw_encode(p, value, rng); }));
}
