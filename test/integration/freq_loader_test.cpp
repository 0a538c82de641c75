// Tests of the frequency-oracle loader (src/tools/freq/freq_population.*), the code behind
// `ldp_load --mechanism grr|sue|oue|dbitflip|olh|hadamard`, that need no server (the
// ones that do are in freq_loader_db_test.cpp). Populations come from
// test/data/subtlex_top1000.tsv (the 1000 most frequent words of SUBTLEX-US; see
// test/data/README.md), so the tests need nothing outside the checkout.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "freq_loader_support.hpp"

using namespace ldp::tools;
using namespace ldp::tools::testing;
using ldp::FreqMechanism;

TEST(FreqLoaderOffline, ParsesItemDistributions) {
  EXPECT_EQ(parse_item_distribution("uniform").kind, ItemDistribution::Kind::Uniform);
  ItemDistribution z = parse_item_distribution("zipf:1.1");
  EXPECT_EQ(z.kind, ItemDistribution::Kind::Zipf);
  EXPECT_EQ(z.s, 1.1);
  EXPECT_EQ(parse_item_distribution("constant:7").value, 7);
  ItemDistribution w = parse_item_distribution("words:/a:b/c.tsv");
  EXPECT_EQ(w.kind, ItemDistribution::Kind::Words);
  EXPECT_EQ(w.path, "/a:b/c.tsv");
  for (const char* bad : {"", "uniform:3", "uniform:0:10", "zipf", "zipf:", "zipf:0", "zipf:-1",
                          "zipf:x", "zipf:1:10", "constant", "constant:-1", "constant:1.5",
                          "constant:x", "words", "words:", "file:/x", "poisson:3"})
    EXPECT_THROW(parse_item_distribution(bad), UsageError) << bad;
}

TEST(FreqLoaderOffline, ReadsTheWordFixture) {
  std::vector<WordCount> words = read_word_counts(kWords);
  ASSERT_EQ(words.size(), 1000u);
  EXPECT_EQ(words[0].word, "you");
  EXPECT_EQ(words[0].count, 2134713);
  EXPECT_EQ(words[1].word, "I");
  for (size_t i = 1; i < words.size(); ++i) EXPECT_GE(words[i - 1].count, words[i].count);
}

TEST(FreqLoaderOffline, ReadsWordCountFiles) {
  char path[] = "/tmp/ldp_freq_loader_test_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  {
    std::ofstream f(path);  // a header, CRLF, a blank line, unsorted counts with a tie
    f << "word\tcount\r\nb\t5\n\nc\t9\r\nd\t5\ne\t0\na\t20\n";
  }
  std::vector<WordCount> w = read_word_counts(path);
  std::vector<std::string> order;
  for (const auto& x : w) order.push_back(x.word);
  EXPECT_EQ(order, (std::vector<std::string>{"a", "c", "b", "d", "e"}));  // ties keep file order
  EXPECT_EQ(w[0].count, 20);

  // k = 3: the top 3 words only; k = 8: items 5..7 have no word and are never drawn
  ItemPopulation top3(parse_item_distribution(std::string("words:") + path), 3);
  EXPECT_EQ(top3.words(), (std::vector<std::string>{"a", "c", "b"}));
  EXPECT_EQ(top3.words_in_file(), 5);
  EXPECT_DOUBLE_EQ(top3.top_k_share(), 34.0 / 39.0);
  ItemPopulation all(parse_item_distribution(std::string("words:") + path), 8);
  EXPECT_EQ(all.words().size(), 5u);
  ldp::SeededRandom rng(3);
  std::map<int64_t, int64_t> seen3, seen8;
  for (int i = 0; i < 39000; ++i) {
    ++seen3[top3.next(rng)];
    ++seen8[all.next(rng)];
  }
  EXPECT_EQ(seen3.size(), 3u);
  EXPECT_NEAR(seen3[0] / 39000.0, 20.0 / 34.0, 0.01);
  EXPECT_NEAR(seen3[2] / 39000.0, 5.0 / 34.0, 0.01);
  EXPECT_EQ(seen8.rbegin()->first, 3);  // "e" (count 0) and the items past the file never
  EXPECT_NEAR(seen8[3] / 39000.0, 5.0 / 39.0, 0.01);

  for (const char* bad : {"word\tcount\nyou\t12x\n", "you\t1\nme\n", "you\t1\tx\n",
                          "you\t-1\n", "word\tcount\n", "you\t0\n"}) {
    {
      std::ofstream f(path);
      f << bad;
    }
    EXPECT_THROW(ItemPopulation(parse_item_distribution(std::string("words:") + path), 4),
                 UsageError)
        << bad;
  }
  std::remove(path);
  EXPECT_THROW(read_word_counts(path), UsageError);  // missing file
}

TEST(FreqLoaderOffline, DrawsItemsInTheDomain) {
  ldp::SeededRandom rng(5);
  ItemPopulation z(parse_item_distribution("zipf:1.0"), 10);
  ItemPopulation u(parse_item_distribution("uniform"), 10);
  ItemPopulation c(parse_item_distribution("constant:9"), 10);
  std::vector<int64_t> zc(10), uc(10);
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    ++zc[static_cast<size_t>(z.next(rng))];
    ++uc[static_cast<size_t>(u.next(rng))];
    EXPECT_EQ(c.next(rng), 9);
  }
  double h10 = 0;
  for (int i = 1; i <= 10; ++i) h10 += 1.0 / i;
  for (int i = 0; i < 10; ++i) {
    EXPECT_NEAR(zc[i] / double(n), 1.0 / (i + 1) / h10, 0.006) << i;
    EXPECT_NEAR(uc[i] / double(n), 0.1, 0.006) << i;
  }
  EXPECT_THROW(ItemPopulation(parse_item_distribution("constant:10"), 10), UsageError);
}

TEST(FreqLoaderOffline, ValidatesSpecs) {
  FreqLoadSpec ok = make_spec(FreqMechanism::GRR, 1, 64, "uniform", 10, 1);
  EXPECT_NO_THROW(validate_spec(ok));
  auto refused = [](FreqLoadSpec s) {
    EXPECT_THROW(validate_spec(s), UsageError);
  };
  FreqLoadSpec s = ok;
  s.epsilon = 0;
  refused(s);
  s = ok;
  s.k = 1;
  refused(s);
  s = ok;
  s.d = 2;  // grr has no d
  refused(s);
  s = ok;
  s.memoize = true;  // dbitflip only
  refused(s);
  s = ok;
  s.users = 0;
  refused(s);
  FreqLoadSpec db = make_spec(FreqMechanism::DBitFlip, 1, 64, "uniform", 10, 1);
  refused(db);  // needs d
  db.d = 65;
  refused(db);
  db.d = 4;
  EXPECT_NO_THROW(validate_spec(db));
  db.rounds = 3;  // repeated collection needs memoization
  refused(db);
  db.memoize = true;
  EXPECT_NO_THROW(validate_spec(db));
  db.redraw = 1.5;
  refused(db);
  db.redraw = 0.2;
  EXPECT_NO_THROW(validate_spec(db));
  db.rounds = 1;  // redraw needs rounds
  refused(db);
  FreqLoadSpec had = make_spec(FreqMechanism::Hadamard, 1, ldp::kMaxDomain, "uniform", 10, 1);
  refused(had);  // K would exceed the largest domain
  had.k = ldp::kMaxDomain - 1;
  EXPECT_NO_THROW(validate_spec(had));
  FreqLoadSpec olh = make_spec(FreqMechanism::OLH, 16, 64, "uniform", 10, 1);
  refused(olh);  // g = round(e^16)+1 is too large
}

TEST(FreqLoaderOffline, FormatsRows) {
  std::string out;
  append_grr_row(out, 42, 3, 17);
  EXPECT_EQ(out, "42\t3\t17\n");
  out.clear();
  const uint8_t bytes[2] = {0xA5, 0xF0};  // 1010 0101 1111 0000
  append_unary_row(out, 1, 1, bytes, 12);  // k multiple of 4: hex
  append_unary_row(out, 1, 1, bytes, 16);
  append_unary_row(out, 1, 1, bytes, 10);  // else the 0/1 string
  append_unary_row(out, 1, 1, bytes, 3);
  EXPECT_EQ(out, "1\t1\tXA5F\n1\t1\tXA5F0\n1\t1\t1010010111\n1\t1\t101\n");
  out.clear();
  const int32_t buckets[3] = {5, 0, 63};
  const bool bits[3] = {true, false, true};
  append_dbitflip_row(out, 9000000000LL, 2, buckets, bits, 3);
  append_dbitflip_row(out, 7, 1, buckets, bits, 1);
  EXPECT_EQ(out, "9000000000\t2\t{5,0,63}\t{t,f,t}\n7\t1\t{5}\t{t}\n");
  out.clear();
  append_olh_row(out, 1, 1, 9223372036854775807LL, 4);
  append_hadamard_row(out, 2, 1, 127, false);
  append_hadamard_row(out, 3, 1, 0, true);
  EXPECT_EQ(out, "1\t1\t9223372036854775807\t4\n2\t1\t127\tf\n3\t1\t0\tt\n");
  EXPECT_EQ(report_create_table_sql("\"t\"", freq_report_columns(FreqMechanism::Hadamard)),
            "CREATE TABLE IF NOT EXISTS \"t\" (user_id bigint NOT NULL, round integer NOT NULL, "
            "\"row\" integer NOT NULL, \"report\" boolean NOT NULL)");
  EXPECT_EQ(report_copy_columns(freq_report_columns(FreqMechanism::DBitFlip)),
            (std::vector<std::string>{"\"user_id\"", "\"round\"", "\"buckets\"", "\"bits\""}));
}

// What the loader tallied is what its rows hold, for every mechanism (and both varbit
// text forms: k = 64 is sent in hex, k = 61 as a 0/1 string).
TEST(FreqLoaderOffline, RowsDecodeToTheLocalSummary) {
  for (const MechCase& c : all_mechanisms()) {
    for (int64_t k : {int64_t{64}, int64_t{61}}) {
      FreqLoadSpec s = make_spec(c.mechanism, 2, k, "words:" + kWords, 3000, 17, c.d);
      SCOPED_TRACE(std::string(freq_mechanism_name(c.mechanism)) + " k=" + std::to_string(k));
      FreqLoadResult r;
      std::string text = generate_text(s, &r);
      ASSERT_TRUE(r.total.local);
      EXPECT_EQ(r.total.reports, 3000);
      EXPECT_EQ((*r.total.local)->n, 3000);
      EXPECT_EQ(decode_text(s, text).text(), r.total.local->text());
      int64_t held = 0;
      for (int64_t t : r.total.true_counts) held += t;
      EXPECT_EQ(held, 3000);
      ASSERT_EQ(r.words.size(), static_cast<size_t>(k));
      EXPECT_EQ(r.words[0], "you");
      // the estimates are unbiased: every item within 5 standard errors of the truth
      auto est = local_frequencies(**r.total.local);
      ASSERT_EQ(est.size(), static_cast<size_t>(k));
      for (int64_t v = 0; v < k; ++v)
        EXPECT_NEAR(est[v].frequency, r.total.true_frequency(v), 5 * est[v].std_error) << v;
      auto rows = parse_lines(text);
      ASSERT_EQ(rows.size(), 3000u);
      EXPECT_EQ(rows.front()[0], "1");
      EXPECT_EQ(rows.back()[0], "3000");
    }
  }
}

TEST(FreqLoaderOffline, SeededGenerationIsReproducible) {
  FreqLoadSpec s = make_spec(FreqMechanism::OUE, 1, 64, "zipf:1.2", 2000, 99);
  FreqLoadResult r1, r2, r3;
  std::string t1 = generate_text(s, &r1);
  EXPECT_EQ(generate_text(s, &r2), t1);
  EXPECT_EQ(r1.total.local->text(), r2.total.local->text());
  // one seed, one population, whatever the mechanism
  FreqLoadSpec g = s;
  g.mechanism = FreqMechanism::GRR;
  generate_text(g, &r3);
  EXPECT_EQ(r1.total.true_counts, r3.total.true_counts);
  s.seed = 100;
  EXPECT_NE(generate_text(s), t1);
  // without a seed: the kernel's generator, different every time
  s.seed.reset();
  EXPECT_NE(generate_text(s), generate_text(s));
  // no local decoding on request
  s.local_decode = false;
  FreqLoadResult r4;
  generate_text(s, &r4);
  EXPECT_FALSE(r4.total.local);
  EXPECT_EQ(r4.total.reports, 2000);
}

TEST(FreqLoaderOffline, TopItemsAndLocalFrequencies) {
  FreqLoadSpec s = make_spec(FreqMechanism::GRR, 4, 16, "zipf:1.5", 20000, 8);
  FreqLoadResult r;
  generate_text(s, &r);
  auto top = r.total.top_items(5);
  ASSERT_EQ(top.size(), 5u);
  for (size_t i = 1; i < top.size(); ++i)
    EXPECT_GE(r.total.true_counts[top[i - 1]], r.total.true_counts[top[i]]);
  EXPECT_EQ(top[0], 0);
  EXPECT_EQ(r.total.top_items(100).size(), 16u);
  // the accessor's columns: count = n f, a 95% interval, consistency post-processing
  auto none = local_frequencies(**r.total.local);
  auto ns = local_frequencies(**r.total.local, ldp::Consistency::NormSub);
  double sum = 0;
  for (size_t v = 0; v < none.size(); ++v) {
    EXPECT_EQ(none[v].count, none[v].frequency * 20000);
    EXPECT_NEAR(none[v].ci_upper - none[v].frequency, 1.959963984540054 * none[v].std_error, 1e-15);
    EXPECT_GE(ns[v].frequency, 0);
    EXPECT_GE(ns[v].ci_lower, 0);
    sum += ns[v].frequency;
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
}

TEST(FreqLoaderOffline, MemoizedClientsRepeatTheirReports) {
  FreqLoadSpec s = make_spec(FreqMechanism::DBitFlip, 1, 64, "words:" + kWords, 1000, 11, 2);
  s.memoize = true;
  s.rounds = 4;
  FreqLoadResult r;
  auto rows = parse_lines(generate_text(s, &r));
  ASSERT_EQ(rows.size(), 4000u);
  // users keep their item: each user sends the same buckets and bits every round
  std::map<std::string, std::string> first;
  for (const auto& row : rows) {
    auto [it, inserted] = first.emplace(row[0], row[2] + row[3]);
    if (!inserted) {
      EXPECT_EQ(it->second, row[2] + row[3]) << "user " << row[0];
    }
  }
  ASSERT_EQ(r.rounds.size(), 4u);
  for (const FreqTally& t : r.rounds) {
    EXPECT_EQ(t.reports, 1000);
    EXPECT_EQ(t.true_counts, r.rounds[0].true_counts);
    EXPECT_EQ(t.local->text(), r.rounds[0].local->text());
  }
  EXPECT_EQ(r.total.reports, 4000);
  EXPECT_EQ((*r.total.local)->n, 4000);
  // with redrawn items the buckets stay, the truth moves
  s.redraw = 0.5;
  rows = parse_lines(generate_text(s, &r));
  std::map<std::string, std::string> buckets;
  for (const auto& row : rows) {
    auto [it, inserted] = buckets.emplace(row[0], row[2]);
    if (!inserted) {
      EXPECT_EQ(it->second, row[2]) << "user " << row[0];
    }
  }
  EXPECT_NE(r.rounds[1].true_counts, r.rounds[0].true_counts);
  int64_t total = 0;
  for (const FreqTally& t : r.rounds) total += (*t.local)->n;
  EXPECT_EQ(total, 4000);
}
