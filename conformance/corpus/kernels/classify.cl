// Classification of float4 lanes (isnan, isinf, isfinite, signbit) with
// any/all and select; one input in eight is turned into an infinity or NaN.
kernel void classify(global const uint4 *bits, global int4 *lanes, global int *groups) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local uint4 bs[32]; // local size 32: 2 lines of 16
  event_t e = async_work_group_copy_2D2D(bs, 0, bits, get_group_id(0) * 32, sizeof(uint4), 16, 2, 16, 16, 0);
  wait_group_events(1, &e);
  uint4 u = bs[get_local_id(0)];
#else
  uint4 u = bits[i];
#endif
  u = select(u, u | 0x7f800000u, (u & 7u) == 0u);
  float4 f = as_float4(u);
  int4 nan = isnan(f), inf = isinf(f);
  lanes[2 * i] = nan * 1 + inf * 2 + isfinite(f) * 4 + signbit(f) * 8; // each a 0 or -1
  lanes[2 * i + 1] = select((int4)(1), (int4)(2), nan | inf);
  groups[i] = any(nan) + 2 * all(isfinite(f)) + 4 * any(inf);
}
