// printf with several conversions, including a vector one.
kernel void printf_kernel(global const int *in, global const float4 *v) {
  size_t i = get_global_id(0);
  if (i == 0)
    printf("hello from %d\n", (int)get_group_id(0));
  printf("in[%u]=%d x=%f v=%v4hlf s=%s\n", (uint)i, in[i], (float)in[i] * 0.5f, v[i], "str");
}
