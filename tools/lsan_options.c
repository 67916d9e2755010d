/* Sanitized builds only (GAC_SANITIZE): LeakSanitizer's defaults for the
 * tools that open libgac-llvm.so. GCC 12's LeakSanitizer crashes ("Tracer
 * caught signal 11") scanning the dynamic TLS of a dlopen'd libLLVM at exit;
 * with libLLVM loaded at start-up it does not. So leaks are still checked,
 * without thread-local storage as roots; LSAN_OPTIONS overrides this. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void) { return "use_tls=0"; }
