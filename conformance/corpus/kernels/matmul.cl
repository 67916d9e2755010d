// Tiled matrix multiply C = A B of n x n matrices: each work-group computes a
// TS x TS block of C, walking the tiles of A's rows and B's columns through
// local memory. REAL: float (default) or double.
#ifndef REAL
#define REAL float
#endif
#ifndef TS
#define TS 8
#endif

kernel void matmul(global const REAL *A, global const REAL *B, global REAL *C, int n) {
  local REAL As[TS][TS], Bs[TS][TS];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  int row0 = get_group_id(1) * TS, col0 = get_group_id(0) * TS;
  REAL acc = 0;
  for (int t = 0; t < n / TS; t++) {
#if GAC_ASYNC
    event_t e = async_work_group_copy_2D2D(As, 0, A, row0 * n + t * TS, sizeof(REAL), TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * TS * n + col0, sizeof(REAL), TS, TS, n, TS, e);
    wait_group_events(1, &e);
#else
    As[ly][lx] = A[row * n + t * TS + lx];
    Bs[ly][lx] = B[(t * TS + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    for (int k = 0; k < TS; k++)
      acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
