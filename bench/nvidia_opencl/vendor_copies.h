/* The benchmark kernels of bench/cuda as a user of NVIDIA's OpenCL
 * compiler has to write them today: it has neither cl_khr_extended_async_copies
 * nor gac's pipeline markers. The host program (vendor_bench.c) puts this
 * in front of the kernel's source, with one of
 *   VENDOR_1D     each 2D copy as one 1D async_work_group_copy per line,
 *                 chained on one event (the spec's own way), in 4-byte
 *                 units where the line allows;
 *   VENDOR_PLAIN  what a careful user of that driver writes instead: every
 *                 work-item loads its share of the tile into local memory
 *                 (16-byte units where addresses and sizes allow, else 4 or
 *                 1), and the wait is a barrier.
 * The markers are dropped: NVIDIA's compiler has no pipeliner. 3D copies
 * are one 2D copy a plane. */
#define gac_pipeline_loop(stages)
#define gac_pipeline_stage(stage, order)
#define GAC_ASYNC_STAGE(s) 0

#define VENDOR_LINEAR_ID() \
  (get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)))
#define VENDOR_GROUP_SIZE() (get_local_size(0) * get_local_size(1) * get_local_size(2))

#if defined(VENDOR_PLAIN)
/* Units of type T, `bytes` each: work-item id moves units id, id + n, ... */
#define VENDOR_COPY_UNITS(T, bytes)                                                                    \
  for (size_t units = line / (bytes), i = id; i < units * lines; i += n)                               \
  *(local T *)(d + (i / units) * dp + (i % units) * (bytes)) = *(const global T *)(s + (i / units) * sp + (i % units) * (bytes))
event_t vendor_copy_2D2D(local void *dst, size_t dst_offset, const global void *src, size_t src_offset,
                         size_t elem, size_t per_line, size_t lines, size_t src_pitch, size_t dst_pitch, event_t e) {
  local uchar *d = (local uchar *)dst + dst_offset * elem;
  const global uchar *s = (const global uchar *)src + src_offset * elem;
  size_t line = per_line * elem, dp = dst_pitch * elem, sp = src_pitch * elem;
  size_t id = VENDOR_LINEAR_ID(), n = VENDOR_GROUP_SIZE();
  size_t any = line | dp | sp | (size_t)d | (size_t)s;
  if ((any & 15) == 0)
    VENDOR_COPY_UNITS(uint4, 16);
  else if ((any & 3) == 0)
    VENDOR_COPY_UNITS(uint, 4);
  else
    VENDOR_COPY_UNITS(uchar, 1);
  return e;
}
#define wait_group_events(n, events) barrier(CLK_LOCAL_MEM_FENCE)
#else /* VENDOR_1D */
event_t vendor_copy_2D2D(local void *dst, size_t dst_offset, const global void *src, size_t src_offset,
                         size_t elem, size_t per_line, size_t lines, size_t src_pitch, size_t dst_pitch, event_t e) {
  local uchar *d = (local uchar *)dst + dst_offset * elem;
  const global uchar *s = (const global uchar *)src + src_offset * elem;
  size_t line = per_line * elem, dp = dst_pitch * elem, sp = src_pitch * elem;
  /* uint units only where both ends allow them: a local ushort array may
   * be 2-byte aligned (the corpus' volume_u16: a uint store there faults). */
  bool words = ((line | dp | sp | (size_t)d | (size_t)s) & 3) == 0;
  for (size_t l = 0; l < lines; l++) {
    if (words)
      e = async_work_group_copy((local uint *)(d + l * dp), (const global uint *)(s + l * sp), line / 4, e);
    else
      e = async_work_group_copy(d + l * dp, s + l * sp, line, e);
  }
  return e;
}
#endif
#define async_work_group_copy_2D2D vendor_copy_2D2D

/* A 3D copy (the corpus' stencil3d and volume_u16): one 2D copy a plane. */
event_t vendor_copy_3D3D(local void *dst, size_t dst_offset, const global void *src, size_t src_offset, size_t elem,
                         size_t per_line, size_t lines, size_t planes, size_t src_line_pitch, size_t src_plane_pitch,
                         size_t dst_line_pitch, size_t dst_plane_pitch, event_t e) {
  for (size_t p = 0; p < planes; p++)
    e = vendor_copy_2D2D(dst, dst_offset + p * dst_plane_pitch, src, src_offset + p * src_plane_pitch, elem, per_line,
                         lines, src_line_pitch, dst_line_pitch, e);
  return e;
}
#define async_work_group_copy_3D3D vendor_copy_3D3D
