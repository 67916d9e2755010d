// A barrier is removed when every path from it meets another barrier before
// any memory access or the kernel's end (lowering/ptx/redundant_barriers.c); cp.async
// waits and commits may lie between. -O0 keeps the shapes as written.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O0 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx

// Two in a row: one.
// CHECK-LABEL: .entry twice(
// CHECK: st.shared
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: ld.shared
// CHECK: ret;
kernel void twice(global float *out, local float *t) {
  t[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[get_local_id(0) ^ 1];
}

// A memory access between them: both stay.
// CHECK-LABEL: .entry apart(
// CHECK: bar.sync 0;
// CHECK: st.shared
// CHECK: bar.sync 0;
// CHECK: ret;
kernel void apart(global float *out, local float *t) {
  t[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  t[get_local_id(0) ^ 1] += 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[get_local_id(0)];
}

// Only one side of a branch reaches a barrier before memory: both stay.
// CHECK-LABEL: .entry one_side(
// CHECK-COUNT-2: bar.sync 0;
// CHECK: ret;
kernel void one_side(global float *out, local float *t, int c) {
  t[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (c)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[get_local_id(0) ^ 1];
}

// A barrier before the kernel's end with no barrier after it stays.
// CHECK-LABEL: .entry at_end(
// CHECK: bar.sync 0;
// CHECK-NEXT: ret;
kernel void at_end(local float *t) {
  t[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
}
