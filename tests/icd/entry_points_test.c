/* The layer's four entry points (cl_loader_layers 1.0.1) called as a loader
 * calls them, with no loader and no driver: the layer is dlopen'd and given a
 * stand-in dispatch table below it. Checked: clGetLayerInfo; clInitLayer and
 * clInitLayerWithProperties (arguments, a table too short, properties, a
 * table exactly as long as the loader says, read no further: ASan would
 * catch it); what the layer holds (an IL program's record, an OpenCL C
 * program it wraps, the kernel library's index) let go by clDeinitLayer, and
 * the layer initialised again after it. Built with ASan (the test build), a
 * second init-use-deinit cycle must leave the heap as it found it, and
 * LeakSanitizer sees what the layer still holds once it is unloaded.
 *
 * Arguments: libgac-layer.so, then a SPIR-V module with copies and a stand-in
 * kernel library (tests/icd/broken-library.ll) for the link check. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ASan's allocator counts the bytes in use exactly (glibc's mallinfo2 counts
 * its per-thread caches as in use, so it drifts); GCC 12 ships no header. */
#if defined(__SANITIZE_ADDRESS__)
#define COUNTS_HEAP 1
size_t __sanitizer_get_current_allocated_bytes(void);
static size_t heap_in_use(void) { return __sanitizer_get_current_allocated_bytes(); }
#else
#define COUNTS_HEAP 0
static size_t heap_in_use(void) { return 0; }
#endif

/* cl_layer.h's types, declared here: Debian 12's header lacks the 1.0.1 ones. */
typedef cl_properties layer_properties;
typedef cl_int(CL_API_CALL *get_info_fn)(cl_uint, size_t, void *, size_t *);
typedef cl_int(CL_API_CALL *init_fn)(cl_uint, const cl_icd_dispatch *, cl_uint *, const cl_icd_dispatch **);
typedef cl_int(CL_API_CALL *init_props_fn)(cl_uint, const cl_icd_dispatch *, cl_uint *, const cl_icd_dispatch **,
                                           const layer_properties *);
typedef cl_int(CL_API_CALL *deinit_fn)(void);
enum { LAYER_API_VERSION = 0x4240, LAYER_NAME = 0x4241, LAYER_API_VERSION_100 = 100 };

static get_info_fn get_info;
static init_fn init;
static init_props_fn init_props;
static deinit_fn deinit;
static unsigned passed, failed;

static void report(const char *name, bool ok, const char *detail) {
  printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ", ok ? "" : detail);
  ok ? passed++ : failed++;
}

/* ---- the stand-in below the layer: handles, counters, a few entries ---- */

static char platform_obj, device_obj, context_obj, program_obj[4];
#define PLATFORM ((cl_platform_id)&platform_obj)
#define DEVICE ((cl_device_id)&device_obj)
#define CONTEXT ((cl_context)&context_obj)
static int context_refs, programs_made, programs_released;

static cl_int answer(const void *v, size_t n, size_t size, void *value, size_t *size_ret) {
  if (value && size < n)
    return CL_INVALID_VALUE;
  if (value)
    memcpy(value, v, n);
  if (size_ret)
    *size_ret = n;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL platform_info_a(cl_platform_id p, cl_platform_info param, size_t size, void *value,
                                          size_t *size_ret) {
  return p == PLATFORM && param == CL_PLATFORM_EXTENSIONS ? answer("cl_below_a", 11, size, value, size_ret)
                                                          : CL_INVALID_VALUE;
}

static cl_int CL_API_CALL platform_info_b(cl_platform_id p, cl_platform_info param, size_t size, void *value,
                                          size_t *size_ret) {
  return p == PLATFORM && param == CL_PLATFORM_EXTENSIONS ? answer("cl_below_b", 11, size, value, size_ret)
                                                          : CL_INVALID_VALUE;
}

/* A device the layer cannot ask anything: it builds SPIR 1.2 for it. */
static cl_int CL_API_CALL device_info(cl_device_id d, cl_device_info param, size_t size, void *value, size_t *size_ret) {
  (void)d, (void)param, (void)size, (void)value, (void)size_ret;
  return CL_INVALID_VALUE;
}

static cl_int CL_API_CALL context_info(cl_context c, cl_context_info param, size_t size, void *value,
                                       size_t *size_ret) {
  cl_uint one = 1;
  cl_device_id d = DEVICE;
  if (c != CONTEXT)
    return CL_INVALID_CONTEXT;
  if (param == CL_CONTEXT_NUM_DEVICES)
    return answer(&one, sizeof one, size, value, size_ret);
  return param == CL_CONTEXT_DEVICES ? answer(&d, sizeof d, size, value, size_ret) : CL_INVALID_VALUE;
}

static cl_int CL_API_CALL retain_context(cl_context c) { return c == CONTEXT ? (context_refs++, CL_SUCCESS) : CL_INVALID_CONTEXT; }
static cl_int CL_API_CALL release_context(cl_context c) { return c == CONTEXT ? (context_refs--, CL_SUCCESS) : CL_INVALID_CONTEXT; }

static cl_program new_program(cl_int *err) {
  *err = programs_made < 4 ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
  return programs_made < 4 ? (cl_program)&program_obj[programs_made++] : NULL;
}

static cl_program CL_API_CALL program_with_source(cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *err) {
  (void)c, (void)n, (void)s, (void)l;
  return new_program(err);
}

static cl_program CL_API_CALL program_with_binary(cl_context c, cl_uint n, const cl_device_id *d, const size_t *l,
                                                  const unsigned char **b, cl_int *status, cl_int *err) {
  (void)c, (void)n, (void)d, (void)l, (void)b, (void)status;
  return new_program(err);
}

static cl_int CL_API_CALL release_program(cl_program p) {
  (void)p;
  programs_released++;
  return CL_SUCCESS;
}

/* The stand-in keeps no IL: a program the layer does not know has none. */
static cl_int CL_API_CALL program_info(cl_program p, cl_program_info param, size_t size, void *value, size_t *size_ret) {
  (void)p;
  return param == CL_PROGRAM_IL ? answer("", 0, size, value, size_ret) : CL_INVALID_VALUE;
}

static cl_int CL_API_CALL build_info(cl_program p, cl_device_id d, cl_program_build_info param, size_t size,
                                     void *value, size_t *size_ret) {
  (void)p, (void)d, (void)param, (void)size, (void)value, (void)size_ret;
  return CL_INVALID_VALUE;
}

static void fill(cl_icd_dispatch *t, void *platform_info) {
  memset(t, 0, sizeof *t);
  t->clGetPlatformInfo = platform_info;
  t->clGetDeviceInfo = device_info;
  t->clGetContextInfo = context_info;
  t->clRetainContext = retain_context;
  t->clReleaseContext = release_context;
  t->clCreateProgramWithSource = program_with_source;
  t->clCreateProgramWithBinary = program_with_binary;
  t->clReleaseProgram = release_program;
  t->clGetProgramInfo = program_info;
  t->clGetProgramBuildInfo = build_info;
}

/* The entries the layer needs: up to clCreateProgramWithIL (OpenCL 2.1). */
#define NEEDED ((cl_uint)(offsetof(cl_icd_dispatch, clCreateProgramWithIL) / sizeof(void *) + 1))

/* ---- checks ---- */

static char *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  char *d = NULL;
  if (f && fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    rewind(f);
    d = n > 0 ? malloc((size_t)n) : NULL;
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
      free(d);
      d = NULL;
    }
    *size = d ? (size_t)n : 0;
  }
  if (f)
    fclose(f);
  return d;
}

static void test_info(void) {
  cl_uint version = 0;
  size_t n = 0;
  char name[256] = "";
  report("clGetLayerInfo(CL_LAYER_API_VERSION) = 100",
         get_info(LAYER_API_VERSION, sizeof version, &version, &n) == CL_SUCCESS && version == LAYER_API_VERSION_100 &&
             n == sizeof version,
         "wrong version or size");
  report("clGetLayerInfo(CL_LAYER_NAME) names gac",
         get_info(LAYER_NAME, 0, NULL, &n) == CL_SUCCESS && n <= sizeof name &&
             get_info(LAYER_NAME, sizeof name, name, NULL) == CL_SUCCESS && strncmp(name, "gac", 3) == 0 &&
             strlen(name) + 1 == n,
         name);
  report("clGetLayerInfo: a value too small, an unknown name: CL_INVALID_VALUE",
         get_info(LAYER_NAME, 2, name, NULL) == CL_INVALID_VALUE && get_info(0x4242, sizeof name, name, NULL) == CL_INVALID_VALUE,
         "accepted");
}

/* The layer's extensions query answers through the table below it: whose? */
static bool forwards_to(const cl_icd_dispatch *layer, const char *below) {
  char s[512] = "";
  return layer->clGetPlatformInfo(PLATFORM, CL_PLATFORM_EXTENSIONS, sizeof s, s, NULL) == CL_SUCCESS &&
         strstr(s, below) && strstr(s, "cl_khr_extended_async_copies");
}

static void test_refusals(const cl_icd_dispatch *a, const cl_icd_dispatch *b) {
  const cl_icd_dispatch *layer = NULL;
  cl_uint n = 0;
  static const layer_properties end[] = {0}, unknown[] = {0x4242, 1, 0};
  report("NULL arguments: CL_INVALID_VALUE",
         init(NEEDED, NULL, &n, &layer) == CL_INVALID_VALUE && init(NEEDED, a, NULL, &layer) == CL_INVALID_VALUE &&
             init(NEEDED, a, &n, NULL) == CL_INVALID_VALUE && init_props(NEEDED, NULL, &n, &layer, NULL) == CL_INVALID_VALUE &&
             init_props(NEEDED, a, NULL, &layer, end) == CL_INVALID_VALUE,
         "accepted");
  report("a table shorter than clCreateProgramWithIL: CL_INVALID_VALUE",
         init(NEEDED - 1, a, &n, &layer) == CL_INVALID_VALUE && init_props(NEEDED - 1, a, &n, &layer, NULL) == CL_INVALID_VALUE &&
             layer == NULL,
         "accepted");
  report("an unknown property: CL_INVALID_PROPERTY",
         init_props(NEEDED, a, &n, &layer, unknown) == CL_INVALID_PROPERTY && layer == NULL, "accepted");
  /* A refused init leaves the layer as it was. */
  cl_int err = init_props(NEEDED, a, &n, &layer, end);
  const cl_icd_dispatch *again = NULL;
  bool refused = init_props(NEEDED, b, &n, &again, unknown) == CL_INVALID_PROPERTY &&
                 init(NEEDED - 1, b, &n, &again) == CL_INVALID_VALUE && again == NULL;
  report("a refused init leaves the layer below it unchanged",
         err == CL_SUCCESS && refused && forwards_to(layer, "cl_below_a"), "changed");
  report("clDeinitLayer", deinit() == CL_SUCCESS, "failed");
}

/* One life of the layer: initialised over `below` (num entries long), used,
 * deinitialised. The IL module has copies; `junk` is a SPIR-V header alone. */
static void cycle(int k, cl_icd_dispatch *below, cl_uint num, const layer_properties *props, const void *il,
                  size_t il_size) {
  char name[160], log[4096] = "";
  const cl_icd_dispatch *layer = NULL;
  cl_uint n = 0;
  cl_int err = props ? init_props(num, below, &n, &layer, props) : init(num, below, &n, &layer);
  snprintf(name, sizeof name, "cycle %d: init with a table of %u entries, %s", k, num,
           props ? "properties { CL_LAYER_PROPERTIES_LIST_END }" : "clInitLayer");
  report(name, err == CL_SUCCESS && layer && n == num && forwards_to(layer, "cl_below_a"), "refused or wrong table");
  if (err != CL_SUCCESS)
    return;
  programs_made = programs_released = 0;

  /* An IL program the layer cannot bridge: its record keeps the IL and the log. */
  static const unsigned junk[5] = {0x07230203, 0x00010000, 0, 1, 0};
  cl_program bad = layer->clCreateProgramWithIL(CONTEXT, junk, sizeof junk, &err);
  unsigned got[5] = {0};
  snprintf(name, sizeof name, "cycle %d: an IL program's record (CL_PROGRAM_IL from the layer)", k);
  report(name, bad && layer->clGetProgramInfo(bad, CL_PROGRAM_IL, sizeof got, got, NULL) == CL_SUCCESS &&
                   memcmp(got, junk, sizeof junk) == 0,
         "no record");

  /* A module with copies: bridged, then refused by the link check against the
   * stand-in library, which lacks the work-item functions: the index is made. */
  cl_program linked = layer->clCreateProgramWithIL(CONTEXT, il, il_size, &err);
  if (linked)
    layer->clGetProgramBuildInfo(linked, DEVICE, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  snprintf(name, sizeof name, "cycle %d: the link check indexed the library ([Layer.PoCLLink])", k);
  report(name, linked && strstr(log, "[Layer.PoCLLink]") && strstr(log, "not in the library"), log);

  /* OpenCL C with a 2D copy: the layer's own program, holding the context. */
  const char *src = "kernel void k(global int *g, local int *t) {\n"
                    "  event_t e = async_work_group_copy_2D2D(t, 0, g, 0, 4, 4, 1, 4, 4, 0);\n"
                    "  wait_group_events(1, &e);\n}\n";
  int refs = context_refs;
  cl_program wrapped = layer->clCreateProgramWithSource(CONTEXT, 1, &src, NULL, &err);
  snprintf(name, sizeof name, "cycle %d: an OpenCL C program wrapped (the context retained)", k);
  report(name, wrapped && (void *)wrapped != (void *)program_obj && context_refs == refs + 1, "not wrapped");

  /* Never released by the host: clDeinitLayer lets go of all three. */
  snprintf(name, sizeof name, "cycle %d: clDeinitLayer", k);
  report(name, deinit() == CL_SUCCESS, "failed");
  snprintf(name, sizeof name, "cycle %d: the wrapper's context reference released, no program of the driver's", k);
  report(name, context_refs == refs && programs_released == 0, "references left or wrong programs released");
}

/* After deinit, a new init: the records of the last life are gone. */
static void test_forgotten(cl_icd_dispatch *below) {
  const cl_icd_dispatch *layer = NULL;
  cl_uint n = 0;
  size_t size = 1;
  bool ok = init(NEEDED, below, &n, &layer) == CL_SUCCESS &&
            layer->clGetProgramInfo((cl_program)&program_obj[0], CL_PROGRAM_IL, 0, NULL, &size) == CL_SUCCESS;
  report("init after deinit: the old IL program's record is gone", ok && size == 0, "still known");
  deinit();
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc != 4) {
    fprintf(stderr, "usage: entry_points_test <libgac-layer.so> <module with copies.spv> <stand-in library.bc>\n");
    return 2;
  }
  size_t il_size = 0;
  char *il = read_all(argv[2], &il_size);
  if (!il) {
    fprintf(stderr, "entry_points_test: cannot read %s\n", argv[2]);
    return 2;
  }
  setenv("GAC_LAYER_CACHE_DIR", "off", 1); /* every cycle does the same work */
  setenv("GAC_LAYER_POCL_KERNEL_LIBRARY", argv[3], 1);
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "entry_points_test: %s\n", dlerror());
    free(il);
    return 1;
  }
  get_info = (get_info_fn)dlsym(lib, "clGetLayerInfo");
  init = (init_fn)dlsym(lib, "clInitLayer");
  init_props = (init_props_fn)dlsym(lib, "clInitLayerWithProperties");
  deinit = (deinit_fn)dlsym(lib, "clDeinitLayer");
  report("the four entry points", get_info && init && init_props && deinit, "one missing");
  if (!get_info || !init || !init_props || !deinit) {
    printf("%u passed, %u failed\n", passed, failed);
    return 1;
  }
  test_info();

  static cl_icd_dispatch a, b;
  fill(&a, platform_info_a);
  fill(&b, platform_info_b);
  test_refusals(&a, &b);

  /* A loader's table exactly as long as it says: ASan catches a read past it. */
  cl_icd_dispatch *shortest = malloc(NEEDED * sizeof(void *));
  memcpy(shortest, &a, NEEDED * sizeof(void *));
  static const layer_properties end[] = {0};
  const cl_uint full = sizeof a / sizeof(void *);
  cycle(1, shortest, NEEDED, end, il, il_size);
  size_t before = heap_in_use();
  cycle(2, &a, full, NULL, il, il_size);
  size_t after = heap_in_use();
  cycle(3, shortest, NEEDED, NULL, il, il_size);
  char detail[96];
  snprintf(detail, sizeof detail, "%zu bytes in use before, %zu after", before, after);
  if (COUNTS_HEAP)
    report("a whole init-use-deinit cycle leaves the heap as it found it", before == after, detail);
  else
    printf("SKIP the heap after a cycle: counted only in an ASan build\n");
  test_forgotten(&a);
  report("clDeinitLayer again, and clGetLayerInfo after it",
         deinit() == CL_SUCCESS && get_info(LAYER_NAME, 0, NULL, &(size_t){0}) == CL_SUCCESS, "failed");
  free(shortest);
  free(il);
  dlclose(lib);
  printf("%u passed, %u failed\n", passed, failed);
  return failed ? 1 : 0;
}
