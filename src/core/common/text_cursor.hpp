// The reader and writer shared by every summary's text form, "v1:<mechanism>{key=value,...}":
// one cursor, one set of messages ("invalid input syntax for type <type>: expected
// <what> at offset <n> of ..."), numbers read with std::from_chars (no locale, no
// whitespace, no '+', finite only), integers checked against bigint.
#pragma once

#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/common/error.hpp"

namespace ldp {

struct TextCursor {
  const char* p;
  const char* end;
  const char* whole;
  const char* type;  // for messages: "mean_summary", "freq_summary"

  TextCursor(const char* text, const char* type_name)
      : p(text), end(text + std::strlen(text)), whole(text), type(type_name) {}

  [[noreturn]] void fail(const char* what) const {
    throw_error(ErrorKind::InvalidText,
                "invalid input syntax for type %s: expected %s at offset %d of \"%.200s\"", type,
                what, static_cast<int>(p - whole), whole);
  }
  void expect(const char* lit) {
    size_t n = std::strlen(lit);
    if (static_cast<size_t>(end - p) < n || std::memcmp(p, lit, n) != 0) fail(lit);
    p += n;
  }
  bool at_delimiter() const { return p < end && (*p == ',' || *p == ']' || *p == '}'); }

  // "v1:<name>{": returns the registry entry find(name, len) gives; names lists
  // the registry's names for the message when there is none.
  template <typename Find>
  auto envelope(Find find, const std::string& names) -> decltype(find("", 0)) {
    expect("v");
    if (p >= end || *p != '1' || (p + 1 < end && p[1] != ':')) fail("version 1 (v1:)");
    ++p;
    expect(":");
    const char* nb = p;
    while (p < end && *p != '{') ++p;
    auto found = find(nb, static_cast<size_t>(p - nb));
    if (found == nullptr) {
      p = nb;
      fail(("a mechanism name (" + names + ")").c_str());
    }
    expect("{");
    return found;
  }
  void finish() {
    expect("}");
    if (p != end) fail("end of input");
  }

  // An integer token ending at a delimiter; '-' only where negative values are allowed.
  int64_t integer(bool allow_negative) {
    const char* b = p;
    const char* what = allow_negative ? "an integer" : "a non-negative integer";
    if (p < end && *p == '-' && !allow_negative) fail(what);
    int64_t v = 0;
    auto r = std::from_chars(p, end, v);
    if (r.ec == std::errc::result_out_of_range) fail("an integer within bigint");
    if (r.ec != std::errc()) fail(what);
    p = r.ptr;
    if (!at_delimiter()) {
      p = b;
      fail(what);
    }
    return v;
  }
  // key=<non-negative integer>
  int64_t field(const char* key) {
    expect(key);
    expect("=");
    return integer(false);
  }
  // key=<finite double>
  double number(const char* key) {
    expect(key);
    expect("=");
    const char* b = p;
    double d = 0;
    auto r = std::from_chars(p, end, d);
    p = r.ptr;
    if (r.ec != std::errc() || !at_delimiter() || !std::isfinite(d)) {
      p = b;
      fail("a finite number");
    }
    return d;
  }
  // key=<raw token> up to ',' or '}' (not consumed): [*b, *e), never empty.
  void token(const char* key, const char** b, const char** e) {
    expect(key);
    expect("=");
    *b = p;
    while (p < end && *p != ',' && *p != '}') ++p;
    *e = p;
    if (*e == *b) fail("a value");
  }
  // key=[v1,...,vlen]: exactly len integers.
  void array(const char* key, int64_t* out, int64_t len, bool allow_negative) {
    expect(key);
    expect("=[");
    for (int64_t i = 0; i < len; ++i) {
      if (i > 0) {
        if (p < end && *p == ']')
          throw_error(ErrorKind::InvalidText,
                      "invalid input syntax for type %s: %s has %" PRId64 " values, expected %" PRId64,
                      type, key, i, len);
        expect(",");
      }
      out[i] = integer(allow_negative);
    }
    if (p < end && *p == ',')
      throw_error(ErrorKind::InvalidText,
                  "invalid input syntax for type %s: %s has more than the %" PRId64
                  " values expected",
                  type, key, len);
    expect("]");
  }
};

// The writer of every text form: appends to a buffer, or only counts (out ==
// nullptr), so that the size and the text come from the same code.
class TextOut {
 public:
  TextOut(char* out, size_t cap, const char* type) : out_(out), cap_(cap), type_(type) {}
  void put(const char* s, size_t n) {
    if (out_ != nullptr) {
      if (len_ + n >= cap_) throw_error(ErrorKind::Internal, "%s text buffer too small", type_);
      std::memcpy(out_ + len_, s, n);
    }
    len_ += n;
  }
  void put(const char* s) { put(s, std::strlen(s)); }
  template <class T>
  void number(T v) {  // integers, and doubles in their shortest round-trip form
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    put(buf, static_cast<size_t>(r.ptr - buf));
  }
  size_t len() const { return len_; }

 private:
  char* out_;
  size_t cap_;
  const char* type_;
  size_t len_ = 0;
};

// The two steps of a text form that render(TextOut&) writes, from the same code: its
// size with the NUL, then the NUL-terminated text in the caller's cap bytes.
template <class Render>
size_t rendered_size(const char* type, Render&& render) {
  TextOut o(nullptr, 0, type);
  render(o);
  return o.len() + 1;
}
template <class Render>
void render_into(char* out, size_t cap, const char* type, Render&& render) {
  TextOut o(out, cap, type);
  render(o);
  out[o.len()] = '\0';
}

}  // namespace ldp
