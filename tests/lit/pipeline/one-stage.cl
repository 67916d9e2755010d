// A loop whose statements are all in stage 0 has nothing to pipeline: the
// pass leaves it as written and drops its markers. It once found the same
// PipelineLoop again and again, and ran out of memory (fuzz_lower_gpu,
// regressions_lower_gpu/pipeline-one-stage-hang).
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops --validate %t.raised.spv -o %t.pipelined.spv 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: gac-opt --print %t.pipelined.spv | FileCheck %s
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.pipelined.spv -o %t.lowered.spv
// RUN: spirv-val --target-env opencl1.2 %t.lowered.spv
// REMARK: remark: {{.*}}pipelined the loop: 2 statements, stages 0..0; body: {{.*}} (one stage: nothing to do) [Pipeline.Schedule]
// CHECK: GroupAsyncCopy2D2D
// CHECK: OpGroupWaitEvents
// CHECK-NOT: Pipeline
kernel void one_stage(global const float *A, global float *C, uint n) {
  local float B[16];
  for (uint i = 0; i < n; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(B, 0, A, i * 16, sizeof(float), 16, 1, 16, 16, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(0, 1);
    C[i * 16 + get_local_id(0)] = B[get_local_id(0)] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
