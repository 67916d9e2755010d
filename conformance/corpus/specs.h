/* What the specs_*.c files share: short forms of the arguments, and the
 * host's versions of the OpenCL C builtins the references need. */
#ifndef GAC_CORPUS_SPECS_H
#define GAC_CORPUS_SPECS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

#define IN(t, n, g, lo, hi) {CA_IN, (t), (n), (g), (lo), (hi), 0}
#define OUT(t, n) {CA_OUT, (t), (n), GEN_ZERO, 0, 0, 0}
#define OUT_INIT(t, n, g, lo, hi) {CA_OUT, (t), (n), (g), (lo), (hi), 0}
#define LOCAL(t, n) {CA_LOCAL, (t), (n), GEN_ZERO, 0, 0, 0}
#define SCALAR(t, v) {CA_SCALAR, (t), 0, GEN_ZERO, 0, 0, (v)}

#define EXACT ((tolerance){0, 0})

/* ---- OpenCL C's integer builtins on the host ---- */

static inline int64_t sat(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static inline uint32_t rotl32(uint32_t v, unsigned s) { s &= 31; return s ? v << s | v >> (32 - s) : v; }
static inline uint64_t rotl64(uint64_t v, unsigned s) { s &= 63; return s ? v << s | v >> (64 - s) : v; }
static inline int32_t mul_hi32(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
static inline uint64_t mul_hi64u(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
static inline unsigned popcount64(uint64_t v) { return (unsigned)__builtin_popcountll(v); }
static inline unsigned clz32(uint32_t v) { return v ? (unsigned)__builtin_clz(v) : 32; }

/* convert_<int type>_sat_rte / _rtz from a real: NaN gives 0 (OpenCL 6.2.3.3). */
static inline int64_t convert_sat(double v, int64_t lo, int64_t hi, bool rte) {
  if (isnan(v))
    return 0;
  double r = rte ? nearbyint(v) : trunc(v);
  return r <= (double)lo ? lo : r >= (double)hi ? hi : (int64_t)r;
}

/* A float computed in double and rounded once, as the references do. */
static inline float rounded(double v) { return (float)v; }

#endif
