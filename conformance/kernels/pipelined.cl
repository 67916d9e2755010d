/* Software-pipelined tiled kernels (gac-opt --pipeline-loops). Built with
 * -DSTAGES=2, 3 or 4; the same source built without --pipeline-loops is the
 * unpipelined kernel the pipelined ones must match. The copies of stage 0
 * run STAGES - 1 tiles ahead of the computation that reads them. */
#ifndef STAGES
#define STAGES 2
#endif
#define LAST (STAGES - 1)
#define MID (STAGES > 2 ? STAGES - 2 : 1)
#define TS 16
/* -DGAC_REQD_WG: a required work-group size, which a warp-specialised
 * loop needs (--pipeline-loops=warp-specialize adds a producer warp). */
#ifdef GAC_REQD_WG
#define REQD __attribute__((reqd_work_group_size(TS, TS, 1)))
#else
#define REQD
#endif

/* C = A B for n x n matrices, n a multiple of TS, A starting `off` floats
 * into its buffer: each group walks the n / TS tiles of its row of A and
 * column of B. */
/* Inlined into each kernel (matmul_called below keeps it in a helper). */
static inline __attribute__((always_inline)) void matmul_tiles(global const float *A, global const float *B,
                                                               global float *C, uint n, uint off, local float *As,
                                                               local float *Bs) {
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint gx = get_group_id(0) * TS, gy = get_group_id(1) * TS;
  float acc = 0;
  for (uint t = 0; t < n / TS; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, off + gy * n + t * TS, sizeof(float), TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * TS * n + gx, sizeof(float), TS, TS, n, TS, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(LAST, 1);
    for (uint k = 0; k < TS; k++)
      acc += As[ly * TS + k] * Bs[k * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[(gy + ly) * n + gx + lx] = acc;
}

kernel REQD void matmul(global const float *A, global const float *B, global float *C, uint n) {
  local float As[TS * TS], Bs[TS * TS];
  matmul_tiles(A, B, C, n, 0, As, Bs);
}

/* A `off` floats into its buffer: with off = 1, A's tiles are not 16-byte
 * aligned (--pipeline-loops=wide-copies: the loop runs as written). */
kernel REQD void matmul_off(global const float *A, global const float *B, global float *C, uint n, uint off) {
  local float As[TS * TS], Bs[TS * TS];
  matmul_tiles(A, B, C, n, off, As, Bs);
}

/* The same for n = 128 only, a constant: a loop of 8 tiles, whose exit test
 * clang writes on the counter before its step (t < 7). */
kernel REQD void matmul128(global const float *A, global const float *B, global float *C) {
  local float As[TS * TS], Bs[TS * TS];
  matmul_tiles(A, B, C, 128, 0, As, Bs);
}

#ifdef GAC_HELPER_KERNELS
/* The loop in a helper that clang keeps a function (two kernels call it),
 * its tiles __local pointers to each kernel's arrays, as CLBlast's Xgemm
 * is written: the pipeliner makes their versions in the kernels' arrays
 * (lowering/pipeline/pipeline_versions.c). Only in the programs
 * pipelined-helper-*: gac-isa-check does not follow calls (so not on the
 * AMDGCN path's checked list), and the other programs' wait mutants
 * (tests/late/pipelined_mutants.sh) stay those of the kernels' own loops. */
void matmul_called(global const float *A, global const float *B, global float *C, uint n, uint off, local float *As,
                   local float *Bs) {
  matmul_tiles(A, B, C, n, off, As, Bs);
}

kernel REQD void matmul_helper(global const float *A, global const float *B, global float *C, uint n) {
  local float As[TS * TS], Bs[TS * TS];
  matmul_called(A, B, C, n, 0, As, Bs);
}

kernel REQD void matmul_helper_off(global const float *A, global const float *B, global float *C, uint n, uint off) {
  local float As[TS * TS], Bs[TS * TS];
  matmul_called(A, B, C, n, off, As, Bs);
}
#endif

/* A separable 3x3 smoothing over a column of `count` tiles per group: the
 * input is (n + 2) wide with a one-element halo; stage 0 copies a tile with
 * its halo, stage MID smooths rows into a Workgroup array (a synchronous
 * producer, multi-buffered when MID < LAST), stage LAST smooths columns and
 * stores the result. */
kernel REQD void stencil(global const float *in, global float *out, uint n, uint count) {
  local float tile[(TS + 2) * (TS + 2)], rows[(TS + 2) * TS];
  uint lx = get_local_id(0), ly = get_local_id(1), gx = get_group_id(0) * TS, pitch = n + 2;
  for (uint i = 0; i < count; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    uint gy = (get_group_id(1) * count + i) * TS;
    event_t e = async_work_group_copy_2D2D(tile, 0, in, gy * pitch + gx, sizeof(float), TS + 2, TS + 2, pitch,
                                           TS + 2, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(MID, 1);
    for (uint y = ly; y < TS + 2; y += TS) {
      const local float *r = tile + y * (TS + 2) + lx;
      rows[y * TS + lx] = 0.25f * r[0] + 0.5f * r[1] + 0.25f * r[2];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    gac_pipeline_stage(LAST, 2);
    uint oy = (get_group_id(1) * count + i) * TS + ly;
    out[oy * n + gx + lx] = 0.25f * rows[ly * TS + lx] + 0.5f * rows[(ly + 1) * TS + lx] + 0.25f * rows[(ly + 2) * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
