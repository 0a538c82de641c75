// The RAPPOR rows of ldp_summary_fuzz's families (fuzz_family.hpp): ldp.rappor_summary
// (seeds of dense and sparse cohorts, counters of 1, 2 and 4 bytes, an empty one), the
// accessors and their agreements (rappor_decode: one row per candidate, intervals in
// [0, 1] around the proportion; rollup; the ldp.summary cast), and rappor_trans in
// user-defined aggregates with odd reports (a cohort out of range, a report of another
// length, NULLs, parameters per row).
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_family.hpp"

namespace ldp_fuzz {

namespace {

#define LDP_FUZZ_COUNT(a) (sizeof(a) / sizeof *(a))

const char* const kRapporSeeds[][2] = {
    {"rappor 8 bits 4 cohorts n=60",
     "SELECT ldp.rappor_agg(abs(hashint4(i)) % 4, ldp.rappor_encode((ARRAY['a', 'b', 'c'])[1 + i % 3], abs(hashint4(i)) % 4, "
     "int4send(i), 8, 2, 0.5, 0.25, 0.75, i), 2, 4, 0.5, 0.25, 0.75) FROM generate_series(1, 60) i"},
    {"rappor 4 bits n=3", "SELECT 'v1:rappor{bits=4,hashes=1,cohorts=3,f=0.25,p=0.5,q=0.75,n=3,rows=2,cohort=[0,2],"
                          "reports=[1,2],ones=[1,0,0,1,2,1,0,0]}'::ldp.rappor_summary"},
    {"rappor 16 bits one cohort n=400 (2-byte counters)",
     "SELECT ldp.rappor_agg(0, ldp.rappor_encode(CASE WHEN i % 4 = 0 THEN 'x' ELSE 'y' END, 0, int4send(i), 16, 2, 0.5, "
     "0.25, 0.75, i), 2, 1, 0.5, 0.25, 0.75) FROM generate_series(1, 400) i"},
    {"rappor sparse cohorts up to 2^31 - 1 (4-byte cohorts)",
     "SELECT ldp.rappor_agg(2147483646 - i * 1000003, ldp.rappor_bloom('v' || i % 2, 2147483646 - i * 1000003, 12, 3), "
     "3, 2147483647, 0, 0, 1) FROM generate_series(0, 20) i"},
    {"rappor empty", "SELECT 'v1:rappor{bits=8,hashes=2,cohorts=64,f=0.5,p=0.25,q=0.75,n=0,rows=0,cohort=[],reports=[],"
                     "ones=[]}'::ldp.rappor_summary"},
};

// The stored form: "LDPS", u8 format (3), u8 family (5), u8 mechanism, then bits, hashes,
// cohorts, f, p, q, n and rows as 8-byte fields, then the counter width
// (src/core/rappor/rappor_codec.cpp).
void rappor_layout(const Bytes& b, size_t* fields_start, size_t* counter_width_at) {
  *fields_start = 7;
  *counter_width_at = b.size() > 7 + 64 ? 7 + 64 : 0;
}

std::vector<Query> rappor_queries(const std::string& s, const std::string& seed) {
  const std::string values = "(" + nonfinite("d.count") + " + " + nonfinite("d.std_error") + " + " +
                             nonfinite("d.proportion") + " + " + nonfinite("d.ci_lower") + " + " +
                             nonfinite("d.ci_upper") + ")::float8";
  return {
      {"SELECT ldp.report_count(s)::float8, ldp.epsilon(s), length(ldp.mechanism(s))::float8, (ldp.rappor_parameters(s)).* "
       "FROM (SELECT " + s + " s) q",
       {}},
      // one row per candidate in order, NULLs for NULL, proportions and intervals in [0, 1]
      {"SELECT (count(*) - 4)::float8, count(*) FILTER (WHERE (d.item IS NULL) <> (d.count IS NULL) "
       "OR d.item IS DISTINCT FROM (ARRAY['a', NULL, 'x', ''])[d.o])::float8, "
       "count(*) FILTER (WHERE NOT (d.std_error >= 0 AND 0 <= d.ci_lower AND d.ci_lower <= d.proportion "
       "AND d.proportion <= d.ci_upper AND d.ci_upper <= 1))::float8, " + values +
       " FROM ldp.rappor_decode(" + s + ", ARRAY['a', NULL, 'x', '']) WITH ORDINALITY d(item, count, std_error, proportion, "
       "ci_lower, ci_upper, detected, o)",
       {{kAccessorError, "rows of rappor_decode(s, 4 candidates) other than 4"},
        {kAccessorError, "rows of rappor_decode out of the candidates' order, or with NULL estimates for a candidate"},
        {kAccessorError, "rows of rappor_decode with a negative standard error or an interval not in [0, 1] around the proportion"},
        {kNonFinite, "non-finite values of rappor_decode(s, candidates)"}}},
      rollup_self(s, "ldp.rappor_summary", "ldp.rappor_parameters"),
      {"SELECT ldp.report_count(r)::float8, (SELECT count(*) FROM ldp.rappor_decode(r, ARRAY['a', 'b']))::float8 "
       "FROM (SELECT ldp.rollup(x) r FROM (VALUES (" + s + "), (" + seed + ")) v(x)) q",
       {}},
  };
}

// A field of the state's text form, or `fallback`.
std::string field(const std::string& form, const std::string& name, const std::string& fallback) {
  const size_t at = form.find("," + name + "=") != std::string::npos ? form.find("," + name + "=") + 1
                    : form.find("{" + name + "=") != std::string::npos ? form.find("{" + name + "=") + 1
                                                                        : std::string::npos;
  if (at == std::string::npos) return fallback;
  const size_t from = at + name.size() + 1, to = form.find_first_of(",}", from);
  return form.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

// rappor_trans: reports that fit the state (its bits and cohorts), and now and then one
// that does not (a cohort out of range or a report of another length: 22000), an
// all-NULL row (skipped), a partly NULL one (22004), other parameters (22023), or the
// hashes as a per-row value (the general path on every row).
Reports rappor_reports(const StateParams& p) {
  const long bits = std::atol(field(p.form, "bits", "8").c_str());
  const long cohorts = std::atol(field(p.form, "cohorts", "4").c_str());
  if (bits < 1 || bits > 256 || cohorts < 1) return {};
  const std::string f = field(p.form, "f", "0.5"), pp = field(p.form, "p", "0.25"), q = field(p.form, "q", "0.75");
  auto report = [](long n, unsigned pattern) {
    std::string r;
    for (long i = 0; i < n; ++i) r += ((pattern >> (i % 7)) & 1) ? '1' : '0';
    return "B'" + r + "'";
  };
  std::string rows = "(0, " + report(bits, p.variant) + "), (" + std::to_string(cohorts - 1) + ", " +
                     report(bits, p.variant >> 3) + "), (" + std::to_string(cohorts / 2) + ", " + report(bits, ~p.variant) + ")";
  std::string hashes = std::to_string(p.hashes);
  switch (p.variant % 8) {
    case 0: {
      const std::string odd[] = {"(" + std::to_string(cohorts) + ", " + report(bits, 1) + ")",
                                 "(-1, " + report(bits, 1) + ")", "(0, " + report(bits + 1, 1) + ")",
                                 "(0, " + report(bits - 1, 1) + ")", "(-2147483648, " + report(bits, 1) + ")"};
      rows += ", " + odd[(p.variant / 8) % LDP_FUZZ_COUNT(odd)];
      break;
    }
    case 1: rows += ", (NULL, NULL)"; break;
    case 2: rows += ", (1, NULL)"; break;
    case 3: hashes = "(SELECT " + hashes + " WHERE v.a IS NOT NULL)"; break;
    default: break;
  }
  return {rows, "v(a, b)", "v.a, v.b, " + hashes + ", " + std::to_string(cohorts) + ", " + f + ", " + pp + ", " + q};
}

const TransFn kRapporTransFns[] = {
    {"rappor_trans", "rappor", "int, varbit, int, int, float8, float8, float8", "rappor_agg", rappor_reports},
};

}  // namespace

const Family kRapporFamily = {"rappor", "ldp.rappor_summary", "ldp.rappor_summary_send", kRapporSeeds,
                              LDP_FUZZ_COUNT(kRapporSeeds), rappor_queries, kRapporTransFns,
                              LDP_FUZZ_COUNT(kRapporTransFns), true, rappor_layout};

}  // namespace ldp_fuzz
