/* A typed 1D copy into a byte tile that the consumers read as bytes: a ring's slots hold one
 * element type ([AsyncPipeline.PipeShape]), so gac-cc --pipeline-loops --emit=ptx
 * --sm=90,warp-specialize does not warp-specialise this loop; it pipelines it for every
 * work-item, with a remark [Pipeline.NotSpecialized] (lit pipeline/warp-specialize-typed-copy).
 * --sm=90 and --sm=80 build it as usual. */
kernel __attribute__((reqd_work_group_size(32, 1, 1))) void k(global const uchar *in0, global uchar *out0, int n) {
  local uchar lt0[64] __attribute__((aligned(64)));
  for (uint t = 0; t < (uint)n; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy((local long *)lt0, (const global long *)in0 + t * 8, 8, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    for (uint i = get_local_id(0); i < 64u; i += get_local_size(0))
      out0[t * 64 + i] = lt0[i];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
