// Pipeline.MemoryBound (#10): the pipeliner counts the floating-point
// operations of the loop's statements that are not async (inner loops by
// their constant trip counts) against the bytes the async ones copy, per
// iteration and work-group, and says when that is below 4 per byte: a
// memory-bound loop, like bench/cuda's stencil, which ran slower pipelined.
// CASE 1: 64 mads (128 flops) a work-item in an inner loop, 256 work-items,
// one tile of 16 lines of 256 floats (16384 bytes): 32768 flops, 2.0 per byte.
// CASE 2: one line of 256 floats (1024 bytes): 32.0 per byte: no remark.
// CASE 3: no reqd_work_group_size: the work-group's flops are not known.
// RUN: %clang-spir -DCASE=1 -DLINES=16 %s -o %t.1.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.1.bc -o %t.1.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.1.spv -o %t.1.raised.spv
// RUN: gac-opt --pipeline-loops %t.1.raised.spv -o %t.1.out.spv 2>&1 | FileCheck --check-prefix=LOW %s
// RUN: %clang-spir -DCASE=2 -DLINES=1 %s -o %t.2.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.2.bc -o %t.2.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.2.spv -o %t.2.raised.spv
// RUN: gac-opt --pipeline-loops %t.2.raised.spv -o %t.2.out.spv 2>&1 | FileCheck --check-prefix=HIGH %s
// RUN: %clang-spir -DCASE=3 -DLINES=16 %s -o %t.3.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.3.bc -o %t.3.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.3.spv -o %t.3.raised.spv
// RUN: gac-opt --pipeline-loops %t.3.raised.spv -o %t.3.out.spv 2>&1 | FileCheck --check-prefix=HIGH %s
// LOW: remark: {{.*}}the loop computes 2.0 floating-point operations per byte it copies (32768 and 16384 bytes an iteration, the whole work-group): memory-bound{{.*}}[Pipeline.MemoryBound]
// HIGH: [Pipeline.Schedule]
// HIGH-NOT: Pipeline.MemoryBound
#define TS 16
#if CASE == 3
#define REQD
#else
#define REQD __attribute__((reqd_work_group_size(TS, TS, 1)))
#endif
kernel REQD void f(global const float *A, global const float *x, global float *y, uint n) {
  local float As[LINES * 256];
  uint lx = get_local_id(0), ly = get_local_id(1);
  float acc = 0;
  for (uint t = 0; t < n; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, t * 256, sizeof(float), 256, LINES, 256, 256, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    for (uint k = 0; k < 64; k++)
      acc = mad(As[(ly % LINES) * 256 + k], x[k], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  y[ly * TS + lx] = acc;
}
