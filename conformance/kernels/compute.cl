/* Kernels that compute with what they copied. */

#define T 16 /* tile edge */

/* 5-point stencil over an (n+2) x (n+2) padded input: each group loads its
 * (T+2) x (T+2) tile with its halo in one 2D copy. */
kernel void stencil(global const float *in, global float *out, ulong n, local float *tile) {
  ulong gx = get_group_id(0) * T, gy = get_group_id(1) * T, pitch = n + 2;
  event_t e = async_work_group_copy_2D2D(tile, 0, in, gy * pitch + gx, sizeof(float), T + 2, T + 2,
                                         pitch, T + 2, 0);
  wait_group_events(1, &e);
  size_t x = get_local_id(0) + 1, y = get_local_id(1) + 1;
  float v = tile[y * (T + 2) + x] * 0.5f +
            0.125f * (tile[(y - 1) * (T + 2) + x] + tile[(y + 1) * (T + 2) + x] +
                      tile[y * (T + 2) + x - 1] + tile[y * (T + 2) + x + 1]);
  out[(gy + y - 1) * n + gx + x - 1] = v;
}

/* Tiled transpose of an n x n matrix through local memory: copy a tile in,
 * transpose it in local memory, copy it out to the mirrored place. */
kernel void transpose(global const float *in, global float *out, ulong n, local float *a, local float *b) {
  ulong gx = get_group_id(0) * T, gy = get_group_id(1) * T;
  event_t e = async_work_group_copy_2D2D(a, 0, in, gy * n + gx, sizeof(float), T, T, n, T, 0);
  wait_group_events(1, &e);
  size_t x = get_local_id(0), y = get_local_id(1);
  b[x * T + y] = a[y * T + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy_2D2D(out, gx * n + gy, b, 0, sizeof(float), T, T, T, n, 0);
  wait_group_events(1, &e);
}

/* Each work-item sums rows lid, lid + size, ... of a rows x cols tile. */
void sum_rows(local const float *tile, global float *out, ulong rows, ulong cols) {
  for (size_t r = get_local_id(0); r < rows; r += get_local_size(0)) {
    float s = 0;
    for (ulong c = 0; c < cols; c++)
      s += tile[r * cols + c];
    out[r] = s;
  }
}

/* Double buffering: each group walks `count` tiles of `rows` x `cols` floats
 * (row pitch `pitch`), prefetching tile i+1 while it sums tile i row by row. */
kernel void double_buffer(global const float *in, global float *out, ulong rows, ulong cols,
                          ulong pitch, ulong count, local float *buf) {
  ulong base = get_group_id(0) * count * rows * pitch;
  event_t e = async_work_group_copy_2D2D(buf, 0, in, base, sizeof(float), cols, rows, pitch, cols, 0);
  for (ulong i = 0; i < count; i++) {
    local float *cur = buf + (i & 1) * rows * cols;
    wait_group_events(1, &e);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i + 1 < count)
      e = async_work_group_copy_2D2D(buf, ((i + 1) & 1) * rows * cols, in, base + (i + 1) * rows * pitch,
                                     sizeof(float), cols, rows, pitch, cols, 0);
    sum_rows(cur, out + (get_group_id(0) * count + i) * rows, rows, cols);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* The same with an async queue (NonSemantic.Gac.AsyncPipeline): each
 * prefetch is committed to queue 0, and the wait lets at most one group (the
 * prefetch just issued) stay in flight: the RFC's async_wait_queue(0, 1). */
kernel void queued_double_buffer(global const float *in, global float *out, ulong rows, ulong cols,
                                 ulong pitch, ulong count, local float *buf) {
  ulong base = get_group_id(0) * count * rows * pitch;
  gac_async_commit(0, async_work_group_copy_2D2D(buf, 0, in, base, sizeof(float), cols, rows, pitch, cols, 0));
  for (ulong i = 0; i < count; i++) {
    local float *cur = buf + (i & 1) * rows * cols;
    if (i + 1 < count) {
      gac_async_commit(0, async_work_group_copy_2D2D(buf, ((i + 1) & 1) * rows * cols, in,
                                                     base + (i + 1) * rows * pitch, sizeof(float), cols, rows,
                                                     pitch, cols, 0));
      gac_async_wait(0, 1);
    } else {
      gac_async_wait(0, 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    sum_rows(cur, out + (get_group_id(0) * count + i) * rows, rows, cols);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
