// Transition and combine functions of the frequency-oracle aggregates. The state
// is a live ldp.freq_summary (common/summary_datum.hpp), updated in place.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/varbit.h"
}

#include <cstddef>
#include <cstring>

#include "pg/common/varbit_report.hpp"
#include "pg/freq/freq_glue.hpp"

using ldp::FreqMechanism;

namespace {

// A mechanism's aggregate, one row each: <m>_trans(state, the report's columns,
// epsilon [, k]), its argument layout, which the transition functions read.
struct FreqAggregate {
  FreqMechanism id;
  ldp_pg::TransLayout trans;
  bool k_param;  // k follows epsilon; else k is the report's bit length (SUE, OUE)
};
constexpr FreqAggregate kGrrAgg{FreqMechanism::GRR, {"grr_trans", 1}, true};              // (report int, ...)
constexpr FreqAggregate kSueAgg{FreqMechanism::SUE, {"sue_trans", 1}, false};             // (report varbit, ...)
constexpr FreqAggregate kOueAgg{FreqMechanism::OUE, {"oue_trans", 1}, false};             // (report varbit, ...)
constexpr FreqAggregate kDBitFlipAgg{FreqMechanism::DBitFlip, {"dbitflip_trans", 2}, true};  // (buckets, bits, ...)
constexpr FreqAggregate kOlhAgg{FreqMechanism::OLH, {"olh_trans", 2}, true};              // (seed, report, ...)
constexpr FreqAggregate kHadamardAgg{FreqMechanism::Hadamard, {"hadamard_trans", 2}, true};  // (row, report, ...)

// A new live state of this aggregate: empty, or holding a state it was handed that
// is not its own live summary (FreqGlue::adopt: merged, which refuses another
// mechanism or other parameters, 22023). *state: the datum to return.
__attribute__((noinline, cold)) ldp::FreqSummary* freq_state_new(FunctionCallInfo fcinfo, const FreqAggregate& a,
                                                                 int64 row_k, int64 row_d, Datum* state) {
  ldp::FreqParams p;
  p.epsilon = ldp_param_float8(fcinfo, a.trans.param(), "epsilon");
  p.k = a.k_param ? ldp_param_int4(fcinfo, a.trans.param() + 1, "k") : row_k;
  p.d = row_d;
  return FreqGlue::adopt(fcinfo, freq_live_new(fcinfo, a.id, p), ldp::freq_summary_merge, state);
}

// The state for this row: a new summary on the first report, else the
// aggregate's own (updated in place). Without a k parameter k comes from the report
// (bit length), passed as row_k; d likewise comes from the report (dBitFlip).
__attribute__((always_inline)) inline ldp::FreqSummary* freq_state(FunctionCallInfo fcinfo, const FreqAggregate& a,
                                                                  int64 row_k, int64 row_d, Datum* state) {
  ldp_pg::TransSite* site = ldp_pg::trans_site(fcinfo, a.trans);
  if (unlikely(PG_ARGISNULL(0))) return freq_state_new(fcinfo, a, row_k, row_d, state);
  ldp_pg::LiveSummary* live = FreqGlue::own_state(fcinfo);
  if (unlikely(live == nullptr || FreqGlue::core(live)->mechanism != static_cast<uint8_t>(a.id)))
    return freq_state_new(fcinfo, a, row_k, row_d, state);
  *state = PG_GETARG_DATUM(0);
  ldp::FreqSummary* st = FreqGlue::core(live);
  if (site->params_stable) return st;
  double eps = ldp_param_float8(fcinfo, a.trans.param(), "epsilon");
  int64 k = a.k_param ? ldp_param_int4(fcinfo, a.trans.param() + 1, "k") : st->k;
  if (unlikely(!ldp::same_freq_params(*st, eps, k, st->d)))
    ldp_pg::core_raise([&] { ldp::throw_freq_params_changed(*st, eps, k, st->d); });
  return st;
}

#define FREQ_SKIP_NULL_REPORT(a)                   \
  do {                                             \
    if (ldp_report_is_null(fcinfo, (a).trans)) {   \
      if (PG_ARGISNULL(0)) PG_RETURN_NULL();       \
      PG_RETURN_DATUM(PG_GETARG_DATUM(0));         \
    }                                              \
  } while (0)

}  // namespace

// grr_agg(report int, epsilon, k)
LDP_FUNCTION(ldp_grr_trans) {
  FREQ_SKIP_NULL_REPORT(kGrrAgg);
  Datum state;
  ldp::FreqSummary* st = freq_state(fcinfo, kGrrAgg, 0, 0, &state);
  LDP_CORE(ldp::freq_add_item(st, PG_GETARG_INT32(1)));
  PG_RETURN_DATUM(state);
}

// sue_agg / oue_agg(report varbit, epsilon): k is the bit length. The general path
// (the first row, parameters given per row, a toasted report, every error).
__attribute__((noinline)) static Datum unary_trans_general(FunctionCallInfo fcinfo, const FreqAggregate& a) {
  FREQ_SKIP_NULL_REPORT(a);
  VarBit* bits = PG_GETARG_VARBIT_P(1);
  Datum state;
  ldp::FreqSummary* st = freq_state(fcinfo, a, VARBITLEN(bits), 0, &state);
  LDP_CORE(ldp::freq_add_bits(st, VARBITS(bits), VARBITLEN(bits)));
  PG_RETURN_DATUM(state);
}

// The fast path: the aggregate's own state and a report of k bits where it lies in the
// row (common/varbit_report.hpp: read in place, the next rows' bits prefetched).
__attribute__((always_inline)) static inline Datum unary_trans(FunctionCallInfo fcinfo, const FreqAggregate& a) {
  if (likely(!PG_ARGISNULL(1))) {
    ldp_pg::LiveSummary* live = FreqGlue::fast_state(fcinfo);
    ldp_pg::VarbitView r;
    if (live != nullptr && ldp_pg::varbit_in_place(PG_GETARG_DATUM(1), &r)) {
      ldp::FreqSummary* st = FreqGlue::core(live);
      if (likely(st->mechanism == static_cast<uint8_t>(a.id) && st->pending_bytes != 0 && r.nbits == st->k &&
                 r.nbytes == (r.nbits + 7) / 8)) {
        ldp_pg::prefetch_next_rows(r);
        ldp::freq_add_bits_pending(st, r.bits);
        PG_RETURN_DATUM(PG_GETARG_DATUM(0));
      }
    }
  }
  return unary_trans_general(fcinfo, a);
}
LDP_FUNCTION(ldp_sue_trans) { return unary_trans(fcinfo, kSueAgg); }
LDP_FUNCTION(ldp_oue_trans) { return unary_trans(fcinfo, kOueAgg); }

namespace {

// A one-dimensional array argument read where it lies: a short-header (packed)
// or plain varlena is not copied; only a compressed or external one is detoasted.
// The fields of ArrayType follow the length word at the same offsets whatever the
// header's size, so they and the elements are read with memcpy (a packed array is
// not aligned).
struct ArrayView {
  int32 ndim;
  int32 n;
  bool hasnull;
  const char* data;
};

__attribute__((always_inline)) inline ArrayView array_view(FunctionCallInfo fcinfo, int argno) {
  auto* p = reinterpret_cast<struct varlena*>(DatumGetPointer(PG_GETARG_DATUM(argno)));
  if (VARATT_IS_EXTERNAL(p) || VARATT_IS_COMPRESSED(p)) p = PG_DETOAST_DATUM(PG_GETARG_DATUM(argno));
  const char* body = VARDATA_ANY(p);  // = (char*) ArrayType + VARHDRSZ, unaligned if packed
  auto field = [body](size_t offset) {
    int32 v;
    std::memcpy(&v, body + offset - VARHDRSZ, sizeof v);
    return v;
  };
  ArrayView a;
  a.ndim = field(offsetof(ArrayType, ndim));
  int32 dataoffset = field(offsetof(ArrayType, dataoffset));
  a.hasnull = dataoffset != 0;
  a.n = a.ndim == 0 ? 0 : field(sizeof(ArrayType));  // dims[0]
  a.data = body + (a.hasnull ? dataoffset : ARR_OVERHEAD_NONULLS(a.ndim)) - VARHDRSZ;
  return a;
}

}  // namespace

// dbitflip_agg(buckets int[], bits boolean[], epsilon, k): d is the array length
LDP_FUNCTION(ldp_dbitflip_trans) {
  FREQ_SKIP_NULL_REPORT(kDBitFlipAgg);
  ArrayView buckets = array_view(fcinfo, 1), bits = array_view(fcinfo, 2);
  if (buckets.ndim > 1 || bits.ndim > 1 || buckets.hasnull || bits.hasnull) {
    if (buckets.hasnull || bits.hasnull) ldp_partial_null_report("buckets and bits must not contain NULL");
    ereport(ERROR, (errcode(ERRCODE_DATA_EXCEPTION),
                    errmsg("buckets and bits must be one-dimensional arrays")));
  }
  int nb = buckets.n, nv = bits.n;
  if (nb != nv)
    ereport(ERROR, (errcode(ERRCODE_DATA_EXCEPTION),
                    errmsg("buckets and bits must have the same length, got %d and %d", nb, nv)));
  Datum state;
  ldp::FreqSummary* st = freq_state(fcinfo, kDBitFlipAgg, 0, nb, &state);
  int32_t local[64];
  const int32_t* b = reinterpret_cast<const int32_t*>(buckets.data);
  if (reinterpret_cast<uintptr_t>(b) % alignof(int32_t) != 0) {  // a packed array
    auto* copy = nb <= 64 ? local : static_cast<int32_t*>(palloc(sizeof(int32_t) * nb));
    std::memcpy(copy, buckets.data, sizeof(int32_t) * nb);
    b = copy;
  }
  static_assert(sizeof(bool) == 1, "boolean[] elements are one byte");
  const auto* v = reinterpret_cast<const bool*>(bits.data);
  LDP_CORE(ldp::freq_add_dbitflip(st, b, v, nb));
  PG_RETURN_DATUM(state);
}

// olh_agg(seed bigint, report int, epsilon, k)
LDP_FUNCTION(ldp_olh_trans) {
  FREQ_SKIP_NULL_REPORT(kOlhAgg);
  Datum state;
  ldp::FreqSummary* st = freq_state(fcinfo, kOlhAgg, 0, 0, &state);
  uint64_t seed = static_cast<uint64_t>(PG_GETARG_INT64(1));
  int64 y = PG_GETARG_INT32(2);
  LDP_CORE(ldp::freq_add_olh(st, seed, y));
  PG_RETURN_DATUM(state);
}

// hadamard_agg(row int, report boolean, epsilon, k)
LDP_FUNCTION(ldp_hadamard_trans) {
  FREQ_SKIP_NULL_REPORT(kHadamardAgg);
  Datum state;
  ldp::FreqSummary* st = freq_state(fcinfo, kHadamardAgg, 0, 0, &state);
  LDP_CORE(ldp::freq_add_hadamard(st, PG_GETARG_INT32(1), PG_GETARG_BOOL(2)));
  PG_RETURN_DATUM(state);
}

// Strict combine function (also rollup's transition); see ldp_mean_combine.
LDP_FUNCTION(ldp_freq_combine) { return FreqGlue::combine(fcinfo, freq_live_copy, ldp::freq_summary_merge); }
