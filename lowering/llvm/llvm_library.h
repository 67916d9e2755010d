/* libgac-llvm.so, gac's LLVM side (docs/ARCHITECTURE.md): the one table it
 * exports and the loader libgac opens it with. Only --emit=ptx|amdgcn needs
 * LLVM 19, so libgac and its tools do not link it (LLVM's load and static
 * constructors would otherwise cost every run, 2.4x spirv-opt's time); the
 * emitters open the library on first use. No LLVM header here: libgac's
 * side includes this file. */
#ifndef GAC_LLVM_LIBRARY_H
#define GAC_LLVM_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

#include "gac/amdgcn.h"
#include "gac/ptx.h"

/* Bumped when the table or a type it passes changes; libgac refuses a
 * library of another ABI or version, as they come from different builds. */
#define GAC_LLVM_LIBRARY_ABI 2 /* 2: gac_ptx_options.abi */
#define GAC_LLVM_LIBRARY_SYMBOL "gac_llvm_library_entry"
#define GAC_LLVM_LIBRARY_FILE "libgac-llvm.so"
#ifndef GAC_VERSION
#define GAC_VERSION "unknown"
#endif

/* SPIR 1.2 bitcode (the bridge's, llvm-spirv-15 -r) to target code; each
 * target's entry point (ptx/llvm_nvptx.c, amdgcn/llvm_amdgcn.c). */
typedef struct gac_llvm_library {
  unsigned abi;        /* GAC_LLVM_LIBRARY_ABI */
  const char *version; /* GAC_VERSION of its build */
  bool (*ptx_from_bitcode)(const void *bitcode, size_t size, const gac_ptx_options *options, char **ptx,
                           size_t *ptx_size, gac_diag *diag);
  bool (*amdgcn_from_bitcode)(const void *bitcode, size_t size, const gac_amdgcn_options *options, bool object,
                              char **out, size_t *out_size, gac_diag *diag);
} gac_llvm_library;

/* Defined by the library (lowering/llvm_library.c), the only symbol it
 * exports. */
extern const gac_llvm_library gac_llvm_library_entry;

/* The library, opened once per process (open_library.c); NULL with a
 * "<rule>.llvm-library" error naming what was tried and the way out. */
const gac_llvm_library *gac_llvm_library_open(const char *rule, gac_diag *diag);

#endif
