/* Reductions (every integer and float width), scans and histograms. */
#include "specs.h"
#include "values.h"

enum { RED_L = 32, RED_G = 4, RED_N = 2 * RED_L * RED_G };

/* Element i as a 64-bit integer (two's complement bits for the unsigned). */
static int64_t int_at(ctype t, const void *p, size_t i) {
  if (t == CT_ULONG)
    return (int64_t)((const uint64_t *)p)[i];
  return t == CT_LONG ? ((const int64_t *)p)[i] : (int64_t)value_get(t, p, i);
}

static bool is_unsigned(ctype t) { return t == CT_UCHAR || t == CT_USHORT || t == CT_UINT || t == CT_ULONG; }

/* a op b in t's arithmetic: wrapping sums, signed or unsigned order. */
static int64_t fold_int(ctype t, char op, int64_t a, int64_t b) {
  if (op == '+')
    return (int64_t)((uint64_t)a + (uint64_t)b);
  bool less = is_unsigned(t) ? (uint64_t)a < (uint64_t)b : a < b;
  return (op == '<') == less ? a : b;
}

/* out[g] = the fold of the group's 2L elements (op '+', '>' max, '<' min). */
static void reduce_ref(void *const *buf, ctype t, char op) {
  size_t n = ctype_size(t);
  for (size_t g = 0; g < RED_G; g++) {
    const char *in = (const char *)buf[0] + g * 2 * RED_L * n;
    if (ctype_is_float(t)) {
      double acc = value_get(t, in, 0);
      for (size_t i = 1; i < 2 * RED_L; i++) {
        double v = value_get(t, in, i);
        acc = op == '+' ? acc + v : (op == '>') == (v > acc) ? v : acc;
      }
      if (t == CT_FLOAT)
        ((float *)buf[1])[g] = (float)acc;
      else
        ((double *)buf[1])[g] = acc;
    } else {
      int64_t acc = int_at(t, in, 0);
      for (size_t i = 1; i < 2 * RED_L; i++)
        acc = fold_int(t, op, acc, int_at(t, in, i));
      memcpy((char *)buf[1] + g * n, &acc, n); /* the low bytes: little-endian host */
    }
  }
}

#define REDUCE(name, t, op, gen, lo, hi)                                                                     \
  static void name##_ref(void *const *buf) { reduce_ref(buf, t, op); }                                       \
  const corpus_spec gac_spec_##name = {                                                                      \
      1, {RED_L * RED_G}, {RED_L}, {IN(t, RED_N, gen, lo, hi), OUT(t, RED_G), LOCAL(t, 2 * RED_L)},         \
      name##_ref, EXACT, NULL};
REDUCE(reduce_char_sum, CT_CHAR, '+', GEN_BITS, 0, 0)
REDUCE(reduce_uchar_max, CT_UCHAR, '>', GEN_BITS, 0, 0)
REDUCE(reduce_short_sum, CT_SHORT, '+', GEN_BITS, 0, 0)
REDUCE(reduce_ushort_min, CT_USHORT, '<', GEN_BITS, 0, 0)
REDUCE(reduce_int_max, CT_INT, '>', GEN_BITS, 0, 0)
REDUCE(reduce_uint_sum, CT_UINT, '+', GEN_BITS, 0, 0)
REDUCE(reduce_long_min, CT_LONG, '<', GEN_BITS, 0, 0)
REDUCE(reduce_ulong_sum, CT_ULONG, '+', GEN_BITS, 0, 0)
/* Integers in floats: sums exact in any order, also under -cl-fast-relaxed-math. */
REDUCE(reduce_float_sum, CT_FLOAT, '+', GEN_INTS, -1000, 1000)
REDUCE(reduce_double_max, CT_DOUBLE, '>', GEN_REAL, -1e6, 1e6)

enum { SCAN_L = 64, SCAN_G = 4 };

static void scan_inclusive_ref(void *const *buf) {
  const int32_t *in = buf[0];
  int32_t *out = buf[1];
  for (size_t g = 0; g < SCAN_G; g++)
    for (size_t i = 0, s = 0; i < SCAN_L; i++)
      out[g * SCAN_L + i] = (int32_t)(s += (size_t)in[g * SCAN_L + i]);
}
const corpus_spec gac_spec_scan_inclusive = {
    1, {SCAN_L * SCAN_G}, {SCAN_L},
    {IN(CT_INT, SCAN_L * SCAN_G, GEN_INTS, -1000, 1000), OUT(CT_INT, SCAN_L * SCAN_G), LOCAL(CT_INT, SCAN_L),
     LOCAL(CT_INT, SCAN_L)},
    scan_inclusive_ref, EXACT, NULL};

/* 32 work-items scan 64 uints per group; sums wrap. */
static void scan_exclusive_ref(void *const *buf) {
  const uint32_t *in = buf[0];
  uint32_t *out = buf[1];
  for (size_t g = 0; g < SCAN_G; g++) {
    uint32_t s = 0;
    for (size_t i = 0; i < 64; i++) {
      out[g * 64 + i] = s;
      s += in[g * 64 + i];
    }
  }
}
const corpus_spec gac_spec_scan_exclusive = {
    1, {32 * SCAN_G}, {32},
    {IN(CT_UINT, 64 * SCAN_G, GEN_BITS, 0, 0), OUT(CT_UINT, 64 * SCAN_G), LOCAL(CT_UINT, 64)},
    scan_exclusive_ref, EXACT, NULL};

static void histogram_global_ref(void *const *buf) {
  const uint8_t *data = buf[0];
  uint32_t *bins = buf[1];
  for (size_t i = 0; i < 32 * 4 * 8; i++)
    bins[data[i]]++;
}
const corpus_spec gac_spec_histogram_global = {
    1, {32 * 4}, {32}, {IN(CT_UCHAR, 32 * 4 * 8, GEN_BITS, 0, 0), OUT(CT_UINT, 256)}, histogram_global_ref, EXACT,
    NULL};

static void histogram_local_ref(void *const *buf) {
  const uint8_t *data = buf[0];
  uint32_t *bins = buf[1];
  for (size_t i = 0; i < 4 * 512; i++)
    bins[data[i] >> 2]++;
}
const corpus_spec gac_spec_histogram_local = {
    1, {32 * 4}, {32}, {IN(CT_UCHAR, 4 * 512, GEN_BITS, 0, 0), OUT(CT_UINT, 64), SCALAR(CT_UINT, 512)},
    histogram_local_ref, EXACT, NULL};

static void histogram_atom64_ref(void *const *buf) {
  const uint8_t *keys = buf[0];
  const uint64_t *weights = buf[1];
  uint64_t *bins = buf[2];
  for (size_t i = 0; i < 64 * 4; i++)
    bins[keys[i] & 15] += weights[i];
}
const corpus_spec gac_spec_histogram_atom64 = {
    1, {64 * 4}, {64},
    {IN(CT_UCHAR, 64 * 4, GEN_BITS, 0, 0), IN(CT_ULONG, 64 * 4, GEN_BITS, 0, 0), OUT(CT_ULONG, 16)},
    histogram_atom64_ref, EXACT, NULL};
