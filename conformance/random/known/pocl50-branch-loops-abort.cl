/* PoCL 5.0 (Ubuntu's 5.0+debian, LLVM 16; the GPU machine's CPU device),
 * from its own front end, no gac: building this kernel aborts the process
 * in PoCL's work-group compiler, under its default work-group method and
 * under `loops`:
 *   ./lib/llvmopencl/Kernel.cc:129: pocl::ParallelRegion*
 *   pocl::Kernel::createParallelRegionBefore(llvm::BasicBlock*):
 *   Assertion `region_entry_barrier != NULL' failed.
 * The shape: in a loop with barriers, an if/else whose two arms are each a
 * work-item loop, before a barrier. Without the if/else (one work-item loop,
 * the else arm alone) it builds and runs; PoCL 3.1 runs both.
 * gac's copies have this shape: the cooperative and leader lowerings pick the
 * widest unit (16, 8, 4 or 1 bytes) the addresses allow at run time, a
 * branch to one loop per width, so every copy inside a loop with a barrier
 * (pipelined loops, queues, double buffers, fences in loops) meets it on
 * that PoCL (docs/results/POCL.md, "PoCL 5.0").
 * Reproduce: build and launch p5 with a local size of 64 and arguments
 * (a global buffer of 2048 floats, a local buffer of 4096 bytes, n = 5)
 * on PoCL 5.0's CPU device, e.g. with clCreateProgramWithSource,
 * clBuildProgram and clEnqueueNDRangeKernel (the abort comes at the
 * launch, when PoCL compiles the work-group function). */
kernel void p5(global float *o, local float *t, uint n) {
  float acc = 0;
  for (uint i = 0; i < n; i++) {
    global float *src = o + 1024 + i * 64;
    if ((((ulong)src | (ulong)t) & 15) == 0) {
      for (uint u = get_local_id(0); u < 16; u += get_local_size(0))
        ((local float4 *)t)[u] = ((global float4 *)src)[u];
    } else {
      for (uint u = get_local_id(0); u < 64; u += get_local_size(0))
        t[u] = src[u];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    acc += t[get_local_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  o[get_global_id(0)] = acc;
}
