/* Vector types, integer and float builtins, conversions. Float references
 * are computed in double and rounded once; each tolerance is the OpenCL C
 * 1.2 spec's bound (section 7.4) plus half an ulp for that rounding. */
#include "specs.h"

/* ---- integer vectors: int2, short8, char16 (kernels/int_vectors.cl) ---- */

enum { IV_N = 64 };

/* Lane i of a signed array of `bits` bits, and a store of v's low bits. */
static int64_t lane(const void *p, int bits, size_t i) {
  return bits == 32 ? ((const int32_t *)p)[i] : bits == 16 ? ((const int16_t *)p)[i] : ((const int8_t *)p)[i];
}
static void put(void *p, int bits, size_t i, int64_t v) { memcpy((char *)p + i * (bits / 8), &v, bits / 8); }

static void int_vectors_ref(void *const *buf, int bits, int vec) {
  int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << (bits - 1)) - 1;
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  for (size_t v = 0; v < IV_N; v++)
    for (int l = 0; l < vec; l++) {
      size_t i = v * vec + l, r = 3 * v * vec + l;
      int64_t x = lane(buf[0], bits, i), y = lane(buf[1], bits, i), mx = x > y ? x : y, mn = x < y ? x : y;
      uint64_t ux = (uint64_t)x & mask;
      if (bits == 32) {
        put(buf[2], bits, r, mul_hi32((int32_t)x, (int32_t)y));
        put(buf[2], bits, r + vec, (int32_t)rotl32((uint32_t)x, (unsigned)y & 31));
        put(buf[2], bits, r + 2 * vec, mn ^ mx);
        put(buf[3], bits, i, x < 0 ? -x : x);
      } else if (bits == 16) {
        put(buf[2], bits, r, sat(x + y, lo, hi));
        put(buf[2], bits, r + vec, sat(x - y, lo, hi));
        put(buf[2], bits, r + 2 * vec, ((x + y) >> 1) ^ mx);
        put(buf[3], bits, i, x < 0 ? -x : x);
      } else {
        put(buf[2], bits, r, popcount64(ux));
        put(buf[2], bits, r + vec, ux ? clz32((uint32_t)ux) - 24 : 8);
        put(buf[2], bits, r + 2 * vec, (x + y + 1) >> 1);
        put(buf[3], bits, i, x > y ? x - y : y - x);
      }
    }
}

#define INT_VECTORS(name, t, u, bits, vec)                                                                   \
  static void name##_ref(void *const *buf) { int_vectors_ref(buf, bits, vec); }                             \
  const corpus_spec gac_spec_##name = {                                                                      \
      1, {IV_N}, {32},                                                                                       \
      {IN(t, IV_N * vec, GEN_BITS, 0, 0), IN(t, IV_N * vec, GEN_BITS, 0, 0), OUT(t, 3 * IV_N * vec),         \
       OUT(u, IV_N * vec)},                                                                                  \
      name##_ref, EXACT, NULL};
INT_VECTORS(int2_ops, CT_INT, CT_UINT, 32, 2)
INT_VECTORS(short8_ops, CT_SHORT, CT_USHORT, 16, 8)
INT_VECTORS(char16_ops, CT_CHAR, CT_UCHAR, 8, 16)

enum { UL_N = 128 };

static void ulong_bits_ref(void *const *buf) {
  const uint64_t *a = buf[0], *b = buf[1];
  uint64_t *r = buf[2];
  for (size_t i = 0; i < UL_N; i++) {
    uint64_t x = a[i], y = b[i];
    int64_t sx = (int64_t)x, sy = (int64_t)y, s3 = sx >> 3;
    r[4 * i] = mul_hi64u(x, y);
    r[4 * i + 1] = rotl64(x, (unsigned)(y & 63));
    r[4 * i + 2] = popcount64(x) + ((uint64_t)(y ? __builtin_clzll(y) : 64) << 8);
    r[4 * i + 3] = (s3 < 0 ? 0 - (uint64_t)s3 : (uint64_t)s3) + (uint64_t)(sx < sy ? sx : sy);
  }
}
const corpus_spec gac_spec_ulong_bits = {
    1, {UL_N}, {64}, {IN(CT_ULONG, UL_N, GEN_BITS, 0, 0), IN(CT_ULONG, UL_N, GEN_BITS, 0, 0), OUT(CT_ULONG, 4 * UL_N)},
    ulong_bits_ref, EXACT, NULL};

/* ---- float4 through vload4/vstore4 and mad ---- */

static void saxpy_vec4_ref(void *const *buf) {
  float a = *(const float *)buf[0];
  const float *x = buf[1];
  float *y = buf[2];
  for (size_t i = 0; i < 512; i++)
    y[i] = a * x[i] + y[i];
}
const corpus_spec gac_spec_saxpy_vec4 = {
    1, {128}, {64},
    {SCALAR(CT_FLOAT, 3), IN(CT_FLOAT, 512, GEN_INTS, -100, 100), OUT_INIT(CT_FLOAT, 512, GEN_INTS, -100, 100)},
    saxpy_vec4_ref, EXACT, NULL};

/* ---- the math library ---- */

enum { FM_N = 128 };

static void float_math_ref(void *const *buf) {
  const float *x = buf[0];
  float *out = buf[1];
  for (size_t i = 0; i < FM_N; i++) {
    double v = x[i];
    out[i] = rounded(sqrt(v));
    out[FM_N + i] = rounded(exp(v));
    out[2 * FM_N + i] = rounded(log(v));
    out[3 * FM_N + i] = rounded(sin(2 * v));
    out[4 * FM_N + i] = rounded(cos(2 * v));
  }
}
/* sqrt, exp, log <= 3 ulp; sin, cos <= 4 ulp. */
const corpus_spec gac_spec_float_math = {
    1, {FM_N}, {64}, {IN(CT_FLOAT, FM_N, GEN_REAL, 0.5, 3), OUT(CT_FLOAT, 5 * FM_N)}, float_math_ref, {4.5, 0},
    NULL};
/* -cl-fast-relaxed-math: exp <= 3 + floor(|2x|) ulp (9 here), sin and cos
 * absolute error <= 2^-11 in [-pi, pi], log absolute error <= 2^-21 in [0.5, 2]. */
const corpus_spec gac_spec_float_math_fast = {
    1, {FM_N}, {64}, {IN(CT_FLOAT, FM_N, GEN_REAL, 0.5, 1.5), OUT(CT_FLOAT, 5 * FM_N)}, float_math_ref,
    {9.5, 0x1p-11}, NULL};

static void pow_minmax_ref(void *const *buf) {
  const float *a = buf[0], *b = buf[1];
  float *out = buf[2];
  for (size_t i = 0; i < FM_N; i++) {
    float x = a[i], y = b[i];
    out[i] = rounded(pow(fabs((double)x), y));
    out[FM_N + i] = floorf(x * 4.0f);
    out[2 * FM_N + i] = fminf(x, y) + fmaxf(x, y) * 2.0f;
    out[3 * FM_N + i] = floorf(x) * 2.0f + floorf(y);
  }
}
/* pow <= 16 ulp; fabs, floor, fmin, fmax exact; mad of small integers exact. */
const corpus_spec gac_spec_pow_minmax = {
    1, {FM_N}, {64},
    {IN(CT_FLOAT, FM_N, GEN_REAL, -4, 4), IN(CT_FLOAT, FM_N, GEN_REAL, -3, 3), OUT(CT_FLOAT, 4 * FM_N)},
    pow_minmax_ref, {16.5, 0}, NULL};

static void double_math_ref(void *const *buf) {
  const double *x = buf[0];
  double *out = buf[1];
  for (size_t i = 0; i < FM_N; i++) {
    out[i] = sqrt(x[i]);
    out[FM_N + i] = exp(x[i]);
    out[2 * FM_N + i] = log(x[i]);
    out[3 * FM_N + i] = sin(x[i]);
    out[4 * FM_N + i] = cos(x[i]);
  }
}
/* Double: sqrt correctly rounded, exp and log <= 3 ulp, sin and cos <= 4
 * ulp; the host's libm is within 1 ulp. */
const corpus_spec gac_spec_double_math = {
    1, {FM_N}, {64}, {IN(CT_DOUBLE, FM_N, GEN_REAL, 0.5, 3), OUT(CT_DOUBLE, 5 * FM_N)}, double_math_ref, {5, 0},
    NULL};

/* ---- geometry ---- */

enum { GEO_N = 64 };

static void geometry_ref(void *const *buf) {
  const float *p = buf[0], *q = buf[1];
  float *s = buf[2], *v = buf[3];
  for (size_t i = 0; i < GEO_N; i++) {
    const float *a = p + 4 * i, *b = q + 4 * i;
    double dot = 0, aa = 0, bb = 0;
    for (int l = 0; l < 4; l++)
      dot += (double)a[l] * b[l], aa += (double)a[l] * a[l], bb += (double)b[l] * b[l];
    s[2 * i] = rounded(dot);
    s[2 * i + 1] = rounded(sqrt(aa));
    float fa[4], fb[4];
    for (int l = 0; l < 4; l++) {
      v[8 * i + l] = rounded(b[l] / sqrt(bb));
      fa[l] = floorf(a[l] * 8), fb[l] = floorf(b[l] * 8);
    }
    float *c = v + 8 * i + 4;
    c[0] = fa[1] * fb[2] - fa[2] * fb[1];
    c[1] = fa[2] * fb[0] - fa[0] * fb[2];
    c[2] = fa[0] * fb[1] - fa[1] * fb[0];
    c[3] = 0;
  }
}
/* Positive lanes (no cancellation): dot <= n ulp for n = 4 lanes; length
 * a sqrt (3 ulp) of such a dot; normalize a division (2.5 ulp) by one; the
 * cross of integers is exact. 8 ulp covers each. */
const corpus_spec gac_spec_geometry = {
    1, {GEO_N}, {32},
    {IN(CT_FLOAT, 4 * GEO_N, GEN_REAL, 0.5, 2), IN(CT_FLOAT, 4 * GEO_N, GEN_REAL, 0.5, 2), OUT(CT_FLOAT, 2 * GEO_N),
     OUT(CT_FLOAT, 8 * GEO_N)},
    geometry_ref, {8, 0}, NULL};

/* ---- classification and relational functions ---- */

static void classify_ref(void *const *buf) {
  const uint32_t *bits = buf[0];
  int32_t *lanes = buf[1], *groups = buf[2];
  for (size_t i = 0; i < GEO_N; i++) {
    int any_nan = 0, any_inf = 0, all_finite = 1;
    for (int l = 0; l < 4; l++) {
      uint32_t u = bits[4 * i + l];
      if ((u & 7) == 0)
        u |= 0x7f800000u;
      float f;
      memcpy(&f, &u, 4);
      int nan = isnan(f) ? -1 : 0, inf = isinf(f) ? -1 : 0, fin = isfinite(f) ? -1 : 0, sign = u >> 31 ? -1 : 0;
      lanes[8 * i + l] = nan + 2 * inf + 4 * fin + 8 * sign;
      lanes[8 * i + 4 + l] = nan || inf ? 2 : 1;
      any_nan |= nan != 0, any_inf |= inf != 0, all_finite &= fin != 0;
    }
    groups[i] = any_nan + 2 * all_finite + 4 * any_inf;
  }
}
const corpus_spec gac_spec_classify = {
    1, {GEO_N}, {32},
    {IN(CT_UINT, 4 * GEO_N, GEN_BITS, 0, 0), OUT(CT_INT, 8 * GEO_N), OUT(CT_INT, GEO_N)}, classify_ref, EXACT, NULL};

/* ---- conversions ---- */

enum { CV_N = 128 };

static void convert_sat_ref(void *const *buf) {
  const float *h = buf[0];
  const int32_t *n = buf[1];
  int32_t *r32 = buf[2];
  int16_t *r16 = buf[3];
  uint8_t *r8 = buf[4];
  for (size_t i = 0; i < CV_N; i++) {
    double f = h[i] * 0.5; /* exact, as every product below */
    r32[3 * i] = (int32_t)convert_sat(f * 16777216, INT32_MIN, INT32_MAX, false);
    r32[3 * i + 1] = (int32_t)ceil(f * 0.25);
    r32[3 * i + 2] = (int32_t)floor(f * 0.25);
    r16[2 * i] = (int16_t)sat(n[i], INT16_MIN, INT16_MAX);
    r16[2 * i + 1] = (int16_t)(uint16_t)convert_sat(f * 3, 0, UINT16_MAX, true);
    r8[2 * i] = (uint8_t)convert_sat(f, 0, UINT8_MAX, true);
    r8[2 * i + 1] = (uint8_t)(int8_t)convert_sat(f * 0.75, INT8_MIN, INT8_MAX, false);
  }
}
const corpus_spec gac_spec_convert_sat = {
    1, {CV_N}, {64},
    {IN(CT_FLOAT, CV_N, GEN_INTS, -1200, 1200), IN(CT_INT, CV_N, GEN_BITS, 0, 0), OUT(CT_INT, 3 * CV_N),
     OUT(CT_SHORT, 2 * CV_N), OUT(CT_UCHAR, 2 * CV_N)},
    convert_sat_ref, EXACT, NULL};
