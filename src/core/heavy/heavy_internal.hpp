// Inside the core only: what the heavy-hitters files share (UTF-8, the protocol's
// fields in the text and binary forms, the registry of mechanisms, the pieces of the
// decoders). The glue uses heavy_protocol.hpp and heavy_summary.hpp, never this header.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/byte_reader.hpp"
#include "core/common/decode_limits.hpp"
#include "core/common/interrupt.hpp"
#include "core/common/text_cursor.hpp"
#include "core/heavy/heavy_protocol.hpp"
#include "core/heavy/heavy_summary.hpp"

namespace ldp {

// The length of the UTF-8 character at s[0] (1 to 4), or 0 when s does not begin with a
// valid one (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
int utf8_char_length(std::string_view s);
// s as the beginning of UTF-8 text: -1 when no valid text begins so, else the number
// of continuation bytes its last character still needs (0: s is complete).
int utf8_prefix_state(std::string_view s);

// The protocol's fields in the text form, "epsilon=...,...,expected_users=..." (no
// braces), shared by the protocol's text and the summary's; the parser validates
// (InvalidText naming the cursor's type).
void heavy_render_fields(const HeavyProtocol& p, TextOut& o);
HeavyProtocol heavy_parse_fields(TextCursor& c, HeavyMechanism m);
// The envelope's lookup: the mechanism of a name, as a pointer to a static value.
const HeavyMechanism* heavy_mechanism_by_name(const char* name, size_t len);
std::string heavy_mechanism_names();
// Binary: u8 mechanism, u8 domain, f64 epsilon, i64 max_length, chars_per_level,
// levels, hashes, width, expected_users, then an i64 for each of the mechanism's own
// fields (its registry row's `fields`: PEM's start_length, Bitstogram's buckets), u16
// alphabet bytes and the alphabet. TreeHist's form is the one the first release wrote.
size_t heavy_fields_binary_size(const HeavyProtocol& p);
void heavy_put_fields(uint8_t*& o, const HeavyProtocol& p);
HeavyProtocol heavy_read_fields(ByteReader& r);  // validated: InvalidBinary

// A protocol field that only one mechanism has (PEM's start_length in pem.cpp,
// Bitstogram's buckets in bitstogram.cpp), declared in that mechanism's file and listed
// in its registry row; every other mechanism's protocol holds 0 there, and
// validate_heavy_protocol refuses anything else (`misplaced`). The text form writes it
// right after the shared field `after`; the binary form after the shared integers, in the
// row's order. heavy_protocol.cpp reads and writes the fields through these entries only.
struct HeavyProtocolField {
  const char* key;    // its name in the text form: "start_length"
  const char* after;  // the shared field it follows in the text form: "max_length"
  int64_t (*get)(const HeavyProtocol& p);
  // Stores a value a text or binary form holds: false when the protocol cannot hold it
  // (refused before the protocol is validated: text_expected, binary_refused).
  bool (*set)(HeavyProtocol* p, int64_t value);
  // What a builder's spec gives, refused (`misplaced`) by heavy_protocol_build when
  // another mechanism's spec gives it; nullptr: the builder takes it for every mechanism
  // and the validation refuses it (start_length: every protocol counts its levels after s0).
  int64_t (*given)(const HeavyProtocolSpec& spec);
  const char* text_expected;   // TextCursor::fail's "expected ..." when set refuses
  const char* binary_refused;  // ByteReader::fail's message when set refuses
  // The mechanism named when another's protocol holds it ("start_length is PEM's, not
  // sfp's": InvalidParameter).
  const char* owner;
};
constexpr int kMaxHeavyOwnFields = 2;

// ---- the registry (heavy_summary.cpp) ----
// One entry per mechanism, in its own file (treehist.cpp, pem.cpp, sfp.cpp). The
// counters are sketches() sketches of hashes × width: the levels' (TreeHist's prefix
// oracles, PEM's groups, SFP's fragment positions), then extra_sketches more (TreeHist's
// final oracle, SFP's word oracle). Each report adds ±1 to one cell of the levels'
// sketches and, with an extra sketch, ±1 to one cell of it: the codec checks each
// block against n.
struct HeavyMechanismImpl {
  HeavyMechanism id;
  const char* name;
  int64_t extra_sketches;  // 0 or 1
  const char* arrays[2];   // the text form's names of the two blocks (second: nullptr when none)
  // Defaults (heavy_protocol_build): the alphabet domain's chars_per_level, hashes (0:
  // TreeHist's rule, n0/(2000·levels)), width.
  int64_t default_chars_per_level, default_hashes, default_width;
  double threshold_scale[2];                     // default τ/√n: alphabet domain; bytes and int64
  double (*sigma_prune)(const HeavySummary& s);  // σ of the estimates the decoder prunes with
  double (*sigma_final)(const HeavySummary& s);  // σ of the output's estimates
  // The final oracle's estimate of an item, and level ℓ's (1-based: a TreeHist level, a
  // PEM group ℓ-1, an SFP position ℓ-1) estimate of its prefix or fragment.
  HeavyEstimate (*frequency)(const HeavySummary& s, const int64_t* table, const HeavyItem& item);
  HeavyEstimate (*level_frequency)(const HeavySummary& s, const int64_t* table, const HeavyItem& item, int64_t level);
  // Fills out->items (count and item bytes only), prune_thresholds, candidates and
  // survivors; out's threshold and σ's are set, s.n > 0. Plans each step's work (and
  // memory, where it grows with the candidates) with the budget before it starts, and
  // polls for a cancel while it runs.
  void (*decode)(const HeavySummary& s, const int64_t* table, const HeavyHittersQuery& q, DecodeBudget& budget,
                 HeavyHitters* out);
  // After heavy_prepare's row transforms, what else the table needs (nullptr: nothing;
  // Bitstogram: the transforms across rows that make each coordinate's sketch one
  // Hadamard transform of its K cells).
  void (*prepare)(const HeavySummary& s, int64_t* table);
  // ---- its protocol (heavy_protocol.cpp reads these, and branches on no mechanism) ----
  // Its own fields (HeavyProtocolField), in the binary form's order; nullptr after them.
  const HeavyProtocolField* fields[kMaxHeavyOwnFields];
  // hashes, width and its own fields from a builder's spec, p's shared fields set
  // (heavy_protocol_build; nullptr: the shared rule, width and hashes from the defaults
  // above). Refuses nothing the validation refuses later.
  void (*defaults)(const HeavyProtocolSpec& spec, HeavyProtocol* p);
  // Its own checks, after the shared ones (validate_heavy_protocol; nullptr: none);
  // symbols = heavy_symbols(p).
  void (*validate)(const HeavyProtocol& p, int64_t symbols);
};
const HeavyMechanismImpl* heavy_impl_from_byte(uint8_t id);  // nullptr: unknown (or reserved)
const HeavyMechanismImpl& heavy_impl(HeavyMechanism id);     // Internal when unknown
// The registry's rows, in the order of their ids.
struct HeavyImpls {
  const HeavyMechanismImpl* const* first;
  size_t count;
  const HeavyMechanismImpl* const* begin() const { return first; }
  const HeavyMechanismImpl* const* end() const { return first + count; }
};
HeavyImpls heavy_impls();
// The symbols of one character (or byte) of a level: the alphabet's characters + 1 (the
// pad), or 256 (bytes, int64); heavy_symbols is this to the power chars_per_level.
int64_t heavy_symbol_base(const HeavyProtocol& p);

// ---- encoders ----
// The item a device encoder of mechanism m reports: the protocol validated and of m
// (InvalidParameter naming the encoder), the item as heavy_item_from_text / _int make it.
void heavy_encoder_item(const HeavyProtocol& p, HeavyMechanism m, std::string_view text, HeavyItem* out);
void heavy_encoder_item(const HeavyProtocol& p, HeavyMechanism m, int64_t value, HeavyItem* out);
// A device encoder: the item checked and cut as heavy_encoder_item does, then encoded.
template <class Report, class Value>
Report heavy_encode_item(const HeavyProtocol& p, HeavyMechanism m, Value item, RandomSource& rng,
                         Report (*encode)(const HeavyProtocol&, const HeavyItem&, RandomSource&)) {
  HeavyItem it;
  heavy_encoder_item(p, m, item, &it);
  return encode(p, it, rng);
}

// ---- decoding pieces ----
constexpr double kZ95 = 1.959963984540054;
inline double heavy_c(double x) { return 1.0 / std::tanh(x / 2); }  // c(x) = (e^x+1)/(e^x-1)
// Φ⁻¹(1 - p): the one-sided normal quantile.
double heavy_upper_quantile(double p);
// The pruning threshold (heavy_summary.hpp, kTreeHistNoiseChildren):
// min(τ, max(τ - 2σ, Φ⁻¹(1 - p)·σ)), p = min(r/symbols, r·(n/τ)/candidates) when
// capped, else r/symbols.
double heavy_prune_threshold(double tau, double sigma, double noise_children, double symbols, int64_t candidates,
                             double n, bool capped);
// Refuses (InvalidParameter) a level that would query more than kMaxHeavyCandidates.
void heavy_check_candidates(const HeavyProtocol& p, double queries, int64_t level, double threshold);

// One HCMS oracle (oracles/hcms_oracle.hpp) of the prepared table: sketch `index`
// of the summary, at ε' = epsilon, over `reports` reports, its estimates × scale.
class HeavyHcms {
 public:
  HeavyHcms(const HeavySummary& s, const int64_t* table, int64_t index, double epsilon, double reports, double scale);
  double estimate(std::string_view u);

 private:
  const int64_t* table_;
  int64_t t_, m_;
  double epsilon_, reports_, scale_;
  std::vector<uint64_t> scratch_;
};

// One count sketch (oracles/count_sketch.hpp) of the prepared table: sketch `index`
// of the summary, its row estimates scale·g_j(u)·T[j][h_j(u)] and their median
// (TreeHist's prefix and final oracles, Bitstogram's final oracle).
class HeavyCountSketch {
 public:
  HeavyCountSketch(const HeavySummary& s, const int64_t* table, int64_t index, double scale);
  // The rows' estimates of u (valid until the next call).
  double* rows(std::string_view u);
  double estimate(std::string_view u);
  bool at_least(std::string_view u, double x);
  int64_t t() const { return t_; }

 private:
  int64_t t_, m_;
  const int64_t* table_;
  double scale_;
  std::vector<uint64_t> hashes_;
  std::vector<double> rows_;
};
// σ of a count sketch's median estimate at ε/2 (TreeHist's σ_F, Bitstogram's final σ,
// derived, docs/algorithms/sketches.md#the-median-over-rows): c(ε/2)·sqrt(π·n·scale/2), scale
// = D for TreeHist's prefixes.
double heavy_count_sketch_sigma(const HeavySummary& s, double scale);

// The alphabet's characters in order (the alphabet domain; a validated protocol).
std::vector<std::string> heavy_alphabet_chars(const HeavyProtocol& p);

// A candidate prefix (or fragment) while a decoder builds it.
struct HeavyNode {
  std::string bytes;
  int64_t chars;  // characters (alphabet), bytes (bytes, int64)
  bool closed;    // a pad (alphabet) or the end symbol (bytes) was seen: only pads follow
};
// The memory a HeavyNode of at most `chars` characters may hold (its bytes on the heap
// past the string's own buffer): what a decoder plans for each candidate it will keep.
double heavy_node_bytes(const HeavyProtocol& p, int64_t chars);
// The extensions of a node by `steps` symbols, at most `limit` characters in all:
// alphabet, a character or the pad (pads only at the end); bytes, a byte other than
// kHeavyEnd or the end; int64, a byte. With `utf8` (bytes domain, whole items' prefixes)
// only prefixes of valid UTF-8 are made, the end only after a whole character, and a
// node of max_length bytes must be whole. A node that is closed or full has one extension,
// itself. Appends to out.
class HeavyExtender {
 public:
  explicit HeavyExtender(const HeavyProtocol& p);
  void extend(const HeavyNode& from, int64_t steps, int64_t limit, bool utf8, std::vector<HeavyNode>& out) const;
  // At most how many extensions a node has: (characters + 1)^steps, or 256^steps.
  double fanout(int64_t steps) const;
  // How many extend(empty open node, steps, steps, false) makes: Σ_{k<=steps} c^k for c
  // characters (alphabet) or 255 bytes (bytes: the end symbol closes), 256^steps (int64).
  double fragments(int64_t steps) const;

 private:
  HeavyDomain domain_;
  int64_t max_length_;
  std::vector<std::string> chars_;  // alphabet domain
};

// Sorts out->items by count descending (ties: item bytes), turns int64 items into their
// decimal text, and fills frequency, std_error (σ_final) and the 95% interval.
void heavy_finish_items(const HeavySummary& s, HeavyHitters* out);

}  // namespace ldp
