// Math, common, geometric, integer and relational builtins.
kernel void math_builtins(global const float *x, global const float4 *v,
                          global float *out, global int *iout) {
  size_t i = get_global_id(0);
  float a = x[i];
  float r = sin(a) + cos(a) * tan(a * 0.5f) + exp(a) - log(fabs(a) + 1.0f);
  r += pow(fabs(a), 1.5f) + sqrt(fabs(a)) + rsqrt(fabs(a) + 1.0f);
  r += fma(a, 2.0f, 1.0f) + mad(a, a, a) + native_sin(a) + half_exp(a);
  r += fmin(a, 0.0f) + fmax(a, 1.0f) + clamp(a, -1.0f, 1.0f) + floor(a) + ceil(a);
  r += atan2(a, 2.0f) + hypot(a, 3.0f) + erf(a) + tgamma(fabs(a) + 1.0f);
  float ip;
  r += fract(a, &ip) + ip;
  int e;
  r += frexp(a, &e) + (float)e;
  float4 w = v[i];
  r += dot(w, w) + distance(w, (float4)(1.0f)) + normalize(w).x + cross(w, w.yzxw).z;
  out[i] = select(r, -r, isnan(r) || isinf(r));
  int n = (int)a;
  iout[i] = abs(n) + popcount(n) + clz(n) + max(n, 3) + min(n, -3) + mad24(n, 3, 1) +
            mul24(n, n) + hadd(n, 7) + rhadd(n, 9) + signbit(a);
}
