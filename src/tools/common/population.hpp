// The base of every family's population (src/tools/<family>/<family>_population.*): the
// loaders' error, their random streams, the COPY text a generator writes and the loop
// over the devices, the table layout of the reports, and the validated spec a generator
// takes. Nothing here talks to PostgreSQL (pg_load.hpp does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/random.hpp"

namespace ldp::tools {

// A bad option, parameter or input file. Tools print what() and exit with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A spec that its family's validation accepted: validate_spec(spec) runs when one is made
// from a spec (implicitly, so a test hands the generator a plain spec), once. The
// generators and the loaders take one, and never validate again: a load from ldp_load's
// command line to the table validates its spec once.
template <class Spec>
class Validated {
 public:
  Validated(const Spec& spec) : spec_(spec) { validate_spec(spec_); }  // NOLINT(google-explicit-constructor)
  const Spec& operator*() const { return spec_; }
  const Spec* operator->() const { return &spec_; }

 private:
  Spec spec_;
};

// A number for a message: the short %g form when it reads back exactly, else %.17g.
std::string short_num(double v);
// A number as the key=value lines print it (append_double: shortest round trip).
std::string num(double v);
// The first lines every load prints: mechanism= and epsilon=.
void print_mechanism(const std::string& mechanism, double epsilon);
// The lines seed= (or seed=none) and table= of every load.
void print_seed_and_table(const std::optional<uint64_t>& seed, const std::string& table);
// A whole string as a finite double, or nullopt.
std::optional<double> to_double(const std::string& s);

// The seed of random stream `stream` (0: the population, 1: the encoders) derived from
// a user's --seed (splitmix64), shared by every loader.
uint64_t mix_seed(uint64_t seed, uint64_t stream);
// The random source of one stream (0: the population, 1: the encoders): seeded and
// reproducible when a seed is given, else the kernel's cryptographic generator.
std::unique_ptr<ldp::RandomSource> make_random(const std::optional<uint64_t>& seed, uint64_t stream);

// Receives whole COPY lines; the generators empty the buffer after each call.
using ChunkSink = std::function<void(std::string& lines)>;
using ProgressFn = std::function<void(int64_t reports_done)>;

// The COPY text a generator writes (every loader's one buffer): handed to sink in chunks
// of about chunk_bytes, progress told the reports done after each chunk.
class ChunkedRows {
 public:
  ChunkedRows(const ChunkSink& sink, const ProgressFn& progress, size_t chunk_bytes, size_t row_bytes)
      : sink_(sink), progress_(progress), chunk_bytes_(chunk_bytes) {
    buf_.reserve(chunk_bytes + row_bytes);
  }
  std::string& buf() { return buf_; }
  // After a device's rows, with the reports written so far: a full chunk goes to the sink.
  void rows_done(int64_t done) {
    if (buf_.size() >= chunk_bytes_) finish(done);
  }
  // Hands over what is left (also at the end).
  void finish(int64_t done) {
    if (!buf_.empty()) sink_(buf_);
    buf_.clear();
    if (progress_) progress_(done);
  }

 private:
  const ChunkSink& sink_;
  const ProgressFn& progress_;
  size_t chunk_bytes_;
  std::string buf_;
};

// The device loop of the loaders: device(u) for u in [0, users), which returns the reports
// it wrote; the chunks handed on after each device, the rest at the end; the core's
// refusals (a parameter or report the validation let through) become UsageError.
template <class Device>
void for_each_device(int64_t users, ChunkedRows& out, Device device) {
  int64_t done = 0;
  try {
    for (int64_t u = 0; u < users; ++u) {
      done += device(u);
      out.rows_done(done);
    }
    out.finish(done);
  } catch (const ldp::Error& e) {
    throw UsageError(std::string("the core library refused the load: ") + e.what());
  }
}

// COPY text fields (no tab): a float8 as the shortest text that reads back as the same
// double, an integer.
void append_double(std::string& out, double v);
void append_int_field(std::string& out, int64_t v);
// "user_id\tround\t": the start of every report row.
void append_row_prefix(std::string& out, int64_t user_id, int round);

// ---------------------------------------------------------------------------
// Tables

// One report column (after user_id bigint and round integer).
struct ReportColumn {
  const char* name;      // as stored in pg_attribute
  const char* sql_type;  // as format_type() prints it (varbit: "bit varying", any length)
};
// All the COPY columns, quoted: "user_id", "round", then the report columns.
std::vector<std::string> report_copy_columns(const std::vector<ReportColumn>& report_columns);
// CREATE TABLE IF NOT EXISTS with that layout (every column NOT NULL).
std::string report_create_table_sql(const std::string& quoted_table, const std::vector<ReportColumn>& report_columns);
// An aggregate over the report columns: function(column, ..., parameter, ...), the
// columns quoted ("row" is a reserved word).
std::string aggregate_call(const std::string& function, const std::vector<ReportColumn>& columns,
                           const std::vector<std::string>& parameters);
// A string as an SQL literal: 'it''s'.
std::string quote_literal(const std::string& text);
// Quotes one identifier: "row" -> "\"row\"".
std::string quote_ident(const std::string& name);
// Quotes [schema.]table for SQL the way PostgreSQL reads it: unquoted parts are folded
// to lower case, "quoted" parts are kept as written. Throws UsageError on anything else.
std::string quote_table_name(const std::string& name);

}  // namespace ldp::tools
