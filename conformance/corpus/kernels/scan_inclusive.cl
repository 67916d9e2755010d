// Inclusive prefix sum of each group's L ints (Hillis-Steele), ping-ponging
// between two local arrays.
#define ROWS 8 // the async variant stages the group's block as ROWS lines

kernel void scan_inclusive(global const int *in, global int *out, local int *a, local int *b) {
  size_t lid = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L;
#if GAC_ASYNC
  event_t e = async_work_group_copy_2D2D(a, 0, in, base, sizeof(int), L / ROWS, ROWS, L / ROWS, L / ROWS, 0);
  wait_group_events(1, &e);
#else
  a[lid] = in[base + lid];
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  for (size_t offset = 1; offset < L; offset *= 2) {
    b[lid] = lid >= offset ? a[lid] + a[lid - offset] : a[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *t = a;
    a = b;
    b = t;
  }
  out[base + lid] = a[lid];
}
