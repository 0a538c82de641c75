// Helpers shared by the frequency-oracle tests: an owning, aligned buffer for one
// summary of any size (the varlena the glue allocates), built empty, from reports,
// from given counters, or from either codec.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/freq/freq_summary.hpp"
#include "test_support.hpp"

namespace ldp_test {

class Freq {
 public:
  Freq() = default;
  Freq(ldp::FreqMechanism id, const ldp::FreqParams& p) {
    alloc(ldp::freq_summary_size(id, p));
    ldp::freq_summary_init(get(), id, p);
  }
  // A summary with the given report count and counters (all `width` of them).
  Freq(ldp::FreqMechanism id, const ldp::FreqParams& p, int64_t n,
       const std::vector<int64_t>& counters)
      : Freq(id, p) {
    EXPECT_EQ(static_cast<int64_t>(counters.size()), get()->width);
    get()->n = n;
    for (size_t i = 0; i < counters.size() && static_cast<int64_t>(i) < get()->width; ++i)
      get()->counters()[i] = counters[i];
  }
  static Freq from_text(const std::string& text) {
    Freq f;
    f.alloc(ldp::freq_summary_parse_size(text.c_str()));
    ldp::freq_summary_from_text(text.c_str(), f.get(), f.size_);
    return f;
  }
  static Freq from_binary(const std::vector<uint8_t>& bytes) {
    Freq f;
    f.alloc(ldp::freq_summary_binary_parse_size(bytes.data(), bytes.size()));
    ldp::freq_summary_from_binary(bytes.data(), bytes.size(), f.get(), f.size_);
    return f;
  }

  ldp::FreqSummary* get() { return reinterpret_cast<ldp::FreqSummary*>(buf_.data()); }
  const ldp::FreqSummary* get() const {
    return reinterpret_cast<const ldp::FreqSummary*>(buf_.data());
  }
  ldp::FreqSummary* operator->() { return get(); }
  const ldp::FreqSummary* operator->() const { return get(); }
  const ldp::FreqSummary& operator*() const { return *get(); }
  size_t size() const { return size_; }
  int64_t* counters() { return get()->counters(); }
  std::vector<int64_t> counter_vector() const {
    return std::vector<int64_t>(get()->counters(), get()->counters() + get()->width);
  }

  void merge(const Freq& other) { ldp::freq_summary_merge(get(), *other); }
  void check() const { ldp::freq_summary_check(*get(), size_); }
  // Same bytes, header and counters.
  bool same_bytes(const Freq& other) const {
    return size_ == other.size_ && std::memcmp(buf_.data(), other.buf_.data(), size_) == 0;
  }

  struct Estimates {
    std::vector<double> freq, se;
  };
  Estimates estimate() const {
    Estimates e;
    e.freq.resize(get()->k);
    e.se.resize(get()->k);
    ldp::freq_estimate(*get(), e.freq.data(), e.se.data());
    return e;
  }

  std::string text() const {
    std::string out(ldp::freq_summary_text_size(*get()), '?');
    ldp::freq_summary_to_text(*get(), &out[0], out.size());
    EXPECT_EQ(out.back(), '\0');
    out.pop_back();
    EXPECT_EQ(out.size(), std::strlen(out.c_str()));
    return out;
  }
  std::vector<uint8_t> binary() const {
    std::vector<uint8_t> out(ldp::freq_summary_binary_size(*get()));
    ldp::freq_summary_to_binary(*get(), out.data(), out.size());
    return out;
  }

 private:
  void alloc(size_t size) {
    size_ = size;
    buf_.assign((size + 7) / 8, 0);
  }
  std::vector<uint64_t> buf_;  // 8-byte aligned
  size_t size_ = 0;
};

}  // namespace ldp_test
