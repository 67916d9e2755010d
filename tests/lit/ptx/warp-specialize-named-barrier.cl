// sm_90, warp-specialised: the consumers' barriers are named barriers over
// the consumer threads, written barrier.sync (not bar.sync, which is
// barrier.sync.aligned: every lane of a warp at the same instruction). With
// one consumer warp, LLVM once tail-duplicated the barrier after the
// read-out loop (rotated: lanes < 20 store) into both sides of the branch,
// and the aligned form hung on an H200 (random case 2411264/207, cut down).
// The barrier is now the convergent llvm.nvvm.barrier.sync.cnt, and stays
// where the kernel put it.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --emit=ptx --sm=90,warp-specialize %t.raised.spv -o %t.ptx 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck --check-prefix=ALIGNED %s < %t.ptx
// REMARK: [Pipeline.WarpSpecialized]
// CHECK: .visible .global .align 4 .u32 __gac_block_threads_k207 = 64;
// CHECK: bar.sync 0;
// CHECK: barrier.sync 1, 32;
// CHECK: barrier.sync 1, 32;
// ALIGNED-NOT: bar.sync {{[1-9]|%r}}
kernel __attribute__((reqd_work_group_size(32, 1, 1))) void k207(global const uchar *in0, global uchar *out0, int n) {
  local uchar lt0[32] __attribute__((aligned(64)));
  local uchar lt1[32] __attribute__((aligned(64)));
  global const uchar *gin0 = in0 + get_group_id(0) * 128UL;
  global uchar *gout0 = out0 + get_group_id(0) * 128UL;
  for (uint t = 0; t < (uint)n; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_3D3D(lt0, 0UL, gin0, 10UL + t * 26UL, 1UL, 5UL, 2UL, 2UL, 6UL, 13UL, 5UL, 10UL, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    for (uint i = get_local_id(0); i < 32u; i += get_local_size(0))
      lt1[i] = (uchar)(lt0[i] + 224u);
    barrier(CLK_LOCAL_MEM_FENCE);
    gac_pipeline_stage(2, 2);
    for (uint i = get_local_id(0); i < 20u; i += get_local_size(0))
      gout0[t * 20u + i] = lt1[i];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
