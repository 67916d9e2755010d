// Work-group reduction in local memory: each group folds its 2L elements
// into one with a tree of barriers. T: the element type; -DOP_MAX or
// -DOP_MIN, else a sum (wrapping for the narrow integer types).
#ifndef T
#define T int
#endif
#if defined(OP_MAX)
#define OP(a, b) max(a, b)
#elif defined(OP_MIN)
#define OP(a, b) min(a, b)
#else
#define OP(a, b) ((T)((a) + (b)))
#endif

kernel void reduce(global const T *in, global T *out, local T *scratch) {
  size_t lid = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * 2 * L;
#if GAC_ASYNC
  // The group's 2L elements, two lines of L, staged in one 2D copy.
  event_t e = async_work_group_copy_2D2D(scratch, 0, in, base, sizeof(T), L, 2, L, L, 0);
  wait_group_events(1, &e);
  T first = OP(scratch[lid], scratch[lid + L]);
  barrier(CLK_LOCAL_MEM_FENCE);
  scratch[lid] = first;
#else
  scratch[lid] = OP(in[base + lid], in[base + lid + L]);
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = L / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] = OP(scratch[lid], scratch[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = scratch[0];
}
