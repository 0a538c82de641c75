// Loading a family's reports (a FamilyLoad, load_family.hpp) into PostgreSQL with
// libpqxx 6: header-only, so that ldp_tools_common (the populations, the families' rows)
// does not depend on libpqxx and only the programs that load (ldp_load, the integration
// tests) link it.
#pragma once

#include <pqxx/pqxx>
#include <pqxx/tablewriter>

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "tools/common/load_family.hpp"
#include "tools/common/population.hpp"
#include "tools/common/progress.hpp"

namespace ldp::tools {

// The format_type() of every column of a table, by name.
inline std::vector<std::pair<std::string, std::string>> table_columns(
    pqxx::transaction_base& txn, const std::string& quoted_table) {
  pqxx::result cols = txn.exec(
      "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
      "WHERE a.attrelid = " + txn.quote(quoted_table) + "::regclass "
      "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum");
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& row : cols) out.emplace_back(row[0].as<std::string>(), row[1].as<std::string>());
  return out;
}

// Checks that an existing table can take reports with these report columns (after
// user_id bigint and round integer or bigint; a varbit column may have a length).
// Other columns are allowed (they take their defaults). what names the mechanism in
// the message. Throws UsageError.
inline void check_report_columns(pqxx::transaction_base& txn, const std::string& quoted_table,
                                 const std::string& shown_name, const std::string& what,
                                 const std::vector<ReportColumn>& report_columns) {
  auto cols = table_columns(txn, quoted_table);
  auto type_of = [&](const std::string& col) -> std::string {
    for (const auto& c : cols)
      if (c.first == col) return c.second;
    return "";
  };
  struct Want {
    std::string column;
    std::vector<std::string> types;
  };
  std::vector<Want> wants{{"user_id", {"bigint"}}, {"round", {"integer", "bigint"}}};
  for (const ReportColumn& c : report_columns) wants.push_back({c.name, {c.sql_type}});
  for (const Want& w : wants) {
    std::string t = type_of(w.column);
    bool ok = false;
    for (const auto& allowed : w.types)
      ok = ok || t == allowed || (allowed == "bit varying" && t.rfind("bit varying(", 0) == 0);
    if (!ok) {
      std::string expected = w.types[0];
      for (size_t i = 1; i < w.types.size(); ++i) expected += " or " + w.types[i];
      throw UsageError("table " + shown_name + " exists but " +
                       (t.empty() ? "has no column " + w.column
                                  : "its column " + w.column + " is " + t) +
                       "; " + what + " reports need " + w.column + " " + expected +
                       " (drop the table or choose another --table)");
    }
  }
}

// A load into a table, in one transaction: creates the table if it is missing (or checks
// that it can take the load's report columns; other columns are allowed), TRUNCATE if
// asked, one COPY of the reports load.generate() makes, commit; ANALYZE afterwards if
// asked. Returns the wall time of the transaction.
inline double load_into_table(pqxx::connection_base& conn, FamilyLoad& load, const std::string& table, bool truncate,
                              const ProgressFn& progress = {}, bool analyze = true) {
  const std::string qt = quote_table_name(table);
  const std::vector<ReportColumn> columns = load.report_columns();
  const std::vector<std::string> copy_columns = report_copy_columns(columns);
  auto start = std::chrono::steady_clock::now();
  {
    pqxx::work txn(conn, "ldp_load");
    bool exists = !txn.exec("SELECT to_regclass(" + txn.quote(qt) + ")")[0][0].is_null();
    if (!exists)
      txn.exec0(report_create_table_sql(qt, columns));
    else
      check_report_columns(txn, qt, table, load.mechanism(), columns);
    if (truncate && exists) txn.exec0("TRUNCATE " + qt);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    // tablewriter is the libpqxx 6 stream with a public raw-line writer: each call sends
    // one big buffer of whole COPY lines (write_raw_line adds the final newline back).
    pqxx::tablewriter writer(txn, qt, copy_columns.begin(), copy_columns.end());
#pragma GCC diagnostic pop
    load.generate(
        [&writer](std::string& lines) {
          lines.pop_back();  // the last '\n'
          writer.write_raw_line(lines);
        },
        progress);
    writer.complete();
    txn.commit();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (analyze) {
    pqxx::nontransaction ntx(conn);
    ntx.exec0("ANALYZE " + qt);
  }
  return seconds;
}

// The load of one family's spec (validated here, once: Load's constructor), for the
// tests: load_spec<FreqLoad>(conn, spec, "t", true). Returns the load's result, its
// seconds set.
template <class Load, class Spec>
auto load_spec(pqxx::connection_base& conn, const Spec& spec, const std::string& table, bool truncate,
               const ProgressFn& progress = {}, bool analyze = true) {
  Load load(spec);
  const double seconds = load_into_table(conn, load, table, truncate, progress, analyze);
  auto result = std::move(load.result());
  result.seconds = seconds;
  return result;
}

// What ldp_load does with a load: connect, load it into target's table under a progress
// bar, ANALYZE the table (after the timed load), and turn database errors into a
// message on stderr and exit status 1. UsageError passes through. Returns 0 on success,
// with the load's wall time in *seconds.
inline int load_with_progress(FamilyLoad& load, const LoadTarget& target, double* seconds) {
  try {
    pqxx::connection conn(target.dsn);
    Progress progress("loading " + load.mechanism(), load.reports());
    *seconds = load_into_table(conn, load, target.table, target.truncate,
                               [&progress](int64_t done) { progress.update(done); }, /*analyze=*/false);
    progress.finish();
    if (target.analyze) {  // fresh statistics for the planner; not part of the load rate
      pqxx::nontransaction ntx(conn);
      ntx.exec0("ANALYZE " + quote_table_name(target.table));
    }
  } catch (const UsageError&) {
    throw;
  } catch (const pqxx::broken_connection& e) {
    std::fprintf(stderr, "ldp_load: cannot connect to PostgreSQL: %s", e.what());
    std::fprintf(stderr, "ldp_load: set PGHOST/PGPORT/PGUSER/PGDATABASE or pass --dsn\n");
    return 1;
  } catch (const pqxx::sql_error& e) {
    std::fprintf(stderr, "ldp_load: %s", e.what());
    if (!e.query().empty() && e.query().size() < 300)
      std::fprintf(stderr, "ldp_load: while running: %s\n", e.query().c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ldp_load: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace ldp::tools
