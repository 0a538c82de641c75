// The range rows of ldp_summary_fuzz's families (fuzz_family.hpp): the summary
// (ldp.range_summary: seeds of every mapping and mechanism (haar, hh with B = 4 and 2, sw),
// counters of 1 and 2 bytes, a level without reports, an empty one, Square Wave's bucket
// counts at 2 and 5 bits and empty; the accessors and their agreements: cdf against
// range_frequency, quantiles in order with intervals around their values, histograms,
// density's rows and intervals, rollup, the ldp.summary cast; range_trans and
// range_sw_trans in user-defined aggregates with odd reports) and its protocol
// (ldp.range_protocol: a type of its own, no ldp.summary kind, whose forms are read back
// and then used by the encoders and the aggregates).
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_family.hpp"

namespace ldp_fuzz {

namespace {

#define LDP_FUZZ_COUNT(a) (sizeof(a) / sizeof *(a))

// Small domains, so that a mutated form stays short and most of its counters are seen.
const char* const kRangeSeeds[][2] = {
    {"haar floor k=3 n=40", "SELECT ldp.range_agg(e.level, e.hadamard_row, e.report, ldp.range_protocol(1, 3)) "
                            "FROM generate_series(1, 40) i, ldp.range_encode(i % 9, ldp.range_protocol(1, 3), i) e"},
    {"haar floor k=2 n=1", "SELECT 'v1:haar{epsilon=1,domain_bits=2,mapping=floor,n=1,levels=[0,1],sums=[0,1,0]}'"
                           "::ldp.range_summary"},
    {"haar log k=4 n=400 (2-byte counters)",
     "SELECT ldp.range_agg(e.level, e.hadamard_row, e.report, ldp.range_protocol(2, 4, 'haar', NULL, 'log', 1, 1000)) "
     "FROM generate_series(1, 400) i, ldp.range_encode(i * 2.5, ldp.range_protocol(2, 4, 'haar', NULL, 'log', 1, 1000), i) e"},
    {"haar linear k=5 n=300", "SELECT ldp.range_agg(e.level, e.hadamard_row, e.report, "
                              "ldp.range_protocol(0.5, 5, mapping => 'linear', lo => -1, hi => 1)) "
                              "FROM generate_series(1, 300) i, ldp.range_encode(sin(i), "
                              "ldp.range_protocol(0.5, 5, mapping => 'linear', lo => -1, hi => 1), i) e"},
    {"haar k=3 level 0 without reports", "SELECT 'v1:haar{epsilon=3,domain_bits=3,mapping=floor,n=5,levels=[0,2,3],"
                                         "sums=[0,2,0,1,0,0,0]}'::ldp.range_summary"},
    {"haar k=3 empty", "SELECT 'v1:haar{epsilon=1,domain_bits=3,mapping=floor,n=0,levels=[0,0,0],sums=[0,0,0,0,0,0,0]}'"
                       "::ldp.range_summary"},
    {"hh B=4 k=3 n=40 (levels of 2 and 8)",
     "SELECT ldp.range_agg(e.level, e.hadamard_row, e.report, ldp.range_protocol(1, 3, 'hh')) "
     "FROM generate_series(1, 40) i, ldp.range_encode(i % 9, ldp.range_protocol(1, 3, 'hh'), i) e"},
    {"hh B=2 linear k=4 n=300", "SELECT ldp.range_agg(e.level, e.hadamard_row, e.report, "
                                "ldp.range_protocol(2, 4, 'hh', 2, 'linear', -1, 1)) FROM generate_series(1, 300) i, "
                                "ldp.range_encode(cos(i), ldp.range_protocol(2, 4, 'hh', 2, 'linear', -1, 1), i) e"},
    {"hh B=2 k=3 leaves without reports",
     "SELECT 'v1:hh{epsilon=1,domain_bits=3,branching=2,mapping=floor,n=3,levels=[1,2,0],"
     "sums=[1,0,0,0,-2,0,0,0,0,0,0,0,0,0]}'::ldp.range_summary"},
    {"sw floor k=5 n=300", "SELECT ldp.range_agg(ldp.sw_encode(i % 29, ldp.range_protocol(2, 5, 'sw'), i), "
                           "ldp.range_protocol(2, 5, 'sw')) FROM generate_series(1, 300) i"},
    {"sw linear k=2 n=4", "SELECT 'v1:sw{epsilon=1,domain_bits=2,mapping=linear,lo=-1,hi=1,n=4,buckets=[2,0,1,1]}'"
                          "::ldp.range_summary"},
    {"sw k=3 empty", "SELECT 'v1:sw{epsilon=0.5,domain_bits=3,mapping=floor,n=0,buckets=[0,0,0,0,0,0,0,0]}'"
                     "::ldp.range_summary"},
};

const char* const kRangeProtocolSeeds[][2] = {
    {"protocol floor k=4", "SELECT ldp.range_protocol(1, 4)"},
    {"protocol linear k=3", "SELECT ldp.range_protocol(2, 3, mapping => 'linear', lo => -5, hi => 5)"},
    {"protocol log k=5", "SELECT ldp.range_protocol(0.5, 5, mapping => 'log', lo => 0.1, hi => 1e6)"},
    {"protocol hh k=5", "SELECT ldp.range_protocol(1, 5, 'hh')"},
    {"protocol hh B=2 k=3", "SELECT ldp.range_protocol(1, 3, 'hh', 2)"},
    {"protocol sw k=6", "SELECT ldp.range_protocol(3, 6, 'sw')"},
};

// The stored form: "LDPS", u8 format (3), u8 family (6), u8 mechanism, u8 mapping, then
// epsilon, domain_bits, lo, hi, hh's branching (mechanism 2) and n as 8-byte fields, then
// the counter width (src/core/range/range_codec.cpp).
void range_layout(const Bytes& b, size_t* fields_start, size_t* counter_width_at) {
  *fields_start = 8;
  const size_t at = b.size() > 6 && b[6] == 2 ? 56 : 48;
  *counter_width_at = b.size() > at ? at : 0;
}
// ldp.range_protocol: u8 version, u8 mechanism, u8 mapping, the fields from byte 3.
void protocol_layout(const Bytes&, size_t* fields_start, size_t* counter_width_at) {
  *fields_start = 3;
  *counter_width_at = 0;
}

std::string answer_values(const std::string& p) {
  return "(" + nonfinite(p + "frequency") + " + " + nonfinite(p + "count") + " + " + nonfinite(p + "std_error") +
         " + " + nonfinite(p + "ci_lower") + " + " + nonfinite(p + "ci_upper") + ")::float8";
}

std::vector<Query> range_queries(const std::string& s, const std::string& seed) {
  const std::string q_values =
      "(" + nonfinite("q.value") + " + " + nonfinite("q.ci_lower") + " + " + nonfinite("q.ci_upper") + ")::float8";
  return {
      {"SELECT ((ldp.protocol(s)::text)::ldp.range_protocol::text IS DISTINCT FROM ldp.protocol(s)::text)::int::float8, "
       "ldp.report_count(s)::float8, ldp.epsilon(s), length(ldp.mechanism(s))::float8 FROM (SELECT " + s + " s) q",
       {{kAccessorError, "protocol(s) does not read back as itself"}}},
      // ranges and the CDF: cdf(s, x) is range_frequency(s, 0, x); shown values in [0, 1]
      {"SELECT count(*) FILTER (WHERE (c.frequency, c.std_error) IS DISTINCT FROM (f.frequency, f.std_error))::float8, "
       "count(*) FILTER (WHERE NOT (f.frequency BETWEEN 0 AND 1 AND f.ci_lower <= f.ci_upper AND f.ci_lower >= 0 "
       "AND f.ci_upper <= 1 AND f.std_error >= 0))::float8, " + answer_values("f.") +
       " FROM (SELECT " + s + " s) q, unnest(ARRAY[-1, 0, 1, 2.5, 7, 1e9]) x, ldp.cdf(q.s, x) c, "
       "ldp.range_frequency(q.s, 0, x) f",
       {{kAccessorError, "cdf(s, x) differs from range_frequency(s, 0, x)"},
        {kAccessorError, "range answers outside [0, 1], with an interval out of order or a negative standard error"},
        {kNonFinite, "non-finite values of range_frequency(s, 0, x)"}}},
      // quantiles: one row per element (none for n = 0), NULLs for NULL, value in its interval
      {"SELECT count(*)::float8 - CASE WHEN ldp.report_count(" + s + ") = 0 THEN 0 ELSE 3 END, "
       "count(*) FILTER (WHERE (q.phi IS NULL) <> (q.value IS NULL) OR NOT (q.ci_lower <= q.value "
       "AND q.value <= q.ci_upper))::float8, " + q_values +
       " FROM ldp.quantiles(" + s + ", ARRAY[0.5, NULL, 1]) q",
       {{kAccessorError, "rows of quantiles(s, 3 phis) other than 3 (none for n = 0)"},
        {kAccessorError, "quantiles with NULLs for a phi, values for NULL, or a value outside [ci_lower, ci_upper]"},
        {kNonFinite, "non-finite values of quantiles(s, phis)"}}},
      {"SELECT count(*)::float8 - CASE WHEN ldp.report_count(" + s + ") = 0 THEN 0 ELSE 2 END, "
       "count(*) FILTER (WHERE NOT (h.lo <= h.hi))::float8, " + nonfinite("h.frequency") +
       "::float8 FROM ldp.histogram(" + s + ", 2) h",
       {{kAccessorError, "rows of histogram(s, 2) other than 2 (none for n = 0)"},
        {kAccessorError, "histogram rows with lo > hi"},
        {kNonFinite, "non-finite frequencies of histogram(s, 2)"}}},
      rollup_self(s, "ldp.range_summary", "ldp.protocol"),
      {"SELECT ldp.report_count(r)::float8, (ldp.quantile(r, 0.5)).value FROM (SELECT ldp.rollup(x) r "
       "FROM (VALUES (" + s + "), (" + seed + ")) v(x)) q",
       {}},
      // density (Square Wave's; 22023 for HaarHRR's): 2 rows (none for n = 0), shares in
      // [0, 1] adding up to 1, intervals around them, a short bootstrap
      {"SELECT count(*)::float8 - CASE WHEN ldp.report_count(" + s + ") = 0 THEN 0 ELSE 2 END, "
       "count(*) FILTER (WHERE NOT (d.lo <= d.hi AND d.frequency BETWEEN 0 AND 1 AND d.std_error >= 0 "
       "AND d.ci_lower <= d.frequency AND d.frequency <= d.ci_upper))::float8, "
       "coalesce(abs(sum(d.frequency) - 1) > 1e-9, false)::int::float8, " + nonfinite("d.frequency") +
       "::float8 FROM ldp.density(" + s + ", 2, 3, 1) d",
       {{kAccessorError, "rows of density(s, 2) other than 2 (none for n = 0)"},
        {kAccessorError, "density rows with lo > hi, a share outside [0, 1] or outside its interval"},
        {kAccessorError, "density's shares do not add up to 1"},
        {kNonFinite, "non-finite frequencies of density(s, 2)"}}},
  };
}

// A protocol is used: 12 encoded reports of values are all counted by range_agg under
// it, and the summary decodes (HaarHRR's encoder and aggregate, or Square Wave's; the
// other mechanism's refuse it with 22023).
std::vector<Query> protocol_queries(const std::string& s, const std::string&) {
  return {{"SELECT 12 - ldp.report_count(x)::float8, (ldp.quantile(x, 0.5)).value, (ldp.cdf(x, 1)).frequency "
           "FROM (SELECT ldp.range_agg(e.level, e.hadamard_row, e.report, " + s + ") x "
           "FROM generate_series(1, 12) i, ldp.range_encode(i * 0.75 - 2, " + s + ", i) e) q",
           {{kAccessorError, "reports of range_encode(value, p) that range_agg(..., p) does not count"}}},
          {"SELECT 12 - ldp.report_count(x)::float8, (SELECT sum(frequency) FROM ldp.density(x, 1, 2)) "
           "FROM (SELECT ldp.range_agg(ldp.sw_encode(i * 0.75 - 2, " + s + ", i), " + s + ") x "
           "FROM generate_series(1, 12) i) q",
           {{kAccessorError, "reports of sw_encode(value, p) that range_agg(report, p) does not count"}}}};
}

// A field of the state's text form (the integer after ",<key>="), else `otherwise`.
long form_field(const std::string& form, const char* key, long otherwise) {
  const std::string k = std::string(",") + key + "=";
  const size_t at = form.find(k);
  return at == std::string::npos ? otherwise : std::atol(form.c_str() + at + k.size());
}

// range_trans: reports that fit the state (the levels and rows of its mechanism's tree:
// haar's levels [0, k) of 2^level rows, hh's [1, h] of 2^bits(level)), and now and then
// one that does not (out of the tree: 22000), an all-NULL report (skipped), a partly NULL
// one (22004), another protocol (22023), or the state's protocol as a per-row value
// instead of a constant of the query (the general path on every row).
Reports range_reports(const StateParams& p) {
  const long k = form_field(p.form, "domain_bits", 3);
  if (k < 1 || k > 12) return {};
  const bool hh = p.form.rfind("v1:hh{", 0) == 0;
  const long step = form_field(p.form, "branching", 4) == 2 ? 1 : 2;
  const long h = hh ? (k + step - 1) / step : k, first = hh ? 1 : 0, last = first + h - 1;
  auto rows = [&](long level) { return 1L << (hh ? k - (last - level) * step : level); };
  auto row = [](long a, long b, const char* c) {
    return "(" + std::to_string(a) + ", " + std::to_string(b) + ", " + c + ")";
  };
  std::string out = row(first, 0, "true") + ", " + row(last, rows(last) - 1, "false") + ", " +
                    row(first + h / 2, 0, "true");
  std::string protocol = p.protocol;
  switch (p.variant % 8) {
    case 0: {
      const std::string odd[] = {row(last + 1, 0, "true"), row(first - 1, 0, "true"), row(first, rows(first), "true"),
                                 row(last, rows(last), "false"), row(first + h / 2, -1, "true"),
                                 row(-2147483648L, 0, "true")};
      out += ", " + odd[(p.variant / 8) % LDP_FUZZ_COUNT(odd)];
      break;
    }
    case 1: out += ", (NULL, NULL, NULL)"; break;
    case 2: out += ", (" + std::to_string(first) + ", NULL, true)"; break;
    case 3: protocol = hh ? "ldp.range_protocol(1, 2)" : "ldp.range_protocol(1, 2, 'hh')"; break;
    case 4: protocol = "(SELECT " + p.protocol + " WHERE v.a IS NOT NULL)"; break;
    default: break;
  }
  return {out, "v(a, b, c)", "v.a, v.b::bigint, v.c, " + protocol};
}

// range_sw_trans: reports in the wave's range (its ends and the middle; w < 1/2), and now and
// then one outside it or NaN (22000), a NULL one (skipped), another protocol (22023), or
// the state's protocol as a per-row value.
Reports sw_reports(const StateParams& p) {
  std::string rows = "(0.5::float8), (0.0), (1.0), (0.25)";
  std::string protocol = p.protocol;
  switch (p.variant % 8) {
    case 0: {
      const char* const odd[] = {"('NaN')", "(2.0)", "(-1.0)", "('Infinity')", "(-1e300)"};
      rows += std::string(", ") + odd[(p.variant / 8) % LDP_FUZZ_COUNT(odd)];
      break;
    }
    case 1: rows += ", (NULL)"; break;
    case 3: protocol = "ldp.range_protocol(1, 2, 'sw')"; break;
    case 4: protocol = "(SELECT " + p.protocol + " WHERE v.y IS NOT NULL)"; break;
    default: break;
  }
  return {rows, "v(y)", "v.y, " + protocol};
}

const TransFn kRangeTransFns[] = {
    {"range_trans", "haar", "int, bigint, boolean, ldp.range_protocol", "range_agg", range_reports},
    {"range_trans", "hh", "int, bigint, boolean, ldp.range_protocol", "range_agg", range_reports},
    {"range_sw_trans", "sw", "float8, ldp.range_protocol", "range_agg", sw_reports},
};

}  // namespace

const Family kRangeFamily = {"range", "ldp.range_summary", "ldp.range_summary_send", kRangeSeeds,
                             LDP_FUZZ_COUNT(kRangeSeeds), range_queries, kRangeTransFns,
                             LDP_FUZZ_COUNT(kRangeTransFns), true, range_layout};
const Family kRangeProtocolFamily = {"range_protocol", "ldp.range_protocol", "ldp.range_protocol_send",
                                     kRangeProtocolSeeds, LDP_FUZZ_COUNT(kRangeProtocolSeeds), protocol_queries,
                                     nullptr, 0, false, protocol_layout};

}  // namespace ldp_fuzz
