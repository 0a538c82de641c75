#include "tools/range/range_population.hpp"

#include <limits>
#include <memory>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/range/square_wave.hpp"

namespace ldp::tools {

void validate_spec(const RangeLoadSpec& spec) {
  try {
    validate_range_protocol(spec.protocol);
    check_range_summary_bits(spec.protocol);
  } catch (const ldp::Error& e) {
    throw UsageError(e.what());
  }
  if (spec.users < 1) throw UsageError("--users must be >= 1");
  for (double phi : spec.phis)
    if (!(phi >= 0 && phi <= 1)) throw UsageError("a quantile's φ must be in [0, 1], got " + short_num(phi));
}

double range_max_value(const RangeProtocol& p) { return range_bucket_upper(p, p.domain() - 1); }

RangeBuffer::RangeBuffer(const RangeProtocol& p) : buf_((range_summary_size(p) + 7) / 8, 0) {
  range_summary_init(get(), p);
}

std::vector<ReportColumn> range_report_columns(const RangeProtocol& p) {
  if (!range_takes_tree_reports(p)) return {{"report", "double precision"}};
  return {{"level", "integer"}, {"hadamard_row", "bigint"}, {"report", "boolean"}};
}

RangeLoadResult generate_range_reports(const Validated<RangeLoadSpec>& checked, const ChunkSink& sink,
                                       const ProgressFn& progress, size_t chunk_bytes) {
  const RangeLoadSpec& spec = *checked;
  const RangeProtocol& p = spec.protocol;
  RangeLoadResult result;
  result.true_counts.assign(static_cast<size_t>(p.domain()), 0);
  result.local = RangeBuffer(p);
  Population population(spec.distribution, range_max_value(p), spec.users);
  std::unique_ptr<RandomSource> pop_rng = make_random(spec.seed, 0);
  std::unique_ptr<RandomSource> enc_rng = make_random(spec.seed, 1);
  ChunkedRows out(sink, progress, chunk_bytes, 64);
  const bool tree = range_takes_tree_reports(p);
  const SwGrid grid = tree ? SwGrid{} : sw_grid_of(p);
  for_each_device(spec.users, out, [&](int64_t u) -> int64_t {
    const double value = population.next(*pop_rng);
    ++result.true_counts[static_cast<size_t>(range_bucket(p, value))];
    if (!tree) {  // Square Wave: one real number
      const double y = range_sw_encode(p, value, *enc_rng);
      range_add_sw_report(result.local.get(), grid, y);
      if (sink) {
        std::string& rows = out.buf();
        append_row_prefix(rows, spec.first_user_id + u, 1);
        append_double(rows, y);
        rows += '\n';
      }
      return 1;
    }
    const RangeReport r = range_encode(p, value, *enc_rng);
    range_add_report(result.local.get(), r.level, r.row, r.plus_one);
    if (sink) {
      std::string& rows = out.buf();
      append_row_prefix(rows, spec.first_user_id + u, 1);
      append_int_field(rows, r.level);
      rows += '\t';
      append_int_field(rows, r.row);
      rows += r.plus_one ? "\tt\n" : "\tf\n";
    }
    return 1;
  });
  result.clamped = population.clamped();
  return result;
}

std::vector<RangeQuantileLine> range_quantile_lines(const RangeLoadSpec& spec, const RangeLoadResult& result) {
  const RangeProtocol& p = spec.protocol;
  const RangeSummary& s = *result.local.get();
  const bool linear = range_has_linear(p);
  std::vector<uint64_t> buf((range_prepared_size(p) + 7) / 8, 0);
  auto* d = reinterpret_cast<RangePrepared*>(buf.data());
  range_prepare(s, d, range_prepared_size(p));
  if (linear) range_prepare_quantiles(d);
  int64_t total = 0;
  for (int64_t c : result.true_counts) total += c;
  std::vector<RangeQuantileLine> lines;
  for (double phi : spec.phis) {
    // the true quantile: the first bucket whose share of users below or in it reaches φ
    int64_t b = 0, seen = 0;
    for (; b + 1 < p.domain(); ++b) {
      seen += result.true_counts[static_cast<size_t>(b)];
      if (static_cast<double>(seen) >= phi * static_cast<double>(total)) break;
    }
    if (!linear) {
      const double none = std::numeric_limits<double>::quiet_NaN();
      lines.push_back({phi, range_bucket_lower(p, b), none, none, none});
      continue;
    }
    const QuantileAnswer q = range_quantile(*d, phi, normal_critical_value(0.95));
    lines.push_back({phi, range_bucket_lower(p, b), range_bucket_lower(p, q.bucket), range_bucket_lower(p, q.lower),
                     range_bucket_upper(p, q.upper)});
  }
  return lines;
}

}  // namespace ldp::tools
