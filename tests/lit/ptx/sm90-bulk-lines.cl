// sm_90: per-line bulk copies only for lines of at least 1024 bytes (shorter
// ones lost to cp.async or tied: 128-byte lines on an H100, 256- and
// 512-byte lines on an H200: docs/PTX.md). A kernel whose copies all have
// shorter lines is the sm_80 code: cp.async units, no mbarrier ring, no bulk
// copy. Lines of 1024 bytes are bulk copies on a ring; lines of a length
// known only at run time are checked there.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=90 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK-LABEL: .entry short_lines(
// CHECK-NOT: mbarrier
// CHECK-NOT: cp.async.bulk
// CHECK: cp.async.cg.shared.global
// CHECK-NOT: mbarrier
// CHECK-NOT: cp.async.bulk
// CHECK: ret;
// CHECK-LABEL: .entry long_lines(
// CHECK-DAG: mbarrier.try_wait.parity
// CHECK-DAG: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: ret;
// CHECK-LABEL: .entry runtime_lines(
// CHECK-DAG: setp.{{[a-z]+}}.u64 {{.*}}, 1024;
// CHECK-DAG: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: ret;
kernel void short_lines(global const float *in, global float *out, local float *tile) {
  event_t e = async_work_group_copy_2D2D(tile, 0, in, get_group_id(0) * 32, sizeof(float), 32, 32, 4096, 32, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
kernel void long_lines(global const float *in, global float *out, local float *tile) {
  event_t e = async_work_group_copy_2D2D(tile, 0, in, get_group_id(0) * 256, sizeof(float), 256, 4, 4096, 256, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
kernel void runtime_lines(global const float *in, global float *out, local float *tile, ulong w) {
  event_t e = async_work_group_copy_2D2D(tile, 0, in, get_group_id(0) * w, sizeof(float), w, 16, 4096, w, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
