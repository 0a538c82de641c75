// ldp_load: simulate a population of devices that report with a local-differential-
// privacy mechanism of the core library (the device SDK), and stream their reports
// into a PostgreSQL table with COPY. Prints the truth (the population's mean or
// proportion, or its item or word frequencies) so that the ldp aggregates' estimates
// can be checked against it. The frequency oracles and the sketches run in
// ldp_load_freq.cpp, TreeHist (heavy hitters) in ldp_load_heavy.cpp.
#include <getopt.h>

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>

#include "tools/common/load_family.hpp"
#include "tools/common/pg_load.hpp"
#include "tools/mean/mean_population.hpp"
#include "tools/common/progress.hpp"

using namespace ldp::tools;

namespace {

const char* kUsage = R"(Usage: ldp_load --mechanism MECH --epsilon E --distribution DIST --table NAME [options]
       ldp_load --mechanism FREQ --epsilon E --k K --distribution ITEMS --table NAME [options]
       ldp_load --mechanism SKETCH --epsilon E --hashes H --width W --words FILE --table NAME [options]
       ldp_load --mechanism treehist|bitstogram|pem|sfp --epsilon E (--words FILE | --distribution zipf:S --k K) --table NAME [options]
       ldp_load --mechanism rappor [--bits K --hashes H --cohorts M --f F --p P --q Q] (--words FILE | --distribution zipf:S --k K) --table NAME [options]

Simulates USERS devices, each holding a true value drawn from DIST (a number, an
item of [0, K) or a word of FILE), encodes every value with the ldp core library
(the device SDK) and streams the reports into table NAME with COPY. Prints the true
statistics on stdout (key=value lines) and a one-line summary with the load rate on
stderr.

Mechanism:
  --mechanism rr|onebit|laplace|piecewise
                       means and proportions: rr: randomized response on bits
                       (estimates a proportion); onebit: Microsoft's 1BitMean;
                       laplace: value + Laplace noise; piecewise: the piecewise
                       mechanism (Wang et al.)
  --mechanism grr|sue|oue|dbitflip|olh|hadamard
                       frequency oracles over items [0, K): see "Frequency oracles"
  --mechanism cms|hcms|hashtogram
                       sketch frequency oracles over words: see "Sketches"
  --mechanism treehist|bitstogram|pem|sfp
                       heavy hitters (TreeHist, Bitstogram, PEM, Apple's SFP) of
                       words or integer ids, found without candidates: see "Heavy hitters"
  --mechanism rappor   Google's RAPPOR reports, decoded against candidates: see "RAPPOR"
  --epsilon E          privacy parameter of one report, in (0, 700]
  --max-value M        values lie in [0, M] (required, except for rr)
  --gamma G            onebit: output perturbation, flip probability in [0, 0.5)
  --granularity S      onebit: every user is a OneBitMeanClient with alpha-point
                       rounding on a grid of step ~S and permanent memoization
  --rounds R           onebit with --granularity: collect R rounds from every user
                       (default 1); rows carry the round number
  --constant-users     with --rounds: every user keeps its value in every round
                       (default: each round the value is redrawn around the user's
                       base value, base * uniform(1-D, 1+D) clamped to [0, M])
  --drift D            the D above, in [0, 1] (default 0.2)

Frequency oracles (each user holds one item of [0, K) and sends one report a round):
  --k K                the domain size, in [2, 4194304] (hadamard: at most 4194303)
  --d D                dbitflip: buckets per report, in [1, K] (required; Ding et al.
                       2017 evaluate d = 1, 2, 4 for repeated collection; d = K is SUE)
  --memoize            dbitflip: every user is an ldp::DBitFlipClient (dBitFlipPM:
                       its d buckets are drawn once and one bit per (bucket, whether
                       the item is that bucket) is memoized across --rounds)
  --rounds R           with --memoize: collect R rounds from every user (default 1)
  --redraw P           with --rounds: each later round, a user draws a new item with
                       probability P (default 0: users keep their item)
  --distribution ITEMS the users' items:
                         uniform            every item with probability 1/K
                         zipf:S             item i with probability ~ (i+1)^-S
                         constant:V         every user holds item V
                         words:PATH         a word-count file (tab-separated
                                            word<TAB>count, optional header, most
                                            frequent first): item i is the word of
                                            rank i (0 = most frequent) among the top
                                            K words, drawn with probability count /
                                            (sum of the top K counts). Words outside
                                            the top K are NOT drawn (no catch-all
                                            item): the population is the top K
                                            words, renormalized; top_k_share= tells
                                            what share of the file's counts that is
  --top T              print the T items of highest true frequency (default 10;
                       0 prints every item)
  --print-summary      also print local_summary=, the core's text form of the local
                       decoder state: equal to <aggregate>::text in SQL
  --no-decode          skip the local decoding (OLH decodes in O(K) per report)
  Tables: (user_id bigint, round integer, ...) with grr: report integer;
  sue, oue: report varbit (K bits, bit v = item v from the left; sent as X<hex>
  when K is a multiple of 4); dbitflip: buckets integer[], bits boolean[];
  olh: seed bigint, report integer; hadamard: "row" integer, report boolean.
  An existing table may have more columns (they take their defaults).
  Aggregates: ldp.grr_agg(report, E, K), ldp.sue_agg(report, E),
  ldp.oue_agg(report, E), ldp.dbitflip_agg(buckets, bits, E, K),
  ldp.olh_agg(seed, report, E, K), ldp.hadamard_agg("row", report, E, K).
  --words FILE         the same as --distribution words:FILE

Sketches (each user holds one word, any string, and sends one report):
  --hashes H           rows of the sketch (hash functions), in [1, 65536]
  --width W            columns of each row (hcms, hashtogram: a power of two);
                       H * W is at most 4194304
  --words FILE         a word-count file (word<TAB>count, optional header, as for
                       words:PATH above): a user holds each of the file's words
                       with probability count / (the file's total count); every
                       word can be drawn (no top K). --distribution words:FILE is
                       the same
  --top T, --print-summary, --no-decode
                       as above; top_items= are the words' ranks in the file (0 =
                       most frequent), local_max_abs_error= is over the file's words
  Tables: (user_id bigint, round integer, hash_index integer, ...) with cms:
  report varbit (W bits, as sue); hcms, hashtogram: coefficient integer, report
  boolean (+1 is true). round is always 1.
  Aggregates: ldp.cms_agg(hash_index, report, E, H),
  ldp.hcms_agg(hash_index, coefficient, report, E, H, W),
  ldp.hashtogram_agg(hash_index, coefficient, report, E, H, W); estimates of
  candidate words: ldp.frequencies(<aggregate>, ARRAY['you', 'the', ...]).

Heavy hitters (--mechanism treehist, bitstogram, pem or sfp; each user holds one word or one
64-bit id and sends one report under a protocol built as ldp.<mechanism>_protocol
builds it, ldp.<mechanism>_int8_protocol for integer ids):
  --words FILE         words (--distribution words:FILE is the same): a word-count
                       file as above. Users hold the words the protocol can encode,
                       each with probability count / (the total count of those
                       words), so that --users users hold them; the words it cannot
                       encode (a character outside the alphabet, too long) are
                       skipped: counted on stdout (words_skipped=, skipped_share=
                       of the file's counts) and said on stderr
  --lowercase          words: fold A-Z to a-z first, adding up the counts of words
                       that become equal ("I" -> "i")
  --distribution zipf:S --k K
                       integer ids under ldp.<mechanism>_int8_protocol: ranks 0..K-1
                       with P(rank i) ~ (i+1)^-S
  --ids scrambled|ranks
                       the id of rank i: a fixed scrambling of i spread over the
                       64-bit range (default; distinct ranks, distinct ids), or i+1
  --expected-users N0  the protocol's users (default: --users), what its defaults
                       are chosen for
  --alphabet A         words: the alphabet (default abcdefghijklmnopqrstuvwxyz)
  --bytes              words: any UTF-8 text, one byte per level (alphabet => NULL)
  --max-length L, --chars-per-level S, --hashes H, --width W
                       the protocol's parameters (default: ldp.<mechanism>_protocol's;
                       integer ids take --hashes and --width only)
  --truth FILE         write the true counts to FILE (item<TAB>count, header line,
                       most frequent first, every item someone holds; integer ids
                       in decimal), e.g. for \copy into a table
  --top T, --print-summary, --no-decode
                       as above; the local decoder also runs heavy_hitters
  Table: (user_id bigint, round integer, then the encoder's columns); round is 1.
  treehist: level, hash_index, coefficient integer, prefix_report, item_report
  boolean; pem: group_index, hash_index, coefficient integer, report boolean; sfp:
  fragment_start, hash_index, coefficient integer, fragment_report boolean,
  word_hash_index, word_coefficient integer, word_report boolean; bitstogram:
  coordinate, hadamard_row integer, symbol_report boolean, hash_index, coefficient
  integer, item_report boolean.
  Aggregate: ldp.<mechanism>_agg(<those columns>, '<protocol=>'::ldp.heavy_protocol);
  then ldp.heavy_hitters(summary).
  Output: protocol= (the text form: cast it to ldp.heavy_protocol), threshold=
  (the default tau of ldp.heavy_hitters at n = reports), true_heavy= (items whose
  true count is at least tau), local_heavy_hitters=, local_recall=,
  local_precision= (against the true set), local_decode_seconds=, the top items
  (item.I.word= or item.I.id=, .true_count=, .local_frequency=, ...) and the first
  heavy hitters (hitter.R.item=, .frequency=, .std_error=).

RAPPOR (--mechanism rappor; google/rappor's client: Bloom filter, PRR memoized by the
device's secret, fresh IRR; each device has its own random secret and a cohort drawn
uniformly, holds one item and sends one report):
  --bits K --hashes H --cohorts M --f F --p P --q Q
                       the parameters (default: the Python client's, 16 bits,
                       2 hashes, 64 cohorts, f = 0.5, p = 0.5, q = 0.75)
  --words FILE         items: the words of a word-count file, drawn by count
  --distribution zipf:S --k K
                       items: ids "1".."K" (decimal text), P(id i) ~ i^-S
  --truth FILE         write the true counts to FILE (item<TAB>count)
  --candidates C       the local decode's candidates: the C most likely items
                       (default 1000)
  --top N, --no-decode as above
  Table: user_id bigint, round integer, cohort integer, report bit varying (the
  client's bit order). Aggregate: ldp.rappor_agg(cohort, report, H, M, F, P, Q);
  then ldp.rappor_decode(summary, candidates).
  Output: the parameters, epsilon_one=, epsilon_inf=, detection_frequency=, the
  truth, local_detected= (of the candidates), local_decode_seconds= and the top
  items (item.I.word= or .id=, .true_count=, .local_count=, .local_std_error=,
  .local_detected=).

Population:
  --users N            number of users (default 1000000)
  --distribution DIST  the users' true values:
                         constant:V         every user holds V
                         uniform:A:B        uniform on [A, B]
                         normal:MU:SIGMA    normal, clamped to [0, M]
                         zipf:S:K           ranks 1..K with P(r) ~ r^-S
                         bernoulli:P        1 with probability P, else 0
                         file:PATH[:COLUMN] numbers from a file: one per line, or
                                            COLUMN (1-based) of tab-separated
                                            lines; header lines are skipped, values
                                            outside [0, M] are clamped (with a
                                            warning); the first N values are used
                                            (default N: all of them)
                       rr needs bernoulli:P, constant:0 or constant:1. The
                       frequency oracles take the ITEMS forms above.
  --seed S             reproducible run (an unsigned 64-bit integer); without it
                       every draw comes from the kernel's cryptographic generator.
                       One seed gives the same population for every mechanism.
  --first-user-id ID   user ids are ID, ID+1, ... (default 1)

Table:
  --table NAME         [schema.]table; created if missing as (user_id bigint,
                       round integer, report boolean) for rr and onebit, report
                       double precision for laplace and piecewise
  --truncate           empty the table first (in the same transaction)
  --no-analyze         do not ANALYZE the table after loading

Connection:
  --dsn DSN            libpq connection string; default: the PGHOST, PGPORT,
                       PGUSER, PGDATABASE, ... environment variables

  --help               this text

Output (stdout), e.g. for rr: mechanism=rr, epsilon=1, users=..., reports=...,
true_proportion=..., report_mean=... (the plain mean of the reports), and
local_estimate= / local_std_error= (the core decoder run on the same reports:
what ldp.rr_agg returns for the table). With --rounds, per-round lines
round_R.true_mean=... follow. For a frequency oracle: k=, reports=, n= (the
reports the local decoder counted: ldp.report_count), local_max_abs_error=
(max over items of |local - true frequency|), top_items=I,J,... (by true
frequency) and for each of them item.I.word= (words:), item.I.true_count=,
item.I.true_frequency=, item.I.local_frequency=, item.I.local_std_error= (the
core decoder on the same reports: the frequency and std_error columns of
ldp.frequencies(<aggregate>) for the table). For a sketch: hashes=, width=,
words_file=, words_in_file=, then as for a frequency oracle (items are the words'
ranks; the local columns are ldp.frequencies(<aggregate>, ARRAY[word])). Exit
status: 0 on success, 1 on database errors, 2 on bad options.

Examples:
  ldp_load --mechanism onebit --epsilon 1 --max-value 86400 --gamma 0.2 \
           --distribution uniform:0:86400 --users 1000000 --table usage --truncate
  ldp_load --mechanism grr --epsilon 2 --k 1024 --users 1000000 --truncate \
           --distribution words:test/data/subtlex_top1000.tsv --table words_grr
  ldp_load --mechanism hcms --epsilon 4 --hashes 64 --width 1024 --users 1000000 \
           --words test/data/subtlex_top1000.tsv --table words_hcms --truncate
  ldp_load --mechanism treehist --epsilon 2 --users 1000000 --lowercase \
           --words test/data/subtlex_top1000.tsv --table words_treehist --truncate \
           --truth /tmp/words_truth.tsv
)";

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "ldp_load: %s\n(see ldp_load --help)\n", msg.c_str());
  std::exit(2);
}

double parse_number(const char* opt, const char* text) {
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (*text == '\0' || end == text || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    usage_error(std::string("--") + opt + " expects a finite number, got '" + text + "'");
  return v;
}

// A non-negative integer written in digits, or in exponent form like 5e6.
int64_t parse_count(const char* opt, const char* text) {
  std::string t(text);
  if (!t.empty() && t.find_first_not_of("0123456789") == std::string::npos) {
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(text, &end, 10);
    if (errno == ERANGE || v > static_cast<unsigned long long>(INT64_MAX))
      usage_error(std::string("--") + opt + " is too large: " + text);
    return static_cast<int64_t>(v);
  }
  double d = parse_number(opt, text);
  if (!(d >= 0 && d == std::floor(d) && d <= 9007199254740992.0))
    usage_error(std::string("--") + opt + " expects a non-negative integer, got '" + text + "'");
  return static_cast<int64_t>(d);
}

uint64_t parse_seed(const char* text) {
  std::string t(text);
  if (t.empty() || t.size() > 20 || t.find_first_not_of("0123456789") != std::string::npos)
    usage_error(std::string("--seed expects an unsigned 64-bit integer, got '") + text + "'");
  errno = 0;
  unsigned long long v = std::strtoull(text, nullptr, 10);
  if (errno == ERANGE)
    usage_error(std::string("--seed expects an unsigned 64-bit integer, got '") + text + "'");
  return static_cast<uint64_t>(v);
}

void print_tally_lines(const std::string& prefix, const Tally& t, ldp::tools::Mechanism m) {
  std::printf("%sreports=%" PRId64 "\n", prefix.c_str(), t.reports);
  if (m == Mechanism::RR)
    std::printf("%strue_proportion=%s\n", prefix.c_str(), num(t.true_mean).c_str());
  else
    std::printf("%strue_mean=%s\n", prefix.c_str(), num(t.true_mean).c_str());
  if (!real_valued(m)) std::printf("%sones=%" PRId64 "\n", prefix.c_str(), t.ones);
  std::printf("%sreport_mean=%s\n", prefix.c_str(), num(t.report_mean).c_str());
  std::printf("%slocal_estimate=%s\n", prefix.c_str(), num(t.estimate.value).c_str());
  if (t.estimate.has_std_error)
    std::printf("%slocal_std_error=%s\n", prefix.c_str(), num(t.estimate.std_error).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  enum {
    kMechanism = 1000, kEpsilon, kMaxValue, kGamma, kGranularity, kRounds, kConstantUsers,
    kDrift, kUsers, kDistribution, kTable, kTruncate, kSeed, kDsn, kFirstUserId, kNoAnalyze,
    kHelp, kK, kD, kMemoize, kRedraw, kTop, kPrintSummary, kNoDecode, kHashes, kWidth, kWords,
    kExpectedUsers, kAlphabet, kBytes, kMaxLength, kCharsPerLevel, kLowercase, kTruth, kIds,
    kBits, kCohorts, kF, kP, kQ, kCandidates
  };
  static const option kOptions[] = {
      {"mechanism", required_argument, nullptr, kMechanism},
      {"epsilon", required_argument, nullptr, kEpsilon},
      {"max-value", required_argument, nullptr, kMaxValue},
      {"gamma", required_argument, nullptr, kGamma},
      {"granularity", required_argument, nullptr, kGranularity},
      {"rounds", required_argument, nullptr, kRounds},
      {"constant-users", no_argument, nullptr, kConstantUsers},
      {"drift", required_argument, nullptr, kDrift},
      {"users", required_argument, nullptr, kUsers},
      {"distribution", required_argument, nullptr, kDistribution},
      {"table", required_argument, nullptr, kTable},
      {"truncate", no_argument, nullptr, kTruncate},
      {"seed", required_argument, nullptr, kSeed},
      {"dsn", required_argument, nullptr, kDsn},
      {"first-user-id", required_argument, nullptr, kFirstUserId},
      {"no-analyze", no_argument, nullptr, kNoAnalyze},
      {"help", no_argument, nullptr, kHelp},
      {"k", required_argument, nullptr, kK},
      {"d", required_argument, nullptr, kD},
      {"memoize", no_argument, nullptr, kMemoize},
      {"redraw", required_argument, nullptr, kRedraw},
      {"top", required_argument, nullptr, kTop},
      {"print-summary", no_argument, nullptr, kPrintSummary},
      {"no-decode", no_argument, nullptr, kNoDecode},
      {"hashes", required_argument, nullptr, kHashes},
      {"width", required_argument, nullptr, kWidth},
      {"words", required_argument, nullptr, kWords},
      {"expected-users", required_argument, nullptr, kExpectedUsers},
      {"alphabet", required_argument, nullptr, kAlphabet},
      {"bytes", no_argument, nullptr, kBytes},
      {"max-length", required_argument, nullptr, kMaxLength},
      {"chars-per-level", required_argument, nullptr, kCharsPerLevel},
      {"lowercase", no_argument, nullptr, kLowercase},
      {"truth", required_argument, nullptr, kTruth},
      {"ids", required_argument, nullptr, kIds},
      {"bits", required_argument, nullptr, kBits},
      {"cohorts", required_argument, nullptr, kCohorts},
      {"f", required_argument, nullptr, kF},
      {"p", required_argument, nullptr, kP},
      {"q", required_argument, nullptr, kQ},
      {"candidates", required_argument, nullptr, kCandidates},
      {nullptr, 0, nullptr, 0},
  };

  LoadSpec spec;
  spec.users = 1000000;
  std::optional<Mechanism> mechanism;
  std::optional<ldp::FreqMechanism> freq_mechanism;
  std::optional<ldp::SketchMechanism> sketch_mechanism;
  FreqCli freq;  // the frequency-oracle options
  SketchCli sketch;  // the sketch options
  HeavyCli heavy;    // the heavy-hitters options (treehist, bitstogram, pem, sfp)
  bool treehist = false;                // a heavy-hitters mechanism (heavy.spec.mechanism)
  RapporCli rappor;                     // --mechanism rappor
  bool is_rappor = false;
  std::vector<std::string> rappor_only;  // RAPPOR options given, for the error
  std::vector<std::string> heavy_only;  // heavy-hitters options given, for the error
  std::vector<std::string> freq_only;  // frequency-oracle options given, for the error
  std::vector<std::string> k_only;     // of those, the ones sketches do not take
  std::vector<std::string> sketch_only;
  std::string words_file;
  bool have_epsilon = false, have_max = false, have_gamma = false, have_gran = false;
  bool have_rounds = false, have_drift = false, have_users = false, have_k = false;
  std::string distribution, table, dsn;
  bool truncate = false, analyze = true;

  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":", kOptions, nullptr)) != -1) {
    switch (c) {
      case kMechanism:
        treehist = parse_heavy_mechanism(optarg, &heavy.spec.mechanism);
        is_rappor = std::string(optarg) == "rappor";
        mechanism = parse_mechanism(optarg);
        freq_mechanism = parse_freq_mechanism(optarg);
        sketch_mechanism = parse_sketch_mechanism(optarg);
        if (!mechanism && !freq_mechanism && !sketch_mechanism && !treehist && !is_rappor)
          usage_error(std::string("--mechanism must be rr, onebit, laplace, piecewise, grr, sue, "
                                  "oue, dbitflip, olh, hadamard, cms, hcms, hashtogram, treehist, "
                                  "bitstogram, pem, sfp or rappor, got '") + optarg + "'");
        break;
      case kEpsilon: spec.epsilon = parse_number("epsilon", optarg); have_epsilon = true; break;
      case kMaxValue: spec.max_value = parse_number("max-value", optarg); have_max = true; break;
      case kGamma: spec.gamma = parse_number("gamma", optarg); have_gamma = true; break;
      case kGranularity:
        spec.granularity = parse_number("granularity", optarg);
        have_gran = true;
        if (!(spec.granularity > 0)) usage_error("--granularity must be > 0");
        break;
      case kRounds: {
        int64_t r = parse_count("rounds", optarg);
        if (r < 1 || r > 100000) usage_error("--rounds must be in [1, 100000]");
        spec.rounds = static_cast<int>(r);
        have_rounds = true;
        break;
      }
      case kConstantUsers: spec.constant_users = true; break;
      case kDrift: spec.drift = parse_number("drift", optarg); have_drift = true; break;
      case kUsers: spec.users = parse_count("users", optarg); have_users = true; break;
      case kDistribution: distribution = optarg; break;
      case kTable: table = optarg; break;
      case kTruncate: truncate = true; break;
      case kSeed: spec.seed = parse_seed(optarg); break;
      case kDsn: dsn = optarg; break;
      case kFirstUserId: spec.first_user_id = parse_count("first-user-id", optarg); break;
      case kNoAnalyze: analyze = false; break;
      case kHelp: std::fputs(kUsage, stdout); return 0;
      case kK: {
        int64_t k = parse_count("k", optarg);
        if (k > INT32_MAX) usage_error("--k is too large");
        freq.spec.k = k;
        have_k = true;
        freq_only.push_back("--k");
        k_only.push_back("--k");
        break;
      }
      case kD: {
        int64_t d = parse_count("d", optarg);
        if (d < 1 || d > INT32_MAX) usage_error("--d must be at least 1");
        freq.spec.d = d;
        freq_only.push_back("--d");
        k_only.push_back("--d");
        break;
      }
      case kMemoize:
        freq.spec.memoize = true;
        freq_only.push_back("--memoize");
        k_only.push_back("--memoize");
        break;
      case kRedraw:
        freq.spec.redraw = parse_number("redraw", optarg);
        freq_only.push_back("--redraw");
        k_only.push_back("--redraw");
        break;
      case kHashes:
      case kWidth: {
        const char* name = c == kHashes ? "hashes" : "width";
        int64_t v = parse_count(name, optarg);
        if (v > INT32_MAX) usage_error(std::string("--") + name + " is too large");
        (c == kHashes ? sketch.spec.hashes : sketch.spec.width) = v;
        sketch_only.push_back(std::string("--") + name);
        break;
      }
      case kWords:
        if (*optarg == '\0') usage_error("--words needs a file name");
        words_file = optarg;
        freq_only.push_back("--words");
        break;
      case kTop: freq.top = parse_count("top", optarg); freq_only.push_back("--top"); break;
      case kExpectedUsers:
        heavy.spec.expected_users = parse_count("expected-users", optarg);
        if (heavy.spec.expected_users < 1) usage_error("--expected-users must be at least 1");
        heavy_only.push_back("--expected-users");
        break;
      case kAlphabet:
        if (*optarg == '\0') usage_error("--alphabet must not be empty (--bytes takes any UTF-8 text)");
        heavy.spec.alphabet = optarg;
        heavy_only.push_back("--alphabet");
        break;
      case kBytes: heavy.spec.bytes_domain = true; heavy_only.push_back("--bytes"); break;
      case kMaxLength:
      case kCharsPerLevel: {
        const char* name = c == kMaxLength ? "max-length" : "chars-per-level";
        int64_t v = parse_count(name, optarg);
        if (v < 1 || v > INT32_MAX) usage_error(std::string("--") + name + " must be a positive integer");
        (c == kMaxLength ? heavy.spec.max_length : heavy.spec.chars_per_level) = v;
        heavy_only.push_back(std::string("--") + name);
        break;
      }
      case kLowercase: heavy.spec.lowercase = true; heavy_only.push_back("--lowercase"); break;
      case kTruth:
        if (*optarg == '\0') usage_error("--truth needs a file name");
        heavy.truth_path = optarg;
        heavy_only.push_back("--truth");
        break;
      case kIds:
        if (std::string(optarg) != "scrambled" && std::string(optarg) != "ranks")
          usage_error(std::string("--ids must be scrambled or ranks, got '") + optarg + "'");
        heavy.spec.scrambled_ids = std::string(optarg) == "scrambled";
        heavy_only.push_back("--ids");
        break;
      case kBits:
      case kCohorts:
      case kCandidates: {
        const char* name = c == kBits ? "bits" : c == kCohorts ? "cohorts" : "candidates";
        const int64_t v = parse_count(name, optarg);
        if (v > INT32_MAX) usage_error(std::string("--") + name + " is too large");
        (c == kBits ? rappor.spec.params.bits : c == kCohorts ? rappor.spec.params.cohorts : rappor.candidates) = v;
        rappor_only.push_back(std::string("--") + name);
        break;
      }
      case kF:
      case kP:
      case kQ: {
        const char* name = c == kF ? "f" : c == kP ? "p" : "q";
        (c == kF ? rappor.spec.params.f : c == kP ? rappor.spec.params.p : rappor.spec.params.q) = parse_number(name, optarg);
        rappor_only.push_back(std::string("--") + name);
        break;
      }
      case kPrintSummary: freq.print_summary = true; freq_only.push_back("--print-summary"); break;
      case kNoDecode: freq.spec.local_decode = false; freq_only.push_back("--no-decode"); break;
      case ':':
        usage_error(std::string(argv[optind - 1]) + " needs a value");
      default:
        usage_error(std::string("unknown option ") + argv[optind - 1]);
    }
  }
  if (optind < argc) usage_error(std::string("unexpected argument '") + argv[optind] + "'");
  if (!mechanism && !freq_mechanism && !sketch_mechanism && !treehist && !is_rappor)
    usage_error("--mechanism is required (rr, onebit, laplace, piecewise, grr, sue, oue, "
                "dbitflip, olh, hadamard, cms, hcms, hashtogram, treehist, bitstogram, pem, sfp or rappor)");
  if (!words_file.empty() && !distribution.empty())
    usage_error("give the words either as --words FILE or as --distribution words:FILE");
  // the table and the connection, the same for both kinds of load
  auto set_connection = [&](auto& cli) {
    cli.table = table;
    cli.dsn = dsn;
    cli.truncate = truncate;
    cli.analyze = analyze;
  };
  // --words FILE, --distribution words:FILE, or --distribution zipf:S with --k K (the
  // heavy hitters and RAPPOR): words_file, or *zipf_s and *k
  auto words_or_zipf = [&](const std::string& mname, double* zipf_s, int64_t* k) {
    if (distribution.rfind("words:", 0) == 0) {
      words_file = distribution.substr(6);
    } else if (distribution.rfind("zipf:", 0) == 0) {
      if (!have_k) usage_error("--distribution " + distribution + " needs --k K (the ranks of the ids)");
      try {
        *zipf_s = parse_item_distribution(distribution).s;
      } catch (const UsageError& e) {
        usage_error(e.what());
      }
      *k = freq.spec.k;
    } else if (!distribution.empty()) {
      usage_error("--distribution " + distribution + ": " + mname + " takes words:FILE (or --words FILE) "
                  "or zipf:S with --k K");
    }
  };
  if (is_rappor) {
    if (have_epsilon) usage_error("--epsilon does not apply to rappor: --f, --p, --q and --hashes set its privacy");
    if (have_max || have_gamma || have_gran || spec.constant_users || have_drift || have_rounds)
      usage_error("--max-value, --gamma, --granularity, --constant-users, --drift and --rounds do not apply to rappor");
    for (const std::string& o : heavy_only)
      if (o != "--truth") usage_error(o + " applies to treehist, bitstogram, pem and sfp, not rappor");
    for (const std::string& o : sketch_only)
      if (o != "--hashes") usage_error(o + " applies to the sketches, not rappor");
    for (const std::string& o : k_only)
      if (o != "--k") usage_error(o + " applies to the frequency oracles over [0, K), not rappor");
    if (table.empty()) usage_error("--table is required");
    RapporLoadSpec& r = rappor.spec;
    words_or_zipf("rappor", &r.zipf_s, &r.k);
    if (words_file.empty() && r.zipf_s == 0)
      usage_error("rappor needs --words FILE (word<TAB>count lines) or --distribution zipf:S --k K");
    if (!words_file.empty() && have_k) usage_error("--k applies to Zipf ids, not to words");
    r.words_path = words_file;
    if (sketch.spec.hashes > 0) r.params.hashes = sketch.spec.hashes;
    r.users = spec.users;
    r.seed = spec.seed;
    r.first_user_id = spec.first_user_id;
    r.local_decode = freq.spec.local_decode;
    rappor.top = freq.top;
    rappor.truth_path = heavy.truth_path;
    set_connection(rappor);
    try {
      return run_rappor_load(rappor);
    } catch (const UsageError& e) {
      usage_error(e.what());
    }
  }
  if (!rappor_only.empty()) usage_error(rappor_only.front() + " applies to rappor only");
  if (treehist) {
    const std::string hm = heavy_mechanism_name(heavy.spec.mechanism);
    if (have_max || have_gamma || have_gran || spec.constant_users || have_drift)
      usage_error("--max-value, --gamma, --granularity, --constant-users and --drift apply to the "
                  "mean mechanisms, not " + hm);
    for (const std::string& o : k_only)
      if (o != "--k") usage_error(o + " applies to the frequency oracles over [0, K), not " + hm);
    if (have_rounds) usage_error("--rounds does not apply to " + hm + " (one report per device)");
    if (!have_epsilon) usage_error("--epsilon is required");
    if (table.empty()) usage_error("--table is required");
    HeavyLoadSpec& h = heavy.spec;
    words_or_zipf(hm, &h.zipf_s, &h.k);
    if (words_file.empty() && h.zipf_s == 0)
      usage_error(hm + " needs --words FILE (word<TAB>count lines, e.g. "
                  "test/data/subtlex_top1000.tsv) or --distribution zipf:S --k K (integer ids)");
    if (!words_file.empty() && have_k) usage_error("--k applies to Zipf integer ids, not to words");
    h.words_path = words_file;
    h.epsilon = spec.epsilon;
    h.users = spec.users;
    h.seed = spec.seed;
    h.first_user_id = spec.first_user_id;
    h.hashes = sketch.spec.hashes;
    h.width = sketch.spec.width;
    h.local_decode = freq.spec.local_decode;
    heavy.top = freq.top;
    heavy.print_summary = freq.print_summary;
    set_connection(heavy);
    try {
      return run_heavy_load(heavy);
    } catch (const UsageError& e) {
      usage_error(e.what());
    }
  }
  if (!heavy_only.empty())
    usage_error(heavy_only.front() + " applies to treehist, bitstogram, pem and sfp, not " +
                (sketch_mechanism   ? sketch_mechanism_name(*sketch_mechanism)
                 : freq_mechanism ? freq_mechanism_name(*freq_mechanism)
                                  : mechanism_name(*mechanism)));
  if (sketch_mechanism) {
    const char* sname = sketch_mechanism_name(*sketch_mechanism);
    if (have_max || have_gamma || have_gran || spec.constant_users || have_drift)
      usage_error(std::string("--max-value, --gamma, --granularity, --constant-users and --drift "
                              "apply to the mean mechanisms, not ") + sname);
    if (!k_only.empty())
      usage_error(k_only.front() + " applies to the frequency oracles over [0, K), not " + sname +
                  " (a sketch takes any word: --hashes and --width size it)");
    if (have_rounds)
      usage_error(std::string("--rounds does not apply to ") + sname +
                  " (one report per device; no memoization)");
    if (!have_epsilon) usage_error("--epsilon is required");
    if (sketch.spec.hashes == 0) usage_error(std::string("--hashes is required for ") + sname);
    if (sketch.spec.width == 0) usage_error(std::string("--width is required for ") + sname);
    if (distribution.rfind("words:", 0) == 0) {
      words_file = distribution.substr(6);
    } else if (!distribution.empty()) {
      usage_error(std::string("--distribution ") + distribution + ": " + sname +
                  " draws words from a word-count file: --words FILE (or words:FILE)");
    }
    if (words_file.empty())
      usage_error(std::string("--words FILE is required for ") + sname +
                  " (word<TAB>count lines, e.g. test/data/subtlex_top1000.tsv)");
    if (table.empty()) usage_error("--table is required");
    sketch.spec.mechanism = *sketch_mechanism;
    sketch.spec.epsilon = spec.epsilon;
    sketch.spec.users = spec.users;
    sketch.spec.seed = spec.seed;
    sketch.spec.first_user_id = spec.first_user_id;
    sketch.spec.words_path = words_file;
    sketch.spec.local_decode = freq.spec.local_decode;
    sketch.top = freq.top;
    sketch.print_summary = freq.print_summary;
    set_connection(sketch);
    try {
      return run_sketch_load(sketch);
    } catch (const UsageError& e) {
      usage_error(e.what());
    }
  }
  if (!sketch_only.empty())
    usage_error(sketch_only.front() + " applies to the sketches (cms, hcms, hashtogram), not " +
                (freq_mechanism ? freq_mechanism_name(*freq_mechanism)
                                : mechanism_name(*mechanism)));
  if (!words_file.empty()) distribution = "words:" + words_file;
  if (freq_mechanism) {
    const char* fname = freq_mechanism_name(*freq_mechanism);
    if (have_max || have_gamma || have_gran || spec.constant_users || have_drift)
      usage_error(std::string("--max-value, --gamma, --granularity, --constant-users and --drift "
                              "apply to the mean mechanisms, not ") + fname);
    if (!have_epsilon) usage_error("--epsilon is required");
    if (freq.spec.k == 0)
      usage_error(std::string("--k (the domain size) is required for ") + fname);
    if (distribution.empty()) usage_error("--distribution is required");
    if (table.empty()) usage_error("--table is required");
    freq.spec.mechanism = *freq_mechanism;
    freq.spec.epsilon = spec.epsilon;
    freq.spec.rounds = spec.rounds;
    freq.spec.users = spec.users;
    freq.spec.seed = spec.seed;
    freq.spec.first_user_id = spec.first_user_id;
    set_connection(freq);
    try {
      freq.spec.distribution = parse_item_distribution(distribution);
      return run_freq_load(freq);
    } catch (const UsageError& e) {
      usage_error(e.what());
    }
  }
  if (!freq_only.empty())
    usage_error(freq_only.front() + " applies to the frequency oracles (grr, sue, oue, dbitflip, "
                "olh, hadamard; --words, --top, --print-summary and --no-decode also to cms, "
                "hcms, hashtogram, treehist, bitstogram, pem and sfp), not " + mechanism_name(*mechanism));
  spec.mechanism = *mechanism;
  if (!have_epsilon) usage_error("--epsilon is required");
  if (distribution.empty()) usage_error("--distribution is required");
  if (table.empty()) usage_error("--table is required");
  const char* mname = mechanism_name(spec.mechanism);
  if (spec.mechanism == Mechanism::RR) {
    if (have_max) usage_error("--max-value does not apply to rr (it estimates a proportion)");
    spec.max_value = 1.0;
  } else if (!have_max) {
    usage_error(std::string("--max-value is required for ") + mname);
  }
  if (have_gamma && spec.mechanism != Mechanism::OneBit)
    usage_error(std::string("--gamma applies to onebit only, not ") + mname);
  if ((have_gran || have_rounds || spec.constant_users || have_drift) &&
      spec.mechanism != Mechanism::OneBit)
    usage_error(std::string("--granularity, --rounds, --constant-users and --drift apply to "
                            "onebit only, not ") + mname);
  if (have_drift && spec.rounds == 1)
    usage_error("--drift only makes sense with --rounds > 1");

  try {
    spec.distribution = parse_distribution(distribution);
    if (spec.distribution.kind == Distribution::Kind::File && !have_users)
      spec.users = static_cast<int64_t>(
          read_values_file(spec.distribution.path, spec.distribution.column).size());
    validate_spec(spec);
    quote_table_name(table);
  } catch (const UsageError& e) {
    usage_error(e.what());
  }

  LoadResult result;
  try {
    int rc = load_with_progress(
        dsn, mname, spec.users * spec.rounds, table, analyze, &result,
        [&](pqxx::connection& conn, const ProgressFn& on_progress) {
          return load_reports(conn, spec, table, truncate, on_progress, /*analyze=*/false);
        });
    if (rc != 0) return rc;
  } catch (const UsageError& e) {
    usage_error(e.what());
  }

  // The truth and the parameters, as key=value lines.
  std::printf("mechanism=%s\n", mname);
  std::printf("epsilon=%s\n", num(spec.epsilon).c_str());
  if (spec.mechanism != Mechanism::RR) std::printf("max_value=%s\n", num(spec.max_value).c_str());
  if (spec.mechanism == Mechanism::OneBit) {
    std::printf("gamma=%s\n", num(spec.gamma).c_str());
    if (spec.gamma > 0)
      std::printf("effective_epsilon=%s\n", num(result.effective_epsilon).c_str());
    if (spec.granularity > 0) std::printf("granularity=%s\n", num(spec.granularity).c_str());
  }
  std::printf("distribution=%s\n", spec.distribution.spec.c_str());
  std::printf("users=%" PRId64 "\n", spec.users);
  std::printf("rounds=%d\n", spec.rounds);
  if (spec.seed)
    std::printf("seed=%" PRIu64 "\n", *spec.seed);
  else
    std::printf("seed=none\n");
  std::printf("table=%s\n", table.c_str());
  std::printf("clamped=%" PRId64 "\n", result.clamped);
  print_tally_lines("", result.total, spec.mechanism);
  if (spec.rounds > 1)
    for (size_t r = 0; r < result.rounds.size(); ++r)
      print_tally_lines("round_" + std::to_string(r + 1) + ".", result.rounds[r], spec.mechanism);
  std::fflush(stdout);

  if (result.clamped > 0)
    std::fprintf(stderr,
                 "ldp_load: warning: %" PRId64 " of %" PRId64
                 " values were outside [0, %s] and were clamped\n",
                 result.clamped, spec.users, num(spec.max_value).c_str());
  double rate = result.seconds > 0 ? static_cast<double>(result.total.reports) / result.seconds : 0;
  std::string shape = spec.rounds > 1 ? " (" + std::to_string(spec.users) + " users x " +
                                            std::to_string(spec.rounds) + " rounds)"
                                      : "";
  std::fprintf(stderr, "ldp_load: %" PRId64 " %s reports%s into %s in %.2f s: %s reports/s\n",
               result.total.reports, mname, shape.c_str(), table.c_str(), result.seconds,
               Progress::human(rate).c_str());
  return 0;
}
