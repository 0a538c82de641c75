// Tests of the sketch loader (src/tools/sketch/sketch_population.*, common/pg_load.hpp), the code
// behind `ldp_load --mechanism cms|hcms|hashtogram --words FILE`: the COPY text and the
// truth without a server (SketchLoaderOffline), then loads into a server and the ldp
// sketch aggregates on what was loaded (SketchLoaderDb: connects with the libpq
// environment that the test script sets and fails when it cannot; the checks against
// the aggregates are skipped, with a message, only when the server lacks the
// extension). Words come from test/data/subtlex_top1000.tsv.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "freq_loader_support.hpp"
#include "tools/common/pg_load.hpp"
#include "table_db_test.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "tools/sketch/sketch_load.hpp"

using namespace ldp::tools;
using namespace ldp::tools::testing;
using ldp::SketchMechanism;

namespace {

SketchLoadSpec sketch_spec(SketchMechanism m, double epsilon, int64_t hashes, int64_t width,
                           int64_t users, uint64_t seed) {
  SketchLoadSpec s;
  s.mechanism = m;
  s.epsilon = epsilon;
  s.hashes = hashes;
  s.width = width;
  s.users = users;
  s.words_path = kWords;
  s.seed = seed;
  return s;
}

std::string generate_sketch_text(const SketchLoadSpec& spec, SketchLoadResult* result = nullptr) {
  std::string all;
  SketchLoadResult r =
      generate_sketch_reports(spec, [&all](std::string& lines) { all += lines; }, {}, 4096);
  if (result) *result = std::move(r);
  return all;
}

// Decodes COPY text the way the aggregates read the table, checking every field.
LocalSketch decode_sketch_text(const SketchLoadSpec& s, const std::string& text) {
  LocalSketch sum(s.mechanism, ldp::SketchParams{s.epsilon, s.hashes, s.width});
  int64_t uid = s.first_user_id;
  for (const auto& f : parse_lines(text)) {
    const bool cms = s.mechanism == SketchMechanism::CMS;
    EXPECT_EQ(f.size(), cms ? 4u : 5u);
    if (f.size() < 4) continue;
    EXPECT_EQ(std::stoll(f[0]), uid++);
    EXPECT_EQ(f[1], "1");
    const int64_t j = std::stoll(f[2]);
    EXPECT_TRUE(j >= 0 && j < s.hashes) << j;
    if (cms) {
      int64_t nbits = 0;
      std::vector<uint8_t> bytes = varbit_bytes(f[3], &nbits);
      EXPECT_EQ(nbits, s.width);
      EXPECT_EQ(f[3][0] == 'X', s.width % 4 == 0) << f[3];
      ldp::sketch_add_cms(sum.get(), j, bytes.data(), nbits);
    } else if (f.size() == 5) {
      const int64_t l = std::stoll(f[3]);
      EXPECT_TRUE(l >= 0 && l < s.width) << l;
      EXPECT_TRUE(f[4] == "t" || f[4] == "f") << f[4];
      ldp::sketch_add_signed(sum.get(), j, l, f[4] == "t");
    }
  }
  return sum;
}

struct SketchCase {
  SketchMechanism mechanism;
  int64_t hashes, width;
  std::string agg;  // over the table's columns, epsilon 4
};

// 20,000 reports of the top-1000 words: cms with fewer columns (each report carries
// width bits), hcms and hashtogram with 64 rows of 256.
const std::vector<SketchCase>& sketch_cases() {
  static const std::vector<SketchCase> cases{
      {SketchMechanism::CMS, 16, 256, "ldp.cms_agg(hash_index, report, 4.0, 16)"},
      {SketchMechanism::HCMS, 64, 256,
       "ldp.hcms_agg(hash_index, coefficient, report, 4.0, 64, 256)"},
      {SketchMechanism::Hashtogram, 64, 256,
       "ldp.hashtogram_agg(hash_index, coefficient, report, 4.0, 64, 256)"},
  };
  return cases;
}

}  // namespace

// ---------------------------------------------------------------------------
// Without a server

TEST(SketchLoaderOffline, NamesTheMechanisms) {
  for (SketchMechanism m :
       {SketchMechanism::CMS, SketchMechanism::HCMS, SketchMechanism::Hashtogram})
    EXPECT_EQ(parse_sketch_mechanism(sketch_mechanism_name(m)), m);
  EXPECT_EQ(std::string(sketch_mechanism_name(SketchMechanism::Hashtogram)), "hashtogram");
  for (const char* bad : {"", "grr", "CMS", "hcms ", "sketch"})
    EXPECT_FALSE(parse_sketch_mechanism(bad)) << bad;
}

TEST(SketchLoaderOffline, ValidatesTheSpec) {
  EXPECT_NO_THROW(validate_spec(sketch_spec(SketchMechanism::CMS, 2, 4, 30, 10, 1)));
  auto refused = [](SketchLoadSpec s, const char* what) {
    try {
      validate_spec(s);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  // the core's message, then the options it is about
  refused(sketch_spec(SketchMechanism::HCMS, 2, 4, 30, 10, 1), "width must be a power of two");
  refused(sketch_spec(SketchMechanism::Hashtogram, 2, 0, 64, 10, 1), "hashes must be in");
  refused(sketch_spec(SketchMechanism::CMS, 0, 4, 64, 10, 1), "epsilon must be in");
  refused(sketch_spec(SketchMechanism::HCMS, 2, 4096, 4096, 10, 1), "hashes * width");
  refused(sketch_spec(SketchMechanism::CMS, 2, 4, 1, 10, 1), "(--epsilon, --hashes, --width)");
  refused(sketch_spec(SketchMechanism::HCMS, 2, 4, 64, 0, 1), "--users");
  SketchLoadSpec no_words = sketch_spec(SketchMechanism::HCMS, 2, 4, 64, 10, 1);
  no_words.words_path.clear();
  refused(no_words, "--words");
}

TEST(SketchLoaderOffline, ReadsEveryWordAndRefusesDuplicates) {
  std::unique_ptr<ldp::RandomSource> rng = make_random(uint64_t{5}, 0);
  WordPopulation pop(kWords);
  ASSERT_EQ(pop.words().size(), 1000u);
  EXPECT_EQ(pop.words()[0], "you");
  // every word can be drawn; "you" holds 2134713 / 42742170 of the fixture's counts
  int64_t you = 0, last_half = 0;
  for (int i = 0; i < 200000; ++i) {
    int64_t w = pop.next(*rng);
    ASSERT_TRUE(w >= 0 && w < 1000);
    you += w == 0;
    last_half += w >= 500;
  }
  const double p = 2134713.0 / 42742170.0;
  EXPECT_NEAR(static_cast<double>(you) / 200000, p, 5 * std::sqrt(p * (1 - p) / 200000));
  EXPECT_GT(last_half, 0);

  char path[] = "/tmp/ldp_sketch_loader_test_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  { std::ofstream(path) << "word\tcount\nb\t5\na\t3\nb\t1\n"; }
  try {
    WordPopulation dup(path);
    ADD_FAILURE() << "a word listed twice must be refused";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'b' is listed twice"), std::string::npos) << e.what();
  }
  { std::ofstream(path) << "word\tcount\nb\t0\na\t0\n"; }
  EXPECT_THROW(WordPopulation zero(path), UsageError);
  unlink(path);
}

TEST(SketchLoaderOffline, CopyTextDecodesToTheLocalSummary) {
  // cms in both varbit forms (width a multiple of 4: X<hex>; else 0/1), hcms, hashtogram
  struct Case {
    SketchMechanism m;
    int64_t hashes, width;
  };
  for (const Case& c : {Case{SketchMechanism::CMS, 8, 64}, Case{SketchMechanism::CMS, 5, 30},
                        Case{SketchMechanism::HCMS, 16, 128},
                        Case{SketchMechanism::Hashtogram, 7, 32}}) {
    SCOPED_TRACE(std::string(sketch_mechanism_name(c.m)) + " width " + std::to_string(c.width));
    SketchLoadSpec s = sketch_spec(c.m, 2, c.hashes, c.width, 3000, 31);
    s.first_user_id = 11;
    SketchLoadResult r;
    std::string text = generate_sketch_text(s, &r);
    ASSERT_TRUE(r.local);
    EXPECT_EQ((*r.local)->n, 3000);
    EXPECT_EQ(r.truth.reports, 3000);
    EXPECT_EQ(r.words.size(), 1000u);
    int64_t total = 0;
    for (int64_t n : r.truth.true_counts) total += n;
    EXPECT_EQ(total, 3000);
    EXPECT_EQ(decode_sketch_text(s, text).text(), r.local->text());
    // reproducible, and the same seed gives the same words for every mechanism
    SketchLoadResult again;
    EXPECT_EQ(generate_sketch_text(s, &again), text);
    SketchLoadSpec other = sketch_spec(SketchMechanism::HCMS, 1, 4, 16, 3000, 31);
    other.local_decode = false;
    SketchLoadResult o;
    generate_sketch_text(other, &o);
    EXPECT_EQ(o.truth.true_counts, r.truth.true_counts);
    EXPECT_FALSE(o.local);
  }
}

TEST(SketchLoaderOffline, FormatsRowsAndTables) {
  std::string out;
  const uint8_t bytes[2] = {0xA5, 0xC0};
  append_cms_row(out, 7, 1, 3, bytes, 12);
  append_cms_row(out, 8, 1, 0, bytes, 10);
  append_signed_sketch_row(out, 9, 1, 2, 511, true);
  append_signed_sketch_row(out, 10, 1, 0, 0, false);
  EXPECT_EQ(out, "7\t1\t3\tXA5C\n8\t1\t0\t1010010111\n9\t1\t2\t511\tt\n10\t1\t0\t0\tf\n");
  EXPECT_EQ(report_create_table_sql("\"t\"", sketch_report_columns(SketchMechanism::CMS)),
            "CREATE TABLE IF NOT EXISTS \"t\" (user_id bigint NOT NULL, round integer NOT NULL, "
            "\"hash_index\" integer NOT NULL, \"report\" bit varying NOT NULL)");
  EXPECT_EQ(report_copy_columns(sketch_report_columns(SketchMechanism::Hashtogram)),
            (std::vector<std::string>{"\"user_id\"", "\"round\"", "\"hash_index\"",
                                      "\"coefficient\"", "\"report\""}));
}

// ---------------------------------------------------------------------------
// With a server

class SketchLoaderDb : public TableDbTest {
 protected:
  SketchLoaderDb() : TableDbTest("ldp_it_sketch_") {}
  // (name, format_type) of the table's columns, in order
  std::vector<std::pair<std::string, std::string>> layout() {
    pqxx::work t(*conn_);
    auto cols = table_columns(t, quote_table_name(table_));
    t.commit();
    return cols;
  }

};

TEST_F(SketchLoaderDb, CreatesTheDocumentedLayouts) {
  using Layout = std::vector<std::pair<std::string, std::string>>;
  const Layout cms{{"user_id", "bigint"}, {"round", "integer"}, {"hash_index", "integer"},
                   {"report", "bit varying"}};
  const Layout signed_layout{{"user_id", "bigint"}, {"round", "integer"},
                             {"hash_index", "integer"}, {"coefficient", "integer"},
                             {"report", "boolean"}};
  for (const SketchCase& c : sketch_cases()) {
    SCOPED_TRACE(sketch_mechanism_name(c.mechanism));
    SketchLoadSpec s = sketch_spec(c.mechanism, 4, c.hashes, c.width, 500, 41);
    SketchLoadResult r = load_spec<SketchLoad>(*conn_, s, table_, false);
    EXPECT_GT(r.seconds, 0);
    EXPECT_EQ(layout(), c.mechanism == SketchMechanism::CMS ? cms : signed_layout);
    EXPECT_EQ(count("SELECT count(*) FROM " + table_), 500);
    EXPECT_EQ(count("SELECT count(DISTINCT user_id) FROM " + table_), 500);
    EXPECT_EQ(count("SELECT count(*) FROM " + table_ + " WHERE round <> 1"), 0);
    EXPECT_EQ(count("SELECT count(*) FROM " + table_ + " WHERE hash_index NOT BETWEEN 0 AND " +
                    std::to_string(c.hashes - 1)),
              0);
    if (c.mechanism == SketchMechanism::CMS) {
      EXPECT_EQ(count("SELECT min(length(report)) FROM " + table_), c.width);
      EXPECT_EQ(count("SELECT max(length(report)) FROM " + table_), c.width);
    } else {
      EXPECT_EQ(count("SELECT count(*) FROM " + table_ + " WHERE coefficient NOT BETWEEN 0 AND " +
                      std::to_string(c.width - 1)),
                0);
    }
    drop();
  }
  // the 0/1 text form of a width that is not a multiple of 4
  SketchLoadSpec odd = sketch_spec(SketchMechanism::CMS, 4, 3, 30, 50, 42);
  load_spec<SketchLoad>(*conn_, odd, table_, false);
  EXPECT_EQ(count("SELECT min(length(report)) FROM " + table_), 30);
  EXPECT_EQ(count("SELECT max(length(report)) FROM " + table_), 30);
}

TEST_F(SketchLoaderDb, EstimatesOfTheTopWordsAgreeWithTheTruth) {
  if (!need_extension())
    GTEST_SKIP() << "the ldp extension is not installed on the test server "
                    "(pg_available_extensions has no 'ldp'): the check of the sketch "
                    "aggregates is skipped";
  for (const SketchCase& c : sketch_cases()) {
    const char* name = sketch_mechanism_name(c.mechanism);
    SCOPED_TRACE(c.agg);
    SketchLoadSpec s = sketch_spec(c.mechanism, 4, c.hashes, c.width, 20000, 43);
    SketchLoadResult r = load_spec<SketchLoad>(*conn_, s, table_, false);
    ASSERT_TRUE(r.local);
    EXPECT_EQ(count("SELECT count(*) FROM " + table_), 20000) << name;
    // the aggregate's counters are the loader's, bit for bit
    const std::string summary = "(SELECT " + c.agg + " FROM " + table_ + ")";
    pqxx::result text = query("SELECT " + summary + "::text, ldp.report_count(" + summary + ")");
    EXPECT_EQ(text[0][0].as<std::string>(), r.local->text());
    EXPECT_EQ(text[0][1].as<int64_t>(), 20000);

    // the 10 most frequent words of the population, and two words nobody holds
    std::vector<int64_t> top = r.truth.top_items(10);
    std::vector<std::string> items;
    std::string array = "ARRAY[";
    for (int64_t w : top) items.push_back(r.words[static_cast<size_t>(w)]);
    items.push_back("zyzzyva-not-a-word");
    items.push_back("");
    for (size_t i = 0; i < items.size(); ++i) {
      pqxx::nontransaction t(*conn_);
      array += (i ? ", " : "") + t.quote(items[i]);
    }
    array += "]::text[]";
    pqxx::result rows = query(
        "SELECT item, frequency, count, std_error, ci_lower, ci_upper FROM ldp.frequencies(" +
        summary + ", " + array + ")");
    ASSERT_EQ(rows.size(), items.size());
    std::vector<ItemEstimate> local = local_sketch_frequencies(**r.local, items);
    for (size_t i = 0; i < items.size(); ++i) {
      SCOPED_TRACE(items[i]);
      EXPECT_EQ(rows[i][0].as<std::string>(), items[i]);
      const double f = rows[i][1].as<double>(), se = rows[i][3].as<double>();
      const double truth = i < top.size() ? r.truth.true_frequency(top[i]) : 0.0;
      EXPECT_GT(se, 0);
      EXPECT_LT(std::fabs(f - truth), 4 * se)
          << name << ": estimate " << f << ", truth " << truth << ", std_error " << se;
      EXPECT_NEAR(rows[i][2].as<double>(), f * 20000, 1e-9 * std::fmax(1.0, std::fabs(f) * 20000));
      EXPECT_LT(rows[i][4].as<double>(), f);
      EXPECT_GT(rows[i][5].as<double>(), f);
      // the loader's local decoding is the extension's
      const double want[5] = {local[i].frequency, local[i].count, local[i].std_error,
                              local[i].ci_lower, local[i].ci_upper};
      for (int col = 0; col < 5; ++col)
        EXPECT_NEAR(rows[i][col + 1].as<double>(), want[col],
                    1e-12 * std::fmax(1.0, std::fabs(want[col])))
            << "column " << col + 1;
    }
    // the most frequent word stands out: its estimate is above that of an absent word
    const double absent = rows[items.size() - 2][1].as<double>();
    EXPECT_GT(rows[0][1].as<double>(), absent + 4 * rows[0][3].as<double>());
    drop();
  }
}

TEST_F(SketchLoaderDb, ParallelPlansGiveTheSameSummary) {
  if (!need_extension())
    GTEST_SKIP() << "the ldp extension is not installed on the test server: skipped";
  {
    pqxx::nontransaction t(*conn_);
    t.exec0("SET max_parallel_workers_per_gather = 2");
    t.exec0("SET parallel_setup_cost = 0");
    t.exec0("SET parallel_tuple_cost = 0");
    t.exec0("SET min_parallel_table_scan_size = 0");
    t.exec0("SET force_parallel_mode = on");  // debug_parallel_query from PostgreSQL 16
  }
  for (const SketchCase& c : sketch_cases()) {
    SCOPED_TRACE(c.agg);
    SketchLoadSpec s = sketch_spec(c.mechanism, 4, c.hashes, c.width, 20000, 44);
    SketchLoadResult r = load_spec<SketchLoad>(*conn_, s, table_, false);
    std::string plan;
    for (const auto& row : query("EXPLAIN SELECT " + c.agg + " FROM " + table_))
      plan += row[0].as<std::string>() + "\n";
    EXPECT_NE(plan.find("Partial Aggregate"), std::string::npos) << plan;
    EXPECT_EQ(query("SELECT (" + c.agg + ")::text FROM " + table_)[0][0].as<std::string>(),
              r.local->text());
    drop();
  }
}

TEST_F(SketchLoaderDb, AcceptsExtraColumnsAndRefusesWrongShapes) {
  {  // an existing table with an extra column and a varbit of fixed length
    pqxx::nontransaction t(*conn_);
    t.exec0("CREATE TABLE " + table_ +
            " (user_id bigint, round int, hash_index int, report varbit(64), "
            "loaded_at timestamptz DEFAULT now())");
  }
  SketchLoadSpec cms = sketch_spec(SketchMechanism::CMS, 2, 4, 64, 300, 45);
  load_spec<SketchLoad>(*conn_, cms, table_, false);
  EXPECT_EQ(count("SELECT count(loaded_at) FROM " + table_), 300);
  // hcms reports need a coefficient column: nothing is truncated or added
  SketchLoadSpec hcms = sketch_spec(SketchMechanism::HCMS, 2, 4, 64, 10, 46);
  try {
    load_spec<SketchLoad>(*conn_, hcms, table_, true);
    FAIL() << "loading hcms reports into a cms table must fail";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("coefficient integer"), std::string::npos) << e.what();
  }
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 300);
  // appending with new user ids, then truncating
  cms.first_user_id = 301;
  load_spec<SketchLoad>(*conn_, cms, table_, false);
  EXPECT_EQ(count("SELECT count(DISTINCT user_id) FROM " + table_), 600);
  load_spec<SketchLoad>(*conn_, cms, table_, true);
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 300);
}
