/* gac-bench-tiles: the copies gac lowers. Each work-group copies its tile
 * global -> local, waits, then local -> global, waits (two 2D/3D copies).
 * tile2d/tile3d take every size as an argument (runtime operands); the
 * c_<shape> kernels have them as constants (tile_shapes.h). */

/* The first element of tile g: tiles_x tiles across each band of
 * lines (2D) or planes (3D). */
#define TILE_BASE(g, per_line, band, tiles_x) (((g) / (tiles_x)) * (band) + ((g) % (tiles_x)) * (per_line))

kernel void tile2d(global const uchar *src, global uchar *dst, local uchar *tile, ulong bpe, ulong per_line,
                   ulong lines, ulong pitch, ulong tiles_x) {
  ulong base = TILE_BASE(get_group_id(0), per_line, lines * pitch, tiles_x);
  event_t e = async_work_group_copy_2D2D(tile, 0, src, base, bpe, per_line, lines, pitch, per_line, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy_2D2D(dst, base, tile, 0, bpe, per_line, lines, per_line, pitch, 0);
  wait_group_events(1, &e);
}

kernel void tile3d(global const uchar *src, global uchar *dst, local uchar *tile, ulong bpe, ulong per_line,
                   ulong lines, ulong planes, ulong pitch, ulong plane, ulong tiles_x) {
  ulong base = TILE_BASE(get_group_id(0), per_line, planes * plane, tiles_x);
  event_t e = async_work_group_copy_3D3D(tile, 0, src, base, bpe, per_line, lines, planes, pitch, plane, per_line,
                                         per_line * lines, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy_3D3D(dst, base, tile, 0, bpe, per_line, lines, planes, per_line, per_line * lines,
                                 pitch, plane, 0);
  wait_group_events(1, &e);
}

#include "tile_shapes.h"

#define CONST_2D(id, bpe, per_line, lines, pitch, tiles_x)                                                   \
  kernel void c_##id(global const uchar *src, global uchar *dst, local uchar *tile) {                        \
    ulong base = TILE_BASE(get_group_id(0), per_line, lines * pitch, tiles_x);                               \
    event_t e = async_work_group_copy_2D2D(tile, 0, src, base, bpe, per_line, lines, pitch, per_line, 0);    \
    wait_group_events(1, &e);                                                                                \
    e = async_work_group_copy_2D2D(dst, base, tile, 0, bpe, per_line, lines, per_line, pitch, 0);            \
    wait_group_events(1, &e);                                                                                \
  }
#define CONST_3D(id, bpe, per_line, lines, planes, pitch, plane, tiles_x)                                    \
  kernel void c_##id(global const uchar *src, global uchar *dst, local uchar *tile) {                        \
    ulong base = TILE_BASE(get_group_id(0), per_line, planes * plane, tiles_x);                              \
    event_t e = async_work_group_copy_3D3D(tile, 0, src, base, bpe, per_line, lines, planes, pitch, plane,   \
                                           per_line, per_line * lines, 0);                                   \
    wait_group_events(1, &e);                                                                                \
    e = async_work_group_copy_3D3D(dst, base, tile, 0, bpe, per_line, lines, planes, per_line,               \
                                   per_line * lines, pitch, plane, 0);                                       \
    wait_group_events(1, &e);                                                                                \
  }
#define CONST_KERNEL(id, dims, bpe, per_line, lines, planes, pitch, plane, tiles_x, groups) \
  CONST_##dims##D_(id, bpe, per_line, lines, planes, pitch, plane, tiles_x)
#define CONST_2D_(id, bpe, per_line, lines, planes, pitch, plane, tiles_x) \
  CONST_2D(id, bpe, per_line, lines, pitch, tiles_x)
#define CONST_3D_(id, bpe, per_line, lines, planes, pitch, plane, tiles_x) \
  CONST_3D(id, bpe, per_line, lines, planes, pitch, plane, tiles_x)
GAC_TILE_SHAPES(CONST_KERNEL)
