// --ptx-abi=opencl: PTX that NVIDIA's OpenCL driver loads with
// clCreateProgramWithBinary (docs/VENDOR.md). Its compiler's ABI,
// read off the PTX it writes (bench/nvidia_opencl/probes/probe.sh):
//  - the nvcl triple: kernel pointer parameters marked .ptr .global or
//    .ptr .shared with their alignment, and `texmode_independent`;
//  - a local argument stays a parameter, 64 bits wide (the driver writes
//    64), not an offset into one dynamic shared array as for CUDA, and
//    declared 16-byte aligned whatever it points to: the driver aligns the
//    allocation as declared, and the copies' 4-, 8- and 16-byte units rely
//    on it (a uchar pointer declared .align 1 faulted: the CTS's
//    local_to_global2D, docs/LAYER.md);
//  - the NDRange from environment registers: group offset %envreg0..2,
//    global base %envreg3..5, group count %envreg6..8, work dimension
//    %envreg9 (so get_work_dim, refused for CUDA, is defined).
// The same module for the CUDA driver keeps its ABI. Warp-specialised
// kernels need a launch shape clEnqueueNDRangeKernel cannot give: refused.
// The probe kernels run on an H200 through NVIDIA's driver with the same
// bytes as NVIDIA's own build (nvcl-abi-check, docs/VENDOR.md).
// REQUIRES: ptxas
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --emit=ptx --sm=80 --ptx-abi=opencl %t.raised.spv -o %t.ocl.ptx
// RUN: FileCheck --check-prefix=OCL %s < %t.ocl.ptx
// RUN: %ptxas -arch=sm_80 %t.ocl.ptx -o %t.ocl.cubin
// RUN: gac-opt --emit=ptx --sm=90 --ptx-abi=opencl %t.raised.spv -o %t.ocl90.ptx
// RUN: %ptxas -arch=sm_90 %t.ocl90.ptx -o %t.ocl90.cubin
// RUN: %clang-spir -DNO_WORK_DIM %s -o %t.cuda.bc
// RUN: llvm-spirv-15 %t.cuda.bc -o %t.cuda.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.cuda.spv -o %t.cuda.raised.spv
// RUN: gac-opt --emit=ptx --sm=80 %t.cuda.raised.spv -o %t.cuda.ptx
// RUN: FileCheck --check-prefix=CUDA %s < %t.cuda.ptx
// RUN: %expect-exit 1 gac-opt --emit=ptx --sm=90,warp-specialize --ptx-abi=opencl %t.raised.spv -o %t.ws.ptx 2>&1 | FileCheck --check-prefix=WS %s
// RUN: %expect-exit 2 gac-opt --emit=ptx --ptx-abi=hip %t.raised.spv -o %t.bad.ptx 2>&1 | FileCheck --check-prefix=USAGE %s
// OCL: .target sm_80, texmode_independent
// OCL: .entry tile(
// OCL-NEXT: .param .u64 .ptr .global .align 4 tile_param_0,
// OCL-NEXT: .param .u64 .ptr .shared .align 16 tile_param_1,
// OCL-NEXT: .param .u32 tile_param_2
// OCL-DAG: %envreg0
// OCL-DAG: %envreg3
// OCL-DAG: %envreg6
// OCL-DAG: %envreg9
// OCL-NOT: __gac_local
// OCL: .entry bytes(
// OCL-NEXT: .param .u64 .ptr .global .align 1 bytes_param_0,
// OCL-NEXT: .param .u64 .ptr .shared .align 16 bytes_param_1
// CUDA: .extern .shared .align 16 .b8 __gac_local[];
// CUDA: .entry tile(
// CUDA-NEXT: .param .u64 tile_param_0,
// CUDA-NEXT: .param .u64 tile_param_1,
// CUDA-NOT: envreg
// WS: error: warp-specialize: a warp-specialised kernel runs in blocks of its work-group plus a producer warp{{.*}}[ptx.abi]
// USAGE: --ptx-abi=hip: expected cuda or opencl
kernel void tile(global float *g, local float *l, uint n) {
  size_t x = get_global_id(0), i = get_local_id(0);
  event_t e = async_work_group_copy_2D2D(l, 0, g, get_group_id(0) * n * 4, sizeof(float), n, 4, n, n, 0);
  wait_group_events(1, &e);
  g[x + get_global_offset(0) * get_num_groups(0)] = l[i] * 2.0f
#ifndef NO_WORK_DIM
      + get_work_dim()
#endif
      ;
}

kernel void bytes(global uchar *g, local uchar *l) {
  event_t e = async_work_group_copy_2D2D(g, 0, l, 0, 4, 10, 91, 10, 10, 0);
  wait_group_events(1, &e);
}
