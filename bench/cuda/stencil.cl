/* The 2D stencil of the compute benchmark (bench/cuda/compute.cu): a 5-point
 * stencil on an n x n output from an (n + 2) x (n + 2) row-major input with
 * a one-element halo, n a multiple of TS and of TS * count. A work-group of
 * 32 x 8 work-items owns a TS-wide column strip and walks `count` tiles of
 * TS x TS down it; per tile one 2D copy fetches the (TS + 2)^2 input tile
 * with its halo, and each work-item computes RY outputs of one column.
 * Built as is (unpipelined: the markers are dropped) and with
 * --pipeline-loops, where stage 0's copy runs STAGES - 1 tiles ahead. */
#ifndef STAGES
#define STAGES 3
#endif
#define TS 32
#define WY 8
#define RY (TS / WY)
#define P (TS + 2) /* the local tile's pitch */

kernel __attribute__((reqd_work_group_size(TS, WY, 1))) void stencil(global const float *in, global float *out,
                                                                      uint n, uint count) {
  local float tile[P * P];
  uint lx = get_local_id(0), ly = get_local_id(1), gx = get_group_id(0) * TS, pitch = n + 2;
  for (uint i = 0; i < count; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    uint gy = (get_group_id(1) * count + i) * TS;
    event_t e = async_work_group_copy_2D2D(tile, 0, in, gy * pitch + gx, sizeof(float), P, P, pitch, P, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(STAGES - 1, 1);
    uint oy = (get_group_id(1) * count + i) * TS + ly;
    for (uint r = 0; r < RY; r++) {
      const local float *c = tile + (ly + r * WY + 1) * P + lx + 1; /* the centre */
      out[(oy + r * WY) * n + gx + lx] = 0.5f * c[0] + 0.125f * (c[-P] + c[P] + c[-1] + c[1]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
