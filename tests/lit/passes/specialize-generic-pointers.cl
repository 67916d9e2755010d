// OpenCL C 3.0 hands builtins generic pointers. --specialize-generic-pointers
// gives each builtin the pointer the generic one was cast from (the events of
// OpGroupWaitEvents, fract's out-pointer, vload4's local pointer) and drops
// the casts nothing uses any more (with their OpName). Events reached through
// a generic parameter are cast back to Function storage (event_t lives only
// in private memory); vload4 on a generic parameter stays as it is (the
// layer's link check reports it). The module validates.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL3.0 -emit-llvm-bc -finclude-default-header -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --specialize-generic-pointers --validate --print %t.spv -o %t.out.spv | FileCheck %s
// RUN: spirv-val %t.out.spv
// Running it again changes nothing: the pass is idempotent.
// RUN: gac-opt --specialize-generic-pointers %t.out.spv -o %t.again.spv
// RUN: cmp %t.out.spv %t.again.spv

// CHECK-NOT: OpName %{{[0-9]+}} "whole.ascast"
// CHECK: [[EVENT:%[0-9]+]] = OpTypeEvent
// CHECK: [[EVENT_PTR:%[0-9]+]] = OpTypePointer Function [[EVENT]]

// CHECK-LABEL: OpFunction {{.*}} DontInline
// CHECK-NEXT: [[EVENTS:%[0-9]+]] = OpFunctionParameter
// CHECK: [[PRIVATE:%[0-9]+]] = OpGenericCastToPtr [[EVENT_PTR]] [[EVENTS]]
// CHECK-NEXT: OpGroupWaitEvents {{%[0-9]+}} {{%[0-9]+}} [[PRIVATE]]
__attribute__((noinline)) void wait_all(event_t *events, int n) { wait_group_events(n, events); }

// CHECK-LABEL: OpFunction {{.*}} DontInline|Const
// CHECK-NEXT: [[P:%[0-9]+]] = OpFunctionParameter
// CHECK: OpExtInst {{.*}} vloadn {{%[0-9]+}} [[P]] 4
__attribute__((noinline)) float4 load(const float *p) { return vload4(0, p); }

// CHECK-LABEL: OpFunction {{%[0-9]+}} None
// CHECK-NEXT: OpFunctionParameter
// CHECK-NEXT: [[TILE:%[0-9]+]] = OpFunctionParameter
// CHECK: OpVariable {{%[0-9]+}} Function
// CHECK-NEXT: [[WHOLE:%[0-9]+]] = OpVariable {{%[0-9]+}} Function
// CHECK: [[FIRST:%[0-9]+]] = OpInBoundsPtrAccessChain [[EVENT_PTR]]
// CHECK: OpGroupWaitEvents {{%[0-9]+}} {{%[0-9]+}} [[FIRST]]
// CHECK-NOT: OpPtrCastToGeneric {{%[0-9]+}} [[WHOLE]]
// CHECK: OpExtInst {{.*}} fract {{%[0-9]+}} [[WHOLE]]
// CHECK-NEXT: OpExtInst {{.*}} vloadn {{%[0-9]+}} [[TILE]] 4
kernel void k(global float *a, local float *tile) {
  event_t e[2];
  e[0] = async_work_group_copy(tile, a, 16, 0);
  e[1] = async_work_group_copy(tile + 16, a + 16, 16, 0);
  wait_group_events(2, e);
  float whole, frac = fract(a[1], &whole);
  float4 v = vload4(1, tile);
  wait_all(e, 2);
  a[get_global_id(0)] = v.x + frac + whole + load(a).y;
}
