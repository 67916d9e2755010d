// Work-efficient exclusive scan (Blelloch) of 2L uints per group: up-sweep,
// clear the root, down-sweep. Built as OpenCL C 2.0.
kernel void scan_exclusive(global const uint *in, global uint *out, local uint *t) {
  int lid = get_local_id(0), n = 2 * get_local_size(0);
  size_t base = get_group_id(0) * n;
#if GAC_ASYNC
  event_t e = async_work_group_copy_2D2D(t, 0, in, base, sizeof(uint), n / 2, 2, n / 2, n / 2, 0);
  wait_group_events(1, &e);
#else
  t[2 * lid] = in[base + 2 * lid];
  t[2 * lid + 1] = in[base + 2 * lid + 1];
#endif
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
      t[bi] += t[ai];
    }
    offset *= 2;
  }
  if (lid == 0)
    t[n - 1] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
      uint v = t[ai];
      t[ai] = t[bi];
      t[bi] += v;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * lid] = t[2 * lid];
  out[base + 2 * lid + 1] = t[2 * lid + 1];
}
