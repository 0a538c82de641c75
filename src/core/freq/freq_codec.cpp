// Text and binary forms of the frequency-oracle summary.
//
// Text:   v1:<name>{epsilon=<e>,k=<k>[,d=<d>],n=<n>,<array>=[c0,...][,<array>=[...]]}
//         epsilon in the shortest text that reads back as the same double; the arrays
//         are named by the mechanism (counts; holders and ones; sums over K rows).
// Binary: the format-2 header (common/stored_form.hpp), u8 mechanism, f64 epsilon,
//         i64 k, [i64 d], i64 n, then the width i64 counters; big-endian, as
//         PostgreSQL sends. Format 1 (send up to 0.4.0): u8 version 1, then the same.
//
// Parsing is strict (fixed field order, no spaces, no '+', exact array lengths) and
// validates every counter against n (each mechanism's check_counts).
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <string>
#include <system_error>

#include "core/common/byte_reader.hpp"
#include "core/common/error.hpp"
#include "core/common/stored_form.hpp"
#include "core/common/text_cursor.hpp"
#include "core/freq/freq_internal.hpp"
#include "core/freq/freq_summary.hpp"

namespace ldp {

namespace {

// The parameters the header of either form describes, validated.
struct Header {
  const FreqMechanismImpl* m;
  FreqParams params;
  int64_t g;
  int64_t width;
  size_t size() const {
    return sizeof(FreqSummary) + sizeof(int64_t) * static_cast<size_t>(width);
  }
};

// Validates the parameters; a failure is reported as `kind` (malformed input).
Header make_header(const FreqMechanismImpl* m, const FreqParams& p, ErrorKind kind,
                   const char* type_prefix) {
  Header h{m, p, 0, 0};
  try {
    h.g = freq_validated_g(*m, p);
    h.width = m->width(p.k, h.g);
  } catch (const Error& e) {
    throw Error(kind, std::string(type_prefix) + e.what());
  }
  return h;
}

void fill(FreqSummary* out, size_t size, const Header& h, const char* form) {
  if (size != h.size())
    throw_error(ErrorKind::Internal, "freq_summary %s: buffer of %zu bytes for %zu", form, size,
                h.size());
  freq_summary_init(out, h.m->info.id, h.params);
}

void check_counts(const FreqSummary& s, ErrorKind kind) {
  if (s.n < 0) throw_error(kind, "freq_summary: negative report count %" PRId64, s.n);
  freq_impl(s.mech()).check_counts(s, kind);
}

// ---------------------------------------------------------------------------
// Text

void render(const FreqSummary& s, TextOut& o) {
  const FreqMechanismImpl& m = freq_impl(s.mech());
  o.put("v");
  o.number(static_cast<int>(s.version));
  o.put(":");
  o.put(m.info.name);
  o.put("{epsilon=");
  o.number(s.epsilon);
  o.put(",k=");
  o.number(s.k);
  if (m.uses_d) {
    o.put(",d=");
    o.number(s.d);
  }
  o.put(",n=");
  o.number(s.n);
  const int64_t len = m.array_length(s.k, s.g);
  const int64_t* c = s.counters();
  for (int a = 0; a < m.arrays_count(); ++a) {
    o.put(",");
    o.put(m.arrays[a]);
    o.put("=[");
    for (int64_t i = 0; i < len; ++i) {
      if (i > 0) o.put(",", 1);
      o.number(c[a * len + i]);
    }
    o.put("]");
  }
  o.put("}");
}

// Parses the header (through the parameters) and validates it.
Header parse_text_header(TextCursor& c) {
  const FreqMechanismInfo* info = c.envelope(freq_mechanism_by_name, freq_mechanism_names());
  const FreqMechanismImpl* m = &freq_impl(info->id);
  FreqParams p;
  p.epsilon = c.number("epsilon");
  c.expect(",");
  p.k = c.field("k");
  if (m->uses_d) {
    c.expect(",");
    p.d = c.field("d");
  }
  Header h = make_header(m, p, ErrorKind::InvalidText, "freq_summary: ");
  // Every counter takes at least two characters: a short text cannot claim a huge summary.
  if (c.end - c.whole < 2 * h.width)
    throw_error(ErrorKind::InvalidText,
                "invalid input syntax for type freq_summary: too short for its %" PRId64
                " counters",
                h.width);
  return h;
}

}  // namespace

size_t freq_summary_text_size(const FreqSummary& s) {
  return rendered_size("freq_summary", [&](TextOut& o) { render(s, o); });
}

void freq_summary_to_text(const FreqSummary& s, char* out, size_t cap) {
  render_into(out, cap, "freq_summary", [&](TextOut& o) { render(s, o); });
}

size_t freq_summary_parse_size(const char* text) {
  TextCursor c(text, "freq_summary");
  return parse_text_header(c).size();
}

void freq_summary_from_text(const char* text, FreqSummary* out, size_t size) {
  TextCursor c(text, "freq_summary");
  Header h = parse_text_header(c);
  fill(out, size, h, "text");
  c.expect(",");
  out->n = c.field("n");
  const int64_t len = h.m->array_length(h.params.k, h.g);
  for (int a = 0; a < h.m->arrays_count(); ++a) {
    c.expect(",");
    c.array(h.m->arrays[a], out->counters() + a * len, len, h.m->signed_counters);
  }
  c.finish();
  check_counts(*out, ErrorKind::InvalidText);
}

// ---------------------------------------------------------------------------
// Binary

namespace {

// The format-2 header, the mechanism byte, epsilon, k, [d], n.
size_t binary_header_size(const FreqMechanismImpl& m) {
  return kStoredHeaderSize + 1 + 8 + 8 + (m.uses_d ? 8 : 0) + 8;
}


// Reads and validates a body's header (through d) and checks the body's length.
Header read_binary_header(ByteReader& r) {
  const size_t len = r.left;
  const FreqMechanismImpl* m = freq_impl_from_byte(r.u8());
  if (m == nullptr) r.fail("unknown mechanism");
  FreqParams p;
  p.epsilon = r.f64();
  p.k = r.i64();
  if (m->uses_d) p.d = r.i64();
  Header h = make_header(m, p, ErrorKind::InvalidBinary, "invalid binary freq_summary: ");
  size_t want = binary_header_size(*m) - kStoredHeaderSize + 8 * static_cast<size_t>(h.width);
  if (len != want)
    throw_error(ErrorKind::InvalidBinary,
                "invalid binary freq_summary: %zu bytes, expected %zu for %s with k = %" PRId64,
                len, want, m->info.name, p.k);
  return h;
}


}  // namespace

size_t freq_summary_binary_size(const FreqSummary& s) {
  return binary_header_size(freq_impl(s.mech())) + 8 * static_cast<size_t>(s.width);
}

void freq_summary_to_binary(const FreqSummary& s, uint8_t* out, size_t cap) {
  const FreqMechanismImpl& m = freq_impl(s.mech());
  if (cap < freq_summary_binary_size(s))
    throw_error(ErrorKind::Internal, "freq_summary binary buffer too small");
  uint8_t* o = out;
  write_stored_header(o, Family::Frequency);
  o += kStoredHeaderSize;
  *o++ = s.mechanism;
  put_be64(o, double_bits(s.epsilon));
  put_be64(o, static_cast<uint64_t>(s.k));
  if (m.uses_d) put_be64(o, static_cast<uint64_t>(s.d));
  put_be64(o, static_cast<uint64_t>(s.n));
  const int64_t* c = s.counters();
  put_be64s(o, c, static_cast<size_t>(s.width));
}

size_t freq_summary_binary_parse_size(const uint8_t* p, size_t len) {
  StoredBody body = stored_body(p, len, Family::Frequency, "freq_summary");
  ByteReader r{body.p, body.len, "freq_summary"};
  return read_binary_header(r).size();
}

void freq_summary_from_binary(const uint8_t* p, size_t len, FreqSummary* out, size_t size) {
  StoredBody body = stored_body(p, len, Family::Frequency, "freq_summary");
  ByteReader r{body.p, body.len, "freq_summary"};
  Header h = read_binary_header(r);
  fill(out, size, h, "binary");
  out->n = r.i64();
  int64_t* c = out->counters();
  r.counters(c, static_cast<size_t>(h.width), 8);
  if (r.left != 0) r.fail("trailing bytes");
  check_counts(*out, ErrorKind::InvalidBinary);
}

}  // namespace ldp
