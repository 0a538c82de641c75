// THRESH (Joseph et al. 2018; docs/algorithms/thresh.md#an-epoch-step-by-step): the server's
// decisions, from the published parameters and the tallies of the reports it received.
#include "core/thresh/server.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/oracles/bit_mean.hpp"
#include "core/thresh/thresh_internal.hpp"

namespace ldp::thresh {

double vote_threshold(const Params& p, int64_t votes) {
  if (votes < 1)
    throw_error(ErrorKind::InvalidParameter, "votes must be >= 1, got %" PRId64, votes);
  double q = 1.0 / (std::exp(p.vote_noise) + 1.0);
  return q + std::sqrt(log_ratio(10.0, p.config.epochs, 1.0, p.config.delta) /
                       (2.0 * static_cast<double>(votes)));
}

bool global_update(const Params& p, int64_t votes, int64_t yes_votes) {
  if (votes < 1)
    throw_error(ErrorKind::InvalidParameter, "votes must be >= 1, got %" PRId64, votes);
  if (yes_votes < 0 || yes_votes > votes)
    throw_error(ErrorKind::InvalidParameter,
                "yes_votes must be in [0, votes = %" PRId64 "], got %" PRId64, votes, yes_votes);
  return static_cast<double>(yes_votes) / static_cast<double>(votes) > vote_threshold(p, votes);
}

Estimate decode_estimates(const Params& p, int64_t reports, int64_t ones) {
  if (reports < 1)
    throw_error(ErrorKind::InvalidParameter, "reports must be >= 1, got %" PRId64, reports);
  if (ones < 0 || ones > reports)
    throw_error(ErrorKind::InvalidParameter,
                "ones must be in [0, reports = %" PRId64 "], got %" PRId64, reports, ones);
  // EST is 1BitMean on [0, 1] with epsilon b: the same decoder. Above kMaxEpsilon the
  // flip probability 1/(e^b+1) is below 1e-304, so the decode is the share of ones to
  // the last bit; clamping keeps e^b finite.
  Estimate e = bit_mean_estimate(reports, ones, std::min(p.estimate_noise, kMaxEpsilon), 1.0, 0.0);
  e.has_std_error = reports >= 2;
  if (!e.has_std_error) e.std_error = 0;
  return e;
}

}  // namespace ldp::thresh
