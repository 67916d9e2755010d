// The work-group size of a helper two calls below its launch (llvm-spirv-15
// wraps each kernel in an entry point that calls the kernel's function,
// which calls the helper): with reqd_work_group_size on every kernel that
// reaches it, and the same, the helper's copies divide their units by that
// constant (spirv/known.c, GAC_LOCAL_SIZE_EVERY_LAUNCH); the loops then
// have constant counts (CLBlast's Xgemm with 2D copies: its copies in
// XgemmBody unrolled, 33.2 -> 34.9 TFLOP/s on an H200,
// docs/results/VENDOR.md#experiments).
// Two kernels of different sizes: the size is read at run time.
// RUN: gac-cc -O0 --emit=lowered %s -o %t.spv
// RUN: gac-opt --validate --print %t.spv | FileCheck %s
// RUN: gac-cc -O0 -DTWO_SIZES --emit=lowered %s -o %t.two.spv
// RUN: gac-opt --validate --print %t.two.spv | FileCheck --check-prefix=TWO %s

// CHECK: OpExecutionMode %{{[0-9]+}} LocalSize 64 1 1
// CHECK-NOT: WorkgroupSize
// CHECK: OpFunctionEnd
// TWO: OpDecorate [[SIZE:%[0-9]+]] BuiltIn WorkgroupSize
// TWO: OpLoad %{{[0-9]+}} [[SIZE]]
__attribute__((noinline)) void fetch(local float *t, global const float *in) {
  event_t e = async_work_group_copy_2D2D(t, 0, in, get_group_id(0) * 64, sizeof(float), 64, 8, 128, 64, 0);
  wait_group_events(1, &e);
}

__attribute__((noinline)) void body(local float *t, global const float *in, global float *out) {
  fetch(t, in);
  out[get_global_id(0)] = t[511 - get_local_id(0)];
}

kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k(global const float *in, global float *out) {
  local float t[512];
  body(t, in, out);
}

#ifdef TWO_SIZES
kernel __attribute__((reqd_work_group_size(32, 1, 1))) void k32(global const float *in, global float *out) {
  local float t[512];
  body(t, in, out);
}
#endif
