/* Kernels for learning the kernel ABI of NVIDIA's OpenCL compiler
 * (nvcl-dump; docs/VENDOR.md): each touches one kind of argument or builtin. */
kernel void args(global float *g, constant float *c, local float *l, int i, float f, long j, uchar u,
                 global const uchar *b, float4 v) {
  size_t x = get_global_id(0);
  l[get_local_id(0)] = g[x] + c[1] + f + i + j + u + b[x] + v.z;
  barrier(CLK_LOCAL_MEM_FENCE);
  g[x] = l[(get_local_id(0) + 1) % get_local_size(0)];
}

kernel void two_locals(global int *g, local int *a, local int *b) {
  a[get_local_id(0)] = 1;
  b[get_local_id(0)] = 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  g[get_global_id(0)] = a[0] + b[get_local_size(0) - 1];
}

kernel void builtins(global ulong *o) {
  size_t x = ((get_global_id(2) - get_global_offset(2)) * get_global_size(1) + get_global_id(1) - get_global_offset(1)) *
                 get_global_size(0) + get_global_id(0) - get_global_offset(0);
  o[16 * x + 0] = get_global_id(0);
  o[16 * x + 1] = get_global_id(1);
  o[16 * x + 2] = get_global_id(2);
  o[16 * x + 3] = get_local_id(0);
  o[16 * x + 4] = get_local_id(1);
  o[16 * x + 5] = get_group_id(0);
  o[16 * x + 6] = get_group_id(1);
  o[16 * x + 7] = get_local_size(0);
  o[16 * x + 8] = get_num_groups(0);
  o[16 * x + 9] = get_global_size(0);
  o[16 * x + 10] = get_global_offset(0);
  o[16 * x + 11] = get_global_offset(1);
  o[16 * x + 12] = get_work_dim();
  o[16 * x + 13] = get_local_size(1);
  o[16 * x + 14] = get_num_groups(1);
  o[16 * x + 15] = get_global_offset(2);
}

kernel void static_local(global int *g) {
  local int t[64];
  t[get_local_id(0) % 64] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  g[get_global_id(0)] = t[63 - get_local_id(0) % 64];
}

kernel __attribute__((reqd_work_group_size(64, 2, 1))) void reqd(global int *g) {
  g[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 1;
}

kernel void async(global float *g, local float *l, int n) {
  event_t e = async_work_group_copy(l, g + get_group_id(0) * n, n, 0);
  wait_group_events(1, &e);
  g[get_global_id(0)] = l[get_local_id(0)] * 2;
}

/* The export reads what the import wrote: a wait between (without it the
 * kernel races, which NVIDIA's synchronous copies hide and cp.async does
 * not: byte 4096 differed once local arguments were 16-byte aligned). */
kernel void strided(global float *g, local float *l, int n) {
  event_t e = async_work_group_strided_copy(l, g, n, 4, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy(g + 1024, l, n, 0);
  wait_group_events(1, &e);
}
