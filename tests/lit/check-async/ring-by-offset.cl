// A ring of tile slots addressed by a runtime DestinationOffset (not by an
// array index), ((i + 1) % 2) * N, read at (i % 2) * N + get_local_id(0):
// both are affine in i, so the checker relates the slots (the copy in
// flight fills the other one), but without a fixed work-group size the
// local id may take the read into the other slot: "cannot decide", naming
// get_local_id(0), never "violated" (it was, before: a false alarm on
// bench/cuda/tile_copy.cl). With reqd_work_group_size(N, 1, 1) the read
// stays in its slot: proved. With the slot a constant and the wrong count,
// it is violated.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --check-async %t.raised.spv 2>&1 | FileCheck %s
// RUN: %clang-spir -DWRONG %s -o %t.wrong.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.wrong.bc -o %t.wrong.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.wrong.spv -o %t.wrong.raised.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.wrong.raised.spv 2>&1 | FileCheck --check-prefix=WRONG %s
// RUN: %clang-spir -DREQD %s -o %t.reqd.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.reqd.bc -o %t.reqd.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.reqd.spv -o %t.reqd.raised.spv
// RUN: gac-opt --check-async %t.reqd.raised.spv 2>&1 | FileCheck --check-prefix=REQD %s
// CHECK: cannot decide (the access's bytes depend on get_local_id(0), and the kernel fixes no work-group size (reqd_work_group_size) that would bound them: the copy's bytes ((%i.{{[0-9]+}} - 1) mod 2) * 256 + 0 to 255, the access's bytes (%i.{{[0-9]+}} mod 2) * 256 + 0 to ?)
// CHECK-NOT: violated
// CHECK: check-async: {{[0-9]+}} proved, 0 violated, {{[1-9][0-9]*}} cannot decide
// REQD: check-async: 2 proved, 0 violated, 0 cannot decide
// WRONG: error: {{.*}}violated
#define N 64
#ifdef REQD
__attribute__((reqd_work_group_size(N, 1, 1)))
#endif
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
