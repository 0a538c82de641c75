#include "core/common/interrupt.hpp"

namespace ldp {

namespace detail {
InterruptProbe g_interrupt_probe = nullptr;
void throw_interrupted() { throw Interrupted{}; }
}  // namespace detail

void set_interrupt_probe(InterruptProbe probe) noexcept { detail::g_interrupt_probe = probe; }

}  // namespace ldp
