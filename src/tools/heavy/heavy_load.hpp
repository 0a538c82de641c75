// The heavy-hitters family's row of ldp_load (treehist, bitstogram, pem, sfp): a HeavyLoad
// is one load of a HeavyLoadSpec (heavy_population.hpp), validated when it is made.
#pragma once

#include <string>
#include <vector>

#include "tools/common/load_family.hpp"
#include "tools/heavy/heavy_population.hpp"

namespace ldp::tools {

// What a heavy-hitters load prints and writes besides its spec.
struct HeavyOutput {
  int64_t top = 10;            // the items printed (0: all)
  bool print_summary = false;  // also local_summary=
  std::string truth_path;      // --truth FILE: the true counts as a word-count file
};

class HeavyLoad final : public SpecLoad<HeavyLoadSpec, HeavyLoadResult> {
 public:
  explicit HeavyLoad(const HeavyLoadSpec& spec, HeavyOutput output = {}) : SpecLoad(spec), output_(std::move(output)) {}
  const HeavyProtocol& protocol() const { return spec_.protocol(); }

  std::string mechanism() const override { return heavy_mechanism_name(spec_->mechanism); }
  int64_t reports() const override { return spec_->users; }
  std::vector<ReportColumn> report_columns() const override { return heavy_report_columns(spec_->mechanism); }
  void generate(const ChunkSink& sink, const ProgressFn& progress) override {
    result_ = generate_heavy_reports(spec_, sink, progress);
  }
  std::string aggregate_sql() const override;
  std::optional<std::string> local_summary() const override { return text_of(result_.local); }
  void print(const LoadTarget& target, double seconds) const override;

 private:
  void print_protocol(const LoadTarget& target) const;
  HeavyOutput output_;
};

const LoadFamily& heavy_family();

}  // namespace ldp::tools
