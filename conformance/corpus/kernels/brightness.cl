// Brightness and contrast on RGBA pixels in integer vector arithmetic:
// (p - 128) * gain / 16 + 128 + bias, saturated; alpha kept.
kernel void brightness(global const uchar4 *in, global uchar4 *out, int gain, int bias) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local uchar4 px[64]; // local size 64: four lines of 16 pixels
  event_t e = async_work_group_copy_2D2D(px, 0, in, get_group_id(0) * 64, sizeof(uchar4), 16, 4, 16, 16, 0);
  wait_group_events(1, &e);
  uchar4 p = px[get_local_id(0)];
#else
  uchar4 p = in[i];
#endif
  int4 v = (convert_int4(p) - 128) * gain / 16 + 128 + bias;
  uchar4 r = convert_uchar4_sat(v);
  r.w = p.w;
  out[i] = r;
}
