// Code quality of the PTX path on a tiled SGEMM step (docs/PTX.md, "Code
// quality"): the pipeline markers of a loop that is not pipelined are
// dropped, not turned into barriers (they once gave two extra bar.sync per
// step); the 32-step inner product is unrolled (LLVM's O3 threshold left it
// a loop of 4 fma); the step keeps its two barriers: the wait's and the
// kernel's own; and the two copies, aligned, issue their 16-byte units from
// one block (no branch between them).
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: grep -c 'fma.rn.f32' %t.ptx | FileCheck --check-prefix=FMA %s
// RUN: grep -c 'bar.sync' %t.ptx | FileCheck --check-prefix=BAR %s
// RUN: FileCheck --check-prefix=PAIR %s < %t.ptx
// PAIR: cp.async.cg.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 16;
// PAIR-NOT: bra
// PAIR-NOT: {{^\$L}}
// PAIR: cp.async.cg.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 16;
// CHECK-LABEL: .entry step(
// CHECK: cp.async.wait_all;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK-COUNT-128: fma.rn.f32
// CHECK: bar.sync 0;
// FMA: {{^}}128{{$}}
// BAR: {{^}}2{{$}}
#define TS 32
kernel __attribute__((reqd_work_group_size(32, 8, 1))) void step(global const float *A, global const float *B,
                                                                  global float *C, uint n) {
  local float As[TS * TS], Bs[TS * TS];
  uint lx = get_local_id(0), ly = get_local_id(1);
  float acc[4] = {0, 0, 0, 0};
  for (uint t = 0; t < n / TS; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, t * TS, sizeof(float), TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * TS * n, sizeof(float), TS, TS, n, TS, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    for (uint k = 0; k < TS; k++)
      for (uint r = 0; r < 4; r++)
        acc[r] += As[(ly + 8 * r) * TS + k] * Bs[k * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint r = 0; r < 4; r++)
    C[(ly + 8 * r) * n + lx] = acc[r];
}
