// Vector types, swizzles, shuffles and conversions.
kernel void vector_swizzle(global const float4 *in, global float4 *out,
                           global int8 *ints, global uchar16 *bytes) {
  size_t i = get_global_id(0);
  float4 v = in[i];
  float4 r = v.wzyx + v.xxyy * (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  r.lo = r.hi * v.s01;
  r.odd += v.even;
  out[i] = r;

  int8 a = ints[i];
  int8 b = a.s76543210 ^ (int8)(1, 2, 3, 4, 5, 6, 7, 8);
  int4 m = shuffle(a.lo, (uint4)(3, 2, 1, 0));
  b.hi += m;
  ints[i] = b;

  uchar16 c = bytes[i];
  c = c.sfedcba9876543210 + convert_uchar16_sat(convert_int16(c) * 2);
  bytes[i] = c;
  out[i].w = dot(v, r) + length(v.xyz);
}
