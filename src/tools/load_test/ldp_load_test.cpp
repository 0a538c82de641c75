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
        // from the first report's epoch, or epoch 0: reports before starts_at (late ones
        // sent as the run began) are in no epoch that close_due_epochs closes
        pqxx::row r = w.exec1("SELECT greatest(ldp.epoch_of(" + w.quote(sh.collection) + ", min(at)), 0), ldp.epoch_of(" +
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
    // every stored epoch, and every epoch closed without reports that has late ones now
    // (late_reports lists both; closed_at '' for the latter)
    for (const auto& r : t.exec(
             "SELECT lr.epoch, lr.counted, coalesce(ldp.report_count(ce.summary), 0), coalesce(ce.closed_at::text, ''), "
             "coalesce(ce.closed_at >= ce.epoch_start + c.epoch_length, true), lr.present, lr.late "
             "FROM ldp.late_reports(" + q + ") lr JOIN ldp.collections c ON c.name = " + q +
             " LEFT JOIN ldp.collection_epochs ce ON ce.collection = c.name AND ce.epoch = lr.epoch")) {
      ce[r[0].as<int64_t>()] = E{r[1].as<int64_t>(), r[2].as<int64_t>(), r[5].is_null() ? -1 : r[5].as<int64_t>(),
                                 r[6].is_null() ? -1 : r[6].as<int64_t>(), r[4].as<bool>(), r[3].as<std::string>()};
    }
    int64_t table_rows = t.exec1("SELECT count(*) FROM " + t.quote_name(sh.table))[0].as<int64_t>();
    int64_t ledger_rows = 0;
    for (const auto& [e, c] : cl) ledger_rows += c.rows;

    Mismatches range, once, early, summary, present, counted_le, lower, upper;
    // closed: in the collection's closed set (an epoch without reports has no row), and
    // nothing beyond lo..hi
    for (const auto& r : t.exec("SELECT g.e FROM generate_series(" + std::to_string(lo) + "::bigint, " +
                                std::to_string(hi) + ") g(e), ldp.collection_status(" + q +
                                ") s WHERE NOT s.closed @> g.e"))
      range.add("epoch " + r[0].as<std::string>() + " not closed");
    for (const auto& r : t.exec("SELECT r::text FROM ldp.collection_status(" + q + ") s, unnest(s.closed) r "
                                "WHERE lower(r) < " + std::to_string(lo) + " OR upper(r) > " + std::to_string(hi + 1)))
      range.add("epochs " + r[0].as<std::string>() + " closed outside " + std::to_string(lo) + ".." + std::to_string(hi));
    for (const auto& [e, x] : ce)
      if (e < lo || e > hi) range.add("epoch " + std::to_string(e) + " closed outside " + std::to_string(lo) + ".." +
                                      std::to_string(hi));
    int64_t before_start = 0;
    for (const auto& [e, c] : cl) {
      if (e < 0) before_start += c.rows;
      else if (!ce.count(e)) range.add("epoch " + std::to_string(e) + " got reports but was never closed");
    }
    int64_t counted_before = t.exec1("SELECT reports_before_start FROM ldp.collection_status(" + q + ")")[0].as<int64_t>();
    if (counted_before != before_start)
      range.add("collection_status counts " + std::to_string(counted_before) + " reports before starts_at, " +
                std::to_string(before_start) + " were acknowledged");
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
      for (const auto& r : t.exec("SELECT epoch, reports, coalesce(summary::text, '') FROM ldp.collection_epochs "
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
