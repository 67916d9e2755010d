// sm_90: a global -> local bulk copy completes on its own function's
// mbarrier ring, which only that function's waits wait on. A copy whose
// event another function may wait on takes cp.async units instead, which a
// wait in any function completes (the work-item's own groups). Cut down
// from random cases 2411267/16167 (a helper returns the event of its bulk
// copy: the caller's wait was a cp.async.wait_all that never waited for it,
// and reads after it saw stale bytes on an H200, about 1 run in 5,000) and
// 2411267/14119 (the kernel's copy, waited on in a helper).
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --emit=ptx --sm=90 %t.raised.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// The helper that returns its event, and the kernel that passes its event
// to a waiting helper: cp.async, no ring.
// CHECK-LABEL: .func load_helper(
// CHECK-NOT: mbarrier
// CHECK: cp.async.cg.shared.global
// CHECK-NOT: mbarrier
// CHECK: ret;
// CHECK-LABEL: .entry returned_event(
// CHECK-NOT: mbarrier
// CHECK: cp.async.wait_all
// CHECK-LABEL: .entry waited_in_helper(
// CHECK-NOT: mbarrier
// CHECK: cp.async.cg.shared.global
// CHECK-NOT: mbarrier
// CHECK: ret;
// A kernel that keeps its events still gets bulk copies on its ring.
// CHECK-LABEL: .entry kept_event(
// CHECK: mbarrier.init
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: mbarrier.try_wait
__attribute__((noinline)) event_t load_helper(local uchar *d, const global uchar *s, ulong n) {
  return async_work_group_copy((local float16 *)d, (const global float16 *)s, n, 0);
}

__attribute__((noinline)) void wait_helper(event_t e) { wait_group_events(1, &e); }

kernel void returned_event(global const uchar *in, global uchar *out, ulong n) {
  local uchar tile[1024] __attribute__((aligned(64)));
  event_t e = load_helper(tile, in, n);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id(0); i < 1024u; i += get_local_size(0))
    out[i] = tile[i];
}

kernel void waited_in_helper(global const uchar *in, global uchar *out, ulong n) {
  local uchar tile[1024] __attribute__((aligned(64)));
  event_t e = async_work_group_copy((local float16 *)tile, (const global float16 *)in, n, 0);
  wait_helper(e);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id(0); i < 1024u; i += get_local_size(0))
    out[i] = tile[i];
}

kernel void kept_event(global const uchar *in, global uchar *out, ulong n) {
  local uchar tile[1024] __attribute__((aligned(64)));
  event_t e = async_work_group_copy((local float16 *)tile, (const global float16 *)in, n, 0);
  wait_group_events(1, &e);
  for (uint i = get_local_id(0); i < 1024u; i += get_local_size(0))
    out[i] = tile[i];
}
