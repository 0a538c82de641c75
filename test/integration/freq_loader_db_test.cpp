// Integration tests of the frequency-oracle loader against a server: load_spec<FreqLoad>
// (common/pg_load.hpp) and the ldp aggregates on what it loaded. FreqLoaderDb connects with the
// libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE) that the test script sets and
// fails (it does not skip) when it cannot connect; the checks against the ldp
// aggregates are skipped, with a message, only when the server does not have the
// extension installed. Populations come from test/data/subtlex_top1000.tsv.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "freq_loader_support.hpp"
#include "tools/common/pg_load.hpp"
#include "tools/freq/freq_load.hpp"
#include "table_db_test.hpp"

using namespace ldp::tools;
using namespace ldp::tools::testing;
using ldp::FreqMechanism;

class FreqLoaderDb : public TableDbTest {
 protected:
  FreqLoaderDb() : TableDbTest("ldp_it_freq_") {}
  // ldp.frequencies(<agg> FROM table WHERE where, consistency) against the local decoding:
  // the summary's counters bit for bit (its text form), every float column to 1e-12.
  void expect_sql_matches(const std::string& agg, const LocalSummary& local,
                          const std::string& where = "TRUE",
                          ldp::Consistency c = ldp::Consistency::None) {
    const char* cname = c == ldp::Consistency::None ? "none"
                        : c == ldp::Consistency::Clip ? "clip" : "norm-sub";
    const std::string summary = "(SELECT " + agg + " FROM " + table_ + " WHERE " + where + ")";
    pqxx::result text = query("SELECT " + summary + "::text, ldp.report_count(" + summary + ")");
    EXPECT_EQ(text[0][0].as<std::string>(), local.text());
    EXPECT_EQ(text[0][1].as<int64_t>(), local->n);
    pqxx::result rows = query(
        "SELECT item, frequency, count, std_error, ci_lower, ci_upper FROM ldp.frequencies(" +
        summary + ", '" + cname + "') ORDER BY item");
    std::vector<ItemEstimate> est = local_frequencies(*local, c);
    ASSERT_EQ(rows.size(), est.size());
    auto close = [](double sql, double mine) {
      return std::fabs(sql - mine) <= 1e-12 * std::fmax(1.0, std::fabs(mine));
    };
    int64_t mismatches = 0;
    for (size_t v = 0; v < est.size(); ++v) {
      EXPECT_EQ(rows[v][0].as<int64_t>(), static_cast<int64_t>(v));
      const double got[5] = {rows[v][1].as<double>(), rows[v][2].as<double>(),
                             rows[v][3].as<double>(), rows[v][4].as<double>(),
                             rows[v][5].as<double>()};
      const double want[5] = {est[v].frequency, est[v].count, est[v].std_error, est[v].ci_lower,
                              est[v].ci_upper};
      for (int i = 0; i < 5; ++i)
        if (!close(got[i], want[i]) && ++mismatches <= 10)
          ADD_FAILURE() << "item " << v << " column " << i + 1 << ": SQL " << got[i]
                        << ", local " << want[i];
    }
    EXPECT_EQ(mismatches, 0);
  }

};

TEST_F(FreqLoaderDb, EveryMechanismDecodesInSqlAsLocally) {
  if (!need_extension())
    GTEST_SKIP() << "the ldp extension is not installed on the test server "
                    "(pg_available_extensions has no 'ldp'): the check of the frequency "
                    "aggregates against the loader's local decoding is skipped";
  for (const MechCase& c : all_mechanisms()) {
    const char* name = freq_mechanism_name(c.mechanism);
    SCOPED_TRACE(c.agg);
    FreqLoadSpec s = make_spec(c.mechanism, 2, 64, "words:" + kWords, 4000, 21, c.d);
    FreqLoadResult r = load_spec<FreqLoad>(*conn_, s, table_, false);
    ASSERT_TRUE(r.total.local);
    EXPECT_GT(r.seconds, 0);
    EXPECT_EQ(count("SELECT count(*) FROM " + table_), 4000) << name;
    EXPECT_EQ(count("SELECT count(DISTINCT user_id) FROM " + table_), 4000) << name;
    expect_sql_matches(c.agg, *r.total.local);
    expect_sql_matches(c.agg, *r.total.local, "TRUE", ldp::Consistency::NormSub);
    drop();
  }
}

TEST_F(FreqLoaderDb, ParallelPlansDecodeTheSame) {
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
  for (const MechCase& c : all_mechanisms()) {
    SCOPED_TRACE(c.agg);
    FreqLoadSpec s = make_spec(c.mechanism, 2, 64, "zipf:1.1", 20000, 22, c.d);
    FreqLoadResult r = load_spec<FreqLoad>(*conn_, s, table_, false);
    std::string plan;
    for (const auto& row : query("EXPLAIN SELECT " + c.agg + " FROM " + table_))
      plan += row[0].as<std::string>() + "\n";
    EXPECT_NE(plan.find("Partial Aggregate"), std::string::npos) << plan;
    expect_sql_matches(c.agg, *r.total.local);
    drop();
  }
}

TEST_F(FreqLoaderDb, MemoizedRoundsDecodePerRound) {
  if (!need_extension())
    GTEST_SKIP() << "the ldp extension is not installed on the test server: skipped";
  FreqLoadSpec s = make_spec(FreqMechanism::DBitFlip, 1, 64, "words:" + kWords, 1500, 23, 2);
  s.memoize = true;
  s.rounds = 3;
  s.redraw = 0.3;
  FreqLoadResult r = load_spec<FreqLoad>(*conn_, s, table_, false);
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 4500);
  const std::string agg = "ldp.dbitflip_agg(buckets, bits, 1.0, 64)";
  ASSERT_EQ(r.rounds.size(), 3u);
  for (int round = 1; round <= 3; ++round) {
    SCOPED_TRACE(round);
    EXPECT_EQ(count("SELECT count(*) FROM " + table_ + " WHERE round = " + std::to_string(round)),
              1500);
    expect_sql_matches(agg, *r.rounds[round - 1].local, "round = " + std::to_string(round));
  }
  expect_sql_matches(agg, *r.total.local);
  // users keep their buckets across rounds
  EXPECT_EQ(count("SELECT count(*) FROM (SELECT user_id FROM " + table_ +
                  " GROUP BY user_id HAVING count(DISTINCT buckets) > 1) q"),
            0);
}

TEST_F(FreqLoaderDb, CreatesTheDocumentedLayouts) {
  struct Want {
    FreqMechanism m;
    std::vector<std::string> types;
  };
  const std::vector<Want> wants{
      {FreqMechanism::GRR, {"bigint", "integer", "integer"}},
      {FreqMechanism::SUE, {"bigint", "integer", "bit varying"}},
      {FreqMechanism::OUE, {"bigint", "integer", "bit varying"}},
      {FreqMechanism::DBitFlip, {"bigint", "integer", "integer[]", "boolean[]"}},
      {FreqMechanism::OLH, {"bigint", "integer", "bigint", "integer"}},
      {FreqMechanism::Hadamard, {"bigint", "integer", "integer", "boolean"}},
  };
  for (const Want& w : wants) {
    SCOPED_TRACE(freq_mechanism_name(w.m));
    FreqLoadSpec s = make_spec(w.m, 1, 16, "uniform", 100, 24,
                               w.m == FreqMechanism::DBitFlip ? 3 : 0);
    load_spec<FreqLoad>(*conn_, s, table_, false);
    pqxx::result cols;
    {
      pqxx::nontransaction t(*conn_);
      cols = t.exec("SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = " +
                    t.quote(table_) +
                    "::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum");
    }
    ASSERT_EQ(cols.size(), w.types.size());
    for (size_t i = 0; i < cols.size(); ++i) EXPECT_EQ(cols[i][0].as<std::string>(), w.types[i]);
    EXPECT_EQ(count("SELECT count(*) FROM " + table_), 100);
    drop();
  }
  // the stored varbits have k bits, in either text form
  for (int64_t k : {int64_t{64}, int64_t{61}}) {
    FreqLoadSpec s = make_spec(FreqMechanism::SUE, 1, k, "uniform", 50, 25);
    load_spec<FreqLoad>(*conn_, s, table_, true);
    EXPECT_EQ(count("SELECT min(length(report)) FROM " + table_), k);
    EXPECT_EQ(count("SELECT max(length(report)) FROM " + table_), k);
  }
}

TEST_F(FreqLoaderDb, AcceptsExtraColumnsAndRefusesWrongShapes) {
  {  // the benchmark's layout: an extra generated int4 column
    pqxx::nontransaction t(*conn_);
    t.exec0("CREATE TABLE " + table_ +
            " (user_id bigint, round int, report int, v int4 GENERATED ALWAYS AS "
            "(user_id::int4) STORED)");
  }
  FreqLoadSpec s = make_spec(FreqMechanism::GRR, 1, 16, "uniform", 300, 26);
  load_spec<FreqLoad>(*conn_, s, table_, false);
  EXPECT_EQ(count("SELECT sum(v) FROM " + table_), 300 * 301 / 2);
  // sue reports cannot go into an int column: nothing is truncated or added
  FreqLoadSpec sue = make_spec(FreqMechanism::SUE, 1, 16, "uniform", 10, 27);
  try {
    load_spec<FreqLoad>(*conn_, sue, table_, true);
    FAIL() << "loading sue reports into an integer column must fail";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("bit varying"), std::string::npos) << e.what();
  }
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 300);
  FreqLoadSpec olh = make_spec(FreqMechanism::OLH, 1, 16, "uniform", 10, 28);
  EXPECT_THROW(load_spec<FreqLoad>(*conn_, olh, table_, true), UsageError);  // no seed column
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 300);
  // appending with new user ids, then truncating
  s.first_user_id = 301;
  load_spec<FreqLoad>(*conn_, s, table_, false);
  EXPECT_EQ(count("SELECT count(DISTINCT user_id) FROM " + table_), 600);
  load_spec<FreqLoad>(*conn_, s, table_, true);
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 300);
}
