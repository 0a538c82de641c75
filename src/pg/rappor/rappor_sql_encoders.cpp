// SQL encoders of RAPPOR, for simulation and tests (devices encode with the core SDK,
// rappor/rappor_client.hpp): the Bloom filter and a full report (PRR, then an IRR), as
// varbits in the order google/rappor's clients print reports.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "utils/varbit.h"
}

#include <string_view>

#include "core/rappor/rappor_client.hpp"
#include "pg/common/encoders.hpp"

namespace {

std::string_view bytes_arg(FunctionCallInfo fcinfo, int argno) {
  const struct varlena* t = PG_GETARG_VARLENA_PP(argno);
  return std::string_view(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

// A varbit of `bits` bits (bits validated by the caller: 1 to 256).
Datum varbit_of(const ldp::RapporBits& v, int64 bits) {
  VarBit* out = static_cast<VarBit*>(palloc0(VARBITTOTALLEN(bits)));
  SET_VARSIZE(out, VARBITTOTALLEN(bits));
  VARBITLEN(out) = static_cast<int32>(bits);
  ldp::rappor_to_varbit(v, bits, VARBITS(out));
  PG_RETURN_VARBIT_P(out);
}

}  // namespace

// rappor_bloom(item text, cohort int, bits int, hashes int) -> varbit (strict)
LDP_FUNCTION(ldp_rappor_bloom) {
  std::string_view item = bytes_arg(fcinfo, 0);
  const int64 cohort = PG_GETARG_INT32(1), bits = PG_GETARG_INT32(2), hashes = PG_GETARG_INT32(3);
  ldp::RapporBits v;
  LDP_CORE(v = ldp::rappor_bloom(item, cohort, bits, hashes));
  return varbit_of(v, bits);
}

// rappor_encode(item, cohort, secret bytea, bits, hashes, f, p, q, seed bigint DEFAULT NULL)
// -> varbit: NULL for a NULL argument but the seed (a NULL seed draws from the kernel).
LDP_FUNCTION(ldp_rappor_encode) {
  if (ldp_pg::any_null(fcinfo, 8)) PG_RETURN_NULL();
  std::string_view item = bytes_arg(fcinfo, 0), secret = bytes_arg(fcinfo, 2);
  const int64 cohort = PG_GETARG_INT32(1), bits = PG_GETARG_INT32(3), hashes = PG_GETARG_INT32(4);
  const double f = PG_GETARG_FLOAT8(5), p = PG_GETARG_FLOAT8(6), q = PG_GETARG_FLOAT8(7);
  auto v = ldp_pg::with_rng<ldp::RapporBits>(fcinfo, 8, [&](ldp::RandomSource& rng) {
    return ldp::rappor_encode(item, cohort, secret, bits, hashes, f, p, q, rng);
  });
  return varbit_of(v, bits);
}
