/* The PTX path (docs/PTX.md): a SPIR-V module with async copies and queues
 * to one PTX module for sm_80 (cp.async groups) or sm_90 (bulk copies on
 * mbarriers where they apply). */
#ifndef GAC_PTX_H
#define GAC_PTX_H

#include <stddef.h>

#include "gac/module.h"

/* The functions that --lower-async-copies=ptx imports and the emitter
 * defines with NVVM intrinsics (dst: a local uchar pointer, src: global). */
#define GAC_PTX_CP_ASYNC_PREFIX "__gac_cp_async_" /* + 4, 8 or 16: (dst, src) */
#define GAC_PTX_CP_ASYNC_16_L1 GAC_PTX_CP_ASYNC_PREFIX "16_l1" /* (dst, src): 16 bytes through L1 (.ca) */
#define GAC_PTX_COMMIT "__gac_cp_async_commit"     /* () */
#define GAC_PTX_WAIT "__gac_cp_async_wait"         /* (uint M), M a constant */
#define GAC_PTX_WAIT_ALL "__gac_cp_async_wait_all" /* () */
/* sm_90: mbarriers (a local ulong *), bulk copies, the proxy fence. */
#define GAC_PTX_MBAR_INIT "__gac_mbar_init"           /* (mbar): count 1 */
#define GAC_PTX_MBAR_INIT_FENCE "__gac_mbar_init_fence" /* () */
#define GAC_PTX_MBAR_EXPECT_TX "__gac_mbar_expect_tx" /* (mbar, uint bytes) */
#define GAC_PTX_MBAR_ARRIVE "__gac_mbar_arrive"       /* (mbar) */
#define GAC_PTX_MBAR_WAIT "__gac_mbar_wait"           /* (mbar, uint parity) */
#define GAC_PTX_BULK_LOAD "__gac_bulk_load"           /* (dst, src, uint bytes, mbar) */
#define GAC_PTX_BULK_STORE "__gac_bulk_store"         /* (global dst, local src, uint bytes) */
#define GAC_PTX_BULK_COMMIT "__gac_bulk_commit"       /* () */
#define GAC_PTX_BULK_WAIT "__gac_bulk_wait"           /* (): stores complete */
#define GAC_PTX_FENCE_PROXY_ASYNC "__gac_fence_proxy_async" /* () */
/* (): the same fence, before the barrier that precedes a bulk load
 * (lower_ptx_fence.c keeps the two only where a work-item's write of local
 * memory may precede the load's). */
#define GAC_PTX_FENCE_PROXY_ASYNC_LOAD "__gac_fence_proxy_async_load"
/* sm_90, warp-specialised loops (lower_ptx_warp_specialize.c). */
#define GAC_PTX_MBAR_INIT_COUNT "__gac_mbar_init_count"           /* (mbar, uint count) */
#define GAC_PTX_CP_ASYNC_MBAR_ARRIVE "__gac_cp_async_mbar_arrive" /* (mbar): arrives when the thread's cp.async land */
/* A warp-specialised kernel K exports `.global .u32 __gac_block_threads_K`:
 * launch it with one-dimensional blocks of that many threads. */
#define GAC_PTX_BLOCK_THREADS_PREFIX "__gac_block_threads_"
#define GAC_PTX_NAMED_BARRIER "__gac_named_barrier"               /* (uint id, uint threads): barrier.sync */
#define GAC_PTX_OPAQUE "__gac_opaque" /* (size x): x, through nothing LLVM can look into or move */

/* Whose launch the PTX serves (docs/VENDOR.md):
 * CUDA    the CUDA driver API (cuLaunchKernel): local-pointer parameters are
 *         byte offsets into one dynamic shared array, work-item builtins
 *         from the special registers, no global offset;
 * OPENCL  NVIDIA's OpenCL driver (clCreateProgramWithBinary and
 *         clEnqueueNDRangeKernel): its compiler's ABI, i.e. the nvcl triple
 *         (kernel parameters marked .ptr .global/.shared with their
 *         alignment; the driver allocates each local argument and passes
 *         its address), and the launch's global offset, group offset, group
 *         count and work dimension read from %envreg0..9. */
typedef enum gac_ptx_abi { GAC_PTX_ABI_CUDA, GAC_PTX_ABI_OPENCL } gac_ptx_abi;

typedef struct gac_ptx_options {
  unsigned sm;            /* 80 or 90 */
  const char *llvm_spirv; /* the llvm-spirv-15 to run; NULL: $GAC_LLVM_SPIRV or "llvm-spirv-15" */
  bool fast_relaxed_math; /* -cl-fast-relaxed-math: libdevice's fast math, denormals flushed */
  bool warp_specialize;   /* sm_90: annotated loops become a producer warp and consumers
                             (--pipeline-loops=warp-specialize, before the lowering) */
  gac_ptx_abi abi;        /* CUDA (the default) or NVIDIA's OpenCL */
  bool tune_occupancy;    /* --ptx-occupancy: .maxnreg where ptxas says it gains a block per
                             multiprocessor without spilling (gac_ptx_tune_occupancy) */
  bool cp_async_l1;       /* --ptx-cp-async-l1: 16-byte cp.async units fill L1 (.ca) rather than
                             bypass it (.cg, the default); where each wins:
                             docs/results/VENDOR.md#the-same-ptx-through-both-drivers-cg-and-ca */
  bool keep_tile_loads;   /* --ptx-keep-tile-loads: global-to-local loads and stores before a
                             barrier stay as written rather than become cp.async (docs/PTX.md) */
} gac_ptx_options;

/* What the PTX target asks of --pipeline-loops before it (gac/pipeline.h),
 * added to o: the pipelined body's copies in 16-byte elements where aligned
 * (one cp.async unit path, docs/PTX.md), and the 48 KiB of static shared
 * memory a CUDA kernel may take, past which the pipeliner warns. */
struct gac_pipeline_loops_options;
void gac_ptx_pipeline_wants(const gac_ptx_options *options, struct gac_pipeline_loops_options *o);

/* Validates m, lowers its copies and queues for PTX (m is changed), bridges
 * it to LLVM and emits PTX with LLVM's NVPTX backend. On success *ptx is a
 * NUL-terminated malloc'd module of *size bytes; on failure false, with
 * diagnostics that name the instruction or function and the rule. */
bool gac_emit_ptx(gac_module *m, const gac_ptx_options *options, char **ptx, size_t *size, gac_diag *diag);

/* Occupancy cliffs (lowering/ptx/ptx_occupancy.c): each entry of ptx with
 * a fixed block size (.reqntid) whose register count alone keeps a block
 * more off a multiprocessor gets .maxnreg at the next block count's limit
 * where ptxas ($GAC_PTXAS, $CUDA_HOME/bin, /usr/local/cuda/bin, PATH) then
 * spills nothing; a remark says what was done for each. Without ptxas the
 * module stays as it is (a remark). *ptx may be replaced (malloc'd). */
bool gac_ptx_tune_occupancy(char **ptx, size_t *size, unsigned sm, gac_diag *diag);

#endif
