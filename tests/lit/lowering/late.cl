// --lower-async-copies=opencl,strategy=late: every copy, wait, commit and
// queue wait becomes a call of the imported runtime (lowering/opencl/late/), with
// the kernel's own state ("<kernel>.gac_late_state", a Workgroup array PoCL
// allocates per work-group) made at its start, initialised, and landed at its
// return; a helper function that copies gets the state as a parameter. No
// copy, wait or queue instruction is left, and the module validates.
// RUN: gac-cc %s -o %t.spv
// RUN: gac-opt --lower-async-copies=opencl,strategy=late --validate --target-env=opencl1.2 %t.spv -o %t.late.spv
// RUN: gac-opt --print %t.late.spv | FileCheck %s
// RUN: spirv-val --target-env opencl1.2 %t.late.spv
// CHECK-NOT: GroupAsyncCopy
// CHECK-NOT: OpGroupWaitEvents
// CHECK-NOT: AsyncCommit
// CHECK-NOT: AsyncWait
// CHECK-DAG: OpName [[STATE:%[0-9]+]] "k.gac_late_state"
// CHECK-DAG: [[STATE]] = OpVariable {{%[0-9]+}} Workgroup
// CHECK-LABEL: = OpFunction {{%[0-9]+}} DontInline
// CHECK-NEXT: OpFunctionParameter
// CHECK-NEXT: OpFunctionParameter
// CHECK-NEXT: [[PARAM:%[0-9]+]] = OpFunctionParameter
// CHECK: OpFunctionCall {{%[0-9]+}} {{%[0-9]+}} [[PARAM]] {{%[0-9]+}}
// CHECK-LABEL: = OpFunction {{%[0-9]+}} None
// CHECK: [[PTR:%[0-9]+]] = OpBitcast {{%[0-9]+}} [[STATE]]
// CHECK-NEXT: OpFunctionCall {{%[0-9]+}} {{%[0-9]+}} [[PTR]]
// CHECK-NEXT: OpFunctionCall {{%[0-9]+}} {{%[0-9]+}} {{%[0-9]+}} {{%[0-9]+}} [[PTR]]
// CHECK: OpFunctionCall {{%[0-9]+}} {{%[0-9]+}} [[PTR]] {{%[0-9]+}} {{%[0-9]+}}{{ *$}}
// CHECK: OpFunctionCall {{%[0-9]+}} {{%[0-9]+}} [[PTR]] {{%[0-9]+}} {{%[0-9]+}}{{ *$}}
// CHECK-NEXT: OpFunctionCall {{%[0-9]+}} {{%[0-9]+}} [[PTR]]{{ *$}}
// CHECK-NEXT: OpReturn
__attribute__((noinline)) void fetch(local int *tile, global const int *in) {
  event_t e = async_work_group_copy_2D2D(tile, 0, in, 0, sizeof(int), 4, 2, 4, 4, 0);
  wait_group_events(1, &e);
}
kernel void k(global const int *in, global int *out, local int *tile) {
  fetch(tile, in);
  event_t e = async_work_group_copy_2D2D(out, 0, tile, 0, sizeof(int), 4, 2, 4, 4, 0);
  gac_async_commit(0, e);
  gac_async_wait(0, 0);
}
