/* Helper functions and tables: CRC-32 through a __constant table, Horner's
 * rule with __constant coefficients, bitonic sort, fixed point. */
#include "specs.h"

enum { CRC_N = 128 };

/* The bitwise CRC-32 (reflected 0xedb88320), independent of the kernel's table. */
static void crc32_ref(void *const *buf) {
  const uint8_t *rec = buf[0];
  uint32_t *crcs = buf[1];
  for (size_t i = 0; i < CRC_N; i++) {
    uint32_t crc = 0xffffffffu;
    for (int k = 0; k < 16; k++) {
      crc ^= rec[16 * i + k];
      for (int b = 0; b < 8; b++)
        crc = crc & 1 ? crc >> 1 ^ 0xedb88320u : crc >> 1;
    }
    crcs[i] = ~crc;
  }
}
const corpus_spec gac_spec_crc32 = {
    1, {CRC_N}, {32}, {IN(CT_UCHAR, 16 * CRC_N, GEN_BITS, 0, 0), OUT(CT_UINT, CRC_N)}, crc32_ref, EXACT, NULL};

enum { POLY_N = 128, DEGREE = 7 };

static void poly_horner_ref(void *const *buf) {
  const float *x = buf[0], *c = buf[1];
  float *y = buf[2];
  for (size_t i = 0; i < POLY_N; i++) {
    double r = c[DEGREE];
    for (int k = DEGREE - 1; k >= 0; k--)
      r = r * x[i] + c[k];
    y[i] = rounded(r);
  }
}
/* Positive terms: each of the 2 DEGREE roundings (fused or not) adds at
 * most an ulp of the result. */
const corpus_spec gac_spec_poly_horner = {
    1, {POLY_N}, {64},
    {IN(CT_FLOAT, POLY_N, GEN_REAL, 0, 1), IN(CT_FLOAT, DEGREE + 1, GEN_REAL, 0, 1), OUT(CT_FLOAT, POLY_N)},
    poly_horner_ref, {2 * DEGREE + 0.5, 0}, NULL};

enum { SORT_L = 64, SORT_G = 4 };

static int int_order(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static void bitonic_ref(void *const *buf) {
  memcpy(buf[1], buf[0], SORT_L * SORT_G * sizeof(int32_t));
  for (size_t g = 0; g < SORT_G; g++)
    qsort((int32_t *)buf[1] + g * SORT_L, SORT_L, sizeof(int32_t), int_order);
}
const corpus_spec gac_spec_bitonic = {
    1, {SORT_L * SORT_G}, {SORT_L},
    {IN(CT_INT, SORT_L * SORT_G, GEN_BITS, 0, 0), OUT(CT_INT, SORT_L * SORT_G), LOCAL(CT_INT, SORT_L)}, bitonic_ref,
    EXACT, NULL};

enum { FX_N = 128 };

static void fixed_point_ref(void *const *buf) {
  const int32_t *a = buf[0], *b = buf[1];
  int32_t *r = buf[2];
  for (size_t i = 0; i < FX_N; i++) {
    int64_t p = (int64_t)a[i] * b[i];
    r[2 * i] = (int32_t)(uint32_t)(uint64_t)(p >> 16);
    r[2 * i + 1] = (a[i] >> 20) * (b[i] >> 20) + (a[i] & 0xffff);
  }
}
const corpus_spec gac_spec_fixed_point = {
    1, {FX_N}, {64}, {IN(CT_INT, FX_N, GEN_BITS, 0, 0), IN(CT_INT, FX_N, GEN_BITS, 0, 0), OUT(CT_INT, 2 * FX_N)},
    fixed_point_ref, EXACT, NULL};
