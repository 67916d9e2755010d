/* An open fault (docs/LAYER.md, found by the Khronos CTS's
 * async_copy_local_to_global2D through the layer on an H200): gac's PTX of
 * this kernel, built with `gac-cc --emit=ptx --sm=80|90 --ptx-abi=opencl`,
 * faults in NVIDIA's OpenCL driver (CL_OUT_OF_RESOURCES at the read-back)
 * for every shape tried, plain, with -DWITH_IMPORT or -DFILL. With the
 * element size a run-time value (4 all the same: `(size_t)(unused - 9)`
 * with unused = 13) it runs; the suite's copy2d (copies.cl), whose element
 * size is an argument, runs too. So the fault is in the lowering of a 2D copy
 * out of local memory whose element size is the constant 4, for NVIDIA's
 * OpenCL ABI. Harness: bench/vendor/repro_cts_l2g2d.c's way, arguments
 * (src, dst, local of lines * per * 4 bytes, per, lines, 13, per, per) as
 * ulong, groups of 7. */
typedef uchar S;
kernel void test_fn(const global S *src, global S *dst, local S *localBuffer, ulong per, ulong lines,
                    ulong unused, ulong srcStride, ulong dstStride) {
#ifdef WITH_IMPORT
  event_t e0 = async_work_group_copy_2D2D(localBuffer, 0, src, lines * get_group_id(0) * srcStride, 4, per, lines,
                                          srcStride, srcStride, 0);
  wait_group_events(1, &e0);
#endif
#ifdef FILL
  for (size_t i = get_local_id(0); i < lines * srcStride * 4; i += get_local_size(0))
    localBuffer[i] = (uchar)i;
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  event_t event = async_work_group_copy_2D2D(dst, lines * get_group_id(0) * dstStride, localBuffer, 0, 4, per, lines,
                                             srcStride, dstStride, 0);
  wait_group_events(1, &event);
}
