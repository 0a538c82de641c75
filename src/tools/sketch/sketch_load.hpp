// The sketch family's row of ldp_load (cms, hcms, hashtogram): a SketchLoad is one load of
// a SketchLoadSpec (sketch_population.hpp), validated when it is made.
#pragma once

#include <string>
#include <vector>

#include "tools/common/load_family.hpp"
#include "tools/sketch/sketch_population.hpp"

namespace ldp::tools {

class SketchLoad final : public SpecLoad<SketchLoadSpec, SketchLoadResult> {
 public:
  // top: the words printed (0: all); print_summary: also local_summary=.
  explicit SketchLoad(const SketchLoadSpec& spec, int64_t top = 10, bool print_summary = false)
      : SpecLoad(spec), top_(top), print_summary_(print_summary) {}

  std::string mechanism() const override { return sketch_mechanism_name(spec_->mechanism); }
  int64_t reports() const override { return spec_->users; }
  std::vector<ReportColumn> report_columns() const override { return sketch_report_columns(spec_->mechanism); }
  void generate(const ChunkSink& sink, const ProgressFn& progress) override {
    result_ = generate_sketch_reports(spec_, sink, progress);
  }
  std::string aggregate_sql() const override;
  std::optional<std::string> local_summary() const override { return text_of(result_.local); }
  void print(const LoadTarget& target, double seconds) const override;

 private:
  int64_t top_;
  bool print_summary_;
};

const LoadFamily& sketch_family();

}  // namespace ldp::tools
