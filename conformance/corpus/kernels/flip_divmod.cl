// Mirror an RGBA image left to right and swap red and blue, over a 1D range
// of pixels indexed with i / W and i % W (clang -O2 freezes these).
// Built as OpenCL C 3.0.
kernel void flip_divmod(global const uchar4 *in, global uchar4 *out, int width) {
  int i = get_global_id(0);
  int y = i / width, x = i % width;
#if GAC_ASYNC
  local uchar4 rows[2 * 64]; // a group covers two rows of width <= 64
  event_t e = async_work_group_copy_2D2D(rows, 0, in, get_group_id(0) * 2 * width, sizeof(uchar4), width, 2, width,
                                         width, 0);
  wait_group_events(1, &e);
  uchar4 p = rows[get_local_id(0)];
#else
  uchar4 p = in[i];
#endif
  out[y * width + (width - 1 - x)] = p.zyxw;
}
