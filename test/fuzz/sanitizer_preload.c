/* Preloaded by test/fuzz.sh into the sanitized server, after the ASan runtime and before
 * the UBSan runtime (LD_PRELOAD=libasan.so:this:libubsan.so).
 *
 * swift_demangle: the cure for a deadlock. The ASan runtime, preloaded into PostgreSQL's
 * binaries, initializes lazily inside libp11-kit's constructor (reached via libpq ->
 * gnutls) while glibc's locale lock is held; its symbolizer looks `swift_demangle` up,
 * and the failed dlsym formats its error with gettext, which takes that lock again and
 * corrupts it: every binary (postgres -V, psql -V) then hangs in bindtextdomain. With the
 * symbol defined the lookup does not fail. ASan calls it only for Swift-mangled names;
 * NULL means "not demangled".
 *
 * __ubsan_default_options: UBSan's options. The postmaster overwrites its environment
 * with its process title, and the sanitizer runtimes read options from
 * /proc/self/environ, so a runtime initialized in a backend would miss UBSAN_OPTIONS.
 * LDP_FUZZ_UBSAN_OPTIONS is set at build time (the same as the environment's).
 */
#include <stddef.h>
#include <stdint.h>

char *swift_demangle(const char *name, size_t len, char *out, size_t *out_len, uint32_t flags) {
  (void) name; (void) len; (void) out; (void) out_len; (void) flags;
  return NULL;
}

const char *__ubsan_default_options(void) { return LDP_FUZZ_UBSAN_OPTIONS; }
