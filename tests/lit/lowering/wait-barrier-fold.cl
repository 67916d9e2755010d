// A wait of copies the work-items move is a barrier, and a barrier next to
// it (the kernel's own) takes it in, the memory of both ordered: two
// barriers with nothing between them made an empty parallel region, on
// which PoCL 5.0 aborted (createParallelRegionBefore: region_entry_barrier
// != NULL). Here wait_group_events then barrier(CLK_LOCAL_MEM_FENCE) (0x110:
// sequentially consistent, work-group memory) become one barrier that
// orders work-group and cross-work-group memory (0x310).
// RUN: gac-cc %s -o %t.raised.spv
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.raised.spv -o %t.spv
// RUN: gac-opt --print %t.spv | FileCheck %s
// CHECK-DAG: [[BOTH:%[0-9]+]] = OpConstant {{%[0-9]+}} 784{{$}}
// CHECK: OpControlBarrier {{%[0-9]+}} {{%[0-9]+}} [[BOTH]]
// CHECK-NOT: OpControlBarrier
// CHECK: OpFunctionEnd
kernel void fold(global const float *in, global float *out, local float *tile, uint n) {
  for (uint t = 0; t < n; t++) {
    event_t e = async_work_group_copy(tile, in + t * 64, 64, 0);
    wait_group_events(1, &e);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[t * 64 + get_local_id(0)] = tile[get_local_id(0)];
  }
}
