/* The AMDGPU target of the shared LLVM step (lowering/llvm/llvm_gpu.h):
 * triple amdgcn-amd-amdhsa for gfx90a or gfx942, kernels as amdgpu_kernel
 * (LLVM writes the kernel descriptors and the code object's metadata:
 * kernarg size, group segment size; the dynamic LDS that local-pointer
 * parameters take is added by the host at dispatch, docs/AMDGCN.md),
 * constant memory as AMDGPU's constant space, private memory in space 5
 * (private.c), and the OpenCL C library from libclc's AMDGPU build
 * (work-item functions from the dispatch packet, math), with OpenCL 1.x
 * atomics of every width (atomics.c) and gac's LDS-direct loads, waits and
 * barriers (amdgcn_builtins.c). */
#include <string.h>

#include <llvm-c/Target.h>

#include "amdgcn_internal.h"
#include "llvm_gpu.h"

#ifndef GAC_LIBCLC_AMDGCN
#define GAC_LIBCLC_AMDGCN "/usr/lib/clc/amdgcn--amdhsa.bc"
#endif

#define TRIPLE "amdgcn-amd-amdhsa"

static LLVMTargetMachineRef target_machine(const void *options, gac_diag *diag) {
  const char *cpu = ((const gac_amdgcn_options *)options)->mcpu;
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTarget();
  LLVMInitializeAMDGPUTargetMC();
  LLVMInitializeAMDGPUAsmPrinter();
  LLVMInitializeAMDGPUAsmParser(); /* the inline assembly of amdgcn_builtins.c, in objects */
  return gac_gpu_create_target_machine(TRIPLE, cpu, "", LLVMRelocPIC, "amdgcn", "AMDGPU", diag);
}

/* OpenCL allows work-groups up to the device's maximum (1024 here); LLVM's
 * default for a kernel without the attribute is 256. */
static void annotate_kernel(LLVMModuleRef mod, LLVMValueRef f) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  const char *k = "amdgpu-flat-work-group-size", *v = "1,1024";
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(c, k, (unsigned)strlen(k), v, (unsigned)strlen(v)));
}

static void before_retarget(LLVMModuleRef mod) { gac_amdgcn_private_builtins(mod); }

static bool define_library(LLVMModuleRef mod, const void *options, gac_diag *diag) {
  const char *mcpu = ((const gac_amdgcn_options *)options)->mcpu;
  gac_amdgcn_private_allocas(mod);
  gac_gpu_define_atomics(mod);
  bool ok = gac_amdgcn_define_builtins(mod, mcpu, diag) && gac_gpu_link_library(mod, gac_gpu_path("GAC_LIBCLC_AMDGCN", GAC_LIBCLC_AMDGCN),
                                 "libclc's AMDGPU library", "amdgcn", diag);
  return ok && gac_gpu_resolve(mod, LLVMAMDGPUKERNELCallConv, NULL, "amdgcn", "AMDGCN", diag);
}

static const gac_gpu_target amdgpu = {
    .name = "AMDGPU",
    .rule = "amdgcn",
    .save_ir_env = "GAC_AMDGCN_SAVE_IR",
    .triple = TRIPLE,
    .constant_as = 4,
    .kernel_cc = LLVMAMDGPUKERNELCallConv,
    .target_machine = target_machine,
    .before_retarget = before_retarget,
    .annotate_kernel = annotate_kernel,
    .define_library = define_library,
};

bool gac_amdgcn_from_bitcode(const void *bitcode, size_t size, const gac_amdgcn_options *options, bool object,
                             char **out, size_t *out_size, gac_diag *diag) {
  return gac_gpu_from_bitcode(&amdgpu, options, bitcode, size, object ? LLVMObjectFile : LLVMAssemblyFile, out,
                              out_size, diag);
}
