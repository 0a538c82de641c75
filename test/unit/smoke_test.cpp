#include <gtest/gtest.h>
#include "mean_summary.hpp"
TEST(Smoke, Compiles) { EXPECT_EQ(ldp::mean_mechanism(ldp::MeanMechanism::RR).name, std::string("rr")); }
