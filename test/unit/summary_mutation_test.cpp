// Anything stored in a table: the text and binary parsers of every summary type
// (mean, frequency, sketch, range) fed hundreds of thousands of mutations of valid forms
// (seeded, deterministic).
// Every input must either be refused with InvalidText / InvalidBinary, or give a
// summary that passes the in-memory check, decodes without trouble and writes
// out a form that reads back as the same summary. Run under the sanitizers by
// test/run.sh (LDP_SANITIZE build), where a stray read or overflow fails too.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/freq/freq_summary.hpp"
#include "freq_test_support.hpp"
#include "core/mean/mean_summary.hpp"
#include "core/range/range_summary.hpp"
#include "core/sketch/sketch_summary.hpp"
#include "range_test_support.hpp"
#include "sketch_test_support.hpp"
#include "test_support.hpp"

namespace {

using ldp::ErrorKind;
using ldp::FreqMechanism;
using ldp::MeanMechanism;
using ldp::SketchMechanism;
using ldp_test::Freq;
using ldp_test::Sketch;
using ldp_test::Summary;

constexpr int kMutationsPerForm = 13000;  // 17 seeds: about 440,000 parses in all

// Characters the text parsers give meaning to, and a few they do not.
const char kTextAlphabet[] = "0123456789-+.,:={}[]epxXnaIfvcounts_gmdlrhbik \t\x7f";

// 1 to 4 edits: a flipped bit, a replaced byte, a deleted or repeated range, a cut.
template <class Bytes>
Bytes mutate(const Bytes& in, std::mt19937_64& g, bool text) {
  Bytes b = in;
  int edits = 1 + static_cast<int>(g() % 4);
  for (int e = 0; e < edits && !b.empty(); ++e) {
    size_t at = g() % b.size();
    switch (g() % 6) {
      case 0:
        b[at] = static_cast<typename Bytes::value_type>(b[at] ^ (1u << (g() % 8)));
        break;
      case 1:
        b[at] = text ? kTextAlphabet[g() % (sizeof kTextAlphabet - 1)]
                     : static_cast<typename Bytes::value_type>(g());
        break;
      case 2: {
        size_t len = 1 + g() % 8;
        b.erase(b.begin() + at, b.begin() + std::min(b.size(), at + len));
        break;
      }
      case 3: {
        size_t len = 1 + g() % 16;
        Bytes piece(b.begin() + at, b.begin() + std::min(b.size(), at + len));
        b.insert(b.begin() + g() % (b.size() + 1), piece.begin(), piece.end());
        break;
      }
      case 4:
        b.resize(at);
        break;
      default:  // an extreme number where a digit was
        if (text && b[at] >= '0' && b[at] <= '9') {
          static const char* kNumbers[] = {"9223372036854775807", "9223372036854775808",
                                           "-9223372036854775808", "1e308", "1e309", "NaN",
                                           "-0", "4194305", "0x1p-1074", "99999999999999999999"};
          const char* s = kNumbers[g() % 10];
          b.insert(b.begin() + at, s, s + std::strlen(s));
        } else if (!text && b.size() >= 8) {  // an int64 field set to an edge value
          static const uint64_t kEdges[] = {0, 1, ~uint64_t{0}, uint64_t{1} << 63,
                                            (uint64_t{1} << 63) - 1, uint64_t{1} << 22,
                                            0x7ff8000000000000ull, 0x7ff0000000000000ull};
          uint64_t v = kEdges[g() % 8];
          size_t p = g() % (b.size() - 7);
          for (int i = 0; i < 8; ++i) b[p + i] = static_cast<uint8_t>(v >> (56 - 8 * i));
        }
    }
  }
  return b;
}

// Mutates the form of every seed kMutationsPerForm times and parses each result:
// parse must either throw `refusal` or return a summary, on which check (which
// must not throw at all) verifies that it is sound. Returns how many mutations
// were accepted.
template <class Form, class Seed, class MakeForm, class Parse, class Check>
size_t mutate_and_parse(const std::vector<Seed>& seeds, MakeForm form, ErrorKind refusal,
                        uint64_t rng_seed, Parse parse, Check check) {
  constexpr bool kText = std::is_same<Form, std::string>::value;
  std::mt19937_64 g(rng_seed);
  size_t accepted = 0;
  for (const Seed& seed : seeds) {
    const Form valid = form(seed);
    for (int i = 0; i < kMutationsPerForm; ++i) {
      Form m = mutate(valid, g, kText);
      Seed parsed;
      try {
        parsed = parse(m);
      } catch (const ldp::Error& e) {
        EXPECT_EQ(e.kind(), refusal) << "mutation " << i << ": " << e.what();
        if (::testing::Test::HasFailure()) return accepted;
        continue;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "mutation " << i << ": a non-ldp exception: " << e.what();
        return accepted;
      }
      ++accepted;
      try {
        check(parsed);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "mutation " << i << " was accepted, then: " << e.what();
      }
      if (::testing::Test::HasFailure()) return accepted;
    }
  }
  return accepted;
}

// ---- mean_summary ----

std::vector<Summary> mean_seeds() {
  std::vector<Summary> out;
  out.push_back(ldp_test::bits(MeanMechanism::RR, {1, 1, 0}, 10, 3));
  out.push_back(ldp_test::bits(MeanMechanism::OneBit, {0.5, 86400, 0.2}, 7, 7));
  Summary lap(MeanMechanism::Laplace, {1, 100, 0});
  for (double y : {-250.5, 3.25, 1e-300, 99.0, 1234.5}) lap.add_real(y);
  out.push_back(lap);
  Summary pw(MeanMechanism::Piecewise, {2, 10, 0});
  for (double y : {-1.0, 0.0, 4.5, 11.0}) pw.add_real(y);
  out.push_back(pw);
  out.push_back(Summary(MeanMechanism::Laplace, {3, 1, 0}));  // no reports
  return out;
}

void check_mean(const Summary& s) {
  ldp::mean_summary_check(*s, ldp::mean_summary_size(s->mech()));
  if (s->n > 0) {
    ldp::Estimate e = s.estimate();
    (void)e;
    double lo, hi;
    ldp::mean_interval(*s, 0.95, &lo, &hi);
  }
  // what it writes reads back as the same summary
  EXPECT_EQ(Summary::from_text(s.text()).text(), s.text());
  EXPECT_EQ(Summary::from_binary(s.binary()).text(), s.text());
}

TEST(Mutations, MeanTextIsRefusedOrSound) {
  size_t accepted = mutate_and_parse<std::string>(
      mean_seeds(), [](const Summary& s) { return s.text(); }, ErrorKind::InvalidText, 101,
      [](const std::string& t) { return Summary::from_text(t); }, check_mean);
  EXPECT_GT(accepted, 0u);  // some mutations are valid summaries (a changed digit)
}

TEST(Mutations, MeanBinaryIsRefusedOrSound) {
  mutate_and_parse<std::vector<uint8_t>>(
      mean_seeds(), [](const Summary& s) { return s.binary(); }, ErrorKind::InvalidBinary, 102,
      [](const std::vector<uint8_t>& b) { return Summary::from_binary(b); }, check_mean);
}

// ---- freq_summary ----

std::vector<Freq> freq_seeds() {
  std::vector<Freq> out;
  out.emplace_back(FreqMechanism::GRR, ldp::FreqParams{1, 4, 0}, 10, std::vector<int64_t>{1, 2, 3, 4});
  out.emplace_back(FreqMechanism::SUE, ldp::FreqParams{0.5, 3, 0}, 2, std::vector<int64_t>{0, 2, 1});
  out.emplace_back(FreqMechanism::OUE, ldp::FreqParams{2, 5, 0}, 5,
                   std::vector<int64_t>{5, 0, 1, 2, 3});
  out.emplace_back(FreqMechanism::DBitFlip, ldp::FreqParams{1, 4, 2}, 3,
                   std::vector<int64_t>{2, 1, 2, 1, 1, 0, 2, 0});
  out.emplace_back(FreqMechanism::OLH, ldp::FreqParams{ldp::kMinEpsilon, 3, 0}, 4, std::vector<int64_t>{4, 0, 1});
  out.emplace_back(FreqMechanism::Hadamard, ldp::FreqParams{1, 3, 0}, 10,
                   std::vector<int64_t>{2, -3, 1, 4});
  return out;
}

void check_freq(const Freq& f) {
  f.check();
  if (f->n > 0) {
    Freq::Estimates e = f.estimate();
    std::vector<double> freq = e.freq;
    ldp::apply_consistency(ldp::Consistency::NormSub, freq.data(), f->k);
  }
  EXPECT_EQ(Freq::from_text(f.text()).text(), f.text());
  EXPECT_EQ(Freq::from_binary(f.binary()).text(), f.text());
}

TEST(Mutations, FreqTextIsRefusedOrSound) {
  size_t accepted = mutate_and_parse<std::string>(
      freq_seeds(), [](const Freq& f) { return f.text(); }, ErrorKind::InvalidText, 103,
      [](const std::string& t) { return Freq::from_text(t); }, check_freq);
  EXPECT_GT(accepted, 0u);
}

TEST(Mutations, FreqBinaryIsRefusedOrSound) {
  mutate_and_parse<std::vector<uint8_t>>(
      freq_seeds(), [](const Freq& f) { return f.binary(); }, ErrorKind::InvalidBinary, 104,
      [](const std::vector<uint8_t>& b) { return Freq::from_binary(b); }, check_freq);
}

// ---- sketch_summary ----

std::string sketch_text(const Sketch& s) {
  std::string out(ldp::sketch_summary_text_size(*s), '\0');
  ldp::sketch_summary_to_text(*s, out.data(), out.size());
  out.pop_back();
  return out;
}
Sketch sketch_from_text(const std::string& text) {
  Sketch s(ldp::sketch_summary_parse_size(text.c_str()));
  ldp::sketch_summary_from_text(text.c_str(), s.get(), s.bytes());
  return s;
}
std::vector<uint8_t> sketch_binary(const Sketch& s) {
  std::vector<uint8_t> out(ldp::sketch_summary_binary_size(*s));
  ldp::sketch_summary_to_binary(*s, out.data(), out.size());
  return out;
}
Sketch sketch_from_binary(const std::vector<uint8_t>& b) {
  Sketch s(ldp::sketch_summary_binary_parse_size(b.data(), b.size()));
  ldp::sketch_summary_from_binary(b.data(), b.size(), s.get(), s.bytes());
  return s;
}

// small hashes x width, so that the mutations reach every counter; n = 0 and n = 1 too
std::vector<Sketch> sketch_seeds() {
  ldp::SeededRandom rng(7);
  const std::vector<std::pair<std::string, int>> some = {{"a", 9}, {"b", 4}, {"", 2}}, one = {{"a", 1}};
  std::vector<Sketch> out;
  out.push_back(ldp_test::simulate(SketchMechanism::CMS, 2, 2, 8, some, rng));
  out.push_back(ldp_test::simulate(SketchMechanism::CMS, 1, 3, 5, one, rng));
  out.push_back(ldp_test::simulate(SketchMechanism::HCMS, 1, 2, 8, some, rng));
  out.push_back(Sketch(SketchMechanism::HCMS, 0.5, 4, 4));  // no reports
  out.push_back(ldp_test::simulate(SketchMechanism::Hashtogram, 2, 3, 16, some, rng));
  out.push_back(ldp_test::simulate(SketchMechanism::Hashtogram, ldp::kMinEpsilon, 2, 4, one, rng));
  return out;
}

void check_sketch(const Sketch& s) {
  // the buffer the parse sized is the summary's size (hashes x width counters)
  EXPECT_EQ(ldp::sketch_summary_size(*s), s.bytes());
  if (s->n > 0) {
    ldp_test::Prepared estimates(s);
    for (const char* item : {"a", "b", ""}) {
      ldp::SketchEstimate e = estimates(item);
      EXPECT_FALSE(e.std_error < 0) << item;
    }
  }
  EXPECT_EQ(sketch_text(sketch_from_text(sketch_text(s))), sketch_text(s));
  EXPECT_EQ(sketch_text(sketch_from_binary(sketch_binary(s))), sketch_text(s));
}

TEST(Mutations, SketchTextIsRefusedOrSound) {
  size_t accepted = mutate_and_parse<std::string>(
      sketch_seeds(), sketch_text, ErrorKind::InvalidText, 105, sketch_from_text, check_sketch);
  EXPECT_GT(accepted, 0u);
}

TEST(Mutations, SketchBinaryIsRefusedOrSound) {
  mutate_and_parse<std::vector<uint8_t>>(sketch_seeds(), sketch_binary, ErrorKind::InvalidBinary, 106,
                                         sketch_from_binary, check_sketch);
}

// ---- range_summary ----

// small domains, so that the mutations reach every counter; n = 0 and n = 1 too; haar and hh
std::vector<ldp_test::Range> range_seeds() {
  auto floor_of = [](int64_t i) { return static_cast<double>((i * 5) % 16); };
  ldp::RangeProtocol log = ldp_test::range_protocol(2, 0.5);
  log.mapping = ldp::RangeMapping::Log;
  log.lo = 1;
  log.hi = 1000;
  ldp::RangeProtocol linear = ldp_test::range_protocol(3, 2);
  linear.mapping = ldp::RangeMapping::Linear;
  linear.lo = -1;
  linear.hi = 1;
  std::vector<ldp_test::Range> out;
  out.push_back(ldp_test::simulate_range(ldp_test::range_protocol(3, 1), 40, 1, floor_of));
  out.push_back(ldp_test::simulate_range(log, 1, 2, floor_of));
  out.push_back(ldp_test::Range(ldp_test::range_protocol(4, 1)));  // no reports
  out.push_back(ldp_test::simulate_range(linear, 300, 3, [](int64_t i) { return std::sin(double(i)); }));
  out.push_back(ldp_test::simulate_range(ldp_test::hh_protocol(3, 1, 4), 40, 4, floor_of));  // levels of 2 and 8
  out.push_back(ldp_test::simulate_range(ldp_test::hh_protocol(4, 2, 2), 25, 5, floor_of));
  ldp::RangeProtocol sw = ldp_test::range_protocol(3, 1);
  sw.mechanism = ldp::RangeMechanism::Sw;
  out.push_back(ldp_test::simulate_range(sw, 60, 4, floor_of));
  out.push_back(ldp_test::Range(sw));  // no reports
  return out;
}

void check_range(const ldp_test::Range& r) {
  EXPECT_EQ(ldp::range_summary_size(*r), r.bytes());
  if (r->protocol.mechanism == ldp::RangeMechanism::Sw) {  // a short density: shares of [0, 1]
    ldp_test::RangeDecode d(*r);
    ldp::SwDensityQuery q;
    q.bins = 2;
    q.replicates = 2;
    q.em.max_iterations = 30;
    const ldp::SwDensity out = ldp::range_density(*d.get(), q);
    for (const ldp::SwDensityBin& b : out.bins) EXPECT_TRUE(b.frequency >= 0 && b.frequency <= 1 + 1e-12);
  } else if (r->n > 0) {
    ldp_test::RangeDecode d(*r);
    for (int64_t x = 0; x < r->protocol.domain(); ++x) EXPECT_FALSE(d.prefix(x).variance < 0) << x;
    const ldp::QuantileAnswer q = d.quantile(0.5, 1.96);
    EXPECT_LE(q.lower, q.bucket);
    EXPECT_LE(q.bucket, q.upper);
  }
  EXPECT_EQ(ldp_test::Range::from_text(r.text()).text(), r.text());
  EXPECT_EQ(ldp_test::Range::from_binary(r.binary()).text(), r.text());
}

TEST(Mutations, RangeTextIsRefusedOrSound) {
  size_t accepted = mutate_and_parse<std::string>(
      range_seeds(), [](const ldp_test::Range& r) { return r.text(); }, ErrorKind::InvalidText, 107,
      [](const std::string& t) { return ldp_test::Range::from_text(t); }, check_range);
  EXPECT_GT(accepted, 0u);
}

TEST(Mutations, RangeBinaryIsRefusedOrSound) {
  mutate_and_parse<std::vector<uint8_t>>(
      range_seeds(), [](const ldp_test::Range& r) { return r.binary(); }, ErrorKind::InvalidBinary, 108,
      [](const std::vector<uint8_t>& b) { return ldp_test::Range::from_binary(b); }, check_range);
}

}  // namespace
