// The unrolled steps of an inner product keep their order (docs/PTX.md,
// "Code quality"). Here, as in bench/cuda/sgemm_fast.cl before it carried
// #pragma unroll, LLVM's loop unroller unrolls the k loop: each step a block
// of its own, joined by branches SimplifyCFG had not merged yet, and
// InstCombine sank every multiply-add into the next block, one at a time.
// The steps came out interleaved per accumulator (four dependent fma in a
// row, all of B's rows live at once), and ptxas took 166 registers for what
// the source order does in 127 (one block of 256 work-items a multiprocessor
// instead of two; 22.3 against 32.9 TFLOP/s through NVIDIA's OpenCL on an
// H200). gac sets -instcombine-code-sinking=false.
// So: the first multiply-add's result is not used again before the next
// step's loads of B, and ptxas fits the kernel in 128 registers.
// REQUIRES: ptxas
// RUN: gac-cc --emit=ptx --sm=90 --ptx-abi=opencl %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o /dev/null 2>&1 | FileCheck --check-prefix=REGS %s
// CHECK: ld.shared.v4.f32
// CHECK: fma.rn.f32 [[FIRST:%f[0-9]+]],
// CHECK-NOT: [[FIRST]];
// CHECK: ld.shared.v4.f32
// CHECK: [[FIRST]];
// REGS: Used {{[0-9]|[1-9][0-9]|1[01][0-9]|12[0-8]}} registers
#define BK 8
kernel __attribute__((reqd_work_group_size(16, 16, 1))) void product(global const float *A, global const float *B,
                                                                      global float *C, uint n) {
  local float As[128 * BK], Bs[BK * 128];
  uint tx = get_local_id(0), ty = get_local_id(1);
  uint gx = get_group_id(0) * 128, gy = get_group_id(1) * 128;
  float4 acc[8][2];
  for (uint i = 0; i < 8; i++)
    acc[i][0] = acc[i][1] = (float4)(0.0f);
  for (uint t = 0; t < n / BK; t++) {
    event_t e = async_work_group_copy_2D2D(As, 0, A, gy * n + t * BK, sizeof(float), BK, 128, n, BK, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * BK * n + gx, sizeof(float), 128, BK, n, 128, e);
    wait_group_events(1, &e);
    for (uint k4 = 0; k4 < BK; k4 += 4) {
      float a[8][4];
      for (uint i = 0; i < 8; i++) {
        float4 v = vload4(0, As + ((i / 4) * 64 + ty * 4 + i % 4) * BK + k4);
        a[i][0] = v.x, a[i][1] = v.y, a[i][2] = v.z, a[i][3] = v.w;
      }
      for (uint kk = 0; kk < 4; kk++) {
        float4 b0 = vload4(0, Bs + (k4 + kk) * 128 + tx * 4), b1 = vload4(0, Bs + (k4 + kk) * 128 + 64 + tx * 4);
        for (uint i = 0; i < 8; i++) {
          acc[i][0] = mad((float4)(a[i][kk]), b0, acc[i][0]);
          acc[i][1] = mad((float4)(a[i][kk]), b1, acc[i][1]);
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint i = 0; i < 8; i++) {
    global float *c = C + (gy + (i / 4) * 64 + ty * 4 + i % 4) * n + gx + tx * 4;
    vstore4(acc[i][0], 0, c);
    vstore4(acc[i][1], 0, c + 64);
  }
}
