/* Seeds of fuzz_emit_gpu (README.md): one small kernel per module, made with
 *   gac-cc -O2 -DSEED=<n> kernels.cl -o seed.spv && spirv-dis seed.spv
 * (SPIR-V 1.0 from llvm-spirv-15, raised: what --emit=ptx/amdgcn take). */
#if SEED == 1
/* Runtime shape, global -> local and back (2D). */
kernel void copy2d(global const float *src, global float *dst, local float *tile, ulong per_line,
                   ulong lines, ulong src_line, ulong dst_line) {
  event_t e = async_work_group_copy_2D2D(tile, 0, src, get_group_id(0) * per_line, 4, per_line, lines,
                                         src_line, per_line, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy_2D2D(dst, get_group_id(0) * per_line, tile, 0, 4, per_line, lines, per_line,
                                 dst_line, 0);
  wait_group_events(1, &e);
}
#elif SEED == 2
/* Constant 3D shape, a required work-group size (sm_90 bulk copies). */
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void copy3d(global const int *src, global int *out) {
  local int tile[4 * 8 * 16];
  event_t e = async_work_group_copy_3D3D(tile, 0, src, get_group_id(0) * 512, 4, 16, 8, 4, 64, 4096, 16, 128, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)] + tile[511 - get_local_id(0)];
}
#elif SEED == 3
/* A queue: four copies in flight, waits with a runtime and a constant count. */
kernel void queue(global const float *in, global float *out, local float *buf, uint n) {
  for (uint i = 0; i < 4; i++)
    gac_async_commit(0, async_work_group_copy_2D2D(buf, i * 16, in, i * 16, 4, 16, 1, 16, 16, 0));
  gac_async_wait(0, n);
  gac_async_wait(0, 0);
  out[get_local_id(0)] = buf[get_local_id(0)];
}
#elif SEED == 4
/* OpenCL's own 1D copies (core OpGroupAsyncCopy) beside a 2D one of bytes. */
kernel void mixed(global const uchar *src, global uchar *dst, local uchar *a, local uchar *b, ulong n) {
  event_t e = async_work_group_strided_copy(a, src, n, 3, 0);
  e = async_work_group_copy_2D2D(b, 0, src, n, 1, 24, 3, 64, 24, e);
  wait_group_events(1, &e);
  dst[get_global_id(0)] = a[get_local_id(0)] ^ b[get_local_id(0)];
}
#endif
