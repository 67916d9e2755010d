/* The math accuracy suite (docs/PTX.md, "The OpenCL C library"): every
 * function of math_functions.h, in float, float4 and double, on inputs
 * across its domain and its special values, against a long double
 * reference, with the OpenCL C ULP bounds (full profile; with
 * -cl-fast-relaxed-math the relaxed bounds where the specification gives
 * them). The same table runs on OpenCL (math_opencl.c) and on CUDA from
 * gac's PTX (math_cuda.c). */
#ifndef GAC_MATH_SUITE_H
#define GAC_MATH_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum math_type { MATH_FLOAT, MATH_FLOAT4, MATH_DOUBLE } math_type;

/* Runs kernel `name` over n work-items (n / 4 for float4): arity inputs of
 * n elements each (in[i] of in_size[i] bytes per element), one output of
 * n elements of out_size bytes. False with `why` on failure. */
typedef bool (*math_run_fn)(void *self, const char *name, unsigned arity, const void *const *in,
                            const size_t *in_size, void *out, size_t out_size, size_t n, char *why,
                            size_t why_len);

/* Runs the suite; prints a table; returns the number of failed rows not in
 * `known` (kernel names such as v_sin, comma-separated: failures of the
 * implementation under test that are not gac's, printed but not counted).
 * fast: the kernels were built with -cl-fast-relaxed-math. */
unsigned math_suite_run(math_run_fn run, void *self, bool fast, bool has_double, const char *known, FILE *out);

/* A runner's command line: argv[1] the input, then --fast and
 * --known=K1,K2... (unknown options are an error). False with the usage
 * printed (`input` names argv[1] there). */
bool math_suite_args(int argc, char **argv, const char *input, bool *fast, const char **known);

#endif
