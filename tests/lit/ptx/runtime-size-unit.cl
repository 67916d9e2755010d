// A kernel that fixes no work-group size, its copies of 16-byte elements
// (one unit path each, lowering/ptx/lower_ptx_copies.c): before each copy's
// unit loop, a test of the group's size against the copy's units; where the
// group has as many work-items as units, work-item id moves unit id or
// none, out of any loop, so that LLVM can hoist its address arithmetic out
// of the loops around the copy (the pipelined sgemm_noreqd of bench/cuda:
// 0.974x -> 0.988x the hand kernel, docs/results/VENDOR.md#experiments).
// Else the loop, stepped by the size. With reqd_work_group_size the size is a constant and there is
// no test.
// RUN: gac-cc %s -o %t.spv
// RUN: gac-opt --lower-async-copies=ptx --validate %t.spv -o %t.low.spv
// RUN: gac-opt --print %t.low.spv | FileCheck %s
// RUN: gac-cc -DREQD %s -o %t.reqd.spv
// RUN: gac-opt --lower-async-copies=ptx --validate %t.reqd.spv -o %t.reqd.low.spv
// RUN: gac-opt --print %t.reqd.low.spv | FileCheck --check-prefix=REQD %s
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// CHECK: [[ENOUGH:%[0-9]+]] = OpULessThanEqual %{{[0-9]+}} [[TOTAL:%[0-9]+]] [[SIZE:%[0-9]+]]
// CHECK-NEXT: OpBranchConditional [[ENOUGH]] [[ONE:%[0-9]+]] [[MANY:%[0-9]+]]
// CHECK-NEXT: [[ONE]] = OpLabel
// CHECK-NEXT: [[MINE:%[0-9]+]] = OpULessThan %{{[0-9]+}} %{{[0-9]+}} [[TOTAL]]
// CHECK-NEXT: OpBranchConditional [[MINE]] [[UNIT:%[0-9]+]] [[DONE:%[0-9]+]]
// CHECK-NEXT: [[UNIT]] = OpLabel
// CHECK-NOT: OpLabel
// CHECK: OpFunctionCall %{{[0-9]+}} [[CP:%[0-9]+]]
// CHECK-NEXT: OpBranch [[DONE]]
// CHECK-NEXT: [[MANY]] = OpLabel
// CHECK: OpPhi
// CHECK: OpULessThan %{{[0-9]+}} %{{[0-9]+}} [[TOTAL]]
// CHECK: OpFunctionCall %{{[0-9]+}} [[CP]]
// CHECK: OpULessThanEqual
// REQD-NOT: OpULessThanEqual
#ifdef REQD
__attribute__((reqd_work_group_size(128, 1, 1)))
#endif
kernel void two(global const float4 *a, global const float4 *b, global float4 *out, uint n) {
  local float4 ta[8 * 16], tb[8 * 16];
  event_t e = async_work_group_copy_2D2D(ta, 0, a, get_group_id(0) * 8 * n, sizeof(float4), 16, 8, n, 16, 0);
  e = async_work_group_copy_2D2D(tb, 0, b, get_group_id(0) * 8 * n, sizeof(float4), 16, 8, n, 16, e);
  wait_group_events(1, &e);
  uint l = get_local_id(0) % 128;
  out[get_global_id(0)] = ta[l] + tb[l];
}
