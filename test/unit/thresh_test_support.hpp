// THRESH tests' shared configuration (thresh_test.cpp, thresh_simulation_test.cpp).
#pragma once

#include "core/thresh/params.hpp"

namespace ldp_test {

// The worked configuration: n = 100,000 users in two subgroups (the smaller of
// 40,000), T = 32 epochs of ℓ = 20,000 rounds, ε = 8, δ = 0.05.
inline ldp::thresh::Config worked() {
  ldp::thresh::Config c;
  c.users = 100000;
  c.epochs = 32;
  c.epoch_rounds = 20000;
  c.min_group_size = 40000;
  c.groups = 2;
  c.epsilon = 8;
  c.delta = 0.05;
  return c;
}

}  // namespace ldp_test
