// Weighted histogram with 64-bit atomics (cl_khr_int64_base_atomics): 16
// bins of ulong sums, local then global.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

kernel void histogram_atom64(global const uchar *keys, global const ulong *weights, global ulong *bins) {
  local ulong hist[16];
  size_t lid = get_local_id(0), L = get_local_size(0), i = get_global_id(0);
  if (lid < 16)
    hist[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
#if GAC_ASYNC
  local uchar k[64]; // L <= 64, even
  event_t e = async_work_group_copy_2D2D(k, 0, keys, get_group_id(0) * L, 1, L / 2, 2, L / 2, L / 2, 0);
  wait_group_events(1, &e);
  uchar key = k[lid];
#else
  uchar key = keys[i];
#endif
  atom_add(&hist[key & 15], weights[i]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16)
    atom_add(&bins[lid], hist[lid]);
}
