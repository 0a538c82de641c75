// select_kth (common/select.hpp): the order statistic std::nth_element gives, on arrays
// with and without ties, of every length a sketch's rows take in tests and beyond.
#include "core/common/select.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/common/random.hpp"

namespace {

TEST(SelectKth, EqualsNthElementAndPartitionsAroundIt) {
  ldp::SeededRandom rng(2024);
  int64_t checked = 0;
  for (int64_t n : {1, 2, 3, 5, 16, 17, 18, 33, 64, 100, 255, 256, 257, 1000}) {
    for (uint64_t range : {uint64_t{1}, uint64_t{3}, uint64_t{50}, uint64_t{1} << 40}) {  // ties to none
      for (int rep = 0; rep < 20; ++rep) {
        std::vector<double> a(static_cast<size_t>(n));
        for (double& v : a) v = static_cast<double>(rng.below(range)) - static_cast<double>(range / 2);
        if (rep == 0) std::sort(a.begin(), a.end());                     // sorted
        if (rep == 1) std::sort(a.begin(), a.end(), std::greater<>());   // reversed
        const int64_t k = rep % 3 == 0 ? n / 2 : static_cast<int64_t>(rng.below(static_cast<uint64_t>(n)));
        std::vector<double> want = a;
        std::nth_element(want.begin(), want.begin() + k, want.end());
        std::vector<double> got = a;
        const double kth = ldp::select_kth(got.data(), n, k);
        ASSERT_EQ(kth, want[static_cast<size_t>(k)]) << "n " << n << " range " << range << " k " << k;
        ASSERT_EQ(got[static_cast<size_t>(k)], kth);
        for (int64_t i = 0; i < k; ++i) ASSERT_LE(got[static_cast<size_t>(i)], kth);
        for (int64_t i = k + 1; i < n; ++i) ASSERT_GE(got[static_cast<size_t>(i)], kth);
        std::sort(got.begin(), got.end());  // a permutation of the input
        std::sort(a.begin(), a.end());
        ASSERT_EQ(got, a);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 14 * 4 * 20);
}

// median_of is numpy's median, and median_at_least(a, n, x) is median_of(a, n) >= x
// exactly, at thresholds on, between and beyond the values, ties included.
TEST(MedianAtLeast, AgreesWithMedianOf) {
  ldp::SeededRandom rng(77);
  for (int64_t n : {1, 2, 3, 4, 15, 16, 17, 64, 255, 256}) {
    for (uint64_t range : {uint64_t{2}, uint64_t{7}, uint64_t{1} << 30}) {
      for (int rep = 0; rep < 30; ++rep) {
        std::vector<double> a(static_cast<size_t>(n));
        for (double& v : a) v = static_cast<double>(rng.below(range)) * 0.5 - static_cast<double>(range / 4);
        std::vector<double> sorted = a;
        std::sort(sorted.begin(), sorted.end());
        const size_t h = static_cast<size_t>(n / 2);
        const double want = n % 2 != 0 ? sorted[h] : (sorted[h] + sorted[h - 1]) / 2;
        std::vector<double> work = a;
        ASSERT_EQ(ldp::median_of(work.data(), n), want);
        for (double x : {want, std::nextafter(want, 1e300), std::nextafter(want, -1e300), sorted[0], sorted.back(),
                         sorted[0] - 1, sorted.back() + 1, a[static_cast<size_t>(rep) % a.size()]})
          ASSERT_EQ(ldp::median_at_least(a.data(), n, x), want >= x) << n << " " << x;
      }
    }
  }
}

}  // namespace
