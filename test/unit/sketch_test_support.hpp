// An owning, aligned sketch summary for the unit tests, and one simulated
// population of devices reporting through the SDK's encoders.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/common/random.hpp"
#include "core/sketch/sketch_encoders.hpp"
#include "core/sketch/sketch_summary.hpp"

namespace ldp_test {

struct Sketch {
  std::vector<int64_t> buf;  // 8-byte aligned storage
  Sketch() = default;
  Sketch(ldp::SketchMechanism id, double epsilon, int64_t hashes, int64_t width) {
    ldp::SketchParams p{epsilon, hashes, width};
    buf.assign(ldp::sketch_summary_size(id, p) / 8, 0);
    ldp::sketch_summary_init(get(), id, p);
  }
  explicit Sketch(size_t bytes) : buf(bytes / 8, 0) {}
  ldp::SketchSummary* get() { return reinterpret_cast<ldp::SketchSummary*>(buf.data()); }
  const ldp::SketchSummary& operator*() const { return *reinterpret_cast<const ldp::SketchSummary*>(buf.data()); }
  const ldp::SketchSummary* operator->() const { return &**this; }
  size_t bytes() const { return buf.size() * 8; }
};

// Prepared estimates of a summary.
struct Prepared {
  const ldp::SketchSummary* s;
  std::vector<int64_t> table;
  std::vector<uint64_t> scratch;
  explicit Prepared(const Sketch& k) : s(&*k), table(static_cast<size_t>(k->cells())), scratch(ldp::sketch_scratch_words(*k)) {
    ldp::sketch_prepare(*s, table.data());
  }
  ldp::SketchEstimate operator()(const std::string& item) {
    return ldp::sketch_estimate(*s, table.data(), item, scratch.data());
  }
};

// One report of `item` by the SDK, added to s.
inline void report(Sketch& s, const std::string& item, ldp::RandomSource& rng) {
  ldp::SketchSummary* p = s.get();
  switch (p->mech()) {
    case ldp::SketchMechanism::CMS: {
      std::vector<uint8_t> bits(static_cast<size_t>((p->width + 7) / 8));
      int64_t j = ldp::cms_encode(item, p->epsilon, p->hashes, p->width, rng, bits.data());
      ldp::sketch_add_cms(p, j, bits.data(), p->width);
      return;
    }
    case ldp::SketchMechanism::HCMS: {
      auto r = ldp::hcms_encode(item, p->epsilon, p->hashes, p->width, rng);
      ldp::sketch_add_signed(p, r.hash_index, r.coefficient, r.report);
      return;
    }
    case ldp::SketchMechanism::Hashtogram: {
      auto r = ldp::hashtogram_encode(item, p->epsilon, p->hashes, p->width, rng);
      ldp::sketch_add_signed(p, r.hash_index, r.coefficient, r.report);
      return;
    }
  }
}

// Every holder of every item reports once.
inline Sketch simulate(ldp::SketchMechanism id, double epsilon, int64_t hashes, int64_t width,
                       const std::vector<std::pair<std::string, int>>& population, ldp::RandomSource& rng) {
  Sketch s(id, epsilon, hashes, width);
  for (const auto& [item, holders] : population)
    for (int u = 0; u < holders; ++u) report(s, item, rng);
  return s;
}

}  // namespace ldp_test
