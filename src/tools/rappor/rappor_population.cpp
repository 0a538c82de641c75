#include "tools/rappor/rappor_population.hpp"

#include <cmath>
#include <memory>

#include "core/common/error.hpp"
#include "core/rappor/rappor_client.hpp"

namespace ldp::tools {

void validate_spec(const RapporLoadSpec& s) {
  try {
    validate_rappor_params(s.params);
  } catch (const ldp::Error& e) {
    throw UsageError(std::string("--bits, --hashes, --cohorts, --f, --p, --q: ") + e.what());
  }
  if (s.users < 1) throw UsageError("--users must be at least 1");
  if (s.integers()) {
    if (!(s.zipf_s > 0) || !std::isfinite(s.zipf_s)) throw UsageError("--distribution zipf:S needs S > 0");
    if (s.k < 1 || s.k > 100000000) throw UsageError("--k must be in [1, 10^8]");
  }
  if (s.first_user_id < 0) throw UsageError("--first-user-id must be >= 0");
}

std::vector<ReportColumn> rappor_report_columns() { return {{"cohort", "integer"}, {"report", "bit varying"}}; }

RapporLoadResult generate_rappor_reports(const Validated<RapporLoadSpec>& checked, const ChunkSink& sink,
                                         const ProgressFn& progress, size_t chunk_bytes) {
  const RapporLoadSpec& spec = *checked;
  const RapporParams& P = spec.params;
  RapporLoadResult result;
  std::vector<double> cdf;
  if (!spec.integers()) {
    long double c = 0;
    for (const WordCount& w : read_word_counts(spec.words_path)) {
      if (w.count == 0) continue;
      result.items.push_back(w.word);
      cdf.push_back(static_cast<double>(c += w.count));
    }
    if (cdf.empty()) throw UsageError(spec.words_path + " has no word with a positive count");
  } else {
    cdf = zipf_cdf(spec.k, spec.zipf_s);
    for (int64_t i = 0; i < spec.k; ++i) result.items.push_back(std::to_string(i + 1));
  }
  result.truth.true_counts.assign(result.items.size(), 0);
  if (spec.local_decode) result.local.emplace(P);

  std::unique_ptr<RandomSource> pop_rng = make_random(spec.seed, 0);
  std::unique_ptr<RandomSource> enc_rng = make_random(spec.seed, 1);
  ChunkedRows out(sink, progress, chunk_bytes, static_cast<size_t>(P.bits) + 48);
  std::string secret(16, '\0');
  for_each_device(spec.users, out, [&](int64_t u) -> int64_t {
    const auto cohort = static_cast<int64_t>(pop_rng->below(static_cast<uint64_t>(P.cohorts)));
    for (size_t b = 0; b < secret.size(); b += 8) {
      const uint64_t r = pop_rng->next_u64();
      for (size_t j = 0; j < 8; ++j) secret[b + j] = static_cast<char>(r >> (8 * j));
    }
    const size_t i = draw_cdf_index(cdf, *pop_rng);
    ++result.truth.true_counts[i];
    const RapporBits report = rappor_encode(result.items[i], cohort, secret, P.bits, P.hashes, P.f, P.p, P.q, *enc_rng);
    if (result.local) result.local->add(cohort, report);
    if (sink) {
      std::string& rows = out.buf();
      rows += std::to_string(spec.first_user_id + u);
      rows += "\t1\t";
      rows += std::to_string(cohort);
      rows += '\t';
      rows += rappor_bit_string(report, P.bits);
      rows += '\n';
    }
    return 1;
  });
  result.truth.reports = spec.users;
  return result;
}

}  // namespace ldp::tools
