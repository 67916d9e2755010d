// The shape of a PTX module for sm_80: a kernel entry with every parameter,
// a local-pointer parameter as a u64 offset into the one dynamic shared
// array, global -> local units as cp.async (16 bytes .cg, else the float's 4
// bytes .ca, picked at run time by alignment; no 8-byte path for floats), the wait on them as wait_all + bar.sync, and
// the wait on the local -> global copy (plain loads and stores) as bar.sync
// alone: it must not drain the cp.async groups.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: .target sm_80
// CHECK: .extern .shared .align 16 .b8 __gac_local[];
// CHECK-LABEL: .visible .entry k(
// CHECK-NEXT: .param .u64 k_param_0,
// CHECK-NEXT: .param .u64 k_param_1,
// CHECK-NEXT: .param .u64 k_param_2,
// CHECK-NEXT: .param .u64 k_param_3
// CHECK-DAG: cp.async.cg.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 16;
// CHECK-DAG: cp.async.ca.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 4;
// CHECK-NOT: cp.async.ca.shared.global [{{%r[0-9]+}}], [{{%rd[0-9]+}}], 8;
// CHECK: cp.async.wait_all;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: cp.async.wait_all
// CHECK: bar.sync 0;
// CHECK-NOT: cp.async
// CHECK: ret;
kernel void k(global const float *in, global float *out, local float *tile, ulong pitch) {
  event_t e = async_work_group_copy_2D2D(tile, 0, in, get_group_id(0) * 16, sizeof(float), 16, 16, pitch, 16, 0);
  wait_group_events(1, &e);
  event_t f = async_work_group_copy_2D2D(out, get_group_id(0) * 16, tile, 0, sizeof(float), 16, 16, 16, pitch, 0);
  wait_group_events(1, &f);
}
