// 1D convolution with a (2R+1)-tap filter passed as a __constant argument;
// the input carries R elements of padding on each side.
#ifndef R
#define R 3
#endif

kernel void conv1d(global const float *in, constant float *w, global float *out) {
  size_t i = get_global_id(0), lid = get_local_id(0), L = get_local_size(0);
#if GAC_ASYNC
  local float line[256 + 2 * R]; // L <= 256
  event_t e = async_work_group_copy_2D2D(line, 0, in, get_group_id(0) * L, sizeof(float), L + 2 * R, 1,
                                         L + 2 * R, L + 2 * R, 0);
  wait_group_events(1, &e);
  const local float *x = line + lid;
#else
  const global float *x = in + i;
#endif
  float acc = 0.0f;
  for (int k = 0; k <= 2 * R; k++)
    acc += w[k] * x[k];
  out[i] = acc;
}
