// The ldp extension as the THRESH server of a simulation (thresh_sim.hpp), over
// libpqxx 6: header-only, like pg_load.hpp, so ldp_tools_common needs no libpqxx.
#pragma once

#include <pqxx/pqxx>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/thresh/thresh_sim.hpp"

namespace ldp::tools {

class PgThreshServer final : public ThreshServer {
 public:
  // replace: drop a stream of that name first (its reports and history too).
  PgThreshServer(pqxx::connection& conn, std::string stream, bool replace)
      : conn_(conn), stream_(std::move(stream)), replace_(replace) {}

  ldp::thresh::Params create(const ldp::thresh::Config& c) override {
    pqxx::work w(conn_);
    w.exec0("SET LOCAL client_min_messages = warning");
    w.exec0("CREATE EXTENSION IF NOT EXISTS ldp");
    w.exec0("ALTER EXTENSION ldp UPDATE");  // a server that still has 0.1.0
    if (replace_)
      w.exec("SELECT ldp.thresh_drop(name) FROM ldp.thresh_streams WHERE name = " + w.quote(stream_));
    auto opt = [&](const std::optional<double>& v) { return v ? w.quote(*v) : std::string("NULL"); };
    w.exec("SELECT ldp.thresh_create(" + w.quote(stream_) + ", " + w.quote(c.users) + ", " +
           w.quote(c.epochs) + ", " + w.quote(c.epoch_rounds) + ", " + w.quote(c.min_group_size) +
           ", " + w.quote(c.groups) + ", " + w.quote(c.epsilon) + ", " + w.quote(c.delta) + ", " +
           opt(c.vote_noise) + ", " + opt(c.estimate_noise) + ", " + opt(c.threshold_unit) + ")");
    pqxx::row p = w.exec1("SELECT vote_noise, estimate_noise, vote_threshold, thresholds::text, cap_rule, "
                          "worst_case_loss FROM ldp.thresh_params(" + w.quote(stream_) + ")");
    w.commit();
    // The devices derive the same parameters from the published a and b, and run the
    // cap rule the stream records.
    ldp::thresh::Config published = c;
    published.vote_noise = p[0].as<double>();
    published.estimate_noise = p[1].as<double>();
    if (!ldp::thresh::parse_cap_rule(p[4].as<std::string>(), &published.cap_rule))
      throw std::runtime_error("the server published an unknown cap rule: " + p[4].as<std::string>());
    ldp::thresh::Params params = ldp::thresh::derive_params(published);
    if (p[5].as<double>() != params.worst_case_loss())
      throw std::runtime_error("the server published a worst-case loss the device does not derive: " +
                               p[5].as<std::string>());
    // float8 text output is the shortest exact form: strtod gives the server's doubles
    std::string text = p[3].as<std::string>();
    std::vector<double> taus;
    for (const char* q = text.c_str() + 1; *q && *q != '}'; ++q) {
      char* end = nullptr;
      taus.push_back(std::strtod(q, &end));
      q = end;
      if (*q == '}') break;
    }
    if (p[2].as<double>() != params.vote_threshold || taus != params.thresholds)
      throw std::runtime_error("the server published parameters the device does not derive: " + text);
    conn_.prepare("ldp_sim_votes", "SELECT ldp.thresh_submit_votes($1, $2, $3::bigint[], $4::boolean[])");
    conn_.prepare("ldp_sim_estimates",
                  "SELECT ldp.thresh_submit_estimates($1, $2, $3::bigint[], $4::boolean[])");
    conn_.prepare("ldp_sim_close_votes", "CALL ldp.thresh_close_votes($1, $2)");
    conn_.prepare("ldp_sim_close_epoch", "CALL ldp.thresh_close_epoch($1, $2)");
    conn_.prepare("ldp_sim_status", "SELECT phase, estimate FROM ldp.thresh_status($1)");
    return params;
  }
  void submit_votes(int32_t epoch, const std::vector<int64_t>& users,
                    const std::vector<uint8_t>& votes) override {
    submit("ldp_sim_votes", epoch, users, votes);
  }
  bool close_votes(int32_t epoch) override {
    pqxx::nontransaction t(conn_);
    t.exec_prepared("ldp_sim_close_votes", stream_, epoch);
    return t.exec_prepared1("ldp_sim_status", stream_)[0].as<std::string>() == "estimating";
  }
  void submit_estimates(int32_t epoch, const std::vector<int64_t>& users,
                        const std::vector<uint8_t>& reports) override {
    submit("ldp_sim_estimates", epoch, users, reports);
  }
  double close_epoch(int32_t epoch) override {
    pqxx::nontransaction t(conn_);
    t.exec_prepared("ldp_sim_close_epoch", stream_, epoch);
    pqxx::row r = t.exec_prepared1("ldp_sim_status", stream_);
    return r[1].is_null() ? -1 : r[1].as<double>();
  }

 private:
  void submit(const char* statement, int32_t epoch, const std::vector<int64_t>& users,
              const std::vector<uint8_t>& bits) {
    std::string ids = "{", vals = "{";
    ids.reserve(users.size() * 8);
    vals.reserve(bits.size() * 2);
    for (size_t i = 0; i < users.size(); ++i) {
      if (i) {
        ids += ',';
        vals += ',';
      }
      ids += std::to_string(users[i]);
      vals += bits[i] ? 't' : 'f';
    }
    ids += '}';
    vals += '}';
    pqxx::nontransaction t(conn_);  // one statement: its own transaction
    t.exec_prepared(statement, stream_, epoch, ids, vals);
  }

  pqxx::connection& conn_;
  std::string stream_;
  bool replace_;
};

}  // namespace ldp::tools
