// The OpenCL C library on the PTX path (lowering/ptx/opencl_library.c): libclc's
// NVPTX functions linked for what the kernel calls (and nothing else),
// OpenCL 1.x atomics of every width as relaxed LLVM atomics, printf as
// CUDA's vprintf with a buffer of the promoted arguments; every linked
// function internal, the kernel alone visible. The IR is the module
// GAC_PTX_SAVE_IR writes before the optimiser.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: env GAC_PTX_SAVE_IR=%t.ll gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// IR-DAG: define internal {{.*}} @_Z5clampiii(
// IR-DAG: define internal {{.*}} @_Z6vload4mPU3AS1Kf(
// IR-DAG: define internal {{.*}} @_Z15convert_int_satf(
// IR-DAG: atomicrmw add ptr addrspace(1) %{{.*}}, i64 %{{.*}} monotonic
// IR-DAG: atomicrmw umax ptr addrspace(3) %{{.*}}, i32 %{{.*}} monotonic
// IR-DAG: call i32 @vprintf(ptr %{{.*}}, ptr %printf.args)
// IR-NOT: define {{.*}}@_Z5clampfff(
// PTX: .extern .func  (.param .b32 func_retval0) vprintf
// PTX-NOT: .func {{.*}}_Z
// PTX: .visible .entry k(
// PTX-DAG: atom.global.add.u64
// PTX-DAG: atom.shared.max.u32
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void k(global const float *in, global int *out, global long *total, local uint *top) {
  int i = get_global_id(0);
  float4 v = vload4(i, in);
  int c = clamp(convert_int_sat(v.x * 100.0f), -5, 5);
  atom_add(total, (long)c);
  atomic_max(top, (uint)i);
  if (i == 0)
    printf("first: %d %f\n", c, v.y);
  out[i] = c;
}
