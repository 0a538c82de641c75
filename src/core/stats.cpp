#include "stats.hpp"

#include <boost/math/distributions/normal.hpp>
#include <cmath>

#include "error.hpp"

namespace ldp {

double normal_critical_value(double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0))
    throw_error(ErrorKind::InvalidParameter,
                "confidence must be strictly between 0 and 1, got %g", confidence);
  boost::math::normal_distribution<double> z;
  return boost::math::quantile(z, 0.5 + confidence / 2.0);
}

}  // namespace ldp
