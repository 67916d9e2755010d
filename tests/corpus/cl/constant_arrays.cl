// Program-scope constant arrays and tables indexed at run time.
constant float weights[9] = {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f,
                             0.125f, 0.0625f, 0.125f, 0.0625f};
constant int offsets[9][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {0, 0},
                              {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
constant uchar lut[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
constant char message[] = "constant string";

kernel void constant_arrays(global const float *img, global float *out, int w, int h,
                            global uchar *bits) {
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
  uchar b = bits[x];
  bits[x] = lut[b & 15] + lut[b >> 4] + (uchar)message[x & 15];
}
