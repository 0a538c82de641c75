// ldp_summary_fuzz: feeds mutated text and binary forms of every summary type
// (ldp.mean_summary, ldp.freq_summary, ldp.sketch_summary, ldp.heavy_summary,
// ldp.rappor_summary, ldp.range_summary) and of ldp.heavy_protocol and ldp.range_protocol
// (types of their own: read back, then used) to a server through SQL
// (test/fuzz.sh runs it against a server whose ldp.so is built with ASan + UBSan). The
// unit test summary_mutation_test.cpp does the same to the core's parsers; this goes
// through the type input functions ('...'::type), the binary receive functions (binary
// parameters of the extended protocol), the casts to and from ldp.summary and the
// accessors, with everything PostgreSQL puts between them.
//
// One row of kFamilies per summary family: its type, send function, seed queries,
// accessor queries (rollup included) and transition functions (the state tests below);
// fuzz_family.hpp says what a row holds, heavy_family.cpp has the heavy-hitters rows,
// rappor_family.cpp the RAPPOR rows, range_family.cpp the range rows.
// Each form picks a family (uniformly, whatever its number of seeds), then a seed.
//
// Valid forms come from the aggregates (seeded encoders). Every mutated form must be
//   - refused with a data exception (SQLSTATE class 22: 22P02 / 22P03 / 22023 expected;
//     the codes seen are counted and printed), or
//   - accepted, and then: its text and binary outputs read back as the same summary,
//     also through ldp.summary (text, binary, cast there and back), and every accessor
//     (estimate, std_error, ci_lower/ci_upper, report_count, epsilon, error_bound,
//     frequencies, frequency, domain_size, hash_count, width, mechanism, rollup with
//     itself and with its seed, ldp.summary's accessors) returns NULL, a finite
//     number, or a class-22 error (or a decode's refusal past its limits, 54000, or a
//     statement timeout, 57014), and the few answers that must agree do (a column that
//     counts disagreements is 0).
// Anything else is a failure: another SQLSTATE (XX000 ...), a lost connection (a crash),
// a non-finite number, an output that does not read back. Failing forms are written to
// --save-dir (one file each: the SQL that shows it, binary forms as hex).
//
//   ldp_summary_fuzz [--forms N] [--seed S] [--save-dir DIR] [--verbose]
//
// Connects with the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE). Prints
// "summary-fuzz: ..." lines and exits 1 if anything failed.
#include <pqxx/pqxx>

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fuzz_common.hpp"
#include "fuzz_family.hpp"

namespace {

using ldp_fuzz::Bytes;
using ldp_fuzz::Seed;
using ldp_fuzz::hex;
using ldp_fuzz::mutate_binary;
using ldp_fuzz::mutate_text;
using ldp_fuzz::pick;
using ldp_fuzz::Family;
using ldp_fuzz::kAccessorError;
using ldp_fuzz::kNonFinite;
using ldp_fuzz::nonfinite;
using ldp_fuzz::num;
using ldp_fuzz::Query;
using ldp_fuzz::Reports;
using ldp_fuzz::StateParams;
using ldp_fuzz::TransFn;

// ---- seeds: summaries built by the aggregates from seeded encoders ----
// (label, query); a query's one row and column is the summary

const char* const kMeanSeeds[][2] = {
    {"rr n=50", "SELECT ldp.rr_agg(ldp.rr_encode(i % 3 = 0, 1.0, i), 1.0) FROM generate_series(1, 50) i"},
    {"rr n=1", "SELECT ldp.rr_agg(true, 0.25)"},
    {"onebit", "SELECT ldp.onebit_mean_agg(ldp.onebit_mean_encode((i % 10)::float8, 0.5, 10, i), 0.5, 10) "
               "FROM generate_series(1, 40) i"},
    {"onebit gamma", "SELECT ldp.onebit_mean_agg(ldp.onebit_mean_encode((i % 7)::float8, 1.0, 86400, 0.2, i), "
                     "1.0, 86400, 0.2) FROM generate_series(1, 30) i"},
    {"laplace", "SELECT ldp.laplace_mean_agg(ldp.laplace_mean_encode((i % 10)::float8, 1.0, 10, i), 1.0, 10) "
                "FROM generate_series(1, 20) i"},
    {"laplace n=1", "SELECT ldp.laplace_mean_agg(3.25, 2.0, 100)"},
    {"laplace text", "SELECT 'v1:laplace{epsilon=1,max_value=10,n=2,sum=0x3p0,sumsq_unit=0x5p-6}'::ldp.mean_summary"},
    {"piecewise", "SELECT ldp.piecewise_mean_agg(ldp.piecewise_mean_encode((i % 10)::float8, 2.0, 10, i), 2.0, 10) "
                  "FROM generate_series(1, 20) i"},
    {"piecewise n=2", "SELECT ldp.piecewise_mean_agg(y, 0.5, 1) FROM (VALUES (-1.5::float8), (2.5)) v(y)"},
};

const char* const kFreqSeeds[][2] = {
    {"grr k=4", "SELECT ldp.grr_agg(ldp.grr_encode(i % 4, 1.0, 4, i), 1.0, 4) FROM generate_series(1, 30) i"},
    {"grr k=2", "SELECT ldp.grr_agg(i % 2, 3.0, 2) FROM generate_series(1, 5) i"},
    {"sue k=3", "SELECT ldp.sue_agg(ldp.sue_encode(i % 3, 0.5, 3, i), 0.5) FROM generate_series(1, 20) i"},
    {"oue k=5", "SELECT ldp.oue_agg(ldp.oue_encode(i % 5, 2.0, 5, i), 2.0) FROM generate_series(1, 20) i"},
    {"dbitflip k=4 d=2", "SELECT ldp.dbitflip_agg(e.buckets, e.bits, 1.0, 4) FROM generate_series(1, 10) i, "
                         "ldp.dbitflip_encode(i % 4, 1.0, 4, 2, i) e"},
    {"olh k=3", "SELECT ldp.olh_agg(e.seed, e.report, 1.0, 3) FROM generate_series(1, 10) i, "
                "ldp.olh_encode(i % 3, 1.0, 3, i) e"},
    {"hadamard k=3", "SELECT ldp.hadamard_agg(e.\"row\", e.report, 1.0, 3) FROM generate_series(1, 12) i, "
                     "ldp.hadamard_encode(i % 3, 1.0, 3, i) e"},
    {"hadamard k=8", "SELECT ldp.hadamard_agg(e.\"row\", e.report, 2.0, 8) FROM generate_series(1, 40) i, "
                     "ldp.hadamard_encode(i % 8, 2.0, 8, i) e"},
    {"grr k=16", "SELECT ldp.grr_agg(ldp.grr_encode(i % 16, 4.0, 16, i), 4.0, 16) FROM generate_series(1, 64) i"},
};

// hashes x width small, so that a mutated form stays short and most of its counters
// are seen; n = 0 (an empty sketch: frequency NULL, frequencies no rows) and n = 1 too
const char* const kSketchSeeds[][2] = {
    {"cms 2x8", "SELECT ldp.cms_agg(e.hash_index, e.report, 2.0, 2) FROM generate_series(1, 20) i, "
                "ldp.cms_encode('w' || i % 3, 2.0, 2, 8, i) e"},
    {"cms 3x5 n=1", "SELECT ldp.cms_agg(e.hash_index, e.report, 1.0, 3) FROM ldp.cms_encode('a', 1.0, 3, 5, 7) e"},
    {"hcms 2x8", "SELECT ldp.hcms_agg(e.hash_index, e.coefficient, e.report, 1.0, 2, 8) FROM generate_series(1, 16) i, "
                 "ldp.hcms_encode(CASE WHEN i % 4 = 0 THEN 'b' ELSE 'a' END, 1.0, 2, 8, i) e"},
    {"hcms 4x4 n=0", "SELECT 'v1:hcms{epsilon=0.5,hashes=4,width=4,n=0,sums=[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}'"
                     "::ldp.sketch_summary"},
    {"hashtogram 3x16", "SELECT ldp.hashtogram_agg(e.hash_index, e.coefficient, e.report, 2.0, 3, 16) "
                        "FROM generate_series(1, 24) i, ldp.hashtogram_encode('w' || i % 5, 2.0, 3, 16, i) e"},
    {"hashtogram 2x4 n=1", "SELECT ldp.hashtogram_agg(e.hash_index, e.coefficient, e.report, 4.0, 2, 4) "
                           "FROM ldp.hashtogram_encode('b', 4.0, 2, 4, 3) e"},
    {"cms 4x16", "SELECT ldp.cms_agg(e.hash_index, e.report, 0.5, 4) FROM generate_series(1, 12) i, "
                 "ldp.cms_encode('a', 0.5, 4, 16, i) e"},
};

// ---- evaluation against the server ----

struct Stats {
  long forms = 0, text_forms = 0, binary_forms = 0, accepted = 0, refused = 0;
  long accessor_queries = 0, accessor_errors = 0, timeouts = 0, state_tests = 0;
  std::map<std::string, long> refusal_codes, accessor_codes, state_codes;
  std::map<std::string, long> forms_by_seed, accepted_by_seed;
  std::map<std::string, long> failures;  // forms that failed, by kind
};

// the kinds of failure, each with its check line
const char* const kInput = "input";            // refused with a code outside class 22
const char* const kRoundTrip = "round-trip";   // accepted, but an output does not read back
// (kAccessorError, kNonFinite: fuzz_family.hpp)
const char* const kLost = "connection";        // the server went away (a crash)
const char* const kSeed = "seed";              // a seed query failed
// user-defined aggregates over ldp's transition functions, started from a summary
// (initcond): the result must be the rollup of that summary and the reports
const char* const kStateType = "state-mechanism";  // took a state of another mechanism
const char* const kStateParams = "state-params";   // took a state of other parameters
const char* const kStateResult = "state-result";   // gave something else than the rollup
const char* const kStateError = "state-error";     // failed outside class 22 (XX000 ...)

}  // namespace

namespace ldp_fuzz {
std::string nonfinite(const std::string& c) {
  return "count(*) FILTER (WHERE NOT (" + c + " > '-Infinity'::float8 AND " + c + " < 'Infinity'::float8))";
}
Query rollup_self(const std::string& s, const std::string& type, const std::string& params) {
  return {"SELECT (ldp.report_count(r) IS DISTINCT FROM 2 * ldp.report_count(s))::int::float8, (" + params +
              "(r)::text IS DISTINCT FROM " + params + "(s)::text)::int::float8, ((s::ldp.summary)::" + type +
              "::text IS DISTINCT FROM s::text)::int::float8 FROM (SELECT ldp.rollup(x) r FROM (VALUES (" + s + "), (" +
              s + ")) v(x)) q, (SELECT " + s + " s) p",
          {{kAccessorError, "report_count(rollup(s, s)) is not twice report_count(s)"},
           {kAccessorError, "the parameters of rollup(s, s) are not s's"},
           {kAccessorError, "s::ldp.summary does not read back as s"}}};
}
std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}
}  // namespace ldp_fuzz

namespace {

// The accessor queries of each family: s is the accepted form, seed its seed's form,
// both as SQL expressions of the family's type.
std::vector<Query> mean_queries(const std::string& s, const std::string& seed) {
  return {
      {"SELECT ldp.estimate(s), ldp.std_error(s), ldp.report_count(s)::float8, ldp.epsilon(s) FROM (SELECT " + s + " s) q", {}},
      {"SELECT ldp.ci_lower(s), ldp.ci_upper(s), ldp.ci_lower(s, 0.5), ldp.ci_upper(s, 0.999999) FROM (SELECT " + s + " s) q", {}},
      {"SELECT ldp.error_bound(s, 0.05), ldp.error_bound(s, 1e-300) FROM (SELECT " + s + " s) q", {}},
      {"SELECT length(ldp.mechanism(" + s + "))::float8", {}},
      {"SELECT ldp.estimate(r), ldp.std_error(r), ldp.ci_lower(r), ldp.ci_upper(r), ldp.report_count(r)::float8 "
       "FROM (SELECT ldp.rollup(x) r FROM (VALUES (" + s + "), (" + s + ")) v(x)) q", {}},
      {"SELECT ldp.estimate(ldp.rollup(x)) FROM (VALUES (" + s + "), (" + seed + ")) v(x)", {}},
  };
}

std::vector<Query> freq_queries(const std::string& s, const std::string& seed) {
  std::vector<Query> q;
  for (const char* c : {"none", "clip", "norm-sub"})
    q.push_back({"SELECT count(*)::float8 - CASE WHEN ldp.report_count(" + s + ") = 0 THEN 0 ELSE ldp.domain_size(" + s +
                     ") END, (" + nonfinite("frequency") + " + " + nonfinite("count") + " + " + nonfinite("std_error") +
                     " + " + nonfinite("ci_lower") + " + " + nonfinite("ci_upper") + ")::float8 FROM ldp.frequencies(" +
                     s + ", '" + c + "')",
                 {{kAccessorError, "rows of frequencies() beyond domain_size (none for n = 0)"},
                  {kNonFinite, "non-finite values of frequencies()"}}});
  q.push_back({"SELECT ldp.frequency(s, 0), ldp.frequency(s, ldp.domain_size(s) - 1), "
               "ldp.report_count(s)::float8, ldp.epsilon(s), ldp.domain_size(s)::float8, "
               "length(ldp.mechanism(s))::float8 FROM (SELECT " + s + " s) q", {}});
  q.push_back({"SELECT ldp.frequency(" + s + ", -1)", {}});
  q.push_back({"SELECT ldp.frequency(" + s + ", ldp.domain_size(" + s + "))", {}});
  q.push_back({"WITH r AS (SELECT ldp.rollup(x) r FROM (VALUES (" + s + "), (" + s + ")) v(x)) "
               "SELECT (" + nonfinite("frequency") + " + " + nonfinite("std_error") + ")::float8, "
               "(SELECT ldp.report_count(r)::float8 FROM r) FROM r, ldp.frequencies(r.r) f",
               {{kNonFinite, "non-finite values of frequencies(rollup)"}}});
  q.push_back({"SELECT count(*)::float8 FROM ldp.frequencies((SELECT ldp.rollup(x) FROM (VALUES (" + s + "), (" + seed +
               ")) v(x)))", {}});
  // frequency() answers from a decode cached per query: never for another summary
  q.push_back({"SELECT count(*) FILTER (WHERE ldp.frequency(x, 0) IS DISTINCT FROM "
               "(SELECT f.frequency FROM ldp.frequencies(x) f WHERE f.item = 0))::float8 "
               "FROM (VALUES (" + s + "), (" + seed + "), (" + s + "), (" + seed + ")) v(x)",
               {{kAccessorError, "rows where frequency(x, 0) differs from frequencies(x), the form and its seed alternating"}}});
  return q;
}

std::vector<Query> sketch_queries(const std::string& s, const std::string& seed) {
  const std::string items = "ARRAY['a', 'b', NULL]::text[]";
  auto values = [&](const char* p) {
    return "(" + nonfinite(std::string(p) + "frequency") + " + " + nonfinite(std::string(p) + "count") + " + " +
           nonfinite(std::string(p) + "std_error") + " + " + nonfinite(std::string(p) + "ci_lower") + " + " +
           nonfinite(std::string(p) + "ci_upper") + ")::float8";
  };
  return {
      {"SELECT ldp.frequency(s, 'a'), ldp.frequency(s, ''), ldp.report_count(s)::float8, ldp.epsilon(s), "
       "ldp.hash_count(s)::float8, ldp.width(s)::float8, length(ldp.mechanism(s))::float8 FROM (SELECT " + s + " s) q", {}},
      // one row per element of items, in order, NULL estimates exactly for NULL items
      {"SELECT count(*)::float8 - CASE WHEN ldp.report_count(" + s + ") = 0 THEN 0 ELSE 3 END, "
       "count(*) FILTER (WHERE f.item IS DISTINCT FROM (" + items + ")[f.o] OR (f.item IS NULL) <> (f.frequency IS NULL) "
       "OR (f.item IS NULL) <> (f.count IS NULL) OR (f.item IS NULL) <> (f.std_error IS NULL) "
       "OR (f.item IS NULL) <> (f.ci_lower IS NULL) OR (f.item IS NULL) <> (f.ci_upper IS NULL))::float8, "
       "count(*) FILTER (WHERE NOT (f.std_error >= 0 AND f.ci_lower <= f.frequency AND f.frequency <= f.ci_upper))::float8, " +
       values("f.") + " FROM ldp.frequencies(" + s + ", " + items +
       ") WITH ORDINALITY f(item, frequency, count, std_error, ci_lower, ci_upper, o)",
       {{kAccessorError, "rows of frequencies(s, 3 items) other than 3 (none for n = 0)"},
        {kAccessorError, "rows of frequencies(s, items) out of order, or with NULL estimates for an item or estimates for NULL"},
        {kAccessorError, "rows of frequencies(s, items) with a negative standard error or an interval not around the frequency"},
        {kNonFinite, "non-finite values of frequencies(s, items)"}}},
      // frequency() answers from a table prepared once per query: never for another summary
      {"SELECT count(*) FILTER (WHERE ldp.frequency(x, 'a') IS DISTINCT FROM "
       "(SELECT f.frequency FROM ldp.frequencies(x, ARRAY['a']) f))::float8 "
       "FROM (VALUES (" + s + "), (" + seed + "), (" + s + "), (" + seed + ")) v(x)",
       {{kAccessorError, "rows where frequency(x, 'a') differs from frequencies(x, ARRAY['a']), the form and its seed alternating"}}},
      // rollup with itself: every counter and n doubled, which leaves each estimated
      // frequency exactly as it was (a factor 2 is exact in floating point)
      {"SELECT (ldp.report_count(r) IS DISTINCT FROM 2 * ldp.report_count(s))::int::float8, "
       "(ldp.frequency(r, 'a') IS DISTINCT FROM ldp.frequency(s, 'a') OR ldp.epsilon(r) IS DISTINCT FROM ldp.epsilon(s) "
       "OR ldp.hash_count(r) <> ldp.hash_count(s) OR ldp.width(r) <> ldp.width(s) "
       "OR ldp.mechanism(r) <> ldp.mechanism(s))::int::float8, "
       "(SELECT " + values("") + " FROM ldp.frequencies(r, " + items + ")), ldp.frequency(r, 'b') "
       "FROM (SELECT ldp.rollup(x) r FROM (VALUES (" + s + "), (" + s + ")) v(x)) q, (SELECT " + s + " s) p",
       {{kAccessorError, "report_count(rollup(s, s)) is not twice report_count(s)"},
        {kAccessorError, "rollup(s, s) has other parameters, or another frequency(, 'a'), than s"},
        {kNonFinite, "non-finite values of frequencies(rollup(s, s), items)"}}},
      {"SELECT ldp.report_count(r)::float8, ldp.frequency(r, 'b'), ldp.hash_count(r)::float8 "
       "FROM (SELECT ldp.rollup(x) r FROM (VALUES (" + s + "), (" + seed + ")) v(x)) q", {}},
  };
}

// ---- user-defined aggregates over ldp's transition functions ----

std::string one_hot(long width, long one) {  // B'0010' (bit `one` of `width` set)
  std::string b(static_cast<size_t>(width), '0');
  b[static_cast<size_t>(one % width)] = '1';
  return "B'" + b + "'";
}
bool small_k(const StateParams& p) { return p.k >= 2 && p.k <= 4096; }

Reports rr_reports(const StateParams& p) { return {"(true), (false), (true)", "v(a)", "v.a, " + p.eps}; }
Reports onebit_reports(const StateParams& p) {
  return {"(true), (false), (true)", "v(a)", "v.a, " + p.eps + ", " + num(p.max_value)};
}
Reports onebit_gamma_reports(const StateParams& p) {
  return {"(true), (false), (true)", "v(a)", "v.a, " + p.eps + ", " + num(p.max_value) + ", " + p.gamma};
}
Reports laplace_reports(const StateParams& p) {
  return {"(0::float8), (" + num(p.max_value / 4) + "), (" + num(-p.max_value) + ")", "v(a)",
          "v.a, " + p.eps + ", " + num(p.max_value)};
}
Reports piecewise_reports(const StateParams& p) {
  return {"(" + num(p.max_value / 2) + "::float8), (0), (" + num(p.max_value / 3) + ")", "v(a)",
          "v.a, " + p.eps + ", " + num(p.max_value)};
}
Reports grr_reports(const StateParams& p) {
  if (!small_k(p)) return {};
  return {"(0), (" + std::to_string(p.k - 1) + "), (1)", "v(a)", "v.a, " + p.eps + ", " + std::to_string(p.k)};
}
Reports unary_reports(const StateParams& p) {  // sue, oue
  if (!small_k(p)) return {};
  return {"(" + one_hot(p.k, 0) + "::varbit), (" + one_hot(p.k, p.k - 1) + "), (" + one_hot(p.k, 1) + ")", "v(a)",
          "v.a, " + p.eps};
}
Reports dbitflip_reports(const StateParams& p) {
  if (!small_k(p)) return {};
  long d = p.d >= 1 && p.d <= p.k ? p.d : std::min<long>(2, p.k);
  std::string b = "'{", t = "'{";
  for (long i = 0; i < d; ++i) {
    b += (i ? "," : "") + std::to_string(i);
    t += (i ? ",t" : "f");
  }
  return {"(" + b + "}'::int[], " + t + "}'::boolean[]), (" + b + "}', " + t + "}')", "v(a, b)",
          "v.a, v.b, " + p.eps + ", " + std::to_string(p.k)};
}
Reports olh_reports(const StateParams& p) {
  if (!small_k(p)) return {};
  return {"(7::bigint, 0), (8, 1), (9, 0)", "v(a, b)", "v.a, v.b, " + p.eps + ", " + std::to_string(p.k)};
}
Reports hadamard_reports(const StateParams& p) {
  if (!small_k(p)) return {};
  return {"(0, true), (1, false), (0, false)", "v(a, b)", "v.a, v.b, " + p.eps + ", " + std::to_string(p.k)};
}
bool small_sketch(const StateParams& p) {
  return p.hashes >= 1 && p.hashes <= 4096 && p.width >= 2 && p.width <= 4096;
}
Reports cms_reports(const StateParams& p) {  // (hash_index, width bits); the width is the bits'
  if (!small_sketch(p)) return {};
  return {"(0, " + one_hot(p.width, 0) + "::varbit), (" + std::to_string(p.hashes - 1) + ", " +
              one_hot(p.width, p.width - 1) + "), (0, " + one_hot(p.width, 1) + ")",
          "v(a, b)", "v.a, v.b, " + p.eps + ", " + std::to_string(p.hashes)};
}
Reports signed_sketch_reports(const StateParams& p) {  // hcms, hashtogram: (hash_index, coefficient, ±1)
  if (!small_sketch(p)) return {};
  return {"(0, 0, true), (" + std::to_string(p.hashes - 1) + ", " + std::to_string(p.width - 1) + ", false), (0, 1, true)",
          "v(a, b, c)", "v.a, v.b, v.c, " + p.eps + ", " + std::to_string(p.hashes) + ", " + std::to_string(p.width)};
}

const TransFn kMeanTransFns[] = {
    {"rr_trans", "rr", "boolean, float8", "rr_agg", rr_reports},
    {"onebit_mean_trans", "onebit", "boolean, float8, float8", "onebit_mean_agg", onebit_reports},
    {"onebit_mean_trans", "onebit", "boolean, float8, float8, float8", "onebit_mean_agg", onebit_gamma_reports},
    {"laplace_mean_trans", "laplace", "float8, float8, float8", "laplace_mean_agg", laplace_reports},
    {"piecewise_mean_trans", "piecewise", "float8, float8, float8", "piecewise_mean_agg", piecewise_reports},
};
const TransFn kFreqTransFns[] = {
    {"grr_trans", "grr", "int, float8, int", "grr_agg", grr_reports},
    {"sue_trans", "sue", "varbit, float8", "sue_agg", unary_reports},
    {"oue_trans", "oue", "varbit, float8", "oue_agg", unary_reports},
    {"dbitflip_trans", "dbitflip", "int[], boolean[], float8, int", "dbitflip_agg", dbitflip_reports},
    {"olh_trans", "olh", "bigint, int, float8, int", "olh_agg", olh_reports},
    {"hadamard_trans", "hadamard", "int, boolean, float8, int", "hadamard_agg", hadamard_reports},
};
const TransFn kSketchTransFns[] = {
    {"cms_trans", "cms", "int, varbit, float8, int", "cms_agg", cms_reports},
    {"hcms_trans", "hcms", "int, int, boolean, float8, int, int", "hcms_agg", signed_sketch_reports},
    {"hashtogram_trans", "hashtogram", "int, int, boolean, float8, int, int", "hashtogram_agg", signed_sketch_reports},
};

// ---- the families: adding one is adding a row (and its seeds, queries and
// transition functions above) ----
}  // namespace

namespace {
// The stored form of a sketch (src/core/common/stored_form.hpp): "LDPS", u8 format, u8
// family, u8 mechanism, then epsilon, hashes, width, n as 8-byte fields; format 3 then
// has the counter width.
void sketch_layout(const Bytes& b, size_t* fields_start, size_t* counter_width_at) {
  *fields_start = 7;
  *counter_width_at = b.size() > 4 && b[4] == 3 ? 7 + 32 : 0;
}

#define LDP_FUZZ_COUNT(a) (sizeof(a) / sizeof *(a))
const Family kFamilies[] = {
    {"mean", "ldp.mean_summary", "ldp.mean_summary_send", kMeanSeeds, LDP_FUZZ_COUNT(kMeanSeeds), mean_queries,
     kMeanTransFns, LDP_FUZZ_COUNT(kMeanTransFns), true, nullptr},
    {"frequency", "ldp.freq_summary", "ldp.freq_summary_send", kFreqSeeds, LDP_FUZZ_COUNT(kFreqSeeds), freq_queries,
     kFreqTransFns, LDP_FUZZ_COUNT(kFreqTransFns), true, nullptr},
    {"sketch", "ldp.sketch_summary", "ldp.sketch_summary_send", kSketchSeeds, LDP_FUZZ_COUNT(kSketchSeeds),
     sketch_queries, kSketchTransFns, LDP_FUZZ_COUNT(kSketchTransFns), true, sketch_layout},
    ldp_fuzz::kHeavyFamily,
    ldp_fuzz::kHeavyProtocolFamily,
    ldp_fuzz::kRapporFamily,
    ldp_fuzz::kRangeFamily,
    ldp_fuzz::kRangeProtocolFamily,
};

// A field of a text form ("epsilon", "k", ...) as written, or `fallback`.
std::string text_field(const std::string& form, const std::string& name, const std::string& fallback) {
  size_t at = form.find(name + "=");
  while (at != std::string::npos && at > 0 && form[at - 1] != '{' && form[at - 1] != ',')
    at = form.find(name + "=", at + 1);
  if (at == std::string::npos) return fallback;
  size_t from = at + name.size() + 1, to = form.find_first_of(",}", from);
  return form.substr(from, to == std::string::npos ? std::string::npos : to - from);
}
std::string text_mechanism(const std::string& form) {
  size_t colon = form.find(':'), brace = form.find('{');
  return colon == std::string::npos || brace == std::string::npos ? "" : form.substr(colon + 1, brace - colon - 1);
}

class Fuzzer {
 public:
  Fuzzer(std::string save_dir, bool verbose) : save_dir_(std::move(save_dir)), verbose_(verbose) {
    connect();
  }

  void collect_seeds(std::vector<Seed>& out) {
    for (const Family& f : kFamilies)
      for (size_t i = 0; i < f.seed_count; ++i) add_seed(out, f, f.seeds[i][0], f.seeds[i][1]);
  }

  // One form: input (text or binary), then round trips and accessors if accepted.
  void run(const Seed& seed, bool binary, const std::string& text, const Bytes& bytes) {
    ++st_.forms;
    ++(binary ? st_.binary_forms : st_.text_forms);
    ++st_.forms_by_seed[seed.label];
    failed_kinds_.clear();
    const Family& fam = *seed.family;
    const std::string type = fam.type, send = fam.send;
    std::string shown = binary ? "binary form (hex) " + hex(bytes) : "text form " + quote(text);
    current_ = "-- " + seed.label + ", " + shown + "\n";
    std::string in_sql;
    Outcome o;
    if (binary) {
      in_sql = "SELECT x::text, " + send + "(x) FROM (SELECT $1::" + type + " AS x) q";
      current_ += "-- via a binary parameter of: " + in_sql + "\n";
      o = exec(in_sql, &bytes);
    } else {
      in_sql = "SELECT x::text, " + send + "(x) FROM (SELECT " + quote(text) + "::" + type + " AS x) q";
      current_ += in_sql + ";\n";
      o = exec(in_sql, nullptr);
    }
    if (o.lost) return;
    if (!o.ok) {
      ++st_.refused;
      ++st_.refusal_codes[o.sqlstate];
      if (o.sqlstate == "57014") ++st_.timeouts;
      else if (o.sqlstate.compare(0, 2, "22") != 0) fail(kInput, "input refused with " + o.sqlstate + ": " + o.message);
      return;
    }
    ++st_.accepted;
    ++st_.accepted_by_seed[seed.label];
    if (o.rows.empty() || o.rows[0].size() != 2) {
      fail(kInput, "input accepted but no row came back");
      return;
    }
    const std::string canon = o.rows[0][0];
    const Bytes canon_bin = unescape_bytea(o.rows[0][1]);
    current_ += "-- accepted as " + canon + "\n";

    // the text and binary outputs read back as the same summary, also as ldp.summary
    // (text, binary, cast there and back), whose accessors and send agree with the
    // type's; one statement ($1: the binary output)
    const std::string c = quote(canon);
    if (!fam.summary) {  // a type that is no summary: its own text and binary only
      const std::string own_sql = "SELECT (" + c + "::" + type + ")::text, ($1::" + type + ")::text, (" + send + "(" +
                                  c + "::" + type + ") IS DISTINCT FROM " + send + "($1::" + type + "))::int";
      Outcome t = exec(own_sql, &canon_bin);
      if (t.lost) return;
      if (!t.ok || t.rows.empty() || t.rows[0].size() != 3 || t.rows[0][0] != canon || t.rows[0][1] != canon ||
          t.rows[0][2] != "0")
        fail(kRoundTrip, "it does not read back the same: " + t.sqlstate + " " + t.message + "\n" + own_sql +
                             "; -- $1: its binary output");
    }
    const std::string rt_sql = !fam.summary ? std::string() :
        "SELECT (" + c + "::" + type + ")::text, ($1::" + type + ")::text, (" + c + "::ldp.summary)::text, "
        "($1::ldp.summary)::text, (" + c + "::" + type + "::ldp.summary)::" + type + "::text, "
        "(ldp.report_count(u) IS DISTINCT FROM ldp.report_count(s) OR ldp.epsilon(u) IS DISTINCT FROM ldp.epsilon(s) "
        "OR ldp.mechanism(u) IS DISTINCT FROM ldp.mechanism(s) OR ldp.summary_kind(u) IS DISTINCT FROM '" +
        fam.kind + "')::int, (ldp.summary_send(u) IS DISTINCT FROM " + send + "(s))::int "
        "FROM (SELECT " + c + "::" + type + " s) p, (SELECT " + c + "::" + type + "::ldp.summary u) q";
    Outcome t = fam.summary ? exec(rt_sql, &canon_bin) : Outcome{};
    if (t.lost) return;
    const char* const kReadBack[] = {"text", "binary", "ldp.summary text", "ldp.summary binary", "cast to ldp.summary and back"};
    if (!fam.summary) {
      // (checked above)
    } else if (!t.ok || t.rows.empty() || t.rows[0].size() != 7) {
      fail(kRoundTrip, "it does not read back: " + t.sqlstate + " " + t.message + "\n" + rt_sql + "; -- $1: its binary output");
    } else {
      for (size_t i = 0; i < 5; ++i)
        if (t.rows[0][i] != canon)
          fail(kRoundTrip, std::string("its ") + kReadBack[i] + " output does not read back: " + t.rows[0][i] + "\n" +
                               rt_sql + "; -- $1: its binary output");
      if (t.rows[0][5] != "0")
        fail(kAccessorError, "report_count, epsilon, mechanism or summary_kind of s::ldp.summary differ from s's\n" + rt_sql);
      if (t.rows[0][6] != "0") fail(kRoundTrip, "summary_send(s::ldp.summary) differs from the type's send\n" + rt_sql);
    }

    // the accessors: NULL, finite numbers or a data exception
    const std::string s = "(" + c + "::" + type + ")";
    std::vector<Query> queries = fam.queries(s, "(" + quote(seed.text) + "::" + type + ")");
    if (state_rng_) state_test(canon, fam, *state_rng_, (*state_rng_)() % 3 != 0);
    for (const Query& q : queries) {
      ++st_.accessor_queries;
      Outcome a = exec(q.sql, nullptr);
      if (a.lost) return;
      if (!a.ok) {
        ++st_.accessor_errors;
        ++st_.accessor_codes[a.sqlstate];
        if (a.sqlstate == "57014" || a.sqlstate == "54000") ++st_.timeouts;  // a timeout, or a decode's limits
        else if (a.sqlstate.compare(0, 2, "22") != 0)
          fail(kAccessorError, "accessor error " + a.sqlstate + ": " + a.message + "\n" + q.sql);
        continue;
      }
      for (const auto& row : a.rows)
        for (size_t i = 0; i < row.size(); ++i) {
          if (row[i] == "\x01NULL") continue;
          double v = std::strtod(row[i].c_str(), nullptr);
          if (!std::isfinite(v)) fail(kNonFinite, "accessor gave " + row[i] + " (column " + std::to_string(i + 1) + ")\n" + q.sql);
        }
      if (a.rows.empty()) continue;
      for (size_t i = 0; i < q.zero.size() && i < a.rows[0].size(); ++i)
        if (a.rows[0][i] != "0")
          fail(q.zero[i].kind, std::string(q.zero[i].what) + ": " + a.rows[0][i] + " (column " + std::to_string(i + 1) +
                                   ", should be 0)\n" + q.sql);
    }
  }

  // A user-defined aggregate over one of ldp's transition functions, started from the
  // summary `canon` (its initcond) and fed three reports, against the rollup of that
  // summary and ldp's own aggregate over the same reports. Any user with the TEMP
  // privilege can create one (in pg_temp). The transition function must refuse a state
  // that the rollup refuses (another mechanism or other parameters), and otherwise give
  // the rollup's result.
  void state_test(const std::string& canon, const Family& fam, std::mt19937_64& g, bool same_mechanism) {
    std::vector<const TransFn*> fns;
    const std::string mech = text_mechanism(canon);
    for (size_t i = 0; i < fam.trans_count; ++i)
      if (!same_mechanism || mech == fam.trans[i].mech) fns.push_back(&fam.trans[i]);
    if (fns.empty()) return;
    const TransFn& t = *fns[g() % fns.size()];
    run_state_test(canon, fam, t, g);
  }

  void seed_state_test(const Seed& seed, const TransFn& t, std::mt19937_64& g) {
    failed_kinds_.clear();
    current_ = "-- seed " + seed.label + ": " + seed.text + "\n";
    run_state_test(seed.text, *seed.family, t, g);
  }

  void run_state_test(const std::string& canon, const Family& fam, const TransFn& t, std::mt19937_64& g) {
    const std::string type = fam.type;
    // parameters: the state's own, mostly
    StateParams p;
    p.eps = text_field(canon, "epsilon", "1");
    p.gamma = text_field(canon, "gamma", "0.2");
    p.k = std::atol(text_field(canon, "k", "4").c_str());
    p.d = std::atol(text_field(canon, "d", "2").c_str());
    p.hashes = std::atol(text_field(canon, "hashes", "2").c_str());
    p.width = std::atol(text_field(canon, "width", "8").c_str());
    p.levels = std::atol(text_field(canon, "levels", "2").c_str());
    p.protocol = "ldp.protocol(" + quote(canon) + "::" + type + ")";  // (heavy) a constant of the query
    p.form = canon;
    p.variant = static_cast<unsigned>(g());
    p.max_value = std::strtod(text_field(canon, "max_value", "10").c_str(), nullptr);
    if (!(p.max_value > 0 && p.max_value < 1e300)) p.max_value = 10;
    if (g() % 8 == 0) p.eps = "0.75";
    switch (g() % 10) {  // (a sketch's other parameters)
      case 0: p.hashes += 1; break;
      case 1: p.width *= 2; break;
      default: break;
    }
    Reports r = t.reports(p);
    if (r.rows.empty()) return;  // keep the reports small
    size_t commas = std::count(t.argtypes, t.argtypes + std::strlen(t.argtypes), ',');
    std::string name = std::string("pg_temp.fz_") + t.fn + "_" + std::to_string(commas);
    std::string ddl = "CREATE OR REPLACE AGGREGATE " + name + "(" + t.argtypes + ") (sfunc = ldp." + t.fn +
                      ", stype = " + type + ", initcond = " + quote(canon) + ")";
    std::string mine = "SELECT " + name + "(" + r.args + ")::text FROM (VALUES " + r.rows + ") " + r.cols;
    std::string oracle = "SELECT ldp.rollup(x)::text FROM (VALUES (" + quote(canon) + "::" + type + "), ((SELECT ldp." +
                         t.agg + "(" + r.args + ") FROM (VALUES " + r.rows + ") " + r.cols + "))) w(x)";
    std::string saved = current_;
    current_ += ddl + ";\n" + mine + ";\n-- against\n" + oracle + ";\n";
    ++st_.state_tests;
    // the aggregate and the query over it in one round trip (one implicit transaction:
    // an error undoes the CREATE, and the next test replaces the aggregate anyway)
    Outcome a = exec(ddl + ";\n" + mine, nullptr);
    if (a.lost) return;
    Outcome o = exec(oracle, nullptr);
    if (o.lost) return;
    if (!a.ok) {
      ++st_.state_codes[a.sqlstate];
      if (a.sqlstate != "57014" && a.sqlstate != "54000" && a.sqlstate.compare(0, 2, "22") != 0 &&
          a.sqlstate != "0A000")
        fail(kStateError, "ldp." + std::string(t.fn) + " failed with " + a.sqlstate + ": " + a.message);
    } else if (!o.ok) {
      bool other_mech = text_mechanism(canon) != t.mech;
      fail(other_mech ? kStateType : kStateParams,
           "ldp." + std::string(t.fn) + " took this state (rollup refuses it: " + o.sqlstate + " " + o.message + "); gave " +
               (a.rows.empty() ? "no row" : a.rows[0][0]));
    } else if (a.rows.empty() || o.rows.empty() || a.rows[0][0] != o.rows[0][0]) {
      fail(kStateResult, "ldp." + std::string(t.fn) + " gave " + (a.rows.empty() ? "no row" : a.rows[0][0]) +
                             ", the rollup " + (o.rows.empty() ? "no row" : o.rows[0][0]));
    }
    current_ = saved;
  }

  Stats& stats() { return st_; }
  bool server_lost() const { return lost_; }

 private:
  struct Outcome {
    bool ok = false, lost = false;
    std::string sqlstate, message;
    std::vector<std::vector<std::string>> rows;  // NULL as "\x01NULL"
  };

  void connect() { conn_ = std::make_unique<pqxx::connection>(""); }

  std::string quote(const std::string& s) { return conn_->quote(s); }

  static Bytes unescape_bytea(const std::string& s) {  // hex format: \x0102...
    Bytes b;
    if (s.size() < 2 || s[0] != '\\' || s[1] != 'x') return b;
    for (size_t i = 2; i + 1 < s.size(); i += 2) b.push_back(static_cast<uint8_t>(std::stoi(s.substr(i, 2), nullptr, 16)));
    return b;
  }

  Outcome exec(const std::string& sql, const Bytes* param) {
    Outcome o;
    try {
      pqxx::nontransaction tx(*conn_);
      pqxx::result r = param ? tx.exec_params(sql, pqxx::binarystring(param->data(), param->size()))
                             : tx.exec(sql);
      o.ok = true;
      for (const auto& row : r) {
        std::vector<std::string> v;
        for (const auto& f : row) v.push_back(f.is_null() ? "\x01NULL" : f.c_str());
        o.rows.push_back(std::move(v));
      }
    } catch (const pqxx::broken_connection& e) {
      lost(e.what());
      o.lost = true;
    } catch (const pqxx::sql_error& e) {
      o.sqlstate = e.sqlstate().empty() ? "?????" : e.sqlstate();
      o.message = first_line(e.what());
      if (!conn_->is_open()) {  // lost mid-statement
        lost(e.what());
        o.lost = true;
      }
    } catch (const std::exception& e) {
      if (!conn_->is_open()) {
        lost(e.what());
        o.lost = true;
      } else {
        o.sqlstate = "?????";
        o.message = first_line(e.what());
      }
    }
    return o;
  }

  static std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

  // The server went away while running the current form: record it, wait for the
  // server to come back (a crash restarts it), carry on.
  void lost(const std::string& what) {
    lost_ = true;
    fail(kLost, "the connection was lost (a crash?): " + first_line(what));
    for (int i = 0; i < 120; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      try {
        connect();
        return;
      } catch (const std::exception&) {
      }
    }
    std::cerr << "summary-fuzz: the server did not come back\n";
    report_and_exit();
  }

  // One failure of a kind: counted once per form, the first ones of each kind shown and
  // saved (the SQL that shows them, with the form as sent).
  void fail(const char* kind, const std::string& what) {
    std::string entry = "-- " + what + "\n" + current_;
    if (failed_kinds_.count(kind)) return;  // this form already failed this way
    failed_kinds_.insert(kind);
    long n = ++st_.failures[kind];
    if (verbose_ || n <= 3) std::cerr << "summary-fuzz: FAILURE (" << kind << ") " << entry << "\n";
    if (!save_dir_.empty() && n <= 200) {
      std::ofstream f(save_dir_ + "/summary-" + kind + "-" + std::to_string(n) + ".sql");
      f << entry;
    }
  }

  void add_seed(std::vector<Seed>& out, const Family& family, const char* label, const char* sql) {
    const std::string send = family.send;
    current_ = std::string("-- seed ") + label + "\n" + sql + "\n";
    Outcome o = exec(std::string("SELECT s::text, ") + send + "(s) FROM (" + sql + ") q(s)", nullptr);
    if (!o.ok || o.rows.empty() || o.rows[0][0] == "\x01NULL") {
      fail(kSeed, std::string("seed query failed: ") + o.sqlstate + " " + o.message);
      return;
    }
    Seed seed{&family, label, o.rows[0][0], unescape_bytea(o.rows[0][1])};
    if (family.layout) family.layout(seed.binary, &seed.fields_start, &seed.counter_width_at);
    out.push_back(std::move(seed));
    if (verbose_) std::cerr << "summary-fuzz: seed " << label << ": " << o.rows[0][0] << "\n";
  }

 public:
  [[noreturn]] void report_and_exit() {
    report();
    long total = 0;
    for (const auto& [kind, n] : st_.failures) total += n;
    std::exit(total == 0 ? 0 : 1);
  }

  // "label accepted/forms, ..." by family, in the order of kFamilies and their seeds
  std::string per_seed() const {
    std::string s;
    for (const Family& f : kFamilies) {
      long forms = 0, accepted = 0;
      std::string seeds;
      for (size_t i = 0; i < f.seed_count; ++i) {
        auto get = [](const std::map<std::string, long>& m, const char* k) { auto it = m.find(k); return it == m.end() ? 0L : it->second; };
        long n = get(st_.forms_by_seed, f.seeds[i][0]), a = get(st_.accepted_by_seed, f.seeds[i][0]);
        forms += n;
        accepted += a;
        seeds += std::string(seeds.empty() ? "" : ", ") + f.seeds[i][0] + " " + std::to_string(a) + "/" + std::to_string(n);
      }
      s += std::string(s.empty() ? "" : "; ") + f.kind + " " + std::to_string(accepted) + "/" + std::to_string(forms) +
           " (" + seeds + ")";
    }
    return s;
  }

  void report() {
    auto codes = [](const std::map<std::string, long>& m) {
      std::string s;
      for (const auto& [c, n] : m) s += (s.empty() ? "" : ", ") + c + " " + std::to_string(n);
      return s.empty() ? std::string("none") : s;
    };
    std::cout << "summary-fuzz: " << st_.forms << " forms (" << st_.text_forms << " text, " << st_.binary_forms
              << " binary): " << st_.accepted << " accepted, " << st_.refused << " refused\n"
              << "summary-fuzz: refusal codes: " << codes(st_.refusal_codes) << "\n"
              << "summary-fuzz: accessor queries on accepted forms: " << st_.accessor_queries << ", errors: "
              << codes(st_.accessor_codes) << "\n"
              << "summary-fuzz: accepted of forms per seed: " << per_seed() << "\n"
              << "summary-fuzz: user-defined aggregates started from a summary: " << st_.state_tests
              << ", errors: " << codes(st_.state_codes) << "\n"
              << "summary-fuzz: failing forms by kind: " << codes(st_.failures) << "\n";
    // the check lines test/fuzz.sh passes on (and test/run.sh counts)
    auto check = [&](const char* name, std::initializer_list<const char*> kinds) {
      long n = 0;
      for (const char* k : kinds) n += st_.failures.count(k) ? st_.failures.at(k) : 0;
      std::cout << "fuzz: " << name << " ... ";
      if (n == 0) std::cout << "ok\n";
      else std::cout << "FAILED (" << n << " forms; build/fuzz/findings/summary-*.sql)\n";
    };
    check("summary forms refused with a data exception (class 22) or accepted", {kInput, kSeed});
    check("summary forms accepted read back the same from text and binary", {kRoundTrip});
    check("summary accessors give NULL, a data exception or finite numbers, and agree where they must",
          {kAccessorError, kNonFinite});
    check("user-defined aggregates over ldp's transition functions refuse foreign states or agree with rollup",
          {kStateType, kStateParams, kStateResult, kStateError});
    check("summary fuzzing kept its connection (no crash)", {kLost});
  }

 private:
  std::unique_ptr<pqxx::connection> conn_;
  std::string save_dir_, current_;
  bool verbose_;
  bool lost_ = false;
  Stats st_;
  std::set<std::string> failed_kinds_;

 public:
  std::mt19937_64* state_rng_ = nullptr;  // set: run a state test on every accepted form
};

}  // namespace

int main(int argc, char** argv) {
  long forms = 20000;
  uint64_t seed = 1;
  std::string save_dir;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "ldp_summary_fuzz: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--forms") forms = std::stol(value());
    else if (a == "--seed") seed = std::stoull(value());
    else if (a == "--save-dir") save_dir = value();
    else if (a == "--verbose") verbose = true;
    else {
      std::cerr << "usage: ldp_summary_fuzz [--forms N] [--seed S] [--save-dir DIR] [--verbose]\n";
      return 2;
    }
  }
  try {
    Fuzzer fz(save_dir, verbose);
    std::vector<Seed> seeds;
    fz.collect_seeds(seeds);
    if (seeds.empty()) {
      std::cerr << "summary-fuzz: no seed summary\n";
      return 1;
    }
    std::mt19937_64 g(seed), gs(seed + 1);
    // every transition function from every seed summary of its family
    for (const Seed& s : seeds)
      for (size_t t = 0; t < s.family->trans_count; ++t) fz.seed_state_test(s, s.family->trans[t], gs);
    fz.state_rng_ = &gs;
    // a family (of those whose seeds came), then one of its seeds
    std::vector<std::vector<const Seed*>> by_family;
    for (const Family& f : kFamilies) {
      std::vector<const Seed*> v;
      for (const Seed& s : seeds)
        if (s.family == &f) v.push_back(&s);
      if (!v.empty()) by_family.push_back(std::move(v));
    }
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < forms; ++i) {
      const std::vector<const Seed*>& family = by_family[g() % by_family.size()];
      const Seed& s = *family[g() % family.size()];
      bool binary = g() % 2 == 0;
      if (binary) {
        Bytes b = g() % 50 == 0 ? Bytes() : mutate_binary(s, seeds, g);
        if (b.empty() && g() % 2) for (int j = 0, n = 1 + g() % 40; j < n; ++j) b.push_back(static_cast<uint8_t>(g()));
        fz.run(s, true, "", b);
      } else {
        fz.run(s, false, mutate_text(s.text, seeds, g), {});
      }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "summary-fuzz: " << forms << " forms in " << static_cast<long>(secs + 0.5) << " s (seed " << seed
              << ", " << seeds.size() << " seed summaries)\n";
    fz.report_and_exit();
  } catch (const std::exception& e) {
    std::cerr << "summary-fuzz: " << e.what() << "\n";
    return 1;
  }
}
