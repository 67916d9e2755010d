// Transpose a W x H float matrix over a 1D range (i / W, i % W).
kernel void transpose_divmod(global const float *in, global float *out, int w, int h) {
  int i = get_global_id(0), y = i / w, x = i % w;
#if GAC_ASYNC
  local float rows[2 * 64]; // a group covers two rows, w <= 64
  event_t e = async_work_group_copy_2D2D(rows, 0, in, get_group_id(0) * 2 * w, sizeof(float), w, 2, w, w, 0);
  wait_group_events(1, &e);
  float v = rows[get_local_id(0)];
#else
  float v = in[i];
#endif
  out[x * h + y] = v;
}
