/* gac-bench-module: times gac against SPIRV-Tools' command-line tools on one
 * module, in one run, and prints a table (see docs/BENCHMARKS.md).
 *
 * The in-process gac variants work on bytes already in memory: file I/O is
 * excluded, destroying the module is included. The subprocess variants
 * (spirv-opt, spirv-val, and gac-opt when given) are timed from spawn to exit,
 * so they include process start-up and reading the file from the page cache;
 * start-up alone is measured on a tiny module. Every round runs every variant
 * once, after one uncounted warm-up round, so that load from other users of a
 * shared machine falls on all variants alike; CPU time is shown beside wall
 * time for the same reason. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gac/validate.h"

extern char **environ;

enum { MAX_REPEAT = 101 };

typedef struct input {
  const char *path;
  void *bytes;
  size_t size;
  size_t num_instructions;
} input;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *samples, int n) {
  qsort(samples, (size_t)n, sizeof *samples, compare_doubles);
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

static bool load(input *in) {
  FILE *f = fopen(in->path, "rb");
  if (!f)
    return false;
  bool ok = fseek(f, 0, SEEK_END) == 0;
  long size = ok ? ftell(f) : -1;
  ok = size > 0 && fseek(f, 0, SEEK_SET) == 0;
  in->bytes = ok ? malloc((size_t)size) : NULL;
  ok = in->bytes && fread(in->bytes, 1, (size_t)size, f) == (size_t)size;
  fclose(f);
  in->size = ok ? (size_t)size : 0;
  return ok;
}

/* Instructions in a little-endian binary, by walking the word counts. */
static size_t count_instructions(const void *bytes, size_t size) {
  const uint32_t *w = bytes;
  size_t n = size / 4, count = 0;
  for (size_t at = 5; at < n && (w[at] >> 16) != 0; at += w[at] >> 16)
    count++;
  return count;
}

/* ---- gac, in process ---- */

/* Read, validate (the set's rules, and SPIRV-Tools' core rules if core), write, destroy. */
static bool gac_once(const input *in, bool core) {
  gac_diag diag;
  gac_diag_init(&diag);
  gac_module *m = gac_module_read_bytes(in->bytes, in->size, &diag);
  bool ok = m != NULL;
  if (ok) {
    gac_validate_options opts = {.core = core, .target_env = -1};
    ok = gac_validate(m, &opts, &diag);
  }
  uint32_t *words = NULL;
  size_t num_words = 0;
  if (ok)
    ok = gac_module_write(m, &words, &num_words) && num_words * 4 == in->size;
  if (!ok)
    gac_diag_print(&diag, stderr, in->path);
  free(words);
  gac_module_destroy(m);
  gac_diag_free(&diag);
  return ok;
}

/* The phases of gac_once(core=true), timed one by one in a single pass. */
typedef struct phases {
  double read, rules, core, write, destroy;
} phases;

static bool gac_phases_once(const input *in, phases *p) {
  gac_diag diag;
  gac_diag_init(&diag);
  double t0 = now_seconds();
  gac_module *m = gac_module_read_bytes(in->bytes, in->size, &diag);
  double t1 = now_seconds();
  bool ok = m && gac_validate_async_copies(m, &diag);
  double t2 = now_seconds();
  ok = ok && gac_validate_core(m, -1, &diag);
  double t3 = now_seconds();
  uint32_t *words = NULL;
  size_t num_words = 0;
  ok = ok && gac_module_write(m, &words, &num_words);
  double t4 = now_seconds();
  free(words);
  gac_module_destroy(m);
  double t5 = now_seconds();
  *p = (phases){t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4};
  if (!ok)
    gac_diag_print(&diag, stderr, in->path);
  gac_diag_free(&diag);
  return ok;
}

/* ---- tools, as subprocesses ---- */

/* Runs argv with stdout and stderr discarded; true if it exited with 0. */
static bool run_quietly(char *const argv[]) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err) {
    fprintf(stderr, "gac-bench-module: cannot run %s: %s\n", argv[0], strerror(err));
    return false;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- variants ---- */

typedef enum variant_kind { IN_PROCESS_RULES, IN_PROCESS_FULL, SUBPROCESS } variant_kind;

typedef struct variant {
  const char *label;
  variant_kind kind;
  char *argv[8];               /* SUBPROCESS only */
  double wall[MAX_REPEAT], cpu[MAX_REPEAT];
  double wall_median, cpu_median;
} variant;

/* User + system time of this process and of its waited-for children. */
static double cpu_seconds(void) {
  struct rusage self, children;
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  const struct timeval t[4] = {self.ru_utime, self.ru_stime, children.ru_utime, children.ru_stime};
  double sum = 0;
  for (int i = 0; i < 4; i++)
    sum += (double)t[i].tv_sec + (double)t[i].tv_usec * 1e-6;
  return sum;
}

static bool run_once(const input *in, variant *v, double *wall, double *cpu) {
  double cpu_start = cpu_seconds(), start = now_seconds();
  bool ok = v->kind == SUBPROCESS ? run_quietly(v->argv) : gac_once(in, v->kind == IN_PROCESS_FULL);
  *wall = now_seconds() - start;
  *cpu = cpu_seconds() - cpu_start;
  if (!ok)
    fprintf(stderr, "gac-bench-module: '%s' failed\n", v->label);
  return ok;
}

/* A tiny valid module (Addresses, Linkage, Kernel; Physical32 OpenCL) for start-up cost. */
static bool write_tiny_module(const char *path) {
  static const uint32_t words[] = {
      0x07230203, 0x00010000, 0, 1, 0,
      2u << 16 | 17, 4,  /* OpCapability Addresses */
      2u << 16 | 17, 5,  /* OpCapability Linkage */
      2u << 16 | 17, 6,  /* OpCapability Kernel */
      3u << 16 | 14, 1, 2, /* OpMemoryModel Physical32 OpenCL */
  };
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(words, sizeof words, 1, f) == 1;
  return f && fclose(f) == 0 && ok;
}

static int usage(FILE *out, int status) {
  fputs("Usage: gac-bench-module FILE [--repeat K] [--spirv-opt PATH] [--spirv-val PATH]\n"
        "                        [--gac-opt PATH]\n"
        "Times on FILE, as the median of K rounds (default 5, after one warm-up round):\n"
        "  gac in process: read + set rules + write; and with SPIRV-Tools core validation;\n"
        "  spirv-opt (validating, and --skip-validation) and spirv-val as subprocesses;\n"
        "  with --gac-opt, also gac-opt --validate [--no-core] as subprocesses.\n"
        "Every round runs every variant once, so load on a shared machine hits all alike.\n",
        out);
  return status;
}

static void print_row(const input *in, const variant *v, double gac, double gac_full) {
  printf("| %-44s | %8.3f | %8.3f | %8.2f | %7.2fx | %7.2fx |\n", v->label, v->wall_median,
         v->cpu_median, (double)in->num_instructions / v->wall_median * 1e-6, v->wall_median / gac,
         v->wall_median / gac_full);
}

int main(int argc, char **argv) {
  input in = {0};
  int repeat = 5;
  char *spirv_opt = "spirv-opt", *spirv_val = "spirv-val", *gac_opt = NULL;
  for (int i = 1; i < argc; i++) {
    bool has_value = i + 1 < argc;
    if (strcmp(argv[i], "--help") == 0)
      return usage(stdout, 0);
    else if (strcmp(argv[i], "--repeat") == 0 && has_value)
      repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--spirv-opt") == 0 && has_value)
      spirv_opt = argv[++i];
    else if (strcmp(argv[i], "--spirv-val") == 0 && has_value)
      spirv_val = argv[++i];
    else if (strcmp(argv[i], "--gac-opt") == 0 && has_value)
      gac_opt = argv[++i];
    else if (argv[i][0] != '-' && !in.path)
      in.path = argv[i];
    else
      return usage(stderr, 2);
  }
  if (!in.path || repeat < 1 || repeat > MAX_REPEAT)
    return usage(stderr, 2);
  if (!load(&in)) {
    fprintf(stderr, "gac-bench-module: cannot read %s\n", in.path);
    return 1;
  }
  in.num_instructions = count_instructions(in.bytes, in.size);

  char out_path[] = "/tmp/gac-bench-out-XXXXXX", tiny_path[] = "/tmp/gac-bench-tiny-XXXXXX";
  int out_fd = mkstemp(out_path), tiny_fd = mkstemp(tiny_path);
  if (out_fd < 0 || tiny_fd < 0 || !write_tiny_module(tiny_path)) {
    fprintf(stderr, "gac-bench-module: cannot create temporary files in /tmp\n");
    return 1;
  }
  close(out_fd);
  close(tiny_fd);
  char *file = (char *)in.path;

  /* The first two are the references for the ratios; the last three are start-up only. */
  variant variants[] = {
      {.label = "gac: read + set rules + write", .kind = IN_PROCESS_RULES},
      {.label = "gac full: + SPIRV-Tools core validation", .kind = IN_PROCESS_FULL},
      {.label = "spirv-opt (validates; no passes)", .kind = SUBPROCESS,
       .argv = {spirv_opt, file, "-o", out_path, NULL}},
      {.label = "spirv-opt --skip-validation", .kind = SUBPROCESS,
       .argv = {spirv_opt, "--skip-validation", file, "-o", out_path, NULL}},
      {.label = "spirv-val", .kind = SUBPROCESS, .argv = {spirv_val, file, NULL}},
      {.label = "gac-opt --validate --no-core (subprocess)", .kind = SUBPROCESS,
       .argv = {gac_opt, "--validate", "--no-core", file, "-o", out_path, NULL}},
      {.label = "gac-opt --validate (subprocess)", .kind = SUBPROCESS,
       .argv = {gac_opt, "--validate", file, "-o", out_path, NULL}},
      {.label = "start-up: spirv-val, tiny module", .kind = SUBPROCESS,
       .argv = {spirv_val, tiny_path, NULL}},
      {.label = "start-up: spirv-opt, tiny module", .kind = SUBPROCESS,
       .argv = {spirv_opt, tiny_path, "-o", out_path, NULL}},
      {.label = "start-up: gac-opt --validate, tiny module", .kind = SUBPROCESS,
       .argv = {gac_opt, "--validate", tiny_path, "-o", out_path, NULL}},
  };
  enum { SPIRV_OPT = 2, SPIRV_OPT_SKIP, SPIRV_VAL, GAC_OPT_RULES, GAC_OPT_FULL, FIRST_STARTUP };
  const int num_variants = (int)(sizeof variants / sizeof variants[0]);
  /* Without --gac-opt, the rows that run it are skipped. */
  bool skip[sizeof variants / sizeof variants[0]];
  for (int v = 0; v < num_variants; v++)
    skip[v] = variants[v].kind == SUBPROCESS && variants[v].argv[0] == NULL;

  /* Round 0 warms the page cache and the allocator and is not counted. */
  bool ok = true;
  phases phase_samples[MAX_REPEAT];
  for (int round = 0; round <= repeat && ok; round++) {
    for (int v = 0; v < num_variants && ok; v++) {
      double wall, cpu;
      if (skip[v])
        continue;
      ok = run_once(&in, &variants[v], &wall, &cpu);
      if (round > 0) {
        variants[v].wall[round - 1] = wall;
        variants[v].cpu[round - 1] = cpu;
      }
    }
    ok = ok && gac_phases_once(&in, &phase_samples[round > 0 ? round - 1 : 0]);
  }
  unlink(out_path);
  unlink(tiny_path);
  if (!ok)
    return 1;
  for (int v = 0; v < num_variants; v++) {
    variants[v].wall_median = median(variants[v].wall, repeat);
    variants[v].cpu_median = median(variants[v].cpu, repeat);
  }

  printf("%s: %zu instructions, %zu bytes; median of %d rounds\n\n", in.path, in.num_instructions,
         in.size, repeat);
  printf("| %-44s | %8s | %8s | %8s | %8s | %8s |\n", "variant", "wall s", "CPU s", "Minstr/s",
         "/ gac", "/ full");
  printf("|%.46s|%.10s:|%.10s:|%.10s:|%.10s:|%.10s:|\n", "----------------------------------------------",
         "----------", "----------", "----------", "----------", "----------");
  double gac = variants[0].wall_median, gac_full = variants[1].wall_median;
  for (int v = 0; v < FIRST_STARTUP; v++)
    if (!skip[v])
      print_row(&in, &variants[v], gac, gac_full);

  printf("\nWall-time ratios, baseline / gac:\n");
  for (int v = SPIRV_OPT; v <= SPIRV_VAL; v++)
    printf("  %-34s / gac = %6.2fx   / gac full = %5.2fx\n", variants[v].label, variants[v].wall_median / gac,
           variants[v].wall_median / gac_full);
  if (gac_opt) {
    printf("As tools, subprocess against subprocess:\n");
    const struct { int baseline, gac; } pairs[] = {
        {SPIRV_OPT, GAC_OPT_FULL}, {SPIRV_VAL, GAC_OPT_FULL}, {SPIRV_OPT_SKIP, GAC_OPT_RULES}};
    for (int i = 0; i < 3; i++)
      printf("  %-34s / %s = %5.2fx\n", variants[pairs[i].baseline].label, variants[pairs[i].gac].label,
             variants[pairs[i].baseline].wall_median / variants[pairs[i].gac].wall_median);
  }

  printf("\nProcess start-up alone (included in every subprocess row):\n");
  for (int v = FIRST_STARTUP; v < num_variants; v++)
    if (!skip[v])
      printf("  %-44s %8.4f s wall\n", variants[v].label, variants[v].wall_median);

  /* Each phase's own median, so the parts need not add up exactly to the full row. */
  double samples[5][MAX_REPEAT];
  for (int r = 0; r < repeat; r++) {
    const phases *p = &phase_samples[r];
    double values[5] = {p->read, p->rules, p->core, p->write, p->destroy};
    for (int k = 0; k < 5; k++)
      samples[k][r] = values[k];
  }
  printf("\ngac full in process, by phase (median wall s):\n");
  printf("  read %.3f, set rules %.3f, core validation %.3f, write %.3f, destroy %.3f\n",
         median(samples[0], repeat), median(samples[1], repeat), median(samples[2], repeat),
         median(samples[3], repeat), median(samples[4], repeat));
  free(in.bytes);
  return 0;
}
