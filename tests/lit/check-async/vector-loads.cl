// Reads of a copied tile through the OpenCL.std vector loads and stores
// (vload4, vstore4) are reads and writes like OpLoad and OpStore: the
// checker judges them, and the pipeliner counts them as the statement's
// uses of the tile, as bench/cuda/sgemm_fast.cl reads its tiles. Were
// vloadn taken for pure math, --pipeline-loops would keep one copy of the
// tiles and no wait in the body (stage 1 reading tiles still being copied),
// and --check-async would say nothing of the reads.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies --validate %t.spv -o %t.raised.spv
// RUN: gac-opt --check-async=verbose %t.raised.spv 2>&1 | FileCheck --check-prefix=OK %s
// RUN: %clang-spir -DEARLY %s -o %t.early.bc
// RUN: llvm-spirv-15 %t.early.bc -o %t.early.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.early.spv -o %t.early.raised.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.early.raised.spv 2>&1 | FileCheck --check-prefix=EARLY %s
// RUN: %clang-spir -DPIPELINED %s -o %t.piped.bc
// RUN: llvm-spirv-15 %t.piped.bc -o %t.piped.spv
// RUN: gac-opt --sort-blocks --raise-async-copies --pipeline-loops %t.piped.spv -o %t.piped.out.spv 2>&1 | FileCheck --check-prefix=PIPE %s
// RUN: gac-opt --check-async=strict %t.piped.out.spv 2>&1 | FileCheck --check-prefix=PIPED %s
// OK: proved: the OpenCL.std instruction reads %vec.tile
// OK: proved: the OpenCL.std instruction writes %vec.tile
// OK: check-async: 2 proved, 0 violated, 0 cannot decide
// EARLY: violated: the OpenCL.std instruction reads %vec.tile{{.*}} while async copy into %vec.tile {{.*}}is in flight
// PIPE: pipelined the loop: 2 statements, stages 0..2, 3 versions of {{%[0-9a-z_.]+}}; {{.*}} body: wait(0,1) s0 commit(0) s1;
// PIPED: check-async: {{[1-9][0-9]*}} proved, 0 violated, 0 cannot decide
kernel __attribute__((reqd_work_group_size(16, 1, 1))) void vec(global const float *in, global float *out,
                                                                  uint tiles) {
  local float tile[64];
  uint l = get_local_id(0), g = get_group_id(0);
  for (uint t = 0; t < tiles; t++) {
#ifdef PIPELINED
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
#endif
    event_t e = async_work_group_copy_2D2D(tile, 0, in, (g * tiles + t) * 64, 4, 64, 1, 64, 64, 0);
#ifdef EARLY
    float4 early = vload4(l, tile);
#endif
    wait_group_events(1, &e);
#ifdef PIPELINED
    gac_pipeline_stage(2, 1);
#endif
    float4 v = vload4(0, tile + 4 * l); /* offset 0: the pointer says where (a nonzero offset leaves the version unknown) */
#ifdef EARLY
    v += early;
#endif
    vstore4(v * 2.0f, 0, out + ((g * tiles + t) * 16 + l) * 4);
#ifndef PIPELINED
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore4(v, l, tile); /* a write after the barrier, no copy in flight */
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
