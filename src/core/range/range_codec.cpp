// Text and binary forms of the range summary.
//
// Text:   v1:<mechanism>{<the protocol's fields>,n=<n>,<counts>=[...][,<sums>=[...]]}, the
//         blocks named by the mechanism's row (range_internal.hpp); HaarHRR's:
//         levels=[n_0,...,n_(k-1)],sums=[the 2^k − 1 row sums, level by level].
// Binary: the stored-form header (common/stored_form.hpp, format 3, family Range), the
//         protocol's fields, i64 n, u8 bytes per counter (1, 2, 4 or 8: the fewest that
//         hold them all), then the counts and the sums at that width; big-endian. Only
//         format 3 is read: the family was never stored otherwise.
//
// Parsing is strict: the domain is checked against kMaxRangeSummaryBits and the length
// (text: a lower bound, two characters per counter; binary: exact) against the
// protocol's before anything is allocated; then n >= 0, every count >= 0 with Σ = n,
// and each segment of sums against its count as signed counters (|S| <= n_j in all,
// n_j − Σ|S_j| even).
#include <cinttypes>
#include <string>

#include "core/common/byte_reader.hpp"
#include "core/common/error.hpp"
#include "core/common/stored_form.hpp"
#include "core/common/text_cursor.hpp"
#include "core/range/range_internal.hpp"
#include "core/range/range_summary.hpp"

namespace ldp {

namespace {

constexpr const char* kType = "range_summary";

const char* prefix_of(ErrorKind kind) {
  return kind == ErrorKind::InvalidText ? "invalid input syntax for type " : "invalid binary ";
}

// A form's protocol whose summary this build cannot hold: refused as a malformed form
// (no summary this build wrote can have it).
void check_bits(const RangeProtocol& p, ErrorKind kind) {
  try {
    check_range_summary_bits(p);
  } catch (const Error& e) {
    throw Error(kind, std::string(prefix_of(kind)) + kType + ": " + e.what());
  }
}

void fill(RangeSummary* out, size_t size, const RangeProtocol& p, const char* form) {
  if (size != range_summary_size(p))
    throw_error(ErrorKind::Internal, "%s %s: buffer of %zu bytes for %zu", kType, form, size, range_summary_size(p));
  range_summary_init(out, p);
}

void check_counts(const RangeSummary& s, ErrorKind kind) {
  const char* prefix = prefix_of(kind);
  const RangeMechanismImpl& m = range_impl(s.protocol.mechanism);
  if (s.n < 0) throw_error(kind, "%s%s: negative report count %" PRId64, prefix, kType, s.n);
  const int64_t* counts = s.counters();
  int64_t total = 0;
  for (int64_t j = 0; j < s.count_cells; ++j) {
    if (counts[j] < 0 || counts[j] > s.n - total)
      throw_error(kind, "%s%s: the %s cannot come from n = %" PRId64 " reports (at %s[%" PRId64 "] = %" PRId64 ")",
                  prefix, kType, m.count_noun, s.n, m.arrays[0], j, counts[j]);
    total += counts[j];
  }
  if (total != s.n)
    throw_error(kind, "%s%s: the %s add up to %" PRId64 ", not n = %" PRId64, prefix, kType, m.count_noun, total, s.n);
  for (int64_t j = 0; j < s.segments; ++j) {
    const int64_t off = s.segment_at[j] - s.count_cells, rows = s.segment_at[j + 1] - s.segment_at[j];
    const int64_t level = j + s.first_level;
    int64_t abs_total = 0;
    const int64_t at = signed_counters_misfit(s.counters() + s.segment_at[j], rows, counts[j], &abs_total);
    if (at >= 0 && at < rows)
      throw_error(kind,
                  "%s%s: %s %" PRId64 "'s %s cannot come from its %" PRId64
                  " reports: the absolute sums exceed them (at %s[%" PRId64 "], row %" PRId64 ")",
                  prefix, kType, m.segment_noun, level, m.arrays[1], counts[j], m.arrays[1], off + at, at);
    if (at == rows)
      throw_error(kind, "%s%s: %s %" PRId64 "'s %s cannot come from its %" PRId64 " reports: %" PRId64
                  " - Σ|S| = %" PRId64 " must be even",
                  prefix, kType, m.segment_noun, level, m.arrays[1], counts[j], counts[j], counts[j] - abs_total);
  }
}

void put_array(TextOut& o, const char* name, const int64_t* c, int64_t len) {
  o.put(",");
  o.put(name);
  o.put("=[");
  for (int64_t i = 0; i < len; ++i) {
    if (i > 0) o.put(",", 1);
    o.number(c[i]);
  }
  o.put("]");
}

void render(const RangeSummary& s, TextOut& o) {
  o.put("v1:");
  o.put(range_mechanism_name(s.protocol.mechanism));
  o.put("{");
  range_render_fields(s.protocol, o);
  o.put(",n=");
  o.number(s.n);
  const RangeMechanismImpl& m = range_impl(s.protocol.mechanism);
  put_array(o, m.arrays[0], s.counters(), s.count_cells);
  if (s.cells() > s.count_cells) put_array(o, m.arrays[1], s.counters() + s.count_cells, s.cells() - s.count_cells);
  o.put("}");
}

int64_t cells_of(const RangeProtocol& p) { return range_summary_cells(p); }

RangeProtocol parse_text_header(TextCursor& c) {
  const RangeMechanism* m = c.envelope(range_mechanism_by_name, range_mechanism_names());
  const RangeProtocol p = range_parse_fields(c, *m);
  check_bits(p, ErrorKind::InvalidText);
  // Every counter takes at least two characters: a short text cannot claim a huge summary.
  if (c.end - c.whole < 2 * cells_of(p))
    throw_error(ErrorKind::InvalidText, "invalid input syntax for type %s: too short for its %" PRId64 " counters",
                kType, cells_of(p));
  return p;
}

// The protocol of a body, after checking that the body's length is what the protocol
// and the counter width make: refused before anything is allocated.
RangeProtocol read_binary_header(ByteReader& r, int* counter_bytes) {
  const RangeProtocol p = range_read_fields(r);
  check_bits(p, ErrorKind::InvalidBinary);
  *counter_bytes = r.counter_width_at(8);  // after n
  const size_t want = 9 + static_cast<size_t>(*counter_bytes) * static_cast<size_t>(cells_of(p));
  if (r.left != want)
    throw_error(ErrorKind::InvalidBinary,
                "invalid binary %s: %zu bytes of n and counters, expected %zu for %" PRId64 " counters of %d bytes", kType,
                r.left, want, cells_of(p), *counter_bytes);
  return p;
}

ByteReader body_reader(const uint8_t* p, size_t len) {
  StoredBody body = stored_body(p, len, Family::Range, kType, true);
  if (body.format != kStoredFormatCompact)
    throw_error(ErrorKind::InvalidBinary, "invalid binary %s: format %d, this build reads format %d", kType,
                body.format, kStoredFormatCompact);
  return ByteReader{body.p, body.len, kType};
}

size_t binary_size_at(const RangeSummary& s, int counter_bytes) {
  return kStoredHeaderSize + range_fields_binary_size(s.protocol) + 8 + 1 +
         static_cast<size_t>(counter_bytes) * static_cast<size_t>(s.cells());
}

}  // namespace

size_t range_summary_text_size(const RangeSummary& s) {
  return rendered_size(kType, [&](TextOut& o) { render(s, o); });
}

void range_summary_to_text(const RangeSummary& s, char* out, size_t cap) {
  render_into(out, cap, kType, [&](TextOut& o) { render(s, o); });
}

size_t range_summary_parse_size(const char* text) {
  TextCursor c(text, kType);
  return range_summary_size(parse_text_header(c));
}

void range_summary_from_text(const char* text, RangeSummary* out, size_t size) {
  TextCursor c(text, kType);
  const RangeProtocol p = parse_text_header(c);
  fill(out, size, p, "text");
  c.expect(",");
  out->n = c.field("n");
  const RangeMechanismImpl& m = range_impl(p.mechanism);
  c.expect(",");
  c.array(m.arrays[0], out->counters(), out->count_cells, false);
  if (out->cells() > out->count_cells) {
    c.expect(",");
    c.array(m.arrays[1], out->counters() + out->count_cells, out->cells() - out->count_cells, true);
  }
  c.finish();
  check_counts(*out, ErrorKind::InvalidText);
}

size_t range_summary_binary_size(const RangeSummary& s) {
  return binary_size_at(s, compact_counter_bytes(s.counters(), static_cast<size_t>(s.cells())));
}

void range_summary_to_binary(const RangeSummary& s, uint8_t* out, size_t cap) {
  const auto cells = static_cast<size_t>(s.cells());
  const int bytes = compact_counter_bytes(s.counters(), cells);
  if (cap < binary_size_at(s, bytes)) throw_error(ErrorKind::Internal, "%s binary buffer too small", kType);
  uint8_t* o = out;
  write_stored_header(o, Family::Range, kStoredFormatCompact);
  o += kStoredHeaderSize;
  range_put_fields(o, s.protocol);
  put_be64(o, static_cast<uint64_t>(s.n));
  *o++ = static_cast<uint8_t>(bytes);
  put_counters(o, s.counters(), cells, bytes);
}

size_t range_summary_binary_parse_size(const uint8_t* p, size_t len) {
  int bytes = 0;
  ByteReader r = body_reader(p, len);
  return range_summary_size(read_binary_header(r, &bytes));
}

void range_summary_from_binary(const uint8_t* p, size_t len, RangeSummary* out, size_t size) {
  int bytes = 0;
  ByteReader r = body_reader(p, len);
  const RangeProtocol proto = read_binary_header(r, &bytes);
  fill(out, size, proto, "binary");
  out->n = r.i64();
  r.u8();  // the counter width, checked by read_binary_header
  r.counters(out->counters(), static_cast<size_t>(out->cells()), bytes);
  if (r.left != 0) r.fail("trailing bytes");
  check_counts(*out, ErrorKind::InvalidBinary);
}

}  // namespace ldp
