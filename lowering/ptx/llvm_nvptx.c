/* The NVPTX target of the shared LLVM step (lowering/llvm/llvm_gpu.h):
 * triple nvptx64-nvidia-cuda (the CUDA driver's ABI) or nvptx64-nvidia-nvcl
 * (NVIDIA's OpenCL driver's: LLVM then marks kernel pointer parameters
 * .ptr .global/.shared with their alignment, and local-pointer parameters
 * stay pointers, which that driver fills in), kernels as ptx_kernel with
 * nvvm.annotations, constant memory in global memory, the builtins
 * (nvvm_builtins.c) and the OpenCL C library (opencl_library.c), and after
 * O3 cooperative tile loads as cp.async (async_tile_loads.c) and the removal
 * of redundant barriers (redundant_barriers.c). */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "llvm_gpu.h"
#include "ptx_internal.h"

#define TRIPLE_CUDA "nvptx64-nvidia-cuda"
#define TRIPLE_OPENCL "nvptx64-nvidia-nvcl"

static const char *triple(const gac_ptx_options *o) { return o->abi == GAC_PTX_ABI_OPENCL ? TRIPLE_OPENCL : TRIPLE_CUDA; }

static LLVMTargetMachineRef target_machine(const void *options, gac_diag *diag) {
  unsigned sm = ((const gac_ptx_options *)options)->sm;
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  /* PTX 7.8 runs on every driver that knows sm_80; bulk copies need 8.0. */
  return gac_gpu_create_target_machine(triple(options), sm == 90 ? "sm_90" : "sm_80", sm == 90 ? "+ptx80" : "+ptx78",
                                       LLVMRelocDefault, "ptx", "NVPTX", diag);
}

static void annotate(LLVMModuleRef mod, LLVMValueRef f, const char *key, unsigned value) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMMetadataRef md[3] = {LLVMValueAsMetadata(f), LLVMMDStringInContext2(c, key, strlen(key)),
                           LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), value, 0))};
  LLVMAddNamedMetadataOperand(mod, "nvvm.annotations", LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, md, 3)));
}

/* A kernel; with reqd_work_group_size(x, y, z) also .reqntid x, y, z: ptxas
 * then knows the block, and NVIDIA's OpenCL driver reports it as the
 * kernel's compile work-group size (and refuses other local sizes, as
 * OpenCL does). Not for a warp-specialised kernel, whose block is one
 * dimension of its __gac_block_threads_K threads. */
/* f's reqd_work_group_size (three constants), if it has one. */
static bool reqd_size(LLVMModuleRef mod, LLVMValueRef f, unsigned size[3]) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  unsigned kind = LLVMGetMDKindIDInContext(c, "reqd_work_group_size", 20);
  size_t num_md = 0;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(f, &num_md);
  bool found = false;
  for (unsigned i = 0; i < num_md && !found; i++) {
    LLVMValueRef node = LLVMMetadataAsValue(c, LLVMValueMetadataEntriesGetMetadata(md, i));
    LLVMValueRef v[3];
    if (LLVMValueMetadataEntriesGetKind(md, i) != kind || LLVMGetMDNodeNumOperands(node) != 3)
      continue;
    LLVMGetMDNodeOperands(node, v);
    found = true;
    for (unsigned d = 0; d < 3; d++) {
      found = found && v[d] && LLVMIsAConstantInt(v[d]);
      size[d] = found ? (unsigned)LLVMConstIntGetZExtValue(v[d]) : 0;
    }
  }
  if (md)
    LLVMDisposeValueMetadataEntries(md);
  return found;
}

static void annotate_kernel(LLVMModuleRef mod, LLVMValueRef f) {
  annotate(mod, f, "kernel", 1);
  size_t len;
  const char *name = LLVMGetValueName2(f, &len);
  char ws[256];
  snprintf(ws, sizeof ws, "%s%.*s", GAC_PTX_BLOCK_THREADS_PREFIX, (int)len, name);
  unsigned size[3];
  if (LLVMGetNamedGlobal(mod, ws) || !reqd_size(mod, f, size))
    return;
  annotate(mod, f, "reqntidx", size[0]);
  annotate(mod, f, "reqntidy", size[1]);
  annotate(mod, f, "reqntidz", size[2]);
}

static bool define_library(LLVMModuleRef mod, const void *options, gac_diag *diag) {
  const gac_ptx_options *o = options;
  return gac_ptx_define_builtins(mod, o->abi, diag) && gac_ptx_link_opencl_library(mod, o->fast_relaxed_math, diag);
}

static void after_optimize(LLVMModuleRef mod, const void *options) {
  const gac_ptx_options *o = options;
  if (!o->keep_tile_loads)
    gac_ptx_async_tile_loads(mod, o->cp_async_l1);
  gac_ptx_remove_redundant_barriers(mod);
}

#define NVPTX_TARGET(TRIPLE, IN_PLACE)                                                                            \
  {                                                                                                                \
    .name = "NVPTX", .rule = "ptx", .save_ir_env = "GAC_PTX_SAVE_IR", .triple = TRIPLE, .constant_as = 1,          \
    .kernel_cc = LLVMPTXKernelCallConv, .local_params_in_place = IN_PLACE, .target_machine = target_machine,       \
    .annotate_kernel = annotate_kernel, .define_library = define_library, .after_optimize = after_optimize,        \
  }

static const gac_gpu_target nvptx_cuda = NVPTX_TARGET(TRIPLE_CUDA, false);
static const gac_gpu_target nvptx_opencl = NVPTX_TARGET(TRIPLE_OPENCL, true);

/* NVIDIA's OpenCL driver writes a local argument's address as 64 bits
 * whatever the parameter says (a kernel with two `.param .u32 .ptr .shared`
 * fails to launch, CL_OUT_OF_RESOURCES, seen on an H200 with driver
 * 580.159.04), while gac's modules keep 32-bit shared addresses
 * (-nvptx-short-ptr, llvm_gpu.c), a process-wide choice of LLVM's. So the
 * declarations are widened in the text: the kernel still reads the low 32
 * bits, with the ld.param.u32 LLVM wrote (little-endian, and the driver's
 * shared addresses fit in 32 bits: its own kernels store through them with
 * st.shared). */
static void widen_shared_params(char *ptx) {
  static const char narrow[] = ".param .u32 .ptr .shared", wide[] = ".param .u64 .ptr .shared";
  for (char *at = strstr(ptx, narrow); at; at = strstr(at + sizeof narrow - 1, narrow))
    memcpy(at, wide, sizeof wide - 1); /* same length: the text keeps its size */
}

bool gac_ptx_from_bitcode(const void *bitcode, size_t size, const gac_ptx_options *options, char **ptx,
                          size_t *ptx_size, gac_diag *diag) {
  bool opencl = options->abi == GAC_PTX_ABI_OPENCL;
  bool ok = gac_gpu_from_bitcode(opencl ? &nvptx_opencl : &nvptx_cuda, options, bitcode, size, LLVMAssemblyFile, ptx,
                                 ptx_size, diag);
  if (ok && opencl)
    widen_shared_params(*ptx);
  return ok;
}
