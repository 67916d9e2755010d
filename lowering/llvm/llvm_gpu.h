/* SPIR 1.2 bitcode (llvm-spirv-15 -r) to a GPU target with LLVM 19's C
 * API: the steps every target shares (llvm_gpu.c), and the hooks in which
 * the PTX and AMDGCN paths differ (lowering/ptx, lowering/amdgcn). */
#ifndef GAC_LLVM_GPU_H
#define GAC_LLVM_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "gac/diag.h"
#include "subprocess.h" /* gac_gpu_path */

typedef struct gac_gpu_target {
  const char *name;        /* in messages: "NVPTX", "AMDGPU" */
  const char *rule;        /* the prefix of rule names: "ptx", "amdgcn" */
  const char *save_ir_env; /* names a file for the module the optimiser gets */
  const char *triple;
  unsigned constant_as;    /* where SPIR's constant (2) goes (address_spaces.c) */
  LLVMCallConv kernel_cc;
  /* Local-pointer kernel parameters stay pointers (an OpenCL driver
   * allocates each local argument and passes its address) instead of
   * becoming offsets into one dynamic shared array (CUDA, HIP). */
  bool local_params_in_place;
  /* The target machine for the options (NULL with a diagnostic). */
  LLVMTargetMachineRef (*target_machine)(const void *options, gac_diag *diag);
  /* On the SPIR module, before its address spaces are renamed (may be
   * NULL). */
  void (*before_retarget)(LLVMModuleRef mod);
  /* After the calling conventions and kernels: whatever the target's ABI
   * needs (may be NULL). */
  void (*annotate_kernel)(LLVMModuleRef mod, LLVMValueRef kernel);
  /* Bodies for the builtins and the OpenCL C library; false with
   * diagnostics naming what is missing. */
  bool (*define_library)(LLVMModuleRef mod, const void *options, gac_diag *diag);
  /* After default<O3>, before code generation (may be NULL). */
  void (*after_optimize)(LLVMModuleRef mod, const void *options);
} gac_gpu_target;

/* Parses the bitcode, retargets it (triple, data layout, address spaces,
 * calling conventions, local-pointer kernel parameters as offsets into one
 * dynamic shared array), defines the library, runs default<O3> and emits
 * `kind` (assembly or an object file). *out is malloc'd, NUL-terminated. */
bool gac_gpu_from_bitcode(const gac_gpu_target *t, const void *options, const void *bitcode, size_t size,
                          LLVMCodeGenFileType kind, char **out, size_t *out_size, gac_diag *diag);

/* For fuzz_emit_bitcode (tests/fuzz): with skip true, gac_gpu_from_bitcode
 * stops before LLVM's O3 and code generator: the target's after_optimize
 * hook runs on the module gac's passes made, which must still verify
 * ([<rule>.internal] if not), and *out is that module as LLVM text.
 * Process-wide; false (the default) is the emission every caller gets. */
void gac_gpu_set_skip_llvm_codegen(bool skip);

/* SPIR 1.2 address spaces to the target's, in values and mangled names
 * (address_spaces.c); *mod is replaced. */
bool gac_gpu_retarget_address_spaces(LLVMModuleRef *mod, unsigned constant_as, gac_diag *diag);

/* Bodies for the OpenCL 1.x atomic functions the module declares, any
 * width and address space (atomics.c). */
void gac_gpu_define_atomics(LLVMModuleRef mod);

/* Volatile loads and stores of private variables whose address goes
 * nowhere else made plain (private_volatile.c says why); true if any was. */
bool gac_gpu_unvolatile_private(LLVMModuleRef mod);

/* Links the bitcode library at path into mod lazily: only the functions mod
 * calls are read (llvm_gpu.c). `what` names it in diagnostics. */
bool gac_gpu_link_library(LLVMModuleRef mod, const char *path, const char *what, const char *rule, gac_diag *diag);

/* For fuzz_emit_bitcode (tests/fuzz), which links a library for every
 * input: with on, gac_gpu_link_library keeps, per process, what it linked
 * for each library, target and set of the module's declarations, as
 * bitcode, and links that again for the next module with the same ones
 * instead of reading the library (10 MB for libclc's AMDGPU build).
 * Process-wide; off (the default) is what every other caller gets. */
void gac_gpu_set_library_cache(bool on);
/* How many links the cache served, and how many read the library. */
void gac_gpu_library_cache_stats(unsigned long *hits, unsigned long *misses);

/* Makes every function but the kernels internal and reports, naming it, a
 * function that is called but nothing defines (allowed: LLVM intrinsics and
 * the names in `external`, NULL-terminated). */
bool gac_gpu_resolve(LLVMModuleRef mod, LLVMCallConv kernel_cc, const char *const *external, const char *rule,
                     const char *target_name, gac_diag *diag);

/* The target machine for triple/cpu/features, its target initialised by
 * the caller; NULL with a diagnostic (rule "<rule>.target") naming it. */
LLVMTargetMachineRef gac_gpu_create_target_machine(const char *triple, const char *cpu, const char *features,
                                                   LLVMRelocMode reloc, const char *rule, const char *name,
                                                   gac_diag *diag);

/* An Itanium-mangled OpenCL builtin, "_Z3expDv4_f": its name ("exp",
 * into name of size n) and where its parameters' mangling starts (*params
 * may be NULL); false if not so mangled. */
bool gac_gpu_demangle(const char *mangled, char *name, size_t n, const char **params);

/* LLVM's process-wide options, set once (llvm_gpu.c). */
void gac_gpu_set_llvm_options(void);

#endif
