// Case 700 of the random campaign of seed 2411268: a 3D copy of 12-byte
// elements in stage 0, its wait, the reads in stage 2. Its waits are proved
// on both CPUs, which takes two things:
// - gac-isa-check follows only paths a wave takes: LLVM's structurizer
//   turns the prologue's `if (stage exists) copy + commit; else padded
//   empty commit` into two ifs joined by a flow block, whose uniform branch
//   on a phi of constants (s_mov_b64 s[a:a+1], 0 / -1; s_and_b64 vcc,
//   exec, ...) taken both ways would pass the copy's commit and then the
//   padded one. gac-isa-check knows those constants, and exec, and takes
//   one way (tools/isa_vmcnt.c).
// - On gfx90a, a copy whose waits count its LDS-direct loads takes a path
//   through registers when its addresses are not 4-aligned at run time; on
//   it a wave may issue no load at all, so the loads the waits count are
//   not there. That path ends in an unmarked s_waitcnt vmcnt(0)
//   (lower_amdgcn_copies.c).
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies --pipeline-loops %t.spv -o %t.piped.spv 2>/dev/null
// RUN: gac-opt --emit=amdgcn --mcpu=gfx90a %t.piped.spv -o %t.gfx90a.hsaco
// RUN: gac-isa-check --strict --mcpu=gfx90a %t.gfx90a.hsaco | FileCheck %s
// RUN: gac-opt --emit=amdgcn --mcpu=gfx942 %t.piped.spv -o %t.gfx942.hsaco
// RUN: gac-isa-check --strict --mcpu=gfx942 %t.gfx942.hsaco | FileCheck %s
// CHECK: isa-check: 1 kernels; waits: 3 proved, 0 violated, 0 cannot decide; LDS reads: 3 proved, 0 violated, 0 cannot decide
// The drain (inline assembly) is on gfx90a's paths through registers, the
// 2- and 1-byte units of each of the three copies; gfx942 has none, its
// narrow units are LDS-direct loads too:
// RUN: gac-opt --emit=amdgcn --mcpu=gfx90a %t.piped.spv -o %t.gfx90a.s
// RUN: FileCheck --check-prefix=DRAIN %s < %t.gfx90a.s
// RUN: gac-opt --emit=amdgcn --mcpu=gfx942 %t.piped.spv -o %t.gfx942.s
// RUN: FileCheck --check-prefix=NODRAIN %s < %t.gfx942.s
// DRAIN-COUNT-6: ;;#ASMSTART{{[[:space:]]+}}s_waitcnt vmcnt(0){{[[:space:]]+}};;#ASMEND
// DRAIN-NOT: ;;#ASMSTART{{[[:space:]]+}}s_waitcnt vmcnt(0){{[[:space:]]+}};;#ASMEND
// NODRAIN-NOT: ;;#ASMSTART{{[[:space:]]+}}s_waitcnt vmcnt(0){{[[:space:]]+}};;#ASMEND
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k700(global const uchar *in0, global uchar *out0, int p2) {
  local uchar lt0[1088] __attribute__((aligned(64)));
  global const uchar *gin0 = in0 + get_group_id(0) * 2304UL;
  global uchar *gout0 = out0 + get_group_id(0) * 2176UL;
  for (uint t = 0; t < (uint)p2; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_3D3D(lt0, 0UL, gin0, 1UL + t * 48UL, 12UL, 6UL, 3UL, 5UL, 9UL, 28UL, 6UL, 18UL, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(2, 2);
    for (uint i = get_local_id(0); i < 1080u; i += get_local_size(0))
      gout0[t * 1080u + 0u + i] = lt0[i];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
