// Inside the core only: what the THRESH parameters (params.cpp) and the server's
// update rule (server.cpp) share. The glue and the devices use params.hpp,
// server.hpp and client.hpp, never this header.
#pragma once

#include <cmath>

namespace ldp::thresh {

// ln(c·u·v/δ) as a sum of logarithms: no overflow for any n, T, δ.
inline double log_ratio(double c, double u, double v, double delta) {
  return std::log(c) + std::log(u) + std::log(v) - std::log(delta);
}

}  // namespace ldp::thresh
