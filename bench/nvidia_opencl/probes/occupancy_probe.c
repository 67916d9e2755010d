/* occupancy-probe: how many work-groups of 256 work-items, with S bytes of
 * static shared memory, run at once on one SM, through NVIDIA's OpenCL and
 * through the CUDA driver (the same PTX): each group spins 50 us on
 * %globaltimer and records its SM and its start and end times. Written to
 * rule occupancy out of the gap between the two drivers on the same PTX
 * (docs/VENDOR.md; docs/results/VENDOR.md: the same counts on both). On the GPU
 * machine, after `. bench/nvidia_opencl/nvidia_opencl.sh`:
 *   gcc -std=c17 -O2 $NVCL_CFLAGS -Ibench/nvidia_opencl bench/nvidia_opencl/probes/occupancy_probe.c
 *       bench/nvidia_opencl/nvcl.c $NVCL_LIBS -L$cuda/lib64 -lcuda -o occupancy-probe */
#include "nvcl.h"

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ptx_fmt =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry probe(.param .u64 .ptr .global .align 16 out_param)\n.reqntid 256, 1, 1\n{\n"
    ".reg .b32 %%r<10>;\n.reg .b64 %%rd<10>;\n.reg .pred %%p<3>;\n.shared .align 16 .b8 buf[%u];\n"
    "mov.u32 %%r1, %%tid.x;\nmov.u64 %%rd1, %%globaltimer;\nadd.u64 %%rd2, %%rd1, 50000;\n"
    "LOOP:\nmov.u64 %%rd3, %%globaltimer;\nsetp.lt.u64 %%p1, %%rd3, %%rd2;\n@%%p1 bra LOOP;\n"
    "shl.b32 %%r2, %%r1, 2;\nmov.u32 %%r3, buf;\nadd.u32 %%r4, %%r3, %%r2;\nst.shared.u32 [%%r4], %%r1;\nbar.sync 0;\n"
    "setp.ne.u32 %%p2, %%r1, 0;\n@%%p2 bra DONE;\nld.shared.u32 %%r5, [%%r3+%u];\nmov.u32 %%r6, %%smid;\n"
    "mov.u32 %%r7, %%ctaid.x;\nld.param.u64 %%rd4, [out_param];\nmul.wide.u32 %%rd5, %%r7, 24;\n"
    "add.u64 %%rd6, %%rd4, %%rd5;\nst.global.u64 [%%rd6], %%rd1;\nst.global.u64 [%%rd6+8], %%rd3;\n"
    "st.global.u32 [%%rd6+16], %%r6;\nst.global.u32 [%%rd6+20], %%r5;\nDONE:\nret;\n}\n";

typedef struct rec {
  unsigned long long start, end;
  unsigned sm, pad;
} rec;

/* The most groups found running at once on one SM, and how many groups
 * started with 1, 2, ... groups (themselves included) running on theirs. */
static void report(const char *how, unsigned smem, const rec *r, unsigned n) {
  unsigned best = 0, hist[64] = {0};
  for (unsigned i = 0; i < n; i++) {
    unsigned c = 0;
    for (unsigned j = 0; j < n; j++)
      c += r[j].sm == r[i].sm && r[j].start <= r[i].start && r[i].start < r[j].end;
    best = c > best ? c : best;
    hist[c < 63 ? c : 63]++;
  }
  printf("%-14s smem %6u: at most %u groups at once on one SM; groups by concurrency:", how, smem, best);
  for (unsigned c = 1; c < 64; c++)
    if (hist[c])
      printf(" %u:%u", c, hist[c]);
  printf("\n");
}

static void check_cu(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    printf("%s: CUDA error %d\n", what, (int)r);
    exit(1);
  }
}

int main(void) {
  nvcl cl;
  nvcl_open(&cl);
  enum { GROUPS = 132 * 8 };
  static const unsigned sizes[] = {8192, 24576, 32768, 40960, 49152};
  char ptx[4096];
  rec *r = calloc(GROUPS, sizeof *r);
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    snprintf(ptx, sizeof ptx, ptx_fmt, sizes[s], sizes[s] - 4);
    cl_program p = nvcl_build_ptx(&cl, ptx, strlen(ptx) + 1, "");
    if (!p)
      return 1;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "probe", &err);
    nvcl_check(err, "clCreateKernel");
    cl_mem buf = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, GROUPS * sizeof *r, NULL, &err);
    nvcl_check(err, "clCreateBuffer");
    nvcl_check(clSetKernelArg(k, 0, sizeof buf, &buf), "clSetKernelArg");
    size_t global = 256 * GROUPS, local = 256;
    for (int rep = 0; rep < 2; rep++) /* the second launch's records are read */
      nvcl_check(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), "enqueue");
    nvcl_check(clEnqueueReadBuffer(cl.queue, buf, CL_TRUE, 0, GROUPS * sizeof *r, r, 0, NULL, NULL), "read");
    report("NVIDIA OpenCL", sizes[s], r, GROUPS);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  CUdevice dev;
  CUcontext ctx;
  check_cu(cuInit(0), "cuInit");
  check_cu(cuDeviceGet(&dev, 0), "cuDeviceGet");
  check_cu(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check_cu(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    snprintf(ptx, sizeof ptx, ptx_fmt, sizes[s], sizes[s] - 4);
    CUmodule mod;
    CUfunction fn;
    CUdeviceptr d;
    check_cu(cuModuleLoadData(&mod, ptx), "cuModuleLoadData");
    check_cu(cuModuleGetFunction(&fn, mod, "probe"), "cuModuleGetFunction");
    check_cu(cuMemAlloc(&d, GROUPS * sizeof *r), "cuMemAlloc");
    void *params[] = {&d};
    for (int rep = 0; rep < 2; rep++)
      check_cu(cuLaunchKernel(fn, GROUPS, 1, 1, 256, 1, 1, 0, NULL, params, NULL), "cuLaunchKernel");
    check_cu(cuCtxSynchronize(), "cuCtxSynchronize");
    check_cu(cuMemcpyDtoH(r, d, GROUPS * sizeof *r), "cuMemcpyDtoH");
    report("CUDA driver", sizes[s], r, GROUPS);
    cuMemFree(d);
    cuModuleUnload(mod);
  }
  free(r);
  nvcl_close(&cl);
  return 0;
}
