// Local memory, barriers and a work-group tree reduction.
kernel void local_barrier(global const float *in, global float *out,
                          local float *scratch) {
  local int counts[64];
  size_t lid = get_local_id(0);
  size_t lsz = get_local_size(0);
  scratch[lid] = in[get_global_id(0)];
  if (lid < 64)
    counts[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = lsz / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid < 64)
    counts[lid] = (int)scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (lid == 0)
    out[get_group_id(0)] = scratch[0] + (float)counts[lsz % 64];
  mem_fence(CLK_GLOBAL_MEM_FENCE);
}
