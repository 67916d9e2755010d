// The pipeliner says what its versions cost in local memory, and warns where
// the function's local arrays pass the 48 KiB of static shared memory a CUDA
// device launches: two 64 x 64 float tiles (32 KiB) in 3 versions are 96 KiB;
// two 32 x 32 tiles in 3 versions (24 KiB) fit.
// RUN: %clang-spir -DTS=64 -DSTAGES=3 %s -o %t.big.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.big.bc -o %t.big.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.big.spv -o %t.big.raised.spv
// RUN: gac-opt --pipeline-loops %t.big.raised.spv -o %t.big.out.spv 2>&1 | FileCheck --check-prefix=BIG %s
// RUN: %clang-spir -DTS=32 -DSTAGES=3 %s -o %t.small.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.small.bc -o %t.small.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.small.spv -o %t.small.raised.spv
// RUN: gac-opt --pipeline-loops %t.small.raised.spv -o %t.small.out.spv 2>&1 | FileCheck --check-prefix=SMALL %s
// BIG: remark: {{.*}}the loop's local arrays take 98304 bytes pipelined, 32768 as written; the function's, 98304 [Pipeline.LocalMemory]
// BIG: warning: {{.*}}the function's local arrays now take 98304 bytes, more than the 49152 a CUDA device gives static shared memory{{.*}}[Pipeline.LocalMemory]
// SMALL: remark: {{.*}}the loop's local arrays take 24576 bytes pipelined, 8192 as written; the function's, 24576 [Pipeline.LocalMemory]
// SMALL-NOT: warning
kernel void mm(global const float *A, global const float *B, global float *C, uint n) {
  local float As[TS * TS], Bs[TS * TS];
  uint lx = get_local_id(0), ly = get_local_id(1);
  float acc = 0;
  for (uint t = 0; t < n / TS; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, t * TS, sizeof(float), TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * TS * n, sizeof(float), TS, TS, n, TS, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(STAGES - 1, 1);
    for (uint k = 0; k < TS; k++)
      acc += As[ly * TS + k] * Bs[k * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[ly * n + lx] = acc;
}
