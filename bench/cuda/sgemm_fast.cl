/* An SGEMM written for speed (the vendor benchmark, bench/nvidia_opencl, and the
 * compute benchmark, compute.cu): C = A B for n x n row-major matrices, n a
 * multiple of 128. A work-group of 16 x 16 work-items computes a 128 x 128
 * tile of C; each work-item an 8 x 8 micro-tile held in float4
 * accumulators: rows ty*4 + {0..3} and 64 + ty*4 + {0..3}, columns
 * tx*4 + {0..3} and 64 + tx*4 + {0..3}, so that neighbouring work-items
 * read neighbouring 16 bytes of the local tiles (no bank conflicts). Per K
 * step of BK (16), two 2D copies fetch the 128 x BK tile of A and the
 * BK x 128 tile of B; the inner product reads them with vector loads
 * (vload4), its loops unrolled as the CUDA twin's (compute.cu): LLVM's
 * threshold keeps the 4 steps of 4 at BK = 16 a loop otherwise.
 * BK = 8 halves the local memory and the registers (both measured:
 * docs/results/VENDOR.md#experiments, "sgemm_fast's shape"); 16 halves the
 * barriers and waits per multiply-add.
 * Built as is (unpipelined: the markers are dropped) and with
 * --pipeline-loops, where stage 0's copies run STAGES - 1 steps ahead. */
#ifndef STAGES
#define STAGES 3
#endif
#define BM 128
#define BN 128
#ifndef BK
#define BK 16
#endif
#define WX 16 /* work-items per row of the work-group */
#define WY 16

kernel __attribute__((reqd_work_group_size(WX, WY, 1))) void sgemm_fast(global const float *A, global const float *B,
                                                                         global float *C, uint n) {
  local float As[BM * BK], Bs[BK * BN];
  uint tx = get_local_id(0), ty = get_local_id(1);
  uint gx = get_group_id(0) * BN, gy = get_group_id(1) * BM;
  float4 acc[8][2];
  for (uint i = 0; i < 8; i++)
    acc[i][0] = acc[i][1] = (float4)(0.0f);
  for (uint t = 0; t < n / BK; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, gy * n + t * BK, sizeof(float), BK, BM, n, BK, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * BK * n + gx, sizeof(float), BN, BK, n, BN, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(STAGES - 1, 1);
    #pragma unroll
    for (uint k4 = 0; k4 < BK; k4 += 4) {
      float a[8][4];
      #pragma unroll
      for (uint i = 0; i < 8; i++) {
        float4 v = vload4(0, As + ((i / 4) * 64 + ty * 4 + i % 4) * BK + k4);
        a[i][0] = v.x, a[i][1] = v.y, a[i][2] = v.z, a[i][3] = v.w;
      }
      #pragma unroll
      for (uint kk = 0; kk < 4; kk++) {
        float4 b0 = vload4(0, Bs + (k4 + kk) * BN + tx * 4), b1 = vload4(0, Bs + (k4 + kk) * BN + 64 + tx * 4);
        #pragma unroll
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
