/* gac-bench-module: times gac against SPIRV-Tools' command-line tools on one
 * module, in one run, and prints a table (see docs/BENCHMARKS.md).
 *
 * The gac variants run in process on bytes already in memory: file I/O is
 * excluded, module destruction is included. The SPIRV-Tools variants run as
 * subprocesses and are timed from spawn to exit, so they include process
 * start-up and reading the file (from the page cache); the start-up alone is
 * measured on a tiny module so the reader can subtract it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gac/validate.h"

extern char **environ;

enum { MAX_REPEAT = 1000 };

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

/* ---- SPIRV-Tools, as subprocesses ---- */

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
  char *argv[8]; /* SUBPROCESS only */
  double seconds; /* median */
} variant;

static bool run_variant(const input *in, variant *v, int repeat) {
  double samples[MAX_REPEAT];
  for (int r = 0; r < repeat; r++) {
    double start = now_seconds();
    bool ok = v->kind == SUBPROCESS ? run_quietly(v->argv) : gac_once(in, v->kind == IN_PROCESS_FULL);
    samples[r] = now_seconds() - start;
    if (!ok) {
      fprintf(stderr, "gac-bench-module: '%s' failed on %s\n", v->label, in->path);
      return false;
    }
  }
  v->seconds = median(samples, repeat);
  return true;
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
        "Times, on FILE, the median of K runs (default 5) of: gac read + set rules + write;\n"
        "gac read + set rules + SPIRV-Tools core validation + write; spirv-opt with and\n"
        "without validation; spirv-val. Prints a table and the tools' start-up cost.\n",
        out);
  return status;
}

int main(int argc, char **argv) {
  input in = {0};
  int repeat = 5;
  char *spirv_opt = "spirv-opt", *spirv_val = "spirv-val";
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

  variant variants[] = {
      {"gac (read + set rules + write)", IN_PROCESS_RULES, {0}, 0},
      {"gac full (+ SPIRV-Tools core validation)", IN_PROCESS_FULL, {0}, 0},
      {"spirv-opt (validates, no passes)", SUBPROCESS, {spirv_opt, file, "-o", out_path, NULL}, 0},
      {"spirv-opt --skip-validation", SUBPROCESS, {spirv_opt, "--skip-validation", file, "-o", out_path, NULL}, 0},
      {"spirv-val", SUBPROCESS, {spirv_val, file, NULL}, 0},
  };
  variant startup[] = {
      {"spirv-val, tiny module", SUBPROCESS, {spirv_val, tiny_path, NULL}, 0},
      {"spirv-opt, tiny module", SUBPROCESS, {spirv_opt, tiny_path, "-o", out_path, NULL}, 0},
  };
  enum { NUM_VARIANTS = sizeof variants / sizeof variants[0], NUM_STARTUP = sizeof startup / sizeof startup[0] };

  bool ok = true;
  for (int v = 0; v < NUM_VARIANTS && ok; v++)
    ok = run_variant(&in, &variants[v], repeat);
  for (int v = 0; v < NUM_STARTUP && ok; v++)
    ok = run_variant(&in, &startup[v], repeat);
  phases phase_samples[MAX_REPEAT];
  for (int r = 0; r < repeat && ok; r++)
    ok = gac_phases_once(&in, &phase_samples[r]);
  unlink(out_path);
  unlink(tiny_path);
  if (!ok)
    return 1;

  printf("%s: %zu instructions, %zu bytes; median of %d runs\n\n", in.path, in.num_instructions,
         in.size, repeat);
  printf("| %-42s | %10s | %12s | %9s | %9s |\n", "variant", "median s", "Minstr/s", "/ gac", "/ gac full");
  printf("|%.44s|%.12s|%.14s|%.11s|%.12s|\n", "--------------------------------------------",
         "------------", "--------------", "-----------", "------------");
  double gac = variants[0].seconds, gac_full = variants[1].seconds;
  for (int v = 0; v < NUM_VARIANTS; v++) {
    double s = variants[v].seconds;
    printf("| %-42s | %10.4f | %12.2f | %8.2fx | %9.2fx |\n", variants[v].label, s,
           (double)in.num_instructions / s * 1e-6, s / gac, s / gac_full);
  }
  printf("\nRatios (baseline time / gac time):\n");
  for (int v = 2; v < NUM_VARIANTS; v++)
    printf("  %-34s / gac = %6.2fx    / gac full = %5.2fx\n", variants[v].label, variants[v].seconds / gac,
           variants[v].seconds / gac_full);

  printf("\nProcess start-up (included in the subprocess rows above):\n");
  for (int v = 0; v < NUM_STARTUP; v++)
    printf("  %-34s %8.4f s\n", startup[v].label, startup[v].seconds);

  /* Each phase's own median, so the parts need not add up exactly to the full row. */
  double samples[5][MAX_REPEAT];
  for (int r = 0; r < repeat; r++) {
    const phases *p = &phase_samples[r];
    double values[5] = {p->read, p->rules, p->core, p->write, p->destroy};
    for (int k = 0; k < 5; k++)
      samples[k][r] = values[k];
  }
  printf("\ngac full, by phase (median s):\n");
  printf("  read %.4f, set rules %.4f, core validation %.4f, write %.4f, destroy %.4f\n",
         median(samples[0], repeat), median(samples[1], repeat), median(samples[2], repeat),
         median(samples[3], repeat), median(samples[4], repeat));
  free(in.bytes);
  return 0;
}
