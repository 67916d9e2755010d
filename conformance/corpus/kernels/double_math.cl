// Double-precision library functions (cl_khr_fp64).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void double_math(global const double *x, global double *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
#if GAC_ASYNC
  local double xs[64];
  event_t e = async_work_group_copy_2D2D(xs, 0, x, get_group_id(0) * 64, sizeof(double), 16, 4, 16, 16, 0);
  wait_group_events(1, &e);
  double v = xs[get_local_id(0)];
#else
  double v = x[i];
#endif
  out[i] = sqrt(v);
  out[n + i] = exp(v);
  out[2 * n + i] = log(v);
  out[3 * n + i] = sin(v);
  out[4 * n + i] = cos(v);
}
