// Text and binary forms of the sketch summary.
//
// Text:   v1:<name>{epsilon=<e>,hashes=<k>,width=<m>,n=<n>,<counts|sums>=[c0,...]}
//         counters row-major (row 0's width values first).
// Binary: the stored-form header (common/stored_form.hpp, family Sketch), u8 mechanism,
//         f64 epsilon, i64 hashes, i64 width, i64 n, then the hashes·width counters;
//         big-endian, written and read byte by byte. Format 3 (written since 0.7.0):
//         u8 bytes per counter (1, 2, 4 or 8, the fewest that hold them all), then the
//         counters at that width; format 2 (0.6.0, still read): i64 counters.
//
// Parsing is strict and validates the counters against n:
//   cms:     0 <= P[j][i] and Σ_j max_i P[j][i] <= n (row j then holds at least its
//            largest count of reports, and no more reports than n are counted);
//   signed:  Σ |S| <= n and n - Σ|S| even (each cell's reports: |S| of one sign and
//            pairs of opposite signs).
#include <cinttypes>
#include <string>

#include "core/common/byte_reader.hpp"
#include "core/common/error.hpp"
#include "core/common/stored_form.hpp"
#include "core/common/text_cursor.hpp"
#include "core/sketch/sketch_internal.hpp"
#include "core/sketch/sketch_summary.hpp"

namespace ldp {

namespace {

struct Header {
  const SketchMechanismImpl* m;
  SketchParams params;
  size_t size() const {
    return sizeof(SketchSummary) + sizeof(int64_t) * static_cast<size_t>(params.hashes * params.width);
  }
};

Header make_header(const SketchMechanismImpl* m, const SketchParams& p, ErrorKind kind, const char* prefix) {
  try {
    validate_sketch_params(m->info.id, p);
  } catch (const Error& e) {
    throw Error(kind, std::string(prefix) + e.what());
  }
  return Header{m, p};
}

void fill(SketchSummary* out, size_t size, const Header& h, const char* form) {
  if (size != h.size())
    throw_error(ErrorKind::Internal, "sketch_summary %s: buffer of %zu bytes for %zu", form, size, h.size());
  sketch_summary_init(out, h.m->info.id, h.params);
}

[[noreturn]] void bad_counts(const SketchSummary& s, ErrorKind kind, const char* what, int64_t at) {
  throw_error(kind, "%ssketch_summary: %s counters cannot come from n = %" PRId64 " reports: %s (at %s[%" PRId64 "])",
              kind == ErrorKind::InvalidText ? "invalid input syntax for type " : "invalid binary ",
              sketch_mechanism(s.mech()).name, s.n, what, sketch_impl(s.mech()).array, at);
}

void check_counts(const SketchSummary& s, ErrorKind kind) {
  if (s.n < 0) throw_error(kind, "sketch_summary: negative report count %" PRId64, s.n);
  const int64_t* c = s.counters();
  if (sketch_impl(s.mech()).signed_counters) {
    int64_t total = 0;
    const int64_t at = signed_counters_misfit(c, s.cells(), s.n, &total);
    if (at >= 0 && at < s.cells()) bad_counts(s, kind, "the absolute sums exceed n", at);
    if (at == s.cells()) bad_counts(s, kind, "n - Σ|sums| must be even", s.cells() - 1);
    return;
  }
  int64_t total = 0;  // Σ of the rows' largest counts so far, <= n
  for (int64_t j = 0; j < s.hashes; ++j) {
    int64_t most = 0;
    for (int64_t i = 0; i < s.width; ++i) {
      int64_t v = c[j * s.width + i];
      if (v < 0) bad_counts(s, kind, "a negative count", j * s.width + i);
      if (v > most) most = v;
    }
    if (most > s.n - total) bad_counts(s, kind, "the rows' largest counts add up to more than n", j * s.width);
    total += most;
  }
}

void render(const SketchSummary& s, TextOut& o) {
  const SketchMechanismImpl& m = sketch_impl(s.mech());
  o.put("v1:");
  o.put(m.info.name);
  o.put("{epsilon=");
  o.number(s.epsilon);
  o.put(",hashes=");
  o.number(s.hashes);
  o.put(",width=");
  o.number(s.width);
  o.put(",n=");
  o.number(s.n);
  o.put(",");
  o.put(m.array);
  o.put("=[");
  const int64_t* c = s.counters();
  for (int64_t i = 0, cells = s.cells(); i < cells; ++i) {
    if (i > 0) o.put(",", 1);
    o.number(c[i]);
  }
  o.put("]}");
}

Header parse_text_header(TextCursor& c) {
  const SketchMechanismInfo* info = c.envelope(sketch_mechanism_by_name, sketch_mechanism_names());
  SketchParams p;
  p.epsilon = c.number("epsilon");
  c.expect(",");
  p.hashes = c.field("hashes");
  c.expect(",");
  p.width = c.field("width");
  Header h = make_header(&sketch_impl(info->id), p, ErrorKind::InvalidText,
                         "invalid input syntax for type sketch_summary: ");
  // Every counter takes at least two characters: a short text cannot claim a huge summary.
  if (c.end - c.whole < 2 * p.hashes * p.width)
    throw_error(ErrorKind::InvalidText,
                "invalid input syntax for type sketch_summary: too short for its %" PRId64 " counters",
                p.hashes * p.width);
  return h;
}

constexpr size_t kBinaryHeader = kStoredHeaderSize + 1 + 8 + 8 + 8 + 8;

// The header of a body of format 2 or 3 (r at the mechanism byte), after checking that
// the body's length is what its parameters and counter width make: refused before
// anything is allocated. Format 3's counter width is the byte after n.
Header read_binary_header(ByteReader& r, int format, int* counter_bytes) {
  const size_t len = r.left;
  const SketchMechanismImpl* m = sketch_impl_from_byte(r.u8());
  if (m == nullptr) r.fail("unknown mechanism");
  SketchParams p;
  p.epsilon = r.f64();
  p.hashes = r.i64();
  p.width = r.i64();
  Header h = make_header(m, p, ErrorKind::InvalidBinary, "invalid binary sketch_summary: ");
  *counter_bytes = 8;
  size_t want = kBinaryHeader - kStoredHeaderSize;
  if (format == kStoredFormatCompact) {
    *counter_bytes = r.counter_width_at(8);  // after n
    want += 1;
  }
  want += static_cast<size_t>(*counter_bytes) * static_cast<size_t>(p.hashes * p.width);
  if (len != want)
    throw_error(ErrorKind::InvalidBinary,
                "invalid binary sketch_summary: %zu bytes, expected %zu for %s with hashes = %" PRId64
                " and width = %" PRId64,
                len, want, m->info.name, p.hashes, p.width);
  return h;
}

}  // namespace

size_t sketch_summary_text_size(const SketchSummary& s) {
  return rendered_size("sketch_summary", [&](TextOut& o) { render(s, o); });
}

void sketch_summary_to_text(const SketchSummary& s, char* out, size_t cap) {
  render_into(out, cap, "sketch_summary", [&](TextOut& o) { render(s, o); });
}

size_t sketch_summary_parse_size(const char* text) {
  TextCursor c(text, "sketch_summary");
  return parse_text_header(c).size();
}

void sketch_summary_from_text(const char* text, SketchSummary* out, size_t size) {
  TextCursor c(text, "sketch_summary");
  Header h = parse_text_header(c);
  fill(out, size, h, "text");
  c.expect(",");
  out->n = c.field("n");
  c.expect(",");
  c.array(h.m->array, out->counters(), out->cells(), h.m->signed_counters);
  c.finish();
  check_counts(*out, ErrorKind::InvalidText);
}

size_t sketch_summary_binary_size(const SketchSummary& s) {
  auto cells = static_cast<size_t>(s.cells());
  return kBinaryHeader + 1 + static_cast<size_t>(compact_counter_bytes(s.counters(), cells)) * cells;
}

void sketch_summary_to_binary(const SketchSummary& s, uint8_t* out, size_t cap) {
  if (cap < sketch_summary_binary_size(s)) throw_error(ErrorKind::Internal, "sketch_summary binary buffer too small");
  uint8_t* o = out;
  write_stored_header(o, Family::Sketch, kStoredFormatCompact);
  o += kStoredHeaderSize;
  *o++ = s.mechanism;
  put_be64(o, double_bits(s.epsilon));
  put_be64(o, static_cast<uint64_t>(s.hashes));
  put_be64(o, static_cast<uint64_t>(s.width));
  put_be64(o, static_cast<uint64_t>(s.n));
  const int64_t* c = s.counters();
  auto cells = static_cast<size_t>(s.cells());
  int bytes = compact_counter_bytes(c, cells);
  *o++ = static_cast<uint8_t>(bytes);
  put_counters(o, c, cells, bytes);
}

namespace {
// Formats 2 and 3 only: sketches were never stored in format 1.
ByteReader body_reader(const uint8_t* p, size_t len, int* format) {
  StoredBody body = stored_body(p, len, Family::Sketch, "sketch_summary", true);
  if (body.format == 1)
    throw_error(ErrorKind::InvalidBinary, "invalid binary sketch_summary: not in the stored form (format 2 or 3)");
  *format = body.format;
  return ByteReader{body.p, body.len, "sketch_summary"};
}
}  // namespace

size_t sketch_summary_binary_parse_size(const uint8_t* p, size_t len) {
  int format = 0, bytes = 0;
  ByteReader r = body_reader(p, len, &format);
  return read_binary_header(r, format, &bytes).size();
}

void sketch_summary_from_binary(const uint8_t* p, size_t len, SketchSummary* out, size_t size) {
  int format = 0, bytes = 0;
  ByteReader r = body_reader(p, len, &format);
  Header h = read_binary_header(r, format, &bytes);
  fill(out, size, h, "binary");
  out->n = r.i64();
  int64_t* c = out->counters();
  if (format == kStoredFormatCompact) r.u8();  // the counter width, checked by read_binary_header
  r.counters(c, static_cast<size_t>(out->cells()), bytes);  // format 2: 8 bytes each
  if (r.left != 0) r.fail("trailing bytes");
  check_counts(*out, ErrorKind::InvalidBinary);
}

}  // namespace ldp
