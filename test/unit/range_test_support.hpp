// Helpers of the range family's unit tests: an owning, aligned buffer for one range
// summary, its forms, and simulated reports.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/common/random.hpp"
#include "core/range/range_summary.hpp"
#include "core/range/square_wave.hpp"

namespace ldp_test {

class Range {
 public:
  Range() = default;
  explicit Range(size_t bytes) : buf_((bytes + 7) / 8, 0), bytes_(bytes) {}
  explicit Range(const ldp::RangeProtocol& p) : Range(ldp::range_summary_size(p)) {
    ldp::range_summary_init(get(), p);
  }
  ldp::RangeSummary* get() { return reinterpret_cast<ldp::RangeSummary*>(buf_.data()); }
  const ldp::RangeSummary* get() const { return reinterpret_cast<const ldp::RangeSummary*>(buf_.data()); }
  ldp::RangeSummary* operator->() { return get(); }
  const ldp::RangeSummary* operator->() const { return get(); }
  const ldp::RangeSummary& operator*() const { return *get(); }
  size_t bytes() const { return bytes_; }

  std::string text() const {
    std::string out(ldp::range_summary_text_size(*get()), '\0');
    ldp::range_summary_to_text(*get(), out.data(), out.size());
    out.pop_back();
    return out;
  }
  std::vector<uint8_t> binary() const {
    std::vector<uint8_t> out(ldp::range_summary_binary_size(*get()));
    ldp::range_summary_to_binary(*get(), out.data(), out.size());
    return out;
  }
  static Range from_text(const std::string& t) {
    Range r(ldp::range_summary_parse_size(t.c_str()));
    ldp::range_summary_from_text(t.c_str(), r.get(), r.bytes());
    return r;
  }
  static Range from_binary(const std::vector<uint8_t>& b) {
    Range r(ldp::range_summary_binary_parse_size(b.data(), b.size()));
    ldp::range_summary_from_binary(b.data(), b.size(), r.get(), r.bytes());
    return r;
  }

 private:
  std::vector<uint64_t> buf_;
  size_t bytes_ = 0;
};

// A prepared decode in an owning buffer.
class RangeDecode {
 public:
  explicit RangeDecode(const ldp::RangeSummary& s) : buf_((ldp::range_prepared_size(s.protocol) + 7) / 8, 0) {
    ldp::range_prepare(s, get(), ldp::range_prepared_size(s.protocol));
  }
  ldp::RangePrepared* get() { return reinterpret_cast<ldp::RangePrepared*>(buf_.data()); }
  ldp::LinearAnswer prefix(int64_t x) { return ldp::range_prefix(*get(), x); }
  ldp::LinearAnswer range(int64_t lo, int64_t hi) { return ldp::range_answer(*get(), lo, hi); }
  ldp::QuantileAnswer quantile(double phi, double z) {
    ldp::range_prepare_quantiles(get());
    return ldp::range_quantile(*get(), phi, z);
  }

 private:
  std::vector<uint64_t> buf_;
};

inline ldp::RangeProtocol range_protocol(int k, double eps) {
  ldp::RangeProtocol p;
  p.domain_bits = k;
  p.epsilon = eps;
  return p;
}

inline ldp::RangeProtocol hh_protocol(int k, double eps, int64_t branching) {
  ldp::RangeProtocol p = range_protocol(k, eps);
  p.mechanism = ldp::RangeMechanism::Hh;
  p.branching = branching;
  return p;
}

// n reports of the values v(i) under p, seeded (Square Wave's one real each).
template <class Value>
Range simulate_range(const ldp::RangeProtocol& p, int64_t n, uint64_t seed, Value v) {
  Range r(p);
  ldp::SeededRandom rng(seed);
  if (p.mechanism == ldp::RangeMechanism::Sw) {
    const ldp::SwGrid g = ldp::sw_grid_of(p);
    for (int64_t i = 0; i < n; ++i) ldp::range_add_sw_report(r.get(), g, ldp::range_sw_encode(p, v(i), rng));
    return r;
  }
  for (int64_t i = 0; i < n; ++i) {
    const ldp::RangeReport rep = ldp::range_encode(p, v(i), rng);
    ldp::range_add_report(r.get(), rep.level, rep.row, rep.plus_one);
  }
  return r;
}

}  // namespace ldp_test
