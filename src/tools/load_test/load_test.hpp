// ldp_load_test's shared parts: options, the ledgers and counters every session
// writes, error classification, and the three kinds of worker sessions
// (src/tools/load_test_workers.cpp). The program (ldp_load_test.cpp) runs them and
// reconciles.
#pragma once
#include <getopt.h>

#include <pqxx/pqxx>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"

namespace ldp_load_test {


inline const char* kUsage = R"(Usage: ldp_load_test [options]

Load test of one database shared by many sessions (libpq environment: PGHOST, PGPORT,
PGUSER, PGDATABASE, ...). Sets up a THRESH stream PREFIX, a table PREFIX_reports and a
collection PREFIX over it (epochs of --epoch-seconds), then for --duration seconds:
  - half of the --sessions submit THRESH batches: votes in the voting phase, estimates
    after a global update (phase and epoch read from ldp.thresh_status before each
    batch; fresh user ids, except for the deliberately injected duplicates);
  - the other half insert batches of reports into PREFIX_reports (timed now(), a share
    of them timed up to two epochs in the past, some exactly on an epoch boundary or a
    microsecond off: late reports);
  - --closers more sessions close the THRESH phases (thresh_close_votes /
    thresh_close_epoch, with the epoch given) and call close_due_epochs.
Then it stops the writers, closes every remaining epoch, waits for the last collection
epoch to end, and reconciles exactly: THRESH history and stored rows per epoch, and per
collection epoch the reports counted, present and late, against its own ledger of the
batches the server acknowledged.

  --duration S         seconds of load (default 600)
  --sessions N         writer sessions, half THRESH and half reports (default 16)
  --closers N          closer sessions (default 1; with more, concurrent closes)
  --seed S             seed of the batches' contents and timing (default 1)
  --batch N            mean batch size, THRESH reports and collection reports (default 50;
                       sizes are drawn from [N/2, 3N/2])
  --epoch-seconds S    collection epoch length (default 2; fractions allowed); the
                       collection starts at the setup's now(), to the microsecond
  --vote-ms MS         how long the closer leaves a THRESH voting phase open (default 400)
  --estimate-ms MS     ... and an estimating (or closed) phase (default 300)
  --close-ms MS        how often a closer calls close_due_epochs (default 250)
  --duplicates P       share of THRESH batches given a duplicate user (default 0.02):
                       one of the session's earlier users of this epoch, or a user
                       twice in the batch; each must be refused (23505, or 55000)
  --cross-duplicates P share of THRESH batches whose users are also in other sessions'
                       batches of the same epoch and phase, in the opposite order
                       (default 0): one batch takes them, the others must be refused
                       with 23505
  --late P             share of report rows timed in the past (default 0.02)
  --thresh-epochs T    epochs of the THRESH stream (default 1000000: never finishes)
  --prefix NAME        name of the stream, collection and table prefix (default ldp_load)
  --progress S         seconds between progress lines (default 10; 0: none)
  --stall S            no accepted batch and no close for S seconds is a failure (default 60)
  --keep               keep the stream, collection and table (default: dropped when
                       every check passed, kept for inspection otherwise)
  --dsn DSN            libpq connection string (default: the PG* environment)
  --help               this text

Output: progress lines "[ 10s] ..." on stdout, then one "load: CHECK ... ok|FAILED"
line per check and key=value figures. Exit status 0 iff every check passed.
)";

using Clock = std::chrono::steady_clock;

[[noreturn]] inline void usage_error(const std::string& msg) { ldp::tools::usage_error("ldp_load_test", msg); }

inline double parse_double(const char* opt, const char* text, double lo, double hi) {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(v) || v < lo || v > hi)
    usage_error(std::string("--") + opt + " expects a number in [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "], got '" + text + "'");
  return v;
}

inline int64_t parse_int(const char* opt, const char* text, int64_t lo, int64_t hi) {
  char* end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi)
    usage_error(std::string("--") + opt + " expects an integer in [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "], got '" + text + "'");
  return v;
}

struct Options {
  double duration = 600;
  int sessions = 16;
  int closers = 1;
  uint64_t seed = 1;
  int batch = 50;
  double epoch_seconds = 2;
  int vote_ms = 400;
  int estimate_ms = 300;
  int close_ms = 250;
  double duplicates = 0.02;
  double cross_duplicates = 0;
  double late = 0.02;
  int32_t thresh_epochs = 1000000;
  std::string prefix = "ldp_load";
  double progress = 10;
  double stall = 60;
  bool keep = false;
  std::string dsn;
};

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// ---------------------------------------------------------------------------
// Shared state

inline Clock::time_point g_start;
inline double since_start(Clock::time_point t = Clock::now()) {
  return std::chrono::duration<double>(t - g_start).count();
}

// Failures: anything that is not a documented refusal.
struct Failures {
  std::mutex m;
  std::vector<std::string> messages;
  std::atomic<int64_t> count{0};
  void add(const std::string& what) {
    count.fetch_add(1);
    std::lock_guard<std::mutex> g(m);
    if (messages.size() < 50) messages.push_back("[" + std::to_string(since_start()) + "s] " + what);
    if (messages.size() <= 5) std::fprintf(stderr, "ldp_load_test: failure: %s\n", what.c_str());
  }
};

// Documented refusals and failures, by operation and SQLSTATE.
struct Codes {
  std::mutex m;
  std::map<std::string, std::map<std::string, int64_t>> refused, failed;
  void refuse(const std::string& op, const std::string& code) {
    std::lock_guard<std::mutex> g(m);
    refused[op][code]++;
  }
  void fail(const std::string& op, const std::string& code) {
    std::lock_guard<std::mutex> g(m);
    failed[op][code]++;
  }
  static std::string format(const std::map<std::string, std::map<std::string, int64_t>>& by) {
    std::string out;
    for (const auto& [op, codes] : by)
      for (const auto& [code, n] : codes) out += (out.empty() ? "" : " ") + op + ":" + code + "=" + std::to_string(n);
    return out.empty() ? "none" : out;
  }
};

struct Stats {
  std::atomic<int64_t> vote_batches{0}, votes{0}, estimate_batches{0}, estimates{0};
  std::atomic<int64_t> report_batches{0}, reports{0};
  std::atomic<int64_t> refused_batches{0};
  std::atomic<int64_t> votes_closed{0}, epochs_closed{0}, collection_calls{0}, collection_epochs{0};
  std::atomic<int64_t> warnings{0};
  std::atomic<int32_t> thresh_epoch{0};
  std::atomic<int> thresh_phase{0};  // index into kPhases
  std::atomic<bool> stop{false};
};
inline const char* kPhases[] = {"?", "voting", "estimating", "closed", "finished"};
inline int phase_index(const std::string& p) {
  for (int i = 1; i < 5; ++i)
    if (p == kPhases[i]) return i;
  return 0;
}

// What happened to a statement: accepted, or an error with its SQLSTATE (or a word
// for errors that have none: a lost connection, an unknown outcome).
struct Outcome {
  bool ok = true;
  std::string code, message;
};

// The SQLSTATE of an error, or a word for one that has none (libpqxx 6 gives no
// sqlstate() on its transaction_rollback family).
inline std::string error_code(const std::exception& e) {
  if (auto* s = dynamic_cast<const pqxx::sql_error*>(&e)) return s->sqlstate().empty() ? "sql-error" : s->sqlstate();
  if (dynamic_cast<const pqxx::deadlock_detected*>(&e)) return "40P01";
  if (dynamic_cast<const pqxx::serialization_failure*>(&e)) return "40001";
  if (dynamic_cast<const pqxx::statement_completion_unknown*>(&e)) return "40003";
  if (dynamic_cast<const pqxx::transaction_rollback*>(&e)) return "40000";
  if (dynamic_cast<const pqxx::in_doubt_error*>(&e)) return "in-doubt";
  if (dynamic_cast<const pqxx::broken_connection*>(&e)) return "connection-lost";
  return "exception";
}

template <class F>
Outcome attempt(F&& f) {
  Outcome o;
  try {
    f();
    return o;
  } catch (const std::exception& e) {
    o.code = error_code(e);
    o.message = e.what();
  }
  o.ok = false;
  // first line of the message
  auto nl = o.message.find('\n');
  if (nl != std::string::npos) o.message.resize(nl);
  return o;
}

// Counts server warnings (e.g. an update that received no estimates) instead of
// letting libpqxx print them.
class WarningCounter final : public pqxx::errorhandler {
 public:
  WarningCounter(pqxx::connection_base& c, Stats& stats, std::mutex& m, std::map<std::string, int64_t>& seen)
      : pqxx::errorhandler(c), stats_(stats), m_(m), seen_(seen) {}
  bool operator()(const char msg[]) noexcept override {
    try {
      std::string s(msg);
      if (s.rfind("WARNING:", 0) == 0) {
        stats_.warnings.fetch_add(1);
        // group by the message without its numbers
        std::string key;
        for (char ch : s.substr(0, std::min<size_t>(s.size(), 120)))
          if (!(ch >= '0' && ch <= '9') && ch != '\n') key += ch;
        std::lock_guard<std::mutex> g(m_);
        seen_[key]++;
      }
    } catch (...) {
    }
    return false;
  }

 private:
  Stats& stats_;
  std::mutex& m_;
  std::map<std::string, int64_t>& seen_;
};

// An instant as exact timestamptz text ("2026-11-22 13:00:00.123456+00").
inline std::string utc_text(int64_t us) {
  int64_t secs = us / 1000000, frac = us % 1000000;
  if (frac < 0) {
    frac += 1000000;
    secs -= 1;
  }
  time_t tt = static_cast<time_t>(secs);
  struct tm tmv;
  gmtime_r(&tt, &tmv);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d.%06lld+00", tmv.tm_year + 1900, tmv.tm_mon + 1,
                tmv.tm_mday, tmv.tm_hour, tmv.tm_min, tmv.tm_sec, static_cast<long long>(frac));
  return buf;
}

inline std::unique_ptr<pqxx::connection> open_session(const Options& opt, const std::string& app) {
  auto c = std::make_unique<pqxx::connection>(opt.dsn);
  pqxx::nontransaction t(*c);
  t.exec("SET application_name = " + t.quote(app));
  // nothing in this test may wait this long: a hang is a failure, not a stuck run
  t.exec("SET statement_timeout = '120s'");
  t.exec("SET client_min_messages = warning");
  return c;
}

// Batch latencies in milliseconds.
struct Latencies {
  std::vector<double> ms;
  void add(Clock::time_point a, Clock::time_point b) {
    ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  void merge(const Latencies& o) { ms.insert(ms.end(), o.ms.begin(), o.ms.end()); }
  std::string summary() {
    if (ms.empty()) return "n=0";
    std::sort(ms.begin(), ms.end());
    auto q = [&](double p) { return ms[std::min(ms.size() - 1, static_cast<size_t>(p * ms.size()))]; };
    char buf[128];
    std::snprintf(buf, sizeof buf, "n=%zu p50=%.1fms p99=%.1fms max=%.1fms", ms.size(), q(0.5), q(0.99),
                  ms.back());
    return buf;
  }
};

// ---------------------------------------------------------------------------
// Ledgers: what the server acknowledged.

struct ThreshCounts {
  int64_t votes = 0, vote_ones = 0, estimates = 0, estimate_ones = 0;
};
using ThreshLedger = std::map<int32_t, ThreshCounts>;

struct EpochRows {
  int64_t rows = 0, ones = 0;
};
// One acknowledged batch's rows in one collection epoch, with when it was sent and
// when its commit was acknowledged (seconds since the start).
struct BatchEvent {
  int64_t epoch, rows;
  double sent, acked;
};
struct ReportLedger {
  std::map<int64_t, EpochRows> epochs;
  std::vector<BatchEvent> events;
};

// Collection closes as the closers saw them: every close_due_epochs call (its start
// and end) and every look at ldp.collection_epochs that followed one (when it was sent
// and answered, and which epochs were closed then).
struct CloseLog {
  std::mutex m;
  struct Call {
    double t0, t1;
  };
  struct Look {
    double sent, answered;
    std::vector<int64_t> closed;  // sorted
  };
  std::vector<Call> calls;
  std::vector<Look> looks;
  std::map<int64_t, std::string> first_closed_at;  // closed_at when first seen
};

// Looks at which collection epochs are closed (when the look was sent and answered) and
// records it; an epoch seen closed for the first time counts in stats.
inline Outcome look_closed(pqxx::connection& c, const std::string& collection, CloseLog& log, Stats& stats) {
  CloseLog::Look look;
  look.sent = since_start();
  pqxx::result r;
  Outcome o = attempt([&] {
    pqxx::nontransaction t(c);
    r = t.exec_prepared("closed_epochs", collection);
  });
  look.answered = since_start();
  if (!o.ok) return o;
  std::lock_guard<std::mutex> g(log.m);
  for (const auto& row : r) {
    int64_t e = row[0].as<int64_t>();
    look.closed.push_back(e);
    if (log.first_closed_at.emplace(e, row[1].as<std::string>()).second) stats.collection_epochs.fetch_add(1);
  }
  std::sort(look.closed.begin(), look.closed.end());
  log.looks.push_back(std::move(look));
  return o;
}

// Records a close_due_epochs call that began at t0 and ended at t1 (seconds since the start).
inline void log_close_call(CloseLog& log, Stats& stats, double t0, double t1) {
  {
    std::lock_guard<std::mutex> g(log.m);
    log.calls.push_back({t0, t1});
  }
  stats.collection_calls.fetch_add(1);
}

// Calls close_due_epochs (in its own transaction) and looks at what is closed.
inline Outcome close_and_look(pqxx::connection& c, const std::string& collection, CloseLog& log, Stats& stats,
                              Latencies* lat) {
  double t0 = since_start();
  auto a = Clock::now();
  Outcome o = attempt([&] {
    pqxx::nontransaction t(c);
    t.exec_prepared("close_due", collection);
  });
  auto b = Clock::now();
  double t1 = since_start();
  if (!o.ok) return o;
  if (lat) lat->add(a, b);
  log_close_call(log, stats, t0, t1);
  return look_closed(c, collection, log, stats);
}

inline void prepare_closer_statements(pqxx::connection& c) {
  c.prepare("status", "SELECT epoch, phase FROM ldp.thresh_status($1)");
  c.prepare("close_votes", "CALL ldp.thresh_close_votes($1, $2)");
  c.prepare("close_epoch", "CALL ldp.thresh_close_epoch($1, $2)");
  c.prepare("close_due", "CALL ldp.close_due_epochs($1)");
  // every closed epoch: its row's closed_at, or '' for one closed without reports (in the
  // catalog's closed set only)
  c.prepare("closed_epochs",
            "SELECT g.e, coalesce(ce.closed_at::text, '') FROM ldp.collection_catalog d"
            " CROSS JOIN LATERAL unnest(d.closed) r CROSS JOIN LATERAL generate_series(lower(r), upper(r) - 1) g(e)"
            " LEFT JOIN ldp.collection_epochs ce ON ce.collection = d.name AND ce.epoch = g.e WHERE d.name = $1"
            " UNION ALL SELECT ce.epoch, ce.closed_at::text FROM ldp.collection_epochs ce, ldp.collection_catalog d"
            " WHERE ce.collection = $1 AND d.name = $1 AND NOT d.closed @> ce.epoch");
}

// ---------------------------------------------------------------------------
// Workers

struct Shared {
  explicit Shared(const Options& o)
      : opt(o), stream(o.prefix), collection(o.prefix), table(o.prefix + "_reports") {}
  const Options& opt;
  std::string stream, collection, table;
  int64_t starts_us = 0, epoch_us = 1;  // the collection's starts_at and epoch length
  Stats stats;
  Failures failures;
  Codes codes;
  CloseLog close_log;
  std::mutex warn_m;
  std::map<std::string, int64_t> warnings;
};

struct ThreshWriterResult {
  ThreshLedger ledger;
  Latencies votes, estimates;
  int64_t injected = 0, injected_refused_23505 = 0, injected_refused_55000 = 0;
  int64_t cross = 0, cross_accepted = 0, cross_refused_23505 = 0;
};

struct ReportWriterResult {
  ReportLedger ledger;
  Latencies inserts;
  int64_t explicit_rows = 0;
};

struct CloserResult {
  Latencies close_votes, close_epoch, close_due;
};

// The sessions (load_test_workers.cpp).
void thresh_writer(Shared& sh, int w, ThreshWriterResult& out);
void report_writer(Shared& sh, int w, ReportWriterResult& out);
void closer(Shared& sh, int k, CloserResult& out);

// ---------------------------------------------------------------------------
// Reconciliation (load_test_checks.cpp)

// Every session's ledger and latencies, merged.
struct Ledgers {
  ThreshLedger thresh;
  std::map<int64_t, EpochRows> collection;  // acknowledged rows per collection epoch
  std::vector<BatchEvent> events;
  Latencies votes, estimates, reports, close_votes, close_epoch, close_due;
  int64_t injected = 0, injected_23505 = 0, injected_55000 = 0, explicit_rows = 0;
  int64_t cross = 0, cross_accepted = 0, cross_23505 = 0;
};

// One line "load: NAME ... ok" or "load: NAME ... FAILED (why)" per check.
struct Checks {
  int passed = 0, failed = 0;
  void check(const std::string& name, bool ok, const std::string& why = "") {
    if (ok) {
      std::printf("load: %s ... ok\n", name.c_str());
      ++passed;
    } else {
      std::printf("load: %s ... FAILED (%s)\n", name.c_str(), why.c_str());
      ++failed;
    }
    std::fflush(stdout);
  }
};

// Collects up to a few mismatch descriptions.
struct Mismatches {
  int64_t count = 0;
  std::string text;
  void add(const std::string& s) {
    if (count++ < 5) text += (text.empty() ? "" : "; ") + s;
  }
  std::string why() const { return std::to_string(count) + " mismatch(es): " + text + (count > 5 ? "; ..." : ""); }
};

// What the final closes reached: the last THRESH epoch closed, the collection epochs
// lo..hi that had to be closed.
struct Closed {
  int32_t last_epoch = 0;
  int64_t lo = 0, hi = -1;
};

// The collection's late reports: in all, and the epochs that had some.
struct LateFigures {
  int64_t reports = 0, epochs = 0;
};

// No failure but the documented refusals, no deadlock or stall, every injected duplicate refused.
void check_the_run(Shared& sh, const Ledgers& led, bool stalled, Checks& checks);
// The THRESH stream's epochs against the writers' ledger; returns its global updates.
int64_t reconcile_thresh(pqxx::connection& mc, const Shared& sh, const Ledgers& led, int32_t last_epoch,
                         Checks& checks);
// The collection's epochs against the report writers' ledger and the closers' log, then
// again after the late reports are taken in.
LateFigures reconcile_collection(pqxx::connection& mc, Shared& sh, const Ledgers& led, const Closed& closed,
                                 Checks& checks);

}  // namespace ldp_load_test
