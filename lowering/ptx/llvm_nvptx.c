/* The NVPTX target of the shared LLVM step (lowering/llvm/llvm_gpu.h):
 * triple nvptx64-nvidia-cuda, kernels as ptx_kernel with nvvm.annotations,
 * constant memory in global memory, the builtins (nvvm_builtins.c) and the
 * OpenCL C library (opencl_library.c), and after O3 the removal of
 * redundant barriers (redundant_barriers.c). */
#include <string.h>

#include <llvm-c/Target.h>

#include "llvm_gpu.h"
#include "ptx_internal.h"

#define TRIPLE "nvptx64-nvidia-cuda"

static LLVMTargetMachineRef target_machine(const void *options, gac_diag *diag) {
  unsigned sm = ((const gac_ptx_options *)options)->sm;
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  /* PTX 7.8 runs on every driver that knows sm_80; bulk copies need 8.0. */
  return gac_gpu_create_target_machine(TRIPLE, sm == 90 ? "sm_90" : "sm_80", sm == 90 ? "+ptx80" : "+ptx78",
                                       LLVMRelocDefault, "ptx", "NVPTX", diag);
}

static void annotate_kernel(LLVMModuleRef mod, LLVMValueRef f) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMMetadataRef md[3] = {LLVMValueAsMetadata(f), LLVMMDStringInContext2(c, "kernel", 6),
                           LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), 1, 0))};
  LLVMAddNamedMetadataOperand(mod, "nvvm.annotations", LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, md, 3)));
}

static bool define_library(LLVMModuleRef mod, const void *options, gac_diag *diag) {
  bool fast = ((const gac_ptx_options *)options)->fast_relaxed_math;
  return gac_ptx_define_builtins(mod, diag) && gac_ptx_link_opencl_library(mod, fast, diag);
}

static void after_optimize(LLVMModuleRef mod) { gac_ptx_remove_redundant_barriers(mod); }

static const gac_gpu_target nvptx = {
    .name = "NVPTX",
    .rule = "ptx",
    .save_ir_env = "GAC_PTX_SAVE_IR",
    .triple = TRIPLE,
    .constant_as = 1,
    .kernel_cc = LLVMPTXKernelCallConv,
    .target_machine = target_machine,
    .annotate_kernel = annotate_kernel,
    .define_library = define_library,
    .after_optimize = after_optimize,
};

bool gac_ptx_from_bitcode(const void *bitcode, size_t size, const gac_ptx_options *options, char **ptx,
                          size_t *ptx_size, gac_diag *diag) {
  return gac_gpu_from_bitcode(&nvptx, options, bitcode, size, LLVMAssemblyFile, ptx, ptx_size, diag);
}
