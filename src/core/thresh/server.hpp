// THRESH (Joseph et al. 2018; the family and the derivation: params.hpp): the server's
// decisions, from the published parameters and the tallies of the reports.
//
// The guarantees (Theorem 4.3) assume that every user votes in every epoch. The
// server uses the number of votes it actually received as n in the update rule
// (vote_threshold(params, votes)); with partial participation the rule still bounds
// false updates, but the detection guarantee (Assumption 4.2 with the full n and L)
// weakens, so the glue should report the vote count.
#pragma once

#include <cstdint>

#include "core/common/stats.hpp"
#include "core/thresh/params.hpp"

namespace ldp::thresh {

// 1/(e^a+1) + sqrt(ln(10T/δ)/(2·votes)), votes >= 1 (the votes actually received).
double vote_threshold(const Params& params, int64_t votes);
// GlobalUpdate_t: yes_votes/votes > vote_threshold(params, votes); 0 <= yes_votes <= votes.
bool global_update(const Params& params, int64_t votes, int64_t yes_votes);
// The global estimate from `reports` EST reports (>= 1) of which `ones` are 1:
// p̃ = (1/N)Σ(p̃_i(e^b+1) − 1)/(e^b−1), std_error (e^b+1)/(e^b−1)·sqrt(ŷ(1−ŷ)/N)
// with ŷ = ones/N (has_std_error from N >= 2 on).
Estimate decode_estimates(const Params& params, int64_t reports, int64_t ones);

}  // namespace ldp::thresh
