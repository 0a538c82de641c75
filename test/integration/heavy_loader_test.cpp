// Tests of the heavy-hitters loader (src/tools/heavy/heavy_population.*, common/pg_load.hpp), the code
// behind `ldp_load --mechanism treehist|bitstogram|pem|sfp`: the protocol, the words it skips, the COPY
// text, the truth and the truth file without a server (HeavyLoaderOffline), then loads
// into a server and ldp.treehist_agg / ldp.heavy_hitters on what was loaded
// (HeavyLoaderDb: connects with the libpq environment that the test script sets; the
// checks against the aggregates are skipped, with a message, only when the server lacks
// the extension). Small populations: a word file written here (three heavy words and
// a filler of two-letter words), the bundled top 1000, and Zipf integer ids.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "freq_loader_support.hpp"
#include "tools/heavy/heavy_load.hpp"
#include "tools/common/pg_load.hpp"
#include "table_db_test.hpp"

using namespace ldp::tools;
using namespace ldp::tools::testing;

namespace {

// "the" 40%, "of" 25%, "and" 15%, and 20% spread over the other two-letter words.
std::string heavy_words_file() {
  std::string s = "word\tcount\nthe\t40000\nof\t25000\nand\t15000\n";
  for (char a = 'a'; a <= 'z'; ++a)
    for (char b = 'a'; b <= 'z'; ++b)
      if (!(a == 'o' && b == 'f')) s += std::string{a, b} + "\t" + std::to_string(20000 / 675) + "\n";
  return s;
}

HeavyLoadSpec word_spec(const std::string& path, int64_t users, uint64_t seed,
                        ldp::HeavyMechanism m = ldp::HeavyMechanism::TreeHist) {
  return heavy_words_spec(m, path, users, seed);
}

HeavyLoadSpec zipf_spec(double exponent, int64_t k, int64_t users, uint64_t seed,
                        ldp::HeavyMechanism m = ldp::HeavyMechanism::TreeHist) {
  HeavyLoadSpec s = heavy_words_spec(m, "", users, seed);  // no words: Zipf ids
  s.zipf_s = exponent;
  s.k = k;
  return s;
}

std::string generate_heavy_text(const HeavyLoadSpec& spec, HeavyLoadResult* result = nullptr) {
  std::string all;
  HeavyLoadResult r = generate_heavy_reports(spec, [&all](std::string& lines) { all += lines; }, {}, 4096);
  if (result) *result = std::move(r);
  return all;
}

// Decodes COPY text the way the aggregate reads the table, checking every field.
LocalHeavy decode_heavy_text(const HeavyLoadSpec& s, const ldp::HeavyProtocol& p, const std::string& text) {
  LocalHeavy sum(p);
  int64_t uid = s.first_user_id;
  for (const auto& f : parse_lines(text)) {
    EXPECT_EQ(f.size(), 7u);
    if (f.size() != 7) continue;
    EXPECT_EQ(std::stoll(f[0]), uid++);
    EXPECT_EQ(f[1], "1");
    const int64_t level = std::stoll(f[2]), j = std::stoll(f[3]), r = std::stoll(f[4]);
    EXPECT_TRUE(level >= 1 && level <= p.levels) << level;
    EXPECT_TRUE(j >= 0 && j < p.hashes) << j;
    EXPECT_TRUE(r >= 0 && r < p.width) << r;
    EXPECT_TRUE((f[5] == "t" || f[5] == "f") && (f[6] == "t" || f[6] == "f")) << f[5] << f[6];
    ldp::heavy_add_report(sum.get(), {level, j, r, f[5] == "t", f[6] == "t"});
  }
  return sum;
}

void expect_refused(const HeavyLoadSpec& s, const char* what) {
  try {
    validate_spec(s);
    ADD_FAILURE() << "accepted: " << what;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Without a server

TEST(HeavyLoaderOffline, BuildsTheProtocolAsTheSqlBuildersDo) {
  const ldp::HeavyProtocol p = validate_spec(word_spec(kWords, 1000000, 1));
  EXPECT_EQ(ldp::heavy_protocol_to_text(p),
            "v1:treehist{epsilon=2,domain=alphabet,alphabet=\"abcdefghijklmnopqrstuvwxyz\",max_length=6,"
            "chars_per_level=2,levels=3,hashes=128,width=1024,expected_users=1000000}");
  HeavyLoadSpec given = word_spec(kWords, 1000, 1);
  given.expected_users = 1000000;  // the protocol's users, not the simulated ones
  given.alphabet = "abc";
  given.max_length = 4;
  given.chars_per_level = 1;
  given.hashes = 16;
  given.width = 256;
  const ldp::HeavyProtocol q = validate_spec(given);
  EXPECT_EQ(q.alphabet_view(), "abc");
  EXPECT_EQ(q.levels, 4);
  EXPECT_EQ(q.hashes, 16);
  EXPECT_EQ(q.expected_users, 1000000);
  HeavyLoadSpec bytes = word_spec(kWords, 1000, 1);
  bytes.bytes_domain = true;
  EXPECT_EQ(validate_spec(bytes).dom(), ldp::HeavyDomain::Bytes);
  const ldp::HeavyProtocol ints = validate_spec(zipf_spec(1.1, 100, 1000000, 1));
  EXPECT_EQ(ints.dom(), ldp::HeavyDomain::Int64);
  EXPECT_EQ(ints.levels, 8);

  HeavyLoadSpec bad = word_spec(kWords, 1000, 1);
  bad.epsilon = 0;
  expect_refused(bad, "(--epsilon");
  bad = word_spec(kWords, 1000, 1);
  bad.width = 1000;
  expect_refused(bad, "--width");
  bad.width = 0;
  bad.bytes_domain = true;
  bad.alphabet = "ab";
  expect_refused(bad, "either --alphabet or --bytes");
  expect_refused(word_spec(kWords, 0, 1), "--users");
  HeavyLoadSpec nothing = word_spec("", 10, 1);
  expect_refused(nothing, "--words FILE");
  HeavyLoadSpec ints_with_alphabet = zipf_spec(1.1, 100, 10, 1);
  ints_with_alphabet.alphabet = "ab";
  expect_refused(ints_with_alphabet, "not to integer ids");
  expect_refused(zipf_spec(1.1, 0, 10, 1), "--k");
}

TEST(HeavyLoaderOffline, SkipsAndCountsTheWordsTheProtocolCannotEncode) {
  TempFile f("word\tcount\nthe\t10\nThe\t5\nI\t7\ntoolongword\t3\nna\xC3\xAFve\t2\n");
  HeavyLoadSpec s = word_spec(f.path, 100, 1);
  HeavyWords w = read_heavy_words(s, validate_spec(s));
  EXPECT_EQ(w.in_file, 5);
  EXPECT_EQ(w.words, std::vector<std::string>{"the"});
  EXPECT_EQ(w.skipped, 4);
  EXPECT_NEAR(w.skipped_share, 17.0 / 27.0, 1e-12);
  ASSERT_EQ(w.skipped_examples.size(), 3u);
  EXPECT_EQ(w.skipped_examples[0].rfind("'I': ", 0), 0u) << w.skipped_examples[0];  // most frequent first
  // lowercase: "The" adds to "the", "I" becomes "i"
  s.lowercase = true;
  w = read_heavy_words(s, validate_spec(s));
  EXPECT_EQ(w.words, (std::vector<std::string>{"the", "i"}));
  EXPECT_EQ(w.counts, (std::vector<int64_t>{15, 7}));
  EXPECT_EQ(w.folded, 1);
  EXPECT_EQ(w.skipped, 2);
  // any UTF-8 of at most 6 bytes
  s.lowercase = false;
  s.bytes_domain = true;
  w = read_heavy_words(s, validate_spec(s));
  EXPECT_EQ(w.words, (std::vector<std::string>{"the", "I", "The", "na\xC3\xAFve"}));
  EXPECT_EQ(w.skipped, 1);
  // nothing left to draw
  TempFile none("word\tcount\nHELLO\t3\n");
  HeavyLoadSpec n = word_spec(none.path, 10, 1);
  EXPECT_THROW(read_heavy_words(n, validate_spec(n)), UsageError);
  // the bundled top 1000 at the default alphabet: "I" and the words with capitals or
  // apostrophes, and those longer than 6 letters, are skipped
  HeavyLoadSpec top = word_spec(kWords, 10, 1);
  w = read_heavy_words(top, validate_spec(top));
  EXPECT_EQ(w.in_file, 1000);
  EXPECT_GT(w.skipped, 0);
  EXPECT_EQ(static_cast<int64_t>(w.words.size()) + w.skipped, 1000);
  EXPECT_EQ(w.words[0], "you");
  EXPECT_EQ(std::find(w.words.begin(), w.words.end(), "I"), w.words.end());
}

TEST(HeavyLoaderOffline, CopyTextDecodesToTheLocalSummary) {
  TempFile f(heavy_words_file());
  for (const HeavyLoadSpec& base : {word_spec(f.path, 3000, 31), zipf_spec(1.2, 500, 3000, 32)}) {
    SCOPED_TRACE(base.integers() ? "zipf ids" : "words");
    HeavyLoadSpec s = base;
    s.first_user_id = 11;
    HeavyLoadResult r;
    const std::string text = generate_heavy_text(s, &r);
    ASSERT_TRUE(r.local);
    EXPECT_EQ((*r.local)->n, 3000);
    EXPECT_EQ(r.truth.reports, 3000);
    int64_t total = 0;
    for (int64_t n : r.truth.true_counts) total += n;
    EXPECT_EQ(total, 3000);
    EXPECT_EQ(r.truth.true_counts.size(), r.items.size());
    EXPECT_EQ(decode_heavy_text(s, r.protocol, text).text(), r.local->text());
    // reproducible; the same seed draws the same items whatever the protocol
    HeavyLoadResult again;
    EXPECT_EQ(generate_heavy_text(s, &again), text);
    HeavyLoadSpec other = s;
    other.hashes = 8;
    other.width = 64;
    other.epsilon = 1;
    other.local_decode = false;
    HeavyLoadResult o;
    generate_heavy_text(other, &o);
    EXPECT_EQ(o.truth.true_counts, r.truth.true_counts);
    EXPECT_FALSE(o.local);
  }
}

TEST(HeavyLoaderOffline, ZipfIdsAndTheTruthFile) {
  HeavyLoadSpec s = zipf_spec(1.5, 1000, 20000, 33);
  std::set<int64_t> ids;
  for (int64_t i = 0; i < 1000; ++i) ids.insert(heavy_zipf_id(s, i));
  EXPECT_EQ(ids.size(), 1000u);
  EXPECT_LT(*ids.begin(), 0);  // spread over the whole range
  s.scrambled_ids = false;
  EXPECT_EQ(heavy_zipf_id(s, 0), 1);
  EXPECT_EQ(heavy_zipf_id(s, 999), 1000);
  HeavyLoadResult r;
  generate_heavy_text(s, &r);
  // rank 0 is the most frequent: about 1/zeta(1.5) of the users
  EXPECT_EQ(r.truth.top_items(1)[0], 0);
  EXPECT_EQ(r.items[0], "1");
  TempFile truth;
  write_truth_file(truth.path, r.items, r.truth);
  std::vector<WordCount> back = read_word_counts(truth.path);
  int64_t total = 0;
  for (const WordCount& w : back) {
    EXPECT_GT(w.count, 0);
    total += w.count;
    EXPECT_EQ(r.truth.true_counts[static_cast<size_t>(std::stoll(w.word) - 1)], w.count) << w.word;
  }
  EXPECT_EQ(total, 20000);
  EXPECT_EQ(back[0].word, "1");
  std::ifstream in(truth.path);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "item\tcount");
}

// PEM, SFP and Bitstogram: the COPY rows (heavy_report_columns' order) re-read into a
// summary are the local one, for words and Zipf ids; the protocol is
// ldp.<mechanism>_protocol's.
TEST(HeavyLoaderOffline, PemSfpAndBitstogramCopyTextDecodesToTheLocalSummary) {
  TempFile f(heavy_words_file());
  for (ldp::HeavyMechanism m :
       {ldp::HeavyMechanism::PEM, ldp::HeavyMechanism::SFP, ldp::HeavyMechanism::Bitstogram})
    for (const HeavyLoadSpec& s : {word_spec(f.path, 3000, 35, m), zipf_spec(1.2, 500, 3000, 36, m)}) {
      SCOPED_TRACE(std::string(ldp::heavy_mechanism_name(m)) + (s.integers() ? ", zipf ids" : ", words"));
      HeavyLoadResult r;
      const std::string text = generate_heavy_text(s, &r);
      ASSERT_TRUE(r.local);
      EXPECT_EQ(r.protocol.mech(), m);
      EXPECT_EQ(r.protocol.dom(), s.integers() ? ldp::HeavyDomain::Int64 : ldp::HeavyDomain::Alphabet);
      EXPECT_EQ(r.protocol.levels, s.integers()                         ? 8
                                   : m == ldp::HeavyMechanism::PEM        ? 2
                                   : m == ldp::HeavyMechanism::Bitstogram ? 6
                                                                          : 3);
      const size_t fields = 2 + heavy_report_columns(m).size();
      LocalHeavy back(r.protocol);
      int64_t uid = s.first_user_id;
      for (const auto& row : parse_lines(text)) {
        ASSERT_EQ(row.size(), fields);
        EXPECT_EQ(std::stoll(row[0]), uid++);
        EXPECT_EQ(row[1], "1");
        if (m == ldp::HeavyMechanism::PEM)
          ldp::pem_add_report(back.get(), {std::stoll(row[2]), std::stoll(row[3]), std::stoll(row[4]), row[5] == "t"});
        else if (m == ldp::HeavyMechanism::Bitstogram)
          ldp::bitstogram_add_report(back.get(), {std::stoll(row[2]), std::stoll(row[3]), row[4] == "t",
                                                  std::stoll(row[5]), std::stoll(row[6]), row[7] == "t"});
        else
          ldp::sfp_add_report(back.get(), {std::stoll(row[2]), std::stoll(row[3]), std::stoll(row[4]), row[5] == "t",
                                           std::stoll(row[6]), std::stoll(row[7]), row[8] == "t"});
      }
      EXPECT_EQ(uid, s.first_user_id + 3000);
      EXPECT_EQ(back.text(), r.local->text());
      // the same seed draws the same items whatever the mechanism
      HeavyLoadSpec th = s;
      th.mechanism = ldp::HeavyMechanism::TreeHist;
      HeavyLoadResult o;
      generate_heavy_text(th, &o);
      EXPECT_EQ(o.truth.true_counts, r.truth.true_counts);
    }
  HeavyLoadSpec bad = word_spec(f.path, 10, 1);
  bad.start_length = 1;
  expect_refused(bad, "--start-length applies to pem only");
  ldp::HeavyMechanism parsed{};
  EXPECT_TRUE(parse_heavy_mechanism("sfp", &parsed));
  EXPECT_EQ(parsed, ldp::HeavyMechanism::SFP);
  EXPECT_TRUE(parse_heavy_mechanism("bitstogram", &parsed));
  EXPECT_EQ(parsed, ldp::HeavyMechanism::Bitstogram);
  EXPECT_FALSE(parse_heavy_mechanism("rappor", &parsed));
  EXPECT_FALSE(parse_heavy_mechanism("bitstogram2", &parsed));
  // Bitstogram's defaults are ldp.bitstogram_protocol(2, 1000000)'s (expected/heavy_bitstogram.out)
  const ldp::HeavyMechanism bits = ldp::HeavyMechanism::Bitstogram;
  EXPECT_EQ(ldp::heavy_protocol_to_text(validate_spec(word_spec(f.path, 1000000, 1, bits))),
            "v1:bitstogram{epsilon=2,domain=alphabet,alphabet=\"abcdefghijklmnopqrstuvwxyz\",max_length=6,"
            "chars_per_level=1,levels=6,hashes=128,width=1024,buckets=4854,expected_users=1000000}");
  EXPECT_EQ(ldp::heavy_protocol_to_text(validate_spec(zipf_spec(1.1, 100, 1000000, 1, bits))),
            "v1:bitstogram{epsilon=2,domain=int64,max_length=8,chars_per_level=1,levels=8,hashes=256,width=2048,"
            "buckets=2047,expected_users=1000000}");
}

TEST(HeavyLoaderOffline, FormatsRowsAndTables) {
  std::string out;
  append_treehist_row(out, 7, {3, 12, 1023, true, false});
  append_treehist_row(out, 8, {1, 0, 0, false, true});
  EXPECT_EQ(out, "7\t1\t3\t12\t1023\tt\tf\n8\t1\t1\t0\t0\tf\tt\n");
  EXPECT_EQ(report_create_table_sql("\"t\"", heavy_report_columns()),
            "CREATE TABLE IF NOT EXISTS \"t\" (user_id bigint NOT NULL, round integer NOT NULL, "
            "\"level\" integer NOT NULL, \"hash_index\" integer NOT NULL, \"coefficient\" integer NOT NULL, "
            "\"prefix_report\" boolean NOT NULL, \"item_report\" boolean NOT NULL)");
  EXPECT_EQ(report_create_table_sql("\"b\"", heavy_report_columns(ldp::HeavyMechanism::Bitstogram)),
            "CREATE TABLE IF NOT EXISTS \"b\" (user_id bigint NOT NULL, round integer NOT NULL, "
            "\"coordinate\" integer NOT NULL, \"hadamard_row\" integer NOT NULL, "
            "\"symbol_report\" boolean NOT NULL, \"hash_index\" integer NOT NULL, \"coefficient\" integer NOT NULL, "
            "\"item_report\" boolean NOT NULL)");
}

// ---------------------------------------------------------------------------
// With a server

namespace {

// ldp.<mechanism>_agg over the loader's columns, up to the protocol argument
std::string heavy_agg(ldp::HeavyMechanism m) {
  std::string cols;
  for (const ReportColumn& c : heavy_report_columns(m)) cols += std::string(c.name) + ", ";
  return "ldp." + std::string(ldp::heavy_mechanism_name(m)) + "_agg(" + cols;
}

class HeavyLoaderDb : public TableDbTest {
 protected:
  HeavyLoaderDb() : TableDbTest("ldp_it_heavy_") {}
  // the aggregate over the loaded table, with the protocol's text form
  std::string summary(const HeavyLoadResult& r) {
    pqxx::nontransaction t(*conn_);
    return "(SELECT " + heavy_agg(r.protocol.mech()) + t.quote(ldp::heavy_protocol_to_text(r.protocol)) +
           "::ldp.heavy_protocol) FROM " + table_ + ")";
  }
  // the items ldp.heavy_hitters returns for the table
  std::set<std::string> found(const HeavyLoadResult& r) {
    std::set<std::string> out;
    for (const auto& row : query("SELECT item FROM ldp.heavy_hitters(" + summary(r) + ")"))
      out.insert(row[0].as<std::string>());
    return out;
  }
  // ldp.heavy_hitters of the table equals the local decoder's, item for item
  void expect_same_hitters(const HeavyLoadResult& r) {
    const ldp::HeavyHitters h = r.local->hitters();
    pqxx::result rows = query("SELECT item, frequency, count, std_error, ci_lower, ci_upper FROM ldp.heavy_hitters(" +
                              summary(r) + ")");
    ASSERT_EQ(rows.size(), h.items.size());
    for (size_t i = 0; i < h.items.size(); ++i) {
      SCOPED_TRACE(h.items[i].item);
      EXPECT_EQ(rows[i][0].as<std::string>(), h.items[i].item);
      EXPECT_EQ(rows[i][2].as<double>(), h.items[i].count);
      EXPECT_NEAR(rows[i][1].as<double>(), h.items[i].frequency, 1e-15);
      EXPECT_NEAR(rows[i][3].as<double>(), h.items[i].std_error, 1e-15);
      EXPECT_NEAR(rows[i][4].as<double>(), h.items[i].lower, 1e-12);
      EXPECT_NEAR(rows[i][5].as<double>(), h.items[i].upper, 1e-12);
    }
  }
};

}  // namespace

TEST_F(HeavyLoaderDb, CreatesTheDocumentedLayout) {
  TempFile f(heavy_words_file());
  HeavyLoadResult r = load_spec<HeavyLoad>(*conn_, word_spec(f.path, 500, 41), table_, false);
  EXPECT_GT(r.seconds, 0);
  pqxx::work t(*conn_);
  auto cols = table_columns(t, quote_table_name(table_));
  t.commit();
  const std::vector<std::pair<std::string, std::string>> want{
      {"user_id", "bigint"},          {"round", "integer"},         {"level", "integer"},
      {"hash_index", "integer"},      {"coefficient", "integer"},   {"prefix_report", "boolean"},
      {"item_report", "boolean"}};
  EXPECT_EQ(cols, want);
  EXPECT_EQ(count("SELECT count(DISTINCT user_id) FROM " + table_), 500);
  EXPECT_EQ(count("SELECT count(*) FROM " + table_ + " WHERE level NOT BETWEEN 1 AND " +
                  std::to_string(r.protocol.levels) + " OR hash_index NOT BETWEEN 0 AND " +
                  std::to_string(r.protocol.hashes - 1) + " OR coefficient NOT BETWEEN 0 AND " +
                  std::to_string(r.protocol.width - 1)),
            0);
  // an existing table of another shape is refused, and nothing is truncated
  drop();
  query("CREATE TABLE " + table_ + " (user_id bigint, round int, hash_index int, coefficient int, report boolean)");
  query("INSERT INTO " + table_ + " VALUES (1, 1, 0, 0, true)");
  try {
    load_spec<HeavyLoad>(*conn_, word_spec(f.path, 10, 42), table_, true);
    FAIL() << "loading treehist reports into an hcms table must fail";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("level integer"), std::string::npos) << e.what();
  }
  EXPECT_EQ(count("SELECT count(*) FROM " + table_), 1);
}

TEST_F(HeavyLoaderDb, HeavyHittersOfWordsAreTheLoadersAndTheTruths) {
  if (!need_extension())
    GTEST_SKIP() << "the ldp extension is not installed on the test server: the check of ldp.treehist_agg is skipped";
  TempFile f(heavy_words_file());
  HeavyLoadResult r = load_spec<HeavyLoad>(*conn_, word_spec(f.path, 50000, 43), table_, false);
  ASSERT_TRUE(r.local);
  // the protocol the loader printed is ldp.treehist_protocol's for the same arguments
  EXPECT_EQ(one_row("SELECT ldp.treehist_protocol(2, 50000)::text")[0].as<std::string>(),
            ldp::heavy_protocol_to_text(r.protocol));
  // the aggregate's counters are the loader's, bit for bit
  EXPECT_EQ(one_row("SELECT " + summary(r) + "::text")[0].as<std::string>(), r.local->text());
  expect_same_hitters(r);
  // the three heavy words and nothing else (each is 7 sigma or more above tau)
  EXPECT_EQ(found(r), (std::set<std::string>{"the", "of", "and"}));
  const HeavyQuality q = heavy_quality(r, r.local->hitters());
  EXPECT_EQ(q.true_heavy, 3);
  EXPECT_EQ(q.recall, 1);
  EXPECT_EQ(q.precision, 1);
  EXPECT_EQ(one_row("SELECT ldp.heavy_threshold(" + summary(r) + ")")[0].as<double>(), 15 * std::sqrt(50000.0));
}

TEST_F(HeavyLoaderDb, ZipfIdsAndParallelPlans) {
  if (!need_extension()) GTEST_SKIP() << "the ldp extension is not installed on the test server: skipped";
  HeavyLoadResult r = load_spec<HeavyLoad>(*conn_, zipf_spec(2, 50, 50000, 44), table_, false);
  EXPECT_EQ(one_row("SELECT ldp.treehist_int8_protocol(2, 50000)::text")[0].as<std::string>(),
            ldp::heavy_protocol_to_text(r.protocol));
  const std::string serial = one_row("SELECT " + summary(r) + "::text")[0].as<std::string>();
  EXPECT_EQ(serial, r.local->text());
  expect_same_hitters(r);
  // rank 0 (about 61% of the users) is found, under its scrambled id
  const std::string top = r.items[0];
  EXPECT_EQ(count("SELECT count(*) FROM ldp.heavy_hitters(" + summary(r) + ") WHERE item = '" + top + "'"), 1);
  {
    pqxx::nontransaction t(*conn_);
    t.exec0("SET max_parallel_workers_per_gather = 2");
    t.exec0("SET parallel_setup_cost = 0");
    t.exec0("SET parallel_tuple_cost = 0");
    t.exec0("SET min_parallel_table_scan_size = 0");
    t.exec0("SET force_parallel_mode = on");
  }
  std::string plan;
  for (const auto& row : query("EXPLAIN SELECT " + summary(r)))
    plan += row[0].as<std::string>() + "\n";
  EXPECT_NE(plan.find("Partial Aggregate"), std::string::npos) << plan;
  EXPECT_EQ(one_row("SELECT " + summary(r) + "::text")[0].as<std::string>(), serial);
}

TEST_F(HeavyLoaderDb, PemSfpAndBitstogramHeavyHittersAreTheLoaders) {
  if (!need_extension()) GTEST_SKIP() << "the ldp extension is not installed on the test server: skipped";
  TempFile f(heavy_words_file());
  for (ldp::HeavyMechanism m :
       {ldp::HeavyMechanism::PEM, ldp::HeavyMechanism::SFP, ldp::HeavyMechanism::Bitstogram}) {
    const std::string name = ldp::heavy_mechanism_name(m);
    SCOPED_TRACE(name);
    HeavyLoadResult r = load_spec<HeavyLoad>(*conn_, word_spec(f.path, 50000, 45, m), table_, true);
    ASSERT_TRUE(r.local);
    EXPECT_EQ(one_row("SELECT ldp." + name + "_protocol(2, 50000)::text")[0].as<std::string>(),
              ldp::heavy_protocol_to_text(r.protocol));
    EXPECT_EQ(one_row("SELECT " + summary(r) + "::text")[0].as<std::string>(), r.local->text());
    expect_same_hitters(r);
    EXPECT_EQ(found(r), (std::set<std::string>{"the", "of", "and"}));
    drop();
  }
  // Bitstogram's integer ids: ldp.bitstogram_int8_protocol's protocol, the same counters
  HeavyLoadResult ids = load_spec<HeavyLoad>(*conn_, zipf_spec(2, 50, 50000, 46, ldp::HeavyMechanism::Bitstogram),
                                           table_, true);
  EXPECT_EQ(one_row("SELECT ldp.bitstogram_int8_protocol(2, 50000)::text")[0].as<std::string>(),
            ldp::heavy_protocol_to_text(ids.protocol));
  EXPECT_EQ(one_row("SELECT " + summary(ids) + "::text")[0].as<std::string>(), ids.local->text());
  expect_same_hitters(ids);
  EXPECT_EQ(found(ids).count(ids.items[0]), 1u);  // rank 0, about 61% of the users
}
