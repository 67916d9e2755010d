/* gac's variant of CLBlast's Xgemm (xgemm.cl, unchanged): the tiles of A and
 * B reach local memory as one 2D copy each, chained on one event, then a
 * wait, where CLBlast has each work-item load its share (GlobalToLocalA/B).
 * make_xgemm_2d.sh puts this in front of xgemm.cl and calls these at
 * GlobalToLocalA/B's call sites, the first statements of the loop over K.
 * The tile of A: KWG lines of MWG/VWM realM from agm, line pitch kSizeM/VWM,
 * into alm (pitch MWG/VWM), what GlobalToLocalA stores; B alike.
 * -DGAC_PIPELINED adds gac's pipeline markers (docs/ASYNC_PIPELINE.md): the
 * copies are the async stage 0, the rest of the loop body stage
 * GAC_STAGES - 1 (default 2 stages). The loop is in XgemmBody, whose tiles
 * are __local pointers to the kernel's arrays: the pipeliner makes their
 * versions in the kernel (lowering/pipeline/pipeline_versions.c). */
#ifndef GAC_STAGES
#define GAC_STAGES 2
#endif
#ifdef GAC_PIPELINED
#define GAC_STAGE_COPIES gac_pipeline_loop(GAC_ASYNC_STAGE(0)); gac_pipeline_stage(0, 0)
#define GAC_STAGE_COMPUTE gac_pipeline_stage(GAC_STAGES - 1, 1)
#else
#define GAC_STAGE_COPIES
#define GAC_STAGE_COMPUTE
#endif
#define GAC_COPY_A(agm, alm, kSizeM, kwg)                                                                   \
  GAC_STAGE_COPIES;                                                                                        \
  event_t gac_tiles = async_work_group_copy_2D2D(                                                          \
      (LOCAL_PTR void *)(alm), 0, (const __global void *)(agm),                                            \
      (size_t)(kwg) * ((kSizeM) / VWM) + (size_t)GetGroupID0() * (MWG / VWM), sizeof(realM), MWG / VWM,   \
      KWG, (kSizeM) / VWM, MWG / VWM, 0)
#define GAC_COPY_B(bgm, blm, kSizeN, kwg)                                                                   \
  gac_tiles = async_work_group_copy_2D2D(                                                                  \
      (LOCAL_PTR void *)(blm), 0, (const __global void *)(bgm),                                            \
      (size_t)(kwg) * ((kSizeN) / VWN) + (size_t)GetGroupID1() * (NWG / VWN), sizeof(realN), NWG / VWN,   \
      KWG, (kSizeN) / VWN, NWG / VWN, gac_tiles);                                                          \
  wait_group_events(1, &gac_tiles);                                                                        \
  GAC_STAGE_COMPUTE
