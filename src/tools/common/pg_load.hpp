// Loading generated reports into PostgreSQL with libpqxx 6: header-only, so that
// ldp_tools_common (population.cpp, progress.cpp) does not depend on libpqxx and
// only the programs that load (ldp_load, the integration tests) link it.
#pragma once

#include <pqxx/pqxx>
#include <pqxx/tablewriter>

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "tools/freq/freq_population.hpp"
#include "tools/heavy/heavy_population.hpp"
#include "tools/mean/mean_population.hpp"
#include "tools/common/progress.hpp"
#include "tools/rappor/rappor_population.hpp"
#include "tools/sketch/sketch_population.hpp"

namespace ldp::tools {

// Checks that an existing table can take the reports of mechanism m: user_id bigint,
// round integer or bigint, report boolean / double precision. Throws UsageError.
inline void check_report_table(pqxx::transaction_base& txn, const std::string& quoted_table,
                               const std::string& shown_name, Mechanism m) {
  pqxx::result cols = txn.exec(
      "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
      "WHERE a.attrelid = " + txn.quote(quoted_table) + "::regclass "
      "AND a.attnum > 0 AND NOT a.attisdropped");
  auto type_of = [&](const char* col) -> std::string {
    for (const auto& row : cols)
      if (row[0].as<std::string>() == col) return row[1].as<std::string>();
    return "";
  };
  const std::string want_report = report_sql_type(m);
  struct Want {
    const char* column;
    std::vector<std::string> types;
  };
  for (const Want& w : {Want{"user_id", {"bigint"}}, Want{"round", {"integer", "bigint"}},
                        Want{"report", {want_report}}}) {
    std::string t = type_of(w.column);
    bool ok = false;
    for (const auto& allowed : w.types) ok = ok || t == allowed;
    if (!ok) {
      std::string expected = w.types[0];
      for (size_t i = 1; i < w.types.size(); ++i) expected += " or " + w.types[i];
      throw UsageError("table " + shown_name + " exists but " +
                       (t.empty() ? std::string("has no column ") + w.column
                                  : std::string("its column ") + w.column + " is " + t) +
                       "; " + mechanism_name(m) + " reports need " + w.column + " " + expected +
                       " (drop the table or choose another --table)");
    }
  }
}

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
                                 const std::vector<FreqColumn>& report_columns) {
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
  for (const FreqColumn& c : report_columns) wants.push_back({c.name, {c.sql_type}});
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

// Checks that an existing table can take the reports of frequency oracle m: user_id
// bigint, round integer or bigint, and the mechanism's report columns (see
// freq_report_columns). Throws UsageError.
inline void check_freq_table(pqxx::transaction_base& txn, const std::string& quoted_table,
                             const std::string& shown_name, FreqMechanism m) {
  check_report_columns(txn, quoted_table, shown_name, freq_mechanism_name(m),
                       freq_report_columns(m));
}

// Shared by the loaders. In one transaction: prepare(txn, quoted_table, exists)
// creates or checks the table, TRUNCATE if asked, then one COPY of the lines that
// generate(emit) produces (emit takes a buffer of whole COPY lines), commit; the
// wall time goes into result.seconds, and the table is ANALYZEd afterwards.
template <class Result, class Prepare, class Generate>
Result copy_into_table(pqxx::connection_base& conn, const std::string& table, bool truncate,
                       bool analyze, const std::vector<std::string>& columns, Prepare prepare,
                       Generate generate) {
  const std::string qt = quote_table_name(table);
  auto start = std::chrono::steady_clock::now();
  Result result;
  {
    pqxx::work txn(conn, "ldp_load");
    bool exists = !txn.exec("SELECT to_regclass(" + txn.quote(qt) + ")")[0][0].is_null();
    prepare(txn, qt, exists);
    if (truncate && exists) txn.exec0("TRUNCATE " + qt);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    // tablewriter is the libpqxx 6 stream with a public raw-line writer: each call sends
    // one big buffer of whole COPY lines (write_raw_line adds the final newline back).
    pqxx::tablewriter writer(txn, qt, columns.begin(), columns.end());
#pragma GCC diagnostic pop
    result = generate([&writer](std::string& lines) {
      lines.pop_back();  // the last '\n'
      writer.write_raw_line(lines);
    });
    writer.complete();
    txn.commit();
  }
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (analyze) {
    pqxx::nontransaction ntx(conn);
    ntx.exec0("ANALYZE " + qt);
  }
  return result;
}

// The frequency-oracle counterpart of load_reports() below: creates the table if it is
// missing (optionally empties it), streams every report into it with one COPY in one
// transaction, and ANALYZEs it. Returns the truth and the local decoding, with the wall
// time of the load.
inline FreqLoadResult load_freq_reports(pqxx::connection_base& conn, const FreqLoadSpec& spec,
                                        const std::string& table, bool truncate,
                                        const ProgressFn& progress = {}, bool analyze = true) {
  validate_freq_spec(spec);
  // Quoted: "row" is a reserved word, and libpqxx joins the names as they are.
  return copy_into_table<FreqLoadResult>(
      conn, table, truncate, analyze, freq_copy_columns(spec.mechanism),
      [&](pqxx::work& txn, const std::string& qt, bool exists) {
        if (!exists)
          txn.exec0(freq_create_table_sql(qt, spec.mechanism));
        else
          check_freq_table(txn, qt, table, spec.mechanism);
      },
      [&](auto emit) { return generate_freq_reports(spec, emit, progress); });
}

// The sketch counterpart (cms, hcms, hashtogram; sketch_population.hpp): the same
// transaction, one COPY of the words' reports, the truth and the local decoding back.
inline SketchLoadResult load_sketch_reports(pqxx::connection_base& conn,
                                            const SketchLoadSpec& spec, const std::string& table,
                                            bool truncate, const ProgressFn& progress = {},
                                            bool analyze = true) {
  validate_sketch_spec(spec);
  const std::vector<FreqColumn> report_columns = sketch_report_columns(spec.mechanism);
  return copy_into_table<SketchLoadResult>(
      conn, table, truncate, analyze, report_copy_columns(report_columns),
      [&](pqxx::work& txn, const std::string& qt, bool exists) {
        if (!exists)
          txn.exec0(report_create_table_sql(qt, report_columns));
        else
          check_report_columns(txn, qt, table, sketch_mechanism_name(spec.mechanism),
                               report_columns);
      },
      [&](auto emit) { return generate_sketch_reports(spec, emit, progress); });
}

// The heavy-hitters counterpart (heavy_population.hpp: TreeHist, PEM, SFP): the same
// transaction, one COPY of the reports (heavy_report_columns), the protocol, the truth
// and the local decoding back.
inline HeavyLoadResult load_heavy_reports(pqxx::connection_base& conn, const HeavyLoadSpec& spec,
                                          const std::string& table, bool truncate,
                                          const ProgressFn& progress = {}, bool analyze = true) {
  validate_heavy_spec(spec);
  const std::vector<FreqColumn> report_columns = heavy_report_columns(spec.mechanism);
  return copy_into_table<HeavyLoadResult>(
      conn, table, truncate, analyze, report_copy_columns(report_columns),
      [&](pqxx::work& txn, const std::string& qt, bool exists) {
        if (!exists)
          txn.exec0(report_create_table_sql(qt, report_columns));
        else
          check_report_columns(txn, qt, table, heavy_mechanism_name(spec.mechanism), report_columns);
      },
      [&](auto emit) { return generate_heavy_reports(spec, emit, progress); });
}

// The RAPPOR counterpart (rappor_population.hpp): the same transaction, one COPY of
// (user_id, round, cohort, report), the truth and the local counts back.
inline RapporLoadResult load_rappor_reports(pqxx::connection_base& conn, const RapporLoadSpec& spec,
                                            const std::string& table, bool truncate,
                                            const ProgressFn& progress = {}, bool analyze = true) {
  validate_rappor_spec(spec);
  const std::vector<FreqColumn> report_columns = rappor_report_columns();
  return copy_into_table<RapporLoadResult>(
      conn, table, truncate, analyze, report_copy_columns(report_columns),
      [&](pqxx::work& txn, const std::string& qt, bool exists) {
        if (!exists)
          txn.exec0(report_create_table_sql(qt, report_columns));
        else
          check_report_columns(txn, qt, table, "rappor", report_columns);
      },
      [&](auto emit) { return generate_rappor_reports(spec, emit, progress); });
}

// Creates the table if it is missing (optionally empties it), then streams every
// report of the spec into it with one COPY in one transaction, and ANALYZEs it.
// Returns what generate_reports() tallied, with the wall time of the load.
inline LoadResult load_reports(pqxx::connection_base& conn, const LoadSpec& spec,
                               const std::string& table, bool truncate,
                               const ProgressFn& progress = {}, bool analyze = true) {
  validate_spec(spec);
  return copy_into_table<LoadResult>(
      conn, table, truncate, analyze, {"user_id", "round", "report"},
      [&](pqxx::work& txn, const std::string& qt, bool exists) {
        if (!exists)
          txn.exec0(create_table_sql(qt, spec.mechanism));
        else
          check_report_table(txn, qt, table, spec.mechanism);
      },
      [&](auto emit) { return generate_reports(spec, emit, progress); });
}

// What ldp_load does around either loader: connect, run load(conn, on_progress) under a
// progress bar, ANALYZE the table (after the timed load), and turn database errors
// into a message on stderr and exit status 1. UsageError passes through. Returns 0
// on success, with the loader's result in *result.
template <class Result, class Load>
int load_with_progress(const std::string& dsn, const char* what, int64_t total,
                       const std::string& table, bool analyze, Result* result, Load load) {
  try {
    pqxx::connection conn(dsn);
    Progress progress(std::string("loading ") + what, total);
    *result = load(conn, [&progress](int64_t done) { progress.update(done); });
    progress.finish();
    if (analyze) {  // fresh statistics for the planner; not part of the load rate
      pqxx::nontransaction ntx(conn);
      ntx.exec0("ANALYZE " + quote_table_name(table));
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
