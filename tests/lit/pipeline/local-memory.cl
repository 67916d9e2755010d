// The pipeliner says what its versions cost in local memory, and warns where
// the function's local arrays pass what the target says a work-group may
// take (gac_ptx_pipeline_wants, gac_amdgcn_pipeline_wants): the 48 KiB of
// static shared memory a CUDA device launches, the 64 KiB of LDS of an AMD
// GPU (where LLVM's AMDGPU backend then refuses the kernel). Two 64 x 64
// float tiles (32 KiB) in 3 versions are 96 KiB, past both;
// two 32 x 32 tiles in 3 versions (24 KiB) fit. With no target (plain
// --pipeline-loops, or the OpenCL lowering) there is no limit to pass.
// RUN: %clang-spir -DTS=64 -DSTAGES=3 %s -o %t.big.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.big.bc -o %t.big.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.big.spv -o %t.big.raised.spv
// RUN: gac-opt --pipeline-loops %t.big.raised.spv -o %t.big.out.spv 2>&1 | FileCheck --check-prefix=BIG %s
// RUN: gac-opt --pipeline-loops --emit=ptx --sm=80 %t.big.raised.spv -o %t.big.ptx 2>&1 | FileCheck --check-prefix=PTX %s
// RUN: %expect-exit 1 gac-opt --pipeline-loops --emit=amdgcn %t.big.raised.spv -o %t.big.s 2> %t.amdgcn.err
// RUN: FileCheck --check-prefix=AMDGCN %s < %t.amdgcn.err
// RUN: gac-cc -DTS=64 -DSTAGES=3 --pipeline-loops --emit=ptx %s -o %t.cc.ptx 2>&1 | FileCheck --check-prefix=PTX %s
// RUN: gac-cc -DTS=64 -DSTAGES=3 --pipeline-loops --emit=lowered %s -o %t.cc.spv 2>&1 | FileCheck --check-prefix=BIG %s
// RUN: %clang-spir -DTS=32 -DSTAGES=3 %s -o %t.small.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.small.bc -o %t.small.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.small.spv -o %t.small.raised.spv
// RUN: gac-opt --pipeline-loops --emit=ptx --sm=80 %t.small.raised.spv -o %t.small.ptx 2>&1 | FileCheck --check-prefix=SMALL %s
// BIG: remark: {{.*}}the loop's local arrays take 98304 bytes pipelined, 32768 as written; the function's, 98304 [Pipeline.LocalMemory]
// BIG-NOT: warning
// PTX: remark: {{.*}}the loop's local arrays take 98304 bytes pipelined, 32768 as written; the function's, 98304 [Pipeline.LocalMemory]
// PTX: warning: {{.*}}the function's local arrays now take 98304 bytes, more than the 49152 a CUDA device gives static shared memory: its PTX cannot be launched (fewer stages or smaller tiles fit) [Pipeline.LocalMemory]
// AMDGCN: warning: {{.*}}the function's local arrays now take 98304 bytes, more than the 65536 an AMD GPU gives a work-group's LDS: its code object cannot be launched (fewer stages or smaller tiles fit) [Pipeline.LocalMemory]
// AMDGCN: error: {{.*}}local memory (98304) exceeds limit (65536)
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
