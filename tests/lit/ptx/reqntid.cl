// reqd_work_group_size(x, y, z) becomes .reqntid x, y, z, for the CUDA and the
// OpenCL ABI: ptxas then knows the block (sgemm_fast pipelined, H200: 38.5
// against 37.1 TFLOP/s, 0.97x its hand-written twin;
// docs/results/VENDOR.md#experiments), and NVIDIA's OpenCL driver reports
// it as the compile work-group size. A local argument's wrapper kernel keeps
// it. Not for a warp-specialised kernel, whose block is the work-group plus a
// producer warp in one dimension (lit sm90-warp-specialize-bulk's kernel).
// REQUIRES: ptxas
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.raised.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: gac-opt --emit=ptx --sm=90 --ptx-abi=opencl %t.raised.spv -o %t.ocl.ptx
// RUN: FileCheck --check-prefix=OCL %s < %t.ocl.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: %clang-spir %S/sm90-warp-specialize-bulk.cl -o %t.ws.bc
// RUN: llvm-spirv-15 %t.ws.bc -o %t.ws.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.ws.spv -o %t.ws.raised.spv
// RUN: gac-opt --emit=ptx --sm=90,warp-specialize %t.ws.raised.spv -o %t.ws.ptx
// RUN: FileCheck --check-prefix=WS %s < %t.ws.ptx
// CHECK-LABEL: .entry fixed(
// CHECK: .reqntid 64, 2, 1
// (the CUDA ABI's wrapper for the local argument comes last)
// CHECK-LABEL: .entry unfixed(
// CHECK-NOT: .reqntid
// CHECK: ret;
// CHECK-LABEL: .entry with_local(
// CHECK: .reqntid 32, 1, 1
// OCL-LABEL: .entry fixed(
// OCL: .reqntid 64, 2, 1
// OCL-LABEL: .entry with_local(
// OCL: .reqntid 32, 1, 1
// OCL-LABEL: .entry unfixed(
// OCL-NOT: .reqntid
// OCL: ret;
// WS: __gac_block_threads_rows = 288;
// WS-NOT: .reqntid
kernel __attribute__((reqd_work_group_size(64, 2, 1))) void fixed(global float *g) {
  g[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 1.0f;
}
kernel __attribute__((reqd_work_group_size(32, 1, 1))) void with_local(global float *g, local float *l) {
  l[get_local_id(0)] = g[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  g[get_global_id(0)] = l[31 - get_local_id(0)];
}
kernel void unfixed(global float *g) { g[get_global_id(0)] = 2.0f; }
