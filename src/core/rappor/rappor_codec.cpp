// Text and binary forms of the RAPPOR summary (rappor_summary.hpp).
//
// Text:   v1:rappor{bits=..,hashes=..,cohorts=..,f=..,p=..,q=..,n=..,rows=R,
//         cohort=[R],reports=[R],ones=[R·k]}, the bit counts row-major, Bloom bit b at
//         column b (the counts file's column b + 2).
// Binary: the stored-form header (common/stored_form.hpp, format 3, family Rappor), u8
//         mechanism (1: rappor), i64 bits, hashes, cohorts, f64 f, p, q, i64 n, i64 rows,
//         u8 bytes per counter (1, 2, 4 or 8: the fewest that hold them all), then the
//         R cohorts, the R report counts and the R·k bit counts at that width; big-endian.
//         Only format 3 is read: the family was never stored otherwise.
//
// Parsing is strict: the parameters are validated and the size (rows·(k+2) <=
// kMaxRapporCells; text: at least two characters per counter; binary: exact length) is
// checked before anything is allocated, then the counters (rappor_check_counts).
#include <cinttypes>
#include <cstring>
#include <string>

#include "core/common/byte_reader.hpp"
#include "core/common/error.hpp"
#include "core/common/stored_form.hpp"
#include "core/common/text_cursor.hpp"
#include "core/rappor/rappor_internal.hpp"
#include "core/rappor/rappor_summary.hpp"

namespace ldp {

namespace {

constexpr const char* kType = "rappor_summary";
constexpr uint8_t kMechanismRappor = 1;
const uint8_t kRapporName = 0;  // the envelope's lookup result (one mechanism)

const uint8_t* find_mechanism(const char* name, size_t len) {
  return len == 6 && std::memcmp(name, "rappor", 6) == 0 ? &kRapporName : nullptr;
}

// Validated parameters and row count, or `kind` naming what is wrong.
void check_header(const RapporParams& p, int64_t rows, ErrorKind kind) {
  const char* prefix = kind == ErrorKind::InvalidText ? "invalid input syntax for type " : "invalid binary ";
  try {
    validate_rappor_params(p);
  } catch (const Error& e) {
    throw_error(kind, "%s%s: %s", prefix, kType, e.what());
  }
  if (rows < 0 || rows > rappor_max_rows(p))
    throw_error(kind, "%s%s: %" PRId64 " rows, expected 0 to %" PRId64 " (cohorts, and %" PRId64 " counters at most)",
                prefix, kType, rows, rappor_max_rows(p), kMaxRapporCells);
}

void render(const RapporSummary& s, TextOut& o) {
  const RapporParams& p = s.params;
  o.put("v1:rappor{bits=");
  o.number(p.bits);
  o.put(",hashes=");
  o.number(p.hashes);
  o.put(",cohorts=");
  o.number(p.cohorts);
  o.put(",f=");
  o.number(p.f);
  o.put(",p=");
  o.number(p.p);
  o.put(",q=");
  o.number(p.q);
  o.put(",n=");
  o.number(s.n);
  o.put(",rows=");
  o.number(s.rows);
  for (int field = 0; field < 2; ++field) {
    o.put(field == 0 ? ",cohort=[" : "],reports=[");
    for (int64_t i = 0; i < s.rows; ++i) {
      if (i > 0) o.put(",", 1);
      o.number(s.row(i)[field]);
    }
  }
  o.put("],ones=[");
  for (int64_t i = 0; i < s.rows; ++i)
    for (int64_t b = 0; b < p.bits; ++b) {
      if (i > 0 || b > 0) o.put(",", 1);
      o.number(s.row(i)[2 + b]);
    }
  o.put("]}");
}

struct TextHeader {
  RapporParams params;
  int64_t n, rows;
};

TextHeader parse_text_header(TextCursor& c) {
  c.envelope(find_mechanism, "rappor");
  TextHeader h;
  h.params.bits = c.field("bits");
  c.expect(",");
  h.params.hashes = c.field("hashes");
  c.expect(",");
  h.params.cohorts = c.field("cohorts");
  c.expect(",");
  h.params.f = c.number("f");
  c.expect(",");
  h.params.p = c.number("p");
  c.expect(",");
  h.params.q = c.number("q");
  c.expect(",");
  h.n = c.field("n");
  c.expect(",");
  h.rows = c.field("rows");
  check_header(h.params, h.rows, ErrorKind::InvalidText);
  // Every counter takes at least two characters: a short text cannot claim a huge summary.
  const int64_t counters = h.rows * (h.params.bits + 2);
  if (c.end - c.whole < 2 * counters)
    throw_error(ErrorKind::InvalidText, "invalid input syntax for type %s: too short for its %" PRId64 " counters",
                kType, counters);
  return h;
}

size_t params_binary_size() { return 1 + 3 * 8 + 3 * 8; }

// The parameters and rows of a body, after checking that its length is what they and
// the counter width make: refused before anything is allocated.
TextHeader read_binary_header(ByteReader& r, int* counter_bytes) {
  const uint8_t mech = r.u8();
  if (mech != kMechanismRappor)
    throw_error(ErrorKind::InvalidBinary, "invalid binary %s: mechanism %d, expected %d (rappor)", kType, mech,
                kMechanismRappor);
  TextHeader h;
  h.params.bits = r.i64();
  h.params.hashes = r.i64();
  h.params.cohorts = r.i64();
  h.params.f = r.f64();
  h.params.p = r.f64();
  h.params.q = r.f64();
  h.n = r.i64();
  h.rows = r.i64();
  check_header(h.params, h.rows, ErrorKind::InvalidBinary);
  *counter_bytes = r.counter_width_at(0);
  r.u8();
  const size_t want = static_cast<size_t>(*counter_bytes) * static_cast<size_t>(h.rows * (h.params.bits + 2));
  if (r.left != want)
    throw_error(ErrorKind::InvalidBinary,
                "invalid binary %s: %zu bytes of counters, expected %zu for %" PRId64 " rows of %" PRId64
                " counters of %d bytes",
                kType, r.left, want, h.rows, h.params.bits + 2, *counter_bytes);
  return h;
}

ByteReader body_reader(const uint8_t* p, size_t len) {
  StoredBody body = stored_body(p, len, Family::Rappor, kType, true);
  if (body.format != kStoredFormatCompact)
    throw_error(ErrorKind::InvalidBinary, "invalid binary %s: format %d, this build reads format %d", kType,
                body.format, kStoredFormatCompact);
  return ByteReader{body.p, body.len, kType};
}

void fill(RapporSummary* out, size_t size, const TextHeader& h, const char* form) {
  const size_t want = rappor_summary_size(h.params, h.rows);
  if (size != want) throw_error(ErrorKind::Internal, "%s %s: buffer of %zu bytes for %zu", kType, form, size, want);
  rappor_summary_init(out, h.params, h.rows);
  out->n = h.n;
  out->rows = h.rows;
}

// The summary's counters in the order of both forms: cohorts, report counts, bit counts.
void gather(const RapporSummary& s, std::vector<int64_t>* v) {
  const int64_t k = s.params.bits;
  v->clear();
  v->reserve(static_cast<size_t>(s.rows * (k + 2)));
  for (int64_t i = 0; i < s.rows; ++i) v->push_back(s.row(i)[0]);
  for (int64_t i = 0; i < s.rows; ++i) v->push_back(s.row(i)[1]);
  for (int64_t i = 0; i < s.rows; ++i) v->insert(v->end(), s.row(i) + 2, s.row(i) + 2 + k);
}

void scatter(const std::vector<int64_t>& v, RapporSummary* s) {
  const int64_t k = s->params.bits, R = s->rows;
  for (int64_t i = 0; i < R; ++i) {
    s->row(i)[0] = v[static_cast<size_t>(i)];
    s->row(i)[1] = v[static_cast<size_t>(R + i)];
    std::memcpy(s->row(i) + 2, v.data() + 2 * R + i * k, sizeof(int64_t) * static_cast<size_t>(k));
  }
}

}  // namespace

void rappor_check_counts(const RapporSummary& s, ErrorKind kind, const char* type) {
  const char* prefix = kind == ErrorKind::InvalidText ? "invalid input syntax for type " : "invalid binary ";
  if (s.n < 0) throw_error(kind, "%s%s: negative report count %" PRId64, prefix, type, s.n);
  int64_t total = 0;
  for (int64_t i = 0; i < s.rows; ++i) {
    const int64_t* r = s.row(i);
    if (r[0] < 0 || r[0] >= s.params.cohorts)
      throw_error(kind, "%s%s: cohort %" PRId64 " outside [0, %" PRId64 ")", prefix, type, r[0], s.params.cohorts);
    if (i > 0 && r[0] <= s.row(i - 1)[0])
      throw_error(kind, "%s%s: cohorts must be strictly increasing (%" PRId64 " after %" PRId64 ")", prefix, type,
                  r[0], s.row(i - 1)[0]);
    if (r[1] < 1)
      throw_error(kind, "%s%s: cohort %" PRId64 " has %" PRId64 " reports, expected at least 1", prefix, type, r[0],
                  r[1]);
    if (__builtin_add_overflow(total, r[1], &total) || total > s.n)
      throw_error(kind, "%s%s: the cohorts' reports exceed n = %" PRId64, prefix, type, s.n);
    for (int64_t b = 0; b < s.params.bits; ++b)
      if (r[2 + b] < 0 || r[2 + b] > r[1])
        throw_error(kind, "%s%s: cohort %" PRId64 " bit %" PRId64 " count %" PRId64 " outside [0, %" PRId64 "]",
                    prefix, type, r[0], b, r[2 + b], r[1]);
  }
  if (total != s.n)
    throw_error(kind, "%s%s: the cohorts hold %" PRId64 " reports, n = %" PRId64, prefix, type, total, s.n);
}

size_t rappor_summary_text_size(const RapporSummary& s) {
  return rendered_size(kType, [&](TextOut& o) { render(s, o); });
}

void rappor_summary_to_text(const RapporSummary& s, char* out, size_t cap) {
  render_into(out, cap, kType, [&](TextOut& o) { render(s, o); });
}

size_t rappor_summary_parse_size(const char* text) {
  TextCursor c(text, kType);
  const TextHeader h = parse_text_header(c);
  return rappor_summary_size(h.params, h.rows);
}

void rappor_summary_from_text(const char* text, RapporSummary* out, size_t size) {
  TextCursor c(text, kType);
  const TextHeader h = parse_text_header(c);
  fill(out, size, h, "text");
  const int64_t R = h.rows, k = h.params.bits;
  std::vector<int64_t> v(static_cast<size_t>(R * (k + 2)));
  c.expect(",");
  c.array("cohort", v.data(), R, false);
  c.expect(",");
  c.array("reports", v.data() + R, R, false);
  c.expect(",");
  c.array("ones", v.data() + 2 * R, R * k, false);
  c.finish();
  scatter(v, out);
  rappor_check_counts(*out, ErrorKind::InvalidText, kType);
}

size_t rappor_summary_binary_size(const RapporSummary& s) {
  std::vector<int64_t> v;
  gather(s, &v);
  return kStoredHeaderSize + params_binary_size() + 2 * 8 + 1 +
         static_cast<size_t>(compact_counter_bytes(v.data(), v.size())) * v.size();
}

void rappor_summary_to_binary(const RapporSummary& s, uint8_t* out, size_t cap) {
  if (cap < rappor_summary_binary_size(s)) throw_error(ErrorKind::Internal, "%s binary buffer too small", kType);
  std::vector<int64_t> v;
  gather(s, &v);
  uint8_t* o = out;
  write_stored_header(o, Family::Rappor, kStoredFormatCompact);
  o += kStoredHeaderSize;
  *o++ = kMechanismRappor;
  put_be64(o, static_cast<uint64_t>(s.params.bits));
  put_be64(o, static_cast<uint64_t>(s.params.hashes));
  put_be64(o, static_cast<uint64_t>(s.params.cohorts));
  put_be64(o, double_bits(s.params.f));
  put_be64(o, double_bits(s.params.p));
  put_be64(o, double_bits(s.params.q));
  put_be64(o, static_cast<uint64_t>(s.n));
  put_be64(o, static_cast<uint64_t>(s.rows));
  const int bytes = compact_counter_bytes(v.data(), v.size());
  *o++ = static_cast<uint8_t>(bytes);
  put_counters(o, v.data(), v.size(), bytes);
}

size_t rappor_summary_binary_parse_size(const uint8_t* p, size_t len) {
  int bytes = 0;
  ByteReader r = body_reader(p, len);
  const TextHeader h = read_binary_header(r, &bytes);
  return rappor_summary_size(h.params, h.rows);
}

void rappor_summary_from_binary(const uint8_t* p, size_t len, RapporSummary* out, size_t size) {
  int bytes = 0;
  ByteReader r = body_reader(p, len);
  const TextHeader h = read_binary_header(r, &bytes);
  fill(out, size, h, "binary");
  std::vector<int64_t> v(static_cast<size_t>(h.rows * (h.params.bits + 2)));
  r.counters(v.data(), v.size(), bytes);
  if (r.left != 0) r.fail("trailing bytes");
  scatter(v, out);
  rappor_check_counts(*out, ErrorKind::InvalidBinary, kType);
}

}  // namespace ldp
