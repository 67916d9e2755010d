/* The tile shapes of gac-bench-tiles, shared by the host (tile_sweep.c) and
 * the gac kernels (tiles.cl, one constant-shape kernel per shape).
 *
 * SHAPE(id, dims, bpe, per_line, lines, planes, pitch, plane, tiles_x, groups):
 * a work-group copies tile `group` of a matrix (2D) or volume (3D) of tiles,
 * tiles_x of them across; per_line x lines (x planes) elements of bpe bytes;
 * pitch and plane are the matrix's line and plane strides in elements. */
#define GAC_TILE_SHAPES(SHAPE)                                            \
  SHAPE(b16x8, 2, 1, 16, 8, 1, 64, 0, 4, 4096)                            \
  SHAPE(b1024x32, 2, 1, 1024, 32, 1, 4096, 0, 4, 256)                     \
  SHAPE(e3_64x16, 2, 3, 64, 16, 1, 80, 0, 1, 1024)                        \
  SHAPE(f64x32, 2, 4, 64, 32, 1, 4096, 0, 64, 8192)                       \
  SHAPE(f256x16, 2, 4, 256, 16, 1, 4096, 0, 16, 1024)                     \
  SHAPE(f3d64x16x8, 3, 4, 64, 16, 8, 256, 8192, 4, 256)                   \
  SHAPE(e12_64x64, 2, 12, 64, 64, 1, 80, 0, 1, 128)                       \
  SHAPE(e16_32x32, 2, 16, 32, 32, 1, 128, 0, 4, 512)
