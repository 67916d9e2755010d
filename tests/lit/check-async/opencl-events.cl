// OpenCL C at -O0 (events and pointers go through allocas, which the
// checker traces through their single store): waiting on the right event
// proves the read; waiting on the other copy's event, or committing to a
// queue and never waiting before the read, is caught.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O0 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --raise-async-copies --validate %t.spv -o %t.raised.spv
// RUN: %expect-exit 1 gac-opt --check-async=verbose %t.raised.spv 2> %t.err
// RUN: FileCheck %s < %t.err
// CHECK: proved: OpLoad reads %a after every async copy into it is covered by a wait [CheckAsync.Proved]
// CHECK: violated: OpLoad reads %a while async copy into %a (%call) is in flight: its group was not committed, and no OpGroupWaitEvents is known to cover it; path: %entry [CheckAsync.Violated]
// CHECK: violated: OpLoad reads %a while async copy into %a (%call) is in flight: its group was committed to queue 0 with 0 group(s) committed after it, and no wait on the queue since; path: %entry [CheckAsync.Violated]
// CHECK: check-async: {{[0-9]+}} proved, 2 violated, 0 cannot decide
kernel void right_event(global const float *in, global float *out, local float *a, local float *b) {
  event_t e1 = async_work_group_copy_2D2D(a, 0, in, 0, 4, 16, 1, 16, 16, 0);
  event_t e2 = async_work_group_copy_2D2D(b, 0, in, 64, 4, 16, 1, 16, 16, 0);
  wait_group_events(1, &e1);
  out[get_local_id(0)] = a[get_local_id(0)];
  wait_group_events(1, &e2);
}

kernel void wrong_event(global const float *in, global float *out, local float *a, local float *b) {
  event_t e1 = async_work_group_copy_2D2D(a, 0, in, 0, 4, 16, 1, 16, 16, 0);
  event_t e2 = async_work_group_copy_2D2D(b, 0, in, 64, 4, 16, 1, 16, 16, 0);
  wait_group_events(1, &e2);
  out[get_local_id(0)] = a[get_local_id(0)];
  wait_group_events(1, &e1);
}

kernel void missing_wait(global const float *in, global float *out, local float *a) {
  gac_async_commit(0, async_work_group_copy_2D2D(a, 0, in, 0, 4, 16, 1, 16, 16, 0));
  out[get_local_id(0)] = a[get_local_id(0)];
  gac_async_wait(0, 0);
}
