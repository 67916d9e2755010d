// OpenCL constant memory on the PTX path: a __constant kernel argument is a
// global pointer (the host passes a buffer it made), a program-scope
// __constant table an initialised .global array, and a helper taking
// __constant pointers serves both.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: .global .align 4 .b8 weights[16] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64};
// CHECK: .visible .entry k(
// CHECK-NOT: ld.const
// CHECK: ld.global{{.*}}f32
constant float weights[4] = {1.0f, 2.0f, 3.0f, 4.0f};
float pick(constant float *t, int i) { return t[i & 3]; }
kernel void k(constant float *c, global float *x) {
  int i = get_global_id(0);
  x[i] = pick(c, i) * pick(weights, i);
}
