// Helpers shared by the unit tests of the core: error-kind assertions and an
// owning, aligned buffer for one mean summary.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/mean/mean_summary.hpp"

namespace ldp_test {

inline const char* kind_name(ldp::ErrorKind k) {
  switch (k) {
    case ldp::ErrorKind::InvalidParameter:
      return "InvalidParameter";
    case ldp::ErrorKind::InvalidText:
      return "InvalidText";
    case ldp::ErrorKind::InvalidBinary:
      return "InvalidBinary";
    case ldp::ErrorKind::ImpossibleReport:
      return "ImpossibleReport";
    case ldp::ErrorKind::OutOfRange:
      return "OutOfRange";
    case ldp::ErrorKind::LimitExceeded:
      return "LimitExceeded";
    case ldp::ErrorKind::Internal:
      return "Internal";
  }
  return "?";
}

// A format-1 binary form (u8 version 1, then the body) as format 2 writes it: the
// stored-form header (magic, format 2, family) then the same body.
inline std::vector<uint8_t> format2(const std::vector<uint8_t>& format1, uint8_t family) {
  std::vector<uint8_t> out = {'L', 'D', 'P', 'S', 2, family};
  out.insert(out.end(), format1.begin() + 1, format1.end());
  return out;
}

inline std::string hex(const std::vector<uint8_t>& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

inline std::vector<uint8_t> unhex(const std::string& text) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < text.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(text.substr(i, 2), nullptr, 16)));
  return out;
}

// EXPECT_TRUE(ThrowsKind(kind, [&] { ... })): f() must throw ldp::Error of that kind.
template <class F>
::testing::AssertionResult ThrowsKind(ldp::ErrorKind kind, F&& f) {
  try {
    f();
  } catch (const ldp::Error& e) {
    if (e.kind() == kind) return ::testing::AssertionSuccess() << e.what();
    return ::testing::AssertionFailure() << "threw " << kind_name(e.kind()) << " instead of "
                                         << kind_name(kind) << ": " << e.what();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-ldp exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw (expected " << kind_name(kind) << ")";
}

// |actual - expected| <= rel * max(1, |expected|)
inline ::testing::AssertionResult Close(double actual, double expected, double rel = 1e-12) {
  double tol = rel * std::fmax(1.0, std::fabs(expected));
  if (std::fabs(actual - expected) <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << ::testing::PrintToString(actual) << " differs from "
         << ::testing::PrintToString(expected) << " by more than " << tol;
}

// One mean summary of any mechanism in an 8-byte-aligned buffer of the largest size.
class Summary {
 public:
  Summary() { std::memset(buf_, 0, sizeof buf_); }
  Summary(ldp::MeanMechanism id, const ldp::MeanParams& p) : Summary() {
    ldp::mean_summary_init(get(), id, p);
  }
  static Summary from_text(const std::string& text) {
    Summary s;
    ldp::mean_summary_from_text(text.c_str(), s.buf_);
    return s;
  }
  static Summary from_binary(const std::vector<uint8_t>& bytes) {
    Summary s;
    ldp::mean_summary_from_binary(bytes.data(), bytes.size(), s.buf_);
    return s;
  }

  ldp::MeanSummary* get() { return reinterpret_cast<ldp::MeanSummary*>(buf_); }
  const ldp::MeanSummary* get() const { return reinterpret_cast<const ldp::MeanSummary*>(buf_); }
  ldp::MeanSummary* operator->() { return get(); }
  const ldp::MeanSummary* operator->() const { return get(); }
  const ldp::MeanSummary& operator*() const { return *get(); }

  void add_bit(bool b) { ldp::mean_add_bit(get(), b); }
  void add_real(double y) { ldp::mean_add_real(get(), y); }
  void merge(const Summary& other) { ldp::mean_summary_merge(get(), *other); }
  ldp::Estimate estimate() const { return ldp::mean_estimate(*get()); }

  std::string text() const {
    std::string out(ldp::mean_summary_text_size(*get()), '\0');
    ldp::mean_summary_to_text(*get(), out.data(), out.size());
    out.pop_back();  // the NUL
    return out;
  }
  std::vector<uint8_t> binary() const {
    std::vector<uint8_t> out(ldp::mean_summary_binary_size(*get()));
    ldp::mean_summary_to_binary(*get(), out.data(), out.size());
    return out;
  }

 private:
  alignas(8) unsigned char buf_[ldp::kMaxMeanSummarySize];
};

// n bit reports of which `ones` are 1, spread evenly (Bresenham).
inline Summary bits(ldp::MeanMechanism id, const ldp::MeanParams& p, int n, int ones) {
  Summary s(id, p);
  for (int i = 0; i < n; ++i) s.add_bit((i + 1) * ones / n > i * ones / n);
  EXPECT_EQ(s->n, n);
  EXPECT_EQ(s->ones, ones);
  return s;
}

// A summary of the given real-valued reports.
inline Summary reals(ldp::MeanMechanism id, const ldp::MeanParams& p,
                     const std::vector<double>& ys) {
  Summary s(id, p);
  for (double y : ys) s.add_real(y);
  return s;
}

}  // namespace ldp_test
