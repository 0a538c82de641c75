// The frequency family's row of ldp_load (grr, sue, oue, dbitflip, olh, hadamard): a
// FreqLoad is one load of a FreqLoadSpec (freq_population.hpp), validated when it is made.
#pragma once

#include <string>
#include <vector>

#include "tools/common/load_family.hpp"
#include "tools/freq/freq_population.hpp"

namespace ldp::tools {

class FreqLoad final : public SpecLoad<FreqLoadSpec, FreqLoadResult> {
 public:
  // top: the items printed (0: all); print_summary: also local_summary=.
  explicit FreqLoad(const FreqLoadSpec& spec, int64_t top = 10, bool print_summary = false)
      : SpecLoad(spec), top_(top), print_summary_(print_summary) {}

  std::string mechanism() const override { return freq_mechanism_name(spec_->mechanism); }
  int64_t reports() const override { return spec_->users * spec_->rounds; }
  std::vector<ReportColumn> report_columns() const override { return freq_report_columns(spec_->mechanism); }
  void generate(const ChunkSink& sink, const ProgressFn& progress) override {
    result_ = generate_freq_reports(spec_, sink, progress);
  }
  std::string aggregate_sql() const override;
  std::optional<std::string> local_summary() const override { return text_of(result_.total.local); }
  void print(const LoadTarget& target, double seconds) const override;

 private:
  int64_t top_;
  bool print_summary_;
};

const LoadFamily& freq_family();

}  // namespace ldp::tools
