// One kernel per OpenCL C math function and type, for the accuracy suite
// (math_table.c): f_NAME (float), v_NAME (float4: the lane-by-lane path of
// vector builtins), d_NAME (double). Each kernel applies NAME to the
// inputs of item i. Built once as is and once with -cl-fast-relaxed-math.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define UNARY(f)                                                                        \
  kernel void f_##f(global const float *x, global float *y) {                           \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i]);                                                                     \
  }                                                                                     \
  kernel void v_##f(global const float4 *x, global float4 *y) {                         \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i]);                                                                     \
  }                                                                                     \
  kernel void d_##f(global const double *x, global double *y) {                         \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i]);                                                                     \
  }
#define BINARY(f)                                                                       \
  kernel void f_##f(global const float *x, global const float *z, global float *y) {    \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i], z[i]);                                                               \
  }                                                                                     \
  kernel void v_##f(global const float4 *x, global const float4 *z, global float4 *y) { \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i], z[i]);                                                               \
  }                                                                                     \
  kernel void d_##f(global const double *x, global const double *z, global double *y) { \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i], z[i]);                                                               \
  }
#define WITH_INT(f)                                                                     \
  kernel void f_##f(global const float *x, global const int *n, global float *y) {      \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i], n[i]);                                                               \
  }                                                                                     \
  kernel void v_##f(global const float4 *x, global const int4 *n, global float4 *y) {   \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i], n[i]);                                                               \
  }                                                                                     \
  kernel void d_##f(global const double *x, global const int *n, global double *y) {    \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i], n[i]);                                                               \
  }

#define FLOAT_ONLY(f)                                                                   \
  kernel void f_##f(global const float *x, global float *y) {                           \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i]);                                                                     \
  }                                                                                     \
  kernel void v_##f(global const float4 *x, global float4 *y) {                         \
    size_t i = get_global_id(0);                                                        \
    y[i] = f(x[i]);                                                                     \
  }

#include "math_functions.h"
