/* Events chained across directions. A copy given a non-null
 * event returns that same event, so one wait on the first copy's event
 * waits for every copy chained onto it, also for a copy into local memory
 * chained onto copies out of it: on the GPU the copies out are loads and
 * stores, the copy in is cp.async (or bulk copies, or LDS-direct loads),
 * and the wait must still wait for it.
 *
 * Each group's part of `out` (3 n floats): stage -> out[0, n), stage ->
 * out[n, 2n), then src's part -> tile, read back as out[2n, 3n) = tile + 1.
 * phi: the first event comes through an if (an OpPhi or a variable of two
 * stores), by the group's parity. */
kernel void chain_out_in(global const float *src, global float *out, local float *stage, local float *tile,
                         ulong n, int phi) {
  size_t g = get_group_id(0), l = get_local_id(0), ls = get_local_size(0);
  global float *o = out + g * 3 * n;
  for (size_t i = l; i < n; i += ls)
    stage[i] = (float)(g * 1000 + i);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e;
  if (phi && (g & 1))
    e = async_work_group_strided_copy(o, stage, n, 1, 0);
  else
    e = async_work_group_copy(o, stage, n, 0);
  async_work_group_copy(o + n, stage, n, e);
  async_work_group_copy_2D2D(tile, 0, src, g * n, sizeof(float), n / 2, 2, n / 2, n / 2, e);
  wait_group_events(1, &e);
  for (size_t i = l; i < n; i += ls)
    o[2 * n + i] = tile[i] + 1.0f;
}

/* The same chain the other way round: a copy in starts the event, copies
 * out of another local buffer join it, and the wait names the last one's
 * event (the value the copy in returned is never stored). */
kernel void chain_in_out(global const float *src, global float *out, local float *stage, local float *tile,
                         ulong n, int phi) {
  size_t g = get_group_id(0), l = get_local_id(0), ls = get_local_size(0);
  global float *o = out + g * 3 * n;
  for (size_t i = l; i < n; i += ls)
    stage[i] = (float)(g * 1000 + i);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t first = async_work_group_copy_2D2D(tile, 0, src, g * n, sizeof(float), n / 2, 2, n / 2, n / 2, 0);
  event_t e;
  if (phi && (g & 1))
    e = async_work_group_strided_copy(o, stage, n, 1, first);
  else
    e = async_work_group_copy(o, stage, n, first);
  e = async_work_group_copy(o + n, stage, n, e);
  wait_group_events(1, &e);
  for (size_t i = l; i < n; i += ls)
    o[2 * n + i] = tile[i] + 1.0f;
}
