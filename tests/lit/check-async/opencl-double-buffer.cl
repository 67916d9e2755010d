// A double-buffered loop in OpenCL C at -O2, where clang writes k % 2 as
// k & 1 and (k - 1) % 2 as (k & 1) ^ 1 and rotates the loop: with
// gac_async_wait(0, 1) before reading the previous tile, proved; with
// gac_async_wait(0, 2), the group of iteration k-1 is still in flight.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 -DIN_FLIGHT=1 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --raise-async-copies --validate %t.spv -o %t.raised.spv
// RUN: gac-opt --check-async=verbose %t.raised.spv 2>&1 | FileCheck --check-prefix=OK %s
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 -DIN_FLIGHT=2 %s -o %t.wrong.bc
// RUN: llvm-spirv-15 %t.wrong.bc -o %t.wrong.spv
// RUN: gac-opt --raise-async-copies %t.wrong.spv -o %t.wrong.raised.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.wrong.raised.spv 2>&1 | FileCheck --check-prefix=WRONG %s
// OK: proved: OpLoad reads %db.tiles[(%n - 1) mod 2]
// OK: proved: OpLoad reads %db.tiles[([[K:%[a-z.0-9]+]] - 1) mod 2]
// OK: check-async: 2 proved, 0 violated, 0 cannot decide
// WRONG: violated: OpLoad reads %db.tiles[([[K:%[a-z.0-9]+]] - 1) mod 2] while async copy into %db.tiles[([[K]] - 1) mod 2] ({{%[a-z0-9]+}}) is in flight: {{.*}}AsyncWait {{%[0-9]+}} (queue 0, in flight 2) leaves it in flight; path: %for.body -> %for.body (copied in iteration k-1, accessed in iteration k); and in the first iteration: async copy into %db.tiles[0] {{.*}} (in the loop's first iteration) [CheckAsync.Violated]
// WRONG: check-async: 1 proved, 1 violated, 0 cannot decide
kernel void db(global const float *in, global float *out, uint n) {
  local float tiles[2][64];
  uint lid = get_local_id(0);
  float acc = 0.0f;
  gac_async_commit(0, async_work_group_copy_2D2D(tiles[0], 0, in, 0, 4, 16, 4, 16, 16, 0));
  for (uint k = 1; k < n; k++) {
    gac_async_commit(0, async_work_group_copy_2D2D(tiles[k % 2], 0, in, k * 64, 4, 16, 4, 16, 16, 0));
    gac_async_wait(0, IN_FLIGHT);
    acc += tiles[(k - 1) % 2][lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  gac_async_wait(0, 0);
  acc += tiles[(n - 1) % 2][lid];
  out[get_global_id(0)] = acc;
}
