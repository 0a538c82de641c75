#include "core/common/error.hpp"

namespace ldp {

void throw_error(ErrorKind kind, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  throw Error(kind, buf);
}

}  // namespace ldp
