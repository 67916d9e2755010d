// Double precision (cl_khr_fp64): arithmetic, vectors, math and conversions.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

double poly(double x) {
  return ((0.5 * x + 1.25) * x - 3.0) * x + 0x1.8p-3;
}

kernel void double_fp64(global const double *in, global double2 *vin,
                        global float *fout, global long *lout) {
  size_t i = get_global_id(0);
  double x = in[i];
  double y = poly(x) + sqrt(fabs(x)) + exp(x * 0.25) + fma(x, x, 1.0);
  double2 v = vin[i];
  v = v * (double2)(y, -y) + (double2)(DBL_EPSILON, M_PI);
  vin[i] = v.yx;
  fout[i] = (float)(y + v.x);
  lout[i] = convert_long_rte(y * 1e6) + (long)isnan(x);
}
