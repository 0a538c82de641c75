// Tests of the RAPPOR loader (src/tools/rappor/rappor_population.*, common/pg_load.hpp), the code behind
// `ldp_load --mechanism rappor`: the COPY text re-read into a summary is the local one,
// reproducibility, the local decode, Zipf ids and the truth file, refusals, without a
// server (RapporLoaderOffline); then a load into a server, whose ldp.rappor_agg is the
// loader's summary and ldp.rappor_decode the local decode (RapporLoaderDb; the checks
// against the aggregate are skipped, with a message, when the server lacks the extension).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "freq_loader_support.hpp"
#include "core/rappor/rappor_client.hpp"
#include "tools/common/items.hpp"  // write_truth_file
#include "tools/common/pg_load.hpp"
#include "tools/rappor/rappor_load.hpp"
#include "table_db_test.hpp"

using namespace ldp::tools;
using namespace ldp::tools::testing;

namespace {

// "the" 50%, "of" 30%, "and" 15%, "é" (non-ASCII bytes) 0.1%, and 50 rare words.
std::string words_file() {
  std::string s = "word\tcount\nthe\t50000\nof\t30000\nand\t15000\né\t100\n";
  for (int i = 0; i < 50; ++i) s += "rare" + std::to_string(i) + "\t" + std::to_string(4900 / 50) + "\n";
  return s;
}

RapporLoadSpec word_spec(const std::string& path, int64_t users, uint64_t seed) {
  RapporLoadSpec s;
  s.params.bits = 32;
  s.params.hashes = 2;
  s.params.cohorts = 8;
  s.params.f = 0.5;
  s.params.p = 0.25;
  s.params.q = 0.75;
  s.users = users;
  s.words_path = path;
  s.seed = seed;
  return s;
}

std::string generate_text(const RapporLoadSpec& spec, RapporLoadResult* result) {
  std::string all;
  *result = generate_rappor_reports(spec, [&all](std::string& lines) { all += lines; }, {}, 4096);
  return all;
}

std::string summary_text(const ldp::RapporSummary& s) {
  std::string t(ldp::rappor_summary_text_size(s), '\0');
  ldp::rappor_summary_to_text(s, t.data(), t.size());
  t.resize(t.size() - 1);
  return t;
}

// The COPY rows as ldp.rappor_agg reads them: (cohort, report varbit in the client's order).
ldp::RapporAccumulator reread(const RapporLoadSpec& s, const std::string& text) {
  ldp::RapporAccumulator acc(s.params);
  int64_t uid = s.first_user_id;
  for (const auto& f : parse_lines(text)) {
    EXPECT_EQ(f.size(), 4u);
    if (f.size() != 4) continue;
    EXPECT_EQ(std::stoll(f[0]), uid++);
    EXPECT_EQ(f[1], "1");
    const int64_t cohort = std::stoll(f[2]);
    EXPECT_TRUE(cohort >= 0 && cohort < s.params.cohorts) << cohort;
    const std::string& bits = f[3];
    EXPECT_EQ(static_cast<int64_t>(bits.size()), s.params.bits);
    std::vector<uint8_t> data((bits.size() + 7) / 8, 0);
    for (size_t j = 0; j < bits.size(); ++j) {
      EXPECT_TRUE(bits[j] == '0' || bits[j] == '1');
      if (bits[j] == '1') data[j / 8] |= static_cast<uint8_t>(0x80 >> (j % 8));
    }
    acc.add_varbit(cohort, data.data(), static_cast<int64_t>(bits.size()));
  }
  return acc;
}

void expect_refused(const RapporLoadSpec& s, const char* what) {
  try {
    validate_spec(s);
    ADD_FAILURE() << "accepted: " << what;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(RapporLoaderOffline, CopyTextIsTheLocalSummary) {
  TempFile f(words_file());
  RapporLoadSpec s = word_spec(f.path, 4000, 51);
  s.first_user_id = 7;
  RapporLoadResult r;
  const std::string text = generate_text(s, &r);
  ASSERT_TRUE(r.local);
  EXPECT_EQ(r.local->summary().n, 4000);
  EXPECT_EQ(r.local->summary().rows, 8);  // every cohort has reports
  int64_t total = 0;
  for (int64_t n : r.truth.true_counts) total += n;
  EXPECT_EQ(total, 4000);
  EXPECT_EQ(r.items.size(), 54u);
  EXPECT_EQ(r.items[0], "the");
  EXPECT_EQ(summary_text(reread(s, text).summary()), summary_text(r.local->summary()));
  // reproducible; another seed draws other cohorts, secrets and items
  RapporLoadResult again;
  EXPECT_EQ(generate_text(s, &again), text);
  RapporLoadSpec other = s;
  other.seed = 52;
  other.local_decode = false;
  RapporLoadResult o;
  EXPECT_NE(generate_text(other, &o), text);
  EXPECT_FALSE(o.local);
}

TEST(RapporLoaderOffline, LocalDecodeFindsTheHeavyWords) {
  TempFile f(words_file());
  RapporLoadResult r = generate_rappor_reports(word_spec(f.path, 100000, 53), {});
  ASSERT_TRUE(r.local);
  const std::vector<std::string_view> cands(r.items.begin(), r.items.end());
  const ldp::RapporDecode d = ldp::rappor_decode(r.local->summary(), cands);
  for (size_t j = 0; j < 3; ++j) {
    SCOPED_TRACE(r.items[j]);
    EXPECT_TRUE(d.items[j].detected);
    EXPECT_NEAR(d.items[j].count, static_cast<double>(r.truth.true_counts[j]), 4 * d.items[j].std_error);
  }
}

TEST(RapporLoaderOffline, ZipfIdsAndTheTruthFile) {
  RapporLoadSpec s = word_spec("", 20000, 54);
  s.zipf_s = 1.5;
  s.k = 200;
  RapporLoadResult r;
  generate_text(s, &r);
  ASSERT_EQ(r.items.size(), 200u);
  EXPECT_EQ(r.items[0], "1");
  EXPECT_EQ(r.items[199], "200");
  EXPECT_EQ(r.truth.top_items(1)[0], 0);
  TempFile truth;
  write_truth_file(truth.path, r.items, r.truth);
  int64_t total = 0;
  for (const WordCount& w : read_word_counts(truth.path)) {
    EXPECT_GT(w.count, 0);
    EXPECT_EQ(r.truth.true_counts[static_cast<size_t>(std::stoll(w.word) - 1)], w.count) << w.word;
    total += w.count;
  }
  EXPECT_EQ(total, 20000);
}

TEST(RapporLoaderOffline, Refusals) {
  TempFile f(words_file());
  RapporLoadSpec s = word_spec(f.path, 10, 55);
  RapporLoadSpec b = s;
  b.params.bits = 0;
  expect_refused(b, "--bits");
  b = s;
  b.params.p = 0.75;
  expect_refused(b, "--bits");  // p >= q: the core's message, under the parameters' names
  b = s;
  b.params.cohorts = 0;
  expect_refused(b, "--cohorts");
  b = s;
  b.users = 0;
  expect_refused(b, "--users");
  b = word_spec("", 10, 55);
  expect_refused(b, "zipf:S");
  b.zipf_s = 1;
  expect_refused(b, "--k");
  TempFile empty("word\tcount\nx\t0\n");
  RapporLoadResult r;
  EXPECT_THROW(generate_text(word_spec(empty.path, 10, 56), &r), UsageError);
}

// ---------------------------------------------------------------------------
// With a server

namespace {

class RapporLoaderDb : public TableDbTest {
 protected:
  RapporLoaderDb() : TableDbTest("ldp_it_rappor_") {}
  std::string summary(const RapporLoadSpec& s) {
    const ldp::RapporParams& P = s.params;
    char args[160];
    std::snprintf(args, sizeof args, "%lld, %lld, %.17g, %.17g, %.17g", static_cast<long long>(P.hashes),
                  static_cast<long long>(P.cohorts), P.f, P.p, P.q);
    return "(SELECT ldp.rappor_agg(cohort, report, " + std::string(args) + ") FROM " + table_ + ")";
  }
};

}  // namespace

TEST_F(RapporLoaderDb, AggregateAndDecodeAreTheLoaders) {
  TempFile f(words_file());
  const RapporLoadSpec s = word_spec(f.path, 20000, 57);
  RapporLoadResult r = load_spec<RapporLoad>(*conn_, s, table_, false);
  EXPECT_GT(r.seconds, 0);
  {
    pqxx::work t(*conn_);
    const auto cols = table_columns(t, quote_table_name(table_));
    t.commit();
    const std::vector<std::pair<std::string, std::string>> want{
        {"user_id", "bigint"}, {"round", "integer"}, {"cohort", "integer"}, {"report", "bit varying"}};
    EXPECT_EQ(cols, want);
  }
  EXPECT_EQ(count("SELECT count(DISTINCT user_id) FROM " + table_), 20000);
  if (!need_extension())
    GTEST_SKIP() << "the ldp extension is not installed on the test server: the check of ldp.rappor_agg is skipped";
  EXPECT_EQ(one_row("SELECT " + summary(s) + "::text")[0].as<std::string>(), summary_text(r.local->summary()));
  const std::vector<std::string_view> cands(r.items.begin(), r.items.begin() + 4);
  const ldp::RapporDecode d = ldp::rappor_decode(r.local->summary(), cands);
  const pqxx::result rows =
      query("SELECT count, std_error, detected FROM ldp.rappor_decode(" + summary(s) + ", ARRAY['the', 'of', 'and', 'é'])");
  ASSERT_EQ(rows.size(), 4u);
  for (size_t j = 0; j < 4; ++j) {
    EXPECT_EQ(rows[j][0].as<double>(), d.items[j].count) << j;
    EXPECT_EQ(rows[j][1].as<double>(), d.items[j].std_error) << j;
    EXPECT_EQ(rows[j][2].as<bool>(), d.items[j].detected) << j;
  }
}
