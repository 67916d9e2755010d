// The AMDGCN path (gac-opt --emit=amdgcn): kernels as amdgpu_kernel with
// LLVM's kernel descriptors and metadata; a local-pointer parameter becomes
// an offset into the launch's dynamic LDS (hidden_dynamic_lds_size); a
// __constant argument is in AMDGPU's constant space (scalar loads); a
// private array lives in scratch (address space 5); OpenCL 1.x atomics of
// 64 bits and on local memory; barrier is s_barrier; 2D copies lowered
// cooperatively; gfx90a and gfx942.
// RUN: gac-cc %s -o %t.spv
// RUN: gac-opt --emit=amdgcn --mcpu=gfx90a %t.spv -o %t.gfx90a.s
// RUN: FileCheck %s --check-prefixes=CHECK,GFX90A < %t.gfx90a.s
// RUN: gac-opt --emit=amdgcn --mcpu=gfx942 %t.spv -o %t.gfx942.s
// RUN: FileCheck %s --check-prefixes=CHECK,GFX942 < %t.gfx942.s
// GFX90A: .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
// GFX942: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// CHECK-LABEL: tile:
// CHECK: s_barrier
// CHECK: .amdhsa_group_segment_fixed_size 4096
// CHECK-LABEL: table:
// CHECK: s_load_dword
// CHECK-LABEL: private_array:
// CHECK: {{(buffer|scratch)_store_dword}}
// CHECK: .amdhsa_private_segment_fixed_size {{[1-9]}}
// CHECK-LABEL: hist:
// CHECK-DAG: ds_add_u32
// CHECK-DAG: global_atomic_add_x2
// CHECK: amdhsa.kernels:
// CHECK: .value_kind: hidden_dynamic_lds_size
// CHECK: .name: hist
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void tile(global const float *in, global float *out, uint pitch) {
  local float t[32 * 32];
  event_t e = async_work_group_copy_2D2D(t, 0, in, get_group_id(0) * 32, sizeof(float), 32, 32, pitch, 32, 0);
  wait_group_events(1, &e);
  uint l = get_local_id(0);
  out[get_global_id(0)] = t[(l * 33) % 1024];
}
kernel void hist(global const uchar *in, global ulong *bins, local uint *lb) {
  uint l = get_local_id(0);
  lb[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&lb[in[get_global_id(0)]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_add(&bins[l], (ulong)lb[l]);
}
kernel void table(constant float *c, global float *x, uint k) { x[get_global_id(0)] = c[k] * 2.0f; }
kernel void private_array(global const int *idx, global float *out) {
  float p[64];
  for (int i = 0; i < 64; i++)
    p[i] = i * 0.5f;
  out[get_global_id(0)] = p[idx[get_global_id(0)] & 63];
}
