#include "values.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t ctype_size(ctype t) {
  static const size_t sizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
  return sizes[t];
}

bool ctype_is_float(ctype t) { return t == CT_FLOAT || t == CT_DOUBLE; }

/* Stores v (an integer, or a real for float types) as element i. */
static void value_set(ctype t, void *p, size_t i, double v) {
  switch (t) {
  case CT_CHAR: ((int8_t *)p)[i] = (int8_t)v; break;
  case CT_UCHAR: ((uint8_t *)p)[i] = (uint8_t)v; break;
  case CT_SHORT: ((int16_t *)p)[i] = (int16_t)v; break;
  case CT_USHORT: ((uint16_t *)p)[i] = (uint16_t)v; break;
  case CT_INT: ((int32_t *)p)[i] = (int32_t)v; break;
  case CT_UINT: ((uint32_t *)p)[i] = (uint32_t)v; break;
  case CT_LONG: ((int64_t *)p)[i] = (int64_t)v; break;
  case CT_ULONG: ((uint64_t *)p)[i] = (uint64_t)v; break;
  case CT_FLOAT: ((float *)p)[i] = (float)v; break;
  case CT_DOUBLE: ((double *)p)[i] = v; break;
  }
}

double value_get(ctype t, const void *p, size_t i) {
  switch (t) {
  case CT_CHAR: return ((const int8_t *)p)[i];
  case CT_UCHAR: return ((const uint8_t *)p)[i];
  case CT_SHORT: return ((const int16_t *)p)[i];
  case CT_USHORT: return ((const uint16_t *)p)[i];
  case CT_INT: return ((const int32_t *)p)[i];
  case CT_UINT: return ((const uint32_t *)p)[i];
  case CT_LONG: return (double)((const int64_t *)p)[i];
  case CT_ULONG: return (double)((const uint64_t *)p)[i];
  case CT_FLOAT: return ((const float *)p)[i];
  case CT_DOUBLE: return ((const double *)p)[i];
  }
  return 0;
}

scalar scalar_of(ctype t, double value) {
  scalar s;
  memset(&s, 0, sizeof s);
  value_set(t, &s, 0, value);
  return s;
}

uint64_t seed_of(const char *name, unsigned arg) {
  uint64_t h = 14695981039346656037u; /* FNV-1a */
  for (const char *c = name; *c; c++)
    h = (h ^ (unsigned char)*c) * 1099511628211u;
  return (h ^ arg) * 1099511628211u | 1;
}

static uint64_t next(uint64_t *x) { /* xorshift64* */
  *x ^= *x >> 12, *x ^= *x << 25, *x ^= *x >> 27;
  return *x * 2685821657736338717u;
}

void values_fill(void *p, const carg *a, uint64_t seed) {
  uint64_t x = seed;
  size_t bytes = a->count * ctype_size(a->type);
  switch (a->gen) {
  case GEN_ZERO:
    memset(p, 0, bytes);
    break;
  case GEN_BITS:
    for (size_t i = 0; i < bytes; i++)
      ((unsigned char *)p)[i] = (unsigned char)(next(&x) >> 56);
    break;
  case GEN_INTS: {
    uint64_t span = (uint64_t)(a->hi - a->lo) + 1;
    for (size_t i = 0; i < a->count; i++)
      value_set(a->type, p, i, a->lo + (double)(next(&x) % span));
    break;
  }
  case GEN_REAL:
    for (size_t i = 0; i < a->count; i++)
      value_set(a->type, p, i, a->lo + (a->hi - a->lo) * (double)(next(&x) >> 11) / 9007199254740992.0);
    break;
  case GEN_IOTA:
    for (size_t i = 0; i < a->count; i++)
      value_set(a->type, p, i, a->lo + (double)i);
    break;
  }
}

double ulp_of(ctype t, double x) {
  int mant = t == CT_FLOAT ? 23 : 52, min_exp = t == CT_FLOAT ? -126 : -1022;
  x = fabs(x);
  int e = x == 0 || !isfinite(x) ? min_exp : ilogb(x);
  return ldexp(1, (e < min_exp ? min_exp : e) - mant);
}

/* Error of one float element in ULPs of want; INFINITY where they cannot
 * be compared (a NaN against a number, different infinities). */
static double float_error(ctype t, double got, double want) {
  if (isnan(got) || isnan(want))
    return isnan(got) && isnan(want) ? 0 : INFINITY;
  if (isinf(got) || isinf(want))
    return got == want ? 0 : INFINITY;
  return fabs(got - want) / ulp_of(t, want);
}

/* 64-bit integers compared as bits (doubles lose their low bits). */
static bool int_equal(ctype t, const void *got, const void *want, size_t i) {
  size_t n = ctype_size(t);
  return memcmp((const char *)got + i * n, (const char *)want + i * n, n) == 0;
}

double values_max_error(ctype t, const void *got, const void *want, size_t count, tolerance tol, size_t *bad) {
  double max = 0;
  *bad = SIZE_MAX;
  for (size_t i = 0; i < count; i++) {
    double g = value_get(t, got, i), w = value_get(t, want, i), err;
    bool ok;
    if (ctype_is_float(t)) {
      err = float_error(t, g, w);
      ok = err == 0 || fabs(g - w) <= tol.ulp * ulp_of(t, w) + tol.abs;
    } else {
      ok = int_equal(t, got, want, i);
      err = ok ? 0 : fabs(g - w) > 0 ? fabs(g - w) : 1;
    }
    if (err > max)
      max = err;
    if (!ok && *bad == SIZE_MAX)
      *bad = i;
  }
  return max;
}

void value_print(ctype t, const void *p, size_t i, char *out, size_t len) {
  switch (t) {
  case CT_LONG: snprintf(out, len, "%lld", (long long)((const int64_t *)p)[i]); break;
  case CT_ULONG: snprintf(out, len, "%llu", (unsigned long long)((const uint64_t *)p)[i]); break;
  case CT_FLOAT: snprintf(out, len, "%.9g", value_get(t, p, i)); break;
  case CT_DOUBLE: snprintf(out, len, "%.17g", value_get(t, p, i)); break;
  default: snprintf(out, len, "%.0f", value_get(t, p, i)); break;
  }
}

bool spec_has_float_output(const corpus_spec *s) {
  for (const carg *a = s->args; a->kind != CA_END; a++)
    if (a->kind == CA_OUT && ctype_is_float(a->type))
      return true;
  return false;
}
