/* Sanitized builds only (GAC_SANITIZE): LeakSanitizer's defaults for the
 * programs that dlopen an LLVM (gac_dlopens_llvm in CMakeLists.txt): the
 * tools that open libgac-llvm.so, and the OpenCL host programs, where PoCL
 * opens its libLLVM and the layer libgac-llvm. GCC 12's LeakSanitizer
 * crashes now and then ("Tracer caught signal 11") scanning the dynamic TLS
 * of a dlopen'd libLLVM at exit (seen in corpus.run.layer on CI); with
 * libLLVM loaded at start-up it does not. So leaks are still checked,
 * without thread-local storage as roots; LSAN_OPTIONS overrides this. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void) { return "use_tls=0"; }
