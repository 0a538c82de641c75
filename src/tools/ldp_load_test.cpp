// ldp_load_test: concurrent load on one database — sessions submitting THRESH vote and
// estimate batches and sessions loading reports into a collection's source, while
// closer sessions close THRESH phases and collection epochs — then an exact
// reconciliation of what the server stored against what the server acknowledged.
//
// Every error is classified by SQLSTATE: the documented refusals (55000 for a THRESH
// batch that arrived after its phase closed, 23505 for a batch with a duplicate user
// that this program injected on purpose) are counted; anything else — a deadlock
// (40P01), a serialization failure, a statement timeout, a lost connection, a refusal
// of a batch that should have been accepted, an acceptance of a batch that should have
// been refused — is a failure. At the end every check prints one line
// "load: NAME ... ok" or "load: NAME ... FAILED (why)" and the program exits non-zero
// if anything failed.
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

#include "progress.hpp"

namespace {

const char* kUsage = R"(Usage: ldp_load_test [options]

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

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "ldp_load_test: %s\n(see ldp_load_test --help)\n", msg.c_str());
  std::exit(2);
}

double parse_double(const char* opt, const char* text, double lo, double hi) {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(v) || v < lo || v > hi)
    usage_error(std::string("--") + opt + " expects a number in [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "], got '" + text + "'");
  return v;
}

int64_t parse_int(const char* opt, const char* text, int64_t lo, int64_t hi) {
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

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// ---------------------------------------------------------------------------
// Shared state

Clock::time_point g_start;
double since_start(Clock::time_point t = Clock::now()) {
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
const char* kPhases[] = {"?", "voting", "estimating", "closed", "finished"};
int phase_index(const std::string& p) {
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

template <class F>
Outcome attempt(F&& f) {
  Outcome o;
  try {
    f();
    return o;
  } catch (const pqxx::sql_error& e) {
    o.code = e.sqlstate().empty() ? "sql-error" : e.sqlstate();
    o.message = e.what();
  } catch (const pqxx::deadlock_detected& e) {  // libpqxx 6: no sqlstate() on these
    o.code = "40P01";
    o.message = e.what();
  } catch (const pqxx::serialization_failure& e) {
    o.code = "40001";
    o.message = e.what();
  } catch (const pqxx::statement_completion_unknown& e) {
    o.code = "40003";
    o.message = e.what();
  } catch (const pqxx::transaction_rollback& e) {
    o.code = "40000";
    o.message = e.what();
  } catch (const pqxx::in_doubt_error& e) {
    o.code = "in-doubt";
    o.message = e.what();
  } catch (const pqxx::broken_connection& e) {
    o.code = "connection-lost";
    o.message = e.what();
  } catch (const std::exception& e) {
    o.code = "exception";
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
std::string utc_text(int64_t us) {
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

std::unique_ptr<pqxx::connection> open_session(const Options& opt, const std::string& app) {
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

// Calls close_due_epochs (in its own transaction) and looks at what is closed.
Outcome close_and_look(pqxx::connection& c, const std::string& collection, CloseLog& log, Stats& stats,
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
  stats.collection_calls.fetch_add(1);
  CloseLog::Look look;
  look.sent = since_start();
  pqxx::result r;
  o = attempt([&] {
    pqxx::nontransaction t(c);
    r = t.exec_prepared("closed_epochs", collection);
  });
  look.answered = since_start();
  if (!o.ok) return o;
  std::lock_guard<std::mutex> g(log.m);
  log.calls.push_back({t0, t1});
  for (const auto& row : r) {
    int64_t e = row[0].as<int64_t>();
    look.closed.push_back(e);
    if (log.first_closed_at.emplace(e, row[1].as<std::string>()).second) stats.collection_epochs.fetch_add(1);
  }
  std::sort(look.closed.begin(), look.closed.end());
  log.looks.push_back(std::move(look));
  return o;
}

void prepare_closer_statements(pqxx::connection& c) {
  c.prepare("status", "SELECT epoch, phase FROM ldp.thresh_status($1)");
  c.prepare("close_votes", "CALL ldp.thresh_close_votes($1, $2)");
  c.prepare("close_epoch", "CALL ldp.thresh_close_epoch($1, $2)");
  c.prepare("close_due", "CALL ldp.close_due_epochs($1)");
  c.prepare("closed_epochs",
            "SELECT epoch, closed_at::text FROM ldp.collection_epochs WHERE collection = $1");
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

void thresh_writer(Shared& sh, int w, ThreshWriterResult& out) {
  const Options& opt = sh.opt;
  std::unique_ptr<pqxx::connection> c;
  Outcome o = attempt([&] { c = open_session(opt, "ldp_load_test thresh " + std::to_string(w)); });
  if (!o.ok) {
    sh.codes.fail("connect", o.code);
    sh.failures.add("thresh writer " + std::to_string(w) + ": cannot connect: " + o.message);
    return;
  }
  WarningCounter wc(*c, sh.stats, sh.warn_m, sh.warnings);
  c->prepare("status", "SELECT epoch, phase FROM ldp.thresh_status($1)");
  c->prepare("votes", "SELECT ldp.thresh_submit_votes($1, $2, $3::bigint[], $4::boolean[])");
  c->prepare("estimates", "SELECT ldp.thresh_submit_estimates($1, $2, $3::bigint[], $4::boolean[])");
  std::mt19937_64 rng(splitmix64(opt.seed * 1000003 + 17 * static_cast<uint64_t>(w) + 1));
  std::uniform_real_distribution<double> u01(0, 1);
  std::uniform_int_distribution<int> size_dist(std::max(1, opt.batch / 2), std::max(2, opt.batch * 3 / 2));
  int64_t next_user = (static_cast<int64_t>(w) + 1) << 40;  // fresh ids, never reused
  // the last accepted batch: a user id to duplicate in the same epoch and phase
  int32_t last_epoch = 0;
  int last_kind = 0;
  int64_t last_user = 0;
  std::vector<int64_t> ids;
  std::vector<uint8_t> bits;
  while (!sh.stats.stop.load()) {
    int32_t epoch = 0;
    std::string phase;
    o = attempt([&] {
      pqxx::nontransaction t(*c);
      pqxx::row r = t.exec_prepared1("status", sh.stream);
      epoch = r[0].as<int32_t>();
      phase = r[1].as<std::string>();
    });
    if (!o.ok) {
      sh.codes.fail("status", o.code);
      sh.failures.add("thresh writer " + std::to_string(w) + ": thresh_status: " + o.code + " " + o.message);
      if (o.code == "connection-lost") return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    int kind = phase == "voting" ? 1 : phase == "estimating" ? 2 : 0;
    if (kind == 0) {  // closed (waiting for the next epoch) or finished
      std::this_thread::sleep_for(std::chrono::milliseconds(3));
      continue;
    }
    int n = size_dist(rng);
    ids.resize(static_cast<size_t>(n));
    bits.resize(static_cast<size_t>(n));
    // votes: mostly 1 in two epochs of three (a global update), mostly 0 in the third
    double p1 = kind == 1 ? (epoch % 3 != 0 ? 0.9 : 0.1) : 0.3;
    int64_t ones = 0;
    for (int i = 0; i < n; ++i) {
      ids[static_cast<size_t>(i)] = next_user++;
      bits[static_cast<size_t>(i)] = u01(rng) < p1;
      ones += bits[static_cast<size_t>(i)];
    }
    bool inject = u01(rng) < opt.duplicates && (n >= 2 || (last_epoch == epoch && last_kind == kind));
    if (inject) {
      ++out.injected;
      if (last_epoch == epoch && last_kind == kind && (n < 2 || u01(rng) < 0.5))
        ids[static_cast<size_t>(rng() % static_cast<uint64_t>(n))] = last_user;  // sent before
      else
        ids[static_cast<size_t>(n - 1)] = ids[0];  // twice in the batch
    }
    // users contested with other sessions' batches of this epoch and phase, in opposite
    // orders (even sessions ascending, odd ones descending): the first batch to commit
    // takes them, the others must be refused with 23505 (never a deadlock)
    bool cross = !inject && u01(rng) < opt.cross_duplicates;
    if (cross) {
      ++out.cross;
      int64_t block = (int64_t{1} << 56) + (static_cast<int64_t>(epoch) * 8 + kind * 4 +
                                            static_cast<int64_t>(rng() % 2)) * (int64_t{1} << 20);
      for (int i = 0; i < n; ++i)
        ids[static_cast<size_t>(i)] = block + (w % 2 == 0 ? i : n - 1 - i);
    }
    std::string id_text = "{", bit_text = "{";
    for (int i = 0; i < n; ++i) {
      if (i) {
        id_text += ',';
        bit_text += ',';
      }
      id_text += std::to_string(ids[static_cast<size_t>(i)]);
      bit_text += bits[static_cast<size_t>(i)] ? 't' : 'f';
    }
    id_text += '}';
    bit_text += '}';
    int64_t stored = -1;
    auto a = Clock::now();
    o = attempt([&] {
      pqxx::nontransaction t(*c);
      stored = t.exec_prepared1(kind == 1 ? "votes" : "estimates", sh.stream, epoch, id_text, bit_text)[0]
                   .as<int64_t>();
    });
    auto b = Clock::now();
    const char* op = kind == 1 ? "votes" : "estimates";
    if (o.ok) {
      (kind == 1 ? out.votes : out.estimates).add(a, b);
      if (cross) ++out.cross_accepted;
      if (inject) {
        sh.codes.fail(op, "duplicate-accepted");
        sh.failures.add(std::string("a ") + op + " batch with a duplicate user was accepted (epoch " +
                        std::to_string(epoch) + ")");
      }
      if (stored != n) {
        sh.codes.fail(op, "wrong-count");
        sh.failures.add(std::string(op) + " batch of " + std::to_string(n) + " returned " + std::to_string(stored));
      }
      ThreshCounts& tc = out.ledger[epoch];
      if (kind == 1) {
        tc.votes += n;
        tc.vote_ones += ones;
        sh.stats.vote_batches.fetch_add(1);
        sh.stats.votes.fetch_add(n);
      } else {
        tc.estimates += n;
        tc.estimate_ones += ones;
        sh.stats.estimate_batches.fetch_add(1);
        sh.stats.estimates.fetch_add(n);
      }
      last_epoch = epoch;
      last_kind = kind;
      last_user = ids[0];
    } else if (o.code == "55000") {  // the phase closed between the status and the batch
      sh.codes.refuse(op, o.code);
      sh.stats.refused_batches.fetch_add(1);
      if (inject) ++out.injected_refused_55000;
    } else if (o.code == "23505" && inject) {
      sh.codes.refuse(op, o.code);
      sh.stats.refused_batches.fetch_add(1);
      ++out.injected_refused_23505;
    } else if (o.code == "23505" && cross) {
      sh.codes.refuse(op, o.code);
      sh.stats.refused_batches.fetch_add(1);
      ++out.cross_refused_23505;
    } else {
      sh.codes.fail(op, o.code);
      sh.failures.add("thresh writer " + std::to_string(w) + ": " + op + " batch (epoch " + std::to_string(epoch) +
                      (inject ? ", duplicate injected" : cross ? ", users contested by other sessions" : "") +
                      "): " + o.code + " " + o.message);
      if (o.code == "connection-lost") return;
    }
  }
}

struct ReportWriterResult {
  ReportLedger ledger;
  Latencies inserts;
  int64_t explicit_rows = 0;
};

void report_writer(Shared& sh, int w, ReportWriterResult& out) {
  const Options& opt = sh.opt;
  std::unique_ptr<pqxx::connection> c;
  Outcome o = attempt([&] { c = open_session(opt, "ldp_load_test reports " + std::to_string(w)); });
  if (!o.ok) {
    sh.codes.fail("connect", o.code);
    sh.failures.add("report writer " + std::to_string(w) + ": cannot connect: " + o.message);
    return;
  }
  WarningCounter wc(*c, sh.stats, sh.warn_m, sh.warnings);
  // Rows timed now() (the transaction's start) or at an explicit instant; the server
  // says which epoch (ldp.epoch_of, the documented definition) got how many rows.
  c->prepare("insert",
             "WITH ins AS (INSERT INTO " + c->quote_name(sh.table) +
                 " (at, bit) SELECT coalesce(x.t, pg_catalog.now()), x.b"
                 " FROM unnest($2::timestamptz[], $3::boolean[]) AS x(t, b) RETURNING at, bit)"
                 " SELECT ldp.epoch_of($1, g.at) AS e, sum(g.n)::bigint, sum(g.ones)::bigint"
                 " FROM (SELECT at, count(*) AS n, count(*) FILTER (WHERE bit) AS ones FROM ins GROUP BY at) g"
                 " GROUP BY 1");
  std::mt19937_64 rng(splitmix64(opt.seed * 1000003 + 17 * static_cast<uint64_t>(w) + 2));
  std::uniform_real_distribution<double> u01(0, 1);
  std::uniform_int_distribution<int> size_dist(std::max(1, opt.batch / 2), std::max(2, opt.batch * 3 / 2));
  while (!sh.stats.stop.load()) {
    int n = size_dist(rng);
    std::string s_text = "{", b_text = "{";
    int64_t now_us = std::chrono::duration_cast<std::chrono::microseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    int64_t explicit_rows = 0;
    for (int i = 0; i < n; ++i) {
      if (i) {
        s_text += ',';
        b_text += ',';
      }
      if (u01(rng) < opt.late) {  // up to two epochs in the past: often already closed
        int64_t at = now_us - static_cast<int64_t>(u01(rng) * 2 * static_cast<double>(sh.epoch_us));
        if (u01(rng) < 0.2) {  // on an epoch boundary, or a microsecond either side
          int64_t k = (at - sh.starts_us) / sh.epoch_us - (at < sh.starts_us ? 1 : 0);
          at = sh.starts_us + k * sh.epoch_us + static_cast<int64_t>(rng() % 3) - 1;
        }
        s_text += '"' + utc_text(at) + '"';
        ++explicit_rows;
      } else {
        s_text += "NULL";
      }
      b_text += u01(rng) < 0.3 ? 't' : 'f';
    }
    s_text += '}';
    b_text += '}';
    pqxx::result r;
    double sent = since_start();
    auto a = Clock::now();
    o = attempt([&] {
      pqxx::nontransaction t(*c);
      r = t.exec_prepared("insert", sh.collection, s_text, b_text);
    });
    auto b = Clock::now();
    double acked = since_start();
    if (!o.ok) {
      sh.codes.fail("reports", o.code);
      sh.failures.add("report writer " + std::to_string(w) + ": insert: " + o.code + " " + o.message);
      if (o.code == "connection-lost") return;
      continue;
    }
    out.inserts.add(a, b);
    out.explicit_rows += explicit_rows;
    int64_t total = 0;
    for (const auto& row : r) {
      int64_t e = row[0].as<int64_t>(), rows = row[1].as<int64_t>(), ones = row[2].as<int64_t>();
      EpochRows& er = out.ledger.epochs[e];
      er.rows += rows;
      er.ones += ones;
      out.ledger.events.push_back({e, rows, sent, acked});
      total += rows;
    }
    if (total != n) {
      sh.codes.fail("reports", "wrong-count");
      sh.failures.add("an insert of " + std::to_string(n) + " rows returned " + std::to_string(total));
    }
    sh.stats.report_batches.fetch_add(1);
    sh.stats.reports.fetch_add(total);
  }
}

struct CloserResult {
  Latencies close_votes, close_epoch, close_due;
};

void closer(Shared& sh, int k, CloserResult& out) {
  const Options& opt = sh.opt;
  std::unique_ptr<pqxx::connection> c;
  Outcome o = attempt([&] { c = open_session(opt, "ldp_load_test closer " + std::to_string(k)); });
  if (!o.ok) {
    sh.codes.fail("connect", o.code);
    sh.failures.add("closer " + std::to_string(k) + ": cannot connect: " + o.message);
    return;
  }
  WarningCounter wc(*c, sh.stats, sh.warn_m, sh.warnings);
  prepare_closer_statements(*c);
  std::mt19937_64 rng(splitmix64(opt.seed * 1000003 + 17 * static_cast<uint64_t>(k) + 3));
  std::uniform_real_distribution<double> jitter(0.5, 1.5);
  int32_t seen_epoch = -1;
  std::string seen_phase;
  auto phase_since = Clock::now();
  double phase_ms = 0;
  auto next_due = Clock::now() + std::chrono::milliseconds(opt.close_ms);
  while (!sh.stats.stop.load()) {
    int32_t epoch = 0;
    std::string phase;
    o = attempt([&] {
      pqxx::nontransaction t(*c);
      pqxx::row r = t.exec_prepared1("status", sh.stream);
      epoch = r[0].as<int32_t>();
      phase = r[1].as<std::string>();
    });
    if (!o.ok) {
      sh.codes.fail("status", o.code);
      sh.failures.add("closer " + std::to_string(k) + ": thresh_status: " + o.code + " " + o.message);
      if (o.code == "connection-lost") return;
    } else {
      if (epoch != seen_epoch || phase != seen_phase) {
        seen_epoch = epoch;
        seen_phase = phase;
        phase_since = Clock::now();
        phase_ms = (phase == "voting" ? opt.vote_ms : opt.estimate_ms) * jitter(rng);
        if (k == 0) {
          sh.stats.thresh_epoch.store(epoch);
          sh.stats.thresh_phase.store(phase_index(phase));
        }
      }
      double open_ms = std::chrono::duration<double, std::milli>(Clock::now() - phase_since).count();
      if (phase == "finished") {
        sh.codes.fail("close", "finished");
        sh.failures.add("the THRESH stream ran all its epochs during the run: raise --thresh-epochs");
        return;
      }
      if (open_ms >= phase_ms) {
        bool votes = phase == "voting";
        auto a = Clock::now();
        o = attempt([&] {
          pqxx::nontransaction t(*c);
          t.exec_prepared(votes ? "close_votes" : "close_epoch", sh.stream, epoch);
        });
        auto b = Clock::now();
        const char* op = votes ? "close_votes" : "close_epoch";
        if (o.ok) {
          (votes ? out.close_votes : out.close_epoch).add(a, b);
          (votes ? sh.stats.votes_closed : sh.stats.epochs_closed).fetch_add(1);
        } else {
          sh.codes.fail(op, o.code);
          sh.failures.add("closer " + std::to_string(k) + ": " + op + "(" + std::to_string(epoch) +
                          "): " + o.code + " " + o.message);
          if (o.code == "connection-lost") return;
        }
      }
    }
    if (Clock::now() >= next_due) {
      next_due = Clock::now() + std::chrono::milliseconds(static_cast<int>(opt.close_ms * jitter(rng)));
      o = close_and_look(*c, sh.collection, sh.close_log, sh.stats, &out.close_due);
      if (!o.ok) {
        sh.codes.fail("close_due_epochs", o.code);
        sh.failures.add("closer " + std::to_string(k) + ": close_due_epochs: " + o.code + " " + o.message);
        if (o.code == "connection-lost") return;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// ---------------------------------------------------------------------------
// Checks

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
  std::string why() const {
    return std::to_string(count) + " mismatch(es): " + text + (count > 5 ? "; ..." : "");
  }
};

std::string fmt_rate(double n, double s) { return ldp::tools::Progress::human(s > 0 ? n / s : 0); }

int run(const Options& opt) {
  Shared sh(opt);
  Checks checks;

  // ---- setup
  auto main_conn = std::make_unique<pqxx::connection>(opt.dsn);
  pqxx::connection& mc = *main_conn;
  {
    // the extension may be being reinstalled by someone else: retry a little
    for (int i = 0;; ++i) {
      Outcome o = attempt([&] {
        pqxx::work w(mc);
        w.exec("SET LOCAL client_min_messages = warning");
        w.exec("CREATE EXTENSION IF NOT EXISTS ldp");
        w.exec("ALTER EXTENSION ldp UPDATE");
        w.commit();
      });
      if (o.ok) break;
      if (i >= 10) throw std::runtime_error("cannot create the ldp extension: " + o.message);
      std::this_thread::sleep_for(std::chrono::seconds(2));
    }
    pqxx::work w(mc);
    w.exec("SET LOCAL client_min_messages = error");  // thresh_create warns about the privacy loss
    w.exec("SELECT ldp.thresh_drop(name) FROM ldp.thresh_streams WHERE name = " + w.quote(sh.stream));
    w.exec("DELETE FROM ldp.collections WHERE name = " + w.quote(sh.collection));
    w.exec("DROP TABLE IF EXISTS " + w.quote_name(sh.table));
    w.exec("CREATE TABLE " + w.quote_name(sh.table) + " (at timestamptz NOT NULL, bit boolean NOT NULL)");
    w.exec("CREATE INDEX ON " + w.quote_name(sh.table) + " (at)");
    // epochs from now, to the microsecond (so that epoch boundaries are not whole seconds)
    char len[64];
    std::snprintf(len, sizeof len, "%.6f seconds", opt.epoch_seconds);
    w.exec("SELECT ldp.create_collection(" + w.quote(sh.collection) + ", " + w.quote(sh.table) + ", 'at', " +
           w.quote(len) + "::interval, 'ldp.rr_agg(bit, 1.0)', now())");
    pqxx::row c = w.exec1("SELECT (extract(epoch FROM starts_at) * 1000000)::bigint, "
                          "(extract(epoch FROM epoch_length) * 1000000)::bigint FROM ldp.collections WHERE name = " +
                          w.quote(sh.collection));
    sh.starts_us = c[0].as<int64_t>();
    sh.epoch_us = c[1].as<int64_t>();
    // a billion users (the cap on reports per epoch never binds), T epochs of 1000 rounds,
    // one group; the noises are given (a = b = 0.5): with them any group size is accepted
    w.exec("SELECT ldp.thresh_create(" + w.quote(sh.stream) + ", 1000000000, " +
           std::to_string(opt.thresh_epochs) + ", 1000, 1, 1, 8, 0.1, 0.5, 0.5)");
    w.commit();
  }
  {
    pqxx::nontransaction t(mc);
    t.exec("SET client_min_messages = warning");
    t.exec("SET statement_timeout = '300s'");
  }
  WarningCounter main_wc(mc, sh.stats, sh.warn_m, sh.warnings);

  int thresh_sessions = opt.sessions / 2, report_sessions = opt.sessions - thresh_sessions;
  std::printf("# ldp_load_test: %d THRESH sessions, %d report sessions, %d closer(s), %.0f s, seed %llu, "
              "stream/collection %s, epochs of %g s\n",
              thresh_sessions, report_sessions, opt.closers, opt.duration,
              static_cast<unsigned long long>(opt.seed), opt.prefix.c_str(), opt.epoch_seconds);
  std::fflush(stdout);

  // ---- load
  g_start = Clock::now();
  std::vector<ThreshWriterResult> tw(static_cast<size_t>(thresh_sessions));
  std::vector<ReportWriterResult> rw(static_cast<size_t>(report_sessions));
  std::vector<CloserResult> cr(static_cast<size_t>(opt.closers));
  std::vector<std::thread> writers, closers;
  for (int i = 0; i < thresh_sessions; ++i)
    writers.emplace_back(thresh_writer, std::ref(sh), i, std::ref(tw[static_cast<size_t>(i)]));
  for (int i = 0; i < report_sessions; ++i)
    writers.emplace_back(report_writer, std::ref(sh), i, std::ref(rw[static_cast<size_t>(i)]));
  for (int k = 0; k < opt.closers; ++k)
    closers.emplace_back(closer, std::ref(sh), k, std::ref(cr[static_cast<size_t>(k)]));

  Stats& st = sh.stats;
  // progress of each kind of session: THRESH batches (accepted or refused), report
  // batches, closes; one of them standing still for --stall seconds is a stall
  struct Watch {
    const char* what;
    std::function<int64_t()> count;
    int64_t last = -1;
    Clock::time_point since = Clock::now();
  };
  std::vector<Watch> watches;
  if (thresh_sessions > 0)
    watches.push_back({"THRESH batch", [&] {
                         return st.vote_batches.load() + st.estimate_batches.load() + st.refused_batches.load();
                       }});
  if (report_sessions > 0) watches.push_back({"report batch", [&] { return st.report_batches.load(); }});
  watches.push_back({"close", [&] {
                       return st.votes_closed.load() + st.epochs_closed.load() + st.collection_calls.load();
                     }});
  auto next_progress = Clock::now() + std::chrono::duration<double>(opt.progress > 0 ? opt.progress : 1e9);
  int64_t p_votes = 0, p_est = 0, p_reports = 0;
  double p_time = 0;
  bool stalled = false;
  auto end = g_start + std::chrono::duration<double>(opt.duration);
  while (Clock::now() < end && !stalled) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    for (Watch& wt : watches) {
      int64_t n = wt.count();
      if (n != wt.last) {
        wt.last = n;
        wt.since = Clock::now();
        continue;
      }
      if (std::chrono::duration<double>(Clock::now() - wt.since).count() <= opt.stall) continue;
      stalled = true;
      sh.failures.add(std::string("no ") + wt.what + " for " + std::to_string(opt.stall) + " s: stalled");
      try {
        pqxx::nontransaction t(mc);
        for (const auto& r :
             t.exec("SELECT pid, state, coalesce(wait_event_type || ':' || wait_event, '-'), left(query, 100) "
                    "FROM pg_stat_activity WHERE application_name LIKE 'ldp\\_load\\_test %'"))
          std::fprintf(stderr, "ldp_load_test: stalled session %s %s %s %s\n", r[0].c_str(), r[1].c_str(),
                       r[2].c_str(), r[3].c_str());
      } catch (const std::exception& e) {
        std::fprintf(stderr, "ldp_load_test: pg_stat_activity: %s\n", e.what());
      }
      break;
    }
    if (Clock::now() >= next_progress) {
      next_progress += std::chrono::duration<double>(opt.progress);
      double t = since_start(), dt = t - p_time;
      int64_t v = st.votes.load(), e = st.estimates.load(), r = st.reports.load();
      std::printf("[%4.0fs] thresh epoch %d %-10s votes %s (%s/s) estimates %s (%s/s) refused %lld | reports %s "
                  "(%s/s) epochs closed %lld | warnings %lld failures %lld\n",
                  t, st.thresh_epoch.load(), kPhases[st.thresh_phase.load()],
                  ldp::tools::Progress::human(static_cast<double>(v)).c_str(),
                  fmt_rate(static_cast<double>(v - p_votes), dt).c_str(),
                  ldp::tools::Progress::human(static_cast<double>(e)).c_str(),
                  fmt_rate(static_cast<double>(e - p_est), dt).c_str(),
                  static_cast<long long>(st.refused_batches.load()),
                  ldp::tools::Progress::human(static_cast<double>(r)).c_str(),
                  fmt_rate(static_cast<double>(r - p_reports), dt).c_str(),
                  static_cast<long long>(st.collection_epochs.load()), static_cast<long long>(st.warnings.load()),
                  static_cast<long long>(sh.failures.count.load()));
      std::fflush(stdout);
      p_votes = v;
      p_est = e;
      p_reports = r;
      p_time = t;
    }
  }
  double load_seconds = since_start();
  st.stop.store(true);
  if (stalled) {  // unblock whatever waits: cancel our sessions' statements
    try {
      pqxx::nontransaction t(mc);
      t.exec("SELECT pg_cancel_backend(pid) FROM pg_stat_activity "
             "WHERE application_name LIKE 'ldp\\_load\\_test %' AND wait_event_type = 'Lock'");
    } catch (const std::exception&) {
    }
  }
  for (auto& t : writers) t.join();
  for (auto& t : closers) t.join();

  // ---- merge the ledgers
  ThreshLedger tl;
  Latencies lat_votes, lat_est, lat_reports, lat_close_votes, lat_close_epoch, lat_close_due;
  int64_t injected = 0, inj_23505 = 0, inj_55000 = 0, explicit_rows = 0;
  int64_t cross = 0, cross_accepted = 0, cross_23505 = 0;
  for (auto& r : tw) {
    for (const auto& [e, c] : r.ledger) {
      ThreshCounts& t = tl[e];
      t.votes += c.votes;
      t.vote_ones += c.vote_ones;
      t.estimates += c.estimates;
      t.estimate_ones += c.estimate_ones;
    }
    lat_votes.merge(r.votes);
    lat_est.merge(r.estimates);
    injected += r.injected;
    inj_23505 += r.injected_refused_23505;
    inj_55000 += r.injected_refused_55000;
    cross += r.cross;
    cross_accepted += r.cross_accepted;
    cross_23505 += r.cross_refused_23505;
  }
  std::map<int64_t, EpochRows> cl;
  std::vector<BatchEvent> events;
  for (auto& r : rw) {
    for (const auto& [e, c] : r.ledger.epochs) {
      cl[e].rows += c.rows;
      cl[e].ones += c.ones;
    }
    events.insert(events.end(), r.ledger.events.begin(), r.ledger.events.end());
    lat_reports.merge(r.inserts);
    explicit_rows += r.explicit_rows;
  }
  for (auto& r : cr) {
    lat_close_votes.merge(r.close_votes);
    lat_close_epoch.merge(r.close_epoch);
    lat_close_due.merge(r.close_due);
  }

  // ---- close what is left
  prepare_closer_statements(mc);
  int32_t last_epoch = 0;  // the last THRESH epoch closed
  {
    auto status = [&](int32_t* e, std::string* p) {
      pqxx::nontransaction t(mc);
      pqxx::row r = t.exec_prepared1("status", sh.stream);
      *e = r[0].as<int32_t>();
      *p = r[1].as<std::string>();
    };
    int32_t e;
    std::string p;
    Outcome o = attempt([&] {
      status(&e, &p);
      if (p == "voting") {
        pqxx::nontransaction t(mc);
        t.exec_prepared("close_votes", sh.stream, e);
        st.votes_closed.fetch_add(1);
      }
      status(&e, &p);
      if (p == "estimating" || p == "closed") {
        pqxx::nontransaction t(mc);
        t.exec_prepared("close_epoch", sh.stream, e);
        st.epochs_closed.fetch_add(1);
        last_epoch = e;
      } else {
        last_epoch = e - 1;
      }
      status(&e, &p);
      if (e != last_epoch + 1 || p != "voting")
        throw std::runtime_error("after the last close the stream is in epoch " + std::to_string(e) + ", " + p);
    });
    checks.check("closing the last THRESH epoch", o.ok, o.code + " " + o.message);
  }
  int64_t lo = 0, hi = -1;  // the collection epochs that must be closed
  {
    int64_t max_epoch = cl.empty() ? 0 : cl.rbegin()->first;
    Outcome o = attempt([&] {
      // wait for the last epoch that got a report to end
      pqxx::nontransaction t(mc);
      double wait = t.exec("SELECT greatest(0, extract(epoch FROM ldp.epoch_start(" + t.quote(sh.collection) +
                           ", " + std::to_string(max_epoch + 1) + ") - clock_timestamp()))::float8")[0][0]
                        .as<double>();
      std::this_thread::sleep_for(std::chrono::duration<double>(wait + 0.05));
    });
    if (o.ok) {
      // the final close and the range it had to close, at one now()
      double t0 = since_start();
      o = attempt([&] {
        pqxx::work w(mc);
        w.exec_prepared("close_due", sh.collection);
        pqxx::row r = w.exec1("SELECT ldp.epoch_of(" + w.quote(sh.collection) + ", min(at)), ldp.epoch_of(" +
                              w.quote(sh.collection) + ", now()) - 1 FROM " + w.quote_name(sh.table));
        if (!r[0].is_null()) {
          lo = r[0].as<int64_t>();
          hi = r[1].as<int64_t>();
        }
        w.commit();
      });
      double t1 = since_start();
      if (o.ok) {
        {
          std::lock_guard<std::mutex> g(sh.close_log.m);
          sh.close_log.calls.push_back({t0, t1});
        }
        st.collection_calls.fetch_add(1);
        // a look after it (no call: the close above is recorded)
        o = attempt([&] {
          CloseLog::Look look;
          look.sent = since_start();
          pqxx::nontransaction t(mc);
          pqxx::result r = t.exec_prepared("closed_epochs", sh.collection);
          look.answered = since_start();
          std::lock_guard<std::mutex> g(sh.close_log.m);
          for (const auto& row : r) {
            int64_t e = row[0].as<int64_t>();
            look.closed.push_back(e);
            if (sh.close_log.first_closed_at.emplace(e, row[1].as<std::string>()).second)
              st.collection_epochs.fetch_add(1);
          }
          std::sort(look.closed.begin(), look.closed.end());
          sh.close_log.looks.push_back(std::move(look));
        });
      }
    }
    checks.check("closing the last collection epochs", o.ok, o.code + " " + o.message);
  }

  // ---- the run itself
  {
    std::lock_guard<std::mutex> g(sh.failures.m);
    std::string why = std::to_string(sh.failures.count.load()) + " failure(s): " + Codes::format(sh.codes.failed);
    for (const auto& m : sh.failures.messages) std::fprintf(stderr, "ldp_load_test: %s\n", m.c_str());
    checks.check("no error but the documented refusals (55000; 23505 for injected duplicates)", sh.failures.count.load() == 0 &&
                                                                                    !stalled,
                 why);
  }
  checks.check("no deadlock, no stall", !stalled &&
                                            [&] {
                                              for (const auto& [op, codes] : sh.codes.failed)
                                                if (codes.count("40P01") || codes.count("57014")) return false;
                                              return true;
                                            }(),
               stalled ? "stalled" : "deadlock or statement timeout: " + Codes::format(sh.codes.failed));
  checks.check("every injected duplicate refused", inj_23505 + inj_55000 == injected,
               std::to_string(injected) + " injected, " + std::to_string(inj_23505) + " refused 23505, " +
                   std::to_string(inj_55000) + " refused 55000");

  // ---- THRESH reconciliation
  int64_t global_updates = 0;
  {
    pqxx::nontransaction t(mc);
    std::string q = t.quote(sh.stream);
    int32_t id = t.exec1("SELECT id FROM ldp.thresh_streams WHERE name = " + q)[0].as<int32_t>();
    struct H {
      int64_t votes, yes, est, est_ones;
      bool update, closed;
      double share;
      bool share_null;
    };
    std::map<int32_t, H> hist;
    for (const auto& r : t.exec("SELECT h.epoch, h.votes, h.yes_votes, coalesce(h.estimate_reports, -1), "
                                "coalesce(h.estimate_ones, -1), h.global_update, h.closed_at IS NOT NULL "
                                "FROM ldp.thresh_epochs h WHERE h.stream = " + std::to_string(id))) {
      H h{r[1].as<int64_t>(), r[2].as<int64_t>(), r[3].as<int64_t>(), r[4].as<int64_t>(), r[5].as<bool>(),
          r[6].as<bool>(), 0, true};
      hist[r[0].as<int32_t>()] = h;
    }
    Mismatches history_fn;
    for (const auto& r : t.exec("SELECT epoch, votes, vote_share, estimate_reports FROM ldp.thresh_history(" + q + ")")) {
      int32_t e = r[0].as<int32_t>();
      auto it = hist.find(e);
      if (it == hist.end()) {
        history_fn.add("epoch " + std::to_string(e) + " in thresh_history only");
        continue;
      }
      const H& h = it->second;
      int64_t yes_from_share = r[2].is_null() ? 0 : std::llround(r[2].as<double>() * static_cast<double>(r[1].as<int64_t>()));
      if (r[1].as<int64_t>() != h.votes || yes_from_share != h.yes ||
          (r[3].is_null() ? -1 : r[3].as<int64_t>()) != h.est)
        history_fn.add("epoch " + std::to_string(e));
    }
    std::map<int32_t, std::pair<int64_t, int64_t>> vote_rows, est_rows;
    for (const auto& r : t.exec("SELECT epoch, count(*), count(*) FILTER (WHERE vote) FROM ldp.thresh_votes "
                                "WHERE stream = " + std::to_string(id) + " GROUP BY epoch"))
      vote_rows[r[0].as<int32_t>()] = {r[1].as<int64_t>(), r[2].as<int64_t>()};
    for (const auto& r : t.exec("SELECT epoch, count(*), count(*) FILTER (WHERE report) FROM ldp.thresh_estimates "
                                "WHERE stream = " + std::to_string(id) + " GROUP BY epoch"))
      est_rows[r[0].as<int32_t>()] = {r[1].as<int64_t>(), r[2].as<int64_t>()};

    Mismatches epochs_closed, votes, estimates, rows, no_update_est;
    std::set<int32_t> all;
    for (const auto& [e, h] : hist) all.insert(e);
    for (const auto& [e, c] : tl) all.insert(e);
    for (const auto& [e, c] : vote_rows) all.insert(e);
    for (const auto& [e, c] : est_rows) all.insert(e);
    for (int32_t e = 1; e <= last_epoch; ++e) all.insert(e);
    for (int32_t e : all) {
      std::string es = "epoch " + std::to_string(e);
      auto h = hist.find(e);
      ThreshCounts c = tl.count(e) ? tl[e] : ThreshCounts{};
      auto vr = vote_rows.count(e) ? vote_rows[e] : std::make_pair<int64_t, int64_t>(0, 0);
      auto er = est_rows.count(e) ? est_rows[e] : std::make_pair<int64_t, int64_t>(0, 0);
      if (e < 1 || e > last_epoch || h == hist.end() || !h->second.closed) {
        epochs_closed.add(es + (h == hist.end() ? " has no history" : " not closed"));
        continue;
      }
      global_updates += h->second.update;
      if (h->second.votes != c.votes || h->second.yes != c.vote_ones)
        votes.add(es + ": history " + std::to_string(h->second.votes) + "/" + std::to_string(h->second.yes) +
                  ", acknowledged " + std::to_string(c.votes) + "/" + std::to_string(c.vote_ones));
      if (h->second.est != c.estimates || h->second.est_ones != c.estimate_ones)
        estimates.add(es + ": history " + std::to_string(h->second.est) + "/" + std::to_string(h->second.est_ones) +
                      ", acknowledged " + std::to_string(c.estimates) + "/" + std::to_string(c.estimate_ones));
      if (vr.first != c.votes || vr.second != c.vote_ones || er.first != c.estimates || er.second != c.estimate_ones)
        rows.add(es + ": stored votes " + std::to_string(vr.first) + "/" + std::to_string(vr.second) +
                 " estimates " + std::to_string(er.first) + "/" + std::to_string(er.second) + ", acknowledged " +
                 std::to_string(c.votes) + "/" + std::to_string(c.vote_ones) + " and " +
                 std::to_string(c.estimates) + "/" + std::to_string(c.estimate_ones));
      if (!h->second.update && c.estimates != 0) no_update_est.add(es);
    }
    checks.check("THRESH: epochs 1.." + std::to_string(last_epoch) + " each closed once, nothing beyond",
                 epochs_closed.count == 0 && static_cast<int64_t>(hist.size()) == last_epoch, epochs_closed.why());
    checks.check("THRESH: votes and ones per epoch (thresh_epochs) = acknowledged", votes.count == 0, votes.why());
    checks.check("THRESH: thresh_history agrees (votes, share of ones, estimate reports)", history_fn.count == 0,
                 history_fn.why());
    checks.check("THRESH: estimates and ones per epoch = acknowledged", estimates.count == 0, estimates.why());
    checks.check("THRESH: stored vote and estimate rows per epoch = acknowledged", rows.count == 0, rows.why());
    checks.check("THRESH: estimates accepted only after a global update", no_update_est.count == 0,
                 no_update_est.why());
  }

  // ---- collection reconciliation
  int64_t late_total = 0, late_epochs = 0, refreshed = 0;
  {
    pqxx::nontransaction t(mc);
    std::string q = t.quote(sh.collection);
    struct E {
      int64_t counted, summary_n, present, late;
      bool ended_before_close;
      std::string closed_at;
    };
    std::map<int64_t, E> ce;
    for (const auto& r : t.exec(
             "SELECT ce.epoch, ce.reports, coalesce(ldp.report_count(ce.mean), 0), ce.closed_at::text, "
             "ce.closed_at >= ce.epoch_start + c.epoch_length, lr.present, lr.late "
             "FROM ldp.collection_epochs ce JOIN ldp.collections c ON c.name = ce.collection "
             "LEFT JOIN ldp.late_reports(" + q + ") lr ON lr.epoch = ce.epoch WHERE ce.collection = " + q)) {
      ce[r[0].as<int64_t>()] = E{r[1].as<int64_t>(), r[2].as<int64_t>(), r[5].is_null() ? -1 : r[5].as<int64_t>(),
                                 r[6].is_null() ? -1 : r[6].as<int64_t>(), r[4].as<bool>(), r[3].as<std::string>()};
    }
    int64_t table_rows = t.exec1("SELECT count(*) FROM " + t.quote_name(sh.table))[0].as<int64_t>();
    int64_t ledger_rows = 0;
    for (const auto& [e, c] : cl) ledger_rows += c.rows;

    Mismatches range, once, early, summary, present, counted_le, lower, upper;
    for (int64_t e = lo; e <= hi; ++e)
      if (!ce.count(e)) range.add("epoch " + std::to_string(e) + " not closed");
    for (const auto& [e, x] : ce)
      if (e < lo || e > hi) range.add("epoch " + std::to_string(e) + " closed outside " + std::to_string(lo) + ".." +
                                      std::to_string(hi));
    for (const auto& [e, c] : cl)
      if (!ce.count(e)) range.add("epoch " + std::to_string(e) + " got reports but was never closed");
    {
      std::lock_guard<std::mutex> g(sh.close_log.m);
      for (const auto& [e, x] : ce) {
        auto f = sh.close_log.first_closed_at.find(e);
        if (f == sh.close_log.first_closed_at.end())
          once.add("epoch " + std::to_string(e) + " never seen by a closer");
        else if (f->second != x.closed_at)
          once.add("epoch " + std::to_string(e) + " closed at " + f->second + ", later " + x.closed_at);
      }
    }
    for (const auto& [e, x] : ce) {
      std::string es = "epoch " + std::to_string(e);
      if (!x.ended_before_close) early.add(es);
      if (x.counted != x.summary_n)
        summary.add(es + ": reports " + std::to_string(x.counted) + ", summary n " + std::to_string(x.summary_n));
      int64_t want = cl.count(e) ? cl[e].rows : 0;
      if (x.present != want)
        present.add(es + ": present " + std::to_string(x.present) + ", acknowledged " + std::to_string(want));
      if (x.late < 0 || x.counted > x.present || x.late != x.present - x.counted)
        counted_le.add(es + ": counted " + std::to_string(x.counted) + ", present " + std::to_string(x.present) +
                       ", late " + std::to_string(x.late));
      if (x.late > 0) {
        late_total += x.late;
        ++late_epochs;
      }
    }
    // When each epoch's close can have happened: after the last look that did not see
    // it closed was sent, the close had not committed, so it came from a call that
    // ended later — it began at the earliest at the first such call's start; once a
    // look saw it closed, it had committed.
    std::map<int64_t, double> close_begin, seen_closed;
    {
      std::lock_guard<std::mutex> g(sh.close_log.m);
      std::map<int64_t, double> not_closed_until;  // the last send of a look that did not see it
      for (const auto& [e, x] : ce) not_closed_until[e] = -1e300;
      for (const auto& look : sh.close_log.looks)
        for (auto& [e, t0] : not_closed_until) {
          bool closed = std::binary_search(look.closed.begin(), look.closed.end(), e);
          if (!closed) t0 = std::max(t0, look.sent);
          else if (!seen_closed.count(e) || look.answered < seen_closed[e]) seen_closed[e] = look.answered;
        }
      for (const auto& [e, nc] : not_closed_until) {
        double begin = 1e300;
        for (const auto& call : sh.close_log.calls)
          if (call.t1 > nc) begin = std::min(begin, call.t0);
        close_begin[e] = begin;
      }
    }
    std::map<int64_t, int64_t> acked_before, sent_after;
    for (const auto& ev : events) {
      auto b = close_begin.find(ev.epoch);
      if (b != close_begin.end() && ev.acked < b->second) acked_before[ev.epoch] += ev.rows;
      auto s = seen_closed.find(ev.epoch);
      if (s != seen_closed.end() && ev.sent > s->second) sent_after[ev.epoch] += ev.rows;
    }
    for (const auto& [e, x] : ce) {
      std::string es = "epoch " + std::to_string(e);
      if (x.counted < acked_before[e])
        lower.add(es + ": counted " + std::to_string(x.counted) + " < " + std::to_string(acked_before[e]) +
                  " acknowledged before its close began");
      int64_t want = cl.count(e) ? cl[e].rows : 0;
      if (x.counted > want - sent_after[e])
        upper.add(es + ": counted " + std::to_string(x.counted) + " but " + std::to_string(sent_after[e]) + " of the " +
                  std::to_string(want) + " were sent after it was seen closed");
    }
    checks.check("collection: every ended epoch " + std::to_string(lo) + ".." + std::to_string(hi) +
                     " closed, none beyond",
                 range.count == 0 && hi >= lo, range.count ? range.why() : "no epoch");
    checks.check("collection: each epoch closed once (closed_at never changed)", once.count == 0, once.why());
    checks.check("collection: no epoch closed before it ended", early.count == 0, early.why());
    checks.check("collection: reports = report_count(summary) per epoch", summary.count == 0, summary.why());
    checks.check("collection: rows present per epoch = acknowledged (nothing lost, nothing extra)",
                 present.count == 0 && table_rows == ledger_rows,
                 present.why() + "; table " + std::to_string(table_rows) + " rows, acknowledged " +
                     std::to_string(ledger_rows));
    checks.check("collection: late = present - counted >= 0 per epoch", counted_le.count == 0, counted_le.why());
    checks.check("collection: a close counts every report acknowledged before it began", lower.count == 0,
                 lower.why());
    checks.check("collection: reports sent after their epoch was seen closed are late, not counted",
                 upper.count == 0, upper.why());

    // take the late reports in, then everything must agree exactly, ones included
    Outcome o = attempt([&] {
      for (const auto& [e, x] : ce)
        if (x.late != 0) {
          t.exec("CALL ldp.close_epoch(" + q + ", " + std::to_string(e) + ", true)");
          ++refreshed;
        }
    });
    Mismatches after;
    if (o.ok) {
      std::map<int64_t, std::pair<int64_t, std::string>> now;
      for (const auto& r : t.exec("SELECT epoch, reports, coalesce(mean::text, '') FROM ldp.collection_epochs "
                                  "WHERE collection = " + q))
        now[r[0].as<int64_t>()] = {r[1].as<int64_t>(), r[2].as<std::string>()};
      int64_t still_late = t.exec1("SELECT count(*) FROM ldp.late_reports(" + q + ") WHERE late <> 0")[0].as<int64_t>();
      if (still_late) after.add(std::to_string(still_late) + " epoch(s) still late");
      for (const auto& [e, x] : now) {
        EpochRows want = cl.count(e) ? cl[e] : EpochRows{};
        int64_t ones = 0;
        auto pos = x.second.find("ones=");
        if (pos != std::string::npos) ones = std::strtoll(x.second.c_str() + pos + 5, nullptr, 10);
        if (x.first != want.rows || ones != want.ones)
          after.add("epoch " + std::to_string(e) + ": " + std::to_string(x.first) + " reports, " +
                    std::to_string(ones) + " ones; acknowledged " + std::to_string(want.rows) + ", " +
                    std::to_string(want.ones));
      }
    }
    checks.check("collection: after refreshing the " + std::to_string(refreshed) +
                     " epoch(s) with late reports, reports and ones per epoch = acknowledged",
                 o.ok && after.count == 0, o.ok ? after.why() : o.code + " " + o.message);
  }

  // ---- figures
  bool all_ok = checks.failed == 0;
  if (all_ok && !opt.keep) {
    Outcome o = attempt([&] {
      pqxx::work w(mc);
      w.exec("SELECT ldp.thresh_drop(" + w.quote(sh.stream) + ")");
      w.exec("SELECT ldp.drop_collection(" + w.quote(sh.collection) + ")");
      w.exec("DROP TABLE " + w.quote_name(sh.table));
      w.commit();
    });
    if (!o.ok) std::fprintf(stderr, "ldp_load_test: cleanup: %s\n", o.message.c_str());
  }
  int64_t votes = st.votes.load(), est = st.estimates.load(), reports = st.reports.load();
  std::printf("seconds=%.1f\nsessions=%d\nthresh_sessions=%d\nreport_sessions=%d\nclosers=%d\n", load_seconds,
              opt.sessions, thresh_sessions, report_sessions, opt.closers);
  std::printf("vote_batches=%lld\nvotes=%lld\nvotes_per_s=%.0f\n", static_cast<long long>(st.vote_batches.load()),
              static_cast<long long>(votes), static_cast<double>(votes) / load_seconds);
  std::printf("estimate_batches=%lld\nestimates=%lld\nestimates_per_s=%.0f\n",
              static_cast<long long>(st.estimate_batches.load()), static_cast<long long>(est),
              static_cast<double>(est) / load_seconds);
  std::printf("report_batches=%lld\nreports=%lld\nreports_per_s=%.0f\nreports_timed_in_the_past=%lld\n",
              static_cast<long long>(st.report_batches.load()), static_cast<long long>(reports),
              static_cast<double>(reports) / load_seconds, static_cast<long long>(explicit_rows));
  std::printf("refused=%s\n", Codes::format(sh.codes.refused).c_str());
  std::printf("failed=%s\n", Codes::format(sh.codes.failed).c_str());
  std::printf("duplicates_injected=%lld\nduplicates_refused_23505=%lld\nduplicates_refused_55000=%lld\n",
              static_cast<long long>(injected), static_cast<long long>(inj_23505), static_cast<long long>(inj_55000));
  if (opt.cross_duplicates > 0)
    std::printf("contested_batches=%lld\ncontested_accepted=%lld\ncontested_refused_23505=%lld\n",
                static_cast<long long>(cross), static_cast<long long>(cross_accepted),
                static_cast<long long>(cross_23505));
  std::printf("thresh_epochs_closed=%d\nthresh_global_updates=%lld\n", last_epoch,
              static_cast<long long>(global_updates));
  std::printf("collection_epochs_closed=%lld\ncollection_close_calls=%lld\nlate_reports=%lld\nepochs_with_late=%lld\n",
              static_cast<long long>(hi - lo + 1), static_cast<long long>(st.collection_calls.load()),
              static_cast<long long>(late_total), static_cast<long long>(late_epochs));
  std::printf("warnings=%lld\n", static_cast<long long>(st.warnings.load()));
  {
    std::lock_guard<std::mutex> g(sh.warn_m);
    for (const auto& [w, n] : sh.warnings) std::printf("# %lld x %s\n", static_cast<long long>(n), w.c_str());
  }
  std::printf("latency_votes: %s\nlatency_estimates: %s\nlatency_reports: %s\n", lat_votes.summary().c_str(),
              lat_est.summary().c_str(), lat_reports.summary().c_str());
  std::printf("latency_close_votes: %s\nlatency_close_epoch: %s\nlatency_close_due_epochs: %s\n",
              lat_close_votes.summary().c_str(), lat_close_epoch.summary().c_str(), lat_close_due.summary().c_str());
  std::printf("load: %d checks passed, %d failed\n", checks.passed, checks.failed);
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  enum { kDuration = 1, kSessions, kClosers, kSeed, kBatch, kEpochSeconds, kVoteMs, kEstimateMs, kCloseMs,
         kDuplicates, kCrossDuplicates, kLate, kThreshEpochs, kPrefix, kProgress, kStall, kKeep, kDsn, kHelp };
  static const option options[] = {
      {"duration", required_argument, nullptr, kDuration},
      {"sessions", required_argument, nullptr, kSessions},
      {"closers", required_argument, nullptr, kClosers},
      {"seed", required_argument, nullptr, kSeed},
      {"batch", required_argument, nullptr, kBatch},
      {"epoch-seconds", required_argument, nullptr, kEpochSeconds},
      {"vote-ms", required_argument, nullptr, kVoteMs},
      {"estimate-ms", required_argument, nullptr, kEstimateMs},
      {"close-ms", required_argument, nullptr, kCloseMs},
      {"duplicates", required_argument, nullptr, kDuplicates},
      {"cross-duplicates", required_argument, nullptr, kCrossDuplicates},
      {"late", required_argument, nullptr, kLate},
      {"thresh-epochs", required_argument, nullptr, kThreshEpochs},
      {"prefix", required_argument, nullptr, kPrefix},
      {"progress", required_argument, nullptr, kProgress},
      {"stall", required_argument, nullptr, kStall},
      {"keep", no_argument, nullptr, kKeep},
      {"dsn", required_argument, nullptr, kDsn},
      {"help", no_argument, nullptr, kHelp},
      {nullptr, 0, nullptr, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "", options, nullptr)) != -1) {
    switch (c) {
      case kDuration: opt.duration = parse_double("duration", optarg, 1, 86400); break;
      case kSessions: opt.sessions = static_cast<int>(parse_int("sessions", optarg, 2, 200)); break;
      case kClosers: opt.closers = static_cast<int>(parse_int("closers", optarg, 1, 16)); break;
      case kSeed: opt.seed = static_cast<uint64_t>(parse_int("seed", optarg, 0, INT64_MAX)); break;
      case kBatch: opt.batch = static_cast<int>(parse_int("batch", optarg, 1, 100000)); break;
      case kEpochSeconds: opt.epoch_seconds = parse_double("epoch-seconds", optarg, 0.01, 3600); break;
      case kVoteMs: opt.vote_ms = static_cast<int>(parse_int("vote-ms", optarg, 1, 3600000)); break;
      case kEstimateMs: opt.estimate_ms = static_cast<int>(parse_int("estimate-ms", optarg, 1, 3600000)); break;
      case kCloseMs: opt.close_ms = static_cast<int>(parse_int("close-ms", optarg, 1, 3600000)); break;
      case kDuplicates: opt.duplicates = parse_double("duplicates", optarg, 0, 1); break;
      case kCrossDuplicates: opt.cross_duplicates = parse_double("cross-duplicates", optarg, 0, 1); break;
      case kLate: opt.late = parse_double("late", optarg, 0, 1); break;
      case kThreshEpochs: opt.thresh_epochs = static_cast<int32_t>(parse_int("thresh-epochs", optarg, 1, 100000000)); break;
      case kPrefix:
        opt.prefix = optarg;
        if (opt.prefix.empty() || opt.prefix.size() > 50) usage_error("--prefix must have 1 to 50 characters");
        break;
      case kProgress: opt.progress = parse_double("progress", optarg, 0, 86400); break;
      case kStall: opt.stall = parse_double("stall", optarg, 1, 86400); break;
      case kKeep: opt.keep = true; break;
      case kDsn: opt.dsn = optarg; break;
      case kHelp: std::fputs(kUsage, stdout); return 0;
      case ':': usage_error(std::string(argv[optind - 1]) + " needs a value");
      default: usage_error(std::string("unknown option ") + argv[optind - 1]);
    }
  }
  if (optind < argc) usage_error(std::string("unexpected argument '") + argv[optind] + "'");
  try {
    return run(opt);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ldp_load_test: %s\n", e.what());
    std::string what = e.what();
    if (what.find('\n') != std::string::npos) what.resize(what.find('\n'));
    std::printf("load: the run itself ... FAILED (%s)\n", what.c_str());
    return 1;
  }
}
