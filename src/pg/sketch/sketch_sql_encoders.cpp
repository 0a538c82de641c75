// SQL encoders of the sketch family, for simulation and tests (devices encode with
// the core SDK); see common/encoders.hpp. item text, epsilon, hashes, width, seed.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "utils/varbit.h"
}

#include <string_view>

#include "core/sketch/sketch_encoders.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "pg/common/encoders.hpp"

using ldp_pg::any_null;
using ldp_pg::with_rng;

namespace {
std::string_view item_arg(FunctionCallInfo fcinfo) {
  text* t = PG_GETARG_TEXT_PP(0);
  return std::string_view(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

// hcms_encode / hashtogram_encode -> (hash_index int, coefficient int, report boolean)
template <class Encode>
Datum signed_encode(FunctionCallInfo fcinfo, Encode encode) {
  if (any_null(fcinfo, 4)) PG_RETURN_NULL();
  std::string_view item = item_arg(fcinfo);
  double epsilon = PG_GETARG_FLOAT8(1);
  int64 hashes = PG_GETARG_INT32(2), width = PG_GETARG_INT32(3);
  auto r = with_rng<ldp::SignedSketchReport>(fcinfo, 4, [&](ldp::RandomSource& rng) {
    return encode(item, epsilon, hashes, width, rng);
  });
  Datum values[3] = {Int32GetDatum(static_cast<int32>(r.hash_index)),
                     Int32GetDatum(static_cast<int32>(r.coefficient)), BoolGetDatum(r.report)};
  bool nulls[3] = {false, false, false};
  return ldp_pg::composite_result(fcinfo, values, nulls, 3);
}
}  // namespace

// cms_encode(item, epsilon, hashes, width, seed) -> (hash_index int, report varbit)
LDP_FUNCTION(ldp_cms_encode) {
  if (any_null(fcinfo, 4)) PG_RETURN_NULL();
  std::string_view item = item_arg(fcinfo);
  double epsilon = PG_GETARG_FLOAT8(1);
  int64 hashes = PG_GETARG_INT32(2), width = PG_GETARG_INT32(3);
  LDP_CORE(ldp::validate_sketch_params(ldp::SketchMechanism::CMS, {epsilon, hashes, width}));  // before palloc
  VarBit* out = static_cast<VarBit*>(palloc0(VARBITTOTALLEN(width)));
  SET_VARSIZE(out, VARBITTOTALLEN(width));
  VARBITLEN(out) = static_cast<int32>(width);
  uint8_t* bytes = VARBITS(out);
  int64 j = with_rng<int64_t>(fcinfo, 4, [&](ldp::RandomSource& rng) {
    return ldp::cms_encode(item, epsilon, hashes, width, rng, bytes);
  });
  Datum values[2] = {Int32GetDatum(static_cast<int32>(j)), PointerGetDatum(out)};
  bool nulls[2] = {false, false};
  return ldp_pg::composite_result(fcinfo, values, nulls, 2);
}

LDP_FUNCTION(ldp_hcms_encode) { return signed_encode(fcinfo, ldp::hcms_encode); }
LDP_FUNCTION(ldp_hashtogram_encode) { return signed_encode(fcinfo, ldp::hashtogram_encode); }
