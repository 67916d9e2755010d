/* The functions of the math accuracy suite, as X(name, shape): shape is
 * UNARY, BINARY, WITH_INT (a float and an int) or FLOAT_ONLY (unary, no
 * double: native_ functions). Included by math.cl
 * (kernels) and math_table.c (references, domains, bounds). */
UNARY(acos) UNARY(acosh) UNARY(asin) UNARY(asinh) UNARY(atan) UNARY(atanh)
BINARY(atan2) UNARY(cbrt) UNARY(cos) UNARY(cosh) UNARY(cospi) UNARY(erf)
UNARY(erfc) UNARY(exp) UNARY(exp2) UNARY(exp10) UNARY(expm1) BINARY(fmod)
BINARY(hypot) UNARY(lgamma) UNARY(log) UNARY(log2) UNARY(log10) UNARY(log1p)
BINARY(pow) BINARY(powr) WITH_INT(pown) WITH_INT(ldexp) BINARY(remainder)
UNARY(rsqrt) UNARY(sin) UNARY(sinh) UNARY(sinpi) UNARY(tan) UNARY(tanh)
UNARY(tgamma) WITH_INT(rootn) UNARY(acospi) UNARY(asinpi) UNARY(atanpi)
UNARY(tanpi) UNARY(sqrt) UNARY(fabs) UNARY(floor) BINARY(fmax) BINARY(fmin)
FLOAT_ONLY(native_exp) FLOAT_ONLY(native_log) FLOAT_ONLY(native_sin) FLOAT_ONLY(native_cos)
