// Byte histogram with global atomics: each work-item counts PER bytes, read
// with a stride of the group's size.
#define PER 8

kernel void histogram_global(global const uchar *data, global uint *bins) {
  size_t lid = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L * PER;
#if GAC_ASYNC
  local uchar tile[64 * PER]; // L <= 64
  event_t e = async_work_group_copy_2D2D(tile, 0, data, base, 1, L, PER, L, L, 0);
  wait_group_events(1, &e);
  for (int k = 0; k < PER; k++)
    atomic_inc(&bins[tile[k * L + lid]]);
#else
  for (int k = 0; k < PER; k++)
    atomic_inc(&bins[data[base + k * L + lid]]);
#endif
}
