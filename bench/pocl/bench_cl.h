/* What the PoCL benchmarks (pocl_bandwidth.c, tile_sweep.c) share: an
 * OpenCL call that must succeed, the clock, the order of medians, and
 * whole-file reads (gac_read_file, support/subprocess.h). */
#ifndef GAC_BENCH_CL_H
#define GAC_BENCH_CL_H

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "subprocess.h"

#define CHECK_CL(e)                                                        \
  do {                                                                     \
    cl_int e_ = (e);                                                       \
    if (e_ != CL_SUCCESS) {                                                \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_); \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

static inline double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* For qsort of doubles. */
static inline int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#endif
