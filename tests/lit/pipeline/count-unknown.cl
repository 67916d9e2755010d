// A producer that copies (and so commits) only under a condition: how many
// groups are in flight is not known, so its consumers wait for everything,
// wait(0, 0), and a remark says why (the RFC's predicated producer).
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops=late-waits --validate %t.raised.spv -o %t.pipelined.spv 2>&1 | FileCheck %s
// RUN: gac-opt --check-async %t.pipelined.spv -o /dev/null 2>&1 | FileCheck --check-prefix=CHECKED %s
// CHECK: remark: {{.*}}statement 0 waits under a condition, so how many groups it commits is not known: waits on queue 0 use count 0 [Pipeline.CountUnknown]
// CHECK: body: s0 commit(0) wait(0,0) s1;
// CHECKED: 0 violated
kernel void predicated(global const float *A, global float *C, global const int *take, uint n) {
  local float B[16];
  for (uint i = 0; i < n; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    if (take[i]) {
      event_t e = async_work_group_copy_2D2D(B, 0, A, i * 16, sizeof(float), 16, 1, 16, 16, 0);
      wait_group_events(1, &e);
    }
    gac_pipeline_stage(1, 1);
    C[i * 32 + get_local_id(0)] = B[get_local_id(0)] + 1; /* not i * 16: clang would merge it with the copy's into a phi */
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
