// The fixture of the integration tests that load a table on the test server (the test
// script sets PGHOST, PGPORT, PGUSER and PGDATABASE): a connection, a table named
// after the test (prefix + test name), dropped before and after, and small query
// helpers. Each loader test derives from it with its own prefix.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include <pqxx/pqxx>

#include "tools/common/pg_load.hpp"

namespace ldp::tools::testing {

class TableDbTest : public ::testing::Test {
 protected:
  explicit TableDbTest(const char* prefix) : prefix_(prefix) {}
  void SetUp() override {
    try {
      conn_ = std::make_unique<pqxx::connection>("");
    } catch (const std::exception& e) {
      FAIL() << "cannot connect to the test server (the test script sets PGHOST, PGPORT, "
                "PGUSER and PGDATABASE): "
             << e.what();
    }
    table_ = prefix_ + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    drop();
  }
  void TearDown() override {
    if (conn_) drop();
  }
  void drop() {
    pqxx::nontransaction t(*conn_);
    t.exec0("DROP TABLE IF EXISTS " + quote_table_name(table_));
  }
  pqxx::result query(const std::string& sql) {
    pqxx::nontransaction t(*conn_);
    return t.exec(sql);
  }
  pqxx::row one_row(const std::string& sql) {
    pqxx::result r = query(sql);
    EXPECT_EQ(r.size(), 1u) << sql;
    return r[0];
  }
  int64_t count(const std::string& sql) { return one_row(sql)[0].as<int64_t>(); }
  // Skips the test (only) when the server lacks the extension; creates it if needed.
  bool need_extension() {
    if (count("SELECT count(*) FROM pg_available_extensions WHERE name = 'ldp'") == 0) return false;
    pqxx::nontransaction t(*conn_);
    t.exec0("CREATE EXTENSION IF NOT EXISTS ldp");
    return true;
  }

  std::string prefix_;
  std::unique_ptr<pqxx::connection> conn_;
  std::string table_;
};

}  // namespace ldp::tools::testing
