/* The quick start's host program (README.md): plain OpenCL, nothing of
 * gac's. It builds tile.cl from source on the first device and checks the
 * result; through gac's layer (OPENCL_LAYERS) the 2D copies work on a
 * driver that has none. Usage: scale_tiles tile.cl */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

enum { WIDTH = 64, HEIGHT = 48, TILE = 16 };

static int fail(const char *what, cl_int err) {
  fprintf(stderr, "scale_tiles: %s failed (%d)\n", what, err);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: scale_tiles tile.cl\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  static char source[1 << 16];
  size_t length = fread(source, 1, sizeof source - 1, f);
  fclose(f);
  const char *text = source;

  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  if (err != CL_SUCCESS)
    return fail("clGetPlatformIDs", err);
  if ((err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL)) != CL_SUCCESS)
    return fail("clGetDeviceIDs", err);
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    return fail("clCreateContext", err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  cl_program program = clCreateProgramWithSource(context, 1, &text, &length, &err);
  if (err != CL_SUCCESS)
    return fail("clCreateProgramWithSource", err);
  if ((err = clBuildProgram(program, 1, &device, "", NULL, NULL)) != CL_SUCCESS) {
    static char log[1 << 16];
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "%s\n", log);
    return fail("clBuildProgram", err);
  }
  cl_kernel kernel = clCreateKernel(program, "scale_tiles", &err);
  if (err != CL_SUCCESS)
    return fail("clCreateKernel", err);

  static float in[WIDTH * HEIGHT], out[WIDTH * HEIGHT];
  for (int i = 0; i < WIDTH * HEIGHT; i++)
    in[i] = (float)i;
  cl_mem in_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
  cl_mem out_buf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
  cl_ulong width = WIDTH;
  float factor = 3.0f;
  clSetKernelArg(kernel, 0, sizeof in_buf, &in_buf);
  clSetKernelArg(kernel, 1, sizeof out_buf, &out_buf);
  clSetKernelArg(kernel, 2, sizeof width, &width);
  clSetKernelArg(kernel, 3, sizeof factor, &factor);
  size_t global[2] = {WIDTH, HEIGHT}, local[2] = {TILE, TILE};
  if ((err = clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL)) != CL_SUCCESS)
    return fail("clEnqueueNDRangeKernel", err);
  if ((err = clEnqueueReadBuffer(queue, out_buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL)) != CL_SUCCESS)
    return fail("clEnqueueReadBuffer", err);

  int wrong = 0;
  for (int i = 0; i < WIDTH * HEIGHT; i++)
    wrong += out[i] != in[i] * factor;
  printf("scale_tiles: %d of %d values right\n", WIDTH * HEIGHT - wrong, WIDTH * HEIGHT);
  clReleaseMemObject(in_buf);
  clReleaseMemObject(out_buf);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return wrong != 0;
}
