/* The math accuracy suite's table, inputs, references and checks
 * (math_suite.h). References are long double (x87: 64-bit significands,
 * 11 bits beyond double), so an error of a float or double result is
 * measured against a value far more precise than the result. */
#define _GNU_SOURCE /* exp10l */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "math_suite.h"

enum { N = 1 << 14 }; /* inputs per function, a multiple of 4 */

typedef enum shape { UNARY_SHAPE, BINARY_SHAPE, WITH_INT_SHAPE, FLOAT_ONLY_SHAPE } shape;

/* What -cl-fast-relaxed-math allows (OpenCL C 3.0, relaxed accuracy):
 * exp: 3 + floor(|2x|) ulp; log: 2^-21 absolute in [0.5, 2], else 3 ulp;
 * sin, cos: 2^-11 absolute in [-pi, pi] (not specified beyond); pow and
 * tan: derived from those (not checked). Others: their full bounds. */
typedef enum fast_rule { FAST_SAME, FAST_EXP, FAST_LOG, FAST_SINCOS, FAST_UNCHECKED } fast_rule;

typedef long double (*ref_fn)(long double, long double);

typedef struct math_fn {
  const char *name;
  ref_fn ref;
  double lo, hi, lo2, hi2; /* domains of the operands sampled */
  double ulp_float, ulp_double; /* < 0: no bound (lgamma, native_) */
  fast_rule fast;
} math_fn;

/* sin(pi x) and cos(pi x) from x = t + n/2 with |t| <= 1/4, exactly split. */
static long double pi_quadrant(long double x, bool cosine) {
  if (isinf(x) || isnan(x))
    return NAN;
  long double n = rintl(2 * x), t = x - n / 2;
  long double s = sinl(3.14159265358979323846264338327950288L * t);
  long double c = cosl(3.14159265358979323846264338327950288L * t);
  int q = (int)fmodl(fabsl(n), 4.0L);
  if (n < 0)
    q = (4 - q) % 4;
  if (cosine)
    q = (q + 1) % 4;
  return q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
}

#define PI_L 3.14159265358979323846264338327950288L
static long double r_acos(long double x, long double y) { (void)y; return acosl(x); }
static long double r_acosh(long double x, long double y) { (void)y; return acoshl(x); }
static long double r_asin(long double x, long double y) { (void)y; return asinl(x); }
static long double r_asinh(long double x, long double y) { (void)y; return asinhl(x); }
static long double r_atan(long double x, long double y) { (void)y; return atanl(x); }
static long double r_atanh(long double x, long double y) { (void)y; return atanhl(x); }
static long double r_atan2(long double x, long double y) { return atan2l(x, y); }
static long double r_cbrt(long double x, long double y) { (void)y; return cbrtl(x); }
static long double r_cos(long double x, long double y) { (void)y; return cosl(x); }
static long double r_cosh(long double x, long double y) { (void)y; return coshl(x); }
static long double r_cospi(long double x, long double y) { (void)y; return pi_quadrant(x, true); }
static long double r_erf(long double x, long double y) { (void)y; return erfl(x); }
static long double r_erfc(long double x, long double y) { (void)y; return erfcl(x); }
static long double r_exp(long double x, long double y) { (void)y; return expl(x); }
static long double r_exp2(long double x, long double y) { (void)y; return exp2l(x); }
static long double r_exp10(long double x, long double y) { (void)y; return exp10l(x); }
static long double r_expm1(long double x, long double y) { (void)y; return expm1l(x); }
static long double r_fmod(long double x, long double y) { return fmodl(x, y); }
static long double r_hypot(long double x, long double y) { return hypotl(x, y); }
static long double r_lgamma(long double x, long double y) { (void)y; return lgammal(x); }
static long double r_log(long double x, long double y) { (void)y; return logl(x); }
static long double r_log2(long double x, long double y) { (void)y; return log2l(x); }
static long double r_log10(long double x, long double y) { (void)y; return log10l(x); }
static long double r_log1p(long double x, long double y) { (void)y; return log1pl(x); }
static long double r_pow(long double x, long double y) { return powl(x, y); }
static long double r_ldexp(long double x, long double y) { return ldexpl(x, (int)y); }
static long double r_remainder(long double x, long double y) { return remainderl(x, y); }
static long double r_rsqrt(long double x, long double y) { (void)y; return 1.0L / sqrtl(x); }
static long double r_sin(long double x, long double y) { (void)y; return sinl(x); }
static long double r_sinh(long double x, long double y) { (void)y; return sinhl(x); }
static long double r_sinpi(long double x, long double y) { (void)y; return pi_quadrant(x, false); }
static long double r_tan(long double x, long double y) { (void)y; return tanl(x); }
static long double r_tanh(long double x, long double y) { (void)y; return tanhl(x); }
static long double r_tgamma(long double x, long double y) { (void)y; return tgammal(x); }
static long double r_powr(long double x, long double y) {
  /* powr is exp2(y log2 x): no negative x, 0^0, inf^0 or 1^inf */
  if (x < 0 || (x == 0 && y == 0) || (isinf(x) && y == 0) || (x == 1 && isinf(y)))
    return NAN;
  return powl(x, y);
}
static long double r_rootn(long double x, long double y) {
  int n = (int)y;
  if (n == 0)
    return NAN;
  if (x == 0 && signbit(x) && n % 2) /* -0: -inf for odd negative n, -0 for odd positive n */
    return n < 0 ? -INFINITY : -0.0L;
  if (x < 0)
    return n % 2 ? -powl(-x, 1.0L / n) : NAN;
  return powl(x, 1.0L / n);
}
static long double r_acospi(long double x, long double y) { (void)y; return acosl(x) / PI_L; }
static long double r_asinpi(long double x, long double y) { (void)y; return asinl(x) / PI_L; }
static long double r_atanpi(long double x, long double y) { (void)y; return atanl(x) / PI_L; }
static long double r_tanpi(long double x, long double y) {
  (void)y;
  if (fmodl(fabsl(x), 1.0L) == 0.5L) /* tanpi(n + 0.5): +inf for even n, -inf for odd */
    return fmodl(fabsl(floorl(x)), 2.0L) == 0 ? INFINITY : -INFINITY;
  return pi_quadrant(x, false) / pi_quadrant(x, true);
}
static long double r_sqrt(long double x, long double y) { (void)y; return sqrtl(x); }
static long double r_fabs(long double x, long double y) { (void)y; return fabsl(x); }
static long double r_floor(long double x, long double y) { (void)y; return floorl(x); }
static long double r_fmax(long double x, long double y) { return fmaxl(x, y); }
static long double r_fmin(long double x, long double y) { return fminl(x, y); }

#define BIG 1e30
/* Bounds: OpenCL C 3.0, "ULP values for built-in math functions". */
static const math_fn functions[] = {
    {"acos", r_acos, -1, 1, 0, 0, 4, 2, FAST_SAME},
    {"acosh", r_acosh, 1, BIG, 0, 0, 4, 2, FAST_SAME},
    {"asin", r_asin, -1, 1, 0, 0, 4, 2, FAST_SAME},
    {"asinh", r_asinh, -BIG, BIG, 0, 0, 4, 2, FAST_SAME},
    {"atan", r_atan, -BIG, BIG, 0, 0, 5, 2, FAST_SAME},
    {"atanh", r_atanh, -1, 1, 0, 0, 5, 2, FAST_SAME},
    {"atan2", r_atan2, -BIG, BIG, -BIG, BIG, 6, 2, FAST_SAME},
    {"cbrt", r_cbrt, -BIG, BIG, 0, 0, 2, 2, FAST_SAME},
    {"cos", r_cos, -1e5, 1e5, 0, 0, 4, 2, FAST_SINCOS},
    {"cosh", r_cosh, -88, 88, 0, 0, 4, 2, FAST_SAME},
    {"cospi", r_cospi, -1e5, 1e5, 0, 0, 4, 2, FAST_SAME},
    {"erf", r_erf, -10, 10, 0, 0, 16, 16, FAST_SAME},
    {"erfc", r_erfc, -10, 10, 0, 0, 16, 16, FAST_SAME},
    {"exp", r_exp, -87, 88, 0, 0, 3, 3, FAST_EXP},
    {"exp2", r_exp2, -126, 127, 0, 0, 3, 3, FAST_EXP},
    {"exp10", r_exp10, -37, 38, 0, 0, 3, 3, FAST_EXP},
    {"expm1", r_expm1, -87, 88, 0, 0, 3, 3, FAST_SAME},
    {"fmod", r_fmod, -1e6, 1e6, -1e3, 1e3, 0, 0, FAST_SAME},
    {"hypot", r_hypot, -1e18, 1e18, -1e18, 1e18, 4, 2, FAST_SAME},
    {"lgamma", r_lgamma, -50, 1e3, 0, 0, -1, -1, FAST_SAME},
    {"log", r_log, 0, 1e38, 0, 0, 3, 3, FAST_LOG},
    {"log2", r_log2, 0, 1e38, 0, 0, 3, 3, FAST_LOG},
    {"log10", r_log10, 0, 1e38, 0, 0, 3, 3, FAST_LOG},
    {"log1p", r_log1p, -1, 1e38, 0, 0, 2, 2, FAST_SAME},
    {"pow", r_pow, 0, 100, -20, 20, 16, 16, FAST_UNCHECKED},
    {"powr", r_powr, 0, 100, -20, 20, 16, 16, FAST_UNCHECKED},
    {"pown", r_pow, -100, 100, -20, 20, 16, 16, FAST_UNCHECKED},
    {"ldexp", r_ldexp, -1e3, 1e3, -100, 100, 0, 0, FAST_SAME},
    {"remainder", r_remainder, -1e6, 1e6, -1e3, 1e3, 0, 0, FAST_SAME},
    {"rsqrt", r_rsqrt, 0, 1e38, 0, 0, 2, 2, FAST_SAME},
    {"sin", r_sin, -1e5, 1e5, 0, 0, 4, 2, FAST_SINCOS},
    {"sinh", r_sinh, -88, 88, 0, 0, 4, 2, FAST_SAME},
    {"sinpi", r_sinpi, -1e5, 1e5, 0, 0, 4, 2, FAST_SAME},
    {"tan", r_tan, -1e5, 1e5, 0, 0, 5, 2, FAST_UNCHECKED},
    {"tanh", r_tanh, -20, 20, 0, 0, 5, 2, FAST_SAME},
    {"tgamma", r_tgamma, 0.01, 35, 0, 0, 16, 16, FAST_SAME},
    {"rootn", r_rootn, -BIG, BIG, -10, 10, 16, 16, FAST_SAME},
    {"acospi", r_acospi, -1, 1, 0, 0, 5, 2, FAST_SAME},
    {"asinpi", r_asinpi, -1, 1, 0, 0, 5, 2, FAST_SAME},
    {"atanpi", r_atanpi, -BIG, BIG, 0, 0, 5, 2, FAST_SAME},
    {"tanpi", r_tanpi, -1e5, 1e5, 0, 0, 6, 2, FAST_SAME},
    {"sqrt", r_sqrt, 0, 1e38, 0, 0, 3, 0, FAST_SAME},
    {"fabs", r_fabs, -BIG, BIG, 0, 0, 0, 0, FAST_SAME},
    {"floor", r_floor, -1e9, 1e9, 0, 0, 0, 0, FAST_SAME},
    {"fmax", r_fmax, -BIG, BIG, -BIG, BIG, 0, 0, FAST_SAME},
    {"fmin", r_fmin, -BIG, BIG, -BIG, BIG, 0, 0, FAST_SAME},
    {"native_exp", r_exp, -80, 80, 0, 0, -1, -1, FAST_SAME},
    {"native_log", r_log, 0, 1e30, 0, 0, -1, -1, FAST_SAME},
    {"native_sin", r_sin, -3.14159, 3.14159, 0, 0, -1, -1, FAST_SAME},
    {"native_cos", r_cos, -3.14159, 3.14159, 0, 0, -1, -1, FAST_SAME},
};

static shape shape_of(const char *name) {
#define UNARY(f) if (strcmp(name, #f) == 0) return UNARY_SHAPE;
#define BINARY(f) if (strcmp(name, #f) == 0) return BINARY_SHAPE;
#define WITH_INT(f) if (strcmp(name, #f) == 0) return WITH_INT_SHAPE;
#define FLOAT_ONLY(f) if (strcmp(name, #f) == 0) return FLOAT_ONLY_SHAPE;
#include "math_functions.h"
#undef UNARY
#undef BINARY
#undef WITH_INT
#undef FLOAT_ONLY
  return UNARY_SHAPE;
}

/* xorshift64*: the same inputs on every machine. */
static uint64_t next(uint64_t *s) {
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static double uniform(uint64_t *s) { return (double)(next(s) >> 11) / 9007199254740992.0; }

/* Half uniform over [lo, hi], half log-uniform in magnitude (so that small
 * and large arguments both occur), within [lo, hi]. */
static double sample(uint64_t *s, double lo, double hi) {
  if (next(s) & 1)
    return lo + (hi - lo) * uniform(s);
  double top = fmax(fabs(lo), fabs(hi)), bottom = lo > 0 ? lo : 1e-30;
  for (int tries = 0; tries < 16; tries++) {
    double v = exp(log(bottom) + (log(top) - log(bottom)) * uniform(s));
    if (lo < 0 && (next(s) & 1))
      v = -v;
    if (v >= lo && v <= hi)
      return v;
  }
  return lo + (hi - lo) * uniform(s);
}

/* Error of got in ulps of the type (mant bits, min exponent) against ref. */
static double ulp_error(long double ref, double got, int mant, int emin, double max) {
  if (isnan(ref))
    return isnan(got) ? 0 : INFINITY;
  if (isnan(got))
    return INFINITY;
  if (fabsl(ref) > max) /* the exact result rounds to infinity or max */
    return isinf(got) && !!signbit(got) == !!signbit(ref) ? 0 : (fabs(got) == max ? 0.5 : INFINITY);
  if (isinf(got))
    return INFINITY;
  int e;
  frexpl(ref, &e);
  if (e < emin)
    e = emin;
  return (double)(fabsl((long double)got - ref) / ldexpl(1.0L, e - mant));
}

typedef struct check {
  double worst, worst_x, worst_y, worst_got; /* the largest error */
  long double worst_ref;
  double excess, fail_x, fail_y, fail_got; /* the largest error beyond its bound */
  long double fail_ref;
  bool failed;
} check;

static void check_one(check *c, const math_fn *f, math_type t, bool fast, double x, double y, double got,
                      long double ref) {
  bool is_double = t == MATH_DOUBLE;
  double err = is_double ? ulp_error(ref, got, 53, -1021, DBL_MAX) : ulp_error(ref, got, 24, -125, FLT_MAX);
  double bound = is_double ? f->ulp_double : f->ulp_float;
  if (fast && !is_double) {
    if (fabsl(ref) < FLT_MIN && fabs(got) < FLT_MIN) /* denormals may be flushed */
      err = 0;
    switch (f->fast) {
    case FAST_SAME: break;
    case FAST_EXP: bound = 3 + floor(fabs(2 * x)); break;
    case FAST_LOG:
      if (x >= 0.5 && x <= 2)
        err = fabsl((long double)got - ref) <= 0x1p-21 ? 0 : INFINITY;
      break;
    case FAST_SINCOS:
      if (fabs(x) > 3.14159265358979)
        return;
      err = fabsl((long double)got - ref) <= 0x1p-11 ? 0 : INFINITY;
      break;
    case FAST_UNCHECKED: bound = -1; break;
    }
  }
  if (isnan(err) || err > c->worst) {
    c->worst = isnan(err) ? INFINITY : err, c->worst_x = x, c->worst_y = y, c->worst_got = got;
    c->worst_ref = ref;
  }
  /* a bound of 0 ulp means correctly rounded: within half an ulp */
  if (bound >= 0)
    bound = fmax(bound, 0.5);
  if (bound >= 0 && !(err <= bound)) {
    double excess = isnan(err) ? INFINITY : err - bound;
    if (!c->failed || excess > c->excess)
      c->excess = excess, c->fail_x = x, c->fail_y = y, c->fail_got = got, c->fail_ref = ref;
    c->failed = true;
  }
}

/* The special operands every function also gets (not with fast math). */
static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, INFINITY, -INFINITY, NAN,
                                  1.17549435e-38, -1.17549435e-38, 1e-40, 3.40282347e38, -3.40282347e38};

static void make_inputs(const math_fn *f, shape sh, math_type t, bool fast, double *x, double *y) {
  uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)strlen(f->name) * 0x100000001b3ull ^ (uint64_t)t;
  for (const char *p = f->name; *p; p++)
    s = (s ^ (uint64_t)*p) * 0x100000001b3ull;
  size_t nspecial = fast ? 0 : sizeof specials / sizeof specials[0];
  for (size_t i = 0; i < N; i++) {
    x[i] = i < nspecial ? specials[i] : sample(&s, f->lo, f->hi);
    if (sh == WITH_INT_SHAPE)
      y[i] = rint(sample(&s, f->lo2, f->hi2));
    else if (sh == BINARY_SHAPE)
      y[i] = i >= nspecial && i < 2 * nspecial ? specials[i - nspecial] : sample(&s, f->lo2, f->hi2);
    else
      y[i] = 0;
    if (t != MATH_DOUBLE) { /* float operands: the reference sees what the kernel sees */
      x[i] = (float)x[i];
      if (sh != WITH_INT_SHAPE)
        y[i] = (float)y[i];
    }
    if (fast && t != MATH_DOUBLE && fabs(x[i]) < 1.17549435e-38) /* flushed operands */
      x[i] = 0;
  }
}

static bool run_function(math_run_fn run, void *self, const math_fn *f, math_type t, bool fast, FILE *out) {
  shape sh = shape_of(f->name);
  if (t == MATH_DOUBLE && sh == FLOAT_ONLY_SHAPE)
    return true;
  static double x[N], y[N];
  make_inputs(f, sh, t, fast, x, y);
  bool is_double = t == MATH_DOUBLE;
  size_t fsize = is_double ? sizeof(double) : sizeof(float);
  void *in0 = malloc(N * fsize), *in1 = malloc(N * (sh == WITH_INT_SHAPE ? sizeof(int) : fsize));
  void *res = malloc(N * fsize);
  for (size_t i = 0; i < N; i++) {
    if (is_double)
      ((double *)in0)[i] = x[i];
    else
      ((float *)in0)[i] = (float)x[i];
    if (sh == WITH_INT_SHAPE)
      ((int *)in1)[i] = (int)y[i];
    else if (is_double)
      ((double *)in1)[i] = y[i];
    else
      ((float *)in1)[i] = (float)y[i];
  }
  char kernel[64], why[512] = "";
  snprintf(kernel, sizeof kernel, "%c_%s", "fvd"[t], f->name);
  unsigned arity = sh == BINARY_SHAPE || sh == WITH_INT_SHAPE ? 2 : 1;
  const void *in[2] = {in0, in1};
  size_t lanes = t == MATH_FLOAT4 ? 4 : 1;
  size_t in_size[2] = {fsize * lanes, (sh == WITH_INT_SHAPE ? sizeof(int) : fsize) * lanes};
  bool ok = run(self, kernel, arity, in, in_size, res, fsize * lanes, N / lanes, why, sizeof why);
  check c = {0};
  for (size_t i = 0; ok && i < N; i++) {
    double got = is_double ? ((double *)res)[i] : ((float *)res)[i];
    check_one(&c, f, t, fast, x[i], y[i], got, f->ref(x[i], y[i]));
  }
  double bound = is_double ? f->ulp_double : f->ulp_float;
  const char *verdict = !ok ? "ERROR" : c.failed ? "FAIL" : bound < 0 ? "run" : "pass";
  if (ok)
    fprintf(out, "%-10s %-6s %10.3g %8.3g  %-5s %s at x=%.9g y=%.9g: %.17g, exact %.20Lg\n", f->name,
            (const char *[]){"float", "float4", "double"}[t], c.worst, bound, verdict,
            c.failed ? "beyond its bound" : "worst", c.failed ? c.fail_x : c.worst_x, c.failed ? c.fail_y : c.worst_y,
            c.failed ? c.fail_got : c.worst_got, c.failed ? c.fail_ref : c.worst_ref);
  else
    fprintf(out, "%-10s %-6s %10s %8.3g  %-5s %s\n", f->name, (const char *[]){"float", "float4", "double"}[t],
            "-", bound, verdict, why);
  free(in0);
  free(in1);
  free(res);
  return ok && !c.failed;
}

/* kernel in the comma-separated list known */
static bool is_known(const char *known, const char *kernel) {
  size_t n = strlen(kernel);
  for (const char *p = known; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
    if (strncmp(p, kernel, n) == 0 && (p[n] == ',' || p[n] == '\0'))
      return true;
  }
  return false;
}

unsigned math_suite_run(math_run_fn run, void *self, bool fast, bool has_double, const char *known, FILE *out) {
  unsigned failed = 0, rows = 0, known_failed = 0;
  fprintf(out, "%-10s %-6s %10s %8s  %-5s\n", "function", "type", "max ulp", "bound", "");
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
    for (math_type t = MATH_FLOAT; t <= MATH_DOUBLE; t++) {
      if (t == MATH_DOUBLE && !has_double)
        continue;
      rows++;
      char kernel[64];
      snprintf(kernel, sizeof kernel, "%c_%s", "fvd"[t], functions[i].name);
      if (!run_function(run, self, &functions[i], t, fast, out)) {
        bool k = is_known(known, kernel);
        known_failed += k, failed += !k;
        if (k)
          fprintf(out, "  (%s: a known failure of this implementation, not counted)\n", kernel);
      }
    }
  fprintf(out, "%u rows, %u failed, %u known failures%s\n", rows, failed, known_failed,
          fast ? " (built with -cl-fast-relaxed-math)" : "");
  return failed;
}

bool math_suite_args(int argc, char **argv, const char *input, bool *fast, const char **known) {
  *fast = false;
  *known = NULL;
  bool ok = argc >= 2;
  for (int i = 2; ok && i < argc; i++)
    if (strcmp(argv[i], "--fast") == 0)
      *fast = true;
    else if (strncmp(argv[i], "--known=", 8) == 0)
      *known = argv[i] + 8;
    else
      ok = false;
  if (!ok)
    fprintf(stderr, "usage: %s %s [--fast] [--known=K1,K2...]\n", argv[0], input);
  return ok;
}
