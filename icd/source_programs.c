/* OpenCL C programs that use async_work_group_copy_2D2D/3D3D,
 * async_work_group_copy_fence or gac's own builtins (async queues, pipeline
 * annotations). The driver's own compiler does not know these builtins, and
 * the front end must see the options given to clBuildProgram (-D, -I,
 * -cl-std, ...), so a program whose text names one is the layer's own
 * object: clCreateProgramWithSource returns a wrapper, and clBuildProgram
 * preprocesses the source with those options. If it calls a builtin, the
 * source is compiled with clang-15 and gac's header to SPIR-V and takes the
 * same path as clCreateProgramWithIL; if not (a program that brings its own
 * 2D copy for drivers without the extension), the driver's compiler builds
 * it. Either way the driver's program is the wrapper's inner program. Every
 * entry point that takes a program unwraps it first (programs.c); kernels
 * are the driver's, and CL_KERNEL_PROGRAM answers the wrapper. Programs
 * whose text names no builtin go to the driver untouched. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layer.h"
#include "layer_log.h"


/* clSetProgramReleaseCallback's functions, newest first: OpenCL calls them
 * in that order when the program goes. */
typedef struct release_callback {
  struct release_callback *next;
  void(CL_CALLBACK *notify)(cl_program, void *);
  void *user_data;
} release_callback;

struct gac_source_program {
  const cl_icd_dispatch *dispatch; /* first, as in every ICD object */
  struct gac_source_program *next;
  cl_context context;
  char *source;
  cl_uint refs;
  cl_program inner;   /* PoCL's program, once built */
  char *log;          /* the front end's log of the last build */
  bool failed;
  bool driver_built;  /* it calls no builtin of gac's: the driver's compiler built it */
  void *compiled;     /* SPIR-V from clCompileProgram, for clLinkProgram */
  size_t compiled_size;
  release_callback *callbacks;
};

static gac_source_program *wrappers;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

gac_source_program *gac_source_find(const void *program) {
  pthread_mutex_lock(&lock);
  gac_source_program *w = wrappers;
  while (w && (const void *)w != program)
    w = w->next;
  pthread_mutex_unlock(&lock);
  return w;
}

gac_source_program *gac_source_of_inner(cl_program inner) {
  pthread_mutex_lock(&lock);
  gac_source_program *w = wrappers;
  while (w && w->inner != inner)
    w = w->next;
  pthread_mutex_unlock(&lock);
  return w;
}

cl_program gac_source_inner(gac_source_program *w) { return w->inner; }

/* The text names a builtin of the extensions, one of gac's own (async
 * queues, pipeline annotations: gac's header) or an extension's macro
 * (cl_khr_async_work_group_copy_fence contains its builtin's name): the
 * device reports both extensions, so their macros must be defined whoever
 * compiles the program. */
static const char *named_builtin(const char *s) {
  static const char *const names[] = {"async_work_group_copy_2D2D",  "async_work_group_copy_3D3D",
                                      "async_work_group_copy_fence", "cl_khr_extended_async_copies",
                                      "gac_async_",                  "gac_pipeline_"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strstr(s, names[i]))
      return names[i];
  return NULL;
}

cl_program CL_API_CALL gac_CreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                                   const size_t *lengths, cl_int *errcode_ret) {
  if (!strings || count == 0)
    return gac_program_created(gac_next->clCreateProgramWithSource(context, count, strings, lengths, errcode_ret));
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i])
      return gac_program_created(gac_next->clCreateProgramWithSource(context, count, strings, lengths, errcode_ret));
    total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
  }
  char *source = malloc(total + 1);
  if (!source) {
    if (errcode_ret)
      *errcode_ret = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  size_t at = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(source + at, strings[i], n);
    at += n;
  }
  source[at] = '\0';
  const char *named = named_builtin(source);
  if (!named) {
    free(source);
    cl_program p = gac_program_created(gac_next->clCreateProgramWithSource(context, count, strings, lengths, errcode_ret));
    gac_layer_log("OpenCL C program %p: names none of gac's builtins or the extensions' macros: the driver's, untouched",
                  (void *)p);
    return p;
  }
  cl_int err = gac_next->clRetainContext(context); /* also checks the context */
  gac_source_program *w = err == CL_SUCCESS ? calloc(1, sizeof *w) : NULL;
  if (!w) {
    free(source);
    if (errcode_ret)
      *errcode_ret = err == CL_SUCCESS ? CL_OUT_OF_HOST_MEMORY : err;
    return NULL;
  }
  w->dispatch = gac_layer_dispatch();
  w->context = context;
  w->source = source;
  w->refs = 1;
  pthread_mutex_lock(&lock);
  w->next = wrappers;
  wrappers = w;
  pthread_mutex_unlock(&lock);
  gac_layer_log("OpenCL C program %p: names %s: the layer's (its build decides who compiles it)", (void *)w, named);
  if (errcode_ret)
    *errcode_ret = CL_SUCCESS;
  return (cl_program)w;
}

cl_int gac_source_retain(gac_source_program *w) {
  pthread_mutex_lock(&lock);
  w->refs++;
  pthread_mutex_unlock(&lock);
  return CL_SUCCESS;
}

/* A wrapper out of the list: its references on the driver's objects go
 * too; notify: the program goes as the host released it (not at
 * clDeinitLayer), so its release callbacks run first. */
static void destroy(gac_source_program *w, bool notify) {
  for (release_callback *c = w->callbacks, *next; c; c = next) {
    next = c->next;
    if (notify)
      c->notify((cl_program)w, c->user_data);
    free(c);
  }
  if (w->inner)
    gac_next->clReleaseProgram(w->inner);
  gac_next->clReleaseContext(w->context);
  free(w->source);
  free(w->log);
  free(w->compiled);
  free(w);
}

/* Destroys a list of wrappers already out of `wrappers`. */
static void destroy_all(gac_source_program *list, bool notify) {
  while (list) {
    gac_source_program *next = list->next;
    destroy(list, notify);
    list = next;
  }
}

/* A program goes when its last reference and its last kernel are gone, and
 * until then CL_KERNEL_PROGRAM names it: a wrapper the host released keeps
 * its place (refs 0) while the driver counts a reference on the inner
 * program besides the wrapper's own, its kernels'. Freed at once, its
 * address was the next buffer's or program's while a layer above (the
 * object-lifetime layer) and the kernels still knew it as this program. */
static bool held_by_kernels(gac_source_program *w) {
  cl_uint refs = 0;
  return w->inner &&
         gac_next->clGetProgramInfo(w->inner, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL) == CL_SUCCESS &&
         refs > 1;
}

/* Destroys the released wrappers no kernel holds any more (sweep) or w. */
static void drop_released(gac_source_program *only) {
  gac_source_program *dead = NULL;
  pthread_mutex_lock(&lock);
  for (gac_source_program **pp = &wrappers; *pp;) {
    gac_source_program *w = *pp;
    if ((only && w != only) || w->refs || held_by_kernels(w)) {
      pp = &w->next;
      continue;
    }
    *pp = w->next;
    w->next = dead;
    dead = w;
  }
  pthread_mutex_unlock(&lock);
  destroy_all(dead, true);
}

cl_int gac_source_release(gac_source_program *w) {
  pthread_mutex_lock(&lock);
  bool released = w->refs == 0;
  if (!released)
    w->refs--;
  pthread_mutex_unlock(&lock);
  if (released)
    return CL_INVALID_PROGRAM;
  drop_released(w);
  return CL_SUCCESS;
}

cl_int gac_source_set_release_callback(gac_source_program *w, void(CL_CALLBACK *notify)(cl_program, void *),
                                       void *user_data) {
  release_callback *c = notify ? malloc(sizeof *c) : NULL;
  if (!c)
    return notify ? CL_OUT_OF_HOST_MEMORY : CL_INVALID_VALUE;
  c->notify = notify, c->user_data = user_data;
  pthread_mutex_lock(&lock);
  c->next = w->callbacks;
  w->callbacks = c;
  pthread_mutex_unlock(&lock);
  return CL_SUCCESS;
}

/* A kernel's release may be the last hold on a released wrapper's program. */
cl_int CL_API_CALL gac_ReleaseKernel(cl_kernel kernel) {
  cl_int err = gac_next->clReleaseKernel(kernel);
  if (err == CL_SUCCESS)
    drop_released(NULL);
  return err;
}

/* The wrappers the host never released, at clDeinitLayer. */
void gac_layer_release_source_programs(void) {
  pthread_mutex_lock(&lock);
  gac_source_program *w = wrappers;
  wrappers = NULL;
  pthread_mutex_unlock(&lock);
  destroy_all(w, false);
}

/* ---- the front end ---- */

/* The options only the front end uses: -D and -I (their value in the token
 * or the next one), -cl-std=, -w, -Werror. */
typedef enum { NOT_FRONT_END, FRONT_END_FLAG, FRONT_END_WITH_VALUE } front_end_kind;
static front_end_kind front_end_only(const char *tok) {
  if (strcmp(tok, "-D") == 0 || strcmp(tok, "-I") == 0)
    return FRONT_END_WITH_VALUE;
  if (strncmp(tok, "-D", 2) == 0 || strncmp(tok, "-I", 2) == 0 || strncmp(tok, "-cl-std=", 8) == 0 ||
      strcmp(tok, "-w") == 0 || strcmp(tok, "-Werror") == 0)
    return FRONT_END_FLAG;
  return NOT_FRONT_END;
}

/* clang-15 options from clBuildProgram's: -D, -I, -cl-std=, -cl-* pass on;
 * -cl-opt-disable means -O0; -w and -Werror too. Others are PoCL's business. */
static unsigned front_end_options(const char *options, char **argv, unsigned max, char *storage, bool *opt_disable,
                                  const char **std) {
  unsigned n = 0;
  snprintf(storage, 4096, "%s", options ? options : "");
  for (char *tok = strtok(storage, " \t"); tok && n + 1 < max; tok = strtok(NULL, " \t")) {
    if (strcmp(tok, "-cl-opt-disable") == 0) {
      *opt_disable = true;
    } else if (strncmp(tok, "-cl-std=", 8) == 0) {
      *std = tok;
    } else if (front_end_only(tok) == FRONT_END_WITH_VALUE) {
      char *value = strtok(NULL, " \t");
      if (value && n + 2 < max) {
        argv[n++] = tok;
        argv[n++] = value;
      }
    } else if (front_end_only(tok) == FRONT_END_FLAG || strncmp(tok, "-cl-", 4) == 0) {
      argv[n++] = tok;
    }
  }
  return n;
}

/* What clBuildProgram's options still mean once the front end has run: all
 * but the front end's own (front_end_only). The driver builds the compiled
 * module with them, and PoCL keys its cache on them: a -D the module no
 * longer needs would make the same module a new build. */
static void back_end_options(const char *options, char *out, size_t len) {
  char storage[4096];
  size_t used = 0;
  out[0] = '\0';
  snprintf(storage, sizeof storage, "%s", options ? options : "");
  for (char *tok = strtok(storage, " \t"); tok; tok = strtok(NULL, " \t")) {
    front_end_kind kind = front_end_only(tok);
    if (kind == FRONT_END_WITH_VALUE)
      strtok(NULL, " \t"); /* its value */
    if (kind != NOT_FRONT_END)
      continue;
    int n = snprintf(out + used, len - used, "%s%s", used ? " " : "", tok);
    if (n < 0 || (size_t)n >= len - used)
      break;
    used += (size_t)n;
  }
}

/* Header programs given to clCompileProgram, written where -I finds them. */
typedef struct headers {
  cl_uint count;
  const cl_program *programs;
  const char **names;
} headers;

static bool write_text(const char *path, const char *text) { return gac_write_file(path, text, strlen(text)); }

static bool write_headers(const char *dir, const headers *h, char **log) {
  for (cl_uint i = 0; h && i < h->count; i++) {
    const char *name = h->names ? h->names[i] : NULL;
    if (!name || strstr(name, "..") || name[0] == '/' || strchr(name, '/')) {
      if (asprintf(log, "gac layer: header name '%s' is not supported (plain file names only)\n",
                   name ? name : "(null)") < 0)
        *log = NULL;
      return false;
    }
    size_t n = 0;
    gac_source_program *w = gac_source_find(h->programs[i]);
    char *text = NULL;
    if (w) {
      text = strdup(w->source);
    } else if (gac_next->clGetProgramInfo(h->programs[i], CL_PROGRAM_SOURCE, 0, NULL, &n) == CL_SUCCESS &&
               (text = calloc(1, n + 1))) {
      gac_next->clGetProgramInfo(h->programs[i], CL_PROGRAM_SOURCE, n, text, NULL);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    bool ok = text && write_text(path, text);
    free(text);
    if (!ok)
      return false;
  }
  return true;
}

/* Source -> SPIR-V with clang-15 and llvm-spirv-15 (gac_opencl_c_to_spirv);
 * *log gets their output. With `preprocessed`, only clang's preprocessor
 * runs, with the same options and header, and *preprocessed gets its text. */
static bool compile(gac_source_program *w, cl_device_id device, const char *options, const headers *h, void **spv,
                    size_t *spv_size, char **log, char **preprocessed) {
  char dir[32];
  if (!gac_scratch_dir(dir)) {
    *log = strdup("gac layer: cannot create a scratch folder in /tmp");
    return false;
  }
  char src[64], header[80], out[64], log_path[64], include[40];
  snprintf(src, sizeof src, "%s/program.cl", dir);
  snprintf(header, sizeof header, "%s/extended_async_copies.h", dir);
  snprintf(out, sizeof out, "%s/program.spv", dir);
  snprintf(log_path, sizeof log_path, "%s/log", dir);
  snprintf(include, sizeof include, "-I%s", dir);
  *log = NULL;
  if (!write_headers(dir, h, log)) {
    gac_scratch_remove(dir);
    if (!*log)
      *log = strdup("gac layer: cannot write the header programs");
    return false;
  }
  cl_uint bits = 64;
  gac_next->clGetDeviceInfo(device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
  bool opt_disable = false;
  const char *std = "-cl-std=CL1.2";
  char storage[4096];
  char *user[64];
  unsigned n_user = front_end_options(options, user, 64, storage, &opt_disable, &std);
  char *argv[96];
  unsigned n = 0;
  argv[n++] = "-triple";
  argv[n++] = bits == 32 ? "spir-unknown-unknown" : "spir64-unknown-unknown";
  argv[n++] = (char *)std;
  argv[n++] = "-finclude-default-header";
  argv[n++] = "-include";
  argv[n++] = header;
  argv[n++] = opt_disable ? "-O0" : "-O2";
  for (unsigned i = 0; i < n_user; i++)
    argv[n++] = user[i];
  argv[n++] = include;
  argv[n++] = src;
  argv[n] = NULL;
  bool ok = write_text(src, w->source) && write_text(header, gac_header_text);
  if (preprocessed) {
    char *cc1[100] = {getenv("GAC_CLANG") ? getenv("GAC_CLANG") : "clang-15", "-cc1", "-E"};
    unsigned m = 3;
    for (unsigned i = 0; i < n; i++)
      cc1[m++] = argv[i];
    cc1[m++] = "-o";
    cc1[m++] = out;
    cc1[m] = NULL;
    size_t text_size;
    ok = ok && gac_run(cc1, log_path) && (*preprocessed = gac_read_file(out, &text_size)) != NULL;
  } else {
    ok = ok && gac_opencl_c_to_spirv(argv, dir, out, log_path);
  }
  size_t log_size = 0;
  *log = gac_read_file(log_path, &log_size);
  if (!*log)
    *log = strdup("");
  ok = ok && (preprocessed || (*spv = gac_read_file(out, spv_size)) != NULL);
  gac_scratch_remove(dir);
  return ok;
}

static cl_device_id first_device(gac_source_program *w, cl_uint num_devices, const cl_device_id *devices);

/* ---- who compiles it ---- */

/* As the program calls them after gac's header (it renames the builtins to
 * these, so that a program's own function of the plain name stays apart). */
static const char *const builtin_names[] = {"gac_async_work_group_copy_2D2D", "gac_async_work_group_copy_3D3D",
                                            "gac_async_work_group_copy_fence", "gac_async_commit",
                                            "gac_async_wait", "gac_pipeline_loop", "gac_pipeline_stage"};
enum { NUM_BUILTINS = sizeof builtin_names / sizeof builtin_names[0] };

static bool is_ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether clang's preprocessed text of program.cl (line markers `# N
 * "path"` say which file each line is from; gac's header, which declares
 * the builtins, does not count) names a builtin that the program does not
 * define itself. A program written for a driver without the extension can
 * carry its own: `#define async_work_group_copy_2D2D my_copy_2D2D` leaves
 * no name behind, and a function of that name defined in the program
 * (`name(...) {`, renamed by the header's macro) is the user's. Such
 * programs go to the driver's compiler, as they would without the layer. */
static bool calls_builtins(const char *text) {
  bool named[NUM_BUILTINS] = {false}, defined[NUM_BUILTINS] = {false}, in_program = true;
  for (const char *c = text; *c;) {
    if (*c == '#' && (c == text || c[-1] == '\n')) { /* a line marker */
      const char *end = strchr(c, '\n'), *quote = strchr(c, '"');
      if (quote && (!end || quote < end)) {
        const char *close = strchr(quote + 1, '"');
        in_program = close && close - quote > 11 && strncmp(close - 11, "/program.cl", 11) == 0;
      }
      c = end ? end + 1 : c + strlen(c);
    } else if (*c == '"' || *c == '\'') { /* a literal */
      char q = *c++;
      while (*c && *c != q && *c != '\n')
        c += c[0] == '\\' && c[1] ? 2 : 1;
      c += *c == q;
    } else if (is_ident_char(*c) && !(*c >= '0' && *c <= '9')) {
      const char *start = c;
      while (is_ident_char(*c))
        c++;
      for (unsigned i = 0; i < NUM_BUILTINS && in_program; i++) {
        if ((size_t)(c - start) != strlen(builtin_names[i]) || strncmp(start, builtin_names[i], c - start) != 0)
          continue;
        named[i] = true;
        /* A definition: the name, a parameter list, then a body. */
        const char *d = c;
        while (*d == ' ' || *d == '\t' || *d == '\n')
          d++;
        if (*d != '(')
          continue;
        for (unsigned depth = 0; *d; d++) {
          depth += *d == '(';
          if (*d == ')' && --depth == 0)
            break;
        }
        if (*d)
          d++;
        while (*d == ' ' || *d == '\t' || *d == '\n')
          d++;
        defined[i] |= *d == '{';
      }
    } else {
      c++;
    }
  }
  for (unsigned i = 0; i < NUM_BUILTINS; i++)
    if (named[i] && !defined[i])
      return true;
  return false;
}

/* The driver's own compiler builds the source, as without the layer, but
 * with the extensions' macros that gac's header defines: the program was
 * found to call no builtin with them defined, and `#ifdef
 * cl_khr_extended_async_copies` must see the extension the device reports
 * (the CTS's compiler_defines_for_extensions checks it). */
static cl_program build_with_driver(gac_source_program *w, cl_uint num_devices, const cl_device_id *devices,
                                    cl_device_id device, const char *options) {
  const char *source = w->source;
  char *with_macros = NULL;
  cl_int err = CL_OUT_OF_HOST_MEMORY;
  cl_program inner = NULL;
  if (asprintf(&with_macros, "%s -Dcl_khr_extended_async_copies=1 -Dcl_khr_async_work_group_copy_fence=1",
               options ? options : "") < 0)
    with_macros = NULL;
  if (with_macros)
    inner = gac_program_created(gac_next->clCreateProgramWithSource(w->context, 1, &source, NULL, &err));
  if (err == CL_SUCCESS)
    err = gac_next->clBuildProgram(inner, num_devices, devices, with_macros, NULL, NULL);
  free(with_macros);
  if (err == CL_SUCCESS)
    return inner;
  size_t n = 0;
  if (inner)
    gac_next->clGetProgramBuildInfo(inner, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  w->log = calloc(1, n + 1);
  if (w->log && n)
    gac_next->clGetProgramBuildInfo(inner, device, CL_PROGRAM_BUILD_LOG, n, w->log, NULL);
  if (inner)
    gac_next->clReleaseProgram(inner);
  return NULL;
}

/* The front end's answer for a build: whose program it is and, for gac's,
 * the SPIR-V and clang's log. Cached by the source, the build's options, the
 * device's address bits and the clang that ran (an entry is "d" for the
 * driver's, or "g", the log's length in 4 bytes, the log and the SPIR-V), so
 * that a warm build runs no clang at all. False if compiling failed (*log
 * says why). */
typedef struct front_end_result {
  bool ours;
  void *spv;
  size_t spv_size;
  char *log;
} front_end_result;

static bool front_end(gac_source_program *w, cl_device_id device, const char *options, front_end_result *r) {
  memset(r, 0, sizeof *r);
  cl_uint bits = 64;
  gac_next->clGetDeviceInfo(device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
  const char *clang = getenv("GAC_CLANG") ? getenv("GAC_CLANG") : "clang-15";
  char *input = NULL, key[1024];
  int input_len = asprintf(&input, "%s%c%s%c%u%c%s", w->source, 0, options ? options : "", 0, bits, 0, clang);
  bool cached = input_len > 0 && gac_layer_cache_key("opencl-c", input, (size_t)input_len, key, sizeof key);
  unsigned char *entry = NULL;
  size_t entry_size = 0;
  uint32_t log_len = 0;
  if (cached && gac_layer_cache_lookup(key, ".cl", ".front", input, (size_t)input_len, &entry, &entry_size)) {
    if (entry_size == 1 && entry[0] == 'd') {
      free(entry);
      free(input);
      r->log = strdup("");
      return true;
    }
    if (entry_size >= 5 && entry[0] == 'g' && (memcpy(&log_len, entry + 1, 4), (size_t)log_len + 5 <= entry_size) &&
        (r->spv = malloc(entry_size - 5 - log_len + 1)) && (r->log = calloc(1, log_len + 1))) {
      memcpy(r->log, entry + 5, log_len);
      r->spv_size = entry_size - 5 - log_len;
      memcpy(r->spv, entry + 5 + log_len, r->spv_size);
      r->ours = true;
      free(entry);
      free(input);
      return true;
    }
    free(r->spv);
    free(r->log);
    memset(r, 0, sizeof *r);
    free(entry);
  }
  /* The text named a builtin; with the build's options, does the program
   * call it? If preprocessing fails, compiling below says why. */
  char *preprocessed = NULL, *pre_log = NULL;
  r->ours = !compile(w, device, options, NULL, NULL, NULL, &pre_log, &preprocessed) || calls_builtins(preprocessed);
  free(preprocessed);
  free(pre_log);
  bool ok = true;
  if (!r->ours)
    r->log = strdup("");
  else
    ok = compile(w, device, options, NULL, &r->spv, &r->spv_size, &r->log, NULL);
  if (ok && cached) {
    log_len = (uint32_t)strlen(r->log ? r->log : "");
    size_t size = r->ours ? 5 + log_len + r->spv_size : 1;
    unsigned char *out = malloc(size);
    if (out) {
      out[0] = r->ours ? 'g' : 'd';
      if (r->ours) {
        memcpy(out + 1, &log_len, 4);
        memcpy(out + 5, r->log, log_len);
        memcpy(out + 5 + log_len, r->spv, r->spv_size);
      }
      gac_layer_cache_store(key, ".cl", ".front", input, (size_t)input_len, out, size);
      free(out);
    }
  }
  free(input);
  return ok;
}

/* A build's end: its inner program replaces the wrapper's (or, failed, is
 * released), then the callback. */
static cl_int finish_build(gac_source_program *w, cl_program inner, void(CL_CALLBACK *notify)(cl_program, void *),
                           void *user_data) {
  if (w->failed) {
    if (inner)
      gac_ReleaseProgram(inner);
  } else {
    if (w->inner)
      gac_ReleaseProgram(w->inner);
    w->inner = inner;
  }
  if (notify)
    notify((cl_program)w, user_data);
  return w->failed ? CL_BUILD_PROGRAM_FAILURE : CL_SUCCESS;
}

cl_int gac_source_build(gac_source_program *w, cl_uint num_devices, const cl_device_id *devices, const char *options,
                        void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) {
  cl_device_id device = first_device(w, num_devices, devices);
  free(w->log);
  w->log = NULL;
  front_end_result front;
  w->failed = !front_end(w, device, options, &front);
  w->driver_built = !w->failed && !front.ours;
  if (w->driver_built) {
    free(front.log);
    gac_layer_log("OpenCL C program %p: calls none of gac's builtins once preprocessed: the driver's compiler "
                  "builds it", (void *)w);
    cl_program inner = build_with_driver(w, num_devices, devices, device, options);
    w->failed = inner == NULL;
    return finish_build(w, inner, notify, user_data);
  }
  char line[300];
  if (w->failed)
    gac_layer_log("OpenCL C program %p: the front end failed: %s", (void *)w,
                  gac_layer_first_line(front.log, line, sizeof line));
  else
    gac_layer_log("OpenCL C program %p: calls gac's builtins: compiled by clang-15 with gac's header, then built as "
                  "its SPIR-V", (void *)w);
  void *spv = front.spv;
  size_t spv_size = front.spv_size;
  char *front_log = front.log, *bridge_log = NULL;
  cl_int err = CL_SUCCESS;
  cl_program inner = NULL;
  if (!w->failed) {
    inner = gac_CreateProgramWithIL(w->context, spv, spv_size, &err);
    w->failed = err != CL_SUCCESS;
  }
  free(spv);
  if (!w->failed) {
    char rest[4096];
    back_end_options(options, rest, sizeof rest);
    err = gac_BuildProgram(inner, num_devices, devices, rest, NULL, NULL);
  }
  if (!w->failed && err != CL_SUCCESS) {
    /* The module was invalid, or PoCL refused it: keep its log. */
    size_t n = 0;
    gac_GetProgramBuildInfo(inner, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    bridge_log = calloc(1, n + 1);
    if (bridge_log)
      gac_GetProgramBuildInfo(inner, device, CL_PROGRAM_BUILD_LOG, n, bridge_log, NULL);
    w->failed = true;
  }
  if (asprintf(&w->log, "%s%s", front_log ? front_log : "", bridge_log ? bridge_log : "") < 0)
    w->log = NULL;
  free(front_log);
  free(bridge_log);
  return finish_build(w, inner, notify, user_data);
}

static const char driver_built_note[] =
    "gac layer: the program calls none of gac's builtins once preprocessed (each it names is its own or unused): "
    "the driver's compiler built it as written.\n";

cl_int gac_source_build_info(gac_source_program *w, cl_device_id device, cl_program_build_info param, size_t size,
                             void *value, size_t *size_ret) {
  if (param == CL_PROGRAM_BUILD_LOG && (w->failed || !w->inner)) {
    const char *log = w->log ? w->log : "";
    return gac_answer(log, strlen(log) + 1, size, value, size_ret);
  }
  if (param == CL_PROGRAM_BUILD_LOG && w->driver_built) /* the layer's line, then the driver's log */
    return gac_prefixed_build_log(w->inner, device, driver_built_note, size, value, size_ret);
  if (param == CL_PROGRAM_BUILD_STATUS && (w->failed || !w->inner)) {
    cl_build_status status = w->failed ? CL_BUILD_ERROR : CL_BUILD_NONE;
    return gac_answer(&status, sizeof status, size, value, size_ret);
  }
  if (!w->inner)
    return gac_answer("", 1, size, value, size_ret);
  return gac_GetProgramBuildInfo(w->inner, device, param, size, value, size_ret);
}

cl_int gac_source_info(gac_source_program *w, cl_program_info param, size_t size, void *value, size_t *size_ret) {
  switch (param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return gac_answer(&w->refs, sizeof w->refs, size, value, size_ret);
  case CL_PROGRAM_CONTEXT:
    return gac_answer(&w->context, sizeof w->context, size, value, size_ret);
  case CL_PROGRAM_SOURCE:
    return gac_answer(w->source, strlen(w->source) + 1, size, value, size_ret);
  case CL_PROGRAM_IL:
    return gac_answer(NULL, 0, size, value, size_ret);
  case CL_PROGRAM_NUM_DEVICES:
  case CL_PROGRAM_DEVICES:
    if (!w->inner)
      return gac_next->clGetContextInfo(w->context, param == CL_PROGRAM_DEVICES ? CL_CONTEXT_DEVICES
                                                                                : CL_CONTEXT_NUM_DEVICES,
                                        size, value, size_ret);
    break;
  default:
    if (!w->inner)
      return CL_INVALID_PROGRAM_EXECUTABLE;
  }
  return gac_next->clGetProgramInfo(w->inner, param, size, value, size_ret);
}

static cl_device_id first_device(gac_source_program *w, cl_uint num_devices, const cl_device_id *devices) {
  cl_device_id device = NULL;
  if (num_devices && devices)
    device = devices[0];
  else
    gac_next->clGetContextInfo(w->context, CL_CONTEXT_DEVICES, sizeof device, &device, NULL);
  return device;
}

cl_int gac_source_compile(gac_source_program *w, cl_uint num_devices, const cl_device_id *devices,
                          const char *options, cl_uint num_headers, const cl_program *header_programs,
                          const char **header_names, void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) {
  headers h = {num_headers, header_programs, header_names};
  free(w->log);
  free(w->compiled);
  w->compiled = NULL;
  w->failed = !compile(w, first_device(w, num_devices, devices), options, &h, &w->compiled, &w->compiled_size,
                       &w->log, NULL);
  if (notify)
    notify((cl_program)w, user_data);
  return w->failed ? CL_COMPILE_PROGRAM_FAILURE : CL_SUCCESS;
}

bool gac_source_compiled(gac_source_program *w, const void **il, size_t *size) {
  *il = w->compiled;
  *size = w->compiled_size;
  return w->compiled != NULL;
}
