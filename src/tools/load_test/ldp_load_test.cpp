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
#include "tools/load_test/load_test.hpp"

namespace {

using namespace ldp_load_test;

std::string fmt_rate(double n, double s) { return ldp::tools::Progress::human(s > 0 ? n / s : 0); }

// A fresh stream, table and collection over it (sh's names, dropped first); returns the
// main session, its warnings counted.
std::unique_ptr<pqxx::connection> setup(Shared& sh) {
  const Options& opt = sh.opt;
  auto mc = std::make_unique<pqxx::connection>(opt.dsn);
  // the extension may be being reinstalled by someone else: retry a little
  for (int i = 0;; ++i) {
    Outcome o = attempt([&] {
      pqxx::work w(*mc);
      w.exec("SET LOCAL client_min_messages = warning");
      w.exec("CREATE EXTENSION IF NOT EXISTS ldp");
      w.exec("ALTER EXTENSION ldp UPDATE");
      w.commit();
    });
    if (o.ok) break;
    if (i >= 10) throw std::runtime_error("cannot create the ldp extension: " + o.message);
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  pqxx::work w(*mc);
  w.exec("SET LOCAL client_min_messages = error");  // the setup's own warnings are not the load's
  w.exec("SELECT ldp.thresh_drop(name) FROM ldp.thresh_streams WHERE name = " + w.quote(sh.stream));
  w.exec("SELECT ldp.drop_collection(name) FROM ldp.collections WHERE name = " + w.quote(sh.collection));
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
  w.exec("SELECT ldp.thresh_create(" + w.quote(sh.stream) + ", 1000000000, " + std::to_string(opt.thresh_epochs) +
         ", 1000, 1, 1, 8, 0.1, 0.5, 0.5)");
  w.commit();
  pqxx::nontransaction t(*mc);
  t.exec("SET client_min_messages = warning");
  t.exec("SET statement_timeout = '300s'");
  return mc;
}

// The sessions and what each acknowledged.
struct Sessions {
  int thresh = 0, reports = 0;
  std::vector<ThreshWriterResult> tw;
  std::vector<ReportWriterResult> rw;
  std::vector<CloserResult> cr;
  std::vector<std::thread> writers, closers;

  void start(Shared& sh) {
    thresh = sh.opt.sessions / 2;
    reports = sh.opt.sessions - thresh;
    tw.resize(static_cast<size_t>(thresh));
    rw.resize(static_cast<size_t>(reports));
    cr.resize(static_cast<size_t>(sh.opt.closers));
    auto at = [](auto& v, int i) { return std::ref(v[static_cast<size_t>(i)]); };
    for (int i = 0; i < thresh; ++i) writers.emplace_back(thresh_writer, std::ref(sh), i, at(tw, i));
    for (int i = 0; i < reports; ++i) writers.emplace_back(report_writer, std::ref(sh), i, at(rw, i));
    for (int k = 0; k < sh.opt.closers; ++k) closers.emplace_back(closer, std::ref(sh), k, at(cr, k));
  }
  void join() {
    for (auto& t : writers) t.join();
    for (auto& t : closers) t.join();
  }
  Ledgers merge() const;
};

Ledgers Sessions::merge() const {
  Ledgers led;
  for (const auto& r : tw) {
    for (const auto& [e, c] : r.ledger) {
      ThreshCounts& t = led.thresh[e];
      t.votes += c.votes;
      t.vote_ones += c.vote_ones;
      t.estimates += c.estimates;
      t.estimate_ones += c.estimate_ones;
    }
    led.votes.merge(r.votes);
    led.estimates.merge(r.estimates);
    led.injected += r.injected;
    led.injected_23505 += r.injected_refused_23505;
    led.injected_55000 += r.injected_refused_55000;
    led.cross += r.cross;
    led.cross_accepted += r.cross_accepted;
    led.cross_23505 += r.cross_refused_23505;
  }
  for (const auto& r : rw) {
    for (const auto& [e, c] : r.ledger.epochs) {
      led.collection[e].rows += c.rows;
      led.collection[e].ones += c.ones;
    }
    led.events.insert(led.events.end(), r.ledger.events.begin(), r.ledger.events.end());
    led.reports.merge(r.inserts);
    led.explicit_rows += r.explicit_rows;
  }
  for (const auto& r : cr) {
    led.close_votes.merge(r.close_votes);
    led.close_epoch.merge(r.close_epoch);
    led.close_due.merge(r.close_due);
  }
  return led;
}

// Progress of each kind of session: THRESH batches (accepted or refused), report batches,
// closes; one of them standing still for --stall seconds is a stall.
struct Watch {
  const char* what;
  std::function<int64_t()> count;
  int64_t last = -1;
  Clock::time_point since = Clock::now();
};

// Whether a watch stood still past --stall: then a failure, and our sessions' states on stderr.
bool stalled_now(Shared& sh, pqxx::connection& mc, Watch& wt) {
  int64_t n = wt.count();
  if (n != wt.last) {
    wt.last = n;
    wt.since = Clock::now();
    return false;
  }
  if (std::chrono::duration<double>(Clock::now() - wt.since).count() <= sh.opt.stall) return false;
  sh.failures.add(std::string("no ") + wt.what + " for " + std::to_string(sh.opt.stall) + " s: stalled");
  try {
    pqxx::nontransaction t(mc);
    for (const auto& r : t.exec("SELECT pid, state, coalesce(wait_event_type || ':' || wait_event, '-'), "
                                "left(query, 100) FROM pg_stat_activity "
                                "WHERE application_name LIKE 'ldp\\_load\\_test %'"))
      std::fprintf(stderr, "ldp_load_test: stalled session %s %s %s %s\n", r[0].c_str(), r[1].c_str(), r[2].c_str(),
                   r[3].c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ldp_load_test: pg_stat_activity: %s\n", e.what());
  }
  return true;
}

// The progress line "[ 10s] thresh epoch ..." every --progress seconds.
class ProgressLines {
 public:
  explicit ProgressLines(const Shared& sh)
      : sh_(sh), next_(Clock::now() + std::chrono::duration<double>(sh.opt.progress > 0 ? sh.opt.progress : 1e9)) {}
  void maybe_print() {
    if (Clock::now() < next_) return;
    next_ += std::chrono::duration<double>(sh_.opt.progress);
    const Stats& st = sh_.stats;
    double t = since_start(), dt = t - time_;
    int64_t v = st.votes.load(), e = st.estimates.load(), r = st.reports.load();
    auto human = [](int64_t n) { return ldp::tools::Progress::human(static_cast<double>(n)); };
    std::printf("[%4.0fs] thresh epoch %d %-10s votes %s (%s/s) estimates %s (%s/s) refused %lld | reports %s "
                "(%s/s) epochs closed %lld | warnings %lld failures %lld\n",
                t, st.thresh_epoch.load(), kPhases[st.thresh_phase.load()], human(v).c_str(),
                fmt_rate(static_cast<double>(v - votes_), dt).c_str(), human(e).c_str(),
                fmt_rate(static_cast<double>(e - estimates_), dt).c_str(),
                static_cast<long long>(st.refused_batches.load()), human(r).c_str(),
                fmt_rate(static_cast<double>(r - reports_), dt).c_str(),
                static_cast<long long>(st.collection_epochs.load()), static_cast<long long>(st.warnings.load()),
                static_cast<long long>(sh_.failures.count.load()));
    std::fflush(stdout);
    votes_ = v;
    estimates_ = e;
    reports_ = r;
    time_ = t;
  }

 private:
  const Shared& sh_;
  decltype(Clock::now() + std::chrono::duration<double>(0)) next_;  // fractional seconds, as --progress
  int64_t votes_ = 0, estimates_ = 0, reports_ = 0;
  double time_ = 0;
};

// Runs until --duration or a stall, printing progress; returns whether it stalled (then
// our sessions' statements waiting on a lock are cancelled).
bool watch_the_load(Shared& sh, pqxx::connection& mc, const Sessions& s) {
  Stats& st = sh.stats;
  std::vector<Watch> watches;
  if (s.thresh > 0)
    watches.push_back({"THRESH batch", [&] {
                         return st.vote_batches.load() + st.estimate_batches.load() + st.refused_batches.load();
                       }});
  if (s.reports > 0) watches.push_back({"report batch", [&] { return st.report_batches.load(); }});
  watches.push_back(
      {"close", [&] { return st.votes_closed.load() + st.epochs_closed.load() + st.collection_calls.load(); }});
  ProgressLines progress(sh);
  bool stalled = false;
  auto end = g_start + std::chrono::duration<double>(sh.opt.duration);
  while (Clock::now() < end && !stalled) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    for (Watch& wt : watches)
      if ((stalled = stalled_now(sh, mc, wt))) break;
    progress.maybe_print();
  }
  if (stalled) {  // unblock whatever waits: cancel our sessions' statements
    try {
      pqxx::nontransaction t(mc);
      t.exec("SELECT pg_cancel_backend(pid) FROM pg_stat_activity "
             "WHERE application_name LIKE 'ldp\\_load\\_test %' AND wait_event_type = 'Lock'");
    } catch (const std::exception&) {
    }
  }
  return stalled;
}

// Closes the stream's open phase (votes, then the epoch); returns the last epoch closed.
int32_t close_last_thresh_epoch(Shared& sh, pqxx::connection& mc, Checks& checks) {
  int32_t last_epoch = 0;
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
      sh.stats.votes_closed.fetch_add(1);
    }
    status(&e, &p);
    if (p == "estimating" || p == "closed") {
      pqxx::nontransaction t(mc);
      t.exec_prepared("close_epoch", sh.stream, e);
      sh.stats.epochs_closed.fetch_add(1);
      last_epoch = e;
    } else {
      last_epoch = e - 1;
    }
    status(&e, &p);
    if (e != last_epoch + 1 || p != "voting")
      throw std::runtime_error("after the last close the stream is in epoch " + std::to_string(e) + ", " + p);
  });
  checks.check("closing the last THRESH epoch", o.ok, o.code + " " + o.message);
  return last_epoch;
}

// Waits for the last collection epoch that got a report to end, closes what is due and
// looks; sets closed->lo..hi, the epochs that had to be closed.
void close_last_collection_epochs(Shared& sh, pqxx::connection& mc, const Ledgers& led, Closed* closed,
                                  Checks& checks) {
  int64_t max_epoch = led.collection.empty() ? 0 : led.collection.rbegin()->first;
  Outcome o = attempt([&] {
    pqxx::nontransaction t(mc);
    double wait = t.exec("SELECT greatest(0, extract(epoch FROM ldp.epoch_start(" + t.quote(sh.collection) + ", " +
                         std::to_string(max_epoch + 1) + ") - clock_timestamp()))::float8")[0][0]
                      .as<double>();
    std::this_thread::sleep_for(std::chrono::duration<double>(wait + 0.05));
  });
  if (o.ok) {
    // the final close and the range it had to close, at one now()
    double t0 = since_start();
    o = attempt([&] {
      pqxx::work w(mc);
      w.exec_prepared("close_due", sh.collection);
      // from the first report's epoch, or epoch 0: reports before starts_at (late ones
      // sent as the run began) are in no epoch that close_due_epochs closes
      pqxx::row r = w.exec1("SELECT greatest(ldp.epoch_of(" + w.quote(sh.collection) + ", min(at)), 0), " +
                            "ldp.epoch_of(" + w.quote(sh.collection) + ", now()) - 1 FROM " + w.quote_name(sh.table));
      if (!r[0].is_null()) {
        closed->lo = r[0].as<int64_t>();
        closed->hi = r[1].as<int64_t>();
      }
      w.commit();
    });
    if (o.ok) {
      log_close_call(sh.close_log, sh.stats, t0, since_start());
      o = look_closed(mc, sh.collection, sh.close_log, sh.stats);
    }
  }
  checks.check("closing the last collection epochs", o.ok, o.code + " " + o.message);
}

// Drops the stream, collection and table.
void clean_up(const Shared& sh, pqxx::connection& mc) {
  Outcome o = attempt([&] {
    pqxx::work w(mc);
    w.exec("SELECT ldp.thresh_drop(" + w.quote(sh.stream) + ")");
    w.exec("SELECT ldp.drop_collection(" + w.quote(sh.collection) + ")");
    w.exec("DROP TABLE " + w.quote_name(sh.table));
    w.commit();
  });
  if (!o.ok) std::fprintf(stderr, "ldp_load_test: cleanup: %s\n", o.message.c_str());
}

// The key=value figures and the latencies.
void print_figures(Shared& sh, const Sessions& s, Ledgers& led, double load_seconds, const Closed& closed,
                   int64_t global_updates, const LateFigures& late) {
  const Options& opt = sh.opt;
  const Stats& st = sh.stats;
  auto ll = [](int64_t n) { return static_cast<long long>(n); };
  int64_t votes = st.votes.load(), est = st.estimates.load(), reports = st.reports.load();
  std::printf("seconds=%.1f\nsessions=%d\nthresh_sessions=%d\nreport_sessions=%d\nclosers=%d\n", load_seconds,
              opt.sessions, s.thresh, s.reports, opt.closers);
  std::printf("vote_batches=%lld\nvotes=%lld\nvotes_per_s=%.0f\n", ll(st.vote_batches.load()), ll(votes),
              static_cast<double>(votes) / load_seconds);
  std::printf("estimate_batches=%lld\nestimates=%lld\nestimates_per_s=%.0f\n", ll(st.estimate_batches.load()),
              ll(est), static_cast<double>(est) / load_seconds);
  std::printf("report_batches=%lld\nreports=%lld\nreports_per_s=%.0f\nreports_timed_in_the_past=%lld\n",
              ll(st.report_batches.load()), ll(reports), static_cast<double>(reports) / load_seconds,
              ll(led.explicit_rows));
  std::printf("refused=%s\n", Codes::format(sh.codes.refused).c_str());
  std::printf("failed=%s\n", Codes::format(sh.codes.failed).c_str());
  std::printf("duplicates_injected=%lld\nduplicates_refused_23505=%lld\nduplicates_refused_55000=%lld\n",
              ll(led.injected), ll(led.injected_23505), ll(led.injected_55000));
  if (opt.cross_duplicates > 0)
    std::printf("contested_batches=%lld\ncontested_accepted=%lld\ncontested_refused_23505=%lld\n", ll(led.cross),
                ll(led.cross_accepted), ll(led.cross_23505));
  std::printf("thresh_epochs_closed=%d\nthresh_global_updates=%lld\n", closed.last_epoch, ll(global_updates));
  std::printf("collection_epochs_closed=%lld\ncollection_close_calls=%lld\nlate_reports=%lld\nepochs_with_late=%lld\n",
              ll(closed.hi - closed.lo + 1), ll(st.collection_calls.load()), ll(late.reports), ll(late.epochs));
  std::printf("warnings=%lld\n", ll(st.warnings.load()));
  {
    std::lock_guard<std::mutex> g(sh.warn_m);
    for (const auto& [w, n] : sh.warnings) std::printf("# %lld x %s\n", ll(n), w.c_str());
  }
  std::printf("latency_votes: %s\nlatency_estimates: %s\nlatency_reports: %s\n", led.votes.summary().c_str(),
              led.estimates.summary().c_str(), led.reports.summary().c_str());
  std::printf("latency_close_votes: %s\nlatency_close_epoch: %s\nlatency_close_due_epochs: %s\n",
              led.close_votes.summary().c_str(), led.close_epoch.summary().c_str(), led.close_due.summary().c_str());
}

int run(const Options& opt) {
  Shared sh(opt);
  Checks checks;
  std::unique_ptr<pqxx::connection> main_conn = setup(sh);
  pqxx::connection& mc = *main_conn;
  WarningCounter main_wc(mc, sh.stats, sh.warn_m, sh.warnings);
  Sessions sessions;
  std::printf("# ldp_load_test: %d THRESH sessions, %d report sessions, %d closer(s), %.0f s, seed %llu, "
              "stream/collection %s, epochs of %g s\n",
              opt.sessions / 2, opt.sessions - opt.sessions / 2, opt.closers, opt.duration,
              static_cast<unsigned long long>(opt.seed), opt.prefix.c_str(), opt.epoch_seconds);
  std::fflush(stdout);

  g_start = Clock::now();
  sessions.start(sh);
  const bool stalled = watch_the_load(sh, mc, sessions);
  const double load_seconds = since_start();
  sh.stats.stop.store(true);
  sessions.join();
  Ledgers led = sessions.merge();

  prepare_closer_statements(mc);
  Closed closed;
  closed.last_epoch = close_last_thresh_epoch(sh, mc, checks);
  close_last_collection_epochs(sh, mc, led, &closed, checks);
  check_the_run(sh, led, stalled, checks);
  const int64_t global_updates = reconcile_thresh(mc, sh, led, closed.last_epoch, checks);
  const LateFigures late = reconcile_collection(mc, sh, led, closed, checks);

  const bool all_ok = checks.failed == 0;
  if (all_ok && !opt.keep) clean_up(sh, mc);
  print_figures(sh, sessions, led, load_seconds, closed, global_updates, late);
  std::printf("load: %d checks passed, %d failed\n", checks.passed, checks.failed);
  return all_ok ? 0 : 1;
}

// The options, each parsed as it comes (usage_error exits with status 2).
Options read_options(int argc, char** argv) {
  Options opt;
  auto number = [](const char* name, double* out, double lo, double hi) {
    return ldp::tools::CliOption{name, true, [=](const char* v) { *out = parse_double(name, v, lo, hi); }};
  };
  auto integer = [](const char* name, auto* out, int64_t lo, int64_t hi) {
    return ldp::tools::CliOption{name, true, [=](const char* v) {
                                   *out = static_cast<std::remove_pointer_t<decltype(out)>>(parse_int(name, v, lo, hi));
                                 }};
  };
  ldp::tools::parse_cli(
      "ldp_load_test", argc, argv,
      {number("duration", &opt.duration, 1, 86400),
       integer("sessions", &opt.sessions, 2, 200),
       integer("closers", &opt.closers, 1, 16),
       integer("seed", &opt.seed, 0, INT64_MAX),
       integer("batch", &opt.batch, 1, 100000),
       number("epoch-seconds", &opt.epoch_seconds, 0.01, 3600),
       integer("vote-ms", &opt.vote_ms, 1, 3600000),
       integer("estimate-ms", &opt.estimate_ms, 1, 3600000),
       integer("close-ms", &opt.close_ms, 1, 3600000),
       number("duplicates", &opt.duplicates, 0, 1),
       number("cross-duplicates", &opt.cross_duplicates, 0, 1),
       number("late", &opt.late, 0, 1),
       integer("thresh-epochs", &opt.thresh_epochs, 1, 100000000),
       {"prefix", true,
        [&](const char* v) {
          opt.prefix = v;
          if (opt.prefix.empty() || opt.prefix.size() > 50) usage_error("--prefix must have 1 to 50 characters");
        }},
       number("progress", &opt.progress, 0, 86400),
       number("stall", &opt.stall, 1, 86400),
       {"keep", false, [&](const char*) { opt.keep = true; }},
       {"dsn", true, [&](const char* v) { opt.dsn = v; }},
       {"help", false, [](const char*) {
          std::fputs(kUsage, stdout);
          std::exit(0);
        }}});
  return opt;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = read_options(argc, argv);
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
