// Text and binary forms of the heavy-hitters summary.
//
// Text:   v1:<mechanism>{<the protocol's fields>,n=<n>,<block>=[...][,<block>=[...]]},
//         the mechanism's blocks of sketches (heavy_summary.hpp: treehist prune, final;
//         pem groups; sfp fragments, word), sketch by sketch, each row-major
//         (heavy_internal.hpp: the fields).
// Binary: the stored-form header (common/stored_form.hpp, format 3, family Heavy), the
//         protocol's fields, i64 n, u8 bytes per counter (1, 2, 4 or 8: the fewest that
//         hold them all), then every counter at that width; big-endian. Only format 3
//         is read: the family was never stored otherwise.
//
// Parsing is strict: the length (text: a lower bound, two characters per counter;
// binary: exact) is checked against the protocol's before anything is allocated, and
// the counters against n as the sketch family checks its signed ones, for each block
// (every report adds ±1 to one cell of each): Σ|S| <= n and n - Σ|S| even.
#include <cinttypes>
#include <string>

#include "core/common/byte_reader.hpp"
#include "core/common/error.hpp"
#include "core/common/stored_form.hpp"
#include "core/common/text_cursor.hpp"
#include "core/heavy/heavy_internal.hpp"
#include "core/heavy/heavy_summary.hpp"

namespace ldp {

namespace {

constexpr const char* kType = "heavy_summary";

size_t summary_size(const HeavyProtocol& p) {
  return sizeof(HeavySummary) + sizeof(int64_t) * static_cast<size_t>(p.cells());
}

void fill(HeavySummary* out, size_t size, const HeavyProtocol& p, const char* form) {
  if (size != summary_size(p))
    throw_error(ErrorKind::Internal, "%s %s: buffer of %zu bytes for %zu", kType, form, size, summary_size(p));
  heavy_summary_init(out, p);
}

void check_sums(const HeavySummary& s, const int64_t* c, int64_t cells, const char* array, ErrorKind kind) {
  const char* prefix = kind == ErrorKind::InvalidText ? "invalid input syntax for type " : "invalid binary ";
  int64_t total = 0;
  const int64_t at = signed_counters_misfit(c, cells, s.n, &total);
  if (at >= 0 && at < cells)
    throw_error(kind,
                "%s%s: %s counters cannot come from n = %" PRId64 " reports: the absolute sums exceed n (at %s[%" PRId64
                "])",
                prefix, kType, array, s.n, array, at);
  if (at == cells)
    throw_error(kind,
                "%s%s: %s counters cannot come from n = %" PRId64 " reports: n - Σ|%s| = %" PRId64 " must be even",
                prefix, kType, array, s.n, array, s.n - total);
}

// The mechanism's blocks: names and cells (the second block: 0 cells when there is none).
struct Blocks {
  const char* names[2];
  int64_t cells[2];
};
Blocks blocks(const HeavyProtocol& p) {
  const HeavyMechanismImpl& impl = heavy_impl(p.mech());
  const int64_t extra = impl.extra_sketches * p.hashes * p.width;
  return {{impl.arrays[0], impl.arrays[1]}, {p.cells() - extra, extra}};
}

void check_counts(const HeavySummary& s, ErrorKind kind) {
  if (s.n < 0)
    throw_error(kind, "%s%s: negative report count %" PRId64,
                kind == ErrorKind::InvalidText ? "invalid input syntax for type " : "invalid binary ", kType, s.n);
  const Blocks b = blocks(s.protocol);
  check_sums(s, s.counters(), b.cells[0], b.names[0], kind);
  if (b.cells[1] > 0) check_sums(s, s.counters() + b.cells[0], b.cells[1], b.names[1], kind);
}

void render(const HeavySummary& s, TextOut& o) {
  o.put("v1:");
  o.put(heavy_mechanism_name(s.protocol.mech()));
  o.put("{");
  heavy_render_fields(s.protocol, o);
  o.put(",n=");
  o.number(s.n);
  const Blocks b = blocks(s.protocol);
  const int64_t* c = s.counters();
  for (int k = 0; k < 2 && b.cells[k] > 0; ++k) {
    o.put(",");
    o.put(b.names[k]);
    o.put("=[");
    for (int64_t i = 0; i < b.cells[k]; ++i) {
      if (i > 0) o.put(",", 1);
      o.number(*c++);
    }
    o.put("]");
  }
  o.put("}");
}

HeavyProtocol parse_text_header(TextCursor& c) {
  const HeavyMechanism* m = c.envelope(heavy_mechanism_by_name, heavy_mechanism_names());
  HeavyProtocol p = heavy_parse_fields(c, *m);
  // Every counter takes at least two characters: a short text cannot claim a huge summary.
  if (c.end - c.whole < 2 * p.cells())
    throw_error(ErrorKind::InvalidText, "invalid input syntax for type %s: too short for its %" PRId64 " counters",
                kType, p.cells());
  return p;
}

// The protocol of a body, after checking that the body's length is what the protocol
// and the counter width make: refused before anything is allocated.
HeavyProtocol read_binary_header(ByteReader& r, int* counter_bytes) {
  HeavyProtocol p = heavy_read_fields(r);
  *counter_bytes = r.counter_width_at(8);  // after n
  const size_t want = 9 + static_cast<size_t>(*counter_bytes) * static_cast<size_t>(p.cells());
  if (r.left != want)
    throw_error(ErrorKind::InvalidBinary,
                "invalid binary %s: %zu bytes of n and counters, expected %zu for %" PRId64 " * %" PRId64 " * %" PRId64
                " counters of %d bytes",
                kType, r.left, want, p.sketches(), p.hashes, p.width, *counter_bytes);
  return p;
}

ByteReader body_reader(const uint8_t* p, size_t len) {
  StoredBody body = stored_body(p, len, Family::Heavy, kType, true);
  if (body.format != kStoredFormatCompact)
    throw_error(ErrorKind::InvalidBinary, "invalid binary %s: format %d, this build reads format %d", kType,
                body.format, kStoredFormatCompact);
  return ByteReader{body.p, body.len, kType};
}

}  // namespace

size_t heavy_summary_text_size(const HeavySummary& s) {
  return rendered_size(kType, [&](TextOut& o) { render(s, o); });
}

void heavy_summary_to_text(const HeavySummary& s, char* out, size_t cap) {
  render_into(out, cap, kType, [&](TextOut& o) { render(s, o); });
}

size_t heavy_summary_parse_size(const char* text) {
  TextCursor c(text, kType);
  return summary_size(parse_text_header(c));
}

void heavy_summary_from_text(const char* text, HeavySummary* out, size_t size) {
  TextCursor c(text, kType);
  const HeavyProtocol p = parse_text_header(c);
  fill(out, size, p, "text");
  c.expect(",");
  out->n = c.field("n");
  const Blocks b = blocks(p);
  for (int k = 0; k < 2 && b.cells[k] > 0; ++k) {
    c.expect(",");
    c.array(b.names[k], out->counters() + (k == 0 ? 0 : b.cells[0]), b.cells[k], true);
  }
  c.finish();
  check_counts(*out, ErrorKind::InvalidText);
}

namespace {
size_t binary_size_at(const HeavySummary& s, int counter_bytes) {
  return kStoredHeaderSize + heavy_fields_binary_size(s.protocol) + 8 + 1 +
         static_cast<size_t>(counter_bytes) * static_cast<size_t>(s.cells());
}
}  // namespace

size_t heavy_summary_binary_size(const HeavySummary& s) {
  return binary_size_at(s, compact_counter_bytes(s.counters(), static_cast<size_t>(s.cells())));
}

void heavy_summary_to_binary(const HeavySummary& s, uint8_t* out, size_t cap) {
  const auto cells = static_cast<size_t>(s.cells());
  const int bytes = compact_counter_bytes(s.counters(), cells);  // one pass (a large state's)
  if (cap < binary_size_at(s, bytes)) throw_error(ErrorKind::Internal, "%s binary buffer too small", kType);
  uint8_t* o = out;
  write_stored_header(o, Family::Heavy, kStoredFormatCompact);
  o += kStoredHeaderSize;
  heavy_put_fields(o, s.protocol);
  put_be64(o, static_cast<uint64_t>(s.n));
  *o++ = static_cast<uint8_t>(bytes);
  put_counters(o, s.counters(), cells, bytes);
}

size_t heavy_summary_binary_parse_size(const uint8_t* p, size_t len) {
  int bytes = 0;
  ByteReader r = body_reader(p, len);
  return summary_size(read_binary_header(r, &bytes));
}

void heavy_summary_from_binary(const uint8_t* p, size_t len, HeavySummary* out, size_t size) {
  int bytes = 0;
  ByteReader r = body_reader(p, len);
  const HeavyProtocol proto = read_binary_header(r, &bytes);
  fill(out, size, proto, "binary");
  out->n = r.i64();
  r.u8();  // the counter width, checked by read_binary_header
  r.counters(out->counters(), static_cast<size_t>(out->cells()), bytes);
  if (r.left != 0) r.fail("trailing bytes");
  check_counts(*out, ErrorKind::InvalidBinary);
}

}  // namespace ldp
