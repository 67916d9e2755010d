/* Values carried round a pipelined loop, as an SGEMM written for speed has
 * them: a float4 accumulator, and 64 scalar ones. Built with
 * -DSTAGES=3 --pipeline-loops; each work-item accumulates element lx of
 * each 64-float tile of `a` (n tiles), times 1, 2, ... */
#ifndef STAGES
#define STAGES 3
#endif
#define LAST (STAGES - 1)
#define DECL(i) float c##i = 0.0f;
#define IDX(i) ((i / 10 - 1) * 8 + i % 10) /* X64's names c10 .. c87 as 0 .. 63 */
#define STEP(i) c##i += v * (float)(IDX(i) + 1);
#define STORE(i) out[get_global_id(0) * 64 + IDX(i)] = c##i;
#define X8(M, b) M(b##0) M(b##1) M(b##2) M(b##3) M(b##4) M(b##5) M(b##6) M(b##7)
#define X64(M) X8(M, 1) X8(M, 2) X8(M, 3) X8(M, 4) X8(M, 5) X8(M, 6) X8(M, 7) X8(M, 8)

kernel void float4_acc(global const float *a, global float4 *out, uint n) {
  local float tile[64];
  float4 acc = (float4)(0.0f);
  for (uint t = 0; t < n; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy(tile, a + t * 64, 64, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(LAST, 1);
    float v = tile[get_local_id(0)];
    acc += (float4)(v, v * 2.0f, v * 3.0f, v * 4.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}

/* Accumulator j (0 .. 63) gains v times (j + 1). */
kernel void scalar_accs(global const float *a, global float *out, uint n) {
  local float tile[64];
  X64(DECL)
  for (uint t = 0; t < n; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy(tile, a + t * 64, 64, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(LAST, 1);
    float v = tile[get_local_id(0)];
    X64(STEP)
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  X64(STORE)
}
