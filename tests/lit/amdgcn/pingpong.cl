// --emit=amdgcn,pingpong (docs/AMDGCN.md, "Ping-pong"): a matrix product
// pipelined in STAGES stages by 512 work-items (8 waves): 32 x 32 float
// tiles of A and B, 4 LDS-direct loads per wave per tile. Before the loop
// every load is drained and the work-group meets; then waves 4-7 (wave id
// >= 4) wait at one more s_barrier, so that they run a cluster behind
// waves 0-3; after the loop waves 0-3 wait at one more. The compute
// cluster runs at s_setprio 1 between s_sched_barrier fences, and the wait
// covers one group more than it names (4 stages: vmcnt(8), one step in
// flight, where the loop without ping-pong waits vmcnt(16)); its marker
// still names what the reads need (__gac_w0_2), and gac-isa-check proves
// the waits and reads with the halves a barrier apart.
// RUN: gac-cc -DSTAGES=4 --pipeline-loops --emit=amdgcn,pingpong --mcpu=gfx942 %s -o %t.s 2> %t.remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t.remarks
// RUN: FileCheck --check-prefix=ASM %s < %t.s
// REMARK: remark: matmul512: the loop at %{{[0-9]+}} is ping-ponged: waves 4-7 run a cluster behind waves 0-3, the compute cluster at s_setprio 1, and its wait covers one group more [AMDGCN.PingPong]
// REMARK: remark: stencil512: the loop at %{{[0-9]+}} is not ping-ponged: the loop writes local memory other than by its async copies: with the halves a cluster apart, a store and a read one barrier later would race [AMDGCN.PingPong]
// ASM-LABEL: matmul512:
// ASM: __gac_pp_{{[0-9]+}}:
// ASM-NEXT: s_waitcnt vmcnt(0) lgkmcnt(0)
// ASM-NEXT: s_barrier
// ASM-NEXT: s_cmp_lt_u32 s{{[0-9]+}}, 4
// ASM-NEXT: s_cbranch_scc1 1f
// ASM-NEXT: s_barrier
// ASM: __gac_w0_2_{{[0-9]+}}:
// ASM-NEXT: s_waitcnt vmcnt(8)
// ASM: s_barrier
// ASM: global_load_lds_dword
// ASM: __gac_c0_{{[0-9]+}}:
// ASM: s_setprio 1
// ASM: ds_read
// ASM: s_setprio 0
// ASM: ;;#ASMSTART
// ASM-NEXT: s_waitcnt lgkmcnt(0)
// ASM-NEXT: s_barrier
// ASM: __gac_ppx_{{[0-9]+}}:
// ASM-NEXT: s_cmp_ge_u32 s{{[0-9]+}}, 4
// ASM-NEXT: s_cbranch_scc1 1f
// ASM-NEXT: s_barrier
// ASM-LABEL: stencil512:
// ASM-NOT: s_setprio
// ASM-NOT: __gac_pp_
//
// Without ping-pong the same loop waits vmcnt(16).
// RUN: gac-cc -DSTAGES=4 --pipeline-loops --emit=amdgcn --mcpu=gfx942 %s -o %t.plain.s 2>/dev/null
// RUN: FileCheck --check-prefix=PLAIN %s < %t.plain.s
// PLAIN-LABEL: matmul512:
// PLAIN-NOT: s_setprio
// PLAIN: __gac_w0_2_{{[0-9]+}}:
// PLAIN-NEXT: s_waitcnt vmcnt(16)
//
// The s_sched_barrier fences are LLVM's llvm.amdgcn.sched.barrier(0) (a
// scheduling directive, no instruction): two calls, around the compute
// cluster, in the module LLVM optimises.
// RUN: env GAC_AMDGCN_SAVE_IR=%t.ll gac-cc -DSTAGES=4 --pipeline-loops --emit=amdgcn,pingpong --mcpu=gfx942 %s -o %t.s 2>/dev/null
// RUN: FileCheck --check-prefix=IR %s < %t.ll
// IR: call void @llvm.amdgcn.sched.barrier(i32 0)
// IR-COUNT-2: call void @__gac_amdgcn_sched_barrier()
//
// gac-isa-check proves every wait and read, for both CPUs and 3 and 4
// stages (publishing takes two barriers between the markers __gac_pp and
// __gac_ppx).
// RUN: gac-cc -DSTAGES=4 --pipeline-loops --emit=amdgcn,pingpong --mcpu=gfx942 %s -o %t.4.gfx942.hsaco 2>/dev/null
// RUN: gac-isa-check --strict %t.4.gfx942.hsaco | FileCheck --check-prefix=PROVED %s
// RUN: gac-cc -DSTAGES=4 --pipeline-loops --emit=amdgcn,pingpong --mcpu=gfx90a %s -o %t.4.gfx90a.hsaco 2>/dev/null
// RUN: gac-isa-check --strict %t.4.gfx90a.hsaco | FileCheck --check-prefix=PROVED %s
// RUN: gac-cc -DSTAGES=3 --pipeline-loops --emit=amdgcn,pingpong --mcpu=gfx942 %s -o %t.3.gfx942.hsaco 2>/dev/null
// RUN: gac-isa-check --strict %t.3.gfx942.hsaco | FileCheck --check-prefix=PROVED %s
// RUN: gac-cc -DSTAGES=3 --pipeline-loops --emit=amdgcn,pingpong --mcpu=gfx90a %s -o %t.3.gfx90a.hsaco 2>/dev/null
// RUN: gac-isa-check --strict %t.3.gfx90a.hsaco | FileCheck --check-prefix=PROVED %s
// PROVED: isa-check: 2 kernels; waits: {{[0-9]+}} proved, 0 violated, 0 cannot decide; LDS reads: {{[0-9]+}} proved, 0 violated, 0 cannot decide
//
// The body's wait put back to the count without ping-pong (vmcnt(16)):
// with the halves a barrier apart, a tile completed in the step that reads
// it is published by one barrier only: the reads are violated (complete,
// and published on no path).
// RUN: awk '/__gac_w0_2_/ && !done { print; getline; sub(/vmcnt\(8\)/, "vmcnt(16)"); done = 1 } { print }' %t.s > %t.lax.s
// RUN: llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.lax.s -o %t.lax.o
// RUN: %expect-exit 1 gac-isa-check --strict %t.lax.o | FileCheck --check-prefix=LAX %s
// LAX: error: matmul512+0x{{[0-9a-f]+}}: violated: ds_read{{.*}} no barrier has published it on any path (in a ping-pong loop: two) [IsaCheck.Read]
// LAX: LDS reads: {{[0-9]+}} proved, {{[1-9][0-9]*}} violated, 0 cannot decide
//
// Where the conditions do not hold, a remark says why and nothing changes:
// 2 stages (the wait leaves no group in flight), and the conformance
// kernels (no reqd_work_group_size; 256 work-items).
// RUN: gac-cc -DSTAGES=2 --pipeline-loops --emit=amdgcn,pingpong --mcpu=gfx942 %s -o %t.2.s 2>&1 | FileCheck --check-prefix=TWO %s
// TWO: remark: matmul512: the loop at %{{[0-9]+}} is not ping-ponged: its wait leaves no group in flight (2 stages): with the halves a cluster apart a tile must be complete a step before it is read, which needs a group to spare (3 stages or more) [AMDGCN.PingPong]
// RUN: gac-cc -DSTAGES=3 --pipeline-loops --emit=amdgcn,pingpong --mcpu=gfx90a %S/../../../conformance/kernels/pipelined.cl -o %t.c.s 2>&1 | FileCheck --check-prefix=NOREQD %s
// NOREQD: remark: matmul: the loop at %{{[0-9]+}} is not ping-ponged: the kernel has no reqd_work_group_size: ping-pong needs 8 waves (512 work-items) in two halves [AMDGCN.PingPong]
// RUN: gac-cc -DSTAGES=3 -DGAC_REQD_WG --pipeline-loops --emit=amdgcn,pingpong --mcpu=gfx942 %S/../../../conformance/kernels/pipelined.cl -o %t.c.s 2>&1 | FileCheck --check-prefix=SMALL %s
// SMALL: remark: matmul: the loop at %{{[0-9]+}} is not ping-ponged: its work-group has 256 work-items, not 512: ping-pong needs 8 waves in two halves [AMDGCN.PingPong]
// RUN: not grep -q s_setprio %t.c.s

#ifndef STAGES
#define STAGES 3
#endif
#define TS 32

kernel __attribute__((reqd_work_group_size(TS, 16, 1))) void matmul512(global const float *A, global const float *B,
                                                                       global float *C, uint n) {
  local float As[TS * TS], Bs[TS * TS];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint gx = get_group_id(0) * TS, gy = get_group_id(1) * TS;
  float acc0 = 0, acc1 = 0;
  for (uint t = 0; t < n / TS; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, gy * n + t * TS, sizeof(float), TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * TS * n + gx, sizeof(float), TS, TS, n, TS, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(STAGES - 1, 1);
    for (uint k = 0; k < TS; k++) {
      acc0 += As[ly * TS + k] * Bs[k * TS + lx];
      acc1 += As[(ly + 16) * TS + k] * Bs[k * TS + lx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[(gy + ly) * n + gx + lx] = acc0;
  C[(gy + ly + 16) * n + gx + lx] = acc1;
}

// A loop that also stores to local memory (rows) is left alone.
kernel __attribute__((reqd_work_group_size(TS, 16, 1))) void stencil512(global const float *in, global float *out,
                                                                        uint n, uint count) {
  local float tile[(TS + 2) * TS], rows[TS * 16];
  uint lx = get_local_id(0), ly = get_local_id(1);
  for (uint i = 0; i < count; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(tile, 0, in, (get_group_id(0) * count + i) * TS * (n + 2), sizeof(float),
                                           TS + 2, TS, n + 2, TS + 2, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(STAGES - 1, 1);
    rows[ly * TS + lx] = tile[ly * (TS + 2) + lx] + tile[ly * (TS + 2) + lx + 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(get_group_id(0) * count + i) * TS * 16 + ly * TS + lx] = rows[ly * TS + (lx + 1) % TS];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
