// The RFC's three stages with two async ones: stage 1 consumes queue 0 and
// produces queue 1. Here stage 0 copies an index, stage 1 reads it and
// copies the row it names (a gather), stage 2 computes on the row. Counts
// as in the RFC: wait(0, 1) before stage 1, wait(1, 1) before stage 2; in
// the epilogue wait(0, 0), then wait(1, 1) and wait(1, 0).
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops=no-prune,late-waits --validate %t.raised.spv -o %t.pipelined.spv 2>&1 | FileCheck %s
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.pipelined.spv -o %t.lowered.spv
// RUN: spirv-val --target-env opencl1.2 %t.lowered.spv
// CHECK: pipelined the loop: 3 statements, stages 0..2, 2 versions of %{{[0-9]+}}, 2 versions of %{{[0-9]+}};
// CHECK-SAME: prologue 0: s0 commit(0); prologue 1: s0 commit(0) wait(0,1) s1 commit(1);
// CHECK-SAME: body: s0 commit(0) wait(0,1) s1 commit(1) wait(1,1) s2;
// CHECK-SAME: epilogue 0: wait(0,0) s1 commit(1) wait(1,1) s2; epilogue 1: wait(1,0) s2;
kernel void gather(global const uint *idx, global const float *data, global float *out, uint n) {
  local uint index[1];
  local float row[16];
  for (uint i = 0; i < n; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0) | GAC_ASYNC_STAGE(1));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(index, 0, idx, i, sizeof(uint), 1, 1, 1, 1, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    e = async_work_group_copy_2D2D(row, 0, data, index[0] * 16, sizeof(float), 16, 1, 16, 16, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(2, 2);
    out[i * 16 + get_local_id(0)] = row[get_local_id(0)] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
