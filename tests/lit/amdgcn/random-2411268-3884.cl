// Case 3884 of the random campaign of seed 2411268: per stage, 35 lines of
// 6 bytes and 4 of 96 bytes, one LDS-direct load each, by one wave; 4
// stages, so a wait leaves 3 groups of 39 loads in flight. The count, over
// 63, is not written vmcnt(63): the field's largest value leaves in flight
// all a wave can have, so gac-isa-check reads it as no wait (and the older
// group's loads as promised and not complete). It is vmcnt(62), one load
// more than needed, never less.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies --pipeline-loops %t.spv -o %t.piped.spv 2>/dev/null
// RUN: gac-opt --emit=amdgcn --mcpu=gfx942 %t.piped.spv -o %t.gfx942.s
// RUN: FileCheck --check-prefix=ASM %s < %t.gfx942.s
// ASM: s_waitcnt vmcnt(62)
// ASM-NOT: s_waitcnt vmcnt(63)
// RUN: gac-opt --emit=amdgcn --mcpu=gfx942 %t.piped.spv -o %t.gfx942.hsaco
// RUN: gac-isa-check --strict --mcpu=gfx942 %t.gfx942.hsaco | FileCheck %s
// CHECK: isa-check: 1 kernels; waits: 6 proved, 0 violated, 0 cannot decide; LDS reads: 8 proved, 0 violated, 0 cannot decide
kernel __attribute__((reqd_work_group_size(32, 1, 1))) void k3884(global const uchar *in0, global uchar *out0, int p2) {
  local uchar lt0[224] __attribute__((aligned(64)));
  local uchar lt1[384] __attribute__((aligned(64)));
  global const uchar *gin0 = in0 + get_group_id(0) * 1408UL;
  global uchar *gout0 = out0 + get_group_id(0) * 1280UL;
  for (uint t = 0; t < (uint)p2; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_3D3D(lt0, 0UL, gin0, 9UL + t * 246UL, 2UL, 3UL, 7UL, 5UL, 7UL, 50UL, 3UL, 21UL, 0);
    e = async_work_group_copy_2D2D(lt1, 0UL, gin0, 14UL + t * 15UL, 32UL, 3UL, 4UL, 4UL, 3UL, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(3, 2);
    for (uint i = get_local_id(0); i < 210u; i += get_local_size(0))
      gout0[t * 594u + 0u + i] = lt0[i];
    for (uint i = get_local_id(0); i < 384u; i += get_local_size(0))
      gout0[t * 594u + 210u + i] = lt1[i];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
