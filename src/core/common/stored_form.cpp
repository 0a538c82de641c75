#include "core/common/stored_form.hpp"

#include <cstring>

#include "core/common/error.hpp"

namespace ldp {

namespace {
const char* family_name(uint8_t f) {
  switch (f) {
    case static_cast<uint8_t>(Family::Mean):
      return "a mean summary";
    case static_cast<uint8_t>(Family::Frequency):
      return "a frequency summary";
    case static_cast<uint8_t>(Family::Sketch):
      return "a sketch summary";
    case static_cast<uint8_t>(Family::Heavy):
      return "a heavy-hitters summary";
    case static_cast<uint8_t>(Family::Rappor):
      return "a RAPPOR summary";
    case static_cast<uint8_t>(Family::Range):
      return "a range summary";
    default:
      return "an unknown family";
  }
}
}  // namespace

void write_stored_header(uint8_t* out, Family family, uint8_t format) {
  std::memcpy(out, kStoredMagic, sizeof kStoredMagic);
  out[4] = format;
  out[5] = static_cast<uint8_t>(family);
}

bool has_stored_magic(const uint8_t* p, size_t len) {
  return len >= sizeof kStoredMagic && std::memcmp(p, kStoredMagic, sizeof kStoredMagic) == 0;
}

StoredBody stored_body(const uint8_t* p, size_t len, Family family, const char* type,
                       bool compact_counters) {
  if (has_stored_magic(p, len)) {
    if (len < kStoredHeaderSize)
      throw_error(ErrorKind::InvalidBinary, "invalid binary %s: truncated", type);
    if (p[4] != kStoredFormat && !(compact_counters && p[4] == kStoredFormatCompact)) {
      if (compact_counters)
        throw_error(ErrorKind::InvalidBinary,
                    "invalid binary %s: format %d, this build reads formats 1, %d and %d", type, p[4],
                    kStoredFormat, kStoredFormatCompact);
      throw_error(ErrorKind::InvalidBinary,
                  "invalid binary %s: format %d, this build reads formats 1 and %d", type, p[4],
                  kStoredFormat);
    }
    if (p[5] != static_cast<uint8_t>(family))
      throw_error(ErrorKind::InvalidBinary, "invalid binary %s: it holds %s", type,
                  family_name(p[5]));
    return StoredBody{p + kStoredHeaderSize, len - kStoredHeaderSize, p[4]};
  }
  if (len < 1) throw_error(ErrorKind::InvalidBinary, "invalid binary %s: truncated", type);
  if (p[0] != kFormat1Version)
    throw_error(ErrorKind::InvalidBinary,
                "invalid binary %s: version %d, this build reads version %d and format %d", type,
                p[0], kFormat1Version, kStoredFormat);
  return StoredBody{p + 1, len - 1, 1};
}

}  // namespace ldp
