// The RFC's first example: B[0] = A[i] + 1 (stage 0, async: here a copy of
// A's tile) and C[i] = B[0] + 1 (stage 1). Expected (RFC): B gets 2
// versions; prologue: commit(0); body: commit(0), wait(0, 1), consumer;
// epilogue: wait(0, 0), consumer.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops=late-waits --validate %t.raised.spv -o %t.pipelined.spv 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: gac-opt --print %t.pipelined.spv | FileCheck %s
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.pipelined.spv -o %t.lowered.spv
// RUN: spirv-val --target-env opencl1.2 %t.lowered.spv
// The checker proves the counts, and finds a count of 2 where 1 is right.
// RUN: gac-opt --check-async %t.pipelined.spv -o /dev/null 2>&1 | FileCheck --check-prefix=PROVED %s
// RUN: gac-opt --print %t.pipelined.spv > %t.txt
// RUN: python3 %S/Inputs/set-wait-count.py %t.txt %t.wrong.txt 1 2
// RUN: gac-as %t.wrong.txt -o %t.wrong.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.wrong.spv -o /dev/null 2>&1 | FileCheck --check-prefix=VIOLATED %s
// PROVED: check-async: 2 proved, 0 violated, 0 cannot decide
// VIOLATED: error: {{.*}}violated{{.*}}AsyncWait %{{[0-9]+}} (queue 0, in flight 2) leaves it in flight
// REMARK: remark: {{.*}}pipelined the loop: 2 statements, stages 0..1, 2 versions of %{{[0-9]+}}; prologue 0: s0 commit(0); body: s0 commit(0) wait(0,1) s1; epilogue 0: wait(0,0) s1; with fewer iterations than stages, the prologue and epilogue skip those that do not exist [Pipeline.Schedule]
// CHECK-DAG: [[U32:%[0-9]+]] = OpTypeInt 32 0
// CHECK-DAG: [[ZERO:%[0-9]+]] = OpConstant [[U32]] 0
// CHECK-DAG: [[ONE:%[0-9]+]] = OpConstant [[U32]] 1
// CHECK-DAG: [[TWO:%[0-9]+]] = OpConstant [[U32]] 2
// CHECK-DAG: OpTypeArray %{{[0-9]+}} [[TWO]]
// Prologue, body, epilogue; the loop as written is gone (a loop shorter than
// the pipeline skips the epilogue instance of the iteration it lacks), and
// so is its synchronous wait.
// CHECK: AsyncCommit Queue=[[ZERO]]
// CHECK: OpPhi
// CHECK: AsyncCommit Queue=[[ZERO]]
// CHECK: AsyncWait Queue=[[ZERO]] InFlight=[[ONE]]
// CHECK: AsyncWait Queue=[[ZERO]] InFlight=[[ZERO]]
// CHECK-NOT: Async{{Commit|Wait}}
// CHECK-NOT: OpGroupWaitEvents
// CHECK-NOT: Pipeline
kernel void two_stages(global const float *A, global float *C, uint n) {
  local float B[16];
  for (uint i = 0; i < n; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(B, 0, A, i * 16, sizeof(float), 16, 1, 16, 16, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    C[i * 16 + get_local_id(0)] = B[get_local_id(0)] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
