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

enum { MV_N = 128, MV_ROWS = 16, MV_L = 32 };

static void matvec_ref(void *const *buf) {
  const float *a = buf[0], *x = buf[1];
  float *y = buf[2];
  for (size_t r = 0; r < MV_ROWS; r++) {
    float s = 0;
    for (size_t k = 0; k < MV_N; k++)
      s += a[r * MV_N + k] * x[k];
    y[r] = s;
  }
}
const corpus_spec gac_spec_matvec = {
    1, {MV_ROWS * MV_L}, {MV_L},
    {IN(CT_FLOAT, MV_ROWS * MV_N, GEN_INTS, -8, 8), IN(CT_FLOAT, MV_N, GEN_INTS, -8, 8), OUT(CT_FLOAT, MV_ROWS),
     SCALAR(CT_INT, MV_N), LOCAL(CT_FLOAT, MV_L)},
    matvec_ref, EXACT, NULL};

static void gemm_i8_ref(void *const *buf) {
  const int8_t *a = buf[0], *b = buf[1];
  int32_t *c = buf[2];
  for (int y = 0; y < MM_N; y++)
    for (int x = 0; x < MM_N; x++) {
      int32_t s = 0;
      for (int k = 0; k < MM_N; k++)
        s += a[y * MM_N + k] * b[k * MM_N + x];
      c[y * MM_N + x] = s;
    }
}
const corpus_spec gac_spec_gemm_i8 = {
    2, {MM_N, MM_N}, {8, 8},
    {IN(CT_CHAR, MM_N * MM_N, GEN_BITS, 0, 0), IN(CT_CHAR, MM_N * MM_N, GEN_BITS, 0, 0), OUT(CT_INT, MM_N * MM_N),
     SCALAR(CT_INT, MM_N)},
    gemm_i8_ref, EXACT, NULL};
