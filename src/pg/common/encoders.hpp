// What the SQL encoders of every family share (mean/mean_sql_encoders.cpp,
// freq/freq_sql_encoders.cpp, ...): the random source a seed argument asks for.
// A NULL value or parameter gives NULL; the trailing seed makes the report
// reproducible, and a NULL seed draws from the kernel's cryptographic source.
#pragma once

#include "pg/common/glue.hpp"
#include "core/common/random.hpp"

namespace ldp_pg {

// Runs encode(rng) with the random source the seed argument asks for.
template <class Result, class F>
inline Result with_rng(FunctionCallInfo fcinfo, int seed_arg, F&& encode) {
  Result r{};
  bool seeded = !PG_ARGISNULL(seed_arg);
  uint64_t seed = seeded ? static_cast<uint64_t>(PG_GETARG_INT64(seed_arg)) : 0;
  LDP_CORE({
    if (seeded) {
      ldp::SeededRandom rng(seed);
      r = encode(rng);
    } else {
      ldp::SecureRandom rng;
      r = encode(rng);
    }
  });
  return r;
}

inline bool any_null(FunctionCallInfo fcinfo, int upto) {
  for (int i = 0; i < upto; ++i)
    if (PG_ARGISNULL(i)) return true;
  return false;
}

}  // namespace ldp_pg
