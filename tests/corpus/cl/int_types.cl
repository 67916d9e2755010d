// 8-, 16- and 64-bit integers: arithmetic, saturation, rotates, widening.
kernel void int_types(global const char *c, global const uchar *uc,
                      global const short *s, global const ushort *us,
                      global const long *l, global ulong *ul, global char2 *c2,
                      global short4 *s4, global long2 *l2) {
  size_t i = get_global_id(0);
  char a = add_sat(c[i], (char)100);
  uchar b = sub_sat(uc[i], (uchar)7);
  short d = mul_hi(s[i], (short)300);
  ushort e = rotate(us[i], (ushort)3);
  long f = l[i] * 1000003L + (long)a;
  ulong g = ul[i];
  g = (g >> 17) | (g << 47);
  g ^= mul_hi(g, 0x9e3779b97f4a7c15UL);
  g += upsample((uint)e, (uint)b);
  ul[i] = g + (ulong)f + (ulong)d + clz(g) + popcount(f);
  c2[i] = c2[i] * (char2)(a, (char)b) - (char2)(3);
  s4[i] = convert_short4_sat(convert_int4(s4[i]) * 1000);
  l2[i] = l2[i] / (long2)(3, 7) + l2[i] % (long2)(5, 11) + (long2)(f, (long)g);
}
