/* repro-cts-l2g2d PTX [LOCAL [GROUPS]]: a fault, fixed (docs/LAYER.md). The
 * Khronos CTS's async_copy_local_to_global2D kernel (STRUCT_SIZE 4), built by
 * gac-cc --emit=ptx --ptx-abi=opencl, run through NVIDIA's OpenCL with the
 * CTS's first 4-byte configuration: groups of LOCAL (7) work-items, 13 lines
 * of 10 elements per work-item, pitch 10 on both sides. On the H200 every
 * local size and group count tried faults (CL_OUT_OF_RESOURCES at the read),
 * from sm_80 and sm_90 PTX, OpenCL C 1.2 or 3.0, packed or not; with the 2D
 * copy removed it does not. NVIDIA's own build of the same kernel (a .cl
 * argument: the source with vendor_copies.h in front, VENDOR_PLAIN) runs in
 * this harness without a fault, so the fault was gac's: its local argument
 * was declared `.align 1`; declared `.align 16` it runs, and the result is
 * right.
 * Build: . nvidia_opencl.sh; gcc -std=c17 $NVCL_CFLAGS repro_cts_l2g2d.c nvcl.c $NVCL_LIBS -lm */
#include "nvcl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  nvcl cl; nvcl_open(&cl);
  size_t size; char *ptx = nvcl_read_file(argv[1], &size);
  size_t local = argc > 2 ? (size_t)atoi(argv[2]) : 7, groups = argc > 3 ? (size_t)atoi(argv[3]) : 1111;
  int per_line = 10, lines_wg = 13 * (int)local, lines_wi = 13, stride = 10;
  const unsigned char *b = (const unsigned char *)ptx; size_t n = size + 1; cl_int st, err;
  cl_program p;
  if (strstr(argv[1], ".cl")) { /* NVIDIA's own build (the source with vendor_copies.h in front) */
    p = nvcl_build_source(&cl, ptx, "");
    err = p ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
  } else {
    p = clCreateProgramWithBinary(cl.context, 1, &cl.device, &n, &b, &st, &err);
    err = clBuildProgram(p, 1, &cl.device, "", NULL, NULL);
  }
  cl_kernel k = clCreateKernel(p, "test_fn", &err);
  size_t bytes = groups * lines_wg * stride * 4;
  unsigned char *in = malloc(bytes), *out = calloc(bytes, 1);
  for (size_t i = 0; i < bytes; i++) in[i] = (unsigned char)(i * 7 + 3);
  cl_mem s = clCreateBuffer(cl.context, CL_MEM_COPY_HOST_PTR, bytes, in, &err);
  cl_mem d = clCreateBuffer(cl.context, CL_MEM_COPY_HOST_PTR, bytes, out, &err);
  clSetKernelArg(k, 0, sizeof s, &s); clSetKernelArg(k, 1, sizeof d, &d);
  clSetKernelArg(k, 2, (size_t)lines_wg * stride * 4, NULL);
  clSetKernelArg(k, 3, 4, &per_line); clSetKernelArg(k, 4, 4, &lines_wg); clSetKernelArg(k, 5, 4, &lines_wi);
  clSetKernelArg(k, 6, 4, &stride); clSetKernelArg(k, 7, 4, &stride);
  size_t global = groups * local;
  err = clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  printf("enqueue %d\n", err);
  err = clEnqueueReadBuffer(cl.queue, d, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
  printf("local %zu: read %d, %s\n", local, err, memcmp(in, out, bytes) ? "WRONG" : "right");
  return 0;
}
