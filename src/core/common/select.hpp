// Order statistics without data-dependent branches: the median of a sketch's rows,
// once per candidate string. std::nth_element's partitions branch on every comparison
// of random values, about half of them mispredicted: for 256 rows that was 80% of a
// hashtogram candidate's time.
#pragma once

#include <cstdint>
#include <utility>

namespace ldp {

// Rearranges a[0, n) so that a[k] is the value that sorting would put there, every
// element before it is <= a[k] and every element after it >= a[k] (as
// std::nth_element); returns a[k]. Requires 0 <= k < n and no NaN.
inline double select_kth(double* a, int64_t n, int64_t k) {
  int64_t lo = 0, hi = n;  // the k-th lies in [lo, hi); before lo: smaller, from hi: larger
  while (hi - lo > 16) {
    // pivot: the median of three
    double x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi - 1];
    if (x > y) std::swap(x, y);
    const double p = z < x ? x : (z > y ? y : z);
    // branchless Lomuto: [lo, store) < p, [store, i) >= p
    int64_t store = lo;
    for (int64_t i = lo; i < hi; ++i) {
      const double v = a[i];
      a[i] = a[store];
      a[store] = v;
      store += v < p;
    }
    if (k < store) {
      hi = store;
      continue;
    }
    // [store, hi) >= p; those equal to p first, so that a range of equal values ends
    int64_t eq = store;
    for (int64_t i = store; i < hi; ++i) {
      const double v = a[i];
      a[i] = a[eq];
      a[eq] = v;
      eq += v <= p;
    }
    if (k < eq) return a[k];  // = p
    lo = eq;
  }
  for (int64_t i = lo + 1; i < hi; ++i) {  // insertion sort of the last few
    const double v = a[i];
    int64_t j = i;
    for (; j > lo && a[j - 1] > v; --j) a[j] = a[j - 1];
    a[j] = v;
  }
  return a[k];
}

// The median as numpy.median: for even n the mean of the two middle values (the lower
// middle alone biases a sketch's estimates:
// docs/algorithms/sketches.md#the-median-over-rows). Rearranges a[0, n);
// n >= 1.
inline double median_of(double* a, int64_t n) {
  const double upper = select_kth(a, n, n / 2);
  if (n % 2 != 0) return upper;
  double lower = a[0];  // the largest of a[0, n/2), all <= upper
  for (int64_t i = 1; i < n / 2; ++i) lower = a[i] > lower ? a[i] : lower;
  return (upper + lower) / 2;
}

// median_of(a, n) >= x without rearranging a or selecting: with c values >= x, the
// median is >= x when c > n/2 (odd n: c >= (n+1)/2) and below it when c < n/2; for even
// n and c = n/2 exactly, it is the mean of the largest value below x and the smallest at
// or above it, the same two values median_of averages. The count is one vectorizable
// pass; the second pass runs only in that tie. A threshold test costs this rather than
// a selection.
inline bool median_at_least(const double* a, int64_t n, double x) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i) c += a[i] >= x;
  if (n % 2 != 0 || 2 * c != n) return 2 * c > n;
  double below = -__builtin_huge_val(), above = __builtin_huge_val();
  for (int64_t i = 0; i < n; ++i) {
    const double v = a[i];
    below = (v < x && v > below) ? v : below;
    above = (v >= x && v < above) ? v : above;
  }
  return (above + below) / 2 >= x;
}

}  // namespace ldp
