/* The pipelined 2D tile copy of the PTX benchmark (bench/cuda/bench.cu):
 * each work-group streams `count` tiles of W x H floats of a matrix that is
 * tiles_x tiles wide through a ring of STAGES tiles in local memory:
 * global -> local 2D copies committed to async queue 0, wait(0, STAGES - 1)
 * for the oldest, then a local -> global 2D copy of it. Prologue, body and
 * epilogue are written out so that every wait count is a constant. */
#ifndef W /* lit ptx/sm90-ring builds it with lines long enough for bulk copies */
#define W 64
#define H 32
#endif
#define STAGES 3

static event_t fetch(global const float *in, local float *ring, ulong slot, ulong t, ulong tiles_x) {
  ulong ty = t / tiles_x, tx = t - ty * tiles_x;
  return async_work_group_copy_2D2D(ring, slot * W * H, in, (ty * H * tiles_x + tx) * W, sizeof(float), W, H,
                                    tiles_x * W, W, 0);
}

static void store(global float *out, local float *ring, ulong slot, ulong t, ulong tiles_x) {
  ulong ty = t / tiles_x, tx = t - ty * tiles_x;
  event_t e = async_work_group_copy_2D2D(out, (ty * H * tiles_x + tx) * W, ring, slot * W * H, sizeof(float), W,
                                         H, W, tiles_x * W, 0);
  wait_group_events(1, &e);
}

/* count >= STAGES - 1 */
kernel void tile_copy(global const float *in, global float *out, ulong tiles_x, ulong count, local float *ring) {
  ulong first = get_group_id(0) * count;
  gac_async_commit(0, fetch(in, ring, 0, first, tiles_x));
  gac_async_commit(0, fetch(in, ring, 1, first + 1, tiles_x));
  for (ulong i = 0; i + 2 < count; i++) {
    gac_async_commit(0, fetch(in, ring, (i + 2) % STAGES, first + i + 2, tiles_x));
    gac_async_wait(0, 2);
    store(out, ring, i % STAGES, first + i, tiles_x);
  }
  gac_async_wait(0, 1);
  store(out, ring, (count - 2) % STAGES, first + count - 2, tiles_x);
  gac_async_wait(0, 0);
  store(out, ring, (count - 1) % STAGES, first + count - 1, tiles_x);
}
