// Program-scope constant arrays and tables indexed at run time.
constant float weights[9] = {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f,
                             0.125f, 0.0625f, 0.125f, 0.0625f};
constant int offsets[9][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {0, 0},
                              {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
constant uchar lut[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
constant char message[] = "constant string";
// 80 entries: its OpConstantComposite is one text line of more than 64 tokens.
constant ushort squares[80] = {
    0,    1,    4,    9,    16,   25,   36,   49,   64,   81,   100,  121,  144,  169,
    196,  225,  256,  289,  324,  361,  400,  441,  484,  529,  576,  625,  676,  729,
    784,  841,  900,  961,  1024, 1089, 1156, 1225, 1296, 1369, 1444, 1521, 1600, 1681,
    1764, 1849, 1936, 2025, 2116, 2209, 2304, 2401, 2500, 2601, 2704, 2809, 2916, 3025,
    3136, 3249, 3364, 3481, 3600, 3721, 3844, 3969, 4096, 4225, 4356, 4489, 4624, 4761,
    4900, 5041, 5184, 5329, 5476, 5625, 5776, 5929, 6084, 6241};

kernel void constant_arrays(global const float *img, global float *out, int w, int h,
                            global uchar *bits, global ushort *sq) {
  int x = (int)get_global_id(0);
  int y = (int)get_global_id(1);
  float acc = 0.0f;
  // Fully unrolled: at -O2 the rolled loop is laid out with its exit block
  // before the loop body, and llvm-spirv-15 keeps that order, so spirv-val
  // rejects the module (a use in the exit block of a value defined later).
#pragma unroll
  for (int k = 0; k < 9; ++k) {
    int xx = clamp(x + offsets[k][0], 0, w - 1);
    int yy = clamp(y + offsets[k][1], 0, h - 1);
    acc += weights[k] * img[yy * w + xx];
  }
  out[y * w + x] = acc;
  sq[x] = squares[(x * 7 + y) & 63] + squares[79 - (x & 15)];
  uchar b = bits[x];
  bits[x] = lut[b & 15] + lut[b >> 4] + (uchar)message[x & 15];
}
