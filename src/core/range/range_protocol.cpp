#include "core/range/range_protocol.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>

#include "core/common/error.hpp"
#include "core/common/stats.hpp"
#include "core/range/range_internal.hpp"

namespace ldp {

namespace {

void validate_mapping(const RangeProtocol& p) {
  switch (p.mapping) {
    case RangeMapping::Floor:
      if (p.lo != 0 || p.hi != 0 || std::signbit(p.lo) || std::signbit(p.hi))  // -0 too: one form each
        throw_error(ErrorKind::InvalidParameter, "a floor mapping takes no bounds, got lo = %g and hi = %g", p.lo, p.hi);
      return;
    case RangeMapping::Linear:
      if (!std::isfinite(p.lo) || !std::isfinite(p.hi) || !(p.lo < p.hi) || !std::isfinite(p.hi - p.lo))
        throw_error(ErrorKind::InvalidParameter, "a linear mapping needs finite bounds lo < hi, got [%g, %g)", p.lo,
                    p.hi);
      return;
    case RangeMapping::Log:
      if (!std::isfinite(p.lo) || !std::isfinite(p.hi) || !(p.lo > 0) || !(p.lo < p.hi))
        throw_error(ErrorKind::InvalidParameter, "a log mapping needs finite bounds 0 < lo < hi, got [%g, %g)", p.lo,
                    p.hi);
      // ln(hi/lo), which cuts the buckets, must be finite (hi/lo overflows for a tiny lo)
      if (const double r = std::log(p.hi / p.lo); !(std::isfinite(r) && r > 0))
        throw_error(ErrorKind::InvalidParameter,
                    "a log mapping needs a finite ratio hi/lo > 1, got [%g, %g) (ratio %g)", p.lo, p.hi, p.hi / p.lo);
      return;
  }
  throw_error(ErrorKind::InvalidParameter, "unknown range mapping %d", static_cast<int>(p.mapping));
}

bool owns(const RangeMechanismImpl& m, const RangeProtocolField* f) {
  for (const RangeProtocolField* g : m.fields)
    if (g == f) return true;
  return false;
}

}  // namespace

void validate_range_protocol(const RangeProtocol& p) {
  check_epsilon(p.epsilon);
  if (p.domain_bits < 1 || p.domain_bits > kMaxRangeDomainBits)
    throw_error(ErrorKind::InvalidParameter, "domain_bits must be between 1 and %d, got %d", kMaxRangeDomainBits,
                p.domain_bits);
  const RangeMechanismImpl* m = range_impl_from_byte(static_cast<uint8_t>(p.mechanism));
  if (m == nullptr)
    throw_error(ErrorKind::InvalidParameter, "unknown range mechanism %d", static_cast<int>(p.mechanism));
  validate_mapping(p);
  // another mechanism's field holds 0
  for (const RangeMechanismImpl* other : range_impls())
    for (const RangeProtocolField* f : other->fields)
      if (f != nullptr && !owns(*m, f) && f->get(p) != 0)
        throw_error(ErrorKind::InvalidParameter, "%s is %s's, not %s's (got %s = %lld)", f->key, other->name,
                    m->name, f->key, static_cast<long long>(f->get(p)));
  if (m->validate != nullptr) m->validate(p);
}

bool same_range_protocol(const RangeProtocol& a, const RangeProtocol& b) {
  if (!(a.epsilon == b.epsilon && a.domain_bits == b.domain_bits && a.mechanism == b.mechanism &&
        a.mapping == b.mapping && a.lo == b.lo && a.hi == b.hi))
    return false;
  for (const RangeMechanismImpl* m : range_impls())
    for (const RangeProtocolField* f : m->fields)
      if (f != nullptr && f->get(a) != f->get(b)) return false;
  return true;
}

const char* range_mechanism_name(RangeMechanism m) {
  const RangeMechanismImpl* impl = range_impl_from_byte(static_cast<uint8_t>(m));
  return impl == nullptr ? "?" : impl->name;
}

const char* range_mapping_name(RangeMapping m) {
  switch (m) {
    case RangeMapping::Floor: return "floor";
    case RangeMapping::Linear: return "linear";
    case RangeMapping::Log: return "log";
  }
  return "?";
}

RangeMechanism range_mechanism_from_name(const char* name) {
  if (const RangeMechanism* m = range_mechanism_by_name(name, std::strlen(name))) return *m;
  throw_error(ErrorKind::InvalidParameter, "unknown range mechanism \"%s\" (known: %s)", name,
              range_mechanism_names().c_str());
}

RangeMapping range_mapping_from_name(const char* name) {
  for (RangeMapping m : {RangeMapping::Floor, RangeMapping::Linear, RangeMapping::Log})
    if (std::strcmp(name, range_mapping_name(m)) == 0) return m;
  throw_error(ErrorKind::InvalidParameter, "unknown range mapping \"%s\" (known: floor, linear, log)", name);
}

namespace {

// x in buckets, clamped to [0, D): NaN has been refused, ±Inf clamp.
int64_t clamp_bucket(double x, int64_t domain) {
  if (!(x >= 0)) return 0;
  if (x >= static_cast<double>(domain)) return domain - 1;
  return static_cast<int64_t>(x);
}

}  // namespace

int64_t range_bucket(const RangeProtocol& p, double value) {
  if (std::isnan(value)) throw_error(ErrorKind::InvalidParameter, "a range value must not be NaN");
  const double d = static_cast<double>(p.domain());
  switch (p.mapping) {
    case RangeMapping::Floor:
      return clamp_bucket(std::floor(value), p.domain());
    case RangeMapping::Linear:
      return clamp_bucket(std::floor((value - p.lo) / (p.hi - p.lo) * d), p.domain());
    case RangeMapping::Log:
      if (!(value > p.lo)) return 0;
      return clamp_bucket(std::floor(std::log(value / p.lo) / std::log(p.hi / p.lo) * d), p.domain());
  }
  throw_error(ErrorKind::Internal, "unknown range mapping");
}

double range_bucket_lower(const RangeProtocol& p, int64_t b) {
  const double t = static_cast<double>(b) / static_cast<double>(p.domain());
  switch (p.mapping) {
    case RangeMapping::Floor: return static_cast<double>(b);
    case RangeMapping::Linear: return p.lo + t * (p.hi - p.lo);
    case RangeMapping::Log: return p.lo * std::exp(t * std::log(p.hi / p.lo));
  }
  return 0;
}

double range_bucket_upper(const RangeProtocol& p, int64_t b) { return range_bucket_lower(p, b + 1); }

// ---- text and binary forms ----

namespace {
constexpr RangeMapping kMappings[] = {RangeMapping::Floor, RangeMapping::Linear, RangeMapping::Log};
constexpr uint8_t kProtocolBinaryVersion = 1;
}  // namespace

const RangeMechanism* range_mechanism_by_name(const char* name, size_t len) {
  for (const RangeMechanismImpl* m : range_impls())
    if (std::strlen(m->name) == len && std::memcmp(m->name, name, len) == 0) return &m->id;
  return nullptr;
}

bool range_mechanism_known(const char* name, size_t len) { return range_mechanism_by_name(name, len) != nullptr; }

std::string range_mechanism_names() {
  std::string out;
  for (const RangeMechanismImpl* m : range_impls()) out += (out.empty() ? "" : ", ") + std::string(m->name);
  return out;
}

void range_render_fields(const RangeProtocol& p, TextOut& o) {
  o.put("epsilon=");
  o.number(p.epsilon);
  o.put(",domain_bits=");
  o.number(p.domain_bits);
  for (const RangeProtocolField* f : range_impl(p.mechanism).fields) {
    if (f == nullptr) break;
    o.put(",");
    o.put(f->key);
    o.put("=");
    o.number(f->get(p));
  }
  o.put(",mapping=");
  o.put(range_mapping_name(p.mapping));
  if (p.mapping != RangeMapping::Floor) {
    o.put(",lo=");
    o.number(p.lo);
    o.put(",hi=");
    o.number(p.hi);
  }
}

RangeProtocol range_parse_fields(TextCursor& c, RangeMechanism m) {
  RangeProtocol p;
  p.mechanism = m;
  p.epsilon = c.number("epsilon");
  c.expect(",");
  const int64_t bits = c.field("domain_bits");
  p.domain_bits = static_cast<int>(std::min<int64_t>(bits, kMaxRangeDomainBits + 1));
  for (const RangeProtocolField* f : range_impl(m).fields) {
    if (f == nullptr) break;
    c.expect(",");
    f->set(&p, c.field(f->key));  // validated below
  }
  c.expect(",");
  const char *b = nullptr, *e = nullptr;
  c.token("mapping", &b, &e);
  bool found = false;
  for (RangeMapping g : kMappings) {
    const char* name = range_mapping_name(g);
    if (std::strlen(name) == static_cast<size_t>(e - b) && std::memcmp(name, b, static_cast<size_t>(e - b)) == 0) {
      p.mapping = g;
      found = true;
    }
  }
  if (!found) {
    c.p = b;
    c.fail("a mapping (floor, linear, log)");
  }
  if (p.mapping != RangeMapping::Floor) {
    c.expect(",");
    p.lo = c.number("lo");
    c.expect(",");
    p.hi = c.number("hi");
  }
  try {
    validate_range_protocol(p);
  } catch (const Error& err) {
    throw Error(ErrorKind::InvalidText, std::string("invalid input syntax for type ") + c.type + ": " + err.what());
  }
  return p;
}

namespace {
const RangeProtocolField* own_field(const RangeMechanismImpl& m, const char* key) {
  for (const RangeProtocolField* f : m.fields)
    if (f != nullptr && std::strcmp(f->key, key) == 0) return f;
  return nullptr;
}
}  // namespace

bool range_protocol_takes(const RangeProtocol& p, const char* key) {
  return own_field(range_impl(p.mechanism), key) != nullptr;
}

void range_protocol_give(RangeProtocol* p, const char* key, int64_t value) {
  const RangeMechanismImpl& m = range_impl(p->mechanism);
  if (const RangeProtocolField* f = own_field(m, key)) {
    f->set(p, value);
    return;
  }
  for (const RangeMechanismImpl* other : range_impls())
    for (const RangeProtocolField* f : other->fields)
      if (f != nullptr && std::strcmp(f->key, key) == 0)
        throw_error(ErrorKind::InvalidParameter, "a %s protocol takes no %s (%s is %s's)", m.name, key, key,
                    other->name);
  throw_error(ErrorKind::InvalidParameter, "no range mechanism takes %s", key);
}

void range_protocol_defaults(RangeProtocol* p) {
  const RangeMechanismImpl& m = range_impl(p->mechanism);
  if (m.defaults != nullptr) m.defaults(p);
}

std::string range_protocol_to_text(const RangeProtocol& p) {
  auto render = [&](TextOut& o) {
    o.put("v1:");
    o.put(range_mechanism_name(p.mechanism));
    o.put("{");
    range_render_fields(p, o);
    o.put("}");
  };
  std::string out(rendered_size("range_protocol", render), '\0');
  render_into(out.data(), out.size(), "range_protocol", render);
  out.pop_back();  // the NUL
  return out;
}

RangeProtocol range_protocol_from_text(const char* text) {
  TextCursor c(text, "range_protocol");
  const RangeMechanism* m = c.envelope(range_mechanism_by_name, range_mechanism_names());
  const RangeProtocol p = range_parse_fields(c, *m);
  c.finish();
  return p;
}

void range_put_fields(uint8_t*& o, const RangeProtocol& p) {
  *o++ = static_cast<uint8_t>(p.mechanism);
  *o++ = static_cast<uint8_t>(p.mapping);
  put_be64(o, double_bits(p.epsilon));
  put_be64(o, static_cast<uint64_t>(int64_t{p.domain_bits}));
  put_be64(o, double_bits(p.lo));
  put_be64(o, double_bits(p.hi));
  for (const RangeProtocolField* f : range_impl(p.mechanism).fields)
    if (f != nullptr) put_be64(o, static_cast<uint64_t>(f->get(p)));
}

size_t range_fields_binary_size(const RangeProtocol& p) {
  size_t size = kRangeFieldsBinarySize;
  for (const RangeProtocolField* f : range_impl(p.mechanism).fields)
    if (f != nullptr) size += 8;
  return size;
}

RangeProtocol range_read_fields(ByteReader& r) {
  RangeProtocol p;
  const RangeMechanismImpl* m = range_impl_from_byte(r.u8());
  if (m == nullptr) r.fail("unknown mechanism");
  p.mechanism = m->id;
  p.mapping = static_cast<RangeMapping>(r.u8());
  p.epsilon = r.f64();
  const int64_t bits = r.i64();
  p.domain_bits = static_cast<int>(std::clamp<int64_t>(bits, -1, kMaxRangeDomainBits + 1));
  p.lo = r.f64();
  p.hi = r.f64();
  for (const RangeProtocolField* f : m->fields)
    if (f != nullptr) f->set(&p, r.i64());  // validated below
  try {
    validate_range_protocol(p);
  } catch (const Error& err) {
    throw Error(ErrorKind::InvalidBinary, std::string("invalid binary ") + r.type + ": " + err.what());
  }
  return p;
}

size_t range_protocol_binary_size(const RangeProtocol& p) { return 1 + range_fields_binary_size(p); }

void range_protocol_to_binary(const RangeProtocol& p, uint8_t* out, size_t cap) {
  if (cap < range_protocol_binary_size(p)) throw_error(ErrorKind::Internal, "range_protocol binary buffer too small");
  *out++ = kProtocolBinaryVersion;
  range_put_fields(out, p);
}

RangeProtocol range_protocol_from_binary(const uint8_t* bytes, size_t len) {
  ByteReader r{bytes, len, "range_protocol"};
  const uint8_t version = r.u8();
  if (version != kProtocolBinaryVersion)
    throw_error(ErrorKind::InvalidBinary, "invalid binary range_protocol: version %d, this build reads version %d",
                version, kProtocolBinaryVersion);
  const RangeProtocol p = range_read_fields(r);
  if (r.left != 0) r.fail("trailing bytes");
  return p;
}

}  // namespace ldp
