// ldp_load_test's reconciliation: what the server stored against what it acknowledged to
// the sessions (their merged ledgers) and what the closers saw. One "load: ..." line per
// check, in a fixed order.
#include "tools/load_test/load_test.hpp"

namespace ldp_load_test {

namespace {

template <class Map>
typename Map::mapped_type value_or_zero(const Map& m, typename Map::key_type k) {
  auto it = m.find(k);
  return it == m.end() ? typename Map::mapped_type{} : it->second;
}

// ---------------------------------------------------------------------------
// THRESH

struct ThreshEpoch {  // a row of ldp.thresh_epochs
  int64_t votes, yes, est, est_ones;
  bool update, closed;
};
using Rows = std::map<int32_t, std::pair<int64_t, int64_t>>;  // epoch -> rows, of which true

std::map<int32_t, ThreshEpoch> thresh_epochs(pqxx::nontransaction& t, int32_t id) {
  std::map<int32_t, ThreshEpoch> hist;
  for (const auto& r : t.exec("SELECT h.epoch, h.votes, h.yes_votes, coalesce(h.estimate_reports, -1), "
                              "coalesce(h.estimate_ones, -1), h.global_update, h.closed_at IS NOT NULL "
                              "FROM ldp.thresh_epochs h WHERE h.stream = " + std::to_string(id)))
    hist[r[0].as<int32_t>()] = ThreshEpoch{r[1].as<int64_t>(), r[2].as<int64_t>(), r[3].as<int64_t>(),
                                           r[4].as<int64_t>(), r[5].as<bool>(), r[6].as<bool>()};
  return hist;
}

// ldp.thresh_history against ldp.thresh_epochs.
Mismatches history_mismatches(pqxx::nontransaction& t, const std::string& q,
                              const std::map<int32_t, ThreshEpoch>& hist) {
  Mismatches history_fn;
  for (const auto& r : t.exec("SELECT epoch, votes, vote_share, estimate_reports FROM ldp.thresh_history(" + q + ")")) {
    int32_t e = r[0].as<int32_t>();
    auto it = hist.find(e);
    if (it == hist.end()) {
      history_fn.add("epoch " + std::to_string(e) + " in thresh_history only");
      continue;
    }
    const ThreshEpoch& h = it->second;
    int64_t yes_from_share =
        r[2].is_null() ? 0 : std::llround(r[2].as<double>() * static_cast<double>(r[1].as<int64_t>()));
    if (r[1].as<int64_t>() != h.votes || yes_from_share != h.yes || (r[3].is_null() ? -1 : r[3].as<int64_t>()) != h.est)
      history_fn.add("epoch " + std::to_string(e));
  }
  return history_fn;
}

// The stored vote or estimate rows per epoch (table: thresh_votes or thresh_estimates).
Rows stored_rows(pqxx::nontransaction& t, const char* table, const char* column, int32_t id) {
  Rows rows;
  for (const auto& r : t.exec(std::string("SELECT epoch, count(*), count(*) FILTER (WHERE ") + column + ") FROM ldp." +
                              table + " WHERE stream = " + std::to_string(id) + " GROUP BY epoch"))
    rows[r[0].as<int32_t>()] = {r[1].as<int64_t>(), r[2].as<int64_t>()};
  return rows;
}

std::string pair_text(int64_t a, int64_t b) { return std::to_string(a) + "/" + std::to_string(b); }

// ---------------------------------------------------------------------------
// Collection

struct CollectionEpoch {  // an epoch of ldp.late_reports, with its stored row
  int64_t counted, summary_n, present, late;
  bool ended_before_close;
  std::string closed_at;
};
using CollectionEpochs = std::map<int64_t, CollectionEpoch>;

// Every stored epoch, and every epoch closed without reports that has late ones now
// (late_reports lists both; closed_at '' for the latter).
CollectionEpochs collection_epochs(pqxx::nontransaction& t, const std::string& q) {
  CollectionEpochs ce;
  for (const auto& r : t.exec(
           "SELECT lr.epoch, lr.counted, coalesce(ldp.report_count(ce.summary), 0), coalesce(ce.closed_at::text, ''), "
           "coalesce(ce.closed_at >= ce.epoch_start + c.epoch_length, true), lr.present, lr.late "
           "FROM ldp.late_reports(" + q + ") lr JOIN ldp.collections c ON c.name = " + q +
           " LEFT JOIN ldp.collection_epochs ce ON ce.collection = c.name AND ce.epoch = lr.epoch"))
    ce[r[0].as<int64_t>()] =
        CollectionEpoch{r[1].as<int64_t>(), r[2].as<int64_t>(), r[5].is_null() ? -1 : r[5].as<int64_t>(),
                        r[6].is_null() ? -1 : r[6].as<int64_t>(), r[4].as<bool>(), r[3].as<std::string>()};
  return ce;
}

// Closed: in the collection's closed set (an epoch without reports has no row), nothing
// beyond lo..hi, every epoch with reports closed, the reports before starts_at counted.
Mismatches range_mismatches(pqxx::nontransaction& t, const std::string& q, const CollectionEpochs& ce,
                            const Ledgers& led, int64_t lo, int64_t hi) {
  Mismatches range;
  const std::string span = std::to_string(lo) + ".." + std::to_string(hi);
  for (const auto& r : t.exec("SELECT g.e FROM generate_series(" + std::to_string(lo) + "::bigint, " +
                              std::to_string(hi) + ") g(e), ldp.collection_status(" + q +
                              ") s WHERE NOT s.closed @> g.e"))
    range.add("epoch " + r[0].as<std::string>() + " not closed");
  for (const auto& r : t.exec("SELECT r::text FROM ldp.collection_status(" + q + ") s, unnest(s.closed) r "
                              "WHERE lower(r) < " + std::to_string(lo) + " OR upper(r) > " + std::to_string(hi + 1)))
    range.add("epochs " + r[0].as<std::string>() + " closed outside " + span);
  for (const auto& [e, x] : ce)
    if (e < lo || e > hi) range.add("epoch " + std::to_string(e) + " closed outside " + span);
  int64_t before_start = 0;
  for (const auto& [e, c] : led.collection) {
    if (e < 0)
      before_start += c.rows;
    else if (!ce.count(e))
      range.add("epoch " + std::to_string(e) + " got reports but was never closed");
  }
  int64_t counted_before = t.exec1("SELECT reports_before_start FROM ldp.collection_status(" + q + ")")[0].as<int64_t>();
  if (counted_before != before_start)
    range.add("collection_status counts " + std::to_string(counted_before) + " reports before starts_at, " +
              std::to_string(before_start) + " were acknowledged");
  return range;
}

// closed_at as the closers first saw it, and as it is now.
Mismatches once_mismatches(Shared& sh, const CollectionEpochs& ce) {
  Mismatches once;
  std::lock_guard<std::mutex> g(sh.close_log.m);
  for (const auto& [e, x] : ce) {
    auto f = sh.close_log.first_closed_at.find(e);
    if (f == sh.close_log.first_closed_at.end())
      once.add("epoch " + std::to_string(e) + " never seen by a closer");
    else if (f->second != x.closed_at)
      once.add("epoch " + std::to_string(e) + " closed at " + f->second + ", later " + x.closed_at);
  }
  return once;
}

// When each epoch's close can have happened: after the last look that did not see it
// closed was sent, the close had not committed, so it came from a call that ended later —
// it began at the earliest at the first such call's start; once a look saw it closed, it
// had committed. Per epoch: the rows acknowledged before its close began, and those sent
// after it was seen closed.
struct CloseBounds {
  std::map<int64_t, int64_t> acked_before, sent_after;
};
CloseBounds close_bounds(Shared& sh, const CollectionEpochs& ce, const Ledgers& led) {
  std::map<int64_t, double> close_begin, seen_closed;
  {
    std::lock_guard<std::mutex> g(sh.close_log.m);
    std::map<int64_t, double> not_closed_until;  // the last send of a look that did not see it
    for (const auto& [e, x] : ce) not_closed_until[e] = -1e300;
    for (const auto& look : sh.close_log.looks)
      for (auto& [e, t0] : not_closed_until) {
        bool closed = std::binary_search(look.closed.begin(), look.closed.end(), e);
        if (!closed)
          t0 = std::max(t0, look.sent);
        else if (!seen_closed.count(e) || look.answered < seen_closed[e])
          seen_closed[e] = look.answered;
      }
    for (const auto& [e, nc] : not_closed_until) {
      double begin = 1e300;
      for (const auto& call : sh.close_log.calls)
        if (call.t1 > nc) begin = std::min(begin, call.t0);
      close_begin[e] = begin;
    }
  }
  CloseBounds out;
  for (const auto& ev : led.events) {
    auto b = close_begin.find(ev.epoch);
    if (b != close_begin.end() && ev.acked < b->second) out.acked_before[ev.epoch] += ev.rows;
    auto s = seen_closed.find(ev.epoch);
    if (s != seen_closed.end() && ev.sent > s->second) out.sent_after[ev.epoch] += ev.rows;
  }
  return out;
}

// Takes the late reports in (ldp.close_epoch with refresh), then every epoch's reports and
// ones must be what was acknowledged.
void check_after_refresh(pqxx::nontransaction& t, const std::string& q, const CollectionEpochs& ce,
                            const Ledgers& led, Checks& checks) {
  int64_t refreshed = 0;
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
      EpochRows want = value_or_zero(led.collection, e);
      int64_t ones = 0;
      auto pos = x.second.find("ones=");
      if (pos != std::string::npos) ones = std::strtoll(x.second.c_str() + pos + 5, nullptr, 10);
      if (x.first != want.rows || ones != want.ones)
        after.add("epoch " + std::to_string(e) + ": " + std::to_string(x.first) + " reports, " + std::to_string(ones) +
                  " ones; acknowledged " + std::to_string(want.rows) + ", " + std::to_string(want.ones));
    }
  }
  checks.check("collection: after refreshing the " + std::to_string(refreshed) +
                   " epoch(s) with late reports, reports and ones per epoch = acknowledged",
               o.ok && after.count == 0, o.ok ? after.why() : o.code + " " + o.message);
}

}  // namespace

void check_the_run(Shared& sh, const Ledgers& led, bool stalled, Checks& checks) {
  {
    std::lock_guard<std::mutex> g(sh.failures.m);
    std::string why = std::to_string(sh.failures.count.load()) + " failure(s): " + Codes::format(sh.codes.failed);
    for (const auto& m : sh.failures.messages) std::fprintf(stderr, "ldp_load_test: %s\n", m.c_str());
    checks.check("no error but the documented refusals (55000; 23505 for injected duplicates)",
                 sh.failures.count.load() == 0 && !stalled, why);
  }
  bool deadlock = false;
  for (const auto& [op, codes] : sh.codes.failed) deadlock = deadlock || codes.count("40P01") || codes.count("57014");
  checks.check("no deadlock, no stall", !stalled && !deadlock,
               stalled ? "stalled" : "deadlock or statement timeout: " + Codes::format(sh.codes.failed));
  checks.check("every injected duplicate refused", led.injected_23505 + led.injected_55000 == led.injected,
               std::to_string(led.injected) + " injected, " + std::to_string(led.injected_23505) + " refused 23505, " +
                   std::to_string(led.injected_55000) + " refused 55000");
}

int64_t reconcile_thresh(pqxx::connection& mc, const Shared& sh, const Ledgers& led, int32_t last_epoch,
                         Checks& checks) {
  pqxx::nontransaction t(mc);
  std::string q = t.quote(sh.stream);
  int32_t id = t.exec1("SELECT id FROM ldp.thresh_streams WHERE name = " + q)[0].as<int32_t>();
  const std::map<int32_t, ThreshEpoch> hist = thresh_epochs(t, id);
  const Mismatches history_fn = history_mismatches(t, q, hist);
  const Rows vote_rows = stored_rows(t, "thresh_votes", "vote", id);
  const Rows est_rows = stored_rows(t, "thresh_estimates", "report", id);

  int64_t global_updates = 0;
  Mismatches epochs_closed, votes, estimates, rows, no_update_est;
  std::set<int32_t> all;
  for (const auto& [e, h] : hist) all.insert(e);
  for (const auto& [e, c] : led.thresh) all.insert(e);
  for (const auto& [e, c] : vote_rows) all.insert(e);
  for (const auto& [e, c] : est_rows) all.insert(e);
  for (int32_t e = 1; e <= last_epoch; ++e) all.insert(e);
  for (int32_t e : all) {
    std::string es = "epoch " + std::to_string(e);
    auto h = hist.find(e);
    const ThreshCounts c = value_or_zero(led.thresh, e);
    const auto vr = value_or_zero(vote_rows, e), er = value_or_zero(est_rows, e);
    if (e < 1 || e > last_epoch || h == hist.end() || !h->second.closed) {
      epochs_closed.add(es + (h == hist.end() ? " has no history" : " not closed"));
      continue;
    }
    global_updates += h->second.update;
    if (h->second.votes != c.votes || h->second.yes != c.vote_ones)
      votes.add(es + ": history " + pair_text(h->second.votes, h->second.yes) + ", acknowledged " +
                pair_text(c.votes, c.vote_ones));
    if (h->second.est != c.estimates || h->second.est_ones != c.estimate_ones)
      estimates.add(es + ": history " + pair_text(h->second.est, h->second.est_ones) + ", acknowledged " +
                    pair_text(c.estimates, c.estimate_ones));
    if (vr.first != c.votes || vr.second != c.vote_ones || er.first != c.estimates || er.second != c.estimate_ones)
      rows.add(es + ": stored votes " + pair_text(vr.first, vr.second) + " estimates " +
               pair_text(er.first, er.second) + ", acknowledged " + pair_text(c.votes, c.vote_ones) + " and " +
               pair_text(c.estimates, c.estimate_ones));
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
  return global_updates;
}

LateFigures reconcile_collection(pqxx::connection& mc, Shared& sh, const Ledgers& led, const Closed& closed,
                                 Checks& checks) {
  pqxx::nontransaction t(mc);
  const std::string q = t.quote(sh.collection);
  const int64_t lo = closed.lo, hi = closed.hi;
  const CollectionEpochs ce = collection_epochs(t, q);
  int64_t table_rows = t.exec1("SELECT count(*) FROM " + t.quote_name(sh.table))[0].as<int64_t>();
  int64_t ledger_rows = 0;
  for (const auto& [e, c] : led.collection) ledger_rows += c.rows;

  const Mismatches range = range_mismatches(t, q, ce, led, lo, hi);
  const Mismatches once = once_mismatches(sh, ce);
  LateFigures late;
  Mismatches early, summary, present, counted_le, lower, upper;
  CloseBounds bounds = close_bounds(sh, ce, led);
  for (const auto& [e, x] : ce) {
    std::string es = "epoch " + std::to_string(e);
    if (!x.ended_before_close) early.add(es);
    if (x.counted != x.summary_n)
      summary.add(es + ": reports " + std::to_string(x.counted) + ", summary n " + std::to_string(x.summary_n));
    const int64_t want = value_or_zero(led.collection, e).rows;
    if (x.present != want)
      present.add(es + ": present " + std::to_string(x.present) + ", acknowledged " + std::to_string(want));
    if (x.late < 0 || x.counted > x.present || x.late != x.present - x.counted)
      counted_le.add(es + ": counted " + std::to_string(x.counted) + ", present " + std::to_string(x.present) +
                     ", late " + std::to_string(x.late));
    if (x.late > 0) {
      late.reports += x.late;
      ++late.epochs;
    }
    const int64_t before = bounds.acked_before[e], after = bounds.sent_after[e];
    if (x.counted < before)
      lower.add(es + ": counted " + std::to_string(x.counted) + " < " + std::to_string(before) +
                " acknowledged before its close began");
    if (x.counted > want - after)
      upper.add(es + ": counted " + std::to_string(x.counted) + " but " + std::to_string(after) + " of the " +
                std::to_string(want) + " were sent after it was seen closed");
  }
  checks.check("collection: every ended epoch " + std::to_string(lo) + ".." + std::to_string(hi) + " closed, none beyond",
               range.count == 0 && hi >= lo, range.count ? range.why() : "no epoch");
  checks.check("collection: each epoch closed once (closed_at never changed)", once.count == 0, once.why());
  checks.check("collection: no epoch closed before it ended", early.count == 0, early.why());
  checks.check("collection: reports = report_count(summary) per epoch", summary.count == 0, summary.why());
  checks.check("collection: rows present per epoch = acknowledged (nothing lost, nothing extra)",
               present.count == 0 && table_rows == ledger_rows,
               present.why() + "; table " + std::to_string(table_rows) + " rows, acknowledged " +
                   std::to_string(ledger_rows));
  checks.check("collection: late = present - counted >= 0 per epoch", counted_le.count == 0, counted_le.why());
  checks.check("collection: a close counts every report acknowledged before it began", lower.count == 0, lower.why());
  checks.check("collection: reports sent after their epoch was seen closed are late, not counted", upper.count == 0,
               upper.why());
  check_after_refresh(t, q, ce, led, checks);
  return late;
}

}  // namespace ldp_load_test
