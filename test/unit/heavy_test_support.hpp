// An owning, aligned heavy-hitters summary for the unit tests, its prepared table, and
// simulated populations of devices reporting through the SDK's encoder of the summary's
// mechanism (TreeHist, Bitstogram, PEM, SFP).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/common/random.hpp"
#include "core/heavy/heavy_summary.hpp"

namespace ldp_test {

struct Heavy {
  std::vector<int64_t> buf;  // 8-byte aligned storage
  Heavy() = default;
  explicit Heavy(const ldp::HeavyProtocol& p) {
    buf.assign(ldp::heavy_summary_size(p) / 8, 0);
    ldp::heavy_summary_init(get(), p);
  }
  explicit Heavy(size_t bytes) : buf(bytes / 8, 0) {}
  ldp::HeavySummary* get() { return reinterpret_cast<ldp::HeavySummary*>(buf.data()); }
  const ldp::HeavySummary& operator*() const { return *reinterpret_cast<const ldp::HeavySummary*>(buf.data()); }
  const ldp::HeavySummary* operator->() const { return &**this; }
  size_t bytes() const { return buf.size() * 8; }
};

struct PreparedHeavy {
  const ldp::HeavySummary* s;
  std::vector<int64_t> table;
  explicit PreparedHeavy(const Heavy& h) : s(&*h), table(static_cast<size_t>(h->cells())) {
    ldp::heavy_prepare(*s, table.data());
  }
  ldp::HeavyEstimate operator()(const std::string& item) const { return ldp::heavy_frequency(*s, table.data(), item); }
  ldp::HeavyEstimate prefix(const std::string& item, int64_t level) const {
    return ldp::heavy_prefix_frequency(*s, table.data(), item, level);
  }
  ldp::HeavyHitters hitters(const ldp::HeavyHittersQuery& q = {}) const {
    return ldp::heavy_hitters(*s, table.data(), q);
  }
};

inline ldp::HeavyProtocol MechProtocol(ldp::HeavyMechanism mechanism, ldp::HeavyDomain domain, double epsilon,
                                       int64_t expected_users, int64_t hashes = 0, int64_t width = 0,
                                       int64_t max_length = 0, int64_t chars_per_level = 0, int64_t start_length = -1,
                                       const std::string& alphabet = "", int64_t buckets = 0) {
  ldp::HeavyProtocolSpec spec;
  spec.mechanism = mechanism;
  spec.domain = domain;
  spec.epsilon = epsilon;
  spec.expected_users = expected_users;
  spec.hashes = hashes;
  spec.width = width;
  spec.max_length = max_length;
  spec.chars_per_level = chars_per_level;
  spec.start_length = start_length;
  spec.alphabet = alphabet;
  spec.buckets = buckets;
  return ldp::heavy_protocol_build(spec);
}

inline ldp::HeavyProtocol Protocol(ldp::HeavyDomain domain, double epsilon, int64_t expected_users, int64_t hashes = 0,
                                   int64_t width = 0, int64_t max_length = 0, int64_t chars_per_level = 0,
                                   const std::string& alphabet = "") {
  return MechProtocol(ldp::HeavyMechanism::TreeHist, domain, epsilon, expected_users, hashes, width, max_length,
                      chars_per_level, -1, alphabet);
}

// The summary's text and binary forms, and summaries read back from them.
inline std::string text_of(const Heavy& s) {
  std::string out(ldp::heavy_summary_text_size(*s), '\0');
  ldp::heavy_summary_to_text(*s, out.data(), out.size());
  out.pop_back();
  return out;
}
inline std::vector<uint8_t> binary_of(const Heavy& s) {
  std::vector<uint8_t> out(ldp::heavy_summary_binary_size(*s));
  ldp::heavy_summary_to_binary(*s, out.data(), out.size());
  return out;
}
inline Heavy from_text(const std::string& t) {
  Heavy s(ldp::heavy_summary_parse_size(t.c_str()));
  ldp::heavy_summary_from_text(t.c_str(), s.get(), s.bytes());
  return s;
}
inline Heavy from_binary(const std::vector<uint8_t>& b) {
  Heavy s(ldp::heavy_summary_binary_parse_size(b.data(), b.size()));
  ldp::heavy_summary_from_binary(b.data(), b.size(), s.get(), s.bytes());
  return s;
}

// One device holding item reports into s, by the summary's mechanism.
inline void report(Heavy& s, const std::string& item, ldp::RandomSource& rng) {
  const ldp::HeavyProtocol& p = s->protocol;
  switch (p.mech()) {
    case ldp::HeavyMechanism::PEM:
      ldp::pem_add_report(s.get(), ldp::pem_encode(p, item, rng));
      return;
    case ldp::HeavyMechanism::SFP:
      ldp::sfp_add_report(s.get(), ldp::sfp_encode(p, item, rng));
      return;
    case ldp::HeavyMechanism::Bitstogram:
      ldp::bitstogram_add_report(s.get(), ldp::bitstogram_encode(p, item, rng));
      return;
    default:
      ldp::heavy_add_report(s.get(), ldp::treehist_encode(p, item, rng));
  }
}

// Every holder of every item reports once, into s.
inline void simulate_into(Heavy& s, const std::vector<std::pair<std::string, int64_t>>& population,
                          ldp::RandomSource& rng) {
  for (const auto& [item, holders] : population)
    for (int64_t u = 0; u < holders; ++u) report(s, item, rng);
}
inline Heavy simulate(const ldp::HeavyProtocol& p, const std::vector<std::pair<std::string, int64_t>>& population,
                      ldp::RandomSource& rng) {
  Heavy s(p);
  simulate_into(s, population, rng);
  return s;
}

}  // namespace ldp_test
