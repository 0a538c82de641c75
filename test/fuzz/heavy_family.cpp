// The heavy-hitters rows of ldp_summary_fuzz's families (fuzz_family.hpp): the summary
// (ldp.heavy_summary: seeds of every domain and counter widths of 1 and 2 bytes, the
// accessors and their agreements, treehist_trans and bitstogram_trans in user-defined
// aggregates with odd and out-of-range reports) and its protocol (ldp.heavy_protocol: a type of its own, no
// ldp.summary kind, whose forms are read back and then used by the encoder and the
// aggregate).
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_family.hpp"

namespace ldp_fuzz {

namespace {

#define LDP_FUZZ_COUNT(a) (sizeof(a) / sizeof *(a))

// Small protocols, so that a mutated form stays short and most of its counters are seen.
const char* const kHeavySeeds[][2] = {
    {"treehist abc 2x8", "SELECT ldp.treehist_agg(e.level, e.hash_index, e.coefficient, e.prefix_report, e.item_report, "
                         "ldp.treehist_protocol(2, 100, 'abc', 4, 2, 2, 8)) FROM generate_series(1, 30) i, "
                         "ldp.treehist_encode((ARRAY['ab', 'abca', 'c'])[1 + i % 3], "
                         "ldp.treehist_protocol(2, 100, 'abc', 4, 2, 2, 8), i) e"},
    {"treehist ab 1x2 n=1", "SELECT 'v1:treehist{epsilon=2,domain=alphabet,alphabet=\"ab\",max_length=2,chars_per_level=1,"
                            "levels=2,hashes=1,width=2,expected_users=10,n=1,prune=[1,0,0,0],final=[0,-1]}'"
                            "::ldp.heavy_summary"},
    {"treehist ab 1x2 n=400 (2-byte counters)",
     "SELECT ldp.treehist_agg(e.level, e.hash_index, e.coefficient, e.prefix_report, e.item_report, "
     "ldp.treehist_protocol(4, 400, 'ab', 1, 1, 1, 2)) FROM generate_series(1, 400) i, "
     "ldp.treehist_encode('a', ldp.treehist_protocol(4, 400, 'ab', 1, 1, 1, 2), i) e"},
    // enough reports of one item (ε = 8) that heavy_hitters finds it at the default
    // threshold (15 or 30 sqrt(n)), so that the checks against frequency() see items
    {"treehist abc 2x8 n=400 (a heavy hitter)",
     "SELECT ldp.treehist_agg(e.level, e.hash_index, e.coefficient, e.prefix_report, e.item_report, "
     "ldp.treehist_protocol(8, 400, 'abc', 4, 2, 2, 8)) FROM generate_series(1, 400) i, "
     "ldp.treehist_encode(CASE WHEN i % 10 = 0 THEN 'c' ELSE 'abca' END, ldp.treehist_protocol(8, 400, 'abc', 4, 2, 2, 8), i) e"},
    {"treehist bytes 2x16 n=1500", "SELECT ldp.treehist_agg(e.level, e.hash_index, e.coefficient, e.prefix_report, "
                                   "e.item_report, ldp.treehist_protocol(8, 1500, NULL, 3, NULL, 2, 16)) "
                                   "FROM generate_series(1, 1500) i, ldp.treehist_encode(CASE WHEN i % 10 = 0 THEN 'é' "
                                   "ELSE 'ok' END, ldp.treehist_protocol(8, 1500, NULL, 3, NULL, 2, 16), i) e"},
    {"treehist int64 2x16 n=1500", "SELECT ldp.treehist_agg(e.level, e.hash_index, e.coefficient, e.prefix_report, "
                                   "e.item_report, ldp.treehist_int8_protocol(8, 1500, 2, 16)) FROM generate_series(1, 1500) i, "
                                   "ldp.treehist_encode(CASE WHEN i % 10 = 0 THEN -1 ELSE 7 END::bigint, "
                                   "ldp.treehist_int8_protocol(8, 1500, 2, 16), i) e"},
    {"treehist escaped alphabet n=0",
     "SELECT 'v1:treehist{epsilon=1,domain=alphabet,alphabet=\"x\\\"é\\\\\",max_length=2,chars_per_level=1,levels=2,"
     "hashes=1,width=4,expected_users=10,n=0,prune=[0,0,0,0,0,0,0,0],final=[0,0,0,0]}'::ldp.heavy_summary"},
    {"bitstogram abc D=3 n=600 (heavy hitters)",
     "SELECT ldp.bitstogram_agg(e.coordinate, e.hadamard_row, e.symbol_report, e.hash_index, e.coefficient, "
     "e.item_report, ldp.bitstogram_protocol(8, 600, 'abc', 3, 1, 2, 8)) FROM generate_series(1, 600) i, "
     "ldp.bitstogram_encode(CASE WHEN i % 3 = 0 THEN 'c' ELSE 'abc' END, "
     "ldp.bitstogram_protocol(8, 600, 'abc', 3, 1, 2, 8), i) e"},
    {"bitstogram ab 2x4 n=1", "SELECT 'v1:bitstogram{epsilon=2,domain=alphabet,alphabet=\"ab\",max_length=2,"
                              "chars_per_level=1,levels=2,hashes=2,width=4,buckets=2,expected_users=10,n=1,"
                              "coordinates=[0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0],final=[0,0,0,0,0,0,0,-1]}'::ldp.heavy_summary"},
    {"bitstogram int64 n=1500", "SELECT ldp.bitstogram_agg(e.coordinate, e.hadamard_row, e.symbol_report, e.hash_index, "
                                "e.coefficient, e.item_report, ldp.bitstogram_int8_protocol(8, 1500, 2, 512)) "
                                "FROM generate_series(1, 1500) i, ldp.bitstogram_encode(CASE WHEN i % 10 = 0 THEN -1 "
                                "ELSE 7 END::bigint, ldp.bitstogram_int8_protocol(8, 1500, 2, 512), i) e"},
};

const char* const kProtocolSeeds[][2] = {
    {"protocol abc 2x8", "SELECT ldp.treehist_protocol(2, 100, 'abc', 4, 2, 2, 8)"},
    {"protocol bytes 2x4", "SELECT ldp.treehist_protocol(2, 100, NULL, 3, NULL, 2, 4)"},
    {"protocol int64 1x4", "SELECT ldp.treehist_int8_protocol(2, 100, 1, 4)"},
    {"protocol escaped alphabet", "SELECT ldp.treehist_protocol(1, 10, 'x\"é\\', 2, 1, 1, 4)"},
};

// The stored form: "LDPS", u8 format (3), u8 family, u8 mechanism, u8 domain, f64
// epsilon and six i64 fields (seven for bitstogram (2) and pem (3): buckets, start_length),
// u16 alphabet bytes and the alphabet, i64 n, then the counter width
// (src/core/heavy/heavy_internal.hpp).
void heavy_layout(const Bytes& b, size_t* fields_start, size_t* counter_width_at) {
  *fields_start = 8;
  const size_t a = b.size() > 6 && (b[6] == 2 || b[6] == 3) ? 72 : 64;  // the alphabet's length
  *counter_width_at = b.size() > a + 2 ? a + 2 + (size_t{b[a]} << 8 | b[a + 1]) + 8 : 0;
}
// ldp.heavy_protocol: u8 version, u8 mechanism, u8 domain, the fields from byte 3.
void protocol_layout(const Bytes&, size_t* fields_start, size_t* counter_width_at) {
  *fields_start = 3;
  *counter_width_at = 0;
}

// The heavy hitters of s with the default threshold (every returned item is one the
// protocol encodes), as `h` of a FROM clause.
std::string hitters(const std::string& s) { return "ldp.heavy_hitters(" + s + ") h"; }

std::vector<Query> heavy_queries(const std::string& s, const std::string& seed) {
  auto values = [](const char* p) {
    return "(" + nonfinite(std::string(p) + "frequency") + " + " + nonfinite(std::string(p) + "count") + " + " +
           nonfinite(std::string(p) + "std_error") + " + " + nonfinite(std::string(p) + "ci_lower") + " + " +
           nonfinite(std::string(p) + "ci_upper") + ")::float8";
  };
  // the first item s finds, or NULL
  const std::string first = "(SELECT h.item FROM " + hitters(s) + " LIMIT 1)";
  const std::string seed_first = "(SELECT h.item FROM " + hitters(seed) + " LIMIT 1)";
  return {
      {"SELECT ((ldp.protocol(s)::text)::ldp.heavy_protocol::text IS DISTINCT FROM ldp.protocol(s)::text)::int::float8, "
       "ldp.report_count(s)::float8, ldp.epsilon(s), ldp.heavy_threshold(s), length(ldp.mechanism(s))::float8 "
       "FROM (SELECT " + s + " s) q",
       {{kAccessorError, "protocol(s) does not read back as itself"}}},
      // heavy_hitters: each item once, at or above the default threshold, intervals around
      {"SELECT count(*) FILTER (WHERE h.item IS NULL OR NOT (h.std_error >= 0 AND h.ci_lower <= h.frequency "
       "AND h.frequency <= h.ci_upper))::float8, (count(*) - count(DISTINCT h.item))::float8, "
       "count(*) FILTER (WHERE h.count < ldp.heavy_threshold(q.s))::float8, " + values("h.") +
       " FROM (SELECT " + s + " s) q, " + hitters("q.s"),
       {{kAccessorError, "heavy hitters with a NULL item, a negative standard error or an interval not around them"},
        {kAccessorError, "heavy hitters returned twice"},
        {kAccessorError, "heavy hitters below the default threshold heavy_threshold(s)"},
        {kNonFinite, "non-finite values of heavy_hitters(s)"}}},
      // what heavy_hitters finds, frequency() and frequencies() estimate alike
      {"SELECT count(*) FILTER (WHERE ldp.frequency(q.s, h.item) IS DISTINCT FROM h.frequency)::float8, "
       "count(*) FILTER (WHERE (f.frequency, f.count, f.std_error) IS DISTINCT FROM (h.frequency, h.count, h.std_error))::float8 "
       "FROM (SELECT " + s + " s) q, ldp.heavy_hitters(q.s) WITH ORDINALITY h(item, frequency, count, std_error, lo, hi, o) "
       "LEFT JOIN ldp.frequencies(" + s + ", ARRAY(SELECT h.item FROM " + hitters(s) + ")) "
       "WITH ORDINALITY f(item, frequency, count, std_error, lo, hi, o) ON f.o = h.o",
       {{kAccessorError, "heavy hitters whose frequency(s, item) differs from heavy_hitters(s)"},
        {kAccessorError, "heavy hitters whose frequencies(s, items) row differs from heavy_hitters(s)"}}},
      // an int64 protocol's items as bigint: frequency(s, bigint) estimates as heavy_hitters
      {"SELECT count(*) FILTER (WHERE ldp.frequency(q.s, h.item::bigint) IS DISTINCT FROM h.frequency)::float8 "
       "FROM (SELECT " + s + " s) q, " + hitters("q.s") + " WHERE ldp.protocol(q.s)::text LIKE '%,domain=int64,%'",
       {{kAccessorError, "heavy hitters of an int64 summary whose frequency(s, item::bigint) differs"}}},
      // frequencies: one row per element (none for n = 0), NULL estimates for NULL
      {"SELECT count(*)::float8 - CASE WHEN ldp.report_count(" + s + ") = 0 THEN 0 ELSE 2 END, "
       "count(*) FILTER (WHERE (f.item IS NULL) <> (f.frequency IS NULL))::float8, " + values("f.") +
       " FROM ldp.frequencies(" + s + ", ARRAY[" + first + ", NULL]) f",
       {{kAccessorError, "rows of frequencies(s, 2 items) other than 2 (none for n = 0)"},
        {kAccessorError, "rows of frequencies(s, items) with NULL estimates for an item or estimates for NULL"},
        {kNonFinite, "non-finite values of frequencies(s, items)"}}},
      // rollup with itself: every counter and n doubled, each frequency exactly as it was
      {"SELECT (ldp.report_count(r) IS DISTINCT FROM 2 * ldp.report_count(s))::int::float8, "
       "(ldp.protocol(r)::text IS DISTINCT FROM ldp.protocol(s)::text)::int::float8, "
       "(SELECT count(*) FILTER (WHERE ldp.frequency(r, h.item) IS DISTINCT FROM h.frequency) FROM " + hitters("s") +
       ")::float8 FROM (SELECT ldp.rollup(x) r FROM (VALUES (" + s + "), (" + s + ")) v(x)) q, (SELECT " + s + " s) p",
       {{kAccessorError, "report_count(rollup(s, s)) is not twice report_count(s)"},
        {kAccessorError, "protocol(rollup(s, s)) is not protocol(s)"},
        {kAccessorError, "heavy hitters of s whose frequency in rollup(s, s) differs"}}},
      {"SELECT ldp.report_count(r)::float8, (SELECT count(*) FROM " + hitters("r") + ")::float8 "
       "FROM (SELECT ldp.rollup(x) r FROM (VALUES (" + s + "), (" + seed + ")) v(x)) q", {}},
      // frequency() answers from a table prepared once per query: never for another summary
      {"SELECT count(*) FILTER (WHERE ldp.frequency(x, i) IS DISTINCT FROM "
       "(SELECT f.frequency FROM ldp.frequencies(x, ARRAY[i]) f))::float8 "
       "FROM (VALUES (" + s + ", " + first + "), (" + seed + ", " + seed_first + "), (" + s + ", " + first + "), (" +
       seed + ", " + seed_first + ")) v(x, i)",
       {{kAccessorError, "rows where frequency(x, i) differs from frequencies(x, ARRAY[i]), the form and its seed alternating"}}},
  };
}

// A protocol is used: 12 encoded reports of an item (text, then bigint: one of the two
// is of the other kind, 22023) are all counted by treehist_agg under it, and the
// summary decodes.
std::vector<Query> protocol_queries(const std::string& s, const std::string&) {
  std::vector<Query> q;
  for (const char* item : {"''::text", "'a'::text", "5::bigint"})
    q.push_back({"SELECT 12 - ldp.report_count(x)::float8, (SELECT count(*) FROM " + hitters("x") + ")::float8, "
                 "ldp.heavy_threshold(x) FROM (SELECT ldp.treehist_agg(e.level, e.hash_index, e.coefficient, "
                 "e.prefix_report, e.item_report, " + s + ") x FROM generate_series(1, 12) i, ldp.treehist_encode(" +
                 item + ", " + s + ", i) e) q",
                 {{kAccessorError, "reports of treehist_encode(item, p) that treehist_agg(..., p) does not count"}}});
  return q;
}

// treehist_trans: reports that fit the state (levels, hashes, width), and now and then
// one that does not (out of range: 22000), an all-NULL report (skipped), a partly NULL
// one (22004), another protocol (22023), or the state's protocol as a per-row value
// instead of a constant of the query (the general path on every row).
Reports treehist_reports(const StateParams& p) {
  const long L = p.levels, H = p.hashes, W = p.width;
  if (L < 1 || L > 64 || H < 1 || H > 4096 || W < 2 || W > 4096 || (L + 1) * H * W > (1L << 16)) return {};
  auto row = [](long a, long b, long c, const char* d, const char* e) {
    return "(" + std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c) + ", " + d + ", " + e + ")";
  };
  std::string rows = "(1, 0, 0, true, false), " + row(L, H - 1, W - 1, "false", "true") + ", (1, 0, 1, true, true)";
  std::string protocol = p.protocol;
  switch (p.variant % 8) {
    case 0: {
      const std::string odd[] = {row(0, 0, 0, "true", "true"), row(L + 1, 0, 0, "true", "true"),
                                 row(1, H, 0, "false", "true"), row(1, 0, W, "true", "false"),
                                 row(1, -1, 0, "true", "true"), row(1, 0, -1, "true", "true"),
                                 row(-2147483648L, 0, 0, "true", "true")};
      rows += ", " + odd[(p.variant / 8) % LDP_FUZZ_COUNT(odd)];
      break;
    }
    case 1: rows += ", (NULL, NULL, NULL, NULL, NULL)"; break;
    case 2: rows += ", (1, NULL, 0, true, true)"; break;
    case 3: protocol = "ldp.treehist_protocol(2, 100, 'ab', 2, 1, 1, 2)"; break;
    case 4: protocol = "(SELECT " + p.protocol + " WHERE v.a IS NOT NULL)"; break;
    default: break;
  }
  return {rows, "v(a, b, c, d, e)", "v.a, v.b, v.c, v.d, v.e, " + protocol};
}

// bitstogram_trans: reports that fit the state (coordinates = levels, Hadamard rows in
// [0, hashes·width), hashes, width), now and then one that does not, or NULL ones.
Reports bitstogram_reports(const StateParams& p) {
  const long L = p.levels, H = p.hashes, W = p.width;
  if (L < 1 || L > 64 || H < 1 || H > 4096 || W < 2 || W > 4096 || (L + 1) * H * W > (1L << 16)) return {};
  auto row = [](long a, long b, const char* c, long d, long e, const char* f) {
    return "(" + std::to_string(a) + ", " + std::to_string(b) + ", " + c + ", " + std::to_string(d) + ", " +
           std::to_string(e) + ", " + f + ")";
  };
  std::string rows = row(1, 0, "true", 0, 0, "false") + ", " + row(L, H * W - 1, "false", H - 1, W - 1, "true");
  std::string protocol = p.protocol;
  switch (p.variant % 6) {
    case 0: {
      const std::string odd[] = {row(0, 0, "true", 0, 0, "true"), row(L + 1, 0, "true", 0, 0, "true"),
                                 row(1, H * W, "true", 0, 0, "true"), row(1, -1, "true", 0, 0, "true"),
                                 row(1, 0, "true", H, 0, "true"), row(1, 0, "true", 0, W, "true")};
      rows += ", " + odd[(p.variant / 6) % LDP_FUZZ_COUNT(odd)];
      break;
    }
    case 1: rows += ", (NULL, NULL, NULL, NULL, NULL, NULL)"; break;
    case 2: rows += ", (1, NULL, true, 0, 0, true)"; break;
    case 3: protocol = "(SELECT " + p.protocol + " WHERE v.a IS NOT NULL)"; break;
    default: break;
  }
  return {rows, "v(a, b, c, d, e, f)", "v.a, v.b, v.c, v.d, v.e, v.f, " + protocol};
}

const TransFn kHeavyTransFns[] = {
    {"treehist_trans", "treehist", "int, int, int, boolean, boolean, ldp.heavy_protocol", "treehist_agg",
     treehist_reports},
    {"bitstogram_trans", "bitstogram", "int, int, boolean, int, int, boolean, ldp.heavy_protocol", "bitstogram_agg",
     bitstogram_reports},
};

}  // namespace

const Family kHeavyFamily = {"heavy", "ldp.heavy_summary", "ldp.heavy_summary_send", kHeavySeeds,
                             LDP_FUZZ_COUNT(kHeavySeeds), heavy_queries, kHeavyTransFns,
                             LDP_FUZZ_COUNT(kHeavyTransFns), true, heavy_layout};
const Family kHeavyProtocolFamily = {"heavy_protocol", "ldp.heavy_protocol", "ldp.heavy_protocol_send",
                                     kProtocolSeeds, LDP_FUZZ_COUNT(kProtocolSeeds), protocol_queries, nullptr, 0,
                                     false, protocol_layout};

}  // namespace ldp_fuzz
