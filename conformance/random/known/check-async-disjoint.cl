/* gac-opt --check-async: "violated" (an error; build_kernel.sh fails) on correct kernels whose copies
 * touch disjoint constant byte ranges of one local array (the checker works per buffer version:
 * docs/CHECK_ASYNC.md, Limits). k1: a copy into lt0[64..80) while a copy out of lt0[0..16) is in
 * flight; k2: a read of lt0[64..80) after its own wait while lt0[0..16) is still being copied. */
kernel void k1(global const uchar *in0, global uchar *out0) {
  local uchar lt0[128];
  for (uint i = get_local_id(0); i < 128; i += get_local_size(0))
    lt0[i] = (uchar)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out0, lt0, 16, 0);     /* reads lt0[0..16) */
  e = async_work_group_copy(lt0 + 64, in0, 16, e);         /* writes lt0[64..80): disjoint */
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id(0); i < 16; i += get_local_size(0))
    out0[16 + i] = lt0[64 + i];
}
kernel void k2(global const uchar *in0, global uchar *out0) {
  local uchar lt0[128];
  event_t e = async_work_group_copy(lt0, in0, 16, 0);      /* writes lt0[0..16) */
  event_t f = async_work_group_copy(lt0 + 64, in0 + 64, 16, 0);  /* writes lt0[64..80) */
  wait_group_events(1, &f);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id(0); i < 16; i += get_local_size(0))
    out0[i] = lt0[64 + i];   /* reads only what f copied */
  wait_group_events(1, &e);
}
