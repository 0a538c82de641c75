// THRESH streams (extension/ldp--*.sql, "THRESH"): the SQL side keeps the state
// machine and the tallies; these functions hand the numbers to the core
// (src/core/thresh/params.hpp and server.hpp), which alone knows the formulas, so the
// server and every device derive the same parameters.
#include "common/glue.hpp"  // postgres.h first

extern "C" {
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "utils/array.h"
}

#include <optional>

#include "thresh/histogram.hpp"
#include "thresh/params.hpp"
#include "thresh/server.hpp"

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

// The configuration of a stored stream, with its stored a and b (so nothing is
// re-derived differently) and its threshold override, if any. Config is trivially
// destructible: it may live across an ereport.
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
  return c;
}

}  // namespace

namespace {

// The configuration of ldp.thresh_derive and ldp.heavythresh_derive: arguments 0..9.
ldp::thresh::Config derive_config(FunctionCallInfo fcinfo) {
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
  c.vote_noise = optional_float8(fcinfo, 7);
  c.estimate_noise = optional_float8(fcinfo, 8);
  c.threshold_unit = optional_float8(fcinfo, 9);
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

}  // namespace

// ldp.thresh_derive(users, epochs, epoch_rounds, min_group_size, groups, epsilon, delta,
// vote_noise, estimate_noise, threshold_unit) → (a, b, vote_threshold, sampling_error,
// thresholds, max_truthful_votes, max_truthful_estimates, worst_case_loss, accuracy_bound)
LDP_FUNCTION(ldp_thresh_derive) {
  ldp::thresh::Config c = derive_config(fcinfo);
  Derived d;
  LDP_CORE({
    ldp::thresh::Params p = ldp::thresh::derive_params(c);
    copy_params(p, p.sampling_error, &d);
  });
  return derived_result(fcinfo, d, 9);
}

// ldp.heavythresh_derive(the same, hashes, width) → (a, b, vote_threshold,
// projection_error, thresholds, max_truthful_votes, max_truthful_estimates,
// worst_case_loss): src/core/thresh/histogram.hpp.
LDP_FUNCTION(ldp_heavythresh_derive) {
  ldp::thresh::HistogramConfig c;
  c.stream = derive_config(fcinfo);
  if (PG_ARGISNULL(10)) null_config("hashes");
  if (PG_ARGISNULL(11)) null_config("width");
  c.hashes = PG_GETARG_INT32(10);
  c.width = PG_GETARG_INT32(11);
  Derived d;
  LDP_CORE({
    ldp::thresh::HistogramParams p = ldp::thresh::derive_histogram_params(c);
    copy_params(p.stream, p.projection_error, &d);
  });
  return derived_result(fcinfo, d, 8);
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
