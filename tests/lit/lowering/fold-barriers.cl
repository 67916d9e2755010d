// A barrier that ends a branch, where the block the branch joins starts
// with a barrier (here the wait's), is that barrier's work: every
// work-item that passes the first meets the second next, with nothing
// between them that touches memory (lowering/opencl/fold_barriers.c). The
// pipeliner's epilogue makes this shape ("if an iteration is left: its
// compute, the kernel's barrier", then the next wait); PoCL meets a barrier
// inside a branch by peeling and replicating work-item regions. So the
// barrier in the branch goes, and the join's orders both memories (0x310).
// RUN: gac-cc %s -o %t.raised.spv
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.raised.spv -o %t.spv
// RUN: spirv-val --target-env opencl1.2 %t.spv
// RUN: gac-opt --print %t.spv | FileCheck %s
// RUN: gac-opt --lower-async-copies=opencl,strategy=leader --validate --target-env=opencl1.2 %t.raised.spv -o %t.leader.spv
// RUN: gac-opt --print %t.leader.spv | FileCheck %s
// Under late the wait is a call of the runtime's gac_late_wait_events,
// whose first instruction is a barrier of both memories: the barrier in the
// branch goes there too (a callee's barrier only where it orders as much).
// RUN: gac-opt --lower-async-copies=opencl,strategy=late --validate --target-env=opencl1.2 %t.raised.spv -o %t.late.spv
// RUN: gac-opt --print %t.late.spv | FileCheck --check-prefix=LATE %s
// LATE: OpName [[WAIT:%[0-9]+]] "gac_late_wait_events"
// LATE: OpFAdd
// LATE-NOT: OpControlBarrier
// LATE: OpStore
// LATE-NEXT: OpBranch [[JOIN:%[0-9]+]]
// LATE-NEXT: [[JOIN]] = OpLabel
// LATE-NOT: OpControlBarrier
// LATE: OpFunctionCall {{%[0-9]+}} [[WAIT]]
// CHECK-DAG: [[BOTH:%[0-9]+]] = OpConstant {{%[0-9]+}} 784{{$}}
// CHECK-NOT: OpControlBarrier
// CHECK: OpFAdd
// CHECK-NEXT: OpStore
// CHECK-NEXT: OpBranch [[JOIN:%[0-9]+]]
// CHECK-NEXT: [[JOIN]] = OpLabel
// CHECK-NEXT: OpControlBarrier {{%[0-9]+}} {{%[0-9]+}} [[BOTH]]
// CHECK-NOT: OpControlBarrier
// CHECK: OpFunctionEnd
kernel void fold(global const float *in, global float *out, local float *tile, uint n) {
  uint lid = get_local_id(0);
  event_t e = async_work_group_copy(tile, in, 64, 0);
  if (n > 1) {
    tile[lid] += 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  wait_group_events(1, &e);
  out[lid] = tile[lid];
}
