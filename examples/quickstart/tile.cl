/* The quick start's kernel (README.md): each work-group copies a 16x16 tile
 * of a row-major matrix into local memory with one 2D copy, scales it, and
 * writes it back with another. */
#define TILE 16

kernel void scale_tiles(global const float *in, global float *out, ulong width, float factor) {
  local float tile[TILE * TILE];
  ulong corner = get_group_id(1) * TILE * width + get_group_id(0) * TILE;
  /* dst, dst offset, src, src offset, bytes per element, elements per line,
   * lines, src line length, dst line length (in elements), event */
  event_t e = async_work_group_copy_2D2D(tile, 0, in, corner, sizeof(float), TILE, TILE, width, TILE, 0);
  wait_group_events(1, &e);
  tile[get_local_id(1) * TILE + get_local_id(0)] *= factor;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy_2D2D(out, corner, tile, 0, sizeof(float), TILE, TILE, TILE, width, 0);
  wait_group_events(1, &e);
}
