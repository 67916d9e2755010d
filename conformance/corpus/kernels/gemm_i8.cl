// int8 matrix product with int accumulation (C = A B, n x n, char inputs),
// TS x TS tiles in local memory.
#ifndef TS
#define TS 8
#endif

kernel void gemm_i8(global const char *A, global const char *B, global int *C, int n) {
  local char As[TS][TS], Bs[TS][TS];
  int lx = get_local_id(0), ly = get_local_id(1), col = get_global_id(0), row = get_global_id(1);
  int acc = 0;
  for (int t = 0; t < n; t += TS) {
#if GAC_ASYNC
    event_t e = async_work_group_copy_2D2D(As, 0, A, get_group_id(1) * TS * n + t, 1, TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * n + get_group_id(0) * TS, 1, TS, TS, n, TS, e);
    wait_group_events(1, &e);
#else
    As[ly][lx] = A[row * n + t + lx];
    Bs[ly][lx] = B[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    for (int k = 0; k < TS; k++)
      acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
