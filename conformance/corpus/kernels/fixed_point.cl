// Q16.16 fixed-point products through mul_hi and the low word, and mad24.
kernel void fixed_point(global const int *a, global const int *b, global int *r) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local int ab[2][64]; // local size 64: a's and b's lines in one 2D copy each
  event_t e = async_work_group_copy_2D2D(ab[0], 0, a, get_group_id(0) * 64, sizeof(int), 64, 1, 64, 64, 0);
  e = async_work_group_copy_2D2D(ab[1], 0, b, get_group_id(0) * 64, sizeof(int), 64, 1, 64, 64, e);
  wait_group_events(1, &e);
  int x = ab[0][get_local_id(0)], y = ab[1][get_local_id(0)];
#else
  int x = a[i], y = b[i];
#endif
  r[2 * i] = (int)((uint)mul_hi(x, y) << 16 | ((uint)x * (uint)y) >> 16);
  r[2 * i + 1] = mad24(x >> 20, y >> 20, x & 0xffff); // operands within 24 bits
}
