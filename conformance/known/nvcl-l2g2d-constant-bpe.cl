/* A fault, since fixed (docs/LAYER.md; found by the Khronos CTS's
 * async_copy_local_to_global2D through the layer on an H200): gac's PTX of
 * this kernel for NVIDIA's OpenCL ABI faulted (CL_OUT_OF_RESOURCES at the
 * read-back) at every shape tried, while the same kernel with the element
 * size 4 computed at run time ran. The local argument was declared
 * `.ptr .shared .align 1` (its pointee is uchar), so NVIDIA's driver need
 * not align its allocation, and with the constant element size 4 the copy
 * lowering moves units of 4 bytes and more with no byte path. Local
 * arguments are now declared 16-byte aligned (llvm_gpu.c), as the CUDA
 * ABI's offsets are; lit ptx/opencl-abi.cl checks the declaration. Run it
 * as bench/nvidia_opencl/probes/repro_cts_l2g2d.c runs the CTS's kernel: arguments (src,
 * dst, local of lines * per * 4 bytes, per, lines, 13, per, per) as ulong,
 * groups of 7. */
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
