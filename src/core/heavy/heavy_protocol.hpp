// Heavy hitters over a large domain (ALGORITHMS.md "Large domains: conventions", §6):
// the protocol, a public value that devices download before anyone reports. It fixes
// the mechanism, ε, the item domain and the tree: items are cut into `levels` symbols
// of `chars_per_level` characters, a prefix of ℓ symbols is a node at level ℓ, and each
// level's oracle (and the final one) is §5.1's count sketch of `hashes` rows by
// `width` columns. The summary (heavy_summary.hpp) holds the protocol it was made for.
//
// Mechanisms: TreeHist (seed 003 §3, ALGORITHMS.md §6.1). The enum leaves room for
// Bitstogram, PEM and Apple's SFP, which share this value and the summary's shape.
//
// Domains (how an item becomes symbols; the hash input of a prefix is its bytes, never
// padded, as §6.1 says):
//   alphabet  text over a set of distinct UTF-8 characters (default [a-z]) of at most
//             max_length characters. A symbol is chars_per_level characters; a short
//             item is padded with kHeavyPad ('*', pure-LDP's pad), which therefore may
//             not be in the alphabet: |Σ| = (|alphabet| + 1)^chars_per_level. Prefix of
//             level ℓ: the item's first ℓ·s characters (fewer when it is shorter), as
//             UTF-8. Default: 6 characters, 2 per level, 3 levels, |Σ| = 27² = 729.
//   bytes     any UTF-8 text without U+0000 (PostgreSQL's text cannot hold it) of at
//             most max_length bytes, one byte per level (chars_per_level = 1, levels =
//             max_length, |Σ| = 256). A shorter text ends with kHeavyEnd = 0xFF
//             repeated: a byte that valid UTF-8 never holds, so the end symbol cannot
//             occur in a text. Prefix of level ℓ: the text's first ℓ bytes (fewer when it
//             is shorter). The decoder only extends prefixes of valid UTF-8. Default:
//             6 bytes.
//   int64     a 64-bit integer as its 8 big-endian bytes (two's complement), one byte
//             per level: levels = max_length = 8, |Σ| = 256. Prefix of level ℓ: the
//             first ℓ bytes.
//
// Defaults for the expected users n0 (§6.1's table, ε = 2): hashes t = the power of two
// nearest n0/(2000·levels) (in log scale), between 8 (so that one collision cannot carry
// an item: heavy_protocol.cpp) and 256; width m = 1024.
// Parameters never change after the protocol is made: the summary works for any
// actual n, and the decoder's thresholds come from the n the summary holds.
//
// Text form: v1:treehist{epsilon=2,domain=alphabet,alphabet="abc",max_length=6,
// chars_per_level=2,levels=3,hashes=128,width=1024,expected_users=1000000}, fields in
// this order, no alphabet field outside the alphabet domain; the alphabet is quoted,
// with \" and \\ escaped. Parsing is strict (InvalidText) and validates the protocol.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ldp {

enum class HeavyMechanism : uint8_t { TreeHist = 1 };  // next: Bitstogram, PEM, SFP
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
// (levels + 1)·hashes·width counters at most: 64 MiB as int64 (the string default at
// n0 = 10^7 has 4·256·1024 = 2^20, the integer default 9·256·1024).
constexpr int64_t kMaxHeavyCells = int64_t{1} << 23;
constexpr int64_t kMaxHeavyExpectedUsers = int64_t{1} << 53;

// A flat value (no pointers: the summary embeds it, the glue copies it).
struct HeavyProtocol {
  uint8_t mechanism;  // HeavyMechanism
  uint8_t domain;     // HeavyDomain
  uint8_t pad[2];
  uint32_t alphabet_bytes;  // alphabet domain: bytes of UTF-8 in alphabet; else 0
  double epsilon;
  int64_t max_length;                     // characters (alphabet), bytes (bytes), 8 (int64)
  int64_t chars_per_level;                // s: characters per symbol (1 outside the alphabet domain)
  int64_t levels;                         // D = ceil(max_length / s)
  int64_t hashes;                         // t
  int64_t width;                          // m, a power of two
  int64_t expected_users;                 // n0, what the defaults were chosen for
  char alphabet[kMaxHeavyAlphabetBytes];  // zeros after alphabet_bytes

  HeavyMechanism mech() const { return static_cast<HeavyMechanism>(mechanism); }
  HeavyDomain dom() const { return static_cast<HeavyDomain>(domain); }
  std::string_view alphabet_view() const { return {alphabet, alphabet_bytes}; }
  int64_t cells() const { return (levels + 1) * hashes * width; }
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
};

// The protocol with every parameter not given filled from the defaults, validated
// (InvalidParameter).
HeavyProtocol heavy_protocol_build(const HeavyProtocolSpec& spec);
// Throws InvalidParameter unless every field is in range and consistent.
void validate_heavy_protocol(const HeavyProtocol& p);
bool same_heavy_protocol(const HeavyProtocol& a, const HeavyProtocol& b);
// |Σ|: symbols per level (alphabet: (characters + 1)^s; bytes, int64: 256).
int64_t heavy_symbols(const HeavyProtocol& p);
const char* heavy_mechanism_name(HeavyMechanism m);  // "treehist"
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
// big-endian bytes) and, for each level ℓ in 1..levels, the end of its prefix in them.
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
