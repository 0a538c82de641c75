// The aggregates' deferred sums (range_add_deferred): after range_flush_deferred, a state
// fed through them is the summary of the same reports added at once, bit for bit, whatever
// the number of reports (fewer than the ring, a multiple of it, past it) and with
// immediate additions (the general path) mixed in.
#include <gtest/gtest.h>

#include <cstring>

#include "core/common/random.hpp"
#include "range_test_support.hpp"

namespace {

TEST(RangeDeferred, FlushedStateIsTheSummaryOfTheSameReports) {
  ldp::RangeProtocol p;
  p.epsilon = 1;
  p.domain_bits = 10;
  const int64_t ring = ldp::kRangeDeferred;
  for (int64_t reports : {int64_t{0}, int64_t{1}, int64_t{5}, ring, ring + 1, int64_t{5000}}) {
    SCOPED_TRACE(reports);
    ldp_test::Range direct(p), deferred(p);
    ldp::SeededRandom rng(static_cast<uint64_t>(reports) + 3);
    for (int64_t i = 0; i < reports; ++i) {
      const ldp::RangeReport r = ldp::range_encode(p, static_cast<double>(rng.below(1024)), rng);
      ldp::range_add_unchecked(direct.get(), r.level, r.row, r.plus_one);
      if (i % 7 == 3)
        ldp::range_add_report(deferred.get(), r.level, r.row, r.plus_one);  // the general path, between
      else
        ldp::range_add_deferred(deferred.get(), r.level, r.row, r.plus_one);
    }
    EXPECT_EQ(deferred->n, reports);
    ldp::range_flush_deferred(deferred.get());
    ASSERT_EQ(direct.bytes(), deferred.bytes());
    EXPECT_EQ(std::memcmp(direct.get(), deferred.get(), direct.bytes()), 0);
    EXPECT_EQ(direct.text(), deferred.text());
    ldp::range_flush_deferred(deferred.get());  // a second flush adds nothing
    EXPECT_EQ(direct.text(), deferred.text());
  }
}

}  // namespace
