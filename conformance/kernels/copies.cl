/* Conformance kernels for GroupAsyncCopy2D2D/3D3D. Every size, offset and
 * stride is a kernel argument (runtime operands), counted in elements of
 * `bpe` bytes; each work-group copies its own tile, `group_stride` elements
 * further on in global memory. */

/* global -> local (2D), then local -> global (2D). */
kernel void copy2d(global const uchar *src, global uchar *dst, local uchar *tile, ulong bpe,
                   ulong per_line, ulong lines, ulong src_off, ulong src_line, ulong tile_off,
                   ulong tile_line, ulong dst_off, ulong dst_line, ulong group_stride) {
  ulong g = get_group_id(0) * group_stride;
  event_t e = async_work_group_copy_2D2D(tile, tile_off, src, src_off + g, bpe, per_line, lines,
                                         src_line, tile_line, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy_2D2D(dst, dst_off + g, tile, tile_off, bpe, per_line, lines, tile_line,
                                 dst_line, 0);
  wait_group_events(1, &e);
}

/* global -> local (3D), then local -> global (3D). */
kernel void copy3d(global const uchar *src, global uchar *dst, local uchar *tile, ulong bpe,
                   ulong per_line, ulong lines, ulong planes, ulong src_off, ulong src_line,
                   ulong src_plane, ulong tile_off, ulong tile_line, ulong tile_plane, ulong dst_off,
                   ulong dst_line, ulong dst_plane, ulong group_stride) {
  ulong g = get_group_id(0) * group_stride;
  event_t e = async_work_group_copy_3D3D(tile, tile_off, src, src_off + g, bpe, per_line, lines,
                                         planes, src_line, src_plane, tile_line, tile_plane, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy_3D3D(dst, dst_off + g, tile, tile_off, bpe, per_line, lines, planes,
                                 tile_line, tile_plane, dst_line, dst_plane, 0);
  wait_group_events(1, &e);
}

/* OpenCL's own 1D copies (core OpGroupAsyncCopy, which the PTX path lowers
 * too): global -> local with a stride, then local -> global. */
kernel void copy1d(global const float *src, global float *dst, local float *tile, ulong n, ulong stride) {
  size_t g = get_group_id(0);
  event_t e = async_work_group_strided_copy(tile, src + g * n * stride, n, stride, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy(dst + g * n, tile, n, 0);
  wait_group_events(1, &e);
}
