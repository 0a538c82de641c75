// Heavy hitters over a large domain (docs/algorithms/heavy-hitters.md):
// the protocol, a public value that devices download before anyone reports. It fixes
// the mechanism, ε, the item domain and how items are cut: into `levels` blocks of
// `chars_per_level` characters (after `start_length` characters for PEM), each block
// with its own oracle of `hashes` rows by `width` columns. The summary
// (heavy_summary.hpp) holds the protocol it was made for.
//
// Mechanisms (the registry kMechanisms in heavy_summary.cpp):
//   treehist (1)  Bassily et al. 2017 §3 (heavy-hitters.md#treehist): a prefix tree,
//                 levels = D prefix oracles and a final one, each a count sketch (median
//                 over rows).
//   bitstogram (2) Bassily et al. 2017 §4 (heavy-hitters.md#bitstogram): levels = D
//                 coordinates of chars_per_level characters (default 1: |Σ| = 27 over
//                 [a-z]); buckets T;
//                 level sketch ℓ holds coordinate ℓ's Hadamard-response vector of
//                 K = hadamard_order(T·|Σ|) <= hashes·width cells (row-major: cell a is
//                 HR row a), the extra sketch the final count sketch, both at ε/2.
//   pem (3)       prefix extending (Wang et al.; heavy-hitters.md#pem-prefix-extending):
//                 levels = g groups; group i's oracle holds the prefixes of s0 + (i+1)·s
//                 characters (s0 = start_length, s = chars_per_level), the last group's
//                 are whole items; g = ceil((max_length - s0)/s). Oracles: HCMS at ε.
//   sfp (4)       Apple's sequence fragment puzzle
//                 (heavy-hitters.md#sfp-sequence-fragment-puzzle): levels = P =
//                 ceil(max_length/s) fragment positions, each with an HCMS oracle at
//                 ε/2 of (8-bit hash of the item, fragment), and one word oracle (HCMS
//                 at ε/2) of whole items.
//
// Domains (how an item becomes symbols; the hash input of a prefix or fragment is its
// bytes, never padded (heavy-hitters.md#protocols-and-item-domains): within one level or
// position the padded strings
// and the unpadded ones are in one-to-one correspondence, since pads only end an item):
//   alphabet  text over a set of distinct UTF-8 characters (default [a-z]) of at most
//             max_length characters. A symbol is chars_per_level characters; a short
//             item is padded with kHeavyPad ('*', pure-LDP's pad), which therefore may
//             not be in the alphabet: |Σ| = (|alphabet| + 1)^chars_per_level. Prefix of
//             level ℓ: the item's first s0 + ℓ·s characters (fewer when it is shorter),
//             as UTF-8. TreeHist's default: 6 characters, 2 per level, 3 levels, |Σ| =
//             27² = 729; PEM's: 6 characters, s0 = 0, s = 3, g = 2; SFP's: 6
//             characters, fragments of 2, P = 3.
//   bytes     any UTF-8 text without U+0000 (PostgreSQL's text cannot hold it) of at
//             most max_length bytes, one byte per level (chars_per_level = 1, levels =
//             max_length - s0, |Σ| = 256). A shorter text ends with kHeavyEnd = 0xFF
//             repeated: a byte that valid UTF-8 never holds, so the end symbol cannot
//             occur in a text. Prefix of level ℓ: the text's first s0 + ℓ bytes (fewer
//             when it is shorter). The decoders only produce valid UTF-8. Default: 6
//             bytes.
//   int64     a 64-bit integer as its 8 big-endian bytes (two's complement), one byte
//             per level: max_length = 8, |Σ| = 256. Prefix of level ℓ: the first s0 + ℓ
//             bytes.
//
// Defaults for the expected users n0 (ε = 2 in the figures; heavy_summary.hpp states
// τ/σ): TreeHist (heavy-hitters.md#treehist-defaults): hashes t = the power of two
// nearest n0/(2000·levels)
// (in log scale), between 8 (so that one collision cannot carry an item:
// heavy_protocol.cpp) and 256; width m = 1024. PEM and SFP: t = 64, m = 4096
// whatever n0 (an HCMS estimate sums its rows, so t does not change its variance; the
// collision bias's RMS, sqrt(Σ_{y≠x} f(y)²/(t·(m-1))) (sketches.md#hash-collisions),
// depends on t·m only, and
// 2^18 cells a sketch keep it, for the bundled SUBTLEX-US words (Σf²/n² = 0.0132), at
// 0.12σ_PEM at n = 10^6 and 0.38σ_PEM (0.33σ_word for SFP) at 10^7, while 64 rows make a
// candidate cost a quarter of 256 × 1024's). Parameters never change after the
// protocol is made: the summary works for any actual n, and the decoder's thresholds
// come from the n the summary holds.
//
// Text form: v1:treehist{epsilon=2,domain=alphabet,alphabet="abc",max_length=6,
// chars_per_level=2,levels=3,hashes=128,width=1024,expected_users=1000000}, fields in
// this order, no alphabet field outside the alphabet domain; the alphabet is quoted,
// with \" and \\ escaped. v1:pem{...} has start_length=<s0> after max_length;
// v1:sfp{...} has TreeHist's fields; v1:bitstogram{...} has buckets=<T> after width.
// Parsing is strict (InvalidText) and validates the protocol.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ldp {

enum class HeavyMechanism : uint8_t { TreeHist = 1, Bitstogram = 2, PEM = 3, SFP = 4 };
enum class HeavyDomain : uint8_t { Alphabet = 1, Bytes = 2, Int64 = 3 };

constexpr char kHeavyPad = '*';      // the alphabet domain's pad character
constexpr uint8_t kHeavyEnd = 0xFF;  // the bytes domain's end symbol
// Bounds, checked before anything is allocated.
constexpr int64_t kMaxHeavyAlphabetBytes = 256;         // the alphabet's UTF-8 bytes
constexpr int64_t kMaxHeavySymbols = int64_t{1} << 16;  // |Σ|: the children of each survivor
constexpr int64_t kMaxHeavyCharsPerLevel = 8;
constexpr int64_t kMaxHeavyLevels = 64;
constexpr int64_t kMaxHeavyHashes = int64_t{1} << 16;
constexpr int64_t kMaxHeavyWidth = int64_t{1} << 22;
// sketches·hashes·width counters at most (sketches: TreeHist and SFP levels + 1, PEM
// levels): 64 MiB as int64 (TreeHist's string default at n0 = 10^7 has 4·256·1024 =
// 2^20, its integer default 9·256·1024; PEM's string default 2·64·4096, SFP's 4·64·4096).
constexpr int64_t kMaxHeavyCells = int64_t{1} << 23;
constexpr int64_t kMaxHeavyExpectedUsers = int64_t{1} << 53;

// A flat value (no pointers: the summary embeds it, the glue copies it).
struct HeavyProtocol {
  uint8_t mechanism;        // HeavyMechanism
  uint8_t domain;           // HeavyDomain
  uint16_t start_length;    // PEM: s0, characters before the first group's s (else 0)
  uint32_t alphabet_bytes;  // alphabet domain: bytes of UTF-8 in alphabet; else 0
  double epsilon;
  int64_t max_length;                     // characters (alphabet), bytes (bytes), 8 (int64)
  int64_t chars_per_level;                // s: characters per symbol (1 outside the alphabet domain)
  int64_t levels;                         // D, g or P = ceil((max_length - start_length) / s)
  int64_t hashes;                         // t
  int64_t width;                          // m, a power of two
  int64_t expected_users;                 // n0, what the defaults were chosen for
  int64_t buckets;                        // Bitstogram: T, the range of the item hash (else 0)
  char alphabet[kMaxHeavyAlphabetBytes];  // zeros after alphabet_bytes

  HeavyMechanism mech() const { return static_cast<HeavyMechanism>(mechanism); }
  HeavyDomain dom() const { return static_cast<HeavyDomain>(domain); }
  std::string_view alphabet_view() const { return {alphabet, alphabet_bytes}; }
  int64_t sketches() const;  // hashes × width sketches: levels (+ 1 for TreeHist's final, SFP's word oracle)
  int64_t cells() const { return sketches() * hashes * width; }
};
static_assert(sizeof(HeavyProtocol) % 8 == 0, "a summary's counters follow it 8-byte aligned");

// What a caller gives: 0 (or an empty alphabet) leaves a parameter to the defaults.
struct HeavyProtocolSpec {
  HeavyMechanism mechanism = HeavyMechanism::TreeHist;
  HeavyDomain domain = HeavyDomain::Alphabet;
  double epsilon = 0;          // required
  int64_t expected_users = 0;  // required
  std::string alphabet;        // alphabet domain only; default "abc...z"
  int64_t max_length = 0, chars_per_level = 0, levels = 0, hashes = 0, width = 0;
  int64_t start_length = -1;  // PEM's s0; -1: the default (0); other mechanisms: -1 or 0
  int64_t buckets = 0;        // Bitstogram's T; 0: the default (bitstogram.cpp)
};

// The protocol with every parameter not given filled from the defaults, validated
// (InvalidParameter).
HeavyProtocol heavy_protocol_build(const HeavyProtocolSpec& spec);
// Throws InvalidParameter unless every field is in range and consistent.
void validate_heavy_protocol(const HeavyProtocol& p);
bool same_heavy_protocol(const HeavyProtocol& a, const HeavyProtocol& b);
// |Σ|: symbols per level (alphabet: (characters + 1)^s; bytes, int64: 256).
int64_t heavy_symbols(const HeavyProtocol& p);
const char* heavy_mechanism_name(HeavyMechanism m);  // "treehist", "pem", "sfp" ("?" otherwise)
const char* heavy_domain_name(HeavyDomain d);        // "alphabet", "bytes", "int64"
bool heavy_mechanism_known(std::string_view name);   // a text form's "v1:<name>{"

std::string heavy_protocol_to_text(const HeavyProtocol& p);
HeavyProtocol heavy_protocol_from_text(const char* text);  // InvalidText
// Binary form (what ldp.heavy_protocol stores and sends): u8 version (1), then the
// fields as a summary's stored form holds them (big-endian). Reading is exact and
// validates (InvalidBinary).
size_t heavy_protocol_binary_size(const HeavyProtocol& p);
void heavy_protocol_to_binary(const HeavyProtocol& p, uint8_t* out, size_t cap);
HeavyProtocol heavy_protocol_from_binary(const uint8_t* bytes, size_t len);

// An item as the tree sees it: its bytes (alphabet, bytes: the text; int64: 8
// big-endian bytes) and, for each level ℓ in 1..levels, the end of its prefix in them
// (s0 + ℓ·s characters or fewer; prefix_end[0] = 0). SFP's fragment at position ℓ is
// bytes [prefix_end[ℓ], prefix_end[ℓ + 1]).
// Throws OutOfRange for an item the protocol cannot encode (a character outside the
// alphabet, with its position; invalid UTF-8; too long) and InvalidParameter for an
// item of the other kind (text to an int64 protocol, an integer to a text one).
struct HeavyItem {
  std::string bytes;
  int64_t prefix_end[kMaxHeavyLevels + 1];  // [ℓ]: bytes of the level-ℓ prefix
  std::string_view prefix(int64_t level) const {
    return std::string_view(bytes).substr(0, static_cast<size_t>(prefix_end[level]));
  }
};
void heavy_item_from_text(const HeavyProtocol& p, std::string_view text, HeavyItem* out);
void heavy_item_from_int(const HeavyProtocol& p, int64_t value, HeavyItem* out);

}  // namespace ldp
