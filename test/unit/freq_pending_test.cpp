// The pending area of SUE/OUE aggregation states: reports counted in byte-wide
// pending counters and flushed every 255 reports must give, through every reader
// (flushed copy, merge, check), exactly the counters of plain counting, for any k
// (also not a multiple of 8 or 64) and any number of reports around the flushes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/random.hpp"
#include "core/freq/freq_encoders.hpp"
#include "core/freq/freq_summary.hpp"

namespace {

using ldp::FreqMechanism;
using ldp::FreqParams;
using ldp::FreqSummary;

struct Buf {
  std::vector<uint64_t> words;
  size_t size;
  explicit Buf(size_t bytes) : words((bytes + 7) / 8, 0), size(bytes) {}
  FreqSummary* get() { return reinterpret_cast<FreqSummary*>(words.data()); }
};

Buf plain(FreqMechanism id, const FreqParams& p) {
  Buf b(ldp::freq_summary_size(id, p));
  ldp::freq_summary_init(b.get(), id, p);
  return b;
}
Buf pending(FreqMechanism id, const FreqParams& p) {
  Buf b(ldp::freq_summary_size(id, p) + ldp::freq_pending_bytes(id, p.k));
  ldp::freq_summary_init(b.get(), id, p);
  ldp::freq_summary_add_pending_area(b.get());
  return b;
}
Buf flushed(const Buf& from) {
  Buf out(ldp::freq_summary_canonical_size(*reinterpret_cast<const FreqSummary*>(from.words.data())));
  ldp::freq_summary_flushed_copy(*reinterpret_cast<const FreqSummary*>(from.words.data()), out.get());
  return out;
}
bool same(Buf& a, Buf& b) { return a.size == b.size && std::memcmp(a.get(), b.get(), a.size) == 0; }

class FreqPending : public ::testing::TestWithParam<int64_t> {};

TEST_P(FreqPending, EqualsPlainCountingAtEveryCount) {
  const int64_t k = GetParam();
  for (FreqMechanism id : {FreqMechanism::SUE, FreqMechanism::OUE}) {
    FreqParams p{1.0, k, 0};
    Buf a = plain(id, p), b = pending(id, p);
    ldp::freq_summary_check(*b.get(), b.size);
    ldp::SeededRandom rng(static_cast<uint64_t>(k));
    std::vector<uint8_t> report(static_cast<size_t>((k + 7) / 8));
    for (int n = 1; n <= 800; ++n) {
      // mostly encoder reports; every 7th all ones (the counters' worst case)
      if (n % 7 == 0) {
        std::memset(report.data(), 0xff, report.size());
        if (k % 8) report.back() = static_cast<uint8_t>(0xff << (8 - k % 8));  // zero padding
      } else if (id == FreqMechanism::SUE) {
        ldp::sue_encode(static_cast<int64_t>(rng.below(static_cast<uint64_t>(k))), 1.0, k, rng, report.data());
      } else {
        ldp::oue_encode(static_cast<int64_t>(rng.below(static_cast<uint64_t>(k))), 1.0, k, rng, report.data());
      }
      ldp::freq_add_bits(a.get(), report.data(), k);
      ldp::freq_add_bits(b.get(), report.data(), k);
      EXPECT_EQ(b.get()->pending, n % ldp::kFreqPendingRows);
      if (n == 1 || n == 254 || n == 255 || n == 256 || n == 509 || n == 510 || n == 800) {
        ldp::freq_summary_check(*b.get(), b.size);
        Buf c = flushed(b);
        ldp::freq_summary_check(*c.get(), c.size);
        ASSERT_TRUE(same(a, c)) << "k " << k << ", " << n << " reports";
      }
    }
    // merging: a state with pending counts takes a flushed summary and flushes itself
    Buf m = pending(id, p);
    for (int n = 0; n < 100; ++n) ldp::freq_add_bits(m.get(), report.data(), k);
    Buf half = flushed(b);
    ldp::freq_summary_merge(m.get(), *half.get());
    EXPECT_EQ(m.get()->pending, 0);
    Buf expect = plain(id, p);
    ldp::freq_summary_merge(expect.get(), *half.get());
    for (int n = 0; n < 100; ++n) ldp::freq_add_bits(expect.get(), report.data(), k);
    Buf got = flushed(m);
    EXPECT_TRUE(same(expect, got));
    // a summary with pending counts is not merged from (the glue flushes readers' copies)
    ldp::freq_add_bits(m.get(), report.data(), k);
    EXPECT_THROW(ldp::freq_summary_merge(expect.get(), *m.get()), ldp::Error);
  }
}

INSTANTIATE_TEST_SUITE_P(DomainSizes, FreqPending, ::testing::Values(2, 7, 8, 9, 63, 64, 65, 1024, 1031));

TEST(FreqPending, CheckRefusesInconsistentAreas) {
  FreqParams p{1.0, 20, 0};
  Buf b = pending(FreqMechanism::SUE, p);
  ldp::freq_summary_check(*b.get(), b.size);
  EXPECT_THROW(ldp::freq_summary_check(*b.get(), b.size - 8), ldp::Error);
  b.get()->pending = ldp::kFreqPendingRows;
  EXPECT_THROW(ldp::freq_summary_check(*b.get(), b.size), ldp::Error);
  b.get()->pending = 0;
  b.get()->pending_bytes = 8;
  EXPECT_THROW(ldp::freq_summary_check(*b.get(), b.size), ldp::Error);
  Buf g = plain(FreqMechanism::GRR, p);
  EXPECT_THROW(ldp::freq_summary_add_pending_area(g.get()), ldp::Error);
  EXPECT_EQ(ldp::freq_pending_bytes(FreqMechanism::GRR, 20), 0u);
  EXPECT_EQ(ldp::freq_pending_bytes(FreqMechanism::OUE, 20), 24u);
}

}  // namespace
