/* The gac layer seen from an unmodified host program: run with
 * OPENCL_LAYERS=<libgac-layer.so>. Arguments: a SPIR-V module with
 * GroupAsyncCopy2D2D/3D3D (kernel copy2d of conformance/kernels/copies.cl,
 * raised), a module that breaks one of the set's rules, and copies.cl itself. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS /* clSetProgramReleaseCallback */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdbool.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static unsigned passed, failed;

static void report(const char *name, bool ok, const char *detail) {
  printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ", ok ? "" : detail);
  ok ? passed++ : failed++;
}

static char *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *d = malloc(*size + 1);
  if (fread(d, 1, *size, f) != *size) {
    free(d);
    d = NULL;
  }
  fclose(f);
  return d;
}

typedef cl_int (*info_query)(void *object, cl_uint param, size_t size, void *value, size_t *size_ret);

/* A string-valued query, NUL-terminated and malloc'd. */
static char *query_string(info_query query, void *object, cl_uint param) {
  size_t n = 0;
  query(object, param, 0, NULL, &n);
  char *s = calloc(1, n + 1);
  query(object, param, n, s, NULL);
  return s;
}

static cl_int platform_info(void *o, cl_uint p, size_t n, void *v, size_t *r) { return clGetPlatformInfo(o, p, n, v, r); }
static cl_int device_info(void *o, cl_uint p, size_t n, void *v, size_t *r) { return clGetDeviceInfo(o, p, n, v, r); }
static char *platform_string(cl_platform_info p) { return query_string(platform_info, platform, p); }
static char *device_string(cl_device_info p) { return query_string(device_info, device, p); }

static void test_extensions(void) {
  char *p = platform_string(CL_PLATFORM_EXTENSIONS), *d = device_string(CL_DEVICE_EXTENSIONS);
  char *il = device_string(CL_DEVICE_IL_VERSION);
  report("platform extensions", strstr(p, "cl_khr_il_program") && strstr(p, "cl_khr_extended_async_copies"), p);
  report("device extensions", strstr(d, "cl_khr_il_program") && strstr(d, "cl_khr_extended_async_copies") &&
                                  strstr(d, "cl_khr_async_work_group_copy_fence"), d);
  report("device IL version", strstr(il, "SPIR-V_1.0") != NULL, il);
  size_t n = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &n);
  cl_name_version *v = malloc(n);
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, n, v, NULL);
  bool found = false, fence = false;
  for (size_t i = 0; i < n / sizeof *v; i++) {
    found = found || strcmp(v[i].name, "cl_khr_extended_async_copies") == 0;
    fence = fence || strcmp(v[i].name, "cl_khr_async_work_group_copy_fence") == 0;
  }
  report("device extensions with version", found && fence,
         "cl_khr_extended_async_copies or cl_khr_async_work_group_copy_fence missing");
  free(v);
  free(p);
  free(d);
  /* GAC_LAYER_HIDE_EXTENSIONS: the fence not reported, the copies still. */
  setenv("GAC_LAYER_HIDE_EXTENSIONS", "cl_khr_async_work_group_copy_fence", 1);
  p = platform_string(CL_PLATFORM_EXTENSIONS), d = device_string(CL_DEVICE_EXTENSIONS);
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &n);
  v = malloc(n);
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, n, v, NULL);
  found = fence = false;
  for (size_t i = 0; i < n / sizeof *v; i++) {
    found = found || strcmp(v[i].name, "cl_khr_extended_async_copies") == 0;
    fence = fence || strcmp(v[i].name, "cl_khr_async_work_group_copy_fence") == 0;
  }
  report("GAC_LAYER_HIDE_EXTENSIONS leaves the fence out",
         !strstr(p, "cl_khr_async_work_group_copy_fence") && !strstr(d, "cl_khr_async_work_group_copy_fence") &&
             strstr(d, "cl_khr_extended_async_copies") && found && !fence,
         d);
  unsetenv("GAC_LAYER_HIDE_EXTENSIONS");
  free(v);
  free(p);
  free(d);
  d = device_string(CL_DEVICE_EXTENSIONS);
  report("and reports it again without it", strstr(d, "cl_khr_async_work_group_copy_fence") != NULL, d);
  free(d);
  free(il);
}

/* copy2d: a 7 x 5 tile of 4-byte elements per group, global -> local -> global. */
static bool run_copy2d(cl_program program, char *why, size_t why_len) {
  cl_int err;
  cl_kernel k = clCreateKernel(program, "copy2d", &err);
  if (err != CL_SUCCESS) {
    snprintf(why, why_len, "clCreateKernel: %d", err);
    return false;
  }
  enum { BPE = 4, PER_LINE = 7, LINES = 5, SRC_LINE = 9, GROUPS = 3, STRIDE = SRC_LINE * LINES };
  unsigned char src[GROUPS * STRIDE * BPE], dst[sizeof src], want[sizeof src];
  for (size_t i = 0; i < sizeof src; i++)
    src[i] = (unsigned char)(i * 7 + 1);
  memset(dst, 0xee, sizeof dst);
  memset(want, 0xee, sizeof want);
  for (int g = 0; g < GROUPS; g++)
    for (int l = 0; l < LINES; l++)
      memcpy(want + (g * STRIDE + l * SRC_LINE) * BPE, src + (g * STRIDE + l * SRC_LINE) * BPE, PER_LINE * BPE);
  cl_mem s = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
  cl_mem d = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof dst, dst, &err);
  cl_ulong args[] = {BPE, PER_LINE, LINES, 0, SRC_LINE, 0, PER_LINE, 0, SRC_LINE, STRIDE};
  clSetKernelArg(k, 0, sizeof s, &s);
  clSetKernelArg(k, 1, sizeof d, &d);
  clSetKernelArg(k, 2, PER_LINE * LINES * BPE, NULL);
  for (unsigned i = 0; i < sizeof args / sizeof args[0]; i++)
    clSetKernelArg(k, 3 + i, sizeof(cl_ulong), &args[i]);
  size_t global = GROUPS * 17, local = 17;
  err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(queue, d, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL);
  clReleaseMemObject(s);
  clReleaseMemObject(d);
  clReleaseKernel(k);
  if (err != CL_SUCCESS) {
    snprintf(why, why_len, "OpenCL error %d", err);
    return false;
  }
  if (memcmp(dst, want, sizeof dst) != 0) {
    snprintf(why, why_len, "the copied data differ from the reference");
    return false;
  }
  return true;
}

static void test_il_program(const char *path) {
  size_t size;
  char *il = read_all(path, &size), why[512] = "";
  cl_int err;
  cl_program p = clCreateProgramWithIL(context, il, size, &err);
  snprintf(why, sizeof why, "clCreateProgramWithIL: %d", err);
  report("clCreateProgramWithIL", p && err == CL_SUCCESS, why);
  if (!p) {
    free(il);
    return;
  }
  err = clBuildProgram(p, 1, &device, "-cl-std=CL1.2", NULL, NULL);
  snprintf(why, sizeof why, "clBuildProgram: %d", err);
  report("clBuildProgram of the IL", err == CL_SUCCESS, why);
  report("kernel with 2D copies runs", err == CL_SUCCESS && run_copy2d(p, why, sizeof why), why);

  size_t n = 0;
  clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &n);
  char *back = malloc(n ? n : 1);
  clGetProgramInfo(p, CL_PROGRAM_IL, n, back, NULL);
  report("CL_PROGRAM_IL is the input", n == size && memcmp(back, il, size) == 0, "differs");
  free(back);
  clReleaseProgram(p);

  typedef cl_program(CL_API_CALL * create_khr)(cl_context, const void *, size_t, cl_int *);
  create_khr khr = (create_khr)clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR");
  p = khr ? khr(context, il, size, &err) : NULL;
  bool ok = p && clBuildProgram(p, 1, &device, NULL, NULL, NULL) == CL_SUCCESS && run_copy2d(p, why, sizeof why);
  report("clCreateProgramWithILKHR", ok, khr ? why : "no such extension function");
  if (p)
    clReleaseProgram(p);
  free(il);
}

static void test_errors(const char *invalid_path) {
  cl_int err = CL_SUCCESS;
  const char junk[] = "this is not SPIR-V, just text";
  cl_program p = clCreateProgramWithIL(context, junk, sizeof junk, &err);
  char why[512];
  snprintf(why, sizeof why, "got program %p, error %d", (void *)p, err);
  report("bytes that are not SPIR-V: CL_INVALID_VALUE", !p && err == CL_INVALID_VALUE, why);

  p = clCreateProgramWithIL(context, NULL, 0, &err);
  report("no IL at all: CL_INVALID_VALUE", !p && err == CL_INVALID_VALUE, "accepted");

  size_t size;
  char *il = read_all(invalid_path, &size);
  p = clCreateProgramWithIL(context, il, size, &err);
  free(il);
  if (!p) {
    report("a rule violation fails the build", false, "no program");
    return;
  }
  err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
  size_t n = 0;
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = calloc(1, n + 1);
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
  cl_build_status status = CL_BUILD_SUCCESS;
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
  report("a rule violation fails the build: CL_BUILD_PROGRAM_FAILURE",
         err == CL_BUILD_PROGRAM_FAILURE && status == CL_BUILD_ERROR, log);
  report("the build log names the rule", strstr(log, "[GroupAsyncCopies.LineOverlap]") != NULL, log);
  free(log);
  clReleaseProgram(p);
}

/* OpenCL C with the 2D builtins: compiled by the layer with the build options. */
static void test_source_programs(const char *copies_cl) {
  size_t size;
  char *text = read_all(copies_cl, &size), why[512] = "";
  if (!text) {
    report("OpenCL C with the builtins", false, "cannot read the kernels");
    return;
  }
  text[size] = '\0';
  const char *src = text;
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, "-cl-std=CL1.2 -D UNUSED=1", NULL, NULL);
  snprintf(why, sizeof why, "error %d", err);
  report("OpenCL C with the builtins builds", err == CL_SUCCESS, why);
  report("and its kernel runs", err == CL_SUCCESS && run_copy2d(p, why, sizeof why), why);
  size_t n = 0;
  clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &n);
  report("CL_PROGRAM_SOURCE is the source", n == size + 1, "differs");
  cl_kernel k = clCreateKernel(p, "copy2d", &err);
  cl_program owner = NULL;
  if (k)
    clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof owner, &owner, NULL);
  report("CL_KERNEL_PROGRAM is the program the host made", owner == p, "another program");
  if (k)
    clReleaseKernel(k);
  clRetainProgram(p);
  clReleaseProgram(p);
  cl_uint refs = 0;
  clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  report("retain/release count", refs == 1, "wrong count");
  /* Released before its kernel, the program lives on with it: the kernel
   * still names it (a layer above tracks it by that address until then). */
  k = clCreateKernel(p, "copy2d", &err);
  clReleaseProgram(p);
  owner = NULL;
  if (k) {
    clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof owner, &owner, NULL);
    clReleaseKernel(k);
  }
  report("a kernel names its program after the host released the program", owner == p, "another program");
  free(text);

  /* -D reaches the front end. */
  const char *with_define =
      "kernel void add_define(global int *out, local int *tile) {\n"
      "  event_t e = async_work_group_copy_2D2D(tile, 0, out, 0, sizeof(int), 1, 1, 1, 1, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  if (get_local_id(0) == 0) out[1] = tile[0] + VALUE;\n"
      "}\n";
  p = clCreateProgramWithSource(context, 1, &with_define, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, "-D VALUE=41", NULL, NULL);
  int out[2] = {1, 0};
  if (err == CL_SUCCESS) {
    k = clCreateKernel(p, "add_define", &err);
    cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof out, out, NULL);
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, sizeof(int), NULL);
    size_t global = 8, local = 4;
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    err = err ? err : clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }
  report("build options (-D) reach the front end", err == CL_SUCCESS && out[1] == 42, "wrong value");
  clReleaseProgram(p);

  /* A compile error is reported at the user's own line. */
  const char *broken =
      "kernel void broken(global int *g, local int *t) {\n"
      "  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, 4, 1, 1, 1, 1, 0);\n"
      "  no_such_function(e);\n"
      "}\n";
  p = clCreateProgramWithSource(context, 1, &broken, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, NULL, NULL, NULL);
  n = 0;
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = calloc(1, n + 1);
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
  report("a compile error: CL_BUILD_PROGRAM_FAILURE, log at the user's line",
         err == CL_BUILD_PROGRAM_FAILURE && strstr(log, "program.cl:3:") != NULL, log);
  free(log);
  clReleaseProgram(p);
}

/* Every OpenCL C version the device reports: OpenCL C 2.0 and 3.0 hand
 * builtins generic pointers (&event for wait_group_events, p for vload4 and
 * fract), which PoCL 3.1's library has no overloads for; the layer gives
 * them the pointers they were cast from. The kernels run and are checked. */

static char *build_log(cl_program p) {
  size_t n = 0;
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = calloc(1, n + 1);
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
  return log;
}

/* OpenCL C 2.0 program-scope variables (a global one the kernel updates,
 * and a constant table) next to the builtins. */
static void program_scope_variables(const char *option) {
  const char *src = "global int bias = 5;\n"
                    "constant int table[4] = {1, 2, 3, 4};\n"
                    "kernel void scoped(global int *out, local int *tile) {\n"
                    "  event_t e = async_work_group_copy_2D2D(tile, 0, out, 0, sizeof(int), 4, 1, 4, 4, 0);\n"
                    "  wait_group_events(1, &e);\n"
                    "  if (get_local_id(0) == 0) { bias += 1; out[0] = tile[1] + table[2] + bias; }\n"
                    "}\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, option, NULL, NULL);
  int out[4] = {0, 10, 0, 0};
  for (int run = 0; run < 2 && err == CL_SUCCESS; run++) {
    cl_kernel k = clCreateKernel(p, "scoped", &err);
    cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof out, out, NULL);
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, sizeof out, NULL);
    size_t global = 4, local = 4;
    err = err ? err : clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    err = err ? err : clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }
  char *log = p ? build_log(p) : strdup(""), why[600], name[96];
  /* bias is 6 after the first launch and 7 after the second: 10 + 3 + 7. */
  snprintf(why, sizeof why, "error %d, out[0] = %d: %s", err, out[0], log);
  snprintf(name, sizeof name, "%s: program-scope global and constant variables", option);
  report(name, err == CL_SUCCESS && out[0] == 20, why);
  free(log);
  if (p)
    clReleaseProgram(p);
}

static void test_opencl_c_versions(const char *copies_cl) {
  size_t size;
  char *text = read_all(copies_cl, &size), why[600];
  const char *generic =
      "kernel void generic_builtins(global const float *in, global float *out, local float *tile) {\n"
      "  event_t e = async_work_group_copy_2D2D(tile, 0, in, 0, sizeof(float), 4, 2, 4, 4, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  float whole, frac = fract(in[8], &whole);\n"
      "  float4 v = vload4(1, tile);\n"
      "  if (get_local_id(0) == 0) vstore4(v + whole + frac, 0, out);\n"
      "}\n";
  for (int v = 0; v < 3 && text; v++) {
    static const char *const options[] = {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"};
    text[size] = '\0';
    const char *src = text;
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    err = err ? err : clBuildProgram(p, 1, &device, options[v], NULL, NULL);
    char *log = p ? build_log(p) : strdup("");
    snprintf(why, sizeof why, "error %d: %s", err, log);
    free(log);
    char name[96];
    snprintf(name, sizeof name, "%s: copies.cl builds and its 2D copy kernel runs", options[v]);
    report(name, err == CL_SUCCESS && run_copy2d(p, why, sizeof why), why);
    clReleaseProgram(p);

    p = clCreateProgramWithSource(context, 1, &generic, NULL, &err);
    err = err ? err : clBuildProgram(p, 1, &device, options[v], NULL, NULL);
    float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 2.25f}, out[4] = {0};
    if (err == CL_SUCCESS) {
      cl_kernel k = clCreateKernel(p, "generic_builtins", &err);
      cl_mem mi = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof in, in, NULL);
      cl_mem mo = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof out, out, NULL);
      clSetKernelArg(k, 0, sizeof mi, &mi);
      clSetKernelArg(k, 1, sizeof mo, &mo);
      clSetKernelArg(k, 2, 8 * sizeof(float), NULL);
      size_t global = 4, local = 4;
      err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
      err = err ? err : clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
      clReleaseMemObject(mi);
      clReleaseMemObject(mo);
      clReleaseKernel(k);
    }
    log = p ? build_log(p) : strdup("");
    snprintf(why, sizeof why, "error %d, out = {%g, %g, %g, %g}: %s", err, out[0], out[1], out[2], out[3], log);
    free(log);
    snprintf(name, sizeof name, "%s: wait_group_events, fract and vload4 on pointers cast to generic", options[v]);
    report(name, err == CL_SUCCESS && out[0] == 7.25f && out[3] == 10.25f, why);
    clReleaseProgram(p);
    if (v > 0)
      program_scope_variables(options[v]);
  }
  free(text);
}

/* A 2D-copy kernel next to a plain one that indexes with / and %: clang-15
 * -O2 makes an LLVM `freeze` of it, which llvm-spirv-15 cannot translate,
 * and the whole program once failed to build through the layer although
 * PoCL alone builds it. */
static void test_freeze(void) {
  const char *src =
      "kernel void transpose(global const float *in, global float *out, int w) {\n"
      "  int i = get_global_id(0);\n"
      "  int r = i / w, c = i % w;\n"
      "  out[c * w + r] = in[i] + (float)r;\n"
      "}\n"
      "kernel void tile(global float *g, local float *t) {\n"
      "  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, sizeof(float), 2, 2, 3, 2, 0);\n"
      "  wait_group_events(1, &e);\n"
      "}\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, NULL, NULL, NULL);
  enum { W = 4, H = 4 }; /* square: out is the transpose */
  float in[W * H], out[W * H];
  for (int i = 0; i < W * H; i++)
    in[i] = (float)(i * 10), out[i] = -1;
  if (err == CL_SUCCESS) {
    cl_kernel k = clCreateKernel(p, "transpose", &err);
    cl_mem mi = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof in, in, NULL);
    cl_mem mo = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof out, out, NULL);
    int w = W;
    clSetKernelArg(k, 0, sizeof mi, &mi);
    clSetKernelArg(k, 1, sizeof mo, &mo);
    clSetKernelArg(k, 2, sizeof w, &w);
    size_t global = W * H;
    err = err ? err : clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    err = err ? err : clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    if (k)
      clReleaseKernel(k);
  }
  bool right = err == CL_SUCCESS;
  for (int i = 0; i < W * H && right; i++)
    right = out[(i % W) * W + i / W] == in[i] + (float)(i / W);
  char *log = p ? build_log(p) : strdup(""), why[600];
  snprintf(why, sizeof why, "error %d: %s", err, log);
  report("a kernel with / and % (an LLVM freeze) beside the builtins builds and runs", right, why);
  free(log);
  if (p)
    clReleaseProgram(p);
}

/* Bad IL and bad build options: a CL error (and a build log where there is
 * a build), never a crash or an abort of the host program. The mutants are
 * deterministic: truncations, flipped words, a huge id bound, the other byte
 * order's magic, and a large module of junk after a valid header. */
static bool survives_il(const uint32_t *words, size_t num_bytes, unsigned *refused) {
  cl_int err;
  cl_program p = clCreateProgramWithIL(context, words, num_bytes, &err);
  if (!p)
    return (*refused += err != CL_SUCCESS), err != CL_SUCCESS;
  err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
  bool ok = true;
  if (err != CL_SUCCESS) {
    char *log = build_log(p);
    ok = err == CL_BUILD_PROGRAM_FAILURE && log[0] != '\0';
    free(log);
    *refused += 1;
  }
  clReleaseProgram(p);
  return ok;
}

static void test_bad_input(const char *il_path) {
  size_t size;
  uint32_t *il = (uint32_t *)read_all(il_path, &size);
  size_t n = size / 4, mutants = 0;
  unsigned refused = 0;
  bool ok = il != NULL;
  uint32_t *w = malloc(size + 4);
  for (size_t cut = 1; ok && cut < n; cut += n / 7 + 1, mutants++)
    ok = survives_il(il, cut * 4, &refused); /* truncated */
  uint32_t seed = 12345;
  for (int i = 0; ok && i < 24; i++, mutants++) {
    memcpy(w, il, size);
    for (int k = 0; k < 3; k++) {
      seed = seed * 1103515245u + 12345u;
      size_t at = 5 + (seed >> 8) % (n - 5);
      w[at] ^= 1u << ((seed >> 3) % 32);
    }
    ok = survives_il(w, size, &refused); /* flipped words */
  }
  static const uint32_t bounds[] = {0, 0xffffffffu, 0x10000000u, 0x400000u};
  for (size_t i = 0; ok && i < sizeof bounds / sizeof *bounds; i++, mutants++) {
    memcpy(w, il, size);
    w[3] = bounds[i];
    ok = survives_il(w, size, &refused) && refused;
  }
  memcpy(w, il, size);
  w[0] = 0x03022307u; /* the magic read in the wrong byte order */
  ok = ok && survives_il(w, size, &refused);
  mutants++;
  size_t big = 16u << 20; /* 64 MiB of junk after a valid header */
  uint32_t *huge = calloc(big, sizeof *huge);
  if (huge && ok) {
    memcpy(huge, il, 5 * sizeof *huge);
    for (size_t i = 5; i < big; i++)
      huge[i] = (uint32_t)(i * 2654435761u);
    ok = survives_il(huge, big * sizeof *huge, &refused);
    mutants++;
  }
  free(huge);
  char why[160];
  snprintf(why, sizeof why, "%zu mutants, %u refused", mutants, refused);
  report("truncated, mutated and huge IL: CL errors with logs, the host lives on", ok && refused > 0, why);

  /* Bad build options on a program with the builtins. */
  static const char *const options[] = {"-cl-std=CL9.9", "-D", "-I", "-cl-no-such-option", "-Werror -Wno-such",
                                        "-x c++ -emit-obj", "--"};
  const char *src = "kernel void k(global int *g, local int *t) {\n"
                    "  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, 4, 1, 1, 1, 1, 0);\n"
                    "  wait_group_events(1, &e);\n"
                    "}\n";
  char long_options[9000];
  memset(long_options, 'D', sizeof long_options - 1);
  long_options[0] = '-';
  long_options[sizeof long_options - 1] = '\0';
  bool all = true;
  for (size_t i = 0; i <= sizeof options / sizeof *options; i++) {
    const char *opt = i < sizeof options / sizeof *options ? options[i] : long_options;
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    err = err ? err : clBuildProgram(p, 1, &device, opt, NULL, NULL);
    if (err != CL_SUCCESS) {
      char *log = build_log(p);
      all = all && (err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS) &&
            (err == CL_INVALID_BUILD_OPTIONS || log[0]);
      free(log);
    }
    clReleaseProgram(p);
  }
  report("bad build options: CL errors, the host lives on", all, "a wrong error code or no log");
  free(w);
  free(il);
}

/* GAC_LAYER_STRATEGY=late: a copy lands only at its wait, its destination
 * poisoned (0xA5 bytes) until then. A kernel that reads the tile before its
 * wait reads the poison (on PoCL alone, and with the other strategies, the
 * copy lands at once and the bug passes unseen) and late prints the read
 * (the kernel's printf, on the host's standard output, captured here); the
 * right kernel reads the data and prints nothing. */
static void test_late_strategy(void) {
  static const char *kernels[] = {
      "kernel void k(global int *in, global int *out, local int *tile) {\n"
      "  event_t e = async_work_group_copy_2D2D(tile, 0, in, 0, sizeof(int), 4, 1, 4, 4, 0);\n"
      "  out[get_local_id(0)] = tile[get_local_id(0)];\n"
      "  wait_group_events(1, &e);\n"
      "}\n",
      "kernel void k(global int *in, global int *out, local int *tile) {\n"
      "  event_t e = async_work_group_copy_2D2D(tile, 0, in, 0, sizeof(int), 4, 1, 4, 4, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  out[get_local_id(0)] = tile[get_local_id(0)];\n"
      "}\n"};
  setenv("GAC_LAYER_STRATEGY", "late", 1);
  int got[2][4];
  cl_int errs[2];
  char printed[2][512];
  for (int v = 0; v < 2; v++) {
    cl_int err;
    fflush(stdout);
    FILE *out = tmpfile();
    int saved = out ? dup(1) : -1;
    if (saved >= 0)
      dup2(fileno(out), 1);
    cl_program p = clCreateProgramWithSource(context, 1, &kernels[v], NULL, &err);
    err = err ? err : clBuildProgram(p, 1, &device, NULL, NULL, NULL);
    int in[4] = {10, 11, 12, 13};
    memset(got[v], 0, sizeof got[v]);
    if (err == CL_SUCCESS) {
      cl_kernel k = clCreateKernel(p, "k", &err);
      cl_mem mi = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof in, in, NULL);
      cl_mem mo = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof got[v], got[v], NULL);
      clSetKernelArg(k, 0, sizeof mi, &mi);
      clSetKernelArg(k, 1, sizeof mo, &mo);
      clSetKernelArg(k, 2, sizeof in, NULL);
      size_t global = 4, local = 4;
      err = err ? err : clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
      err = err ? err : clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof got[v], got[v], 0, NULL, NULL);
      clReleaseMemObject(mi);
      clReleaseMemObject(mo);
      clReleaseKernel(k);
    }
    errs[v] = err;
    if (p)
      clReleaseProgram(p);
    fflush(stdout);
    size_t n = 0;
    if (saved >= 0) {
      dup2(saved, 1);
      close(saved);
      rewind(out);
      n = fread(printed[v], 1, sizeof printed[v] - 1, out);
    }
    printed[v][n] = '\0';
    if (out)
      fclose(out);
  }
  unsetenv("GAC_LAYER_STRATEGY");
  char why[200];
  snprintf(why, sizeof why, "errors %d %d; read before the wait: 0x%08x ..., after: %d %d %d %d", errs[0], errs[1],
           (unsigned)got[0][0], got[1][0], got[1][1], got[1][2], got[1][3]);
  bool poisoned = errs[0] == CL_SUCCESS && (unsigned)got[0][0] == 0xA5A5A5A5u && (unsigned)got[0][3] == 0xA5A5A5A5u;
  bool right = errs[1] == CL_SUCCESS && got[1][0] == 10 && got[1][3] == 13;
  report("strategy=late: a read before its wait reads the poison, after it the data", poisoned && right, why);
  /* "gac late: OpLoad %N (tile) in k reads local memory that an async copy still in flight writes: ..." */
  bool named = strstr(printed[0], "gac late: ") && strstr(printed[0], "(tile) in k reads local memory") &&
               strstr(printed[0], "work-group 0,0,0");
  report("strategy=late: the read before its wait is printed, naming it; the right kernel prints nothing",
         named && !strstr(printed[1], "gac late"), printed[0][0] ? printed[0] : "(nothing printed)");
}

/* GAC_LAYER_STRATEGY that names no strategy, or that carries other options
 * after one, fails the build with a log that names it: the layer lowers
 * with typed options, never with whatever the variable spells. */
static void test_bad_strategy(void) {
  static const char *source = "kernel void k(global int *in, local int *tile) {\n"
                              "  event_t e = async_work_group_copy_2D2D(tile, 0, in, 0, sizeof(int), 4, 1, 4, 4, 0);\n"
                              "  wait_group_events(1, &e);\n"
                              "}\n";
  static const char *values[] = {"bogus", "auto,helpers=never"};
  bool ok = true;
  char why[600] = "";
  for (int v = 0; v < 2; v++) {
    setenv("GAC_LAYER_STRATEGY", values[v], 1);
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    err = err ? err : clBuildProgram(p, 1, &device, NULL, NULL, NULL);
    size_t n = 0;
    char *log = NULL;
    if (p && clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) == CL_SUCCESS) {
      log = calloc(1, n + 1);
      if (log)
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    }
    char named[64];
    snprintf(named, sizeof named, "GAC_LAYER_STRATEGY=%s:", values[v]);
    bool refused = err != CL_SUCCESS && log && strstr(log, named);
    ok &= refused;
    if (!refused)
      snprintf(why, sizeof why, "%s: error %d, log: %.400s", values[v], err, log ? log : "(none)");
    free(log);
    if (p)
      clReleaseProgram(p);
  }
  unsetenv("GAC_LAYER_STRATEGY");
  report("GAC_LAYER_STRATEGY naming no strategy, or more than one, fails the build and says so", ok, why);
}

/* A builtin PoCL's library lacks (vload4 on a generic pointer that is no
 * cast: a function parameter) is a build error naming it, before PoCL would
 * fail to load the kernel and abort the host process. */
static void test_missing_builtin(const char *broken_library) {
  const char *src =
      "__attribute__((noinline)) float4 load(const float *p) { return vload4(0, p); }\n"
      "kernel void missing(global float *g, local float *t) {\n"
      "  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, sizeof(float), 4, 1, 4, 4, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  vstore4(load(g) + load(t), 0, g);\n"
      "}\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, "-cl-std=CL2.0", NULL, NULL);
  char *log = p ? build_log(p) : strdup("");
  report("a builtin PoCL lacks: CL_BUILD_PROGRAM_FAILURE naming it",
         err == CL_BUILD_PROGRAM_FAILURE && strstr(log, "[Layer.PoCLLink]") && strstr(log, "_Z6vload4mPU3AS4Kf"),
         log);
  free(log);
  if (p)
    clReleaseProgram(p);

  /* A builtin the library defines but whose definition calls one it only
   * declares: PoCL would link it and then fail to load the kernel. */
  setenv("GAC_LAYER_POCL_KERNEL_LIBRARY", broken_library, 1);
  const char *chain =
      "kernel void chain(global float *g, local float *t) {\n"
      "  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, sizeof(float), 4, 1, 4, 4, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  vstore4(vload4(0, g) + t[0], 0, g);\n"
      "}\n";
  p = clCreateProgramWithSource(context, 1, &chain, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, NULL, NULL, NULL);
  log = p ? build_log(p) : strdup("");
  report("a builtin whose definition calls a missing one: CL_BUILD_PROGRAM_FAILURE naming both",
         err == CL_BUILD_PROGRAM_FAILURE &&
             strstr(log, "_Z6vload4mPU3AS1Kf: the library defines it, but it calls _Z10_cl_vload4mPU3AS1Kf"),
         log);
  free(log);
  if (p)
    clReleaseProgram(p);
  unsetenv("GAC_LAYER_POCL_KERNEL_LIBRARY");
}

/* Separate compilation and linking: an IL program, and two OpenCL C programs
 * with the builtins (one including a header program). */
static void test_compile_and_link(const char *il_path) {
  size_t size;
  char *il = read_all(il_path, &size), why[512] = "";
  cl_int err;
  cl_program p = clCreateProgramWithIL(context, il, size, &err);
  free(il);
  err = err ? err : clCompileProgram(p, 1, &device, NULL, 0, NULL, NULL, NULL, NULL);
  cl_program linked = err ? NULL : clLinkProgram(context, 1, &device, NULL, 1, &p, NULL, NULL, &err);
  snprintf(why, sizeof why, "error %d", err);
  report("clCompileProgram + clLinkProgram of an IL program", linked && err == CL_SUCCESS &&
         run_copy2d(linked, why, sizeof why), why);
  if (linked)
    clReleaseProgram(linked);
  if (p)
    clReleaseProgram(p);

  const char *header_text = "#define SCALE 3\n";
  const char *main_cl =
      "#include \"scale.h\"\n"
      "int scaled(int x);\n"
      "kernel void use_helper(global int *out, local int *tile) {\n"
      "  event_t e = async_work_group_copy_2D2D(tile, 0, out, 0, sizeof(int), 1, 1, 1, 1, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  if (get_local_id(0) == 0) out[1] = scaled(tile[0]) * SCALE;\n"
      "}\n";
  const char *helper_cl =
      "int scaled(int x) { return x + 10; }\n"
      "void unused_copy(local int *t, global int *g) {\n"
      "  event_t e = async_work_group_copy_2D2D(g, 0, t, 0, sizeof(int), 1, 1, 1, 1, 0);\n"
      "  wait_group_events(1, &e);\n"
      "}\n";
  cl_program header = clCreateProgramWithSource(context, 1, &header_text, NULL, &err);
  cl_program a = clCreateProgramWithSource(context, 1, &main_cl, NULL, &err);
  cl_program b = clCreateProgramWithSource(context, 1, &helper_cl, NULL, &err);
  const char *names[] = {"scale.h"};
  err = clCompileProgram(a, 1, &device, NULL, 1, &header, names, NULL, NULL);
  err = err ? err : clCompileProgram(b, 1, &device, NULL, 0, NULL, NULL, NULL, NULL);
  cl_program inputs[2] = {a, b};
  linked = err ? NULL : clLinkProgram(context, 1, &device, NULL, 2, inputs, NULL, NULL, &err);
  int out[2] = {4, 0};
  if (linked && err == CL_SUCCESS) {
    cl_kernel k = clCreateKernel(linked, "use_helper", &err);
    cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof out, out, NULL);
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, sizeof(int), NULL);
    size_t global = 4;
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &global, 0, NULL, NULL);
    err = err ? err : clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }
  snprintf(why, sizeof why, "error %d, out[1] = %d", err, out[1]);
  report("OpenCL C with the builtins: compile (with a header) and link two programs",
         err == CL_SUCCESS && out[1] == (4 + 10) * 3, why);
  if (linked)
    clReleaseProgram(linked);
  clReleaseProgram(a);
  clReleaseProgram(b);
  clReleaseProgram(header);
}

/* When the bridge to PoCL cannot run, the build fails and says why. */
/* GAC_LAYER_CACHE_DIR back to what a test saved (a strdup'd copy, freed; NULL: unset). */
static void restore_cache_dir(char *saved) {
  if (saved)
    setenv("GAC_LAYER_CACHE_DIR", saved, 1);
  else
    unsetenv("GAC_LAYER_CACHE_DIR");
  free(saved);
}

static void test_bridge_failure(const char *path) {
  char *cache = getenv("GAC_LAYER_CACHE_DIR") ? strdup(getenv("GAC_LAYER_CACHE_DIR")) : NULL;
  setenv("GAC_LLVM_SPIRV", "/nonexistent/llvm-spirv", 1);
  setenv("GAC_LAYER_CACHE_DIR", "off", 1); /* else the cached result would be used */
  size_t size;
  char *il = read_all(path, &size);
  cl_int err;
  cl_program p = clCreateProgramWithIL(context, il, size, &err);
  free(il);
  err = p ? clBuildProgram(p, 1, &device, NULL, NULL, NULL) : err;
  size_t n = 0;
  if (p)
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = calloc(1, n + 1);
  if (p)
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
  report("no llvm-spirv-15: CL_BUILD_PROGRAM_FAILURE with a log", err == CL_BUILD_PROGRAM_FAILURE &&
         strstr(log, "/nonexistent/llvm-spirv") != NULL, log);
  free(log);
  if (p)
    clReleaseProgram(p);
  unsetenv("GAC_LLVM_SPIRV");
  restore_cache_dir(cache);
}

/* A program that does not use the extension goes to PoCL untouched. */
static void test_plain_source(void) {
  const char *src = "kernel void twice(global int *a) { a[get_global_id(0)] *= 2; }";
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
  err = err == CL_SUCCESS ? clBuildProgram(p, 1, &device, NULL, NULL, NULL) : err;
  cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "twice", &err) : NULL;
  int a[4] = {1, 2, 3, 4};
  cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof a, a, NULL);
  size_t global = 4;
  if (err == CL_SUCCESS) {
    clSetKernelArg(k, 0, sizeof m, &m);
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    err = err == CL_SUCCESS ? clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof a, a, 0, NULL, NULL) : err;
  }
  char why[96];
  snprintf(why, sizeof why, "error %d, a = {%d, %d, %d, %d}", err, a[0], a[1], a[2], a[3]);
  report("OpenCL C without the builtins runs as on PoCL alone", err == CL_SUCCESS && a[0] == 2 && a[3] == 8, why);
  size_t n = 0;
  clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &n);
  report("a source program has no IL", n == 0, "CL_PROGRAM_IL answered");
  clReleaseMemObject(m);
  if (k)
    clReleaseKernel(k);
  clReleaseProgram(p);
}

/* The device reports both extensions, so OpenCL C sees their macros, also
 * in a program that calls no builtin and goes to PoCL's compiler (the CTS's
 * compiler_defines_for_extensions builds such a kernel). */
static void test_extension_macros(void) {
  const char *src = "kernel void macros(global int *d) {\n"
                    "#pragma OPENCL EXTENSION cl_khr_extended_async_copies : enable\n"
                    "#ifdef cl_khr_extended_async_copies\n"
                    "  d[0] = 1;\n"
                    "#endif\n"
                    "#ifdef cl_khr_async_work_group_copy_fence\n"
                    "  d[1] = 1;\n"
                    "#endif\n"
                    "}\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, NULL, NULL, NULL);
  cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "macros", &err) : NULL;
  int d[2] = {0, 0};
  if (err == CL_SUCCESS) {
    cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof d, d, NULL);
    size_t global = 1;
    clSetKernelArg(k, 0, sizeof m, &m);
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    err = err ? err : clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof d, d, 0, NULL, NULL);
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }
  char why[96];
  snprintf(why, sizeof why, "error %d, cl_khr_extended_async_copies %d, cl_khr_async_work_group_copy_fence %d", err,
           d[0], d[1]);
  report("the extensions' macros are defined in OpenCL C", err == CL_SUCCESS && d[0] == 1 && d[1] == 1, why);
  if (p)
    clReleaseProgram(p);
}

/* Files in a folder whose names end in `suffix` (0 if it cannot be read). */
static unsigned count_files(const char *dir, const char *suffix) {
  DIR *d = opendir(dir);
  unsigned n = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t len = strlen(e->d_name), slen = strlen(suffix);
    n += e->d_name[0] != '.' && len >= slen && strcmp(e->d_name + len - slen, suffix) == 0;
  }
  if (d)
    closedir(d);
  return n;
}

/* Builds `source` with `options` and runs its kernel poly over g = 0..7 as
 * a 4-wide, 2-high block: the 2 x 2 copy reads 0, 1, 4, 5, whose sum is
 * *sum (g[8]). On a failed build, *log (if asked) gets the build log. */
static cl_int build_and_run_poly(const char *source, const char *options, int *sum, char **log) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, options, NULL, NULL);
  int g[9] = {0, 1, 2, 3, 4, 5, 6, 7, 0};
  cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "poly", &err) : NULL;
  if (err == CL_SUCCESS) {
    cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof g, g, NULL);
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, 4 * sizeof(int), NULL);
    size_t global = 4, local = 4;
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    err = err ? err : clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof g, g, 0, NULL, NULL);
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }
  if (log)
    *log = err == CL_SUCCESS || !p ? NULL : build_log(p);
  if (p)
    clReleaseProgram(p);
  *sum = g[8];
  return err;
}

/* Programs written for a driver without the extension carry their own
 * 2D copy: a macro naming another function, or a function of the builtin's
 * name. Their text names the builtin, yet they call none of gac's: they go
 * to PoCL's compiler as without the layer, and with a -D that turns the
 * polyfill off the same source is gac's. The route shows in the layer's
 * cache (a fresh folder per build: gac's route writes the lowered program,
 * <key>.bc, the driver's only the front end's answer); every kernel runs
 * and is checked. Built a second time, from the cache, the same. */
static void test_polyfills(void) {
  const char *saved = getenv("GAC_LAYER_CACHE_DIR");
  char *saved_cache = saved ? strdup(saved) : NULL;
  static const char *const sources[] = {
      "#ifndef NATIVE\n"
      "#define async_work_group_copy_2D2D my_copy_2D2D\n"
      "#endif\n"
      "event_t my_copy_2D2D(local int *d, size_t doff, const global int *s, size_t soff, size_t bytes,\n"
      "                     size_t w, size_t h, size_t sp, size_t dp, event_t e) {\n"
      "  for (size_t i = get_local_id(0); i < w * h; i += get_local_size(0))\n"
      "    d[doff + i / w * dp + i % w] = s[soff + i / w * sp + i % w];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  return e;\n"
      "}\n"
      "kernel void poly(global int *g, local int *t) {\n"
      "  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, sizeof(int), 2, 2, 4, 2, 0); /* \"async_work_group_copy_3D3D\" */\n"
      "  wait_group_events(1, &e);\n"
      "  if (get_local_id(0) == 0) g[8] = t[0] + t[1] + t[2] + t[3];\n"
      "}\n",
      "event_t async_work_group_copy_2D2D(local int *d, size_t doff, const global int *s, size_t soff,\n"
      "                                   size_t bytes, size_t w, size_t h, size_t sp, size_t dp, event_t e) {\n"
      "  for (size_t i = get_local_id(0); i < w * h; i += get_local_size(0))\n"
      "    d[doff + i / w * dp + i % w] = s[soff + i / w * sp + i % w];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  return e;\n"
      "}\n"
      "kernel void poly(global int *g, local int *t) {\n"
      "  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, sizeof(int), 2, 2, 4, 2, 0);\n"
      "  wait_group_events(1, &e);\n"
      "  if (get_local_id(0) == 0) g[8] = t[0] + t[1] + t[2] + t[3];\n"
      "}\n",
  };
  static const char *const names[] = {"a macro polyfill", "a function polyfill", "the macro polyfill off (-D NATIVE)"};
  for (unsigned i = 0; i < 3; i++) {
    char cache[] = "/tmp/gac-layer-test-XXXXXX";
    if (!mkdtemp(cache)) {
      report(names[i], false, "cannot make a cache folder");
      continue;
    }
    setenv("GAC_LAYER_CACHE_DIR", cache, 1);
    const char *source = sources[i == 2 ? 0 : i], *options = i == 2 ? "-D NATIVE" : "";
    int sum = 0;
    char *log = NULL;
    cl_int err = build_and_run_poly(source, options, &sum, &log);
    char why[600], name[128];
    snprintf(why, sizeof why, "error %d, g[8] = %d, log: %.500s", err, sum, log ? log : "");
    free(log);
    snprintf(name, sizeof name, "%s builds and runs", names[i]);
    report(name, err == CL_SUCCESS && sum == 10, why);
    unsigned lowered = count_files(cache, ".bc"), answers = count_files(cache, ".front");
    snprintf(name, sizeof name, "%s goes to %s", names[i], i == 2 ? "gac" : "PoCL's compiler");
    snprintf(why, sizeof why, "%u lowered programs, %u front-end answers in the layer's cache", lowered, answers);
    report(name, (i == 2 ? lowered > 0 : lowered == 0) && answers == 1, why);
    /* Again, from the cache: the same route, the same result. */
    err = build_and_run_poly(source, options, &sum, NULL);
    snprintf(name, sizeof name, "%s, built again from the cache, runs", names[i]);
    snprintf(why, sizeof why, "error %d, g[8] = %d, %u lowered programs", err, sum, count_files(cache, ".bc"));
    report(name, err == CL_SUCCESS && sum == 10 && count_files(cache, ".bc") == lowered, why);
    char command[64];
    snprintf(command, sizeof command, "rm -rf %s", cache);
    if (system(command) != 0)
      fprintf(stderr, "cannot remove %s\n", cache);
  }
  restore_cache_dir(saved_cache);
}

/* A loop --pipeline-loops cannot take (its buffer is a __local kernel
 * argument, whose size the host sets) stays as written: the program builds
 * and runs, and its build log says why the loop was not pipelined, built
 * fresh and again from the cache. */
static void test_unpipelined_warning(void) {
  const char *src =
      "kernel void as_written(global float *g, local float *t, uint n) {\n"
      "  float acc = 0;\n"
      "  for (uint i = 0; i < n; i++) {\n"
      "    gac_pipeline_loop(GAC_ASYNC_STAGE(0));\n"
      "    gac_pipeline_stage(0, 0);\n"
      "    event_t e = async_work_group_copy_2D2D(t, 0, g, i * 16, sizeof(float), 16, 1, 16, 16, 0);\n"
      "    wait_group_events(1, &e);\n"
      "    gac_pipeline_stage(1, 1);\n"
      "    acc += t[get_local_id(0)];\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  }\n"
      "  g[64 + get_local_id(0)] = acc;\n"
      "}\n";
  for (unsigned pass = 0; pass < 2; pass++) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    err = err ? err : clBuildProgram(p, 1, &device, NULL, NULL, NULL);
    char *log = build_log(p);
    float g[80];
    for (unsigned i = 0; i < 80; i++)
      g[i] = i < 64 ? (float)i : -1;
    cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "as_written", &err) : NULL;
    if (err == CL_SUCCESS) {
      cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof g, g, NULL);
      clSetKernelArg(k, 0, sizeof m, &m);
      clSetKernelArg(k, 1, 16 * sizeof(float), NULL);
      cl_uint n = 4; /* a run-time count: clang would unroll a constant 4 before gac sees the loop */
      clSetKernelArg(k, 2, sizeof n, &n);
      size_t global = 16, local = 16;
      err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
      err = err ? err : clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof g, g, 0, NULL, NULL);
      clReleaseMemObject(m);
      clReleaseKernel(k);
    }
    bool right = true; /* g[64 + x] = x + (16 + x) + (32 + x) + (48 + x) */
    for (unsigned x = 0; x < 16; x++)
      right &= g[64 + x] == (float)(4 * x + 96);
    char why[700], name[128];
    snprintf(why, sizeof why, "error %d, %s, log: %.500s", err, right ? "right" : "wrong values", log ? log : "");
    snprintf(name, sizeof name, "a loop left as written builds and runs, the build log says why (%s)",
             pass ? "from the cache" : "fresh");
    report(name, err == CL_SUCCESS && right && log && strstr(log, "the loop stays as written") &&
                     strstr(log, "[Pipeline.Buffers]"),
           why);
    free(log);
    clReleaseProgram(p);
  }
}

/* Entries the layer once left to the loader for its OpenCL C programs: the
 * loader's entry came back to the layer's table, and the call never
 * returned. A release callback runs when the program goes, with its handle. */
static cl_program released_program;
static int release_calls;
static void CL_CALLBACK on_release(cl_program p, void *data) {
  released_program = p;
  release_calls += *(int *)data;
}

static void test_program_entries(void) {
  const char *src = "kernel void k(global int *out, local int *tile) {\n"
                    "  event_t e = async_work_group_copy_2D2D(tile, 0, out, 0, sizeof(int), 1, 1, 1, 1, 0);\n"
                    "  wait_group_events(1, &e);\n"
                    "}\n";
  cl_int err, one = 1, value = 0;
  cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, "", NULL, NULL);
  report("an OpenCL C program with a 2D copy builds", err == CL_SUCCESS, "build failed");
  cl_int set = clSetProgramReleaseCallback(p, on_release, &one);
  cl_int spec = clSetProgramSpecializationConstant(p, 0, sizeof value, &value);
  clReleaseProgram(p);
  char why[160];
  snprintf(why, sizeof why, "set %d, %d call(s), handle %s", set, release_calls,
           released_program == p ? "the program's" : "another");
  report("clSetProgramReleaseCallback on it: called once at the release, with the program", set == CL_SUCCESS &&
         release_calls == 1 && released_program == p, why);
  snprintf(why, sizeof why, "error %d", spec);
  report("clSetProgramSpecializationConstant on it: CL_INVALID_PROGRAM (not made from IL)",
         spec == CL_INVALID_PROGRAM, why);
}

/* A program that only names a builtin (in a comment) is the driver's to
 * build, and its log says so first; with GAC_LAYER_LOG=PATH (as CTest runs
 * this) every decision above is a line there. */
static void test_decisions(void) {
  const char *src = "/* async_work_group_copy_2D2D is not called here */\n"
                    "kernel void plain(global int *out) { out[get_global_id(0)] = 1; }\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
  err = err ? err : clBuildProgram(p, 1, &device, "", NULL, NULL);
  char *log = err ? NULL : build_log(p);
  static const char note[] = "gac layer: the program calls none of gac's builtins once preprocessed";
  report("a program that only names a builtin: the driver builds it, its log says so first",
         log && strncmp(log, note, sizeof note - 1) == 0, log ? log : "build failed");
  free(log);
  if (p)
    clReleaseProgram(p);
  const char *path = getenv("GAC_LAYER_LOG");
  if (!path || !*path || strcmp(path, "1") == 0 || strcmp(path, "stderr") == 0)
    return;
  size_t size;
  char *text = read_all(path, &size);
  if (text)
    text[size] = '\0';
  static const char *const lines[] = {
      "names none of gac's builtins or the extensions' macros: the driver's, untouched",
      "names async_work_group_copy_2D2D: the layer's",
      "calls none of gac's builtins once preprocessed: the driver's compiler builds it",
      "calls gac's builtins: compiled by clang-15 with gac's header",
      "SPIR 1.2 bitcode (the driver takes no SPIR-V), copies for the pocl-cpu profile: the driver's program made",
      "): bridged",
      "not built: gac layer:",
  };
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
    char name[200];
    snprintf(name, sizeof name, "GAC_LAYER_LOG has \"%s\"", lines[i]);
    report(name, text && strstr(text, lines[i]), "missing");
  }
  free(text);
}

static void test_limits(void) {
  setenv("GAC_LAYER_LOCAL_MEM_SIZE", "65536", 1);
  setenv("GAC_LAYER_MAX_WORK_GROUP_SIZE", "256", 1);
  setenv("GAC_LAYER_MAX_MEM_ALLOC_SIZE", "1073741824", 1);
  cl_ulong local = 0, alloc = 0;
  size_t wg = 0, sizes[3] = {0, 0, 0};
  clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
  clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
  clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL);
  clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
  report("GPU-like limits on request", local == 65536 && wg == 256 && sizes[0] <= 256 && alloc <= 1073741824,
         "limits not applied");
  unsetenv("GAC_LAYER_LOCAL_MEM_SIZE");
  unsetenv("GAC_LAYER_MAX_WORK_GROUP_SIZE");
  unsetenv("GAC_LAYER_MAX_MEM_ALLOC_SIZE");
  clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
  report("PoCL's own limits otherwise", local > 65536, "still limited");
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* keep what was printed before a crash */
  if (argc != 5) {
    fprintf(stderr, "usage: layer_test <module with copies.spv> <invalid module.spv> <copies.cl> <broken library.bc>\n");
    return 2;
  }
  /* The decision log starts empty (the layer opens it at its first line). */
  const char *log_path = getenv("GAC_LAYER_LOG");
  if (log_path && *log_path == '/')
    unlink(log_path);
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err = err ? err : clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  context = err ? NULL : clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  queue = err ? NULL : clCreateCommandQueueWithProperties(context, device, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device: %d\n", err);
    return 1;
  }
  test_extensions();
  test_il_program(argv[1]);
  test_errors(argv[2]);
  test_source_programs(argv[3]);
  test_opencl_c_versions(argv[3]);
  test_missing_builtin(argv[4]);
  test_freeze();
  test_late_strategy();
  test_bad_strategy();
  test_bad_input(argv[1]);
  test_compile_and_link(argv[1]);
  test_bridge_failure(argv[1]);
  test_plain_source();
  test_extension_macros();
  test_polyfills();
  test_unpipelined_warning();
  test_limits();
  test_program_entries();
  test_decisions();
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  printf("%u passed, %u failed\n", passed, failed);
  return failed ? 1 : 0;
}
