/* SPIR 1.2 bitcode (llvm-spirv-15 -r) to PTX with LLVM 19's C API, as
 * PoCL's CUDA backend retargets SPIR:
 *  - triple nvptx64-nvidia-cuda and the NVPTX data layout;
 *  - address spaces renamed (address_spaces.c): SPIR global (1) and local
 *    (3) are NVPTX global and shared; private (0) stays for allocas (NVPTX
 *    lowers them); constant (2) becomes global, generic (4) generic (0);
 *  - spir_kernel -> ptx_kernel plus nvvm.annotations "kernel", spir_func -> C;
 *  - local-pointer kernel parameters become u64 byte offsets into one
 *    dynamic shared array (CUDA has no per-argument shared allocations): the
 *    kernel becomes a wrapper that computes the pointers and calls the
 *    original body, which is inlined;
 *  - builtins from nvvm_builtins.c, the OpenCL C library from libdevice and
 *    libclc (opencl_library.c); then default<O3>, the removal of
 *    redundant barriers (redundant_barriers.c) and the NVPTX printer. */
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
#include <llvm-c/Transforms/PassBuilder.h>

#include "ptx_internal.h"

#define TRIPLE "nvptx64-nvidia-cuda"
#define LOCAL_ARRAY "__gac_local" /* the dynamic shared memory of a launch */

enum { SPIR_LOCAL = 3 };

static void llvm_error(gac_diag *diag, const char *rule, const char *what, char *message) {
  gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, rule, "%s: %s", what, message ? message : "(no message)");
  LLVMDisposeMessage(message);
}

static bool is_pointer_in(LLVMTypeRef t, unsigned as) {
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == as;
}

static void annotate_kernel(LLVMModuleRef mod, LLVMValueRef f) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMMetadataRef md[3] = {LLVMValueAsMetadata(f), LLVMMDStringInContext2(c, "kernel", 6),
                           LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), 1, 0))};
  LLVMAddNamedMetadataOperand(mod, "nvvm.annotations", LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, md, 3)));
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
static void retarget_functions(LLVMModuleRef mod) {
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
    if (has_local) {
      if (!local_array) {
        LLVMTypeRef array = LLVMArrayType2(LLVMInt8TypeInContext(c), 0);
        local_array = LLVMAddGlobalInAddressSpace(mod, array, LOCAL_ARRAY, SPIR_LOCAL);
        LLVMSetLinkage(local_array, LLVMExternalLinkage);
        LLVMSetAlignment(local_array, 16);
      }
      f = wrap_local_params(mod, f, local_array);
    }
    LLVMSetFunctionCallConv(f, LLVMPTXKernelCallConv);
    annotate_kernel(mod, f);
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
 *  - nvptx-short-ptr: 32-bit shared (and local, constant) addresses, as
 *    nvcc makes them; 64-bit ones cost two registers and 64-bit adds for
 *    every tile address a loop keeps. */
static void set_llvm_options(void) {
  const char *argv[16] = {"gac", "-unroll-threshold=1000", "-enable-pre=false", "-nvptx-short-ptr"};
  int argc = 4;
  /* GAC_PTX_LLVM_OPTIONS: more, space-separated, for experiments. */
  static char copy[1024]; /* kept: LLVM may hold on to the strings it parsed */
  const char *extra = getenv("GAC_PTX_LLVM_OPTIONS");
  snprintf(copy, sizeof copy, "%s", extra ? extra : "");
  char *save = NULL;
  for (char *tok = strtok_r(copy, " ", &save); tok && argc < 16; tok = strtok_r(NULL, " ", &save))
    argv[argc++] = tok;
  LLVMParseCommandLineOptions(argc, argv, "gac: LLVM options for the PTX path");
}

static LLVMTargetMachineRef target_machine(unsigned sm, gac_diag *diag) {
  static pthread_once_t options_once = PTHREAD_ONCE_INIT;
  pthread_once(&options_once, set_llvm_options);
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  LLVMTargetRef target;
  char *error = NULL;
  if (LLVMGetTargetFromTriple(TRIPLE, &target, &error)) {
    llvm_error(diag, "ptx.target", "LLVM has no NVPTX target", error);
    return NULL;
  }
  /* PTX 7.8 runs on every driver that knows sm_80; bulk copies need 8.0. */
  return LLVMCreateTargetMachine(target, TRIPLE, sm == 90 ? "sm_90" : "sm_80", sm == 90 ? "+ptx80" : "+ptx78",
                                 LLVMCodeGenLevelAggressive, LLVMRelocDefault, LLVMCodeModelDefault);
}

bool gac_ptx_from_bitcode(const void *bitcode, size_t size, const gac_ptx_options *options, char **ptx,
                          size_t *ptx_size, gac_diag *diag) {
  *ptx = NULL;
  LLVMTargetMachineRef tm = target_machine(options->sm, diag);
  if (!tm)
    return false;
  LLVMContextRef c = LLVMContextCreate();
  LLVMMemoryBufferRef in = LLVMCreateMemoryBufferWithMemoryRangeCopy(bitcode, size, "spir");
  LLVMModuleRef mod = NULL;
  bool ok = !LLVMParseBitcodeInContext2(c, in, &mod);
  LLVMDisposeMemoryBuffer(in);
  if (!ok)
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.bitcode", "LLVM 19 cannot read llvm-spirv-15's bitcode");
  ok = ok && gac_ptx_retarget_address_spaces(&mod, diag);
  if (ok) {
    LLVMSetTarget(mod, TRIPLE);
    LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
    char *text = LLVMCopyStringRepOfTargetData(layout);
    LLVMSetDataLayout(mod, text);
    LLVMDisposeMessage(text);
    LLVMDisposeTargetData(layout);
    retarget_functions(mod);
    align_local_arrays(mod);
    ok = gac_ptx_define_builtins(mod, diag) && gac_ptx_link_opencl_library(mod, options->fast_relaxed_math, diag);
  }
  char *error = NULL;
  if (ok && LLVMVerifyModule(mod, LLVMReturnStatusAction, &error)) {
    llvm_error(diag, "ptx.internal", "internal error: the retargeted LLVM module is invalid", error);
    ok = false;
  } else if (ok) {
    LLVMDisposeMessage(error);
  }
  /* For looking at what the optimiser gets: GAC_PTX_SAVE_IR=FILE writes the
   * retargeted module, before any pass, as LLVM text. */
  const char *save = getenv("GAC_PTX_SAVE_IR");
  if (ok && save && *save && LLVMPrintModuleToFile(mod, save, &error)) {
    llvm_error(diag, "ptx.save-ir", save, error);
    ok = false;
  }
  if (ok) {
    LLVMPassBuilderOptionsRef pass_options = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(mod, "default<O3>", tm, pass_options);
    LLVMDisposePassBuilderOptions(pass_options);
    if (!e)
      gac_ptx_remove_redundant_barriers(mod);
    if (e) {
      char *message = LLVMGetErrorMessage(e);
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.internal", "LLVM's O3 pipeline failed: %s", message);
      LLVMDisposeErrorMessage(message);
      ok = false;
    }
  }
  LLVMMemoryBufferRef out = NULL;
  if (ok && LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &error, &out)) {
    llvm_error(diag, "ptx.codegen", "the NVPTX backend failed", error);
    ok = false;
  }
  if (ok) {
    *ptx_size = LLVMGetBufferSize(out);
    *ptx = malloc(*ptx_size + 1);
    memcpy(*ptx, LLVMGetBufferStart(out), *ptx_size);
    (*ptx)[*ptx_size] = '\0';
    LLVMDisposeMemoryBuffer(out);
  }
  if (mod)
    LLVMDisposeModule(mod);
  LLVMContextDispose(c);
  LLVMDisposeTargetMachine(tm);
  return ok;
}
