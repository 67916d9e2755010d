// half: vload_half/vstore_half (core) and half arithmetic (cl_khr_fp16).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void half_fp16(global const half *in, global half *out, global float *f,
                      global half4 *h4) {
  size_t i = get_global_id(0);
  float a = vload_half(i, in);
  vstore_half_rte(a * 2.0f, i, out);
  float4 q = vload_half4(i, in);
  vstore_half4_rtz(q + a, i, out + 8);
  half h = in[i];
  half g = h * (half)1.5 + (half)0.25;
  h4[i] = h4[i] * (half4)(g) + (half4)(h);
  f[i] = (float)g + a;
}
