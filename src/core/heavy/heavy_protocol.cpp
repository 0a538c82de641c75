// The heavy-hitters protocol: defaults, validation, its text and binary fields, and how
// an item becomes the bytes of its prefixes (heavy_protocol.hpp).
#include "core/heavy/heavy_protocol.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <utility>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/heavy/heavy_internal.hpp"

namespace ldp {

// ---- UTF-8 ----

int utf8_char_length(std::string_view s) {
  if (s.empty()) return 0;
  const auto b = [&](size_t i) { return static_cast<uint8_t>(s[i]); };
  const uint8_t c = b(0);
  if (c < 0x80) return 1;
  int len = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    len = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
  else if (c >= 0xF0 && c <= 0xF4)
    len = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
  else
    return 0;
  if (s.size() < static_cast<size_t>(len) || b(1) < lo || b(1) > hi) return 0;
  for (int i = 2; i < len; ++i)
    if (b(static_cast<size_t>(i)) < 0x80 || b(static_cast<size_t>(i)) > 0xBF) return 0;
  return len;
}

int utf8_prefix_state(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const int len = utf8_char_length(s.substr(i));
    if (len > 0) {
      i += static_cast<size_t>(len);
      continue;
    }
    // A character cut short by the end of s is a valid beginning when its bytes so far
    // are: complete it with the smallest continuation bytes its lead allows and check.
    const size_t have = s.size() - i;
    const uint8_t c = static_cast<uint8_t>(s[i]);
    const int need = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (need == 0 || have >= static_cast<size_t>(need)) return -1;
    char buf[4];
    std::memcpy(buf, s.data() + i, have);
    for (size_t k = have; k < static_cast<size_t>(need); ++k) buf[k] = static_cast<char>(0x80);
    if (have == 1) buf[1] = static_cast<char>(c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80);
    if (utf8_char_length(std::string_view(buf, static_cast<size_t>(need))) != need) return -1;
    return need - static_cast<int>(have);
  }
  return 0;
}

// ---- names ----

namespace {
constexpr const char* kDefaultAlphabet = "abcdefghijklmnopqrstuvwxyz";
constexpr int64_t kDefaultTextLength = 6;
constexpr int64_t kDefaultMaxHashes = 256;
// At least 8 rows (ours, 2026-11-25): with t = 1 (the rule's value below 3000·D users) an
// item that collides with a heavy one in its single row gets the heavy one's count, and
// the thousands of candidates that reach the final oracle find such collisions (1 in m
// each): two false heavy hitters at n = 20,000 (int64). The median of 8 rows needs 4 of
// them to collide.
constexpr int64_t kDefaultMinHashes = 8;
constexpr double kUsersPerCell = 2000;  // t ≈ n0 / (2000·D): users per (level, row)

[[noreturn]] void bad(const char* fmt, int64_t a, int64_t b = 0) {
  throw_error(ErrorKind::InvalidParameter, fmt, a, b);
}

// The alphabet's characters, each checked (valid UTF-8, not the pad, distinct); returns
// their number.
int64_t alphabet_chars(std::string_view a) {
  int64_t count = 0;
  bool ascii_seen[128] = {};
  for (size_t i = 0; i < a.size();) {
    const int len = utf8_char_length(a.substr(i));
    if (len == 0) bad("the alphabet is not valid UTF-8 (at byte %" PRId64 ")", static_cast<int64_t>(i + 1));
    const std::string_view ch = a.substr(i, static_cast<size_t>(len));
    // U+0000 (found by test/fuzz.sh, a binary form's alphabet "a\0c"): no text item can
    // hold it (PostgreSQL's text cannot), and the protocol's text form, a C string, would
    // end there and not read back. Refused as the bytes domain refuses it in items.
    if (ch.size() == 1 && ch[0] == '\0')
      bad("the alphabet may not contain U+0000 (at byte %" PRId64 ")", static_cast<int64_t>(i + 1));
    if (ch.size() == 1 && ch[0] == kHeavyPad)
      throw_error(ErrorKind::InvalidParameter, "the alphabet may not contain the pad character '%c'", kHeavyPad);
    const bool seen = len == 1 ? std::exchange(ascii_seen[static_cast<uint8_t>(ch[0])], true)
                               : a.substr(0, i).find(ch) != std::string_view::npos;
    if (seen)
      throw_error(ErrorKind::InvalidParameter, "the alphabet repeats the character '%.*s'", static_cast<int>(ch.size()),
                  ch.data());
    i += static_cast<size_t>(len);
    ++count;
  }
  return count;
}
}  // namespace

const char* heavy_mechanism_name(HeavyMechanism m) {
  const HeavyMechanismImpl* impl = heavy_impl_from_byte(static_cast<uint8_t>(m));
  return impl != nullptr ? impl->name : "?";
}

const char* heavy_domain_name(HeavyDomain d) {
  switch (d) {
    case HeavyDomain::Alphabet:
      return "alphabet";
    case HeavyDomain::Bytes:
      return "bytes";
    case HeavyDomain::Int64:
      return "int64";
  }
  return "?";
}

const HeavyMechanism* heavy_mechanism_by_name(const char* name, size_t len) {
  for (uint8_t id = 1; id < 8; ++id) {
    const HeavyMechanismImpl* impl = heavy_impl_from_byte(id);
    if (impl != nullptr && std::strlen(impl->name) == len && std::memcmp(impl->name, name, len) == 0) return &impl->id;
  }
  return nullptr;
}

bool heavy_mechanism_known(std::string_view name) {
  return heavy_mechanism_by_name(name.data(), name.size()) != nullptr;
}

std::string heavy_mechanism_names() {
  std::string names;
  for (uint8_t id = 1; id < 8; ++id)
    if (const HeavyMechanismImpl* impl = heavy_impl_from_byte(id))
      names += (names.empty() ? "" : ", ") + std::string(impl->name);
  return names;
}

// ---- validation and defaults ----

int64_t heavy_symbol_base(const HeavyProtocol& p) {
  return p.dom() == HeavyDomain::Alphabet ? alphabet_chars(p.alphabet_view()) + 1 : 256;
}

int64_t heavy_symbols(const HeavyProtocol& p) {
  if (p.dom() != HeavyDomain::Alphabet) return 256;
  const int64_t base = heavy_symbol_base(p);
  int64_t sigma = 1;
  for (int64_t i = 0; i < p.chars_per_level; ++i) {
    if (sigma > kMaxHeavySymbols / base) return kMaxHeavySymbols + 1;  // refused by validate
    sigma *= base;
  }
  return sigma;
}

namespace {
bool has_field(const HeavyMechanismImpl& impl, const HeavyProtocolField* f) {
  for (const HeavyProtocolField* own : impl.fields)
    if (own == f) return true;
  return false;
}

// Calls visit(field) for each field of another mechanism than impl's.
template <class Visit>
void for_foreign_fields(const HeavyMechanismImpl& impl, Visit visit) {
  for (const HeavyMechanismImpl* other : heavy_impls())
    for (const HeavyProtocolField* f : other->fields)
      if (f != nullptr && !has_field(impl, f)) visit(*f);
}

[[noreturn]] void misplaced(const HeavyProtocolField& f, const HeavyMechanismImpl& impl) {
  throw_error(ErrorKind::InvalidParameter, "%s is %s's, not %s's", f.key, f.owner, impl.name);
}
}  // namespace

int64_t HeavyProtocol::sketches() const {
  const HeavyMechanismImpl* impl = heavy_impl_from_byte(mechanism);
  return levels + (impl != nullptr ? impl->extra_sketches : 0);
}

void validate_heavy_protocol(const HeavyProtocol& p) {
  const HeavyMechanismImpl* impl = heavy_impl_from_byte(p.mechanism);
  if (impl == nullptr) bad("unknown heavy-hitters mechanism %" PRId64, p.mechanism);
  check_epsilon(p.epsilon);
  if (p.expected_users < 1 || p.expected_users > kMaxHeavyExpectedUsers)
    bad("expected_users must be in [1, %" PRId64 "], got %" PRId64, kMaxHeavyExpectedUsers, p.expected_users);
  if (p.chars_per_level < 1 || p.chars_per_level > kMaxHeavyCharsPerLevel)
    bad("chars_per_level must be in [1, %" PRId64 "], got %" PRId64, kMaxHeavyCharsPerLevel, p.chars_per_level);
  switch (p.dom()) {
    case HeavyDomain::Alphabet:
      if (p.alphabet_bytes < 1 || p.alphabet_bytes > kMaxHeavyAlphabetBytes)
        bad("the alphabet must have 1 to %" PRId64 " bytes of UTF-8, got %" PRId64, kMaxHeavyAlphabetBytes,
            p.alphabet_bytes);
      break;
    case HeavyDomain::Bytes:
    case HeavyDomain::Int64:
      if (p.alphabet_bytes != 0)
        throw_error(ErrorKind::InvalidParameter, "an alphabet is given to the %s domain", heavy_domain_name(p.dom()));
      if (p.chars_per_level != 1)
        bad("the bytes and int64 domains have one byte per level, got chars_per_level = %" PRId64, p.chars_per_level);
      if (p.dom() == HeavyDomain::Int64 && p.max_length != 8)
        bad("the int64 domain has max_length = 8 (bytes), got %" PRId64, p.max_length);
      break;
    default:
      bad("unknown heavy-hitters domain %" PRId64, p.domain);
  }
  for (size_t i = p.alphabet_bytes; i < sizeof p.alphabet; ++i)
    if (p.alphabet[i] != 0) throw_error(ErrorKind::Internal, "heavy protocol: bytes after the alphabet");
  const int64_t sigma = heavy_symbols(p);
  if (sigma > kMaxHeavySymbols)
    bad("symbols per level, (alphabet characters + 1)^chars_per_level, must be at most %" PRId64
        " (got chars_per_level = %" PRId64 ")",
        kMaxHeavySymbols, p.chars_per_level);
  const int64_t s0 = p.start_length;
  if (p.max_length < 1 || p.max_length > s0 + kMaxHeavyLevels * p.chars_per_level)
    bad("max_length must be in [1, %" PRId64 "], got %" PRId64, s0 + kMaxHeavyLevels * p.chars_per_level, p.max_length);
  for_foreign_fields(*impl, [&](const HeavyProtocolField& f) {
    if (f.get(p) != 0) misplaced(f, *impl);
  });
  if (s0 >= p.max_length) bad("start_length must be in [0, max_length = %" PRId64 "), got %" PRId64, p.max_length, s0);
  const int64_t want_levels = (p.max_length - s0 + p.chars_per_level - 1) / p.chars_per_level;
  if (p.levels != want_levels)
    bad("levels must be ceil((max_length - start_length) / chars_per_level) = %" PRId64 ", got %" PRId64, want_levels,
        p.levels);
  if (p.hashes < 1 || p.hashes > kMaxHeavyHashes)
    bad("hashes must be in [1, %" PRId64 "], got %" PRId64, kMaxHeavyHashes, p.hashes);
  if (p.width < 2 || p.width > kMaxHeavyWidth || (p.width & (p.width - 1)) != 0)
    bad("width must be a power of two in [2, %" PRId64 "], got %" PRId64, kMaxHeavyWidth, p.width);
  if (p.hashes * p.width > kMaxHeavyCells / p.sketches())
    throw_error(ErrorKind::InvalidParameter,
                "sketches * hashes * width must be at most %" PRId64 " (a summary of 64 MiB), got %" PRId64
                " * %" PRId64 " * %" PRId64 " (%s: %s)",
                kMaxHeavyCells, p.sketches(), p.hashes, p.width, impl->name,
                impl->extra_sketches != 0 ? "levels + 1 sketches" : "levels sketches");
  if (impl->validate != nullptr) impl->validate(p, sigma);
}

HeavyProtocol heavy_protocol_build(const HeavyProtocolSpec& spec) {
  const HeavyMechanismImpl* impl = heavy_impl_from_byte(static_cast<uint8_t>(spec.mechanism));
  if (impl == nullptr) bad("unknown heavy-hitters mechanism %" PRId64, static_cast<int64_t>(spec.mechanism));
  HeavyProtocol p;
  std::memset(&p, 0, sizeof p);
  p.mechanism = static_cast<uint8_t>(spec.mechanism);
  p.domain = static_cast<uint8_t>(spec.domain);
  p.epsilon = spec.epsilon;
  p.expected_users = spec.expected_users;
  if (spec.epsilon == 0) throw_error(ErrorKind::InvalidParameter, "epsilon is required");
  if (spec.expected_users < 1 || spec.expected_users > kMaxHeavyExpectedUsers)
    bad("expected_users must be in [1, %" PRId64 "], got %" PRId64, kMaxHeavyExpectedUsers, spec.expected_users);
  if (spec.domain == HeavyDomain::Alphabet) {
    const std::string& a = spec.alphabet.empty() ? std::string(kDefaultAlphabet) : spec.alphabet;
    if (a.size() > static_cast<size_t>(kMaxHeavyAlphabetBytes))
      bad("the alphabet must have 1 to %" PRId64 " bytes of UTF-8, got %" PRId64, kMaxHeavyAlphabetBytes,
          static_cast<int64_t>(a.size()));
    std::memcpy(p.alphabet, a.data(), a.size());
    p.alphabet_bytes = static_cast<uint32_t>(a.size());
    p.chars_per_level = spec.chars_per_level != 0 ? spec.chars_per_level : impl->default_chars_per_level;
  } else {
    if (!spec.alphabet.empty())
      throw_error(ErrorKind::InvalidParameter, "an alphabet is given to the %s domain", heavy_domain_name(spec.domain));
    p.chars_per_level = spec.chars_per_level != 0 ? spec.chars_per_level : 1;
  }
  if (spec.start_length < -1 || spec.start_length > kMaxHeavyLevels * kMaxHeavyCharsPerLevel)
    bad("start_length must be in [0, max_length), got %" PRId64, spec.start_length);
  const int64_t s0 = spec.start_length > 0 ? spec.start_length : 0;  // PEM's default: 0
  p.start_length = static_cast<uint16_t>(s0);
  if (spec.domain == HeavyDomain::Int64)
    p.max_length = spec.max_length != 0 ? spec.max_length : 8;
  else if (spec.max_length != 0)
    p.max_length = spec.max_length;
  else if (spec.levels > 0 && spec.levels <= kMaxHeavyLevels)
    p.max_length = s0 + spec.levels * std::max<int64_t>(p.chars_per_level, 1);
  else
    p.max_length = kDefaultTextLength;
  p.levels = spec.levels;
  if (p.levels == 0 && p.chars_per_level >= 1 && p.max_length > s0 &&
      p.max_length <= kMaxHeavyLevels * kMaxHeavyCharsPerLevel)
    p.levels = (p.max_length - s0 + p.chars_per_level - 1) / p.chars_per_level;
  for_foreign_fields(*impl, [&](const HeavyProtocolField& f) {
    if (f.given != nullptr && f.given(spec) != 0) misplaced(f, *impl);
  });
  if (impl->defaults != nullptr) {
    impl->defaults(spec, &p);  // Bitstogram: buckets, hashes, width
  } else {
    p.width = spec.width != 0 ? spec.width : impl->default_width;
    p.hashes = spec.hashes != 0 ? spec.hashes : impl->default_hashes;
    if (p.hashes == 0 && p.levels >= 1) {
      const double want = static_cast<double>(p.expected_users) / (kUsersPerCell * static_cast<double>(p.levels));
      const double e = std::round(std::log2(std::max(want, 1.0)));
      p.hashes = std::max<int64_t>(
          kDefaultMinHashes, std::min<int64_t>(kDefaultMaxHashes, int64_t{1} << static_cast<int>(std::min(e, 8.0))));
    }
  }
  validate_heavy_protocol(p);
  return p;
}

bool same_heavy_protocol(const HeavyProtocol& a, const HeavyProtocol& b) {
  return a.mechanism == b.mechanism && a.domain == b.domain && a.start_length == b.start_length &&
         std::memcmp(&a.epsilon, &b.epsilon, 8) == 0 && a.max_length == b.max_length &&
         a.chars_per_level == b.chars_per_level && a.levels == b.levels && a.hashes == b.hashes && a.width == b.width &&
         a.expected_users == b.expected_users && a.buckets == b.buckets && a.alphabet_view() == b.alphabet_view();
}

// ---- items ----

namespace {
[[noreturn]] void wrong_kind(const HeavyProtocol& p, const char* given) {
  throw_error(ErrorKind::InvalidParameter, "a %s protocol (domain %s) cannot encode %s", heavy_mechanism_name(p.mech()),
              heavy_domain_name(p.dom()), given);
}
}  // namespace

void heavy_item_from_text(const HeavyProtocol& p, std::string_view text, HeavyItem* out) {
  if (p.dom() == HeavyDomain::Int64) wrong_kind(p, "text (it takes 64-bit integers)");
  out->bytes.assign(text.data(), text.size());
  out->prefix_end[0] = 0;
  if (p.dom() == HeavyDomain::Bytes) {
    for (size_t i = 0; i < text.size();) {
      const int len = utf8_char_length(text.substr(i));
      if (len == 0)
        throw_error(ErrorKind::OutOfRange, "the item is not valid UTF-8: byte 0x%02x at byte position %zu",
                    static_cast<uint8_t>(text[i]), i + 1);
      if (text[i] == '\0')  // PostgreSQL's text cannot hold it: the decoder never proposes it
        throw_error(ErrorKind::OutOfRange, "the item holds U+0000 at byte position %zu", i + 1);
      i += static_cast<size_t>(len);
    }
    if (static_cast<int64_t>(text.size()) > p.max_length)
      throw_error(ErrorKind::OutOfRange, "the item is too long: %zu bytes, max_length is %" PRId64 " bytes",
                  text.size(), p.max_length);
    for (int64_t l = 1; l <= p.levels; ++l)
      out->prefix_end[l] = std::min<int64_t>(p.start_length + l, static_cast<int64_t>(text.size()));
    return;
  }
  const std::string_view alphabet = p.alphabet_view();
  int64_t chars = 0, level = 1;
  for (size_t i = 0; i < text.size(); ++chars) {
    const int len = utf8_char_length(text.substr(i));
    if (len == 0)
      throw_error(ErrorKind::OutOfRange, "the item is not valid UTF-8: byte 0x%02x at byte position %zu",
                  static_cast<uint8_t>(text[i]), i + 1);
    const std::string_view ch = text.substr(i, static_cast<size_t>(len));
    // UTF-8 synchronizes itself: a whole character is found only at a character boundary.
    if (alphabet.find(ch) == std::string_view::npos)
      throw_error(ErrorKind::OutOfRange,
                  "the item's character '%.*s' at position %" PRId64 " is not in the alphabet \"%.*s\"", len, ch.data(),
                  chars + 1, static_cast<int>(alphabet.size()), alphabet.data());
    if (chars + 1 > p.max_length)
      throw_error(ErrorKind::OutOfRange, "the item is too long: more than max_length = %" PRId64 " characters",
                  p.max_length);
    i += static_cast<size_t>(len);
    if (level <= p.levels && chars + 1 == p.start_length + level * p.chars_per_level)
      out->prefix_end[level++] = static_cast<int64_t>(i);
  }
  for (; level <= p.levels; ++level) out->prefix_end[level] = static_cast<int64_t>(text.size());
}

void heavy_item_from_int(const HeavyProtocol& p, int64_t value, HeavyItem* out) {
  if (p.dom() != HeavyDomain::Int64) wrong_kind(p, "an integer (it takes text)");
  out->bytes.resize(8);
  const auto v = static_cast<uint64_t>(value);
  for (int i = 0; i < 8; ++i) out->bytes[static_cast<size_t>(i)] = static_cast<char>(v >> (56 - 8 * i));
  out->prefix_end[0] = 0;
  for (int64_t l = 1; l <= p.levels; ++l) out->prefix_end[l] = std::min<int64_t>(8, p.start_length + l);
}

// ---- text and binary fields ----

namespace {
// The integers every protocol has, in the order of both forms (a mechanism's own fields
// go between them in the text form, after them in the binary form).
constexpr int kSharedIntegers = 6;
constexpr const char* kSharedKeys[kSharedIntegers] = {"max_length", "chars_per_level", "levels",
                                                      "hashes",     "width",           "expected_users"};
int64_t* shared_integers(HeavyProtocol& p, int i) {
  int64_t* fields[kSharedIntegers] = {&p.max_length, &p.chars_per_level, &p.levels,
                                      &p.hashes,     &p.width,           &p.expected_users};
  return fields[i];
}
int own_fields(const HeavyMechanismImpl& impl) {
  int n = 0;
  while (n < kMaxHeavyOwnFields && impl.fields[n] != nullptr) ++n;
  return n;
}
}  // namespace

void heavy_render_fields(const HeavyProtocol& p, TextOut& o) {
  o.put("epsilon=");
  o.number(p.epsilon);
  o.put(",domain=");
  o.put(heavy_domain_name(p.dom()));
  if (p.dom() == HeavyDomain::Alphabet) {
    o.put(",alphabet=\"");
    for (char ch : p.alphabet_view()) {
      if (ch == '"' || ch == '\\') o.put("\\", 1);
      o.put(&ch, 1);
    }
    o.put("\"");
  }
  const HeavyMechanismImpl& impl = heavy_impl(p.mech());
  const int64_t values[] = {p.max_length, p.chars_per_level, p.levels, p.hashes, p.width, p.expected_users};
  const auto put = [&](const char* key, int64_t value) {
    o.put(",");
    o.put(key);
    o.put("=");
    o.number(value);
  };
  for (int i = 0; i < kSharedIntegers; ++i) {
    put(kSharedKeys[i], values[i]);
    for (const HeavyProtocolField* f : impl.fields)
      if (f != nullptr && std::strcmp(f->after, kSharedKeys[i]) == 0) put(f->key, f->get(p));
  }
}

HeavyProtocol heavy_parse_fields(TextCursor& c, HeavyMechanism m) {
  HeavyProtocol p;
  std::memset(&p, 0, sizeof p);
  p.mechanism = static_cast<uint8_t>(m);
  p.epsilon = c.number("epsilon");
  c.expect(",domain=");
  const HeavyDomain domains[] = {HeavyDomain::Alphabet, HeavyDomain::Bytes, HeavyDomain::Int64};
  bool found = false;
  for (HeavyDomain d : domains) {
    const size_t len = std::strlen(heavy_domain_name(d));
    if (static_cast<size_t>(c.end - c.p) >= len && std::memcmp(c.p, heavy_domain_name(d), len) == 0 &&
        (c.p + len == c.end || c.p[len] == ',')) {
      p.domain = static_cast<uint8_t>(d);
      c.p += len;
      found = true;
    }
  }
  if (!found) c.fail("a domain (alphabet, bytes, int64)");
  if (p.dom() == HeavyDomain::Alphabet) {
    c.expect(",alphabet=\"");
    std::string a;
    while (c.p < c.end && *c.p != '"') {
      if (*c.p == '\\') {
        ++c.p;
        if (c.p >= c.end || (*c.p != '"' && *c.p != '\\')) c.fail("\\\" or \\\\ (an escaped character)");
      }
      if (a.size() >= static_cast<size_t>(kMaxHeavyAlphabetBytes)) c.fail("the alphabet's end (at most 256 bytes)");
      a.push_back(*c.p++);
    }
    c.expect("\"");
    std::memcpy(p.alphabet, a.data(), a.size());
    p.alphabet_bytes = static_cast<uint32_t>(a.size());
  }
  const HeavyMechanismImpl& impl = heavy_impl(m);
  int64_t own[kMaxHeavyOwnFields] = {};
  for (int i = 0; i < kSharedIntegers; ++i) {
    c.expect(",");
    *shared_integers(p, i) = c.field(kSharedKeys[i]);
    for (int k = 0; k < own_fields(impl); ++k)
      if (std::strcmp(impl.fields[k]->after, kSharedKeys[i]) == 0) {
        c.expect(",");
        own[k] = c.field(impl.fields[k]->key);
      }
  }
  for (int k = 0; k < own_fields(impl); ++k)
    if (!impl.fields[k]->set(&p, own[k])) c.fail(impl.fields[k]->text_expected);
  try {
    validate_heavy_protocol(p);
  } catch (const Error& e) {
    throw Error(ErrorKind::InvalidText, std::string("invalid input syntax for type ") + c.type + ": " + e.what());
  }
  return p;
}

std::string heavy_protocol_to_text(const HeavyProtocol& p) {
  auto render = [&](TextOut& o) {
    o.put("v1:");
    o.put(heavy_mechanism_name(p.mech()));
    o.put("{");
    heavy_render_fields(p, o);
    o.put("}");
  };
  std::string out(rendered_size("heavy_protocol", render), '\0');
  render_into(out.data(), out.size(), "heavy_protocol", render);
  out.pop_back();  // the NUL
  return out;
}

HeavyProtocol heavy_protocol_from_text(const char* text) {
  TextCursor c(text, "heavy_protocol");
  const HeavyMechanism* m = c.envelope(heavy_mechanism_by_name, heavy_mechanism_names());
  HeavyProtocol p = heavy_parse_fields(c, *m);
  c.finish();
  return p;
}

size_t heavy_fields_binary_size(const HeavyProtocol& p) {
  const auto integers = static_cast<size_t>(kSharedIntegers + own_fields(heavy_impl(p.mech())));
  return 2 + 8 + 8 * integers + 2 + p.alphabet_bytes;
}

void heavy_put_fields(uint8_t*& o, const HeavyProtocol& p) {
  *o++ = p.mechanism;
  *o++ = p.domain;
  put_be64(o, double_bits(p.epsilon));
  for (int64_t v : {p.max_length, p.chars_per_level, p.levels, p.hashes, p.width, p.expected_users})
    put_be64(o, static_cast<uint64_t>(v));
  const HeavyMechanismImpl& impl = heavy_impl(p.mech());
  for (int k = 0; k < own_fields(impl); ++k) put_be64(o, static_cast<uint64_t>(impl.fields[k]->get(p)));
  *o++ = static_cast<uint8_t>(p.alphabet_bytes >> 8);
  *o++ = static_cast<uint8_t>(p.alphabet_bytes);
  std::memcpy(o, p.alphabet, p.alphabet_bytes);
  o += p.alphabet_bytes;
}

HeavyProtocol heavy_read_fields(ByteReader& r) {
  HeavyProtocol p;
  std::memset(&p, 0, sizeof p);
  p.mechanism = r.u8();
  const HeavyMechanismImpl* impl = heavy_impl_from_byte(p.mechanism);
  if (impl == nullptr) r.fail("unknown mechanism");
  p.domain = r.u8();
  p.epsilon = r.f64();
  for (int i = 0; i < kSharedIntegers; ++i) *shared_integers(p, i) = r.i64();
  for (int k = 0; k < own_fields(*impl); ++k)
    if (!impl->fields[k]->set(&p, r.i64())) r.fail(impl->fields[k]->binary_refused);
  const size_t a = static_cast<size_t>(r.u8()) << 8 | r.u8();
  if (a > static_cast<size_t>(kMaxHeavyAlphabetBytes)) r.fail("an alphabet of more than 256 bytes");
  if (a > r.left) r.fail("truncated");
  std::memcpy(p.alphabet, r.p, a);
  p.alphabet_bytes = static_cast<uint32_t>(a);
  r.p += a;
  r.left -= a;
  try {
    validate_heavy_protocol(p);
  } catch (const Error& e) {
    throw Error(ErrorKind::InvalidBinary, std::string("invalid binary ") + r.type + ": " + e.what());
  }
  return p;
}

constexpr uint8_t kProtocolBinaryVersion = 1;

size_t heavy_protocol_binary_size(const HeavyProtocol& p) { return 1 + heavy_fields_binary_size(p); }

void heavy_protocol_to_binary(const HeavyProtocol& p, uint8_t* out, size_t cap) {
  if (cap < heavy_protocol_binary_size(p)) throw_error(ErrorKind::Internal, "heavy_protocol binary buffer too small");
  *out++ = kProtocolBinaryVersion;
  heavy_put_fields(out, p);
}

HeavyProtocol heavy_protocol_from_binary(const uint8_t* bytes, size_t len) {
  ByteReader r{bytes, len, "heavy_protocol"};
  const uint8_t version = r.u8();
  if (version != kProtocolBinaryVersion)
    throw_error(ErrorKind::InvalidBinary, "invalid binary heavy_protocol: version %d, this build reads version %d",
                version, kProtocolBinaryVersion);
  HeavyProtocol p = heavy_read_fields(r);
  if (r.left != 0) r.fail("trailing bytes");
  return p;
}

}  // namespace ldp
