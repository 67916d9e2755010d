// A double-buffered SGEMM that waits on events (no queues): the prologue
// copies tile 0 of A and B into As[0], Bs[0]; iteration t waits for the
// event in `e`, prefetches tile t+1 into As[(t+1)&1] under `if (t + 1 <
// tiles)`, and reads As[t&1]. `e` is stored on several paths (prologue,
// prefetch), so no single store reaches the wait: the checker remembers,
// per copy, the variable that holds its event on every path where it is in
// flight. Proved. Without the wait: violated, in the first iteration of
// the tile loop (the prologue's tile 0 is read while in flight; the reads
// sit in the inner k loop, which keeps apart the outer loop's first and
// later iterations). Prefetching into the tile being read: cannot decide
// (the copy is under `if (t + 1 < tiles)`, so "on some paths only").
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies --validate %t.spv -o %t.raised.spv
// RUN: gac-opt --check-async=verbose %t.raised.spv 2>&1 | FileCheck --check-prefix=OK %s
// RUN: %clang-spir -DNO_WAIT %s -o %t.nowait.bc
// RUN: llvm-spirv-15 %t.nowait.bc -o %t.nowait.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.nowait.spv -o %t.nowait.raised.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.nowait.raised.spv 2>&1 | FileCheck --check-prefix=NOWAIT %s
// RUN: %clang-spir -DSAME_TILE %s -o %t.same.bc
// RUN: llvm-spirv-15 %t.same.bc -o %t.same.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.same.spv -o %t.same.raised.spv
// RUN: gac-opt --check-async %t.same.raised.spv 2>&1 | FileCheck --check-prefix=BAD %s
// OK: proved: OpLoad reads %sgemm_db.As[{{%[a-z.0-9]+}} mod 2]
// OK: proved: OpLoad reads %sgemm_db.Bs[{{%[a-z.0-9]+}} mod 2]
// OK: check-async: 2 proved, 0 violated, 0 cannot decide
// NOWAIT: violated: OpLoad reads %sgemm_db.As[{{%[a-z.0-9]+}} mod 2] while async copy into %sgemm_db.As[0] ({{%[a-z.0-9]+}}) is in flight: its group was not committed, and no OpGroupWaitEvents is known to cover it; path: {{.*}} (in a later iteration k, in the first iteration of the loop around it that copies) [CheckAsync.Violated]
// NOWAIT: check-async: 0 proved, 2 violated, 0 cannot decide
// BAD: cannot decide (it is in flight on some paths only): OpLoad reads %sgemm_db.As[{{.*}} mod 2] while async copy into %sgemm_db.As[{{.*}} mod 2]
// BAD: check-async: 0 proved, 0 violated, 2 cannot decide
#define TS 16
#ifdef SAME_TILE
#define NEXT(t) ((t) & 1)
#else
#define NEXT(t) (((t) + 1) & 1)
#endif
kernel void sgemm_db(global const float *A, global const float *B, global float *C, uint n) {
  local float As[2][TS * TS], Bs[2][TS * TS];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint gx = get_group_id(0) * TS, gy = get_group_id(1) * TS;
  uint tiles = n / TS;
  float acc = 0;
  event_t e = async_work_group_copy_2D2D(As[0], 0, A, gy * n, sizeof(float), TS, TS, n, TS, 0);
  e = async_work_group_copy_2D2D(Bs[0], 0, B, gx, sizeof(float), TS, TS, n, TS, e);
  for (uint t = 0; t < tiles; t++) {
#ifndef NO_WAIT
    wait_group_events(1, &e);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + 1 < tiles) {
      e = async_work_group_copy_2D2D(As[NEXT(t)], 0, A, gy * n + (t + 1) * TS, sizeof(float), TS, TS, n, TS, 0);
      e = async_work_group_copy_2D2D(Bs[NEXT(t)], 0, B, (t + 1) * TS * n + gx, sizeof(float), TS, TS, n, TS, e);
    }
    for (uint k = 0; k < TS; k++)
      acc += As[t & 1][ly * TS + k] * Bs[t & 1][k * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[(gy + ly) * n + gx + lx] = acc;
}
