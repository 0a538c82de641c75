// SQL encoders of the mean family, for simulation and tests (devices encode
// with the core SDK); see common/encoders.hpp.
#include "pg/common/glue.hpp"  // postgres.h first

#include "core/mean/mean_encoders.hpp"
#include "pg/common/encoders.hpp"

using ldp_pg::any_null;
using ldp_pg::with_rng;

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
