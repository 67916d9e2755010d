// pow, fabs, floor, fmin, fmax and mad over reals of both signs.
kernel void pow_minmax(global const float *a, global const float *b, global float *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
#if GAC_ASYNC
  local float as[64], bs[64]; // local size 64: 2 lines of 32
  event_t e = async_work_group_copy_2D2D(as, 0, a, get_group_id(0) * 64, sizeof(float), 32, 2, 32, 32, 0);
  e = async_work_group_copy_2D2D(bs, 0, b, get_group_id(0) * 64, sizeof(float), 32, 2, 32, 32, e);
  wait_group_events(1, &e);
  float x = as[get_local_id(0)], y = bs[get_local_id(0)];
#else
  float x = a[i], y = b[i];
#endif
  out[i] = pow(fabs(x), y);
  out[n + i] = floor(x * 4.0f);
  out[2 * n + i] = fmin(x, y) + fmax(x, y) * 2.0f;
  out[3 * n + i] = mad(floor(x), 2.0f, floor(y));
}
