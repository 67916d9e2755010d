/* What the layer adds to platform and device queries: the three extensions,
 * the SPIR-V versions it takes, and (on request) GPU-like device limits so
 * that programs sizing their work from these queries meet realistic limits
 * on PoCL, which reports 1 MiB of local memory:
 *   GAC_LAYER_LOCAL_MEM_SIZE=65536  GAC_LAYER_MAX_WORK_GROUP_SIZE=256
 *   GAC_LAYER_MAX_MEM_ALLOC_SIZE=1073741824
 * GAC_LAYER_HIDE_EXTENSIONS=name[,name...]: names of the three that are not
 * reported (for a Khronos CTS whose list of names lacks the copy fence:
 * docs/CTS.md); what the layer does with programs does not change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"

static const char *const added[] = {"cl_khr_il_program", "cl_khr_extended_async_copies",
                                    "cl_khr_async_work_group_copy_fence"};
enum { NUM_ADDED = 3 };
static const char il_versions[] = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4";

typedef cl_int (*info_fn)(void *object, cl_uint param, size_t size, void *value, size_t *size_ret);

/* Whether name is one of GAC_LAYER_HIDE_EXTENSIONS's (read at each query). */
static bool hidden(const char *name) {
  const char *list = getenv("GAC_LAYER_HIDE_EXTENSIONS");
  size_t len = strlen(name);
  for (const char *t = list; t && *t;) {
    size_t n = strcspn(t, ", ");
    if (n == len && strncmp(t, name, len) == 0)
      return true;
    t += n + (t[n] != 0);
  }
  return false;
}

/* The string next answers, with our extensions appended (those it lacks). */
static cl_int extended_string(info_fn next, void *object, cl_uint param, size_t size, void *value, size_t *size_ret) {
  size_t n = 0;
  cl_int err = next(object, param, 0, NULL, &n);
  if (err != CL_SUCCESS)
    return err;
  size_t cap = n + 128;
  char *s = calloc(1, cap);
  if (!s)
    return CL_OUT_OF_HOST_MEMORY;
  err = next(object, param, n, s, NULL);
  for (int i = 0; err == CL_SUCCESS && i < NUM_ADDED; i++) {
    if (strstr(s, added[i]) || hidden(added[i]))
      continue;
    size_t len = strlen(s);
    snprintf(s + len, cap - len, "%s%s", len && s[len - 1] != ' ' ? " " : "", added[i]);
  }
  if (err == CL_SUCCESS)
    err = gac_answer(s, strlen(s) + 1, size, value, size_ret);
  free(s);
  return err;
}

/* The cl_name_version list next answers, with our extensions appended. */
static cl_int extended_versions(info_fn next, void *object, cl_uint param, size_t size, void *value, size_t *size_ret) {
  size_t n = 0;
  cl_int err = next(object, param, 0, NULL, &n);
  if (err != CL_SUCCESS)
    return err;
  cl_name_version *v = calloc(n / sizeof *v + NUM_ADDED, sizeof *v);
  if (!v)
    return CL_OUT_OF_HOST_MEMORY;
  err = next(object, param, n, v, NULL);
  size_t count = n / sizeof *v;
  for (int i = 0; i < NUM_ADDED; i++) {
    bool present = false;
    for (size_t k = 0; k < n / sizeof *v; k++)
      present = present || strcmp(v[k].name, added[i]) == 0;
    if (present || hidden(added[i]))
      continue;
    v[count].version = CL_MAKE_VERSION(1, 0, 0);
    snprintf(v[count].name, sizeof v[count].name, "%s", added[i]);
    count++;
  }
  if (err == CL_SUCCESS)
    err = gac_answer(v, count * sizeof *v, size, value, size_ret);
  free(v);
  return err;
}

static cl_int next_platform_info(void *object, cl_uint param, size_t size, void *value, size_t *size_ret) {
  return gac_next->clGetPlatformInfo(object, param, size, value, size_ret);
}

static cl_int next_device_info(void *object, cl_uint param, size_t size, void *value, size_t *size_ret) {
  return gac_next->clGetDeviceInfo(object, param, size, value, size_ret);
}

cl_int CL_API_CALL gac_GetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size, void *value,
                                       size_t *size_ret) {
  if (param == CL_PLATFORM_EXTENSIONS)
    return extended_string(next_platform_info, platform, param, size, value, size_ret);
  if (param == CL_PLATFORM_EXTENSIONS_WITH_VERSION)
    return extended_versions(next_platform_info, platform, param, size, value, size_ret);
  return gac_next->clGetPlatformInfo(platform, param, size, value, size_ret);
}

/* A limit from the environment, or 0 if not set. */
static unsigned long long env_limit(const char *name) {
  const char *s = getenv(name);
  return s && *s ? strtoull(s, NULL, 0) : 0;
}

cl_int CL_API_CALL gac_GetDeviceInfo(cl_device_id device, cl_device_info param, size_t size, void *value,
                                     size_t *size_ret) {
  switch (param) {
  case CL_DEVICE_EXTENSIONS:
    return extended_string(next_device_info, device, param, size, value, size_ret);
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return extended_versions(next_device_info, device, param, size, value, size_ret);
  case CL_DEVICE_IL_VERSION:
    return gac_answer(il_versions, sizeof il_versions, size, value, size_ret);
  case CL_DEVICE_ILS_WITH_VERSION: {
    cl_name_version v[5];
    for (unsigned i = 0; i < 5; i++) {
      v[i].version = CL_MAKE_VERSION(1, i, 0);
      snprintf(v[i].name, sizeof v[i].name, "SPIR-V");
    }
    return gac_answer(v, sizeof v, size, value, size_ret);
  }
  case CL_DEVICE_LOCAL_MEM_SIZE: {
    cl_ulong limit = env_limit("GAC_LAYER_LOCAL_MEM_SIZE");
    if (limit)
      return gac_answer(&limit, sizeof limit, size, value, size_ret);
    break;
  }
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE: {
    /* Below 2 GiB, buffers stay within a 32-bit int's reach, as hosts that
     * index them with int (the Khronos CTS's async copy checks) assume. */
    cl_ulong limit = env_limit("GAC_LAYER_MAX_MEM_ALLOC_SIZE"), own = 0;
    cl_int err = gac_next->clGetDeviceInfo(device, param, sizeof own, &own, NULL);
    if (!limit || err != CL_SUCCESS)
      break;
    limit = limit < own ? limit : own;
    return gac_answer(&limit, sizeof limit, size, value, size_ret);
  }
  case CL_DEVICE_MAX_WORK_GROUP_SIZE: {
    size_t limit = env_limit("GAC_LAYER_MAX_WORK_GROUP_SIZE");
    if (limit)
      return gac_answer(&limit, sizeof limit, size, value, size_ret);
    break;
  }
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t limit = env_limit("GAC_LAYER_MAX_WORK_GROUP_SIZE");
    size_t sizes[3];
    cl_int err = gac_next->clGetDeviceInfo(device, param, sizeof sizes, sizes, NULL);
    if (!limit || err != CL_SUCCESS)
      break;
    for (int i = 0; i < 3; i++)
      sizes[i] = sizes[i] < limit ? sizes[i] : limit;
    return gac_answer(sizes, sizeof sizes, size, value, size_ret);
  }
  default:
    break;
  }
  return gac_next->clGetDeviceInfo(device, param, size, value, size_ret);
}
