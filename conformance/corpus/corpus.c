/* The corpus table and the run of one entry: inputs from the generators,
 * the host reference, the device's run, the comparison, the table's rows
 * and the saved outputs that `gac-corpus compare` reads. */
#define _POSIX_C_SOURCE 200809L
#include "corpus.h"

#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values.h"

const corpus_entry gac_corpus[] = {
#define CORPUS(name, kernel, source, options) {#name, #kernel, source, options, &gac_spec_##name},
#include "kernels.def"
#undef CORPUS
};
const size_t gac_corpus_size = sizeof gac_corpus / sizeof gac_corpus[0];
const char *const gac_corpus_variants[2] = {"plain", "async"};

bool gac_corpus_known_failure(const corpus_entry *e, const char *path, unsigned variant) {
  char key[64];
  snprintf(key, sizeof key, "%s.%s:", path, gac_corpus_variants[variant]);
  return e->spec->known_failures && strstr(e->spec->known_failures, key);
}

/* ---- one run ---- */

typedef struct buffers {
  unsigned n;
  void *ref[CORPUS_MAX_ARGS]; /* the reference's view: inputs, expected outputs, scalars */
  corpus_arg dev[CORPUS_MAX_ARGS];
  scalar scalars[CORPUS_MAX_ARGS];
} buffers;

static size_t bytes_of(const carg *a) { return a->count * ctype_size(a->type); }

static void buffers_free(buffers *b) {
  for (unsigned i = 0; i < b->n; i++)
    if (b->dev[i].kind == CA_IN || b->dev[i].kind == CA_OUT) {
      free(b->ref[i]);
      free(b->dev[i].host);
    }
}

static void buffers_make(const corpus_entry *e, buffers *b) {
  memset(b, 0, sizeof *b);
  for (const carg *a = e->spec->args; b->n < CORPUS_MAX_ARGS && a->kind != CA_END; a++, b->n++) {
    unsigned i = b->n;
    b->dev[i].kind = a->kind;
    if (a->kind == CA_SCALAR) {
      b->scalars[i] = scalar_of(a->type, a->value);
      b->ref[i] = b->dev[i].host = &b->scalars[i];
      b->dev[i].size = ctype_size(a->type);
    } else if (a->kind == CA_LOCAL) {
      b->dev[i].size = bytes_of(a);
    } else {
      size_t bytes = bytes_of(a);
      b->ref[i] = malloc(bytes);
      b->dev[i].host = malloc(bytes);
      b->dev[i].size = bytes;
      values_fill(b->ref[i], a, seed_of(e->name, i));
      memcpy(b->dev[i].host, b->ref[i], bytes);
    }
  }
}

/* Compares every output; *max_err: the largest error seen (ULPs for floats,
 * the largest difference for integers). */
static bool compare_outputs(const corpus_entry *e, const buffers *b, double *max_err, char *why, size_t why_len) {
  bool ok = true;
  *max_err = 0;
  for (unsigned i = 0; i < b->n; i++) {
    const carg *a = &e->spec->args[i];
    if (a->kind != CA_OUT)
      continue;
    size_t bad;
    double err = values_max_error(a->type, b->dev[i].host, b->ref[i], a->count, e->spec->tol, &bad);
    if (err > *max_err)
      *max_err = err;
    if (bad != SIZE_MAX && ok) {
      char got[48], want[48];
      value_print(a->type, b->dev[i].host, bad, got, sizeof got);
      value_print(a->type, b->ref[i], bad, want, sizeof want);
      snprintf(why, why_len, "argument %u element %zu: got %s, want %s", i, bad, got, want);
      ok = false;
    }
  }
  return ok;
}

static void output_file(char *file, size_t len, const char *dir, const corpus_entry *e, unsigned variant,
                        const char *path) {
  snprintf(file, len, "%s/%s.%s.%s.out", dir, e->name, gac_corpus_variants[variant], path);
}

static bool save_outputs(const char *dir, const corpus_entry *e, unsigned variant, const char *path,
                         const buffers *b, char *why, size_t why_len) {
  char file[1024];
  output_file(file, sizeof file, dir, e, variant, path);
  FILE *f = fopen(file, "wb");
  bool ok = f != NULL;
  for (unsigned i = 0; ok && i < b->n; i++)
    if (b->dev[i].kind == CA_OUT)
      ok = fwrite(b->dev[i].host, 1, b->dev[i].size, f) == b->dev[i].size;
  if (f)
    ok = fclose(f) == 0 && ok;
  if (!ok)
    snprintf(why, why_len, "cannot write %.900s", file);
  return ok;
}

/* Runs one entry in one variant: true if its outputs match the reference. */
static bool run_entry(const corpus_backend *be, const corpus_entry *e, unsigned variant, const char *save_dir,
                      double *max_err, char *why, size_t why_len) {
  *max_err = 0;
  if (save_dir) { /* no stale output from an earlier run stands in for this one */
    char file[1024];
    output_file(file, sizeof file, save_dir, e, variant, be->path);
    remove(file);
  }
  void *k = be->load(be->self, e, variant, why, why_len);
  if (!k)
    return false;
  buffers b;
  buffers_make(e, &b);
  e->spec->reference(b.ref);
  bool ran = be->run(be->self, k, e->spec, b.dev, why, why_len);
  bool ok = ran && compare_outputs(e, &b, max_err, why, why_len);
  /* Saved even when they differ: the comparison of paths reports that too. */
  if (ran && save_dir && !save_outputs(save_dir, e, variant, be->path, &b, why, why_len))
    ok = false;
  buffers_free(&b);
  be->release(be->self, k);
  return ok;
}

static bool selected(const corpus_entry *e) {
  const char *only = getenv("GAC_CORPUS_ONLY");
  return !only || strstr(e->name, only);
}

unsigned gac_corpus_run(const corpus_backend *be, const char *save_dir) {
  unsigned passed = 0, failed = 0, xfailed = 0;
  if (save_dir && mkdir(save_dir, 0777) != 0 && errno != EEXIST)
    fprintf(stderr, "gac-corpus: cannot make %s\n", save_dir);
  printf("%-24s %-6s %-6s %-6s %s\n", "kernel", "variant", "path", "result", "max error");
  for (size_t i = 0; i < gac_corpus_size; i++) {
    const corpus_entry *e = &gac_corpus[i];
    for (unsigned v = 0; v < 2; v++) {
      if (!be->variants[v] || !selected(e))
        continue;
      char why[1024] = "";
      double err;
      bool ok = run_entry(be, e, v, save_dir, &err, why, sizeof why);
      bool known = gac_corpus_known_failure(e, be->path, v);
      const char *result = ok ? (known ? "XPASS" : "PASS") : (known ? "XFAIL" : "FAIL");
      char err_text[32];
      if (spec_has_float_output(e->spec))
        snprintf(err_text, sizeof err_text, "%.3g ulp", err);
      else
        snprintf(err_text, sizeof err_text, "%.0f", err);
      printf("%-24s %-7s %-6s %-6s %-10s%s%s\n", e->name, gac_corpus_variants[v], be->path, result, err_text,
             why[0] ? "  " : "", why);
      fflush(stdout);
      /* An unexpected pass fails too: the known-failure list must stay true. */
      ok && !known ? passed++ : !ok && known ? xfailed++ : failed++;
    }
  }
  printf("%u passed, %u known failures, %u failed\n", passed, xfailed, failed);
  return failed;
}
