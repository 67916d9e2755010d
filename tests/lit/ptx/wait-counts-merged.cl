// clang-15 -O2 merges the two waits of an if/else into one AsyncWait whose
// In Flight is an OpPhi of 1 and 0: each value gets its own count, and the
// wait becomes a branch between cp.async.wait_group 1 and 0 (not a runtime
// count, which would be 0 on both paths).
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --raise-async-copies %t.spv --print | FileCheck --check-prefix=MERGED %s
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// MERGED-COUNT-1: AsyncWait Queue=%{{[0-9]+}} InFlight=%{{[0-9]+}}
// MERGED-NOT: AsyncWait
// CHECK-LABEL: .entry k(
// CHECK-DAG: cp.async.wait_group 1;
// CHECK-DAG: cp.async.wait_group 0;
kernel void k(global const float *in, global float *out, ulong count, local float *buf) {
  gac_async_commit(0, async_work_group_copy_2D2D(buf, 0, in, 0, 4, 64, 1, 64, 64, 0));
  for (ulong i = 0; i < count; i++) {
    if (i + 1 < count) {
      gac_async_commit(0, async_work_group_copy_2D2D(buf, ((i + 1) & 1) * 64, in, (i + 1) * 64, 4, 64, 1, 64, 64, 0));
      gac_async_wait(0, 1);
    } else {
      gac_async_wait(0, 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i * 64 + get_local_id(0)] = buf[(i & 1) * 64 + get_local_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
