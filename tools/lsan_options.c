/* Sanitized builds only (GAC_SANITIZE): LeakSanitizer's defaults for the
 * programs that dlopen an LLVM (gac_dlopens_llvm in CMakeLists.txt): the
 * tools that open libgac-llvm.so, and the OpenCL host programs, where PoCL
 * opens its libLLVM and the layer libgac-llvm. GCC 12's LeakSanitizer
 * crashes now and then ("Tracer caught signal 11") scanning the dynamic TLS
 * of a dlopen'd libLLVM at exit (seen in corpus.run.layer on CI); with
 * libLLVM loaded at start-up it does not. So leaks are still checked,
 * without thread-local storage as roots; LSAN_OPTIONS overrides this.
 *
 * Without TLS as roots, the thread vector glibc allocates for a thread of
 * the sanitizer's own (ASAN_OPTIONS=hard_rss_limit_mb=N starts one) is
 * reachable from nowhere LeakSanitizer looks, and every run, --version
 * included, ended in a leak report. That allocation is glibc's, made for
 * every thread, never gac's: suppressed by its allocator. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void) { return "use_tls=0:print_suppressions=0"; }

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:allocate_dtv\nleak:_dl_allocate_tls\n"; }
