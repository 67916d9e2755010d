// Float library functions over x in [0.5, 3]: five results per input.
// Also built with -cl-fast-relaxed-math (entry float_math_fast).

kernel void float_math(global const float *x, global float *out) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local float xs[64]; // local size 64: 4 lines of 16
  event_t e = async_work_group_copy_2D2D(xs, 0, x, get_group_id(0) * 64, sizeof(float), 16, 4, 16, 16, 0);
  wait_group_events(1, &e);
  float v = xs[get_local_id(0)];
#else
  float v = x[i];
#endif
  size_t n = get_global_size(0);
  out[i] = sqrt(v);
  out[n + i] = exp(v);
  out[2 * n + i] = log(v);
  out[3 * n + i] = sin(v * 2.0f);
  out[4 * n + i] = cos(v * 2.0f);
}
