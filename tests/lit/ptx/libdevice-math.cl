// Transcendental math on the PTX path goes to CUDA's libdevice, lane by
// lane for vectors; -cl-fast-relaxed-math (gac-opt --fast-relaxed-math)
// and native_ functions take libdevice's fast variants and flush
// denormals; functions not routed (fabs, sqrt; pown, whose libdevice
// version flushes denormal results) stay libclc's.
// REQUIRES: libdevice
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: env GAC_PTX_SAVE_IR=%t.ll gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ll
// RUN: not grep -q __nv_powif %t.ll
// RUN: env GAC_PTX_SAVE_IR=%t.fast.ll gac-opt --emit=ptx --sm=80 --fast-relaxed-math %t.spv -o %t.fast.ptx
// RUN: FileCheck %s --check-prefix=FAST < %t.fast.ll
// CHECK-LABEL: define internal <2 x float> @_Z3expDv2_f(<2 x float> %0)
// CHECK: call float @__nv_expf(
// CHECK: call float @__nv_expf(
// CHECK-LABEL: define internal float @_Z10native_logf(float %0)
// CHECK: call float @__nv_fast_logf(
// CHECK-DAG: define internal double @_Z3powdd(double %0, double %1)
// CHECK-DAG: define internal {{.*}}float @_Z4pownfi(
// CHECK-DAG: define internal float @__nv_expf(
// CHECK-DAG: define internal {{.*}}float @_Z4fabsf(
// CHECK-DAG: !"nvvm-reflect-ftz", i32 0}
// FAST-LABEL: define internal <2 x float> @_Z3expDv2_f(<2 x float> %0)
// FAST: call float @__nv_fast_expf(
// FAST-DAG: !"nvvm-reflect-ftz", i32 1}
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global float2 *x, global float *y, global double *d) {
  int i = get_global_id(0);
  x[i] = exp(x[i]);
  y[i] = native_log(y[i]) + pown(fabs(y[i]), 3);
  d[i] = pow(d[i], 0.5);
}
