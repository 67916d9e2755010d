// Conversions with saturation and rounding modes: float to int, uchar,
// char and ushort (rte, rtz, rtp, rtn) and int to short, over halves of
// integers (ties occur) and values beyond every range.
kernel void convert_sat(global const float *h, global const int *n, global int *r32, global short *r16,
                        global uchar *r8) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local float hs[64]; // local size 64: 8 lines of 8
  event_t e = async_work_group_copy_2D2D(hs, 0, h, get_group_id(0) * 64, sizeof(float), 8, 8, 8, 8, 0);
  wait_group_events(1, &e);
  float f = hs[get_local_id(0)] * 0.5f;
#else
  float f = h[i] * 0.5f;
#endif
  r32[3 * i] = convert_int_sat(f * 16777216.0f);
  r32[3 * i + 1] = convert_int_rtp(f * 0.25f);
  r32[3 * i + 2] = convert_int_rtn(f * 0.25f);
  r16[2 * i] = convert_short_sat(n[i]);
  r16[2 * i + 1] = as_short(convert_ushort_sat_rte(f * 3.0f));
  r8[2 * i] = convert_uchar_sat_rte(f);
  r8[2 * i + 1] = as_uchar(convert_char_sat_rtz(f * 0.75f));
}
