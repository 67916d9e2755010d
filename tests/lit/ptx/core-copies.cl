// OpenCL's 1D async_work_group_(strided_)copy (core OpGroupAsyncCopy) are
// lowered for PTX like the 2D copies: a contiguous global -> local float4
// copy in cp.async units of up to 16 bytes, the strided one in units of one
// element (4 bytes), the local -> global one with plain stores; no builtin
// call is left for the emitter to refuse.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK-NOT: async_work_group
// CHECK-LABEL: .entry contiguous(
// CHECK: cp.async.cg.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 16;
// CHECK: cp.async.wait_all;
// CHECK-LABEL: .entry strided(
// CHECK-NOT: cp.async.cg
// CHECK: cp.async.ca.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 4;
// CHECK: cp.async.wait_all;
// CHECK-NOT: async_work_group
kernel void contiguous(global const float4 *src, global float4 *dst, local float4 *tile) {
  event_t e = async_work_group_copy(tile, src + get_group_id(0) * 64, 64, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy(dst + get_group_id(0) * 64, tile, 64, 0);
  wait_group_events(1, &e);
}
kernel void strided(global const float *src, global float *dst, local float *tile, ulong stride) {
  event_t e = async_work_group_strided_copy(tile, src + get_group_id(0) * 64 * stride, 64, stride, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy(dst + get_group_id(0) * 64, tile, 64, 0);
  wait_group_events(1, &e);
}
