// SQL encoders for simulation and tests (devices encode with the core SDK).
// A NULL value or parameter gives NULL; the trailing seed makes the report
// reproducible, and a NULL seed draws from the kernel's cryptographic source.
#include "glue.hpp"
#include "mean_encoders.hpp"
#include "random.hpp"

namespace {

// Runs encode(rng) with the random source the seed argument asks for.
template <class Result, class F>
Result with_rng(FunctionCallInfo fcinfo, int seed_arg, F&& encode) {
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

bool any_null(FunctionCallInfo fcinfo, int upto) {
  for (int i = 0; i < upto; ++i)
    if (PG_ARGISNULL(i)) return true;
  return false;
}

}  // namespace

LDP_FUNCTION(ldp_rr_encode) {
  if (any_null(fcinfo, 2)) PG_RETURN_NULL();
  bool value = PG_GETARG_BOOL(0);
  double epsilon = PG_GETARG_FLOAT8(1);
  PG_RETURN_BOOL(with_rng<bool>(fcinfo, 2, [&](ldp::RandomSource& rng) {
    return ldp::rr_encode(value, epsilon, rng);
  }));
}

// onebit_mean_encode(value, epsilon, max_value [, gamma], seed)
LDP_FUNCTION(ldp_onebit_mean_encode) {
  int nparams = PG_NARGS() - 1;
  if (any_null(fcinfo, nparams)) PG_RETURN_NULL();
  double value = PG_GETARG_FLOAT8(0), epsilon = PG_GETARG_FLOAT8(1),
         max_value = PG_GETARG_FLOAT8(2);
  double gamma = nparams == 4 ? PG_GETARG_FLOAT8(3) : 0.0;
  PG_RETURN_BOOL(with_rng<bool>(fcinfo, nparams, [&](ldp::RandomSource& rng) {
    if (gamma != 0.0 || nparams == 4) {
      // validate gamma even when it is zero
      ldp::output_perturbation_epsilon(epsilon, gamma);
    }
    bool bit = ldp::onebit_mean_encode(value, epsilon, max_value, rng);
    return ldp::output_perturb(bit, gamma, rng);
  }));
}

LDP_FUNCTION(ldp_laplace_mean_encode) {
  if (any_null(fcinfo, 3)) PG_RETURN_NULL();
  double value = PG_GETARG_FLOAT8(0), epsilon = PG_GETARG_FLOAT8(1),
         max_value = PG_GETARG_FLOAT8(2);
  PG_RETURN_FLOAT8(with_rng<double>(fcinfo, 3, [&](ldp::RandomSource& rng) {
    return ldp::laplace_mean_encode(value, epsilon, max_value, rng);
  }));
}

LDP_FUNCTION(ldp_piecewise_mean_encode) {
  if (any_null(fcinfo, 3)) PG_RETURN_NULL();
  double value = PG_GETARG_FLOAT8(0), epsilon = PG_GETARG_FLOAT8(1),
         max_value = PG_GETARG_FLOAT8(2);
  PG_RETURN_FLOAT8(with_rng<double>(fcinfo, 3, [&](ldp::RandomSource& rng) {
    return ldp::piecewise_mean_encode(value, epsilon, max_value, rng);
  }));
}
