// A double-buffered kernel that keeps its two events in `event_t ev[2]`:
// the prologue copies tile 0 into buf[0] (ev[0]), iteration t prefetches
// tile t+1 into buf[(t+1)&1] (ev[(t+1)&1]) and waits on ev[t&1] before
// reading buf[t&1]. The checker follows each copy's event to the element
// that holds it, by its index mod 2 (as it follows the tiles), so the
// right wait is proved, and the wrong one, on ev[(t+1)&1] (the prefetch
// just issued), is violated: in the first iteration tile 0 is read while
// in flight.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies --validate %t.spv -o %t.raised.spv
// RUN: gac-opt --check-async=verbose %t.raised.spv 2>&1 | FileCheck --check-prefix=OK %s
// RUN: %clang-spir -DWRONG_EVENT %s -o %t.wrong.bc
// RUN: llvm-spirv-15 %t.wrong.bc -o %t.wrong.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.wrong.spv -o %t.wrong.raised.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.wrong.raised.spv 2>&1 | FileCheck --check-prefix=WRONG %s
// OK: proved: OpLoad reads %dbuf.buf[{{%[a-z.0-9]+}} mod 2]
// OK: check-async: 1 proved, 0 violated, 0 cannot decide
// WRONG: violated: OpLoad reads %dbuf.buf[{{%[a-z.0-9]+}} mod 2] while async copy into %dbuf.buf[0] ({{%[a-z.0-9]+}}) is in flight{{.*}}(in the loop's first iteration) [CheckAsync.Violated]
// WRONG: check-async: 0 proved, 1 violated, 0 cannot decide
#ifdef WRONG_EVENT
#define WAITED(t) (((t) + 1) & 1)
#else
#define WAITED(t) ((t) & 1)
#endif
kernel void dbuf(global const float *in, global float *out, ulong tiles) {
  local float buf[2][64];
  size_t l = get_local_id(0), g = get_group_id(0);
  event_t ev[2];
  ev[0] = async_work_group_copy_2D2D(buf[0], 0, in, g * tiles * 64, 4, 64, 1, 64, 64, 0);
  for (ulong t = 0; t < tiles; t++) {
    if (t + 1 < tiles)
      ev[(t + 1) & 1] =
          async_work_group_copy_2D2D(buf[(t + 1) & 1], 0, in, (g * tiles + t + 1) * 64, 4, 64, 1, 64, 64, 0);
    wait_group_events(1, &ev[WAITED(t)]);
    out[(g * tiles + t) * 64 + l] = buf[t & 1][l] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
