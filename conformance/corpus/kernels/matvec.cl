// y = A x with one work-group per row: partial dot products, then a tree
// reduction in local memory.
kernel void matvec(global const float *A, global const float *x, global float *y, int n, local float *part) {
  size_t row = get_group_id(0), lid = get_local_id(0), L = get_local_size(0);
#if GAC_ASYNC
  local float arow[256]; // n <= 256, a multiple of 16: the row as lines of 16
  event_t e = async_work_group_copy_2D2D(arow, 0, A, row * n, sizeof(float), 16, n / 16, 16, 16, 0);
  wait_group_events(1, &e);
#define AROW(k) arow[k]
#else
#define AROW(k) A[row * n + (k)]
#endif
  float s = 0.0f;
  for (int k = lid; k < n; k += L)
    s += AROW(k) * x[k];
  part[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t h = L / 2; h > 0; h >>= 1) {
    if (lid < h)
      part[lid] += part[lid + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    y[row] = part[0];
}
