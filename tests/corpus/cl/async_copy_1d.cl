// The 1D async copy builtins, in both directions, sharing an event.
kernel void async_copy_1d(global const float *src, global float *dst,
                          global const int4 *src4, global int4 *dst4,
                          local float *tile, local int4 *tile4, int n) {
  size_t base = get_group_id(0) * (size_t)n;
  event_t e = async_work_group_copy(tile, src + base, (size_t)n, 0);
  e = async_work_group_copy(tile4, src4 + base, (size_t)n, e);
  wait_group_events(1, &e);

  size_t lid = get_local_id(0);
  if (lid < (size_t)n) {
    tile[lid] *= 2.0f;
    tile4[lid] += (int4)(1);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  event_t out[2];
  out[0] = async_work_group_copy(dst + base, tile, (size_t)n, 0);
  out[1] = async_work_group_strided_copy(dst4 + base, tile4, (size_t)n / 2, 2, 0);
  wait_group_events(2, out);
  prefetch(src + base + n, (size_t)n);
}
