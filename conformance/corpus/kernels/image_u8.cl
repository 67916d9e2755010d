// Byte images with a one-pixel border (pitch W + 2): a 3x3 box blur and a
// Sobel edge magnitude, each from a local tile with its halo in the async
// variant. KERNEL selects which (-DSOBEL).
#define TX 8
#define TY 8

static uchar blur(int s[3][3]) {
  int sum = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      sum += s[i][j];
  return (uchar)(sum / 9);
}

static uchar sobel(int s[3][3]) {
  int gx = s[0][2] + 2 * s[1][2] + s[2][2] - s[0][0] - 2 * s[1][0] - s[2][0];
  int gy = s[2][0] + 2 * s[2][1] + s[2][2] - s[0][0] - 2 * s[0][1] - s[0][2];
  return convert_uchar_sat(abs(gx) + abs(gy));
}

kernel void filter_u8(global const uchar *in, global uchar *out, int width) {
  int x = get_global_id(0), y = get_global_id(1), pitch = width + 2;
  int lx = get_local_id(0), ly = get_local_id(1);
#if GAC_ASYNC
  local uchar tile[TY + 2][TX + 2];
  event_t e = async_work_group_copy_2D2D(tile, 0, in, get_group_id(1) * TY * pitch + get_group_id(0) * TX, 1,
                                         TX + 2, TY + 2, pitch, TX + 2, 0);
  wait_group_events(1, &e);
#endif
  int s[3][3];
  for (int dy = 0; dy < 3; dy++)
    for (int dx = 0; dx < 3; dx++)
#if GAC_ASYNC
      s[dy][dx] = tile[ly + dy][lx + dx];
#else
      s[dy][dx] = in[(y + dy) * pitch + x + dx];
#endif
#ifdef SOBEL
  out[y * width + x] = sobel(s);
#else
  out[y * width + x] = blur(s);
#endif
}
