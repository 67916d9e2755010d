// A double-buffered SGEMM written the common way (issue #43): one flat
// __local float As[2 * TS * AL] (and Bs), the halves at run-time element
// offsets cur * TS * AL and nxt * TS * AL, cur = t & 1, nxt = cur ^ 1 (clang
// writes them (t << 8) & 256 and that ^ 256). Each iteration waits for the
// current half's 2D copies, prefetches the next half, and multiplies from
// the current one. The checker relates the parts of one flat buffer that are
// affine in the same run-time value: the prefetch writes bytes
// ((t + 1) mod 2) * 1024 + 0 to 1023, the read touches (t mod 2) * 1024 + 0
// to 1023 (the local ids are below the fixed work-group size), which never
// meet: proved, also with the tiles' lines padded (AL = TS + 1, the copy
// leaving gaps). Its wrong-wait twins: waiting on B's copy's event where A's
// is due (WRONG_EVENT), and not waiting at all (NO_WAIT), are violated: in
// the tile loop's first iteration the prologue's copy of half 0 is read
// while in flight. Without reqd_work_group_size a local id may take the read
// into the other half: cannot decide, naming get_local_id.
// RUN: gac-cc %s -o %t.spv
// RUN: gac-opt --check-async=verbose %t.spv 2>&1 | FileCheck --check-prefix=OK %s
// RUN: gac-cc -DPAD %s -o %t.pad.spv
// RUN: gac-opt --check-async %t.pad.spv 2>&1 | FileCheck --check-prefix=PAD %s
// RUN: gac-cc -DWRONG_EVENT %s -o %t.wrong.spv
// RUN: %expect-exit 1 gac-opt --check-async=verbose %t.wrong.spv 2>&1 | FileCheck --check-prefix=WRONG %s
// RUN: gac-cc -DNO_WAIT %s -o %t.nowait.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.nowait.spv 2>&1 | FileCheck --check-prefix=NOWAIT %s
// RUN: gac-cc -DNO_REQD %s -o %t.noreqd.spv
// RUN: gac-opt --check-async %t.noreqd.spv 2>&1 | FileCheck --check-prefix=NOREQD %s
// OK: proved: OpLoad reads %sgemm_flat.As after every async copy into it is covered by a wait
// OK: proved: OpLoad reads %sgemm_flat.Bs after every async copy into it is covered by a wait
// OK: check-async: 2 proved, 0 violated, 0 cannot decide
// PAD: check-async: 2 proved, 0 violated, 0 cannot decide
// WRONG: violated: OpLoad reads %sgemm_flat.As while async copy into %sgemm_flat.As ({{%[a-z.0-9]+}}) is in flight: {{.*}} (in a later iteration k, in the first iteration of the loop around it that copies) [CheckAsync.Violated]
// WRONG: proved: OpLoad reads %sgemm_flat.Bs
// WRONG: check-async: 1 proved, 1 violated, 0 cannot decide
// NOWAIT: violated: OpLoad reads %sgemm_flat.As while async copy into %sgemm_flat.As
// NOWAIT: violated: OpLoad reads %sgemm_flat.Bs while async copy into %sgemm_flat.Bs
// NOWAIT: check-async: 0 proved, 2 violated, 0 cannot decide
// NOREQD: cannot decide (the access's bytes depend on get_local_id(1), and the kernel fixes no work-group size (reqd_work_group_size) that would bound them: the copy's bytes ((%t.{{[0-9]+}} - 1) mod 2) * 1024 + 0 to 1023, the access's bytes {{.*}}): OpLoad reads %sgemm_flat.As
// NOREQD: cannot decide (the access's bytes depend on get_local_id(0), {{.*}}): OpLoad reads %sgemm_flat.Bs
// NOREQD: check-async: 0 proved, 0 violated, 2 cannot decide
#define TS 16
#ifdef PAD
#define AL (TS + 1)
#else
#define AL TS
#endif
#ifdef WRONG_EVENT
#define WAIT_A eb
#else
#define WAIT_A ea
#endif
#ifndef NO_REQD
__attribute__((reqd_work_group_size(TS, TS, 1)))
#endif
kernel void sgemm_flat(global const float *A, global const float *B, global float *C, uint n) {
  local float As[2 * TS * AL], Bs[2 * TS * AL];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint gx = get_group_id(0) * TS, gy = get_group_id(1) * TS;
  uint tiles = n / TS;
  float acc = 0;
  event_t ea = async_work_group_copy_2D2D(As, 0, A, gy * n, sizeof(float), TS, TS, n, AL, 0);
  event_t eb = async_work_group_copy_2D2D(Bs, 0, B, gx, sizeof(float), TS, TS, n, AL, 0);
  for (uint t = 0; t < tiles; t++) {
    uint cur = t & 1, nxt = cur ^ 1;
#ifndef NO_WAIT
    wait_group_events(1, &WAIT_A);
    wait_group_events(1, &eb);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + 1 < tiles) {
      ea = async_work_group_copy_2D2D(As, nxt * TS * AL, A, gy * n + (t + 1) * TS, sizeof(float), TS, TS, n, AL, 0);
      eb = async_work_group_copy_2D2D(Bs, nxt * TS * AL, B, (t + 1) * TS * n + gx, sizeof(float), TS, TS, n, AL, 0);
    }
    for (uint k = 0; k < TS; k++)
      acc += As[cur * TS * AL + ly * AL + k] * Bs[cur * TS * AL + k * AL + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[(gy + ly) * n + gx + lx] = acc;
}
