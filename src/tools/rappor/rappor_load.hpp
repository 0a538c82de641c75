// The RAPPOR family's row of ldp_load: a RapporLoad is one load of a RapporLoadSpec
// (rappor_population.hpp), validated when it is made.
#pragma once

#include <string>
#include <vector>

#include "tools/common/load_family.hpp"
#include "tools/rappor/rappor_population.hpp"

namespace ldp::tools {

// What a RAPPOR load prints and writes besides its spec.
struct RapporOutput {
  int64_t top = 10;           // the items printed (0: all)
  std::string truth_path;     // --truth FILE
  int64_t candidates = 1000;  // the local decode's candidates: the most likely items
};

class RapporLoad final : public SpecLoad<RapporLoadSpec, RapporLoadResult> {
 public:
  explicit RapporLoad(const RapporLoadSpec& spec, RapporOutput output = {})
      : SpecLoad(spec), output_(std::move(output)) {}

  std::string mechanism() const override { return "rappor"; }
  int64_t reports() const override { return spec_->users; }
  std::vector<ReportColumn> report_columns() const override { return rappor_report_columns(); }
  void generate(const ChunkSink& sink, const ProgressFn& progress) override {
    result_ = generate_rappor_reports(spec_, sink, progress);
  }
  std::string aggregate_sql() const override;
  std::optional<std::string> local_summary() const override;
  void print(const LoadTarget& target, double seconds) const override;

 private:
  void print_results(const LoadTarget& target) const;
  RapporOutput output_;
};

const LoadFamily& rappor_family();

}  // namespace ldp::tools
