// 3x3 convolution with a program-scope __constant filter over a W x H image
// stored with a one-pixel border (pitch W + 2).
constant float filter[3][3] = {{0.0625f, 0.125f, 0.0625f}, {0.125f, 0.25f, 0.125f}, {0.0625f, 0.125f, 0.0625f}};
#define TX 8
#define TY 8

kernel void conv2d(global const float *in, global float *out, int width) {
  int x = get_global_id(0), y = get_global_id(1), pitch = width + 2;
  int lx = get_local_id(0), ly = get_local_id(1);
#if GAC_ASYNC
  local float tile[TY + 2][TX + 2];
  event_t e = async_work_group_copy_2D2D(tile, 0, in, get_group_id(1) * TY * pitch + get_group_id(0) * TX,
                                         sizeof(float), TX + 2, TY + 2, pitch, TX + 2, 0);
  wait_group_events(1, &e);
#define PIXEL(dx, dy) tile[ly + (dy)][lx + (dx)]
#else
#define PIXEL(dx, dy) in[(y + (dy)) * pitch + x + (dx)]
#endif
  float acc = 0.0f;
  for (int dy = 0; dy < 3; dy++)
    for (int dx = 0; dx < 3; dx++)
      acc += filter[dy][dx] * PIXEL(dx, dy);
  out[y * width + x] = acc;
}
