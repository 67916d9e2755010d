/* A small object-lifetime layer for icd.stack: stacked above or below gac's
 * layer, it keeps a ledger of the programs and kernels the layer below it
 * hands out and checks each one passed down: a program used after its last
 * reference and its last kernel are gone, a handle handed out while it is
 * still live, CL_KERNEL_PROGRAM naming another program than the kernel was
 * made from. Each finding is a "ledger error:" line on stderr; at exit,
 * "ledger: N errors, N live" (objects never released). It sets
 * GAC_LEDGER_LOADED=1 in clInitLayer so that the host knows it is there. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_layer.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef struct entry {
  struct entry *next;
  void *handle;
  void *program; /* a kernel's program; NULL for a program */
  long refs, kernels;
} entry;

static entry *ledger;
static long errors;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const cl_icd_dispatch *below;
static cl_icd_dispatch dispatch;

static void error(const char *what, const void *handle) {
  fprintf(stderr, "ledger error: %s %p\n", what, handle);
  errors++;
}

static entry **slot(const void *handle) {
  entry **pp = &ledger;
  while (*pp && (*pp)->handle != handle)
    pp = &(*pp)->next;
  return pp;
}

/* A handle in use: known, and held by a reference or, for a program, a kernel. */
static void check_live(const char *call, const void *handle) {
  entry *e = *slot(handle);
  if (!e || (e->refs <= 0 && e->kernels <= 0))
    error(call, handle);
}

static void added(const char *call, void *handle, void *program) {
  if (!handle)
    return;
  entry **pp = slot(handle);
  if (*pp) {
    error(call, handle); /* handed out again while live */
    return;
  }
  entry *e = calloc(1, sizeof *e);
  e->handle = handle;
  e->program = program;
  e->refs = 1;
  *pp = e;
  if (program)
    (*slot(program))->kernels++;
}

static void drop_if_gone(void *handle) {
  entry **pp = slot(handle), *e = *pp;
  if (!e || e->refs > 0 || e->kernels > 0)
    return;
  *pp = e->next;
  if (e->program && *slot(e->program)) {
    (*slot(e->program))->kernels--;
    drop_if_gone(e->program);
  }
  free(e);
}

static void released(const char *call, void *handle) {
  entry *e = *slot(handle);
  if (!e || e->refs <= 0) {
    error(call, handle);
    return;
  }
  e->refs--;
  drop_if_gone(handle);
}

#define LOCKED(stmt) do { pthread_mutex_lock(&lock); stmt; pthread_mutex_unlock(&lock); } while (0)

static cl_program CL_API_CALL with_source(cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *err) {
  cl_program p = below->clCreateProgramWithSource(c, n, s, l, err);
  LOCKED(added("clCreateProgramWithSource", p, NULL));
  return p;
}

static cl_program CL_API_CALL with_il(cl_context c, const void *il, size_t size, cl_int *err) {
  cl_program p = below->clCreateProgramWithIL(c, il, size, err);
  LOCKED(added("clCreateProgramWithIL", p, NULL));
  return p;
}

static cl_program CL_API_CALL with_binary(cl_context c, cl_uint n, const cl_device_id *d, const size_t *sizes,
                                          const unsigned char **bins, cl_int *status, cl_int *err) {
  cl_program p = below->clCreateProgramWithBinary(c, n, d, sizes, bins, status, err);
  LOCKED(added("clCreateProgramWithBinary", p, NULL));
  return p;
}

static cl_int CL_API_CALL build(cl_program p, cl_uint n, const cl_device_id *d, const char *o,
                                void(CL_CALLBACK *notify)(cl_program, void *), void *data) {
  LOCKED(check_live("clBuildProgram", p));
  return below->clBuildProgram(p, n, d, o, notify, data);
}

static cl_int CL_API_CALL retain_program(cl_program p) {
  cl_int err = below->clRetainProgram(p);
  LOCKED(check_live("clRetainProgram", p); if (err == CL_SUCCESS && *slot(p)) (*slot(p))->refs++);
  return err;
}

static cl_int CL_API_CALL release_program(cl_program p) {
  LOCKED(released("clReleaseProgram", p));
  return below->clReleaseProgram(p);
}

static cl_kernel CL_API_CALL create_kernel(cl_program p, const char *name, cl_int *err) {
  LOCKED(check_live("clCreateKernel", p));
  cl_kernel k = below->clCreateKernel(p, name, err);
  LOCKED(if (k && *slot(p)) added("clCreateKernel", k, p));
  return k;
}

static cl_int CL_API_CALL release_kernel(cl_kernel k) {
  LOCKED(released("clReleaseKernel", k));
  return below->clReleaseKernel(k);
}

static cl_int CL_API_CALL kernel_info(cl_kernel k, cl_kernel_info param, size_t size, void *value, size_t *ret) {
  cl_int err = below->clGetKernelInfo(k, param, size, value, ret);
  if (err == CL_SUCCESS && param == CL_KERNEL_PROGRAM && value)
    LOCKED(entry *e = *slot(k); if (e && e->program != *(void **)value) error("CL_KERNEL_PROGRAM", k));
  return err;
}

static void report(void) {
  long live = 0;
  for (entry *e = ledger; e; e = e->next)
    live += e->refs > 0;
  fprintf(stderr, "ledger: %ld errors, %ld live\n", errors, live);
}

EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info name, size_t size, void *value, size_t *ret) {
  cl_layer_api_version v = CL_LAYER_API_VERSION_100;
  if (name != CL_LAYER_API_VERSION || (value && size < sizeof v))
    return CL_INVALID_VALUE;
  if (value)
    memcpy(value, &v, sizeof v);
  if (ret)
    *ret = sizeof v;
  return CL_SUCCESS;
}

EXPORT CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const cl_icd_dispatch *target,
                                                   cl_uint *num_ret, const cl_icd_dispatch **ours) {
  const cl_uint needed = offsetof(cl_icd_dispatch, clCreateProgramWithIL) / sizeof(void *) + 1;
  if (!target || !num_ret || !ours || num_entries < needed)
    return CL_INVALID_VALUE;
  below = target;
  memcpy(&dispatch, target, needed * sizeof(void *));
  dispatch.clCreateProgramWithSource = with_source;
  dispatch.clCreateProgramWithIL = with_il;
  dispatch.clCreateProgramWithBinary = with_binary;
  dispatch.clBuildProgram = build;
  dispatch.clRetainProgram = retain_program;
  dispatch.clReleaseProgram = release_program;
  dispatch.clCreateKernel = create_kernel;
  dispatch.clReleaseKernel = release_kernel;
  dispatch.clGetKernelInfo = kernel_info;
  *num_ret = needed;
  *ours = &dispatch;
  setenv("GAC_LEDGER_LOADED", "1", 1);
  atexit(report);
  return CL_SUCCESS;
}
