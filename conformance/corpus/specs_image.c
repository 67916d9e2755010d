/* Convolutions, stencils and image-like byte kernels. Float inputs are
 * small integers and the weights powers of two: results are exact. */
#include "specs.h"

enum { C1_N = 256, C1_R = 3 };

static void conv1d_ref(void *const *buf) {
  const float *in = buf[0], *w = buf[1];
  float *out = buf[2];
  for (size_t i = 0; i < C1_N; i++) {
    float acc = 0;
    for (size_t k = 0; k <= 2 * C1_R; k++)
      acc += w[k] * in[i + k];
    out[i] = acc;
  }
}
const corpus_spec gac_spec_conv1d = {
    1, {C1_N}, {64},
    {IN(CT_FLOAT, C1_N + 2 * C1_R, GEN_INTS, -50, 50), IN(CT_FLOAT, 2 * C1_R + 1, GEN_INTS, -4, 4),
     OUT(CT_FLOAT, C1_N)},
    conv1d_ref, EXACT, NULL};

enum { IMG_W = 32, IMG_H = 16, IMG_P = IMG_W + 2 };

static void conv2d_ref(void *const *buf) {
  static const float f[3][3] = {{0.0625f, 0.125f, 0.0625f}, {0.125f, 0.25f, 0.125f}, {0.0625f, 0.125f, 0.0625f}};
  const float *in = buf[0];
  float *out = buf[1];
  for (int y = 0; y < IMG_H; y++)
    for (int x = 0; x < IMG_W; x++) {
      float acc = 0;
      for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++)
          acc += f[dy][dx] * in[(y + dy) * IMG_P + x + dx];
      out[y * IMG_W + x] = acc;
    }
}
const corpus_spec gac_spec_conv2d = {
    2, {IMG_W, IMG_H}, {8, 8},
    {IN(CT_FLOAT, IMG_P * (IMG_H + 2), GEN_INTS, 0, 255), OUT(CT_FLOAT, IMG_W * IMG_H), SCALAR(CT_INT, IMG_W)},
    conv2d_ref, EXACT, NULL};

/* The 3x3 neighbourhood of (x, y) in a bordered byte image. */
static void neighbourhood(const uint8_t *in, int x, int y, int s[3][3]) {
  for (int dy = 0; dy < 3; dy++)
    for (int dx = 0; dx < 3; dx++)
      s[dy][dx] = in[(y + dy) * IMG_P + x + dx];
}

static void box_blur_ref(void *const *buf) {
  uint8_t *out = buf[1];
  for (int y = 0; y < IMG_H; y++)
    for (int x = 0; x < IMG_W; x++) {
      int s[3][3], sum = 0;
      neighbourhood(buf[0], x, y, s);
      for (int i = 0; i < 9; i++)
        sum += s[i / 3][i % 3];
      out[y * IMG_W + x] = (uint8_t)(sum / 9);
    }
}

static void sobel_ref(void *const *buf) {
  uint8_t *out = buf[1];
  for (int y = 0; y < IMG_H; y++)
    for (int x = 0; x < IMG_W; x++) {
      int s[3][3];
      neighbourhood(buf[0], x, y, s);
      int gx = s[0][2] + 2 * s[1][2] + s[2][2] - s[0][0] - 2 * s[1][0] - s[2][0];
      int gy = s[2][0] + 2 * s[2][1] + s[2][2] - s[0][0] - 2 * s[0][1] - s[0][2];
      out[y * IMG_W + x] = (uint8_t)sat(abs(gx) + abs(gy), 0, 255);
    }
}

#define FILTER_U8(name)                                                                                      \
  const corpus_spec gac_spec_##name = {                                                                      \
      2, {IMG_W, IMG_H}, {8, 8},                                                                             \
      {IN(CT_UCHAR, IMG_P * (IMG_H + 2), GEN_BITS, 0, 0), OUT(CT_UCHAR, IMG_W * IMG_H), SCALAR(CT_INT, IMG_W)}, \
      name##_ref, EXACT, NULL};
FILTER_U8(box_blur)
FILTER_U8(sobel)

static void rgba_to_gray_ref(void *const *buf) {
  const uint8_t *in = buf[0];
  uint8_t *out = buf[1];
  for (int i = 0; i < IMG_W * IMG_H; i++) {
    const uint8_t *p = in + 4 * i;
    float v = (0.25f * p[0] + 0.5f * p[1] + 0.25f * p[2]) * 1.5f;
    out[i] = (uint8_t)convert_sat(v, 0, 255, true);
  }
}
const corpus_spec gac_spec_rgba_to_gray = {
    2, {IMG_W, IMG_H}, {16, 8},
    {IN(CT_UCHAR, 4 * IMG_W * IMG_H, GEN_BITS, 0, 0), OUT(CT_UCHAR, IMG_W * IMG_H), SCALAR(CT_INT, IMG_W)},
    rgba_to_gray_ref, EXACT, NULL};

enum { PIX = 256 };

static void brightness_ref(void *const *buf) {
  const uint8_t *in = buf[0];
  uint8_t *out = buf[1];
  int gain = *(const int32_t *)buf[2], bias = *(const int32_t *)buf[3];
  for (int i = 0; i < 4 * PIX; i++)
    out[i] = i % 4 == 3 ? in[i] : (uint8_t)sat((in[i] - 128) * gain / 16 + 128 + bias, 0, 255);
}
const corpus_spec gac_spec_brightness = {
    1, {PIX}, {64},
    {IN(CT_UCHAR, 4 * PIX, GEN_BITS, 0, 0), OUT(CT_UCHAR, 4 * PIX), SCALAR(CT_INT, 24), SCALAR(CT_INT, -10)},
    brightness_ref, EXACT, NULL};

static void threshold_ref(void *const *buf) {
  const uint8_t *in = buf[0];
  uint8_t *out = buf[1], t = *(const uint8_t *)buf[2];
  for (int i = 0; i < 16 * 64; i++)
    out[i] = in[i] > t ? 240 : 16;
}
const corpus_spec gac_spec_threshold = {
    1, {64}, {32}, {IN(CT_UCHAR, 16 * 64, GEN_BITS, 0, 0), OUT(CT_UCHAR, 16 * 64), SCALAR(CT_UCHAR, 100)},
    threshold_ref, EXACT, NULL};

enum { VOL = 8, VP = VOL + 2 };

static void stencil3d_ref(void *const *buf) {
  const float *in = buf[0];
  float *out = buf[1];
#define AT(dx, dy, dz) in[(z + 1 + (dz)) * VP * VP + (y + 1 + (dy)) * VP + x + 1 + (dx)]
  for (int z = 0; z < VOL; z++)
    for (int y = 0; y < VOL; y++)
      for (int x = 0; x < VOL; x++)
        out[(z * VOL + y) * VOL + x] = 0.25f * AT(0, 0, 0) + 0.125f * (AT(-1, 0, 0) + AT(1, 0, 0) + AT(0, -1, 0) +
                                                                      AT(0, 1, 0) + AT(0, 0, -1) + AT(0, 0, 1));
#undef AT
}
const corpus_spec gac_spec_stencil3d = {
    3, {VOL, VOL, VOL}, {4, 4, 4},
    {IN(CT_FLOAT, VP * VP * VP, GEN_INTS, -100, 100), OUT(CT_FLOAT, VOL * VOL * VOL), SCALAR(CT_INT, VOL)},
    stencil3d_ref, EXACT, NULL};

static void volume_u16_ref(void *const *buf) {
  const uint16_t *in = buf[0];
  uint16_t *out = buf[1], add = *(const uint16_t *)buf[3];
  for (int i = 0; i < VOL * VOL * VOL; i++)
    out[i] = (uint16_t)sat((in[i] + (in[i] >> 2)) / 2 + add, 0, 65535);
}
const corpus_spec gac_spec_volume_u16 = {
    3, {VOL, VOL, VOL}, {4, 4, 4},
    {IN(CT_USHORT, VOL * VOL * VOL, GEN_BITS, 0, 0), OUT(CT_USHORT, VOL * VOL * VOL), SCALAR(CT_INT, VOL),
     SCALAR(CT_USHORT, 1000)},
    volume_u16_ref, EXACT, NULL};

enum { FW = 24, FH = 8 };

static void flip_divmod_ref(void *const *buf) {
  const uint8_t *in = buf[0];
  uint8_t *out = buf[1];
  for (int y = 0; y < FH; y++)
    for (int x = 0; x < FW; x++) {
      const uint8_t *p = in + 4 * (y * FW + x);
      uint8_t *q = out + 4 * (y * FW + FW - 1 - x);
      q[0] = p[2], q[1] = p[1], q[2] = p[0], q[3] = p[3];
    }
}
const corpus_spec gac_spec_flip_divmod = {
    1, {FW * FH}, {2 * FW}, {IN(CT_UCHAR, 4 * FW * FH, GEN_BITS, 0, 0), OUT(CT_UCHAR, 4 * FW * FH), SCALAR(CT_INT, FW)},
    flip_divmod_ref, EXACT, NULL};

enum { TW = 24, TH = 10 };

static void transpose_divmod_ref(void *const *buf) {
  const float *in = buf[0];
  float *out = buf[1];
  for (int i = 0; i < TW * TH; i++)
    out[(i % TW) * TH + i / TW] = in[i];
}
const corpus_spec gac_spec_transpose_divmod = {
    1, {TW * TH}, {2 * TW},
    {IN(CT_FLOAT, TW * TH, GEN_REAL, -1e3, 1e3), OUT(CT_FLOAT, TW * TH), SCALAR(CT_INT, TW), SCALAR(CT_INT, TH)},
    transpose_divmod_ref, EXACT, NULL};
