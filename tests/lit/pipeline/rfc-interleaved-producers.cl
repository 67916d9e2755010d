// The RFC's interleaved producers: stages [0, 0, 3], order [0, 2, 1]: the
// consumer runs between the two copies of stage 0, which therefore commit
// separately; the count before it is 5 ((i + 3) - i for A and
// ((i - 1) + 3) - i for B, summed).
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops=late-waits --validate %t.raised.spv -o %t.pipelined.spv 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: gac-opt --print %t.pipelined.spv | FileCheck %s
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.pipelined.spv -o %t.lowered.spv
// RUN: spirv-val --target-env opencl1.2 %t.lowered.spv
// REMARK: body: s0 commit(0) wait(0,5) s2 s1 commit(0);
// CHECK-DAG: [[U32:%[0-9]+]] = OpTypeInt 32 0
// CHECK-DAG: [[ZERO:%[0-9]+]] = OpConstant [[U32]] 0
// CHECK-DAG: [[FIVE:%[0-9]+]] = OpConstant [[U32]] 5
// CHECK: OpPhi
// CHECK: AsyncCommit Queue=[[ZERO]]
// CHECK: AsyncWait Queue=[[ZERO]] InFlight=[[FIVE]]
// CHECK: AsyncCommit Queue=[[ZERO]]
kernel void interleaved(global const float *A, global const float *B, global float *C, uint n) {
  local float As[16], Bs[16];
  uint l = get_local_id(0);
  for (uint i = 0; i < n; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, i * 16, sizeof(float), 16, 1, 16, 16, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(0, 2);
    e = async_work_group_copy_2D2D(Bs, 0, B, i * 16, sizeof(float), 16, 1, 16, 16, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(3, 1);
    C[i * 16 + l] = As[l] * Bs[l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
