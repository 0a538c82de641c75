// Cancels of the core's long loops (CONTRIBUTING.md#rules-for-c-inside-postgresql, rule 3).
// The core never reads PostgreSQL's interrupt state: the glue registers a probe that does (at
// _PG_init), and the decoders' long loops poll it through check_interrupt, which unwinds with
// ldp::Interrupted; the glue's boundary (LDP_CORE) turns that into PostgreSQL's cancel after
// its catch block. Without a probe (the unit tests, the device SDK) polling does nothing.
#pragma once

#include <cstdint>

namespace ldp {

// What check_interrupt throws. Neither an ldp::Error nor a std::exception, so that no
// catch of those inside the core can swallow a cancel.
struct Interrupted {};

// True when the call must stop now (the glue: a cancel or a terminate is pending and
// PostgreSQL would act on it). Must not throw, allocate or call back into the core.
using InterruptProbe = bool (*)() noexcept;
// Registers the probe; nullptr removes it. Not thread-safe: set it before any decoding.
void set_interrupt_probe(InterruptProbe probe) noexcept;

namespace detail {
extern InterruptProbe g_interrupt_probe;
[[noreturn]] void throw_interrupted();
}  // namespace detail

// Throws Interrupted when the probe says so: a load and, with a probe, one indirect call
// (a few ns). Call it where a loop's iteration costs a microsecond or more; cheaper
// iterations use InterruptPoll.
inline void check_interrupt() {
  const InterruptProbe probe = detail::g_interrupt_probe;
  if (probe != nullptr && probe()) detail::throw_interrupted();
}

// Work between two polls: about 0.1–0.3 ms of a decoder's unit work (a sketch row read,
// a design-matrix entry), far below the 100 ms a cancel may take to land.
constexpr int64_t kInterruptPollWork = int64_t{1} << 16;

// check_interrupt once per kInterruptPollWork units of work, for loops whose iterations
// cost nanoseconds: tick(w) after an iteration of about w units.
class InterruptPoll {
 public:
  void tick(int64_t work = 1) {
    left_ -= work;
    if (left_ <= 0) {
      left_ = kInterruptPollWork;
      check_interrupt();
    }
  }

 private:
  int64_t left_ = kInterruptPollWork;
};

}  // namespace ldp
