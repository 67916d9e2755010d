// RGBA (uchar4) to grey: a weighted sum in float, rounded to nearest even
// and saturated (ties do occur: the weights are quarters).
kernel void rgba_to_gray(global const uchar4 *in, global uchar *out, int width) {
  int x = get_global_id(0), y = get_global_id(1);
  const float4 w = (float4)(0.25f, 0.5f, 0.25f, 0.0f);
#if GAC_ASYNC
  local uchar4 tile[8][16]; // local size 16 x 8
  event_t e = async_work_group_copy_2D2D(tile, 0, in, get_group_id(1) * 8 * width + get_group_id(0) * 16,
                                         sizeof(uchar4), 16, 8, width, 16, 0);
  wait_group_events(1, &e);
  uchar4 p = tile[get_local_id(1)][get_local_id(0)];
#else
  uchar4 p = in[y * width + x];
#endif
  out[y * width + x] = convert_uchar_sat_rte(dot(convert_float4(p), w) * 1.5f);
}
