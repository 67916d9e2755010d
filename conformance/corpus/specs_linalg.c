/* Linear algebra: tiled matrix products, matrix-vector, transpose. */
#include "specs.h"

enum { MM_N = 32 };

/* Small integers: every product and sum is exact in float and double. */
#define MATMUL_REF(name, T)                                                                                  \
  static void name(void *const *buf) {                                                                       \
    const T *a = buf[0], *b = buf[1];                                                                        \
    T *c = buf[2];                                                                                           \
    int n = *(const int *)buf[3];                                                                            \
    for (int y = 0; y < n; y++)                                                                              \
      for (int x = 0; x < n; x++) {                                                                          \
        T s = 0;                                                                                             \
        for (int k = 0; k < n; k++)                                                                          \
          s += a[y * n + k] * b[k * n + x];                                                                  \
        c[y * n + x] = s;                                                                                    \
      }                                                                                                      \
  }
MATMUL_REF(matmul_f32_ref, float)
MATMUL_REF(matmul_f64_ref, double)

const corpus_spec gac_spec_matmul_f32 = {
    2, {MM_N, MM_N}, {8, 8},
    {IN(CT_FLOAT, MM_N * MM_N, GEN_INTS, -8, 8), IN(CT_FLOAT, MM_N * MM_N, GEN_INTS, -8, 8),
     OUT(CT_FLOAT, MM_N * MM_N), SCALAR(CT_INT, MM_N)},
    matmul_f32_ref, EXACT, NULL};

const corpus_spec gac_spec_matmul_f64 = {
    2, {MM_N, MM_N}, {4, 4},
    {IN(CT_DOUBLE, MM_N * MM_N, GEN_INTS, -100, 100), IN(CT_DOUBLE, MM_N * MM_N, GEN_INTS, -100, 100),
     OUT(CT_DOUBLE, MM_N * MM_N), SCALAR(CT_INT, MM_N)},
    matmul_f64_ref, EXACT, NULL};
