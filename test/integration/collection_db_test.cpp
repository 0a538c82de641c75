// Collections against a live server: pg_cron closing epochs on a schedule, and closes
// racing each other and racing new reports. Connects with the libpq environment the
// test script sets (PGHOST, PGPORT, PGUSER, PGDATABASE).
//
// The pg_cron test needs a server started with shared_preload_libraries = 'pg_cron'
// (src/tools/pgenv.sh does that) and cron.database_name = the test database; it is
// skipped with a message elsewhere, unless LDP_REQUIRE_CRON=1 (test/run.sh), where a
// missing pg_cron fails it.
#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

std::unique_ptr<pqxx::connection> connect() {
  return std::make_unique<pqxx::connection>("");
}

class CollectionDb : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      conn_ = connect();
    } catch (const std::exception& e) {
      FAIL() << "cannot connect to the test server (PGHOST, PGPORT, PGUSER, PGDATABASE): "
             << e.what();
    }
    name_ = std::string("it_") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    exec("CREATE EXTENSION IF NOT EXISTS ldp");
    cleanup();
  }
  void TearDown() override {
    if (conn_) cleanup();
  }
  void cleanup() {
    exec("SELECT ldp.drop_collection(name) FROM ldp.collections WHERE name = " + conn_->quote(name_));
    exec("DROP TABLE IF EXISTS " + conn_->quote_name(name_));
  }
  pqxx::result exec(const std::string& sql) {
    pqxx::nontransaction t(*conn_);
    return t.exec(sql);
  }
  int64_t value(const std::string& sql) { return exec(sql)[0][0].as<int64_t>(); }

  // A source of `days` days of 1BitMean reports ending `end_days_ago` days ago, `per_day`
  // rows a day, as a daily collection.
  void make_collection(int days, int end_days_ago, int per_day) {
    std::string t = conn_->quote_name(name_);
    exec("CREATE TABLE " + t + " (at timestamptz NOT NULL, bit boolean NOT NULL)");
    exec("INSERT INTO " + t +
         " SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - (" +
         std::to_string(end_days_ago) + " + d) * interval '1 day' + (i % 86000) * interval '1 second',"
         " i % 3 = 0 FROM generate_series(0, " + std::to_string(days - 1) + ") d,"
         " generate_series(1, " + std::to_string(per_day) + ") i");
    exec("CREATE INDEX ON " + t + " (at)");
    exec("SELECT ldp.create_collection(" + conn_->quote(name_) + ", " + conn_->quote(t) +
         ", 'at', '1 day', 'ldp.onebit_mean_agg(bit, 1.0, 86400)')");
  }
  // Every closed epoch counted exactly the rows its source holds.
  void expect_consistent() {
    EXPECT_EQ(value("SELECT count(*) FROM ldp.late_reports(" + conn_->quote(name_) +
                    ") WHERE late <> 0"),
              0);
    EXPECT_EQ(value("SELECT count(*) FROM ldp.collection_epochs WHERE collection = " +
                    conn_->quote(name_) +
                    " AND reports <> coalesce(ldp.report_count(summary), 0)"),
              0);
  }

  std::unique_ptr<pqxx::connection> conn_;
  std::string name_;
};

// Several sessions run close_due_epochs at the same moment: every epoch is closed once,
// with the right count, and none of them fails.
TEST_F(CollectionDb, ConcurrentClosesCloseEachEpochOnce) {
  make_collection(20, 1, 5000);
  constexpr int kSessions = 4;
  std::atomic<int> ready{0}, errors{0};
  std::vector<std::thread> threads;
  for (int s = 0; s < kSessions; ++s) {
    threads.emplace_back([&, s] {
      try {
        auto c = connect();
        ready.fetch_add(1);
        while (ready.load() < kSessions) std::this_thread::yield();
        pqxx::nontransaction t(*c);
        t.exec("CALL ldp.close_due_epochs(" + c->quote(name_) + ")");
      } catch (const std::exception& e) {
        ADD_FAILURE() << "session " << s << ": " << e.what();
        errors.fetch_add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(errors.load(), 0);
  std::string q = conn_->quote(name_);
  // first report's epoch .. yesterday's epoch, once each
  EXPECT_EQ(value("SELECT count(*) FROM ldp.collection_epochs WHERE collection = " + q),
            value("SELECT ldp.epoch_of(" + q + ", now()) - ldp.epoch_of(" + q + ", (SELECT min(at) FROM " +
                  conn_->quote_name(name_) + "))"));
  EXPECT_EQ(value("SELECT sum(reports) FROM ldp.collection_epochs WHERE collection = " + q),
            20 * 5000);
  expect_consistent();
}

// Reports inserted while epochs are being closed are counted by the close or show up as
// late reports, never lost; a refresh takes them in.
TEST_F(CollectionDb, ReportsDuringACloseAreCountedOrLate) {
  make_collection(10, 1, 20000);
  std::string q = conn_->quote(name_), t = conn_->quote_name(name_);
  std::atomic<bool> stop{false};
  std::atomic<int64_t> inserted{0};
  std::thread writer([&] {
    auto c = connect();
    while (!stop.load()) {
      pqxx::nontransaction w(*c);
      // into the oldest epoch, already being closed
      w.exec("INSERT INTO " + t + " SELECT min(at), true FROM " + t);
      inserted.fetch_add(1);
    }
  });
  while (inserted.load() < 5) std::this_thread::yield();
  exec("CALL ldp.close_due_epochs(" + q + ")");
  stop = true;
  writer.join();
  int64_t late = value("SELECT coalesce(sum(late), 0) FROM ldp.late_reports(" + q + ")");
  int64_t counted = value("SELECT sum(reports) FROM ldp.collection_epochs WHERE collection = " + q);
  EXPECT_EQ(counted + late, 10 * 20000 + inserted.load());
  int64_t first = value("SELECT ldp.epoch_of(" + q + ", min(at)) FROM " + t);
  exec("CALL ldp.close_epoch(" + q + ", " + std::to_string(first) + ", true)");
  expect_consistent();
}

// A catch-up of large summaries (64 x 65,536 HCMS: 4 MiB stored, 32 MiB of live counters
// per epoch) under a short statement_timeout: every call ends within it, having
// committed its chunks, the backend's peak memory stays bounded, and every epoch equals
// its direct aggregate (the small version of bench/collection_catchup.sh).
TEST_F(CollectionDb, CatchUpInBoundedCallsUnderTimeout) {
  std::string t = conn_->quote_name(name_), q = conn_->quote(name_);
  exec("CREATE TABLE " + t + " (at timestamptz NOT NULL, hash_index int, coefficient int, report boolean)");
  // 24 epochs with reports among the last 2,000 hours: 12 newest, 12 spread back
  exec("INSERT INTO " + t + " SELECT date_trunc('hour', now()) - h * interval '1 hour' + (i % 3600) * interval '1 s', r.*"
       " FROM (SELECT generate_series(1, 12) UNION ALL SELECT 13 + 83 * generate_series(1, 12)) e(h),"
       " generate_series(1, 100) i, ldp.hcms_encode('w' || (i % 50), 4.0, 64, 65536, h * 100 + i) r");
  exec("CREATE INDEX ON " + t + " (at)");
  exec("SELECT ldp.create_collection(" + q + ", " + conn_->quote(t) +
       ", 'at', '1 hour', 'ldp.hcms_agg(hash_index, coefficient, report, 4.0, 64, 65536)')");
  exec("SET statement_timeout = '3s'");
  int calls = 0;
  while (value("SELECT due::int FROM ldp.collection_status(" + q + ")") == 1) {
    ASSERT_LT(++calls, 100) << "no end of the catch-up";
    auto t0 = std::chrono::steady_clock::now();
    try {
      exec("CALL ldp.close_due_epochs(" + q + ")");
    } catch (const std::exception& e) {
      FAIL() << "call " << calls << ": " << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3)) << "call " << calls;
  }
  exec("RESET statement_timeout");
  EXPECT_GT(calls, 1) << "one call did it all: the timeout did not bound the work";
  int64_t hwm_kib = value("SELECT substring(pg_read_file('/proc/self/status') from 'VmHWM:\\s*(\\d+)')::bigint");
  EXPECT_LT(hwm_kib, 256 * 1024) << "backend peak memory";
  std::printf("catch-up: %d calls, backend VmHWM %lld MiB\n", calls, static_cast<long long>(hwm_kib / 1024));
  EXPECT_EQ(value("SELECT count(*) FROM ldp.collection_epochs WHERE collection = " + q), 24);
  EXPECT_EQ(value("SELECT count(*) FROM ldp.collection_epochs ce WHERE collection = " + q +
                  " AND ldp.summary_send(ce.summary) IS DISTINCT FROM ldp.summary_send((SELECT "
                  "ldp.hcms_agg(hash_index, coefficient, report, 4.0, 64, 65536) FROM " + t +
                  " WHERE at >= ce.epoch_start AND at < ce.epoch_start + interval '1 hour')::ldp.summary)"),
            0);
  EXPECT_EQ(value("SELECT (closed = int8multirange(int8range(ldp.epoch_of(" + q + ", now()) - 1009, ldp.epoch_of(" + q +
                  ", now()))))::int FROM ldp.collection_status(" + q + ")"),
            1);
}

// pg_cron runs close_due_epochs on a schedule (pg_cron 1.4: once a minute at most).
TEST_F(CollectionDb, PgCronClosesDueEpochs) {
  bool required = std::getenv("LDP_REQUIRE_CRON") && std::string(std::getenv("LDP_REQUIRE_CRON")) == "1";
  std::string preload = exec("SHOW shared_preload_libraries")[0][0].as<std::string>();
  std::string cron_db = value("SELECT count(*) FROM pg_settings WHERE name = 'cron.database_name'") == 1
                            ? exec("SHOW cron.database_name")[0][0].as<std::string>()
                            : "";
  std::string db = exec("SELECT current_database()")[0][0].as<std::string>();
  if (preload.find("pg_cron") == std::string::npos || cron_db != db) {
    if (required) FAIL() << "pg_cron is not preloaded for database " << db;
    GTEST_SKIP() << "pg_cron is not preloaded for database " << db
                 << " (shared_preload_libraries = '" << preload << "')";
  }
  exec("CREATE EXTENSION IF NOT EXISTS pg_cron");
  make_collection(3, 1, 1000);
  std::string q = conn_->quote(name_);
  std::string job = "ldp-" + name_;
  exec("SELECT cron.unschedule(jobid) FROM cron.job WHERE jobname = " + conn_->quote(job));
  int64_t jobid = value("SELECT cron.schedule(" + conn_->quote(job) + ", '* * * * *', " +
                        conn_->quote("CALL ldp.close_due_epochs(" + q + ")") + ")");
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(130);
  int64_t closed = 0, succeeded = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    closed = value("SELECT count(*) FROM ldp.collection_epochs WHERE collection = " + q);
    succeeded = value("SELECT count(*) FROM cron.job_run_details WHERE jobid = " + std::to_string(jobid) +
                      " AND status = 'succeeded'");
    if (closed > 0 && succeeded > 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  std::string runs = exec("SELECT coalesce(string_agg(status || ': ' || coalesce(return_message, ''), '; '), 'none')"
                          " FROM cron.job_run_details WHERE jobid = " + std::to_string(jobid))[0][0]
                         .as<std::string>();
  exec("SELECT cron.unschedule(" + std::to_string(jobid) + ")");
  ASSERT_GT(closed, 0) << "pg_cron did not close any epoch within 130 s; runs: " << runs;
  EXPECT_GE(succeeded, 1) << runs;
  EXPECT_EQ(value("SELECT sum(reports) FROM ldp.collection_epochs WHERE collection = " + q), 3000);
  expect_consistent();
}

}  // namespace
