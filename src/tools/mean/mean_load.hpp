// The mean family's row of ldp_load (rr, onebit, laplace, piecewise): a MeanLoad is one
// load of a LoadSpec (mean_population.hpp), validated when it is made.
#pragma once

#include <string>
#include <vector>

#include "tools/common/load_family.hpp"
#include "tools/mean/mean_population.hpp"

namespace ldp::tools {

class MeanLoad final : public SpecLoad<LoadSpec, LoadResult> {
 public:
  using SpecLoad::SpecLoad;

  std::string mechanism() const override { return mechanism_name(spec_->mechanism); }
  int64_t reports() const override { return spec_->users * spec_->rounds; }
  std::vector<ReportColumn> report_columns() const override { return mean_report_columns(spec_->mechanism); }
  void generate(const ChunkSink& sink, const ProgressFn& progress) override {
    result_ = generate_reports(spec_, sink, progress);
  }
  std::string aggregate_sql() const override;
  std::optional<std::string> local_summary() const override { return result_.summary; }
  void print(const LoadTarget& target, double seconds) const override;
};

const LoadFamily& mean_family();

}  // namespace ldp::tools
