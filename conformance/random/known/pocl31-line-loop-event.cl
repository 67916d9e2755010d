/* PoCL 3.1 (Debian 12's 3.1-3, LLVM 15), from its own front end, no gac:
 * launching this kernel with a local size of 1 aborts the process in
 * PoCL's work-group compiler under its default work-group method (and
 * under `repl` with any local size; `cbs` with a local size of 1):
 *   Could not find a dominating alternative variable.
 *   ### dumped CFG to broken.dot
 * `loops` and `loopvec` build and run it right.
 * The shape: after a barrier, a loop of async_work_group_copy calls chained
 * on one event (each copy takes the event the previous one returned, as the
 * spec allows), under a condition, then a wait on that event. Handing the
 * first copy's event to every later copy instead (the same event: a copy
 * given a non-null event returns it), so that no event is carried round the
 * loop, builds and runs under every method; so does the loop with no
 * barrier before it, or no loop.
 * This is how a 2D or 3D copy is written line by line (one
 * async_work_group_copy per line), and what gac's `lines` strategy made of
 * a copy: random campaigns on PoCL 3.1's default method lost 1-3% of
 * `lines` cases to this abort (seed 2612021: cases 61, 82, 91, ...;
 * docs/results/RANDOM.md). The OpenCL target now lowers lines for PoCL's
 * CPU device with the first line's event shared (LOWER_LINES_SHARED_EVENT,
 * lowering/common/lower_async_copies.c).
 * Reproduce: build k, launch it with one work-item in one group, arguments
 * a global buffer of 256 bytes, a local buffer of 64 bytes and p = 1
 * (clCreateProgramWithSource, clBuildProgram, clEnqueueNDRangeKernel: the
 * abort comes at the launch, when PoCL compiles the work-group function). */
kernel void k(global uchar *out, local uchar *lt, int p) {
  event_t e = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (p)
    for (ulong l = 0; l < 4; l++)
      e = async_work_group_copy(out + l * 16, lt + l * 12, 8, e);
  wait_group_events(1, &e);
}
