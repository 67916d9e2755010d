// Two-level threshold of 16 bytes at a time: select() on a uchar16 with the
// mask of a vector comparison.
kernel void threshold(global const uchar16 *in, global uchar16 *out, uchar t) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local uchar16 v16[32]; // local size 32: two lines of 16 vectors
  event_t e = async_work_group_copy_2D2D(v16, 0, in, get_group_id(0) * 32, sizeof(uchar16), 16, 2, 16, 16, 0);
  wait_group_events(1, &e);
  uchar16 v = v16[get_local_id(0)];
#else
  uchar16 v = in[i];
#endif
  out[i] = select((uchar16)(16), (uchar16)(240), v > (uchar16)(t));
}
