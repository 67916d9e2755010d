/* Typed element arrays of the corpus: sizes, deterministic generators,
 * scalars in their C types, the error measure and printing. */
#ifndef GAC_CORPUS_VALUES_H
#define GAC_CORPUS_VALUES_H

#include "corpus.h"

typedef union scalar {
  int8_t c;
  uint8_t uc;
  int16_t s;
  uint16_t us;
  int32_t i;
  uint32_t u;
  int64_t l;
  uint64_t ul;
  float f;
  double d;
} scalar;

scalar scalar_of(ctype t, double value);

/* A seed from an entry's name and an argument's index. */
uint64_t seed_of(const char *name, unsigned arg);

/* Fills an input or output buffer as its generator says. */
void values_fill(void *p, const carg *a, uint64_t seed);

/* Element i as a double (integers exactly up to 2^53). */
double value_get(ctype t, const void *p, size_t i);

/* The ulp of x in type t's precision (float or double). */
double ulp_of(ctype t, double x);

/* Largest error of got against want over count elements (ULPs of want for
 * floats within tol; the largest difference for integers); *bad: the first
 * element out of bounds, or SIZE_MAX. */
double values_max_error(ctype t, const void *got, const void *want, size_t count, tolerance tol, size_t *bad);

void value_print(ctype t, const void *p, size_t i, char *out, size_t len);

/* Whether an entry's outputs include floats (its error is printed in ULPs). */
bool spec_has_float_output(const corpus_spec *s);

#endif
