// Helper functions kept out of line, and a kernel with many arguments of
// every address space and of scalar and vector types.
__attribute__((noinline)) float lerp_helper(float a, float b, float t) {
  return a + (b - a) * t;
}

__attribute__((noinline)) void store_pair(global float *p, float a, float b) {
  p[0] = a;
  p[1] = b;
}

__attribute__((noinline)) int reduce_local(local int *l, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += l[i];
  return s;
}

kernel void helpers_many_args(global float *out, global const float *a,
                              global const float *b, constant float *c,
                              local int *scratch, float t, int n, uint mask,
                              char c8, short s16, long l64, ulong u64,
                              float2 f2, float4 f4, int4 i4, uchar4 u4,
                              global int *iout, global long *lout) {
  size_t i = get_global_id(0);
  size_t lid = get_local_id(0);
  scratch[lid] = (int)(i & mask);
  barrier(CLK_LOCAL_MEM_FENCE);
  float v = lerp_helper(a[i], b[i], t) * c[i % 4];
  store_pair(out + 2 * i, v + f2.x + f4.w, v * f2.y);
  iout[i] = reduce_local(scratch, n) + c8 + s16 + i4.z + u4.w;
  lout[i] = l64 + (long)u64;
}
