/* The SGEMM of the compute benchmark (bench/cuda/compute.cu): C = A B for
 * n x n row-major matrices, n a multiple of TS. A work-group of 32 x 8
 * work-items computes a TS x TS tile of C, each work-item RY rows of one
 * column; per K step two 2D copies fetch the TS x TS tiles of A and B.
 * Built as is (unpipelined: the markers are dropped) and with
 * --pipeline-loops, where stage 0's copies run STAGES - 1 steps ahead. */
#ifndef STAGES
#define STAGES 3
#endif
#define TS 32
#define WY 8
#define RY (TS / WY)

#ifdef NO_REQD /* the same kernel with no fixed work-group size (compute.cu: sgemm_noreqd) */
#define FIXED_SIZE
#else
#define FIXED_SIZE __attribute__((reqd_work_group_size(TS, WY, 1)))
#endif
kernel FIXED_SIZE void sgemm(global const float *A, global const float *B,
                                                                    global float *C, uint n) {
  local float As[TS * TS], Bs[TS * TS];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint gx = get_group_id(0) * TS, gy = get_group_id(1) * TS;
  float acc[RY];
  for (uint r = 0; r < RY; r++)
    acc[r] = 0;
  for (uint t = 0; t < n / TS; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, gy * n + t * TS, sizeof(float), TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * TS * n + gx, sizeof(float), TS, TS, n, TS, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(STAGES - 1, 1);
    for (uint k = 0; k < TS; k++) {
      float b = Bs[k * TS + lx];
      for (uint r = 0; r < RY; r++)
        acc[r] += As[(ly + r * WY) * TS + k] * b;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint r = 0; r < RY; r++)
    C[(gy + ly + r * WY) * n + gx + lx] = acc[r];
}
