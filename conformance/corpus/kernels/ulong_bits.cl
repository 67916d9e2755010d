// 64-bit integer builtins: mul_hi, rotate, popcount, clz on ulong; abs,
// min and shifts on long.
kernel void ulong_bits(global const ulong *a, global const ulong *b, global ulong *r) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local ulong as[64], bs[64]; // local size 64: 8 lines of 8
  event_t e = async_work_group_copy_2D2D(as, 0, a, get_group_id(0) * 64, sizeof(ulong), 8, 8, 8, 8, 0);
  e = async_work_group_copy_2D2D(bs, 0, b, get_group_id(0) * 64, sizeof(ulong), 8, 8, 8, 8, e);
  wait_group_events(1, &e);
  ulong x = as[get_local_id(0)], y = bs[get_local_id(0)];
#else
  ulong x = a[i], y = b[i];
#endif
  long sx = as_long(x), sy = as_long(y);
  r[4 * i] = mul_hi(x, y);
  r[4 * i + 1] = rotate(x, y & 63);
  r[4 * i + 2] = popcount(x) + (clz(y) << 8);
  r[4 * i + 3] = abs(sx >> 3) + as_ulong(min(sx, sy));
}
