// The mutations of ldp_summary_fuzz (summary_fuzz.cpp has the oracle): edits of a
// valid text or binary form aimed at what the parsers read.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fuzz_common.hpp"

namespace ldp_fuzz {

namespace {

// ---- mutations ----

// Characters the text parsers give meaning to, and a few they do not (as in the unit test).
const char kTextAlphabet[] = "0123456789-+.,:={}[]epxXnaIfvcounts_gmdlrhbikwyz*\"\\ \t\x7f";

const char* const kNumbers[] = {
    "0", "-0", "1", "-1", "2", "3", "0.5", "700", "700.0000001", "701", "1e-300", "5e-324", "1e308",
    "1e309", "-1e308", "NaN", "nan", "Infinity", "inf", "-Infinity", "-inf", "4194304", "4194305",
    "2147483647", "2147483648", "-2147483648", "4294967296", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "18446744073709551616", "99999999999999999999",
    "0x1p-1074", "0x1p1023", "0x1p1024", "0x1.fffffffffffffp1023", "0xffffffffffffffffp0",
    "0x1p100000", "0x1p-100000", "0x-1p0", "-0x1p0", "0x0p0", "0x1p", "0x", "1e", "", " 1", "1 ",
    "+1", "01", "1.", ".1", "1e+", "0x7fffffffffffffffp1000", "0x1p-1100", "65536", "65537", "1024",
    "16", "0.0001", "0.00009999999999999999"};

const char* const kMechanisms[] = {"rr", "onebit", "laplace", "piecewise", "grr", "sue", "oue",
                                   "dbitflip", "olh", "hadamard", "RR", "", "x", "cms", "hcms",
                                   "hashtogram", "sketch", "treehist", "TreeHist", "treehistx"};
// The heavy-hitters protocol's words (domain names) and the quoted alphabet's pieces.
const char* const kWords[] = {"alphabet", "bytes", "int64", "int32", "", "\"\"", "\"a\"", "\"*\"", "\"aa\"",
                              "\"\\\"", "\"a\\\"b\"", "\"\\x\"", "\"ab", "ab\"", "\"\x01\""};


// The value spans of `name=value` fields in a text form (a value runs to the next ',' or
// '}' at bracket depth 0).
struct Span {
  size_t begin, end;
};
std::vector<Span> field_values(const std::string& s) {
  std::vector<Span> out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '=') continue;
    size_t j = i + 1;
    int depth = 0;
    while (j < s.size()) {
      char c = s[j];
      if (c == '[') ++depth;
      else if (c == ']') { if (depth == 0) break; --depth; }
      else if ((c == ',' || c == '}') && depth == 0) break;
      ++j;
    }
    out.push_back({i + 1, j});
  }
  return out;
}

// Number spans inside [...] lists.
std::vector<Span> list_elements(const std::string& s) {
  std::vector<Span> out;
  bool in_list = false;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '[') { in_list = true; start = i + 1; }
    else if (in_list && (c == ',' || c == ']')) {
      out.push_back({start, i});
      start = i + 1;
      if (c == ']') in_list = false;
    }
  }
  return out;
}

void keep_ascii(std::string& s) {  // no NUL (cannot be sent), nothing outside ASCII (22021)
  for (char& c : s) {
    unsigned char u = static_cast<unsigned char>(c) & 0x7f;
    c = static_cast<char>(u == 0 ? 1 : u);
  }
}

}  // namespace

std::string mutate_text(const std::string& in, const std::vector<Seed>& seeds, std::mt19937_64& g) {
  std::string s = in;
  int edits = 1 + static_cast<int>(g() % 3);
  for (int e = 0; e < edits; ++e) {
    if (s.empty()) s = "v1:";
    size_t at = g() % s.size();
    switch (g() % 14) {
      case 13: {  // a field's value replaced by a word (a domain, an alphabet, quotes)
        std::vector<Span> f = field_values(s);
        if (f.empty()) break;
        Span sp = f[g() % f.size()];
        s.replace(sp.begin, sp.end - sp.begin, kWords[g() % (sizeof kWords / sizeof *kWords)]);
        break;
      }
      case 0:  // a flipped bit
        s[at] = static_cast<char>(s[at] ^ (1u << (g() % 7)));
        break;
      case 1:  // a replaced byte
        s[at] = kTextAlphabet[g() % (sizeof kTextAlphabet - 1)];
        break;
      case 2: {  // a deleted range
        s.erase(at, 1 + g() % 8);
        break;
      }
      case 3: {  // a repeated range
        std::string piece = s.substr(at, 1 + g() % 16);
        s.insert(g() % (s.size() + 1), piece);
        break;
      }
      case 4:  // a cut
        s.resize(at);
        break;
      case 5:
      case 6:
      case 7: {  // a field's value replaced by an extreme one (n, k, epsilon, counts, ...)
        std::vector<Span> f = field_values(s);
        if (f.empty()) break;
        Span sp = f[g() % f.size()];
        std::string v = kNumbers[g() % (sizeof kNumbers / sizeof *kNumbers)];
        if (s.compare(sp.begin, 1, "[") == 0 && g() % 2 == 0) {  // a list: another length
          size_t len = g() % 12;
          v = "[";
          for (size_t i = 0; i < len; ++i) v += (i ? "," : "") + std::string(kNumbers[g() % 8]);
          v += "]";
        }
        s.replace(sp.begin, sp.end - sp.begin, v);
        break;
      }
      case 8: {  // one element of a list replaced, repeated, dropped or moved by 1 or 2
        std::vector<Span> el = list_elements(s);
        if (el.empty()) break;
        Span sp = el[g() % el.size()];
        switch (g() % 4) {
          case 3: {  // (counters that still fit n: sound forms of other counts)
            long long v = 0;
            std::string e = s.substr(sp.begin, sp.end - sp.begin);
            if (e.empty() || e.find_first_not_of("-0123456789") != std::string::npos) break;
            try {
              v = std::stoll(e);
            } catch (const std::exception&) {
              break;
            }
            static const long long kDeltas[] = {-2, -1, 1, 2};
            long long moved = 0;
            if (__builtin_add_overflow(v, kDeltas[g() % 4], &moved)) break;
            s.replace(sp.begin, sp.end - sp.begin, std::to_string(moved));
            break;
          }
          case 0:
            s.replace(sp.begin, sp.end - sp.begin, kNumbers[g() % (sizeof kNumbers / sizeof *kNumbers)]);
            break;
          case 1:
            s.insert(sp.end, "," + s.substr(sp.begin, sp.end - sp.begin));
            break;
          default:
            s.erase(sp.begin, sp.end - sp.begin + (sp.end < s.size() && s[sp.end] == ',' ? 1 : 0));
        }
        break;
      }
      case 9: {  // another mechanism or version with the same fields
        size_t colon = s.find(':'), brace = s.find('{');
        if (colon == std::string::npos || brace == std::string::npos || brace < colon) break;
        if (g() % 3 == 0) s.replace(0, colon, g() % 2 ? "v2" : "v0");
        else s.replace(colon + 1, brace - colon - 1, kMechanisms[g() % (sizeof kMechanisms / sizeof *kMechanisms)]);
        break;
      }
      case 10: {  // a whole field dropped or repeated
        std::vector<Span> f = field_values(s);
        if (f.empty()) break;
        Span sp = f[g() % f.size()];
        size_t name = s.find_last_of(",{", sp.begin - 1);
        name = name == std::string::npos ? 0 : name + 1;
        std::string field = s.substr(name, sp.end - name);
        if (g() % 2) s.insert(sp.end, "," + field);
        else s.erase(name, sp.end - name + (sp.end < s.size() && s[sp.end] == ',' ? 1 : 0));
        break;
      }
      case 11: {  // two fields' values swapped (a sketch's hashes and width: the same counters)
        std::vector<Span> f = field_values(s);
        if (f.size() < 2) break;
        size_t i = g() % f.size(), j = g() % f.size();
        if (i == j) j = (i + 1) % f.size();
        Span a = f[std::min(i, j)], b = f[std::max(i, j)];
        std::string va = s.substr(a.begin, a.end - a.begin), vb = s.substr(b.begin, b.end - b.begin);
        s.replace(b.begin, b.end - b.begin, va);  // the later one first: a's span stays put
        s.replace(a.begin, a.end - a.begin, vb);
        break;
      }
      default: {  // a piece of another seed's form spliced in
        const std::string& other = pick(seeds, g).text;
        size_t from = g() % other.size();
        s.insert(at, other.substr(from, 1 + g() % 24));
      }
    }
  }
  keep_ascii(s);
  return s;
}


// Edge values for an 8-byte field: integers (n, k, d, counts) and doubles (epsilon, ...).
const uint64_t kEdges[] = {0, 1, 2, 3, ~uint64_t{0}, uint64_t{1} << 63, (uint64_t{1} << 63) - 1,
                           uint64_t{1} << 22, (uint64_t{1} << 22) + 1, uint64_t{1} << 31,
                           uint64_t{1} << 32, 0x7ff8000000000000ull /* NaN */,
                           0x7ff0000000000000ull /* +inf */, 0xfff0000000000000ull /* -inf */,
                           0x8000000000000000ull /* -0.0 */, 0x7fefffffffffffffull /* DBL_MAX */,
                           0x4085e00000000000ull /* 700 */, 0x4085e00000000001ull,
                           0x01a56e1fc2f8f359ull /* 1e-300 */, 0x3ff0000000000000ull /* 1.0 */,
                           0xbff0000000000000ull /* -1.0 */, 0x3fe0000000000000ull /* 0.5 */};

void put_be64(Bytes& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<uint8_t>(v >> (56 - 8 * i));
}

// The stored form (src/core/common/stored_form.hpp) every send function writes: "LDPS",
// u8 format (2; 3 for sketches and heavy hitters), u8 family, u8 mechanism, then
// big-endian fields (parameters, n, counters): 8 bytes each from the seed's
// fields_start on (7; a heavy-hitters summary has its u8 domain first). Format 3
// (compact counters) has, at the seed's counter_width_at (after a sketch's four fields,
// after a heavy-hitters summary's protocol and n), u8 bytes per counter and the counters
// at that width. (ldp.heavy_protocol's binary form has its own layout: u8 version, u8
// mechanism, u8 domain, then the 8-byte fields from byte 3.)
constexpr size_t kFormatByte = 4, kMechanismByte = 6;

// A format-3 form rewritten with its counters at `bytes` bytes each (they are
// sign-extended, or truncated when narrower: then usually another summary, or refused).
Bytes rewidened(const Bytes& b, int bytes, size_t at) {
  int from = b[at];
  if (from != 1 && from != 2 && from != 4 && from != 8) return b;
  size_t start = at + 1, cells = (b.size() - start) / static_cast<size_t>(from);
  Bytes out(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(start));
  out[at] = static_cast<uint8_t>(bytes);
  for (size_t i = 0; i < cells; ++i) {
    uint64_t v = (b[start + i * from] & 0x80) ? ~uint64_t{0} : 0;  // sign
    for (int k = 0; k < from; ++k) v = v << 8 | b[start + i * from + k];
    for (int k = bytes - 1; k >= 0; --k) out.push_back(static_cast<uint8_t>(v >> (8 * k)));
  }
  return out;
}

Bytes mutate_binary(const Seed& seed, const std::vector<Seed>& seeds, std::mt19937_64& g) {
  Bytes b = seed.binary;
  const size_t kFieldsStart = seed.fields_start, kCounterWidthAt = seed.counter_width_at;
  int edits = 1 + static_cast<int>(g() % 3);
  for (int e = 0; e < edits; ++e) {
    if (b.empty()) b.push_back(1);
    size_t at = g() % b.size();
    switch (g() % 15) {
      case 0:
        b[at] = static_cast<uint8_t>(b[at] ^ (1u << (g() % 8)));
        break;
      case 1:
        b[at] = static_cast<uint8_t>(g());
        break;
      case 2:
        b.erase(b.begin() + at, b.begin() + std::min(b.size(), at + 1 + g() % 8));
        break;
      case 3: {
        Bytes piece(b.begin() + at, b.begin() + std::min(b.size(), at + 1 + g() % 16));
        b.insert(b.begin() + g() % (b.size() + 1), piece.begin(), piece.end());
        break;
      }
      case 4:
        b.resize(at);
        break;
      case 5:
      case 6:
      case 7: {  // a field set to an edge value
        if (b.size() < kFieldsStart + 8) break;
        size_t fields = (b.size() - kFieldsStart) / 8;
        put_be64(b, kFieldsStart + 8 * (g() % fields), kEdges[g() % (sizeof kEdges / sizeof *kEdges)]);
        break;
      }
      case 8: {  // anywhere: an edge value at an unaligned offset
        if (b.size() < 8) break;
        put_be64(b, g() % (b.size() - 7), kEdges[g() % (sizeof kEdges / sizeof *kEdges)]);
        break;
      }
      case 9: {  // the format, family or mechanism byte
        size_t byte = kFormatByte + g() % (kMechanismByte - kFormatByte + 1);
        if (b.size() > byte) b[byte] = static_cast<uint8_t>(g() % 4 == 0 ? g() : g() % 12);
        break;
      }
      case 11: {  // two fields swapped (a sketch's hashes and width: the same length), or
                  // one moved by 1 or 2 (an integer: other counts; a double: a neighbour)
        if (b.size() < kFieldsStart + 16) break;
        size_t fields = (b.size() - kFieldsStart) / 8, i = g() % fields, j = g() % fields;
        if (g() % 2) {
          for (size_t k = 0; k < 8; ++k) std::swap(b[kFieldsStart + 8 * i + k], b[kFieldsStart + 8 * j + k]);
          break;
        }
        uint64_t v = 0;
        for (size_t k = 0; k < 8; ++k) v = v << 8 | b[kFieldsStart + 8 * i + k];
        static const uint64_t kDeltas[] = {~uint64_t{1}, ~uint64_t{0}, 1, 2};  // -2, -1, 1, 2
        put_be64(b, kFieldsStart + 8 * i, v + kDeltas[g() % 4]);
        break;
      }
      case 13:  // format 3: another counter width byte, or the counters rewritten at another width
        if (kCounterWidthAt > 0 && b.size() > kCounterWidthAt && b[0] == 'L' && b[kFormatByte] == 3) {
          static const int kWidths[] = {1, 2, 4, 8};
          if (g() % 3 == 0)
            b[kCounterWidthAt] = static_cast<uint8_t>(g() % 2 ? kWidths[g() % 4] : g() % 256);
          else
            b = rewidened(b, kWidths[g() % 4], kCounterWidthAt);
        }
        break;
      case 14: {  // a byte the text and item parsers care about (NUL, the pad '*', quote,
                  // backslash, UTF-8 lead and continuation bytes, the bytes domain's end 0xFF)
        static const uint8_t kBytes[] = {0x00, '*', '"', '\\', 0x80, 0xBF, 0xC3, 0xE2, 0xF0, 0xF5, 0xFF, 0x7F};
        b[at] = kBytes[g() % sizeof kBytes];
        break;
      }
      case 12:  // the format-1 image of the same body: version byte 1, then from the mechanism on
        if (b.size() > kMechanismByte && b[0] == 'L') {
          b.erase(b.begin(), b.begin() + kMechanismByte - 1);
          b[0] = 1;
        }
        break;
      default: {  // a piece of another seed's binary form, or random bytes appended
        const Bytes& other = pick(seeds, g).binary;
        if (other.empty() || g() % 3 == 0) {
          size_t n = 1 + g() % 16;
          for (size_t i = 0; i < n; ++i) b.push_back(static_cast<uint8_t>(g()));
        } else {
          size_t from = g() % other.size();
          b.insert(b.begin() + at, other.begin() + from,
                   other.begin() + std::min(other.size(), from + 1 + g() % 24));
        }
      }
    }
  }
  return b;
}

std::string hex(const Bytes& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t c : b) {
    s += d[c >> 4];
    s += d[c & 15];
  }
  return s;
}

}  // namespace ldp_fuzz
