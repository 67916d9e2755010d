// A copy fence in a function the kernel calls (noinline): the checker does
// not look into callees, so it cannot tell whether the call ordered the
// import before the export that reads the tile; "cannot decide", naming the
// call, and never "violated" (it was, before: the fence was not seen). The
// same in the raw module, where the callee calls the fence builtin. A
// callee that neither fences nor waits (-DNO_FENCE) leaves the import in
// flight: violated.
// RUN: gac-cc %s -o %t.spv
// RUN: gac-opt --check-async %t.spv 2>&1 | FileCheck %s
// RUN: gac-cc --raw %s -o %t.raw.spv
// RUN: gac-opt --check-async %t.raw.spv 2>&1 | FileCheck %s
// RUN: gac-cc -DNO_FENCE %s -o %t.nofence.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.nofence.spv 2>&1 | FileCheck --check-prefix=NOFENCE %s
// CHECK-NOT: violated:
// CHECK: cannot decide (the callee may wait for it or fence it: OpFunctionCall at word {{[0-9]+}}): the instruction reads (as its Source) %tile while async copy into %tile
// CHECK-NOT: violated:
// CHECK: check-async: {{[0-9]+}} proved, 0 violated, 1 cannot decide
// NOFENCE: violated: the instruction reads (as its Source) %tile while async copy into %tile
// NOFENCE: check-async: {{[0-9]+}} proved, 1 violated, 0 cannot decide
__attribute__((noinline)) void order_local(global float *out) {
#ifndef NO_FENCE
  async_work_group_copy_fence(CLK_LOCAL_MEM_FENCE);
#endif
  out[get_local_id(0)] = 0;
}

kernel void import_then_export(global const float *src, global float *out, local float *tile) {
  event_t e = async_work_group_copy(tile, src, 64, 0);
  order_local(out + 64);
  e = async_work_group_copy(out, (local const float *)tile, 64, e);
  wait_group_events(1, &e);
}
