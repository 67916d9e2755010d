// clang-15 -O2 makes an LLVM `freeze` of an index computed with / and % of
// one value, which llvm-spirv-15 cannot translate. gac-cc takes it out (a
// select of the value with itself) and the kernel compiles, next to a 2D
// copy that gac-cc raises; the module validates.
// RUN: gac-cc -cl-std=CL1.2 %s -o %t.spv
// RUN: gac-opt --validate --print %t.spv | FileCheck %s
// Without gac-cc's step the translator refuses the same kernel.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm -finclude-default-header -no-opaque-pointers -O2 %s -include %gac-include/gac/cl/extended_async_copies.h -o - | FileCheck --check-prefix=LLVM %s
// LLVM: = freeze i32
// CHECK: OpSelect
// CHECK: GroupAsyncCopy2D2D
kernel void transpose(global const float *in, global float *out, int w) {
  int i = get_global_id(0);
  int r = i / w, c = i % w;
  out[c * w + r] = in[i] + (float)r;
}
kernel void tile(global float *g, local float *t) {
  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, sizeof(float), 2, 2, 3, 2, 0);
  wait_group_events(1, &e);
}
