// Cooperative tile loads (a global load stored to local memory before a
// barrier) become cp.async and one cp.async.wait_all before the barrier
// (lowering/ptx/async_tile_loads.c); anything the copies could race with
// keeps the loads and stores as written.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O0 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: gac-opt --emit=ptx --sm=90 --ptx-abi=opencl %t.spv -o %t.nvcl.ptx
// RUN: FileCheck %s < %t.nvcl.ptx
// RUN: ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: gac-opt --emit=ptx --sm=80 --ptx-keep-tile-loads %t.spv -o %t.keep.ptx
// RUN: FileCheck %s --check-prefix=KEEP < %t.keep.ptx

// Two tiles of float4, two rows each: four 16-byte copies (L2 only), one
// wait; ptxas takes the result (below, for sm_80).
// CHECK-LABEL: .entry tiles(
// CHECK-NOT: ld.global
// CHECK-COUNT-4: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-NOT: st.shared
// CHECK: cp.async.wait_all;
// CHECK-NEXT: bar.sync 0;
// CHECK: ret;
// KEEP-LABEL: .entry tiles(
// KEEP-NOT: cp.async
// KEEP: ld.global
// KEEP: st.shared
// KEEP: bar.sync 0;
// KEEP: ret;
kernel void tiles(global const float4 *a, global const float4 *b, global float4 *out) {
  local float4 ta[128], tb[128];
  size_t l = get_local_id(0), g = get_group_id(0) * 128;
  ta[l] = a[g + l];
  ta[l + 64] = a[g + l + 64];
  tb[l] = b[g + l];
  tb[l + 64] = b[g + l + 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = ta[127 - l] + tb[l ^ 1];
}

// A float: 4-byte copies cost more than the load and store (corpus
// matmul_f32, -12.5% on an H200): it stays as written.
// CHECK-LABEL: .entry scalar(
// CHECK-NOT: cp.async
// CHECK: ld.global
// CHECK: st.shared.f32
// CHECK: bar.sync 0;
// CHECK: ret;
kernel void scalar(global const float *in, global float *out) {
  local float t[64];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[63 - l];
}

// The work-item reads local memory before the barrier: the copy could not
// have landed, so nothing changes.
// CHECK-LABEL: .entry read_back(
// CHECK-NOT: cp.async
// CHECK: st.shared
// CHECK: ld.shared
// CHECK: bar.sync 0;
// CHECK: ret;
kernel void read_back(global const float4 *in, global float4 *out) {
  local float4 t[64];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  float4 mine = t[l ^ 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[63 - l] + mine;
}

// A global store between the load and the local store: the copy would read
// its source after it.
// CHECK-LABEL: .entry store_between(
// CHECK-NOT: cp.async
// CHECK: ld.global
// CHECK: st.global
// CHECK: st.shared
// CHECK: bar.sync 0;
// CHECK: ret;
kernel void store_between(global float4 *in, global float4 *out) {
  local float4 t[64];
  size_t l = get_local_id(0);
  float4 v = in[get_global_id(0)];
  in[get_global_id(0) ^ 1] = 0.0f;
  t[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[63 - l];
}

// Two stores that may hit one element: copies land in no set order, so the
// first stays a store and only the second becomes a copy.
// CHECK-LABEL: .entry may_overlap(
// CHECK-NOT: cp.async
// CHECK: st.shared.v4.f32
// CHECK: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: // end inline asm
// CHECK-NEXT: cp.async.wait_all;
// CHECK-NEXT: bar.sync 0;
kernel void may_overlap(global const float4 *in, global const int *where, global float4 *out) {
  local float4 t[64];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  t[where[l] & 63] = in[get_global_id(0) + 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[63 - l];
}

// No barrier after the store in its block: it stays.
// CHECK-LABEL: .entry no_barrier(
// CHECK-NOT: cp.async
// CHECK: ret;
kernel void no_barrier(global const float4 *in, global float4 *out, int n) {
  local float4 t[64];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  if (n > 0)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[63 - l];
}

// 16 bytes aligned to 4 (vload4 of a float pointer): too little alignment.
// CHECK-LABEL: .entry unaligned(
// CHECK-NOT: cp.async
// CHECK: ret;
kernel void unaligned(global const float *in, global float4 *out) {
  local float4 t[64];
  size_t l = get_local_id(0);
  t[l] = vload4(0, in + 4 * get_global_id(0) + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[63 - l];
}

// A kernel with async copies of its own keeps its plain tile stores: a
// wait_all there would also wait for the copies in flight.
// CHECK-LABEL: .entry with_copies(
// CHECK: st.shared.v4.f32
// CHECK: ret;
kernel void with_copies(global const float4 *in, global float4 *out) {
  local float4 t[64], u[64];
  size_t l = get_local_id(0);
  event_t e = async_work_group_copy(u, in + get_group_id(0) * 64, 64, 0);
  t[l] = in[get_global_id(0) + 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  wait_group_events(1, &e);
  out[get_global_id(0)] = t[63 - l] + u[l];
}
