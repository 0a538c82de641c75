// The aggregation state's pending area (heavy_summary.hpp: the buffer of cell increments,
// the int8 sums that spill into the counters at ±127): what the aggregates' fast paths add through it equals
// what the checked adders add, bit for bit.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/common/random.hpp"
#include "core/heavy/heavy_protocol.hpp"
#include "core/heavy/heavy_summary.hpp"
#include "heavy_test_support.hpp"

namespace {

using ldp::HeavyDomain;
using ldp_test::Heavy;
using ldp_test::Protocol;

// The aggregation state's pending area (buffer, int8 sums) gives the counters that
// heavy_add_report gives, bit for bit, across buffer applications and the spills that keep
// an int8 from overflowing (one cell takes 100,000 increments of +1 here).
TEST(HeavySummary, PendingAreaEqualsDirectAdds) {
  const ldp::HeavyProtocol p = Protocol(HeavyDomain::Alphabet, 2, 1000, 2, 4, 2, 1, "ab");
  Heavy direct(p);
  Heavy pending(ldp::heavy_summary_size(p) + ldp::heavy_pending_bytes(p));
  ldp::heavy_summary_init(pending.get(), p);
  ldp::heavy_summary_add_pending_area(pending.get());
  ldp::SeededRandom rng(11);
  for (int64_t i = 0; i < 300000; ++i) {
    // a third of the reports in one cell, always +1: its row passes 32767 increments
    const bool skewed = i % 3 == 0;
    const int64_t level = skewed ? 1 : 1 + static_cast<int64_t>(rng.below(2));
    const int64_t j = skewed ? 0 : static_cast<int64_t>(rng.below(2));
    const int64_t r = skewed ? 3 : static_cast<int64_t>(rng.below(4));
    const bool yp = skewed || rng.bernoulli(0.5), yf = skewed || rng.bernoulli(0.3);
    ldp::heavy_add_report(direct.get(), {level, j, r, yp, yf});
    ldp::heavy_add_pending2(pending.get(), level - 1, j * p.width + r, yp, p.levels, j * p.width + r, yf);
  }
  ldp::heavy_flush_pending(pending.get());
  EXPECT_EQ(pending->n, direct->n);
  for (int64_t i = 0; i < p.cells(); ++i) ASSERT_EQ(pending->counters()[i], direct->counters()[i]) << "cell " << i;
  const int64_t skewed_cell = direct->counters()[3];  // SP[1][0][3]: 100,000 times +1, and some others
  EXPECT_GT(skewed_cell, 3 * 32767);
  // flushing again changes nothing; the area stays usable
  ldp::heavy_flush_pending(pending.get());
  EXPECT_EQ(pending->counters()[3], skewed_cell);
  ldp::heavy_add_pending2(pending.get(), 0, 3, true, p.levels, 3, true);
  ldp::heavy_flush_pending(pending.get());
  EXPECT_EQ(pending->counters()[3], skewed_cell + 1);
}

// A cell that only ever takes -1 (and one that only takes +1) spills at -127 (+127) and
// ends with its exact count, whatever the buffer's boundaries.
TEST(HeavySummary, PendingSumsSpillBothSigns) {
  const ldp::HeavyProtocol p = Protocol(HeavyDomain::Alphabet, 2, 1000, 2, 4, 2, 1, "ab");
  Heavy pending(ldp::heavy_summary_size(p) + ldp::heavy_pending_bytes(p));
  ldp::heavy_summary_init(pending.get(), p);
  ldp::heavy_summary_add_pending_area(pending.get());
  for (int64_t i = 0; i < 10001; ++i) ldp::heavy_add_pending2(pending.get(), 0, 5, false, p.levels, 6, true);
  ldp::heavy_flush_pending(pending.get());
  const int64_t plus = p.levels * p.hashes * p.width + 6;  // cell 6 of the final sketch
  for (int64_t i = 0; i < p.cells(); ++i) {
    const int64_t want = i == 5 ? -10001 : i == plus ? 10001 : 0;
    ASSERT_EQ(pending->counters()[i], want) << "cell " << i;
  }
}

// PEM's one increment per report through the pending area equals pem_add_report.
TEST(HeavySummary, PemPendingEqualsDirectAdds) {
  ldp::HeavyProtocolSpec spec;
  spec.mechanism = ldp::HeavyMechanism::PEM;
  spec.epsilon = 2;
  spec.expected_users = 1000;
  spec.hashes = 2;
  spec.width = 8;
  const ldp::HeavyProtocol p = ldp::heavy_protocol_build(spec);
  Heavy direct(p);
  Heavy pending(ldp::heavy_summary_size(p) + ldp::heavy_pending_bytes(p));
  ldp::heavy_summary_init(pending.get(), p);
  ldp::heavy_summary_add_pending_area(pending.get());
  ldp::SeededRandom rng(5);
  for (int64_t i = 0; i < 120001; ++i) {
    const ldp::PemReport r{static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.levels))),
                           static_cast<int64_t>(rng.below(2)), i % 5 == 0 ? 7 : static_cast<int64_t>(rng.below(8)),
                           i % 5 == 0 || rng.bernoulli(0.5)};
    ldp::pem_add_report(direct.get(), r);
    ldp::heavy_add_pending(pending.get(), r.group, r.hash_index * p.width + r.coefficient, r.report);
  }
  ldp::heavy_flush_pending(pending.get());
  EXPECT_EQ(pending->n, direct->n);
  for (int64_t i = 0; i < p.cells(); ++i) ASSERT_EQ(pending->counters()[i], direct->counters()[i]) << "cell " << i;
}

}  // namespace
