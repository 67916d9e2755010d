// sm_80: every AsyncWait(q, N) becomes cp.async.wait_group M with M the
// number of groups (of all queues) committed after the (N+1)-th most recent
// commit to q; 0 only where that cannot be known. Built at -O0 so that clang
// keeps each wait where it was written.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O0 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx

#define COPY(i) async_work_group_copy_2D2D(buf, (i) * 16, in, (i) * 16, 4, 16, 1, 16, 16, 0)

// Three commits to one queue: the 2nd most recent has one newer group.
// (The first wait's barrier goes: the second wait's orders the same.)
// CHECK-LABEL: .entry straight(
// CHECK-COUNT-3: cp.async.commit_group;
// CHECK: cp.async.wait_group 1;
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
kernel void straight(global float *in, global float *out, local float *buf) {
  gac_async_commit(0, COPY(0));
  gac_async_commit(0, COPY(1));
  gac_async_commit(0, COPY(2));
  gac_async_wait(0, 1);
  gac_async_wait(0, 0);
  out[get_local_id(0)] = buf[get_local_id(0)];
}

// Two queues share the hardware queue: commits 0 1 0 1 (oldest first).
// wait(0, 0): q0's newest has one newer group (q1's) -> 1; wait(1, 1): q1's
// 2nd newest has two newer groups -> 2; wait(1, 0) -> 0.
// CHECK-LABEL: .entry two_queues(
// CHECK-COUNT-4: cp.async.commit_group;
// CHECK: cp.async.wait_group 1;
// CHECK: cp.async.wait_group 2;
// CHECK: cp.async.wait_group 0;
kernel void two_queues(global float *in, global float *out, local float *buf) {
  gac_async_commit(0, COPY(0));
  gac_async_commit(1, COPY(1));
  gac_async_commit(0, COPY(2));
  gac_async_commit(1, COPY(3));
  gac_async_wait(0, 0);
  gac_async_wait(1, 1);
  gac_async_wait(1, 0);
  out[get_local_id(0)] = buf[get_local_id(0)];
}

// The RFC's double buffer: in the loop, the commit just made may stay in
// flight (1); after the loop, everything (0).
// CHECK-LABEL: .entry loop(
// CHECK: cp.async.wait_group 1;
// CHECK: cp.async.wait_group 0;
kernel void loop(global float *in, global float *out, local float *buf, uint n) {
  gac_async_commit(0, COPY(0));
  for (uint i = 1; i < n; i++) {
    gac_async_commit(0, COPY(i & 1));
    gac_async_wait(0, 1);
    out[i * 64 + get_local_id(0)] = buf[get_local_id(0)];
  }
  gac_async_wait(0, 0);
  out[get_local_id(0)] = buf[get_local_id(0)];
}

// A commit under a branch: at the join only what both paths share is known;
// q0's 2nd newest lies beyond it, so 0 is the count that holds on both.
// CHECK-LABEL: .entry branch(
// CHECK-NOT: cp.async.wait_group {{[1-9]}}
// CHECK: cp.async.wait_group 0;
kernel void branch(global float *in, global float *out, local float *buf, int c) {
  gac_async_commit(0, COPY(0));
  gac_async_commit(0, COPY(1));
  if (c)
    gac_async_commit(1, COPY(2));
  gac_async_wait(0, 1);
  out[get_local_id(0)] = buf[get_local_id(0)];
}

// A runtime count cannot be an immediate: wait_group 0 (wait for all).
// CHECK-LABEL: .entry runtime(
// CHECK: cp.async.wait_group 0;
kernel void runtime(global float *in, global float *out, local float *buf, uint n) {
  gac_async_commit(0, COPY(0));
  gac_async_commit(0, COPY(1));
  gac_async_wait(0, n);
  out[get_local_id(0)] = buf[get_local_id(0)];
}

// A call of a function that commits: its groups are unknown, so what was
// known before it is forgotten (the wait after it counts only the later
// commit: 1).
void more(global float *in, local float *buf) {
  gac_async_commit(2, COPY(3));
}
// CHECK-LABEL: .entry call(
// CHECK: cp.async.wait_group 1;
kernel void call(global float *in, global float *out, local float *buf) {
  gac_async_commit(0, COPY(0));
  more(in, buf);
  gac_async_commit(0, COPY(1));
  gac_async_wait(0, 1);
  out[get_local_id(0)] = buf[get_local_id(0)];
}
