// A copy given a non-null event returns that same event (OpenCL), so a wait
// on any event of a chain waits for every copy chained onto it
// (lowering/common/wait_copies.h). A copy into local memory chained onto a
// copy out of it is cp.async, so the wait must be cp.async.wait_all, not
// only the barrier, wherever the event comes from: a chain, an if, an
// array, a helper. A wait only on copies out stays a barrier.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --raise-async-copies --check-async %t.spv -o %t.checked.spv 2>&1 | FileCheck --check-prefix=PROVED %s
// RUN: gac-opt --emit=ptx --sm=80 %t.checked.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: gac-opt --emit=ptx --sm=90 %t.checked.spv -o %t.sm90.ptx
// RUN: FileCheck %s < %t.sm90.ptx
// The one read it cannot decide is in_helper's: its callee starts copies.
// PROVED: check-async: {{[0-9]+}} proved, 0 violated, 1 cannot decide

// CHECK-LABEL: .entry out_then_in(
// CHECK: cp.async
// CHECK: cp.async.wait_all;
// CHECK-NOT: ld.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK: ret;
kernel void out_then_in(global const float *src, global float *out, local float *stage, local float *tile) {
  size_t l = get_local_id(0);
  stage[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, stage, 64, 0);
  async_work_group_copy(out + 64, stage, 64, e);
  async_work_group_copy_2D2D(tile, 0, src, 0, sizeof(float), 32, 2, 32, 32, e);
  wait_group_events(1, &e);
  out[128 + l] = tile[l];
}

// CHECK-LABEL: .entry through_if(
// CHECK: cp.async
// CHECK: cp.async.wait_all;
// CHECK-NOT: ld.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK: ret;
kernel void through_if(global const float *src, global float *out, local float *stage, local float *tile, int c) {
  size_t l = get_local_id(0);
  stage[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e;
  if (c)
    e = async_work_group_copy(out, stage, 64, 0);
  else
    e = async_work_group_strided_copy(out, stage, 64, 2, 0);
  async_work_group_copy_2D2D(tile, 0, src, 0, sizeof(float), 32, 2, 32, 32, e);
  wait_group_events(1, &e);
  out[128 + l] = tile[l];
}

// Two events in an array, waited for together.
// CHECK-LABEL: .entry in_array(
// CHECK: cp.async
// CHECK: cp.async.wait_all;
// CHECK-NOT: ld.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK: ret;
kernel void in_array(global const float *src, global float *out, local float *stage, local float *tile) {
  size_t l = get_local_id(0);
  stage[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t ev[2];
  ev[0] = async_work_group_copy(out, stage, 64, 0);
  ev[1] = async_work_group_copy_2D2D(tile, 0, src, 0, sizeof(float), 32, 2, 32, 32, 0);
  wait_group_events(2, ev);
  out[128 + l] = tile[l];
}

// The copy in is chained on in a helper that is not inlined away.
__attribute__((noinline)) void fetch(global const float *src, local float *tile, event_t e) {
  async_work_group_copy_2D2D(tile, 0, src, 0, sizeof(float), 32, 2, 32, 32, e);
}
// CHECK-LABEL: .entry in_helper(
// CHECK: cp.async.wait_all;
// CHECK-NOT: ld.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK: ret;
kernel void in_helper(global const float *src, global float *out, local float *stage, local float *tile) {
  size_t l = get_local_id(0);
  stage[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, stage, 64, 0);
  fetch(src, tile, e);
  wait_group_events(1, &e);
  out[128 + l] = tile[l];
}

// Only copies out: the barrier, no drain of what may be in flight.
// CHECK-LABEL: .entry out_only(
// CHECK-NOT: cp.async.wait_all
// CHECK: bar.sync
// CHECK-NOT: cp.async.wait_all
// CHECK: ret;
kernel void out_only(global float *out, local float *stage) {
  size_t l = get_local_id(0);
  stage[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, stage, 64, 0);
  async_work_group_copy(out + 64, stage, 64, e);
  wait_group_events(1, &e);
  stage[l] = 0;
}
