// A ring of tile slots addressed by a runtime DestinationOffset (not by an
// array index): the checker cannot tell which slot a copy fills, so a read
// of another slot while copies are in flight is "cannot decide", never
// "violated" (it was, before: a false alarm on bench/cuda/tile_copy.cl).
// With the slot a constant and the wrong count, it is violated.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --check-async %t.raised.spv 2>&1 | FileCheck %s
// RUN: %clang-spir -DWRONG %s -o %t.wrong.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.wrong.bc -o %t.wrong.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.wrong.spv -o %t.wrong.raised.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.wrong.raised.spv 2>&1 | FileCheck --check-prefix=WRONG %s
// CHECK: cannot decide (the copy addresses the buffer at the run-time element offset {{%[a-z0-9.]+}}, and run-time parts of one flat buffer are not related (an array of tiles, buf[2][N], would be))
// CHECK-NOT: violated
// CHECK: check-async: {{[0-9]+}} proved, 0 violated, {{[1-9][0-9]*}} cannot decide
// WRONG: error: {{.*}}violated
#define N 64
kernel void ring(global const float *in, global float *out, ulong count, local float *slots) {
  for (ulong i = 0; i < count; i++) {
#ifdef WRONG
    gac_async_commit(0, async_work_group_copy_2D2D(slots, 0, in, i * N, sizeof(float), N, 1, N, N, 0));
    gac_async_wait(0, 1);
    out[i * N + get_local_id(0)] = slots[get_local_id(0)];
#else
    gac_async_commit(0, async_work_group_copy_2D2D(slots, ((i + 1) % 2) * N, in, (i + 1) * N, sizeof(float), N, 1,
                                                   N, N, 0));
    gac_async_wait(0, 1);
    out[i * N + get_local_id(0)] = slots[(i % 2) * N + get_local_id(0)];
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  gac_async_wait(0, 0);
}
