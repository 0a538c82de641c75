// Limits on what one decode may do, checked before each step whose size the call knows
// (a heavy-hitters level: candidates × rows; RAPPOR: candidates × cohorts × bits, its dense
// fits): a step that would pass them is refused (LimitExceeded) before it allocates or
// starts. The core takes the limits as plain values; the glue reads them from its
// settings (ldp.max_decode_work, ldp.max_decode_memory) and gives their names, so that a
// refusal says which setting raises it. Work the decoders cannot size in advance (the
// walks' survivors, the fits' iterations) is not bounded here: those loops poll for a
// cancel (common/interrupt.hpp).
#pragma once

#include <cmath>

namespace ldp {

// An operation is a decoder's unit of work, a few ns: a sketch row read (a hash and a
// counter), a bit of RAPPOR's design matrix (its MD5s count 64 each), a multiply-add of
// its dense fits.
struct DecodeLimits {
  double max_work = HUGE_VAL;    // operations one call may plan in all
  double max_memory = HUGE_VAL;  // bytes one step may hold at once
  const char* work_name = "the decode work limit";  // how refusals name the limits
  const char* memory_name = "the decode memory limit";
};

// The defaults of the glue's settings ldp.max_decode_work and ldp.max_decode_memory. Every
// documented workload fits: heavy hitters of 10^7 devices plan at most 3·10^8 operations
// (integer ids), RAPPOR's 1,000 candidates without screening 1.0·10^9 (its dense fits, F³),
// its 10,000 with screening 2.3·10^8; none holds more than a few tens of MB.
constexpr double kDefaultMaxDecodeWork = 2e9;
constexpr double kDefaultMaxDecodeMemory = double{1 << 30};

// One call's account against its limits.
class DecodeBudget {
 public:
  DecodeBudget(const DecodeLimits& limits, const char* call) : limits_(limits), call_(call) {}
  // A step of about `ops` operations is about to start (its description printf-style):
  // refused when the call's planned total would pass max_work; then polls for a cancel.
  void plan(double ops, const char* step, ...) __attribute__((format(printf, 3, 4)));
  // A step is about to hold about `bytes` bytes: refused when that passes max_memory.
  void hold(double bytes, const char* step, ...) __attribute__((format(printf, 3, 4)));
  double planned() const { return planned_; }

 private:
  DecodeLimits limits_;
  const char* call_;
  double planned_ = 0;
};

}  // namespace ldp
