/* A positive control for test/fuzz.sh: two functions with planted bugs, built with the
 * same sanitizer flags as the extension and called once before fuzzing, to show that a
 * finding in a backend really reaches the sanitizer logs and the crash check.
 *   ldp_fuzz_probe_asan(n): reads one byte past a heap block of n bytes
 *   ldp_fuzz_probe_ubsan(n): a signed int overflow (INT_MAX + n)
 */
#include "postgres.h"

#include <limits.h>
#include <stdlib.h>

#include "fmgr.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(ldp_fuzz_probe_asan);
Datum ldp_fuzz_probe_asan(PG_FUNCTION_ARGS) {
  int32 n = PG_GETARG_INT32(0);
  volatile char *p = malloc(n);
  int32 c = p[n]; /* heap-buffer-overflow */
  free((void *) p);
  PG_RETURN_INT32(c);
}

PG_FUNCTION_INFO_V1(ldp_fuzz_probe_ubsan);
Datum ldp_fuzz_probe_ubsan(PG_FUNCTION_ARGS) {
  volatile int32 big = INT_MAX;
  PG_RETURN_INT32(big + PG_GETARG_INT32(0)); /* signed integer overflow */
}
