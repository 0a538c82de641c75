// The range family's row of ldp_load (haar, hh, sw): a RangeLoad is one load of a RangeLoadSpec
// (range_population.hpp), validated when it is made.
#pragma once

#include <string>
#include <vector>

#include "tools/common/load_family.hpp"
#include "tools/range/range_population.hpp"

namespace ldp::tools {

class RangeLoad final : public SpecLoad<RangeLoadSpec, RangeLoadResult> {
 public:
  // truth_path: --truth FILE, the users per bucket (none when empty)
  explicit RangeLoad(const RangeLoadSpec& spec, std::string truth_path = {})
      : SpecLoad(spec), truth_path_(std::move(truth_path)) {}

  std::string mechanism() const override { return range_mechanism_name(spec_->protocol.mechanism); }
  int64_t reports() const override { return spec_->users; }
  std::vector<ReportColumn> report_columns() const override { return range_report_columns(spec_->protocol); }
  void generate(const ChunkSink& sink, const ProgressFn& progress) override {
    result_ = generate_range_reports(spec_, sink, progress);
  }
  std::string aggregate_sql() const override;
  std::optional<std::string> local_summary() const override;
  void print(const LoadTarget& target, double seconds) const override;

 private:
  std::string truth_path_;
};

const LoadFamily& range_family();

}  // namespace ldp::tools
