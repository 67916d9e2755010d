// Integer vector arithmetic: int2 (mul_hi, rotate, min, max, abs), short8
// (add_sat, sub_sat, hadd, max, abs), char16 (popcount, clz, rhadd, abs_diff).
// VEC selects the part: 2, 8 or 16.
#if VEC == 2
typedef int2 V;
typedef uint2 U;
#elif VEC == 8
typedef short8 V;
typedef ushort8 U;
#else
typedef char16 V;
typedef uchar16 U;
#endif

kernel void int_vectors(global const V *a, global const V *b, global V *r, global U *u) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local V as[32], bs[32]; // local size 32, two lines of 16 vectors each
  event_t e = async_work_group_copy_2D2D(as, 0, a, get_group_id(0) * 32, sizeof(V), 16, 2, 16, 16, 0);
  e = async_work_group_copy_2D2D(bs, 0, b, get_group_id(0) * 32, sizeof(V), 16, 2, 16, 16, e);
  wait_group_events(1, &e);
  V x = as[get_local_id(0)], y = bs[get_local_id(0)];
#else
  V x = a[i], y = b[i];
#endif
#if VEC == 2
  r[3 * i] = mul_hi(x, y);
  r[3 * i + 1] = rotate(x, y);
  r[3 * i + 2] = min(x, y) ^ max(x, y);
  u[i] = abs(x);
#elif VEC == 8
  r[3 * i] = add_sat(x, y);
  r[3 * i + 1] = sub_sat(x, y);
  r[3 * i + 2] = hadd(x, y) ^ max(x, y);
  u[i] = abs(x);
#else
  r[3 * i] = popcount(x);
  r[3 * i + 1] = clz(x);
  r[3 * i + 2] = rhadd(x, y);
  u[i] = abs_diff(x, y);
#endif
}
