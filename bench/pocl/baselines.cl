/* gac-bench-tiles: the hand-written kernels gac is measured against, plain
 * OpenCL C that PoCL builds from source. Each does what tiles.cl does
 * (global -> local tile -> global). T is the widest unit (uchar, uint,
 * uint2, uint4) that divides every address and stride, picked by the host
 * as a programmer would; counts and strides are in units of T. With
 * -DC_SHAPE the shape is a constant (-DC_UNITS=... and so on), as in the
 * c_<shape> kernels of tiles.cl. 2D tiles have planes = 1. */
#ifndef T
#define T uchar
#endif

#ifdef C_SHAPE
#define SHAPE() (units = C_UNITS, lines = C_LINES, planes = C_PLANES, pitch = C_PITCH, plane = C_PLANE, \
                 tiles_x = C_TILES_X)
#else
#define SHAPE() ((void)0)
#endif
#define ARGS ulong units, ulong lines, ulong planes, ulong pitch, ulong plane, ulong tiles_x
/* The tile's first unit: tiles_x tiles across each band of planes (3D) or lines (2D). */
#define BASE() ((get_group_id(0) / tiles_x) * (planes > 1 ? planes * plane : lines * pitch) + \
                (get_group_id(0) % tiles_x) * units)

/* One async_work_group_copy per line, chained on one event. */
kernel void awgc_lines(global const T *src, global T *dst, local T *tile, ARGS) {
  SHAPE();
  ulong base = BASE();
  event_t e = 0;
  for (ulong p = 0; p < planes; p++)
    for (ulong l = 0; l < lines; l++)
      e = async_work_group_copy(tile + (p * lines + l) * units, src + base + p * plane + l * pitch, units, e);
  wait_group_events(1, &e);
  event_t back = 0;
  for (ulong p = 0; p < planes; p++)
    for (ulong l = 0; l < lines; l++)
      back = async_work_group_copy(dst + base + p * plane + l * pitch, tile + (p * lines + l) * units, units, back);
  wait_group_events(1, &back);
}

/* Work-item 0 copies byte by byte (what Codeplay's kit does). */
kernel void byte_loop(global const uchar *src, global uchar *dst, local uchar *tile, ARGS) {
  SHAPE();
  ulong base = BASE() * sizeof(T), bytes = units * sizeof(T);
  if (get_local_id(0) == 0)
    for (ulong l = 0; l < planes * lines; l++)
      for (ulong i = 0; i < bytes; i++)
        tile[l * bytes + i] = src[base + (l / lines) * plane * sizeof(T) + (l % lines) * pitch * sizeof(T) + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    for (ulong l = 0; l < planes * lines; l++)
      for (ulong i = 0; i < bytes; i++)
        dst[base + (l / lines) * plane * sizeof(T) + (l % lines) * pitch * sizeof(T) + i] = tile[l * bytes + i];
  barrier(CLK_GLOBAL_MEM_FENCE);
}

/* The work-items take units id, id + size, ... of the whole tile. */
kernel void cooperative(global const T *src, global T *dst, local T *tile, ARGS) {
  SHAPE();
  ulong base = BASE(), total = planes * lines * units, id = get_local_id(0), size = get_local_size(0);
  for (ulong i = id; i < total; i += size) {
    ulong l = i / units;
    tile[i] = src[base + (l / lines) * plane + (l % lines) * pitch + i % units];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (ulong i = id; i < total; i += size) {
    ulong l = i / units;
    dst[base + (l / lines) * plane + (l % lines) * pitch + i % units] = tile[i];
  }
}
