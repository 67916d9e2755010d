// clang-15 -O2 narrows a switch whose condition has known-clear top bits to
// an odd integer width (SPIR's data layout names no native widths):
// `switch i2 (trunc i32 %kk to i2)` here, `switch i31` for sgemm_fast.cl's
// first form (`k == 0 ? a.x : k == 1 ? a.y : ...`). llvm-spirv-15 refuses it
// ("InvalidBitWidth: Invalid bit width in input"). gac-cc switches on the
// wide value masked to those bits instead, its cases read as such; the
// module validates. (Run on PoCL, this kernel's 176 outputs were right.)
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm -finclude-default-header -no-opaque-pointers -O2 %s -o - | FileCheck --check-prefix=LLVM %s
// RUN: gac-cc %s -o %t.spv
// RUN: spirv-val %t.spv
// RUN: gac-opt --print %t.spv | FileCheck %s
// LLVM: trunc i32 {{%[a-z0-9.]+}} to i2
// LLVM: switch i2
// CHECK: [[MASKED:%[0-9]+]] = OpBitwiseAnd {{%[0-9a-z_]+}} {{%[0-9a-z_.]+}} {{%[0-9a-z_]+}}
// CHECK: OpSwitch [[MASKED]] {{%[0-9a-z_]+}} 0 {{%[0-9a-z_]+}} 1 {{%[0-9a-z_]+}}
kernel void pick(global const float4 *in, global float *out, uint n) {
  float4 a = in[get_global_id(0)];
  for (uint kk = 0; kk < n; kk++)
    out[get_global_id(0) * n + kk] = (kk & 3) == 0 ? a.x : (kk & 3) == 1 ? a.y : (kk & 3) == 2 ? a.z : a.w;
}
