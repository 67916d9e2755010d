/* SPIR 1.2 bitcode (llvm-spirv-15 -r) to a GPU target with LLVM 19's C API
 * (llvm_gpu.h), as PoCL's CUDA backend retargets SPIR:
 *  - the target's triple and data layout;
 *  - address spaces renamed (address_spaces.c): SPIR global (1) and local
 *    (3) are the targets' global and shared/LDS; private (0) stays for
 *    allocas, generic (4) becomes generic (0), constant (2) what the target
 *    says;
 *  - spir_kernel -> the target's kernel convention, spir_func -> C;
 *  - local-pointer kernel parameters become u64 byte offsets into one
 *    dynamic shared array (CUDA and HIP have one per launch): the kernel
 *    becomes a wrapper that computes the pointers and calls the original
 *    body, which is inlined; unless the target's driver allocates local
 *    arguments itself (NVIDIA's OpenCL);
 *  - volatile accesses to private variables no one else can see made
 *    plain (private_volatile.c);
 *  - the target's builtins and OpenCL C library; then default<O3> and the
 *    target's code generator. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Support.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "gac/ptx.h"
#include <llvm-c/Transforms/PassBuilder.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>

#include "llvm_gpu.h"

#define LOCAL_ARRAY "__gac_local" /* the dynamic shared memory of a launch */

enum { SPIR_LOCAL = 3 };

static void llvm_error(gac_diag *diag, const char *rule, const char *what, char *message) {
  gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, rule, "%s: %s", what, message ? message : "(no message)");
  LLVMDisposeMessage(message);
}

static bool is_pointer_in(LLVMTypeRef t, unsigned as) {
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == as;
}

/* Kernel `body` with local-pointer parameters: a new kernel of its name
 * takes u64 offsets in their place and calls it with pointers into the
 * dynamic shared array. */
static LLVMValueRef wrap_local_params(LLVMModuleRef mod, LLVMValueRef body, LLVMValueRef local_array) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  unsigned n = LLVMCountParams(body);
  LLVMTypeRef *types = malloc((n + 1) * sizeof *types);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
  for (unsigned i = 0; i < n; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(body, i));
    types[i] = is_pointer_in(t, SPIR_LOCAL) ? i64 : t;
  }
  size_t len;
  char *name = strdup(LLVMGetValueName2(body, &len));
  char *body_name = malloc(len + 16);
  snprintf(body_name, len + 16, "%s.gac_body", name);
  LLVMSetValueName2(body, body_name, strlen(body_name));
  LLVMTypeRef body_type = LLVMGlobalGetValueType(body);
  LLVMValueRef kernel = LLVMAddFunction(mod, name, LLVMFunctionType(LLVMVoidTypeInContext(c), types, n, 0));
  /* The kernel's metadata (reqd_work_group_size, the argument info) goes
   * with it to the wrapper, which is the kernel now. */
  size_t num_md = 0;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(body, &num_md);
  for (unsigned i = 0; i < num_md; i++)
    LLVMGlobalSetMetadata(kernel, LLVMValueMetadataEntriesGetKind(md, i), LLVMValueMetadataEntriesGetMetadata(md, i));
  if (md)
    LLVMDisposeValueMetadataEntries(md);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, kernel, "entry"));
  LLVMValueRef *args = malloc((n + 1) * sizeof *args);
  for (unsigned i = 0; i < n; i++) {
    args[i] = LLVMGetParam(kernel, i);
    if (types[i] == i64 && is_pointer_in(LLVMTypeOf(LLVMGetParam(body, i)), SPIR_LOCAL))
      args[i] = LLVMBuildInBoundsGEP2(b, i8, local_array, &args[i], 1, "");
  }
  LLVMValueRef call = LLVMBuildCall2(b, body_type, body, args, n, "");
  LLVMSetInstructionCallConv(call, LLVMCCallConv);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  LLVMSetLinkage(body, LLVMInternalLinkage);
  unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
  LLVMRemoveEnumAttributeAtIndex(body, LLVMAttributeFunctionIndex, noinline);
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(body, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, always, 0));
  free(types);
  free(args);
  free(name);
  free(body_name);
  return kernel;
}

/* Local arrays at 16 bytes: copies into them may then take 16-byte
 * cp.async units wherever the rest allows (declared with their element's
 * alignment, an array of floats could start at any 4-byte boundary, and a
 * copy into it would take 4-byte units, with their bank conflicts). */
static void align_local_arrays(LLVMModuleRef mod) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g))
    if (is_pointer_in(LLVMTypeOf(g), SPIR_LOCAL) && LLVMGetAlignment(g) < 16)
      LLVMSetAlignment(g, 16);
}

/* Calling conventions, kernels and their local parameters. */
static void retarget_functions(const gac_gpu_target *t, LLVMModuleRef mod) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMValueRef local_array = NULL;
  unsigned num_kernels = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    num_kernels += LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
  LLVMValueRef *kernels = malloc((num_kernels + 1) * sizeof *kernels);
  unsigned k = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv)
      kernels[k++] = f;
    if (LLVMGetFunctionCallConv(f) == LLVMSPIRFUNCCallConv || LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv)
      LLVMSetFunctionCallConv(f, LLVMCCallConv);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsACallInst(i))
          LLVMSetInstructionCallConv(i, LLVMCCallConv);
  }
  for (unsigned i = 0; i < num_kernels; i++) {
    LLVMValueRef f = kernels[i];
    bool has_local = false;
    for (unsigned p = 0; p < LLVMCountParams(f); p++)
      has_local |= is_pointer_in(LLVMTypeOf(LLVMGetParam(f, p)), SPIR_LOCAL);
    if (has_local && !t->local_params_in_place) {
      if (!local_array) {
        LLVMTypeRef array = LLVMArrayType2(LLVMInt8TypeInContext(c), 0);
        local_array = LLVMAddGlobalInAddressSpace(mod, array, LOCAL_ARRAY, SPIR_LOCAL);
        LLVMSetLinkage(local_array, LLVMExternalLinkage);
        LLVMSetAlignment(local_array, 16);
      }
      f = wrap_local_params(mod, f, local_array);
    } else if (has_local) {
      /* The driver allocates each local argument with the alignment its
       * parameter declares (`.ptr .shared .align N`), which is the pointee's:
       * 1 for a uchar or packed-struct pointer, whose allocation NVIDIA's
       * driver then need not align, while the copies move 4-, 8- and
       * 16-byte units where the element size allows them (the CTS's
       * local_to_global2D faulted so). 16, as the CUDA ABI's offsets are. */
      unsigned align = LLVMGetEnumAttributeKindForName("align", 5);
      for (unsigned p = 0; p < LLVMCountParams(f); p++)
        if (is_pointer_in(LLVMTypeOf(LLVMGetParam(f, p)), SPIR_LOCAL)) {
          LLVMRemoveEnumAttributeAtIndex(f, p + 1, align);
          LLVMAddAttributeAtIndex(f, p + 1, LLVMCreateEnumAttribute(c, align, 16));
        }
    }
    LLVMSetFunctionCallConv(f, t->kernel_cc);
    if (t->annotate_kernel)
      t->annotate_kernel(mod, f);
  }
  free(kernels);
}

/* LLVM keeps these knobs as process-wide options, set once (as Mesa and
 * PoCL set theirs); measured on bench/cuda (docs/PTX.md, "Code quality"):
 *  - unroll-threshold: a 32-step inner product of a tiled SGEMM (about 30
 *    IR instructions a step) stays a loop at O3's 300; nvcc unrolls it.
 *    1000 unrolls it (and loops like it) as nvcc does.
 *  - enable-pre=false: GVN's scalar PRE, on the unrolled steps of a
 *    pipelined loop's "fewer iterations than stages" path, moved every
 *    multiply-add after every shared-memory load (254 registers for the
 *    whole kernel instead of 69, i.e. one block per SM).
 *  - instcombine-code-sinking=false: after full unrolling, each step of an
 *    inner product is a block of its own until SimplifyCFG merges them;
 *    InstCombine sank each multiply-add into the next block first, one at
 *    a time, interleaving the steps per accumulator (sgemm_fast: 166
 *    registers instead of 127, one block per SM instead of two).
 *  - nvptx-short-ptr: 32-bit shared (and local, constant) addresses, as
 *    nvcc makes them; 64-bit ones cost two registers and 64-bit adds for
 *    every tile address a loop keeps. */
static void set_llvm_options(void) {
  const char *argv[16] = {"gac", "-unroll-threshold=1000", "-enable-pre=false", "-nvptx-short-ptr",
                          "-instcombine-code-sinking=false"};
  int argc = 5;
  /* GAC_PTX_LLVM_OPTIONS: more, space-separated, for experiments. */
  static char copy[1024]; /* kept: LLVM may hold on to the strings it parsed */
  const char *extra = getenv("GAC_PTX_LLVM_OPTIONS");
  snprintf(copy, sizeof copy, "%s", extra ? extra : "");
  char *save = NULL;
  for (char *tok = strtok_r(copy, " ", &save); tok && argc < 16; tok = strtok_r(NULL, " ", &save))
    argv[argc++] = tok;
  LLVMParseCommandLineOptions(argc, argv, "gac: LLVM options for the GPU paths");
}

void gac_gpu_set_llvm_options(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, set_llvm_options);
}

LLVMTargetMachineRef gac_gpu_create_target_machine(const char *triple, const char *cpu, const char *features,
                                                   LLVMRelocMode reloc, const char *rule, const char *name,
                                                   gac_diag *diag) {
  LLVMTargetRef target;
  char *error = NULL, r[64];
  if (LLVMGetTargetFromTriple(triple, &target, &error)) {
    snprintf(r, sizeof r, "%s.target", rule);
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r, "LLVM has no %s target: %s", name,
                 error ? error : "(no message)");
    LLVMDisposeMessage(error);
    return NULL;
  }
  return LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelAggressive, reloc,
                                 LLVMCodeModelDefault);
}

bool gac_gpu_demangle(const char *mangled, char *name, size_t n, const char **params) {
  if (strncmp(mangled, "_Z", 2) != 0)
    return false;
  char *end;
  unsigned long len = strtoul(mangled + 2, &end, 10);
  if (end == mangled + 2 || len == 0 || len >= n || strlen(end) < len)
    return false;
  memcpy(name, end, len);
  name[len] = '\0';
  if (params)
    *params = end + len;
  return true;
}

static char *rule_name(const gac_gpu_target *t, const char *what, char *buf, size_t n) {
  snprintf(buf, n, "%s.%s", t->rule, what);
  return buf;
}

/* Links the library at path into mod lazily; r is the rule. */
static bool link_lazily(LLVMModuleRef mod, const char *path, const char *what, const char *r, gac_diag *diag) {
  LLVMMemoryBufferRef buffer;
  char *error = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buffer, &error)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r, "cannot read %s (%s): %s", what, path,
                 error ? error : "(no message)");
    LLVMDisposeMessage(error);
    return false;
  }
  LLVMModuleRef lib = NULL;
  if (LLVMGetBitcodeModuleInContext2(LLVMGetModuleContext(mod), buffer, &lib)) { /* takes the buffer */
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r, "%s (%s) is not LLVM 19 bitcode", what, path);
    return false;
  }
  /* External functions (libdevice's) as linkonce ones: the linker then
   * takes only those mod calls (a lazy module's bodies are not yet read). */
  for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f))
    if (LLVMGetLinkage(f) == LLVMExternalLinkage && !LLVMIsDeclaration(f))
      LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g))
    if (LLVMGetLinkage(g) == LLVMExternalLinkage && !LLVMIsDeclaration(g))
      LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
  LLVMSetTarget(lib, LLVMGetTarget(mod));
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(mod));
  if (LLVMLinkModules2(mod, lib)) { /* destroys lib */
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r, "linking %s (%s) failed", what, path);
    return false;
  }
  return true;
}

/* gac_gpu_set_library_cache: for each library, target and set of
 * declarations of the module that asked, what link_lazily took from the
 * library, as bitcode. A miss links the library lazily into an empty module
 * holding only those declarations (what decides what the linker takes) and
 * keeps that module; a hit reads it back and links it, which is what
 * link_lazily would have linked. When full, the cache starts again empty. */
typedef struct library_part {
  char *key;
  char *bitcode;
  size_t size;
} library_part;

enum { CACHE_MAX_PARTS = 4096 };
#define CACHE_MAX_BYTES ((size_t)512 << 20)

static struct {
  bool on;
  pthread_mutex_t lock;
  library_part parts[CACHE_MAX_PARTS];
  size_t count, bytes;
  unsigned long hits, misses;
} cache = {.lock = PTHREAD_MUTEX_INITIALIZER};

void gac_gpu_set_library_cache(bool on) { cache.on = on; }

void gac_gpu_library_cache_stats(unsigned long *hits, unsigned long *misses) {
  pthread_mutex_lock(&cache.lock);
  *hits = cache.hits;
  *misses = cache.misses;
  pthread_mutex_unlock(&cache.lock);
}

/* The library, mod's triple and data layout, and the names of mod's
 * declarations in order, one a line. */
static char *library_key(LLVMModuleRef mod, const char *path) {
  char *key = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&key, &size);
  if (!f)
    abort();
  fprintf(f, "%s\n%s\n%s\n", path, LLVMGetTarget(mod), LLVMGetDataLayoutStr(mod));
  for (LLVMValueRef v = LLVMGetFirstFunction(mod); v; v = LLVMGetNextFunction(v))
    if (LLVMIsDeclaration(v) && strncmp(LLVMGetValueName(v), "llvm.", 5) != 0)
      fprintf(f, "f %s\n", LLVMGetValueName(v));
  for (LLVMValueRef v = LLVMGetFirstGlobal(mod); v; v = LLVMGetNextGlobal(v))
    if (LLVMIsDeclaration(v))
      fprintf(f, "g %s\n", LLVMGetValueName(v));
  fclose(f);
  return key;
}

/* An empty module for mod's target with mod's declarations (as in the key). */
static LLVMModuleRef declarations_of(LLVMModuleRef mod) {
  LLVMModuleRef part = LLVMModuleCreateWithNameInContext("library", LLVMGetModuleContext(mod));
  LLVMSetTarget(part, LLVMGetTarget(mod));
  LLVMSetDataLayout(part, LLVMGetDataLayoutStr(mod));
  for (LLVMValueRef v = LLVMGetFirstFunction(mod); v; v = LLVMGetNextFunction(v))
    if (LLVMIsDeclaration(v) && strncmp(LLVMGetValueName(v), "llvm.", 5) != 0)
      LLVMAddFunction(part, LLVMGetValueName(v), LLVMGlobalGetValueType(v));
  for (LLVMValueRef v = LLVMGetFirstGlobal(mod); v; v = LLVMGetNextGlobal(v))
    if (LLVMIsDeclaration(v))
      LLVMAddGlobalInAddressSpace(part, LLVMGlobalGetValueType(v), LLVMGetValueName(v),
                                  LLVMGetPointerAddressSpace(LLVMTypeOf(v)));
  return part;
}

/* The cached part for key, copied, or NULL. */
static LLVMMemoryBufferRef find_part(const char *key) {
  LLVMMemoryBufferRef found = NULL;
  pthread_mutex_lock(&cache.lock);
  for (size_t i = 0; i < cache.count && !found; i++)
    if (strcmp(cache.parts[i].key, key) == 0)
      found = LLVMCreateMemoryBufferWithMemoryRangeCopy(cache.parts[i].bitcode, cache.parts[i].size, "library part");
  found ? cache.hits++ : cache.misses++;
  pthread_mutex_unlock(&cache.lock);
  return found;
}

/* Keeps a copy of bitcode under key (taken). */
static void keep_part(char *key, LLVMMemoryBufferRef bitcode) {
  size_t size = LLVMGetBufferSize(bitcode);
  library_part p = {key, malloc(size), size};
  if (!p.bitcode)
    abort();
  memcpy(p.bitcode, LLVMGetBufferStart(bitcode), size);
  pthread_mutex_lock(&cache.lock);
  if (cache.count == CACHE_MAX_PARTS || cache.bytes + size > CACHE_MAX_BYTES) {
    for (size_t i = 0; i < cache.count; i++) {
      free(cache.parts[i].key);
      free(cache.parts[i].bitcode);
    }
    cache.count = cache.bytes = 0;
  }
  cache.parts[cache.count++] = p;
  cache.bytes += size;
  pthread_mutex_unlock(&cache.lock);
}

static bool link_cached(LLVMModuleRef mod, const char *path, const char *what, const char *r, gac_diag *diag) {
  char *key = library_key(mod, path);
  LLVMMemoryBufferRef bitcode = find_part(key);
  if (bitcode) {
    free(key);
  } else {
    LLVMModuleRef part = declarations_of(mod);
    if (!link_lazily(part, path, what, r, diag)) {
      LLVMDisposeModule(part);
      free(key);
      return false;
    }
    bitcode = LLVMWriteBitcodeToMemoryBuffer(part);
    LLVMDisposeModule(part);
    keep_part(key, bitcode);
  }
  LLVMModuleRef lib = NULL;
  bool ok = !LLVMParseBitcodeInContext2(LLVMGetModuleContext(mod), bitcode, &lib);
  LLVMDisposeMemoryBuffer(bitcode);
  if (!ok || LLVMLinkModules2(mod, lib)) { /* destroys lib */
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r, "linking the part of %s (%s) kept in the cache failed",
                 what, path);
    return false;
  }
  return true;
}

bool gac_gpu_link_library(LLVMModuleRef mod, const char *path, const char *what, const char *rule, gac_diag *diag) {
  char r[64];
  snprintf(r, sizeof r, "%s.library", rule);
  return cache.on ? link_cached(mod, path, what, r, diag) : link_lazily(mod, path, what, r, diag);
}

static bool is_external(LLVMValueRef f, const char *const *external) {
  const char *name = LLVMGetValueName(f);
  if (strncmp(name, "llvm.", 5) == 0)
    return true;
  for (const char *const *e = external; e && *e; e++)
    if (strcmp(name, *e) == 0)
      return true;
  return false;
}

bool gac_gpu_resolve(LLVMModuleRef mod, LLVMCallConv kernel_cc, const char *const *external, const char *rule,
                     const char *target_name, gac_diag *diag) {
  bool ok = true;
  char r[64];
  snprintf(r, sizeof r, "%s.builtin", rule);
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) {
      if (!is_external(f, external) && LLVMGetFirstUse(f)) {
        gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r,
                     "the module calls %s, which the %s path does not provide (not an OpenCL C builtin that "
                     "its library defines, nor a function of the module)",
                     LLVMGetValueName(f), target_name);
        ok = false;
      }
    } else if (LLVMGetFunctionCallConv(f) != kernel_cc) {
      LLVMSetLinkage(f, LLVMInternalLinkage);
    }
  }
  /* Every global but what the host reads (a warp-specialised kernel's block). */
  for (LLVMValueRef g = LLVMGetFirstGlobal(mod); ok && g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) != LLVMInternalLinkage &&
        LLVMGetLinkage(g) != LLVMPrivateLinkage &&
        strncmp(LLVMGetValueName(g), GAC_PTX_BLOCK_THREADS_PREFIX, strlen(GAC_PTX_BLOCK_THREADS_PREFIX)) != 0)
      LLVMSetLinkage(g, LLVMInternalLinkage);
  return ok;
}

/* While the bitcode is read: LLVM's default handler exits the process on an
 * error (bitcode LLVM 19 cannot read); keep the first message instead. */
static void keep_error(LLVMDiagnosticInfoRef info, void *user) {
  char **message = user;
  if (LLVMGetDiagInfoSeverity(info) == LLVMDSError && !*message)
    *message = LLVMGetDiagInfoDescription(info);
}

static bool skip_llvm_codegen;

void gac_gpu_set_skip_llvm_codegen(bool skip) { skip_llvm_codegen = skip; }

bool gac_gpu_from_bitcode(const gac_gpu_target *t, const void *options, const void *bitcode, size_t size,
                          LLVMCodeGenFileType kind, char **out, size_t *out_size, gac_diag *diag) {
  *out = NULL;
  char r[64];
  gac_gpu_set_llvm_options();
  LLVMTargetMachineRef tm = t->target_machine(options, diag);
  if (!tm)
    return false;
  LLVMContextRef c = LLVMContextCreate();
  LLVMMemoryBufferRef in = LLVMCreateMemoryBufferWithMemoryRangeCopy(bitcode, size, "spir");
  LLVMModuleRef mod = NULL;
  char *read_error = NULL;
  LLVMContextSetDiagnosticHandler(c, keep_error, &read_error);
  bool ok = !LLVMParseBitcodeInContext2(c, in, &mod);
  LLVMContextSetDiagnosticHandler(c, NULL, NULL);
  LLVMDisposeMemoryBuffer(in);
  if (!ok)
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, rule_name(t, "bitcode", r, sizeof r),
                 "LLVM 19 cannot read llvm-spirv-15's bitcode: %s", read_error ? read_error : "(no message)");
  LLVMDisposeMessage(read_error);
  /* The reader does not verify: IR that reads but breaks LLVM's rules
   * (fuzz_emit_bitcode's inputs; never llvm-spirv-15's) would reach gac's
   * passes and LLVM's, which assume valid IR. Refused here, as a bitcode
   * error. */
  char *invalid = NULL;
  if (ok && LLVMVerifyModule(mod, LLVMReturnStatusAction, &invalid)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, rule_name(t, "bitcode", r, sizeof r),
                 "the bitcode is not a valid LLVM module: %s", invalid ? invalid : "(no message)");
    ok = false;
  }
  LLVMDisposeMessage(invalid);
  if (ok && t->before_retarget)
    t->before_retarget(mod);
  ok = ok && gac_gpu_retarget_address_spaces(&mod, t->constant_as, diag);
  if (ok) {
    LLVMSetTarget(mod, t->triple);
    LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
    char *text = LLVMCopyStringRepOfTargetData(layout);
    LLVMSetDataLayout(mod, text);
    LLVMDisposeMessage(text);
    LLVMDisposeTargetData(layout);
    retarget_functions(t, mod);
    align_local_arrays(mod);
    gac_gpu_unvolatile_private(mod);
    ok = t->define_library(mod, options, diag);
  }
  char *error = NULL;
  if (ok && LLVMVerifyModule(mod, LLVMReturnStatusAction, &error)) {
    llvm_error(diag, rule_name(t, "internal", r, sizeof r), "internal error: the retargeted LLVM module is invalid",
               error);
    ok = false;
  } else if (ok) {
    LLVMDisposeMessage(error);
  }
  /* For looking at what the optimiser gets: $GAC_<TARGET>_SAVE_IR=FILE
   * writes the retargeted module, before any pass, as LLVM text. */
  const char *save = getenv(t->save_ir_env);
  if (ok && save && *save && LLVMPrintModuleToFile(mod, save, &error)) {
    llvm_error(diag, rule_name(t, "save-ir", r, sizeof r), save, error);
    ok = false;
  }
  if (ok && skip_llvm_codegen) {
    /* gac_gpu_set_skip_llvm_codegen: gac's own last pass on the module as
     * it is, which must stay valid, and that module as text. */
    if (t->after_optimize)
      t->after_optimize(mod, options);
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &error)) {
      llvm_error(diag, rule_name(t, "internal", r, sizeof r),
                 "internal error: the LLVM module is invalid after gac's last pass", error);
      ok = false;
    } else {
      LLVMDisposeMessage(error);
      char *text = LLVMPrintModuleToString(mod);
      *out_size = strlen(text);
      *out = malloc(*out_size + 1);
      memcpy(*out, text, *out_size + 1);
      LLVMDisposeMessage(text);
    }
    LLVMDisposeModule(mod);
    LLVMContextDispose(c);
    LLVMDisposeTargetMachine(tm);
    return ok;
  }
  if (ok) {
    LLVMPassBuilderOptionsRef pass_options = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(mod, "default<O3>", tm, pass_options);
    LLVMDisposePassBuilderOptions(pass_options);
    if (!e && t->after_optimize)
      t->after_optimize(mod, options);
    if (e) {
      char *message = LLVMGetErrorMessage(e);
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, rule_name(t, "internal", r, sizeof r),
                   "LLVM's O3 pipeline failed: %s", message);
      LLVMDisposeErrorMessage(message);
      ok = false;
    }
  }
  LLVMMemoryBufferRef buffer = NULL;
  if (ok && LLVMTargetMachineEmitToMemoryBuffer(tm, mod, kind, &error, &buffer)) {
    char what[64];
    snprintf(what, sizeof what, "the %s backend failed", t->name);
    llvm_error(diag, rule_name(t, "codegen", r, sizeof r), what, error);
    ok = false;
  }
  if (ok) {
    *out_size = LLVMGetBufferSize(buffer);
    *out = malloc(*out_size + 1);
    memcpy(*out, LLVMGetBufferStart(buffer), *out_size);
    (*out)[*out_size] = '\0';
    LLVMDisposeMemoryBuffer(buffer);
  }
  if (mod)
    LLVMDisposeModule(mod);
  LLVMContextDispose(c);
  LLVMDisposeTargetMachine(tm);
  return ok;
}
