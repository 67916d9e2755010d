// units=one: each copy is one loop of units of one width known when it is
// built (the element size where it is 4, 8 or 16 bytes, else bytes), with
// no run-time branch to a loop per width: PoCL 5.0 aborts on an if/else of
// two work-item loops inside a loop with barriers
// (conformance/random/known/pocl50-branch-loops-abort.cl). The default
// tests the addresses' alignment and branches to 16-, 8-, 4- and 1-byte loops.
// RUN: gac-cc %s -o %t.raised.spv
// RUN: gac-opt --lower-async-copies=opencl,units=one --validate --target-env=opencl1.2 %t.raised.spv -o %t.one.spv
// RUN: spirv-val --target-env opencl1.2 %t.one.spv
// RUN: gac-opt --print %t.one.spv | FileCheck --check-prefix=ONE %s
// RUN: gac-opt --lower-async-copies=opencl,strategy=leader,units=one --print %t.raised.spv | FileCheck --check-prefix=ONE %s
// RUN: gac-opt --lower-async-copies=opencl --print %t.raised.spv | FileCheck --check-prefix=DEFAULT %s
// RUN: %expect-exit 1 gac-opt --lower-async-copies=opencl,units=two %t.raised.spv -o %t.bad.spv
// No alignment test (the OR of the addresses and strides masked with 15,
// 7, 3), and the units are the floats themselves.
// ONE-NOT: OpBitwiseAnd
// ONE: OpLoad {{%[0-9]+}} {{%[0-9]+}} Aligned 4
// ONE-NOT: OpBitwiseAnd
// DEFAULT: OpBitwiseAnd
// DEFAULT: OpLoad {{%[0-9]+}} {{%[0-9]+}} Aligned 16
// DEFAULT: OpLoad {{%[0-9]+}} {{%[0-9]+}} Aligned 8
// DEFAULT: OpLoad {{%[0-9]+}} {{%[0-9]+}} Aligned 4
kernel void k(global const float *in, global float *out, local float *tile, uint n) {
  for (uint t = 0; t < n; t++) {
    event_t e = async_work_group_copy_2D2D(tile, 0, in, t * 64, sizeof(float), 16, 4, 16, 16, 0);
    wait_group_events(1, &e);
    out[t * 64 + get_local_id(0)] = tile[get_local_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
