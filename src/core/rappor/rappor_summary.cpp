// The RAPPOR summary: parameters, size, init, adding reports, merging (rappor_summary.hpp).
// The forms are in rappor_codec.cpp, the decoder in rappor_decode.cpp.
#include "core/rappor/rappor_summary.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstring>

#include "core/common/error.hpp"

namespace ldp {

namespace {

// The row of a cohort, or -(insertion point) - 1.
int64_t find_row(const RapporSummary& s, int64_t cohort) {
  int64_t lo = 0, hi = s.rows;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    const int64_t c = s.row(mid)[0];
    if (c == cohort) return mid;
    if (c < cohort) lo = mid + 1;
    else hi = mid;
  }
  return -lo - 1;
}

void check_report_shape(const RapporSummary& s, int64_t cohort, int64_t nbits) {
  if (cohort < 0 || cohort >= s.params.cohorts)
    throw_error(ErrorKind::ImpossibleReport, "RAPPOR cohort must be in [0, cohorts = %" PRId64 "), got %" PRId64,
                s.params.cohorts, cohort);
  if (nbits != s.params.bits)
    throw_error(ErrorKind::ImpossibleReport, "RAPPOR report has %" PRId64 " bits, expected %" PRId64, nbits,
                s.params.bits);
  if (s.n == INT64_MAX) throw_error(ErrorKind::OutOfRange, "RAPPOR summary would count more than 2^63 reports");
}

// The row of a cohort, inserted when it has none; nullptr when the summary is full.
int64_t* row_for(RapporSummary* s, int64_t cohort) {
  int64_t at = find_row(*s, cohort);
  if (at >= 0) return s->row(at);
  if (s->rows == s->capacity) return nullptr;
  at = -at - 1;
  const int64_t w = s->row_words();
  std::memmove(s->row(at + 1), s->row(at), sizeof(int64_t) * static_cast<size_t>((s->rows - at) * w));
  int64_t* r = s->row(at);
  std::memset(r, 0, sizeof(int64_t) * static_cast<size_t>(w));
  r[0] = cohort;
  s->rows += 1;
  return r;
}

}  // namespace

void validate_rappor_params(const RapporParams& p) {
  check_rappor_hashing(p.bits, p.hashes);
  if (p.cohorts < 1 || p.cohorts > kRapporMaxCohorts)
    throw_error(ErrorKind::InvalidParameter, "RAPPOR cohorts must be in [1, 2^31 - 1], got %" PRId64, p.cohorts);
  check_rappor_noise(p.f, p.p, p.q);
}

bool same_rappor_params(const RapporParams& a, const RapporParams& b) {
  // f, p, q compared by value: the parameters are what the reports were made with.
  return a.bits == b.bits && a.hashes == b.hashes && a.cohorts == b.cohorts && a.f == b.f && a.p == b.p &&
         a.q == b.q;
}

std::string rappor_params_to_text(const RapporParams& p) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "bits=%" PRId64 ",hashes=%" PRId64 ",cohorts=%" PRId64 ",f=%.17g,p=%.17g,q=%.17g",
                p.bits, p.hashes, p.cohorts, p.f, p.p, p.q);
  return buf;
}

int64_t rappor_max_rows(const RapporParams& p) {
  return std::min(p.cohorts, kMaxRapporCells / (p.bits + 2));
}

size_t rappor_summary_size(const RapporParams& p, int64_t capacity) {
  validate_rappor_params(p);
  if (capacity < 0 || capacity > rappor_max_rows(p))
    throw_error(ErrorKind::InvalidParameter,
                "RAPPOR summary capacity must be in [0, %" PRId64 "] cohorts (%" PRId64
                " counters at most), got %" PRId64,
                rappor_max_rows(p), kMaxRapporCells, capacity);
  return sizeof(RapporSummary) + sizeof(int64_t) * static_cast<size_t>(capacity * (p.bits + 2));
}

void rappor_summary_init(RapporSummary* s, const RapporParams& p, int64_t capacity) {
  const size_t size = rappor_summary_size(p, capacity);
  std::memset(static_cast<void*>(s), 0, size);
  s->params = p;
  // -0 is 0: one summary, one text form (f = -0 read from a form or given by a query
  // would otherwise print as "f=-0" and equal "f=0" only by value)
  for (double* v : {&s->params.f, &s->params.p, &s->params.q})
    if (*v == 0) *v = 0;
  s->n = 0;
  s->rows = 0;
  s->capacity = capacity;
}

int64_t rappor_grown_capacity(const RapporSummary& s) {
  const int64_t max = rappor_max_rows(s.params);
  if (s.capacity >= max)
    throw_error(ErrorKind::OutOfRange,
                "RAPPOR summary would hold more than %" PRId64 " cohorts of %" PRId64 " bits (%" PRId64
                " counters at most)",
                max, s.params.bits, kMaxRapporCells);
  return std::min(max, std::max<int64_t>(8, 2 * s.capacity));
}

void rappor_summary_copy(const RapporSummary& from, RapporSummary* to, int64_t capacity) {
  if (capacity < from.rows)
    throw_error(ErrorKind::Internal, "RAPPOR summary copy: capacity %" PRId64 " below %" PRId64 " rows", capacity,
                from.rows);
  rappor_summary_init(to, from.params, capacity);
  to->n = from.n;
  to->rows = from.rows;
  std::memcpy(to->row(0), from.row(0), sizeof(int64_t) * static_cast<size_t>(from.rows * from.row_words()));
}

bool rappor_add_report(RapporSummary* s, int64_t cohort, const uint8_t* data, int64_t nbits) {
  check_report_shape(*s, cohort, nbits);
  int64_t* r = row_for(s, cohort);
  if (r == nullptr) return false;
  // character j of the report is Bloom bit k-1-j (sum_bits.py)
  const int64_t k = s->params.bits;
  for (int64_t j = 0; j < k; ++j) r[2 + k - 1 - j] += (data[j >> 3] >> (7 - (j & 7))) & 1;
  r[1] += 1;
  s->n += 1;
  return true;
}

bool rappor_add_bits(RapporSummary* s, int64_t cohort, const RapporBits& report) {
  check_report_shape(*s, cohort, s->params.bits);
  const int64_t k = s->params.bits;
  for (int64_t b = k; b < 256; ++b)
    if (report.test(b)) throw_error(ErrorKind::ImpossibleReport, "RAPPOR report sets bit %" PRId64 " of %" PRId64, b, k);
  int64_t* r = row_for(s, cohort);
  if (r == nullptr) return false;
  for (int64_t b = 0; b < k; ++b) r[2 + b] += report.test(b);
  r[1] += 1;
  s->n += 1;
  return true;
}

int64_t rappor_merged_rows(const RapporSummary& into, const RapporSummary& from) {
  if (!same_rappor_params(into.params, from.params))
    throw_error(ErrorKind::InvalidParameter, "cannot merge RAPPOR summaries of different parameters: %s and %s",
                rappor_params_to_text(into.params).c_str(), rappor_params_to_text(from.params).c_str());
  int64_t i = 0, j = 0, rows = 0;
  while (i < into.rows || j < from.rows) {
    if (j == from.rows || (i < into.rows && into.row(i)[0] < from.row(j)[0])) ++i;
    else if (i == into.rows || from.row(j)[0] < into.row(i)[0]) ++j;
    else ++i, ++j;
    ++rows;
  }
  return rows;
}

void rappor_summary_merge(RapporSummary* into, const RapporSummary& from) {
  const int64_t rows = rappor_merged_rows(*into, from);
  if (rows > into->capacity)
    throw_error(ErrorKind::Internal, "RAPPOR merge needs %" PRId64 " rows, the buffer has %" PRId64, rows,
                into->capacity);
  int64_t n = 0;
  if (__builtin_add_overflow(into->n, from.n, &n))
    throw_error(ErrorKind::OutOfRange, "merged RAPPOR summary would count more than 2^63 reports");
  // Merge from the back, in place: row `rows - 1` down to 0. Every counter is bounded by
  // its summary's n: none overflows when the report counts do not.
  const int64_t w = into->row_words();
  int64_t i = into->rows - 1, j = from.rows - 1, o = rows - 1;
  while (j >= 0) {
    int64_t* out = into->row(o);
    if (i >= 0 && into->row(i)[0] > from.row(j)[0]) {
      std::memmove(out, into->row(i), sizeof(int64_t) * static_cast<size_t>(w));
      --i;
    } else if (i >= 0 && into->row(i)[0] == from.row(j)[0]) {
      std::memmove(out, into->row(i), sizeof(int64_t) * static_cast<size_t>(w));
      for (int64_t b = 1; b < w; ++b) out[b] += from.row(j)[b];
      --i, --j;
    } else {
      std::memcpy(out, from.row(j), sizeof(int64_t) * static_cast<size_t>(w));
      --j;
    }
    --o;
  }
  into->rows = rows;
  into->n = n;
}

int64_t rappor_cohort_reports(const RapporSummary& s, int64_t cohort) {
  const int64_t at = find_row(s, cohort);
  return at >= 0 ? s.row(at)[1] : 0;
}

const int64_t* rappor_cohort_ones(const RapporSummary& s, int64_t cohort) {
  const int64_t at = find_row(s, cohort);
  return at >= 0 ? s.row(at) + 2 : nullptr;
}

RapporAccumulator::RapporAccumulator(const RapporParams& p, int64_t capacity) {
  validate_rappor_params(p);
  capacity = std::min(capacity, rappor_max_rows(p));
  buf_.assign(rappor_summary_size(p, capacity) / 8, 0);
  rappor_summary_init(&summary(), p, capacity);
}

void RapporAccumulator::grow(int64_t capacity) {
  std::vector<uint64_t> next(rappor_summary_size(summary().params, capacity) / 8, 0);
  rappor_summary_copy(summary(), reinterpret_cast<RapporSummary*>(next.data()), capacity);
  buf_.swap(next);
}

void RapporAccumulator::add(int64_t cohort, const RapporBits& report) {
  while (!rappor_add_bits(&summary(), cohort, report)) grow(rappor_grown_capacity(summary()));
}

void RapporAccumulator::add_varbit(int64_t cohort, const uint8_t* data, int64_t nbits) {
  while (!rappor_add_report(&summary(), cohort, data, nbits)) grow(rappor_grown_capacity(summary()));
}

void RapporAccumulator::merge(const RapporSummary& from) {
  const int64_t rows = rappor_merged_rows(summary(), from);
  if (rows > summary().capacity) grow(rows);
  rappor_summary_merge(&summary(), from);
}

void RapporAccumulator::add_counts(int64_t cohort, int64_t reports, const int64_t* ones) {
  RapporAccumulator one(summary().params, 1);
  RapporSummary& s = one.summary();
  s.rows = 1;
  s.n = reports;
  s.row(0)[0] = cohort;
  s.row(0)[1] = reports;
  for (int64_t b = 0; b < s.params.bits; ++b) s.row(0)[2 + b] = ones[b];
  merge(s);
}

}  // namespace ldp
