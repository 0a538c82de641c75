// The range family's row of ldp_load (haar): a RangeLoad is one load of a RangeLoadSpec
// (range_population.hpp), validated when it is made.
#pragma once

#include <string>
#include <vector>

#include "tools/common/load_family.hpp"
#include "tools/range/range_population.hpp"

namespace ldp::tools {

class RangeLoad final : public SpecLoad<RangeLoadSpec, RangeLoadResult> {
 public:
  using SpecLoad::SpecLoad;

  std::string mechanism() const override { return range_mechanism_name(spec_->protocol.mechanism); }
  int64_t reports() const override { return spec_->users; }
  std::vector<ReportColumn> report_columns() const override { return range_report_columns(); }
  void generate(const ChunkSink& sink, const ProgressFn& progress) override {
    result_ = generate_range_reports(spec_, sink, progress);
  }
  std::string aggregate_sql() const override;
  std::optional<std::string> local_summary() const override;
  void print(const LoadTarget& target, double seconds) const override;
};

const LoadFamily& range_family();

}  // namespace ldp::tools
