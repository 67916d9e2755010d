/* PoCL 6.0 (built from source with LLVM 15.0.6, SPIR-V enabled, Release,
 * asserts off; CPU device "pthread", default work-group method), from its
 * own front end, no gac: launching this kernel kills the process with
 * SIGSEGV while PoCL compiles the work-group function:
 *   #0 pocl::WorkitemLoopsImpl::processFunction(llvm::Function&) ()
 *   #1 pocl::WorkitemLoopsImpl::runOnFunction(llvm::Function&) ()
 *   #2 pocl::WorkitemLoops::run(llvm::Function&, ...)
 *   ... runKernelCompilerPasses, pocl_llvm_run_pocl_passes,
 *   pocl_llvm_generate_workgroup_function_nowrite, llvm_codegen
 * POCL_WORK_GROUP_METHOD=cbs builds and runs it; PoCL 3.1 (Debian's,
 * asserts on) runs it. Ubuntu's PoCL 5.0 (asserts on) aborts on the
 * pipelined sgemm_fast below at what is likely the same fault,
 * WorkitemLoops.cc:1290 in addContextSaveRestore:
 *   Assertion "Cannot add context restore for a PHI node at the region
 *   entry!"
 * (this kernel itself was not run there).
 * The shape: a branch on a uniform value (n >= 2) whose arm ends with a
 * barrier, a value depending on the local id (the zero-extended index l)
 * computed in that arm before the barrier and again after the join, and a
 * branch depending on the local id before the uniform branch, so that the
 * index is not available on every path. clang -O2's GVN (PRE) then joins
 * the two computations with a phi at the block after the conditional
 * barrier:
 *   if.end13: %idxprom14.pre-phi = phi i64 [ %.pre, %if.end.if.end13_crit_edge ],
 *                                          [ %idxprom9, %if.then6 ]
 * whose incoming %idxprom9 is defined in the parallel region before the
 * barrier, a work-item variable that needs a context restore. Without the
 * first branch (the index then computed once in the entry block), or with
 * the barrier after the if rather than in it, it builds and runs.
 * It is not the PoCL 5.0 abort of pocl50-branch-loops-abort.cl (an if/else
 * of work-item loops before a barrier, in a loop): that kernel runs on this
 * PoCL 6.0.
 * gac meets it in bench/cuda/sgemm_fast.cl pipelined (--pipeline-loops):
 * clang's guard of the K loop (n / BK > 0) then encloses straight-line
 * barriers (prologue, steady-state loop, epilogue) and work-item copy loops,
 * with the column index tx * 4, hoisted into the guarded preheader, used
 * again after the guard through such a pre-phi (docs/results/POCL.md).
 * Reproduce: build and launch pre_phi with a global and a local size of 64
 * (one dimension) and arguments (a global buffer of 1024 floats, n = 2) on
 * PoCL 6.0's CPU device with clCreateProgramWithSource, clBuildProgram and
 * clEnqueueNDRangeKernel (the crash comes at the launch). */
kernel void pre_phi(global float *c, uint n) {
  local float t[2][64];
  uint l = get_local_id(0);
  if (l < 64)
    t[0][l] = c[l];
  if (n >= 2) {
    c[l] = t[n & 1][l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[64 + l] = t[0][l];
}
