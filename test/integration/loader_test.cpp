// Integration tests of the report loader (src/tools/mean/mean_population.*, common/pg_load.hpp), the
// code behind ldp_load. The tests in LoaderOffline need no server; LoaderDb connects
// with the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE) that the test
// script sets, and fails (it does not skip) when it cannot connect. Only the check
// against the ldp extension is skipped, with a message, when the server does not
// have the extension installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tools/common/pg_load.hpp"
#include "table_db_test.hpp"
#include "tools/mean/mean_load.hpp"

using namespace ldp::tools;
using ldp::tools::testing::TableDbTest;

namespace {

LoadSpec make_spec(Mechanism m, double epsilon, double max_value, const std::string& dist,
                   int64_t users, uint64_t seed) {
  LoadSpec s;
  s.mechanism = m;
  s.epsilon = epsilon;
  s.max_value = max_value;
  s.distribution = parse_distribution(dist);
  s.users = users;
  s.seed = seed;
  return s;
}

// All the COPY text a spec generates, in one string.
std::string generate_text(const LoadSpec& spec, LoadResult* result = nullptr) {
  std::string all;
  LoadResult r = generate_reports(spec, [&all](std::string& lines) { all += lines; }, {}, 4096);
  if (result) *result = r;
  return all;
}

std::vector<std::vector<std::string>> parse_lines(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    size_t start = 0, tab;
    while ((tab = line.find('\t', start)) != std::string::npos) {
      f.push_back(line.substr(start, tab - start));
      start = tab + 1;
    }
    f.push_back(line.substr(start));
    rows.push_back(f);
  }
  return rows;
}

}  // namespace

// ---------------------------------------------------------------------------
// Without a server

TEST(LoaderOffline, ParsesDistributions) {
  EXPECT_EQ(parse_distribution("constant:3").kind, Distribution::Kind::Constant);
  Distribution u = parse_distribution("uniform:1:5");
  EXPECT_EQ(u.a, 1);
  EXPECT_EQ(u.b, 5);
  Distribution z = parse_distribution("zipf:1.2:100");
  EXPECT_EQ(z.k, 100);
  Distribution f = parse_distribution("file:/a:b/c.tsv:3");
  EXPECT_EQ(f.path, "/a:b/c.tsv");
  EXPECT_EQ(f.column, 3);
  EXPECT_EQ(parse_distribution("file:/x.txt").column, 1);
  for (const char* bad : {"", "constant", "constant:", "constant:x", "uniform:1", "uniform:3:1",
                          "normal:1:-1", "zipf:0:10", "zipf:1:2.5", "bernoulli:1.5", "file:",
                          "poisson:3", "constant:nan", "uniform:0:inf"})
    EXPECT_THROW(parse_distribution(bad), UsageError) << bad;
}

TEST(LoaderOffline, ValidatesSpecs) {
  LoadSpec ok = make_spec(Mechanism::OneBit, 1, 100, "uniform:0:100", 10, 1);
  EXPECT_NO_THROW(validate_spec(ok));
  LoadSpec s = ok;
  s.epsilon = 0;
  EXPECT_THROW(validate_spec(s), UsageError);
  s = ok;
  s.gamma = 0.5;
  EXPECT_THROW(validate_spec(s), UsageError);
  s = ok;
  s.rounds = 3;  // needs a granularity
  EXPECT_THROW(validate_spec(s), UsageError);
  s.granularity = 200;  // above max_value
  EXPECT_THROW(validate_spec(s), UsageError);
  s.granularity = 25;
  EXPECT_NO_THROW(validate_spec(s));
  LoadSpec rr = make_spec(Mechanism::RR, 1, 1, "uniform:0:1", 10, 1);
  EXPECT_THROW(validate_spec(rr), UsageError);  // rr needs bits
  rr.distribution = parse_distribution("bernoulli:0.2");
  EXPECT_NO_THROW(validate_spec(rr));
  rr.max_value = 5;
  EXPECT_THROW(validate_spec(rr), UsageError);
  LoadSpec lap = make_spec(Mechanism::Laplace, 1, 10, "uniform:0:10", 10, 1);
  lap.gamma = 0.1;
  EXPECT_THROW(validate_spec(lap), UsageError);
  // parameters outside [0, max_value] are refused when the population is built
  EXPECT_THROW(Population(parse_distribution("uniform:0:20"), 10, 5), UsageError);
  EXPECT_THROW(Population(parse_distribution("zipf:1:20"), 10, 5), UsageError);
}

TEST(LoaderOffline, QuotesTableNames) {
  EXPECT_EQ(quote_table_name("Reports"), "\"reports\"");
  EXPECT_EQ(quote_table_name("s.t_1"), "\"s\".\"t_1\"");
  EXPECT_EQ(quote_table_name("\"My \"\"T\"\"\""), "\"My \"\"T\"\"\"");
  EXPECT_EQ(quote_table_name("s.\"X\""), "\"s\".\"X\"");
  for (const char* bad : {"", "a.b.c", "x;drop table y", "1abc", "a.", ".a", "\"open", "\"\"",
                          "a b"})
    EXPECT_THROW(quote_table_name(bad), UsageError) << bad;
}

TEST(LoaderOffline, FormatsRows) {
  std::string out;
  append_row(out, 42, 3, true);
  append_row(out, 9000000000LL, 1, false);
  append_row(out, 7, 2, 0.1);
  append_row(out, 8, 1, -1234.5);
  EXPECT_EQ(out, "42\t3\tt\n9000000000\t1\tf\n7\t2\t0.1\n8\t1\t-1234.5\n");
  for (double v : {0.1, 1.0 / 3.0, -1e-300, 123456789.123456789, 5e-324, 1.7976931348623157e308}) {
    std::string s;
    append_double(s, v);
    EXPECT_EQ(std::strtod(s.c_str(), nullptr), v) << s;
  }
}

TEST(LoaderOffline, ReadsValueFiles) {
  char path[] = "/tmp/ldp_loader_test_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  {
    std::ofstream f(path);
    f << "user\tseconds\n# a comment\nu1\t10\n\nu2\t-5\r\nu3\t500\nu4\t20.5\n";
  }
  std::vector<double> v = read_values_file(path, 2);
  EXPECT_EQ(v, (std::vector<double>{10, -5, 500, 20.5}));
  Population p(parse_distribution(std::string("file:") + path + ":2"), 100, 4);
  ldp::SeededRandom rng(1);
  std::vector<double> got;
  for (int i = 0; i < 4; ++i) got.push_back(p.next(rng));
  EXPECT_EQ(got, (std::vector<double>{10, 0, 100, 20.5}));
  EXPECT_EQ(p.clamped(), 2);
  EXPECT_THROW(Population(parse_distribution(std::string("file:") + path + ":2"), 100, 5),
               UsageError);  // fewer values than users
  EXPECT_THROW(read_values_file(path, 3), UsageError);
  {
    std::ofstream f(path);
    f << "1\n2\nthree\n";
  }
  EXPECT_THROW(read_values_file(path, 1), UsageError);  // not a header: after numbers
  std::remove(path);
}

TEST(LoaderOffline, SeededGenerationIsReproducible) {
  LoadSpec s = make_spec(Mechanism::Piecewise, 2, 100, "normal:40:20", 5000, 99);
  LoadResult r1, r2;
  std::string t1 = generate_text(s, &r1);
  std::string t2 = generate_text(s, &r2);
  EXPECT_EQ(t1, t2);
  EXPECT_EQ(r1.total.estimate.value, r2.total.estimate.value);
  // One seed, one population: the truth does not depend on the mechanism.
  LoadSpec l = s;
  l.mechanism = Mechanism::Laplace;
  LoadResult r3;
  std::string t3 = generate_text(l, &r3);
  EXPECT_NE(t1, t3);
  EXPECT_EQ(r1.total.true_mean, r3.total.true_mean);
  EXPECT_EQ(r1.clamped, r3.clamped);
  // Another seed, other reports.
  s.seed = 100;
  EXPECT_NE(generate_text(s), t1);
}

TEST(LoaderOffline, TallyMatchesTheGeneratedRows) {
  LoadSpec s = make_spec(Mechanism::RR, 1, 1, "bernoulli:0.3", 20000, 5);
  LoadResult r;
  auto rows = parse_lines(generate_text(s, &r));
  ASSERT_EQ(rows.size(), 20000u);
  int64_t ones = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 3u);
    EXPECT_EQ(rows[i][0], std::to_string(i + 1));
    EXPECT_EQ(rows[i][1], "1");
    ASSERT_TRUE(rows[i][2] == "t" || rows[i][2] == "f");
    ones += rows[i][2] == "t";
  }
  EXPECT_EQ(r.total.reports, 20000);
  EXPECT_EQ(r.total.ones, ones);
  EXPECT_DOUBLE_EQ(r.total.report_mean, ones / 20000.0);
  // the truth is a proportion of a Bernoulli(0.3) population; the estimate is near it
  EXPECT_NEAR(r.total.true_mean, 0.3, 0.02);
  EXPECT_NEAR(r.total.estimate.value, r.total.true_mean, 5 * r.total.estimate.std_error);
}

TEST(LoaderOffline, MemoizedClientsRepeatTheirBits) {
  // constant users, no output perturbation: alpha-point rounding lands on the same grid
  // point every round, so permanent memoization repeats each user's bit.
  LoadSpec s = make_spec(Mechanism::OneBit, 1, 100, "uniform:0:100", 2000, 11);
  s.granularity = 25;
  s.rounds = 4;
  s.constant_users = true;
  LoadResult r;
  auto rows = parse_lines(generate_text(s, &r));
  ASSERT_EQ(rows.size(), 8000u);
  std::map<std::string, std::string> first;
  for (const auto& row : rows) {
    auto [it, inserted] = first.emplace(row[0], row[2]);
    if (!inserted) {
      EXPECT_EQ(it->second, row[2]) << "user " << row[0];
    }
  }
  ASSERT_EQ(r.rounds.size(), 4u);
  for (const Tally& t : r.rounds) {
    EXPECT_EQ(t.reports, 2000);
    EXPECT_EQ(t.ones, r.rounds[0].ones);
    EXPECT_EQ(t.true_mean, r.rounds[0].true_mean);
  }
  EXPECT_EQ(r.total.reports, 8000);
}

// ---------------------------------------------------------------------------
// With a server

class LoaderDb : public TableDbTest {
 protected:
  LoaderDb() : TableDbTest("ldp_it_loader_") {}
};

TEST_F(LoaderDb, RrRowsCountAndMeanMatch) {
  LoadSpec s = make_spec(Mechanism::RR, 1, 1, "bernoulli:0.3", 200000, 1);
  int64_t progress_calls = 0, last = 0;
  LoadResult r = load_spec<MeanLoad>(*conn_, s, table_, false, [&](int64_t done) {
    ++progress_calls;
    EXPECT_GE(done, last);
    last = done;
  });
  EXPECT_GT(progress_calls, 1);
  EXPECT_EQ(last, 200000);
  EXPECT_GT(r.seconds, 0);
  pqxx::row row = one_row("SELECT count(*), sum(report::int), avg(report::int)::float8, "
                          "count(DISTINCT user_id), min(user_id), max(user_id), min(round), "
                          "max(round) FROM " + table_);
  EXPECT_EQ(row[0].as<int64_t>(), 200000);
  EXPECT_EQ(row[0].as<int64_t>(), r.total.reports);
  EXPECT_EQ(row[1].as<int64_t>(), r.total.ones);
  EXPECT_DOUBLE_EQ(row[2].as<double>(), r.total.report_mean);
  EXPECT_EQ(row[3].as<int64_t>(), 200000);
  EXPECT_EQ(row[4].as<int64_t>(), 1);
  EXPECT_EQ(row[5].as<int64_t>(), 200000);
  EXPECT_EQ(row[6].as<int>(), 1);
  EXPECT_EQ(row[7].as<int>(), 1);
  // the table was created with the documented layout
  pqxx::nontransaction t(*conn_);
  pqxx::result cols = t.exec(
      "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = " +
      t.quote(table_) + "::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum");
  ASSERT_EQ(cols.size(), 3u);
  EXPECT_EQ(cols[0][1].as<std::string>(), "bigint");
  EXPECT_EQ(cols[1][1].as<std::string>(), "integer");
  EXPECT_EQ(cols[2][1].as<std::string>(), "boolean");
}

TEST_F(LoaderDb, RealReportsAreStoredExactly) {
  LoadSpec s = make_spec(Mechanism::Laplace, 1, 100, "uniform:10:90", 100000, 2);
  LoadResult r = load_spec<MeanLoad>(*conn_, s, table_, false);
  pqxx::row row = one_row("SELECT count(*), avg(report) FROM " + table_);
  EXPECT_EQ(row[0].as<int64_t>(), r.total.reports);
  // a float8 sum depends on the order of additions: allow for its rounding
  EXPECT_NEAR(row[1].as<double>(), r.total.report_mean, 1e-9 * std::fabs(r.total.report_mean));
  // the same seed generates the same reports: every stored value is bit for bit the one
  // generated (the text form is the shortest that reads back exactly)
  auto rows = parse_lines(generate_text(s));
  pqxx::result stored;
  {
    pqxx::nontransaction t(*conn_);
    stored = t.exec("SELECT user_id, report FROM " + table_ +
                    " WHERE user_id <= 2000 ORDER BY user_id");
  }
  ASSERT_EQ(stored.size(), 2000u);
  for (size_t i = 0; i < stored.size(); ++i) {
    ASSERT_EQ(stored[i][0].as<int64_t>(), static_cast<int64_t>(i + 1));
    EXPECT_EQ(stored[i][1].as<double>(), std::strtod(rows[i][2].c_str(), nullptr)) << "user " << i + 1;
  }
  // laplace reports of the piecewise kind land in a float8 column
  LoadSpec p = make_spec(Mechanism::Piecewise, 2, 100, "uniform:10:90", 1000, 3);
  EXPECT_NO_THROW(load_spec<MeanLoad>(*conn_, p, table_, true));
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 1000);
}

TEST_F(LoaderDb, OneBitRoundsAreMemoizedPerUser) {
  LoadSpec s = make_spec(Mechanism::OneBit, 1, 86400, "uniform:0:86400", 5000, 4);
  s.granularity = 86400.0 / 8;
  s.rounds = 4;
  s.constant_users = true;
  LoadResult r = load_spec<MeanLoad>(*conn_, s, table_, false);
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 20000);
  EXPECT_EQ(count("SELECT count(*) FROM (SELECT user_id FROM " + table_ +
                  " GROUP BY user_id HAVING count(DISTINCT report) > 1) q"),
            0);
  const std::string per_round_sql =
      "SELECT round, count(*), sum(report::int) FROM " + table_ + " GROUP BY round ORDER BY round";
  pqxx::result per_round;
  {
    pqxx::nontransaction t(*conn_);
    per_round = t.exec(per_round_sql);
  }
  ASSERT_EQ(per_round.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(per_round[i][0].as<int>(), i + 1);
    EXPECT_EQ(per_round[i][1].as<int64_t>(), r.rounds[i].reports);
    EXPECT_EQ(per_round[i][2].as<int64_t>(), r.rounds[i].ones);
  }
  // with drifting values and output perturbation rows still add up per round
  s.constant_users = false;
  s.gamma = 0.2;
  LoadResult r2 = load_spec<MeanLoad>(*conn_, s, table_, true);
  pqxx::result again;
  {
    pqxx::nontransaction t(*conn_);
    again = t.exec(per_round_sql);
  }
  ASSERT_EQ(again.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(again[i][2].as<int64_t>(), r2.rounds[i].ones);
}

TEST_F(LoaderDb, TruncateEmptiesAndAppendAdds) {
  LoadSpec s = make_spec(Mechanism::RR, 2, 1, "constant:1", 1000, 5);
  load_spec<MeanLoad>(*conn_, s, table_, false);
  s.first_user_id = 1001;
  load_spec<MeanLoad>(*conn_, s, table_, false);
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 2000);
  EXPECT_EQ(count("SELECT count(DISTINCT user_id) FROM " + table_), 2000);
  load_spec<MeanLoad>(*conn_, s, table_, true);
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 1000);
}

TEST_F(LoaderDb, RefusesATableOfTheWrongShape) {
  {
    pqxx::nontransaction t(*conn_);
    t.exec0("CREATE TABLE " + table_ + " (user_id bigint, round int, report float8)");
    t.exec0("INSERT INTO " + table_ + " VALUES (1, 1, 0.5)");
  }
  LoadSpec s = make_spec(Mechanism::RR, 1, 1, "bernoulli:0.5", 100, 6);
  try {
    load_spec<MeanLoad>(*conn_, s, table_, true);
    FAIL() << "loading rr reports into a float8 column must fail";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("report"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("boolean"), std::string::npos) << e.what();
  }
  // nothing was truncated or added
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 1);
}

TEST_F(LoaderDb, FailedLoadLeavesNoRows) {
  // a population error in the middle of the COPY aborts the whole transaction
  char path[] = "/tmp/ldp_loader_test_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  {
    std::ofstream f(path);
    for (int i = 0; i < 100000; ++i) f << (i % 100) << "\n";
  }
  LoadSpec s = make_spec(Mechanism::Laplace, 1, 100, std::string("file:") + path, 100000, 7);
  load_spec<MeanLoad>(*conn_, s, table_, false);
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 100000);
  std::remove(path);  // the next load cannot read its file: nothing changes
  EXPECT_THROW(load_spec<MeanLoad>(*conn_, s, table_, true), UsageError);
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 100000);
}

TEST_F(LoaderDb, LoadsIntoSchemaQualifiedQuotedNames) {
  {
    pqxx::nontransaction t(*conn_);
    t.exec0("CREATE SCHEMA IF NOT EXISTS ldp_it_schema");
    t.exec0("DROP TABLE IF EXISTS ldp_it_schema.\"Mixed Case\"");
  }
  LoadSpec s = make_spec(Mechanism::OneBit, 1, 10, "constant:5", 300, 8);
  load_spec<MeanLoad>(*conn_, s, "ldp_it_schema.\"Mixed Case\"", false);
  EXPECT_EQ(count("SELECT count(*) FROM ldp_it_schema.\"Mixed Case\""), 300);
  pqxx::nontransaction t(*conn_);
  t.exec0("DROP SCHEMA ldp_it_schema CASCADE");
}

TEST_F(LoaderDb, ExtensionDecodesWhatTheLoaderTallied) {
  bool available =
      count("SELECT count(*) FROM pg_available_extensions WHERE name = 'ldp'") > 0;
  if (!available)
    GTEST_SKIP() << "the ldp extension is not installed on the test server "
                    "(pg_available_extensions has no 'ldp'): only the extension's check of the "
                    "loader's local decoding is skipped";
  {
    pqxx::nontransaction t(*conn_);
    t.exec0("CREATE EXTENSION IF NOT EXISTS ldp");
  }
  struct Case {
    LoadSpec spec;
    std::string agg;
  };
  std::vector<Case> cases;
  cases.push_back({make_spec(Mechanism::RR, 1, 1, "bernoulli:0.3", 50000, 9),
                   "ldp.rr_agg(report, 1.0)"});
  LoadSpec ob = make_spec(Mechanism::OneBit, 1, 86400, "uniform:0:86400", 50000, 10);
  ob.gamma = 0.2;
  cases.push_back({ob, "ldp.onebit_mean_agg(report, 1.0, 86400, 0.2)"});
  cases.push_back({make_spec(Mechanism::Laplace, 2, 100, "uniform:0:100", 50000, 11),
                   "ldp.laplace_mean_agg(report, 2.0, 100)"});
  cases.push_back({make_spec(Mechanism::Piecewise, 2, 100, "uniform:0:100", 50000, 12),
                   "ldp.piecewise_mean_agg(report, 2.0, 100)"});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.agg);
    LoadResult r = load_spec<MeanLoad>(*conn_, c.spec, table_, false, {}, false);
    pqxx::row row = one_row("SELECT ldp.estimate(s), ldp.std_error(s), ldp.report_count(s) "
                            "FROM (SELECT " + c.agg + " AS s FROM " + table_ + ") q");
    // the same core decoder on the same reports (exact sums: any order, any plan)
    EXPECT_DOUBLE_EQ(row[0].as<double>(), r.total.estimate.value);
    EXPECT_DOUBLE_EQ(row[1].as<double>(), r.total.estimate.std_error);
    EXPECT_EQ(row[2].as<int64_t>(), r.total.reports);
    drop();
  }
}
