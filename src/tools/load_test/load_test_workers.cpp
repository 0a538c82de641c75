// ldp_load_test's sessions: THRESH writers, report writers and closers.
#include "tools/load_test/load_test.hpp"

namespace ldp_load_test {

namespace {

// A worker's session, named "ldp_load_test <kind> <n>", its warnings counted; no
// connection when it cannot connect (a failure of `who`).
struct WorkerSession {
  std::unique_ptr<pqxx::connection> conn;
  std::unique_ptr<WarningCounter> warnings;
};
WorkerSession connect_session(Shared& sh, const char* kind, int n, const std::string& who) {
  WorkerSession s;
  const std::string app = std::string("ldp_load_test ") + kind + " " + std::to_string(n);
  Outcome o = attempt([&] { s.conn = open_session(sh.opt, app); });
  if (o.ok) {
    s.warnings = std::make_unique<WarningCounter>(*s.conn, sh.stats, sh.warn_m, sh.warnings);
  } else {
    sh.codes.fail("connect", o.code);
    sh.failures.add(who + ": cannot connect: " + o.message);
  }
  return s;
}

// The stream's epoch and phase (the prepared "status"); a failure is counted as `who`'s.
Outcome read_status(pqxx::connection& c, Shared& sh, const std::string& who, int32_t* epoch, std::string* phase) {
  Outcome o = attempt([&] {
    pqxx::nontransaction t(c);
    pqxx::row r = t.exec_prepared1("status", sh.stream);
    *epoch = r[0].as<int32_t>();
    *phase = r[1].as<std::string>();
  });
  if (!o.ok) {
    sh.codes.fail("status", o.code);
    sh.failures.add(who + ": thresh_status: " + o.code + " " + o.message);
  }
  return o;
}

}  // namespace

void thresh_writer(Shared& sh, int w, ThreshWriterResult& out) {
  const Options& opt = sh.opt;
  const std::string who = "thresh writer " + std::to_string(w);
  WorkerSession session = connect_session(sh, "thresh", w, who);
  if (!session.conn) return;
  auto& c = session.conn;
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
    Outcome o = read_status(*c, sh, who, &epoch, &phase);
    if (!o.ok) {
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
      sh.failures.add(who + ": " + op + " batch (epoch " + std::to_string(epoch) +
                      (inject ? ", duplicate injected" : cross ? ", users contested by other sessions" : "") +
                      "): " + o.code + " " + o.message);
      if (o.code == "connection-lost") return;
    }
  }
}

void report_writer(Shared& sh, int w, ReportWriterResult& out) {
  const Options& opt = sh.opt;
  WorkerSession session = connect_session(sh, "reports", w, "report writer " + std::to_string(w));
  if (!session.conn) return;
  auto& c = session.conn;
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
    Outcome o = attempt([&] {
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

void closer(Shared& sh, int k, CloserResult& out) {
  const Options& opt = sh.opt;
  const std::string who = "closer " + std::to_string(k);
  WorkerSession session = connect_session(sh, "closer", k, who);
  if (!session.conn) return;
  auto& c = session.conn;
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
    Outcome o = read_status(*c, sh, who, &epoch, &phase);
    if (!o.ok) {
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
          sh.failures.add(who + ": " + op + "(" + std::to_string(epoch) +
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
        sh.failures.add(who + ": close_due_epochs: " + o.code + " " + o.message);
        if (o.code == "connection-lost") return;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace ldp_load_test
