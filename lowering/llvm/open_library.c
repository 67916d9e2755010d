/* Opens libgac-llvm.so (llvm_library.h) the first time a GPU emitter runs,
 * so that libgac and the SPIR-V tools never load LLVM. Where it looks, in
 * order (docs/API.md):
 *  1. $GAC_LLVM_LIBRARY, a path; when set, nothing else is tried;
 *  2. beside the file that holds libgac (found with dladdr): libgac.so in
 *     an installed lib/, or a program that links libgac.a;
 *  3. that file's folder + the install's bin/ to lib/ path: the installed
 *     tools in bin/;
 *  4. where this build tree builds it: the tools and tests in the tree.
 * A program that links the table itself (the fuzz targets) uses that one:
 * the weak reference below is non-null only then. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm_library.h"

#ifndef GAC_LLVM_LIBRARY_BUILD_PATH
#define GAC_LLVM_LIBRARY_BUILD_PATH "" /* a build without LLVM 19, or the fuzz targets */
#endif
#ifndef GAC_BIN_TO_LIBDIR
#define GAC_BIN_TO_LIBDIR "../lib"
#endif

extern const gac_llvm_library gac_llvm_library_entry __attribute__((weak));

static const gac_llvm_library *library;
static char failure[4096]; /* why it could not be opened: every later call reports it */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void note(const char *fmt, const char *a, const char *b) {
  size_t used = strlen(failure);
  snprintf(failure + used, sizeof failure - used, fmt, a, b);
}

/* The table in path, or NULL with the reason noted. Never closed: LLVM's
 * static state does not survive being unloaded. */
static const gac_llvm_library *try_open(const char *path) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    note("; %s%s", "", dlerror());
    return NULL;
  }
  const gac_llvm_library *t = dlsym(handle, GAC_LLVM_LIBRARY_SYMBOL);
  if (!t) {
    note("; %s: no %s", path, GAC_LLVM_LIBRARY_SYMBOL);
    return NULL;
  }
  if (t->abi != GAC_LLVM_LIBRARY_ABI || strcmp(t->version, GAC_VERSION) != 0) {
    note("; %s: from gac %s, not this libgac's " GAC_VERSION, path, t->version);
    return NULL;
  }
  return t;
}

/* The library in dir/rel. */
static const gac_llvm_library *try_in(const char *dir, const char *rel) {
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s" GAC_LLVM_LIBRARY_FILE, dir, rel);
  if (n < 0 || (size_t)n >= sizeof path) { /* never a truncated path tried */
    note("; %s/%s: path too long", dir, rel);
    return NULL;
  }
  return try_open(path);
}

static void open_once(void) {
  if (&gac_llvm_library_entry) {
    library = &gac_llvm_library_entry;
    return;
  }
  const char *env = getenv("GAC_LLVM_LIBRARY");
  if (env && *env) {
    library = try_open(env);
    return;
  }
  Dl_info info;
  char dir[4096] = "";
  if (dladdr((void *)gac_llvm_library_open, &info) && info.dli_fname) {
    snprintf(dir, sizeof dir, "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (slash)
      *slash = '\0';
    else
      snprintf(dir, sizeof dir, ".");
  }
  if (*dir && ((library = try_in(dir, "")) || (library = try_in(dir, GAC_BIN_TO_LIBDIR "/"))))
    return;
  if (*GAC_LLVM_LIBRARY_BUILD_PATH)
    library = try_open(GAC_LLVM_LIBRARY_BUILD_PATH);
}

const gac_llvm_library *gac_llvm_library_open(const char *rule, gac_diag *diag) {
  pthread_once(&once, open_once);
  if (!library) {
    char r[64];
    snprintf(r, sizeof r, "%s.llvm-library", rule);
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r,
                 "cannot open " GAC_LLVM_LIBRARY_FILE ", gac's LLVM 19 side, which emitting PTX or AMDGCN "
                 "needs (set GAC_LLVM_LIBRARY to its path)%s",
                 *failure ? failure : "; this build has none");
  }
  return library;
}
