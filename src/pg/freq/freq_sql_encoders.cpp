// SQL encoders of the frequency-oracle family, for simulation and tests (devices encode
// with the core SDK); see common/encoders.hpp.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/varbit.h"
}

#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_summary.hpp"
#include "pg/common/encoders.hpp"

using ldp_pg::any_null;
using ldp_pg::with_rng;

// ---- frequency oracles: value int, epsilon float8, k int [, d int], seed bigint ----

namespace {
// A composite result (the function's OUT columns) from two datums.
Datum pair_result(FunctionCallInfo fcinfo, Datum a, Datum b) {
  Datum values[2] = {a, b};
  bool nulls[2] = {false, false};
  return ldp_pg::composite_result(fcinfo, values, nulls, 2);
}
}  // namespace

LDP_FUNCTION(ldp_grr_encode) {
  if (any_null(fcinfo, 3)) PG_RETURN_NULL();
  int64 value = PG_GETARG_INT32(0), k = PG_GETARG_INT32(2);
  double epsilon = PG_GETARG_FLOAT8(1);
  PG_RETURN_INT32(static_cast<int32>(with_rng<int64_t>(fcinfo, 3, [&](ldp::RandomSource& rng) {
    return ldp::grr_encode(value, epsilon, k, rng);
  })));
}

namespace {
Datum unary_encode(FunctionCallInfo fcinfo, bool optimized) {
  if (any_null(fcinfo, 3)) PG_RETURN_NULL();
  int64 value = PG_GETARG_INT32(0), k = PG_GETARG_INT32(2);
  double epsilon = PG_GETARG_FLOAT8(1);
  if (k < 2 || k > ldp::kMaxDomain)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("k must be in [2, %lld], got %lld",
                           static_cast<long long>(ldp::kMaxDomain), static_cast<long long>(k))));
  VarBit* out = static_cast<VarBit*>(palloc0(VARBITTOTALLEN(k)));
  SET_VARSIZE(out, VARBITTOTALLEN(k));
  VARBITLEN(out) = static_cast<int32>(k);
  uint8_t* bytes = VARBITS(out);
  with_rng<bool>(fcinfo, 3, [&](ldp::RandomSource& rng) {
    if (optimized)
      ldp::oue_encode(value, epsilon, k, rng, bytes);
    else
      ldp::sue_encode(value, epsilon, k, rng, bytes);
    return true;
  });
  PG_RETURN_VARBIT_P(out);
}
}  // namespace

LDP_FUNCTION(ldp_sue_encode) { return unary_encode(fcinfo, false); }
LDP_FUNCTION(ldp_oue_encode) { return unary_encode(fcinfo, true); }

// dbitflip_encode(value, epsilon, k, d, seed) -> (buckets int[], bits boolean[])
LDP_FUNCTION(ldp_dbitflip_encode) {
  if (any_null(fcinfo, 4)) PG_RETURN_NULL();
  int64 value = PG_GETARG_INT32(0), k = PG_GETARG_INT32(2), d = PG_GETARG_INT32(3);
  double epsilon = PG_GETARG_FLOAT8(1);
  if (d < 1 || d > k || k > ldp::kMaxDomain)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("d must be in [1, k = %lld], got %lld", static_cast<long long>(k),
                           static_cast<long long>(d))));
  auto* buckets = static_cast<int32_t*>(palloc(sizeof(int32_t) * d));
  auto* bits = static_cast<bool*>(palloc(sizeof(bool) * d));
  with_rng<bool>(fcinfo, 4, [&](ldp::RandomSource& rng) {
    ldp::dbitflip_encode(value, epsilon, k, d, rng, buckets, bits);
    return true;
  });
  auto* bdat = static_cast<Datum*>(palloc(sizeof(Datum) * d));
  auto* vdat = static_cast<Datum*>(palloc(sizeof(Datum) * d));
  for (int64 i = 0; i < d; ++i) {
    bdat[i] = Int32GetDatum(buckets[i]);
    vdat[i] = BoolGetDatum(bits[i]);
  }
  ArrayType* ba = construct_array(bdat, static_cast<int>(d), INT4OID, 4, true, TYPALIGN_INT);
  ArrayType* va = construct_array(vdat, static_cast<int>(d), BOOLOID, 1, true, TYPALIGN_CHAR);
  return pair_result(fcinfo, PointerGetDatum(ba), PointerGetDatum(va));
}

// olh_encode(value, epsilon, k, seed) -> (seed bigint, report int)
LDP_FUNCTION(ldp_olh_encode) {
  if (any_null(fcinfo, 3)) PG_RETURN_NULL();
  int64 value = PG_GETARG_INT32(0), k = PG_GETARG_INT32(2);
  double epsilon = PG_GETARG_FLOAT8(1);
  ldp::OlhReport r = with_rng<ldp::OlhReport>(fcinfo, 3, [&](ldp::RandomSource& rng) {
    return ldp::olh_encode(value, epsilon, k, rng);
  });
  return pair_result(fcinfo, Int64GetDatum(r.seed), Int32GetDatum(static_cast<int32>(r.y)));
}

// hadamard_encode(value, epsilon, k, seed) -> (row int, report boolean)
LDP_FUNCTION(ldp_hadamard_encode) {
  if (any_null(fcinfo, 3)) PG_RETURN_NULL();
  int64 value = PG_GETARG_INT32(0), k = PG_GETARG_INT32(2);
  double epsilon = PG_GETARG_FLOAT8(1);
  ldp::HadamardReport r = with_rng<ldp::HadamardReport>(fcinfo, 3, [&](ldp::RandomSource& rng) {
    return ldp::hadamard_encode(value, epsilon, k, rng);
  });
  return pair_result(fcinfo, Int32GetDatum(static_cast<int32>(r.row)), BoolGetDatum(r.plus_one));
}
