// THRESH streams (extension/ldp--*.sql, "THRESH"): the SQL side keeps the state
// machine and the tallies; these functions hand the numbers to the core
// (src/core/thresh/params.hpp and server.hpp), which alone knows the formulas, so the
// server and every device derive the same parameters.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/typcache.h"
}

#include <cstring>
#include <optional>

#include "core/thresh/histogram.hpp"
#include "core/thresh/params.hpp"
#include "core/thresh/server.hpp"

namespace {

std::optional<double> optional_float8(FunctionCallInfo fcinfo, int argno) {
  if (PG_ARGISNULL(argno)) return std::nullopt;
  return PG_GETARG_FLOAT8(argno);
}

[[noreturn]] void null_config(const char* field) {
  ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                  errmsg("THRESH parameter %s must not be NULL", field)));
}

// Fields of a ldp.thresh_streams row.
Datum stream_required(HeapTupleHeader row, const char* field) {
  bool isnull;
  Datum d = GetAttributeByName(row, field, &isnull);
  if (isnull) null_config(field);
  return d;
}
std::optional<double> stream_optional(HeapTupleHeader row, const char* field) {
  bool isnull;
  Datum d = GetAttributeByName(row, field, &isnull);
  if (isnull) return std::nullopt;
  return DatumGetFloat8(d);
}

// Whether a row's type has a (live) column of that name.
bool row_has_field(HeapTupleHeader row, const char* field) {
  TupleDesc desc = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(row), HeapTupleHeaderGetTypMod(row));
  bool found = false;
  for (int i = 0; i < desc->natts && !found; ++i) {
    Form_pg_attribute att = TupleDescAttr(desc, i);
    found = !att->attisdropped && std::strcmp(NameStr(att->attname), field) == 0;
  }
  ReleaseTupleDesc(desc);
  return found;
}

// The rule a stored stream's devices run (ldp.thresh_catalog.cap_rule). A row without
// the column is 0.9.0's SQL calling this library before ALTER EXTENSION ldp UPDATE:
// every stream it has was made under 0.9.0's rule.
ldp::thresh::CapRule stream_cap_rule(HeapTupleHeader row) {
  if (!row_has_field(row, "cap_rule")) return ldp::thresh::CapRule::SpentBelowCap;
  char* name = TextDatumGetCString(stream_required(row, "cap_rule"));
  ldp::thresh::CapRule rule = ldp::thresh::CapRule::NextWithinCap;
  if (!ldp::thresh::parse_cap_rule(name, &rule))
    ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("THRESH stream has an unknown cap_rule \"%s\"", name),
                    errhint("ldp.thresh_catalog.cap_rule is spent_below_cap or next_within_cap.")));
  pfree(name);
  return rule;
}

// The configuration of a stored stream, with its stored a and b (so nothing is
// re-derived differently), its threshold override, if any, and its cap rule. Config is
// trivially destructible: it may live across an ereport.
ldp::thresh::Config stream_config(HeapTupleHeader row) {
  ldp::thresh::Config c;
  c.users = DatumGetInt64(stream_required(row, "users"));
  c.epochs = DatumGetInt32(stream_required(row, "epochs"));
  c.epoch_rounds = DatumGetInt64(stream_required(row, "epoch_rounds"));
  c.min_group_size = DatumGetInt64(stream_required(row, "min_group_size"));
  c.groups = DatumGetInt32(stream_required(row, "groups"));
  c.epsilon = DatumGetFloat8(stream_required(row, "epsilon"));
  c.delta = DatumGetFloat8(stream_required(row, "delta"));
  c.vote_noise = DatumGetFloat8(stream_required(row, "vote_noise"));
  c.estimate_noise = DatumGetFloat8(stream_required(row, "estimate_noise"));
  c.threshold_unit = stream_optional(row, "threshold_unit");
  c.cap_rule = stream_cap_rule(row);
  return c;
}

}  // namespace

namespace {

// The configuration of ldp.thresh_derive and ldp.heavythresh_derive: arguments 0..6,
// and the noises and threshold unit at `noises`, `noises` + 1, `noises` + 2 (7 for
// thresh_derive and 0.9.0's heavythresh_derive, 9 from 0.10.0, after hashes and width).
ldp::thresh::Config derive_config(FunctionCallInfo fcinfo, ldp::thresh::CapRule rule, int noises) {
  static const char* const names[] = {"users", "epochs", "epoch_rounds", "min_group_size",
                                      "groups", "epsilon", "delta"};
  for (int i = 0; i < 7; ++i)
    if (PG_ARGISNULL(i)) null_config(names[i]);
  ldp::thresh::Config c;
  c.users = PG_GETARG_INT64(0);
  c.epochs = PG_GETARG_INT32(1);
  c.epoch_rounds = PG_GETARG_INT64(2);
  c.min_group_size = PG_GETARG_INT64(3);
  c.groups = PG_GETARG_INT32(4);
  c.epsilon = PG_GETARG_FLOAT8(5);
  c.delta = PG_GETARG_FLOAT8(6);
  c.vote_noise = optional_float8(fcinfo, noises);
  c.estimate_noise = optional_float8(fcinfo, noises + 1);
  c.threshold_unit = optional_float8(fcinfo, noises + 2);
  c.cap_rule = rule;
  return c;
}

// The numbers both derive functions return, copied out of the core's Params (which
// has a vector: it must not live across an ereport).
struct Derived {
  double a = 0, b = 0, vote_threshold = 0, error = 0, loss = 0, bound = 0;
  int64 votes = 0, estimates = 0;
  double tau[64];  // τ_{-1..⌈log T⌉}: at most 33 for an int32 T
  int ntaus = 0;
};
void copy_params(const ldp::thresh::Params& p, double error, Derived* d) {
  d->a = p.vote_noise;
  d->b = p.estimate_noise;
  d->vote_threshold = p.vote_threshold;
  d->error = error;
  d->votes = p.max_truthful_votes();
  d->estimates = p.max_truthful_estimates();
  d->loss = p.worst_case_loss();
  d->bound = p.accuracy_bound();
  if (p.thresholds.size() > 64) throw ldp::Error(ldp::ErrorKind::Internal, "too many thresholds");
  d->ntaus = static_cast<int>(p.thresholds.size());
  for (int i = 0; i < d->ntaus; ++i) d->tau[i] = p.thresholds[i];
}
// (a, b, vote_threshold, error, thresholds, max_truthful_votes, max_truthful_estimates,
// worst_case_loss[, accuracy_bound]): the first `count` of them.
Datum derived_result(FunctionCallInfo fcinfo, const Derived& d, int count) {
  Datum taus[64];
  for (int i = 0; i < d.ntaus; ++i) taus[i] = Float8GetDatum(d.tau[i]);
  ArrayType* arr = construct_array(taus, d.ntaus, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
  Datum values[9] = {Float8GetDatum(d.a), Float8GetDatum(d.b), Float8GetDatum(d.vote_threshold),
                     Float8GetDatum(d.error), PointerGetDatum(arr), Int64GetDatum(d.votes),
                     Int64GetDatum(d.estimates), Float8GetDatum(d.loss), Float8GetDatum(d.bound)};
  bool nulls[9] = {};
  return ldp_pg::composite_result(fcinfo, values, nulls, count);
}

// ldp.thresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
// vote_noise, estimate_noise, threshold_unit) → (a, b, vote_threshold, sampling_error,
// thresholds, max_truthful_votes, max_truthful_estimates, worst_case_loss, accuracy_bound)
// under a cap rule.
Datum thresh_derive(FunctionCallInfo fcinfo, ldp::thresh::CapRule rule) {
  ldp::thresh::Config c = derive_config(fcinfo, rule, 7);
  Derived d;
  LDP_CORE({
    ldp::thresh::Params p = ldp::thresh::derive_params(c);
    copy_params(p, p.sampling_error, &d);
  });
  return derived_result(fcinfo, d, 9);
}

// ldp.heavythresh_derive(the same, hashes and width at `shape`, `shape` + 1) →
// (a, b, vote_threshold, projection_error, thresholds, max_truthful_votes,
// max_truthful_estimates, worst_case_loss): src/core/thresh/histogram.hpp.
Datum heavythresh_derive(FunctionCallInfo fcinfo, ldp::thresh::CapRule rule, int shape, int noises) {
  ldp::thresh::HistogramConfig c;
  c.stream = derive_config(fcinfo, rule, noises);
  if (PG_ARGISNULL(shape)) null_config("hashes");
  if (PG_ARGISNULL(shape + 1)) null_config("width");
  c.hashes = PG_GETARG_INT32(shape);
  c.width = PG_GETARG_INT32(shape + 1);
  Derived d;
  LDP_CORE({
    ldp::thresh::HistogramParams p = ldp::thresh::derive_histogram_params(c);
    copy_params(p.stream, p.projection_error, &d);
  });
  return derived_result(fcinfo, d, 8);
}

}  // namespace

// From 0.10.0: the rule new streams run (ldp.thresh_derive; ldp.heavythresh_derive with
// hashes and width after delta, as ldp.heavythresh_create takes them).
LDP_FUNCTION(ldp_thresh_derive_within_cap) {
  return thresh_derive(fcinfo, ldp::thresh::CapRule::NextWithinCap);
}
LDP_FUNCTION(ldp_heavythresh_derive_within_cap) {
  return heavythresh_derive(fcinfo, ldp::thresh::CapRule::NextWithinCap, 7, 9);
}
// 0.9.0's SQL binds these two: with this library installed before ALTER EXTENSION ldp
// UPDATE, its thresh_create keeps creating what 0.9.0 did (streams that run 0.9.0's
// rule), and its heavythresh_derive keeps its argument order (hashes, width last).
LDP_FUNCTION(ldp_thresh_derive) { return thresh_derive(fcinfo, ldp::thresh::CapRule::SpentBelowCap); }
LDP_FUNCTION(ldp_heavythresh_derive) {
  return heavythresh_derive(fcinfo, ldp::thresh::CapRule::SpentBelowCap, 10, 7);
}

// ldp.thresh_budget(epsilon, vote_noise, estimate_noise, cap_rule) →
// (max_truthful_votes, max_truthful_estimates, worst_case_loss): what a device can send
// and lose under a rule (thresh_params' worst_case_loss, the update's notice).
LDP_FUNCTION(ldp_thresh_budget) {
  double epsilon = PG_GETARG_FLOAT8(0), a = PG_GETARG_FLOAT8(1), b = PG_GETARG_FLOAT8(2);
  char* name = text_to_cstring(PG_GETARG_TEXT_PP(3));
  ldp::thresh::CapRule rule = ldp::thresh::CapRule::NextWithinCap;
  if (!ldp::thresh::parse_cap_rule(name, &rule))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("cap_rule must be next_within_cap or spent_below_cap, got \"%s\"", name)));
  ldp::thresh::Budget budget;
  LDP_CORE(budget = ldp::thresh::device_budget(epsilon, a, b, rule));
  Datum values[3] = {Int64GetDatum(budget.truthful_votes), Int64GetDatum(budget.truthful_estimates),
                     Float8GetDatum(budget.worst_case_loss)};
  bool nulls[3] = {false, false, false};
  return ldp_pg::composite_result(fcinfo, values, nulls, 3);
}

// ldp.thresh_decide(stream, votes, yes_votes) → (vote_threshold, global_update)
LDP_FUNCTION(ldp_thresh_decide) {
  ldp::thresh::Config c = stream_config(PG_GETARG_HEAPTUPLEHEADER(0));
  int64 votes = PG_GETARG_INT64(1), yes = PG_GETARG_INT64(2);
  Datum values[2];
  bool nulls[2] = {false, false};
  if (votes == 0) {  // nothing to decide on: no update, no threshold
    values[0] = 0;
    nulls[0] = true;
    values[1] = BoolGetDatum(false);
  } else {
    double threshold = 0;
    bool update = false;
    LDP_CORE({
      ldp::thresh::Params p = ldp::thresh::derive_params(c);
      threshold = ldp::thresh::vote_threshold(p, votes);
      update = ldp::thresh::global_update(p, votes, yes);
    });
    values[0] = Float8GetDatum(threshold);
    values[1] = BoolGetDatum(update);
  }
  return ldp_pg::composite_result(fcinfo, values, nulls, 2);
}

// ldp.thresh_decode(stream, reports, ones) → (estimate, std_error)
LDP_FUNCTION(ldp_thresh_decode) {
  ldp::thresh::Config c = stream_config(PG_GETARG_HEAPTUPLEHEADER(0));
  int64 reports = PG_GETARG_INT64(1), ones = PG_GETARG_INT64(2);
  ldp::Estimate e;
  LDP_CORE(e = ldp::thresh::decode_estimates(ldp::thresh::derive_params(c), reports, ones));
  Datum values[2] = {Float8GetDatum(ldp_pg::finite_result(e.value, "the THRESH estimate")),
                     Float8GetDatum(ldp_pg::finite_result(e.std_error, "its standard error"))};
  bool nulls[2] = {false, !e.has_std_error};
  return ldp_pg::composite_result(fcinfo, values, nulls, 2);
}
