#include "core/common/decode_limits.hpp"

#include <cstdarg>
#include <cstdio>

#include "core/common/error.hpp"
#include "core/common/interrupt.hpp"

namespace ldp {

namespace {

// 1.5 GB, 300 MB, 12 kB
void format_bytes(char* buf, size_t cap, double bytes) {
  if (bytes >= 1e9)
    std::snprintf(buf, cap, "%.1f GB", bytes / (1 << 30));
  else if (bytes >= 1e6)
    std::snprintf(buf, cap, "%.0f MB", bytes / (1 << 20));
  else
    std::snprintf(buf, cap, "%.0f kB", bytes / (1 << 10));
}

}  // namespace

void DecodeBudget::plan(double ops, const char* step, ...) {
  const double total = planned_ + ops;
  if (total > limits_.max_work) {
    char what[256];
    va_list ap;
    va_start(ap, step);
    std::vsnprintf(what, sizeof what, step, ap);
    va_end(ap);
    char before[64] = "";
    if (planned_ > 0.01 * total) std::snprintf(before, sizeof before, " (%.3g with the steps before it)", total);
    throw_error(ErrorKind::LimitExceeded, "%s: %s would take about %.3g operations%s, more than %s = %.3g", call_,
                what, ops, before, limits_.work_name, limits_.max_work);
  }
  planned_ = total;
  check_interrupt();
}

void DecodeBudget::hold(double bytes, const char* step, ...) {
  if (!(bytes > limits_.max_memory)) return;
  char what[256];
  va_list ap;
  va_start(ap, step);
  std::vsnprintf(what, sizeof what, step, ap);
  va_end(ap);
  char need[32], limit[32];
  format_bytes(need, sizeof need, bytes);
  format_bytes(limit, sizeof limit, limits_.max_memory);
  throw_error(ErrorKind::LimitExceeded, "%s: %s would hold about %s, more than %s = %s", call_, what, need,
              limits_.memory_name, limit);
}

}  // namespace ldp
