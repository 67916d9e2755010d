// Bitonic sort of each group's L ints in local memory (L a power of two).
static void compare_exchange(local int *v, uint a, uint b, bool up) {
  int x = v[a], y = v[b];
  if ((x > y) == up) {
    v[a] = y;
    v[b] = x;
  }
}

kernel void bitonic(global const int *in, global int *out, local int *v) {
  uint lid = get_local_id(0), L = get_local_size(0);
  size_t base = get_group_id(0) * L;
#if GAC_ASYNC
  event_t e = async_work_group_copy_2D2D(v, 0, in, base, sizeof(int), L / 4, 4, L / 4, L / 4, 0);
  wait_group_events(1, &e);
#else
  v[lid] = in[base + lid];
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  for (uint k = 2; k <= L; k <<= 1)
    for (uint j = k >> 1; j > 0; j >>= 1) {
      uint partner = lid ^ j;
      if (partner > lid)
        compare_exchange(v, lid, partner, (lid & k) == 0);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  out[base + lid] = v[lid];
}
