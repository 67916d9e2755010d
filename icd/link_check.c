/* Before PoCL sees bridged bitcode: every function it calls must be one that
 * PoCL's kernel library defines, down to the end of the library's own call
 * chains. Otherwise PoCL 3.1 builds the program, fails to dlopen the kernel
 * (an undefined symbol) and aborts the host process. Example: its generic
 * wait_group_events is defined but calls _cl_wait_group_events for generic
 * pointers, which the library only declares.
 *
 * The library is read with llvm-dis (a subprocess, as llvm-spirv is; linking
 * an LLVM into the host process beside PoCL's own is not safe) once per
 * library file: the index of the functions it defines and, for each, an
 * undefined function it reaches (its "witness") is kept in memory and in the
 * layer's cache folder. GAC_LAYER_POCL_KERNEL_LIBRARY names the library
 * (default: PoCL's variant for this CPU under /usr/share/pocl) or turns the
 * check off ("off"). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "layer.h"
#include "subprocess.h"

/* ---- a table of names: open addressing, each name with an index ---- */

typedef struct name_table {
  char **names;
  uint32_t *slots; /* index + 1, 0 when empty */
  size_t count, capacity, num_slots;
} name_table;

static uint64_t hash_name(const char *s) { return gac_layer_hash(s, strlen(s), 0xcbf29ce484222325ull); }

static size_t find_slot(const name_table *t, const char *name) {
  size_t mask = t->num_slots - 1, i = hash_name(name) & mask;
  while (t->slots[i] && strcmp(t->names[t->slots[i] - 1], name) != 0)
    i = (i + 1) & mask;
  return i;
}

/* The index of name, or -1. */
static long table_find(const name_table *t, const char *name) {
  if (!t->num_slots)
    return -1;
  size_t i = find_slot(t, name);
  return t->slots[i] ? (long)t->slots[i] - 1 : -1;
}

static bool table_grow(name_table *t) {
  size_t num_slots = t->num_slots ? t->num_slots * 2 : 1024;
  uint32_t *slots = calloc(num_slots, sizeof *slots);
  if (!slots)
    return false;
  name_table grown = {t->names, slots, t->count, t->capacity, num_slots};
  for (size_t k = 0; k < t->count; k++)
    slots[find_slot(&grown, t->names[k])] = (uint32_t)k + 1;
  free(t->slots);
  *t = grown;
  return true;
}

/* The index of name, added if new; -1 when out of memory. */
static long table_intern(name_table *t, const char *name, size_t len) {
  char *copy = strndup(name, len);
  if (!copy)
    return -1;
  long found = table_find(t, copy);
  if (found >= 0) {
    free(copy);
    return found;
  }
  if ((t->count + 1) * 2 > t->num_slots && !table_grow(t)) {
    free(copy);
    return -1;
  }
  if (t->count == t->capacity) {
    size_t capacity = t->capacity ? t->capacity * 2 : 1024;
    char **names = realloc(t->names, capacity * sizeof *names);
    if (!names) {
      free(copy);
      return -1;
    }
    t->names = names;
    t->capacity = capacity;
  }
  t->names[t->count] = copy;
  t->slots[find_slot(t, copy)] = (uint32_t)t->count + 1;
  return (long)t->count++;
}

static void table_free(name_table *t) {
  for (size_t k = 0; k < t->count; k++)
    free(t->names[k]);
  free(t->names);
  free(t->slots);
  memset(t, 0, sizeof *t);
}

/* ---- reading LLVM assembly ---- */

/* The name after the '@' at *p ("@name" or "@\"name\""); *len its length. */
static const char *global_name(const char *p, size_t *len) {
  p++;
  if (*p == '"') {
    const char *end = strchr(p + 1, '"');
    *len = end ? (size_t)(end - p - 1) : 0;
    return p + 1;
  }
  size_t n = 0;
  while (p[n] && (p[n] == '_' || p[n] == '.' || p[n] == '$' || p[n] == '-' || (p[n] >= '0' && p[n] <= '9') ||
                  (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
    n++;
  *len = n;
  return p;
}

typedef struct function_info {
  long *callees; /* names a body refers to */
  size_t num_callees, cap_callees;
  bool defined, declared;
  long witness; /* an undefined function it reaches, -1 if none */
} function_info;

typedef struct ll_module {
  name_table names;
  function_info *info; /* [names.capacity] */
  size_t info_capacity;
} ll_module;

static function_info *info_of(ll_module *m, long k) {
  if ((size_t)k >= m->info_capacity) {
    size_t capacity = m->names.capacity > (size_t)k ? m->names.capacity : (size_t)k + 1;
    function_info *info = realloc(m->info, capacity * sizeof *info);
    if (!info)
      return NULL;
    memset(info + m->info_capacity, 0, (capacity - m->info_capacity) * sizeof *info);
    for (size_t i = m->info_capacity; i < capacity; i++)
      info[i].witness = -1;
    m->info = info;
    m->info_capacity = capacity;
  }
  return &m->info[k];
}

static void ll_free(ll_module *m) {
  for (size_t k = 0; k < m->info_capacity; k++)
    free(m->info[k].callees);
  free(m->info);
  table_free(&m->names);
}

/* Reads `define`s (with the globals their bodies name) and `declare`s. */
static bool ll_read(const char *path, ll_module *m) {
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  char *line = NULL;
  size_t line_cap = 0;
  long current = -1;
  bool ok = true;
  while (ok && getline(&line, &line_cap, f) > 0) {
    bool define = strncmp(line, "define ", 7) == 0, declare = strncmp(line, "declare ", 8) == 0;
    if (define || declare) {
      const char *at = strchr(line, '@');
      size_t len;
      const char *name = at ? global_name(at, &len) : NULL;
      long k = name && len ? table_intern(&m->names, name, len) : -1;
      function_info *fi = k >= 0 ? info_of(m, k) : NULL;
      if (!fi) {
        ok = at == NULL; /* a line without a name is not ours to judge */
        continue;
      }
      fi->defined |= define;
      fi->declared |= declare;
      current = define ? k : -1;
      continue;
    }
    if (line[0] == '}') {
      current = -1;
      continue;
    }
    for (const char *at = current >= 0 ? strchr(line, '@') : NULL; ok && at; at = strchr(at + 1, '@')) {
      size_t len;
      const char *name = global_name(at, &len);
      if (!len)
        continue;
      long k = table_intern(&m->names, name, len);
      if (k < 0 || !info_of(m, k)) {
        ok = false;
        break;
      }
      function_info *caller = info_of(m, current);
      if (caller->num_callees == caller->cap_callees) {
        size_t cap = caller->cap_callees ? caller->cap_callees * 2 : 8;
        long *callees = realloc(caller->callees, cap * sizeof *callees);
        if (!callees) {
          ok = false;
          break;
        }
        caller->callees = callees;
        caller->cap_callees = cap;
      }
      caller->callees[caller->num_callees++] = k;
    }
  }
  free(line);
  fclose(f);
  return ok;
}

/* llvm-dis of bitcode into out_ll; the first disassembler found. */
static bool disassemble(const char *bc_path, const char *out_ll, const char *log_path) {
  static const char *const tools[] = {"llvm-dis-19", "llvm-dis-15", "llvm-dis"};
  for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
    char *argv[] = {(char *)tools[i], (char *)bc_path, "-o", (char *)out_ll, NULL};
    if (gac_run(argv, log_path))
      return true;
  }
  return false;
}

/* ---- the library's index: name -> witness ("" when sound) ---- */

typedef struct library_index {
  name_table names;
  char **witness; /* [witness_capacity], grown with names */
  size_t witness_capacity;
  char path[512];
} library_index;

static bool is_mangled(const char *name) { return strncmp(name, "_Z", 2) == 0; }

/* PoCL's kernel library for this host CPU, as PoCL 3.1 picks its variant
 * (found once per process: the CPU does not change); "" if none. */
static char host_library[512];

static void find_host_library(void) {
  char *out = host_library;
  size_t len = sizeof host_library;
  struct utsname u;
  if (uname(&u) != 0 || strcmp(u.machine, "x86_64") != 0)
    return; /* other hosts: not checked (docs/LAYER.md) */
  char flags[8192] = "";
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0)
      if (strncmp(line, "flags", 5) == 0) {
        snprintf(flags, sizeof flags, " %s ", strchr(line, ':') ? strchr(line, ':') + 1 : line);
        break;
      }
    free(line);
    fclose(f);
  }
  for (char *c = flags; *c; c++)
    if (*c == '\n' || *c == '\t')
      *c = ' ';
#define HAS(flag) (strstr(flags, " " flag " ") != NULL)
  const char *variant = HAS("avx512f")               ? "avx512"
                        : HAS("avx2")                ? "avx2"
                        : HAS("avx") && HAS("fma4")  ? "avx_fma4"
                        : HAS("avx") && HAS("f16c")  ? "avx_f16c"
                        : HAS("avx")                 ? "avx"
                        : HAS("sse4_1")              ? "sse41"
                        : HAS("ssse3")               ? "ssse3"
                        : HAS("sse2")                ? "sse2"
                                                     : "GENERIC";
#undef HAS
  static const char *const dirs[] = {"/usr/share/pocl", "/usr/local/share/pocl"};
  for (size_t i = 0; i < 2; i++) {
    const char *names[] = {variant, "GENERIC"};
    for (size_t j = 0; j < 2; j++) {
      snprintf(out, len, "%s/kernel-x86_64-pc-linux-gnu-%s.bc", dirs[i], names[j]);
      if (access(out, R_OK) == 0)
        return;
    }
  }
  out[0] = '\0';
}

/* The library to check against: GAC_LAYER_POCL_KERNEL_LIBRARY, else the host's. */
static bool library_path(char *out, size_t len) {
  const char *env = getenv("GAC_LAYER_POCL_KERNEL_LIBRARY");
  if (env && *env) {
    snprintf(out, len, "%s", env);
    return strcmp(env, "off") != 0;
  }
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, find_host_library);
  snprintf(out, len, "%s", host_library);
  return host_library[0] != '\0';
}

static void index_free(library_index *x) {
  if (!x)
    return;
  /* A name whose witness could not be stored (out of memory) lies past witness_capacity. */
  for (size_t k = 0; k < x->names.count && k < x->witness_capacity; k++)
    free(x->witness[k]);
  free(x->witness);
  table_free(&x->names);
  free(x);
}

static bool index_add(library_index *x, const char *name, size_t len, const char *witness) {
  size_t before = x->names.count;
  long k = table_intern(&x->names, name, len);
  if (k < 0)
    return false;
  if ((size_t)k < before)
    return true;
  /* Grown as the names are, not per name: a realloc per name copied the
   * array each time (ASan's realloc always moves it), 25 s for PoCL's library. */
  if (x->witness_capacity < x->names.capacity) {
    char **w = realloc(x->witness, x->names.capacity * sizeof *w);
    if (!w)
      return false;
    x->witness = w;
    x->witness_capacity = x->names.capacity;
  }
  return (x->witness[k] = strdup(witness)) != NULL;
}

/* Builds the index from the disassembled library: a function is sound when
 * nothing it reaches is an undefined mangled name (a builtin that is missing);
 * the library's unmangled undefined names (its context variables, pocl.barrier)
 * PoCL provides when it links. */
static library_index *index_build(const char *ll_path) {
  ll_module m = {0};
  library_index *x = calloc(1, sizeof *x);
  bool ok = x && ll_read(ll_path, &m) && info_of(&m, (long)m.names.count);
  for (bool changed = ok; changed;) {
    changed = false;
    for (size_t k = 0; k < m.names.count; k++) {
      function_info *fi = &m.info[k];
      if (!fi->defined || fi->witness >= 0)
        continue;
      for (size_t c = 0; c < fi->num_callees && fi->witness < 0; c++) {
        const function_info *callee = &m.info[fi->callees[c]];
        if (callee->declared && !callee->defined && is_mangled(m.names.names[fi->callees[c]]))
          fi->witness = fi->callees[c];
        else if (callee->defined && callee->witness >= 0)
          fi->witness = callee->witness;
      }
      changed |= fi->witness >= 0;
    }
  }
  for (size_t k = 0; ok && k < m.names.count; k++) {
    const function_info *fi = &m.info[k];
    const char *name = m.names.names[k];
    if (fi->defined)
      ok = index_add(x, name, strlen(name), fi->witness >= 0 ? m.names.names[fi->witness] : "");
    else if (fi->declared && !is_mangled(name))
      ok = index_add(x, name, strlen(name), "");
  }
  ll_free(&m);
  if (!ok) {
    index_free(x);
    return NULL;
  }
  return x;
}

/* The index file: one "name witness" line per name, "-" for no witness. */
static bool index_store(const library_index *x, const char *path) {
  char tmp[1200];
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f)
    return false;
  for (size_t k = 0; k < x->names.count; k++)
    fprintf(f, "%s %s\n", x->names.names[k], x->witness[k][0] ? x->witness[k] : "-");
  bool ok = fclose(f) == 0 && rename(tmp, path) == 0;
  if (!ok)
    unlink(tmp);
  return ok;
}

static library_index *index_load(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  library_index *x = calloc(1, sizeof *x);
  char *line = NULL;
  size_t cap = 0;
  bool ok = x != NULL;
  ssize_t n;
  while (ok && (n = getline(&line, &cap, f)) > 0) {
    char *space = memchr(line, ' ', (size_t)n);
    if (!space || line[n - 1] != '\n') {
      ok = false;
      break;
    }
    line[n - 1] = '\0';
    const char *witness = strcmp(space + 1, "-") == 0 ? "" : space + 1;
    ok = index_add(x, line, (size_t)(space - line), witness);
  }
  free(line);
  fclose(f);
  if (!ok || !x->names.count) {
    index_free(x);
    return NULL;
  }
  return x;
}

/* The index of the library at path: from the cache folder, else built. */
static library_index *library_index_for(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0)
    return NULL;
  char dir[900], cached[1100] = "";
  if (gac_layer_cache_dir(dir, sizeof dir))
    snprintf(cached, sizeof cached, "%s/pocl-library-%016llx-%lld-%lld.index", dir,
             (unsigned long long)hash_name(path), (long long)st.st_size, (long long)st.st_mtime);
  library_index *x = cached[0] ? index_load(cached) : NULL;
  if (x)
    return x;
  char scratch[32], ll[64], log[64];
  if (!gac_scratch_dir(scratch))
    return NULL;
  snprintf(ll, sizeof ll, "%s/library.ll", scratch);
  snprintf(log, sizeof log, "%s/log", scratch);
  if (disassemble(path, ll, log))
    x = index_build(ll);
  gac_scratch_remove(scratch);
  if (x && cached[0])
    index_store(x, cached);
  return x;
}

/* One index per process, for the library it was made from. */
static pthread_mutex_t library_lock = PTHREAD_MUTEX_INITIALIZER;
static library_index *library;

static const library_index *current_library(void) {
  char path[512];
  if (!library_path(path, sizeof path))
    return NULL;
  pthread_mutex_lock(&library_lock);
  if (!library || strcmp(library->path, path) != 0) {
    index_free(library);
    library = library_index_for(path);
    if (library)
      snprintf(library->path, sizeof library->path, "%s", path);
  }
  const library_index *x = library;
  pthread_mutex_unlock(&library_lock);
  return x;
}

/* At clDeinitLayer; the next check builds or reads the index again. */
void gac_layer_release_link_check(void) {
  pthread_mutex_lock(&library_lock);
  index_free(library);
  library = NULL;
  pthread_mutex_unlock(&library_lock);
}

bool gac_check_pocl_links(const unsigned char *bc, size_t bc_size, char **log) {
  const library_index *x = current_library();
  if (!x)
    return true; /* no library or no llvm-dis: PoCL judges alone */
  char scratch[32], bc_path[64], ll[64], dis_log[64];
  if (!gac_scratch_dir(scratch))
    return true;
  snprintf(bc_path, sizeof bc_path, "%s/program.bc", scratch);
  snprintf(ll, sizeof ll, "%s/program.ll", scratch);
  snprintf(dis_log, sizeof dis_log, "%s/log", scratch);
  ll_module m = {0};
  bool read = gac_write_file(bc_path, bc, bc_size) && disassemble(bc_path, ll, dis_log) && ll_read(ll, &m);
  gac_scratch_remove(scratch);
  if (!read) {
    ll_free(&m);
    return true;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  unsigned missing = 0;
  for (size_t k = 0; out && k < m.names.count; k++) {
    const char *name = m.names.names[k];
    if (!m.info[k].declared || m.info[k].defined || strncmp(name, "llvm.", 5) == 0)
      continue;
    long found = table_find(&x->names, name);
    if (found >= 0 && !x->witness[found][0])
      continue;
    if (!missing++)
      fprintf(out, "gac layer: PoCL cannot link this program: it calls functions PoCL's kernel library (%s) "
                   "does not provide [Layer.PoCLLink]:\n", x->path);
    if (found < 0)
      fprintf(out, "  %s: not in the library\n", name);
    else
      fprintf(out, "  %s: the library defines it, but it calls %s, which the library only declares\n", name,
              x->witness[found]);
  }
  ll_free(&m);
  if (out)
    fclose(out);
  if (!missing) {
    free(text);
    return true;
  }
  *log = text;
  return false;
}
