/* Programs created from SPIR-V. clCreateProgramWithIL bridges the module to
 * what the device's driver builds (bridge.c: SPIR 1.2 bitcode for PoCL, PTX
 * for NVIDIA's driver) and creates the driver's program from it, so the
 * program object is the driver's own; the layer remembers which programs are such,
 * with their IL (for CL_PROGRAM_IL) and, when the module could not be
 * bridged, the build log that clBuildProgram then reports. Such a failed
 * program is a PoCL program made from empty source, so every other query on
 * it still works. */
#define _GNU_SOURCE /* asprintf */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"
#include "layer_log.h"

typedef struct il_program {
  struct il_program *next;
  cl_program program;
  void *il;
  size_t il_size;
  char *failure_log; /* NULL if the module was bridged */
  char *warnings;    /* gac's warnings when it was (the build log starts with them), or NULL */
  gac_layer_target_kind kind; /* what the driver got: SPIR bitcode, SPIR-V or PTX */
} il_program;

static il_program *programs;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* A copy of what the layer knows about program (NULL if it is not ours). The
 * lock is held while the caller uses it: call done() after. */
static il_program *find(cl_program program) {
  pthread_mutex_lock(&lock);
  for (il_program *p = programs; p; p = p->next)
    if (p->program == program)
      return p;
  return NULL;
}

static void done(void) { pthread_mutex_unlock(&lock); }

/* Removes the record of `program` (with the lock held). */
static void forget(cl_program program) {
  for (il_program **pp = &programs; *pp; pp = &(*pp)->next) {
    if ((*pp)->program != program)
      continue;
    il_program *dead = *pp;
    *pp = dead->next;
    free(dead->il);
    free(dead->failure_log);
    free(dead->warnings);
    free(dead);
    return;
  }
}

/* A program object the driver just made is new, whatever its address: a
 * record left at that address is stale. The layer forgets a program at its
 * last clReleaseProgram, but the driver frees it only when its kernels are
 * gone too, so a program released before its kernels was never forgotten,
 * and a later program at the same address was taken for it (a plain OpenCL
 * C program built with SPIR options: CL_INVALID_BUILD_OPTIONS, now and
 * then, in icd.layer). */
cl_program gac_program_created(cl_program program) {
  if (program) {
    pthread_mutex_lock(&lock);
    forget(program);
    done();
  }
  return program;
}

/* The records only: the programs are the host's (the layer holds no
 * reference to them). */
void gac_layer_release_programs(void) {
  pthread_mutex_lock(&lock);
  while (programs)
    forget(programs->program);
  done();
}

cl_program CL_API_CALL gac_CreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                   const cl_device_id *devices, const size_t *lengths,
                                                   const unsigned char **binaries, cl_int *status, cl_int *errcode_ret) {
  return gac_program_created(
      gac_next->clCreateProgramWithBinary(context, num_devices, devices, lengths, binaries, status, errcode_ret));
}

static const char spir_options[] = "-x spir -spir-std=1.2";

static bool is_spirv(const void *il, size_t size) {
  const unsigned char *b = il;
  static const unsigned char le[4] = {0x03, 0x02, 0x23, 0x07}, be[4] = {0x07, 0x23, 0x02, 0x03};
  return size >= 20 && size % 4 == 0 && (memcmp(b, le, 4) == 0 || memcmp(b, be, 4) == 0);
}

cl_program CL_API_CALL gac_CreateProgramWithIL(cl_context context, const void *il, size_t length, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  if (!il || length == 0 || !is_spirv(il, length)) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_VALUE;
    return NULL;
  }
  cl_uint num_devices = 0;
  err = gac_next->clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof num_devices, &num_devices, NULL);
  cl_device_id *devices = calloc(num_devices ? num_devices : 1, sizeof(cl_device_id));
  if (err == CL_SUCCESS)
    err = gac_next->clGetContextInfo(context, CL_CONTEXT_DEVICES, num_devices * sizeof(cl_device_id), devices, NULL);
  il_program *entry = calloc(1, sizeof *entry);
  unsigned char *bc = NULL;
  size_t bc_size = 0;
  cl_program program = NULL;
  if (err == CL_SUCCESS && entry) {
    /* One binary for every device of the context: built for the first one. */
    gac_layer_target target = gac_device_target(num_devices ? devices[0] : NULL);
    entry->kind = target.kind;
    char what[160];
    gac_layer_target_text(&target, what, sizeof what);
    if (gac_bridge_il(il, length, &target, &bc, &bc_size, &entry->failure_log, &entry->warnings)) {
      if (target.kind == GAC_LAYER_SPIRV) {
        program = gac_next->clCreateProgramWithIL(context, bc, bc_size, &err);
      } else {
        const unsigned char **bins = calloc(num_devices, sizeof *bins);
        size_t *sizes = calloc(num_devices, sizeof *sizes);
        for (cl_uint i = 0; i < num_devices; i++)
          bins[i] = bc, sizes[i] = bc_size;
        program = gac_next->clCreateProgramWithBinary(context, num_devices, devices, sizes, bins, NULL, &err);
        free(bins);
        free(sizes);
      }
      if (program) {
        gac_layer_log("SPIR-V program %p: %s: the driver's program made from it", (void *)program, what);
      } else if (err != CL_INVALID_CONTEXT && err != CL_OUT_OF_HOST_MEMORY && err != CL_OUT_OF_RESOURCES) {
        /* The driver refused what gac made: a program whose build fails
         * with a log that says so, rather than no program and no reason. */
        static const char *empty = "";
        if (asprintf(&entry->failure_log, "gac layer: the driver refused %s (error %d)\n", what, err) < 0)
          entry->failure_log = NULL;
        gac_layer_log("SPIR-V program: %s: the driver refused it (error %d)", what, err);
        program = gac_next->clCreateProgramWithSource(context, 1, &empty, NULL, &err);
      }
    } else {
      char line[300];
      gac_layer_log("SPIR-V program: %s: not built: %s", what,
                    gac_layer_first_line(entry->failure_log, line, sizeof line));
      static const char *empty = "";
      if (!entry->failure_log)
        entry->failure_log = strdup("gac layer: the SPIR-V module could not be prepared for the device");
      program = gac_next->clCreateProgramWithSource(context, 1, &empty, NULL, &err);
    }
  } else if (err == CL_SUCCESS) {
    err = CL_OUT_OF_HOST_MEMORY;
  }
  free(bc);
  free(devices);
  if (program) {
    entry->program = program;
    entry->il = malloc(length);
    entry->il_size = length;
    memcpy(entry->il, il, length);
    pthread_mutex_lock(&lock);
    forget(program);
    entry->next = programs;
    programs = entry;
    done();
  } else if (entry) {
    free(entry->failure_log);
    free(entry->warnings);
    free(entry);
  }
  if (errcode_ret)
    *errcode_ret = err;
  return program;
}

/* The driver could not build what gac made of a program's SPIR-V: its
 * build log starts with a line that says so, then the driver's. */
static void note_driver_failure(cl_program program) {
  il_program *p = find(program);
  if (p) {
    static const char *const made[] = {"SPIR 1.2 bitcode", "lowered SPIR-V", "PTX"};
    char *note = NULL;
    if (asprintf(&note, "%sgac layer: the driver could not build the %s gac made of this program's SPIR-V; "
                 "its log follows.\n", p->warnings ? p->warnings : "", made[p->kind]) >= 0) {
      free(p->warnings);
      p->warnings = note;
    }
    gac_layer_log("SPIR-V program %p: the driver could not build the %s gac made of it", (void *)program,
                  made[p->kind]);
  }
  done();
}

cl_int CL_API_CALL gac_BuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                    const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
                                    void *user_data) {
  gac_source_program *w = gac_source_find(program);
  if (w)
    return gac_source_build(w, num_devices, device_list, options, notify, user_data);
  il_program *p = find(program);
  bool ours = p != NULL, failed = p && p->failure_log, spir = p && p->kind == GAC_LAYER_SPIR;
  done();
  if (!ours)
    return gac_next->clBuildProgram(program, num_devices, device_list, options, notify, user_data);
  if (failed) {
    if (notify)
      notify(program, user_data);
    return CL_BUILD_PROGRAM_FAILURE;
  }
  /* PTX is the driver's own binary, SPIR-V its own IL: the options go as they are. */
  if (!spir) {
    cl_int err = gac_next->clBuildProgram(program, num_devices, device_list, options, notify, user_data);
    if (err == CL_BUILD_PROGRAM_FAILURE)
      note_driver_failure(program);
    return err;
  }
  /* The bitcode is SPIR 1.2: PoCL needs to be told, whatever else was asked. */
  size_t n = (options ? strlen(options) : 0) + sizeof spir_options + 2;
  char *all = malloc(n);
  if (!all)
    return CL_OUT_OF_HOST_MEMORY;
  snprintf(all, n, "%s%s%s", options ? options : "", options && *options ? " " : "", spir_options);
  cl_int err = gac_next->clBuildProgram(program, num_devices, device_list, all, notify, user_data);
  free(all);
  if (err == CL_BUILD_PROGRAM_FAILURE)
    note_driver_failure(program);
  return err;
}

cl_int CL_API_CALL gac_GetProgramInfo(cl_program program, cl_program_info param, size_t size, void *value,
                                      size_t *size_ret) {
  gac_source_program *w = gac_source_find(program);
  if (w)
    return gac_source_info(w, param, size, value, size_ret);
  if (param == CL_PROGRAM_IL) {
    il_program *p = find(program);
    cl_int err = p ? gac_answer(p->il, p->il_size, size, value, size_ret) : CL_SUCCESS;
    bool ours = p != NULL;
    done();
    if (ours)
      return err;
  }
  return gac_next->clGetProgramInfo(program, param, size, value, size_ret);
}

cl_int CL_API_CALL gac_GetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param,
                                           size_t size, void *value, size_t *size_ret) {
  gac_source_program *w = gac_source_find(program);
  if (w)
    return gac_source_build_info(w, device, param, size, value, size_ret);
  il_program *p = find(program);
  cl_int err = CL_SUCCESS;
  bool answered = false;
  if (p && p->failure_log && param == CL_PROGRAM_BUILD_LOG) {
    err = gac_answer(p->failure_log, strlen(p->failure_log) + 1, size, value, size_ret);
    answered = true;
  } else if (p && p->failure_log && param == CL_PROGRAM_BUILD_STATUS) {
    cl_build_status status = CL_BUILD_ERROR;
    err = gac_answer(&status, sizeof status, size, value, size_ret);
    answered = true;
  } else if (p && p->warnings && param == CL_PROGRAM_BUILD_LOG) {
    /* gac's warnings, then the driver's own log. */
    char *prefix = strdup(p->warnings);
    done();
    err = prefix ? gac_prefixed_build_log(program, device, prefix, size, value, size_ret) : CL_OUT_OF_HOST_MEMORY;
    free(prefix);
    return err;
  }
  done();
  return answered ? err : gac_next->clGetProgramBuildInfo(program, device, param, size, value, size_ret);
}

cl_int gac_prefixed_build_log(cl_program program, cl_device_id device, const char *prefix, size_t size, void *value,
                              size_t *size_ret) {
  size_t n = 0;
  gac_next->clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  size_t ours_len = strlen(prefix);
  char *text = calloc(1, ours_len + n + 1);
  if (!text)
    return CL_OUT_OF_HOST_MEMORY;
  memcpy(text, prefix, ours_len);
  if (n)
    gac_next->clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, n, text + ours_len, NULL);
  cl_int err = gac_answer(text, strlen(text) + 1, size, value, size_ret);
  free(text);
  return err;
}

cl_int CL_API_CALL gac_ReleaseProgram(cl_program program) {
  gac_source_program *w = gac_source_find(program);
  if (w)
    return gac_source_release(w);
  cl_uint refs = 0;
  cl_int err = gac_next->clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  if (err != CL_SUCCESS)
    return gac_next->clReleaseProgram(program);
  err = gac_next->clReleaseProgram(program);
  if (err != CL_SUCCESS || refs != 1)
    return err;
  /* That was the last reference: forget the program. */
  pthread_mutex_lock(&lock);
  forget(program);
  done();
  return err;
}

cl_int CL_API_CALL gac_SetProgramReleaseCallback(cl_program program, void(CL_CALLBACK *notify)(cl_program, void *),
                                                 void *user_data) {
  gac_source_program *w = gac_source_find(program);
  if (w)
    return gac_source_set_release_callback(w, notify, user_data);
  return gac_next->clSetProgramReleaseCallback ? gac_next->clSetProgramReleaseCallback(program, notify, user_data)
                                               : CL_INVALID_OPERATION;
}

/* An OpenCL C program has no specialization constants (OpenCL's rule: only
 * a program made from IL does). */
cl_int CL_API_CALL gac_SetProgramSpecializationConstant(cl_program program, cl_uint id, size_t size,
                                                        const void *value) {
  if (gac_source_find(program))
    return CL_INVALID_PROGRAM;
  return gac_next->clSetProgramSpecializationConstant
             ? gac_next->clSetProgramSpecializationConstant(program, id, size, value)
             : CL_INVALID_OPERATION;
}

cl_int CL_API_CALL gac_RetainProgram(cl_program program) {
  gac_source_program *w = gac_source_find(program);
  return w ? gac_source_retain(w) : gac_next->clRetainProgram(program);
}

/* The PoCL program behind `program`: itself, or a wrapper's inner program
 * (NULL if the wrapper was not built). */
static cl_program unwrap(cl_program program) {
  gac_source_program *w = gac_source_find(program);
  return w ? gac_source_inner(w) : program;
}

cl_kernel CL_API_CALL gac_CreateKernel(cl_program program, const char *name, cl_int *errcode_ret) {
  cl_program inner = unwrap(program);
  if (!inner) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_PROGRAM_EXECUTABLE;
    return NULL;
  }
  return gac_next->clCreateKernel(inner, name, errcode_ret);
}

cl_int CL_API_CALL gac_CreateKernelsInProgram(cl_program program, cl_uint num, cl_kernel *kernels, cl_uint *num_ret) {
  cl_program inner = unwrap(program);
  return inner ? gac_next->clCreateKernelsInProgram(inner, num, kernels, num_ret) : CL_INVALID_PROGRAM_EXECUTABLE;
}

/* A kernel of a wrapped program names the wrapper as its program. */
cl_int CL_API_CALL gac_GetKernelInfo(cl_kernel kernel, cl_kernel_info param, size_t size, void *value,
                                     size_t *size_ret) {
  cl_int err = gac_next->clGetKernelInfo(kernel, param, size, value, size_ret);
  if (err == CL_SUCCESS && param == CL_KERNEL_PROGRAM && value && size >= sizeof(cl_program)) {
    gac_source_program *w = gac_source_of_inner(*(cl_program *)value);
    if (w)
      *(cl_program *)value = (cl_program)w;
  }
  return err;
}

/* Separate compilation and linking of gac's programs. clCompileProgram of an
 * OpenCL C program with the builtins runs the front end (headers included)
 * and keeps the SPIR-V; of an IL program there is nothing to compile.
 * clLinkProgram of such programs links their SPIR-V with spirv-link and
 * builds the result as an IL program. PoCL cannot link its SPIR-bitcode
 * programs, so linking gac's programs with PoCL's own is refused. */
cl_int CL_API_CALL gac_CompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *devices,
                                      const char *options, cl_uint num_headers, const cl_program *header_programs,
                                      const char **header_names, void(CL_CALLBACK *notify)(cl_program, void *),
                                      void *user_data) {
  gac_source_program *w = gac_source_find(program);
  if (w)
    return gac_source_compile(w, num_devices, devices, options, num_headers, header_programs, header_names,
                              notify, user_data);
  il_program *p = find(program);
  bool ours = p != NULL, failed = p && p->failure_log;
  done();
  if (!ours)
    return gac_next->clCompileProgram(program, num_devices, devices, options, num_headers, header_programs,
                                      header_names, notify, user_data);
  if (notify)
    notify(program, user_data);
  return failed ? CL_COMPILE_PROGRAM_FAILURE : CL_SUCCESS;
}

/* The SPIR-V of one of gac's programs, copied into *il (malloc'd); false if
 * the program is not gac's or has none. */
static bool program_il(cl_program program, void **il, size_t *size) {
  const void *from = NULL;
  gac_source_program *w = gac_source_find(program);
  if (w && gac_source_compiled(w, &from, size)) {
    *il = malloc(*size);
    return *il && memcpy(*il, from, *size);
  }
  il_program *p = find(program);
  bool ok = p && !p->failure_log && (*il = malloc(p->il_size));
  if (ok) {
    memcpy(*il, p->il, p->il_size);
    *size = p->il_size;
  }
  done();
  return ok;
}

static bool is_ours(cl_program program) {
  il_program *p = find(program);
  bool ours = p != NULL;
  done();
  return ours || gac_source_find(program);
}

/* spirv-link of the inputs; the linked module in *linked (malloc'd). */
static bool link_il(cl_uint n, const cl_program *inputs, bool library, void **linked, size_t *size, char **log) {
  char dir[32];
  if (!gac_scratch_dir(dir))
    return false;
  char out[64], log_path[64];
  *log = NULL;
  snprintf(out, sizeof out, "%s/linked.spv", dir);
  snprintf(log_path, sizeof log_path, "%s/log", dir);
  const char *tool = getenv("GAC_SPIRV_LINK") ? getenv("GAC_SPIRV_LINK") : "spirv-link";
  char **argv = calloc(n + 7, sizeof *argv);
  char (*paths)[64] = calloc(n ? n : 1, sizeof *paths);
  bool ok = argv && paths;
  unsigned k = 0;
  if (ok) {
    argv[k++] = (char *)tool;
    if (library)
      argv[k++] = "--create-library";
    argv[k++] = "-o";
    argv[k++] = out;
  }
  /* Raised first: the builtins' declarations are imports spirv-link would
   * leave unresolved (and, with partial linkage, misplace). */
  for (cl_uint i = 0; ok && i < n; i++) {
    void *il = NULL, *raised = NULL;
    size_t il_size = 0, raised_size = 0;
    snprintf(paths[i], sizeof paths[i], "%s/in%u.spv", dir, i);
    ok = program_il(inputs[i], &il, &il_size) && gac_raise_il(il, il_size, &raised, &raised_size, log) &&
         gac_write_file(paths[i], raised, raised_size);
    free(il);
    free(raised);
    argv[k++] = paths[i];
  }
  ok = ok && gac_run(argv, log_path) && (*linked = gac_read_file(out, size)) != NULL;
  size_t log_size;
  if (!*log)
    *log = gac_read_file(log_path, &log_size);
  free(argv);
  free(paths);
  gac_scratch_remove(dir);
  return ok;
}

cl_program CL_API_CALL gac_LinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                       const char *options, cl_uint num_inputs, const cl_program *inputs,
                                       void(CL_CALLBACK *notify)(cl_program, void *), void *user_data,
                                       cl_int *errcode_ret) {
  cl_uint ours = 0;
  for (cl_uint i = 0; inputs && i < num_inputs; i++)
    ours += is_ours(inputs[i]);
  if (ours == 0)
    return gac_program_created(gac_next->clLinkProgram(context, num_devices, devices, options, num_inputs, inputs,
                                                       notify, user_data, errcode_ret));
  cl_int err = ours == num_inputs ? CL_SUCCESS : CL_INVALID_OPERATION;
  void *linked = NULL;
  size_t size = 0;
  char *log = NULL;
  bool library = options && strstr(options, "-create-library");
  if (err == CL_SUCCESS && !link_il(num_inputs, inputs, library, &linked, &size, &log))
    err = CL_LINK_PROGRAM_FAILURE;
  cl_program program = NULL;
  if (err == CL_SUCCESS) {
    program = gac_CreateProgramWithIL(context, linked, size, &err);
    /* A library stays IL for a later link; a program is built now. */
    if (program && !library)
      err = gac_BuildProgram(program, num_devices, devices, options, NULL, NULL);
    if (err == CL_BUILD_PROGRAM_FAILURE)
      err = CL_LINK_PROGRAM_FAILURE;
  }
  if (log && err != CL_SUCCESS && err != CL_INVALID_OPERATION)
    fprintf(stderr, "gac layer: clLinkProgram failed:\n%s\n", log);
  free(linked);
  free(log);
  if (notify && program)
    notify(program, user_data);
  if (errcode_ret)
    *errcode_ret = err;
  return program;
}
