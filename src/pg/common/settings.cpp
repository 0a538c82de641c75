// The module's start (_PG_init): the cancel probe the core polls, the settings that
// bound a decode (docs/security.md#cancels-and-limits-of-a-decode) and the collections'
// (ldp.clock_offset, collections/close_due.cpp).
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "utils/guc.h"
}

#include <climits>

#include "core/common/interrupt.hpp"

namespace {

// Defaults (common/decode_limits.hpp): every documented and tested decode fits inside them.
double max_decode_work = ldp::kDefaultMaxDecodeWork;                               // operations; -1: none
int max_decode_memory_kb = static_cast<int>(ldp::kDefaultMaxDecodeMemory / 1024);  // kB; -1: none

// What the core polls (common/interrupt.hpp): a cancel (statement_timeout,
// pg_cancel_backend) or a terminate (pg_terminate_backend) that CHECK_FOR_INTERRUPTS
// would act on now. Not InterruptPending, which other signals (a latch, a barrier, a
// log-memory request) set too.
bool pg_interrupt_probe() noexcept {
  return (ProcDiePending || (QueryCancelPending && QueryCancelHoldoffCount == 0)) && InterruptHoldoffCount == 0 &&
         CritSectionCount == 0;
}

}  // namespace

namespace ldp_pg {

ldp::DecodeLimits decode_limits() {
  ldp::DecodeLimits l;
  if (max_decode_work >= 0) l.max_work = max_decode_work;
  if (max_decode_memory_kb >= 0) l.max_memory = 1024.0 * max_decode_memory_kb;
  l.work_name = "ldp.max_decode_work";
  l.memory_name = "ldp.max_decode_memory";
  return l;
}

}  // namespace ldp_pg

extern "C" PGDLLEXPORT void _PG_init(void);
void _PG_init(void) {
  ldp::set_interrupt_probe(pg_interrupt_probe);
  // PGC_SUSET: a limit that any role could SET would protect nothing. (A value a role
  // without the privilege set as a placeholder before the module was loaded is
  // discarded with a warning when it loads.)
  DefineCustomRealVariable(
      "ldp.max_decode_work", "Operations one ldp decode may plan (-1: no limit).",
      "A decode adds up the work of each step it can size before starting it (a heavy-hitters level: candidates "
      "times sketch rows; RAPPOR: candidates times cohorts with reports times bits, its dense fits) and is refused "
      "with SQLSTATE 54000 before the step that would pass this.",
      &max_decode_work, max_decode_work, -1, 1e18, PGC_SUSET, 0, nullptr, nullptr, nullptr);
  DefineCustomIntVariable(
      "ldp.max_decode_memory", "Memory one step of an ldp decode may hold (-1: no limit).",
      "A decode whose step would hold more (RAPPOR's design matrix and dense fits) is refused with SQLSTATE 54000 "
      "before it allocates.",
      &max_decode_memory_kb, max_decode_memory_kb, -1, INT_MAX, PGC_SUSET, GUC_UNIT_KB, nullptr, nullptr, nullptr);
  ldp_pg::define_collection_settings();
  MarkGUCPrefixReserved("ldp");
}
