// 64-bin histogram of bytes (value >> 2): a private-per-group histogram in
// local memory with local atomics, merged into the global one with global
// atomics. Built as OpenCL C 2.0.
#define BINS 64

kernel void histogram_local(global const uchar *data, global uint *bins, uint per_group) {
  local uint hist[BINS];
  size_t lid = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * per_group;
  for (size_t i = lid; i < BINS; i += L)
    hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
#if GAC_ASYNC
  local uchar tile[1024]; // per_group <= 1024, a multiple of 32
  event_t e = async_work_group_copy_2D2D(tile, 0, data, base, 1, 32, per_group / 32, 32, 32, 0);
  wait_group_events(1, &e);
  for (size_t i = lid; i < per_group; i += L)
    atomic_inc(&hist[tile[i] >> 2]);
#else
  for (size_t i = lid; i < per_group; i += L)
    atomic_inc(&hist[data[base + i] >> 2]);
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = lid; i < BINS; i += L)
    atomic_add(&bins[i], hist[i]);
}
