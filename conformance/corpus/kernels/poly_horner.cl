// Polynomial evaluation by Horner's rule in a helper function, with the
// coefficients as a __constant kernel argument.
#ifndef DEGREE
#define DEGREE 7
#endif

static float horner(constant float *c, float x) {
  float r = c[DEGREE];
  for (int k = DEGREE - 1; k >= 0; k--)
    r = r * x + c[k];
  return r;
}

kernel void poly_horner(global const float *x, constant float *coef, global float *y) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local float xs[64]; // local size 64: 2 lines of 32
  event_t e = async_work_group_copy_2D2D(xs, 0, x, get_group_id(0) * 64, sizeof(float), 32, 2, 32, 32, 0);
  wait_group_events(1, &e);
  y[i] = horner(coef, xs[get_local_id(0)]);
#else
  y[i] = horner(coef, x[i]);
#endif
}
