/* `gac-corpus compare DIR`: the outputs each path saved, compared with each
 * other. Every variant of a kernel computes the same thing, so all of its
 * runs (plain and async; pocl, layer, cli, cuda) must agree: bit for bit,
 * or for an entry with a float tolerance within twice that tolerance (each
 * run is within it of the reference). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "values.h"

static const char *const paths[] = {"pocl", "layer", "cli", "cuda"};
enum { NUM_PATHS = sizeof paths / sizeof paths[0], MAX_RUNS = 2 * NUM_PATHS };

typedef struct run_output {
  char label[32]; /* variant.path */
  char *data;
  size_t size;
} run_output;

/* The runs every host here makes: plain on all three OpenCL paths, async
 * through the layer and the command-line pipeline. */
static bool expected(unsigned variant, unsigned path) { return path == 1 || path == 2 || (path == 0 && variant == 0); }

/* Where a and b differ beyond the entry's bounds: false, with the place in why. */
static bool agree(const corpus_entry *e, const run_output *a, const run_output *b, char *why, size_t why_len) {
  if (a->size != b->size) {
    snprintf(why, why_len, "%s has %zu bytes, %s %zu", a->label, a->size, b->label, b->size);
    return false;
  }
  size_t at = 0;
  tolerance tol = e->spec->tol;
  bool exact = tol.ulp == 0 && tol.abs == 0;
  for (unsigned i = 0; e->spec->args[i].kind != CA_END; i++) {
    const carg *arg = &e->spec->args[i];
    if (arg->kind != CA_OUT)
      continue;
    size_t n = ctype_size(arg->type);
    for (size_t j = 0; j < arg->count; j++, at += n) {
      if (memcmp(a->data + at, b->data + at, n) == 0)
        continue;
      if (!exact && ctype_is_float(arg->type)) {
        double x = value_get(arg->type, a->data + at, 0), y = value_get(arg->type, b->data + at, 0);
        if (fabs(x - y) <= 2 * (tol.ulp * ulp_of(arg->type, x) + tol.abs))
          continue;
      }
      char x[48], y[48];
      value_print(arg->type, a->data + at, 0, x, sizeof x);
      value_print(arg->type, b->data + at, 0, y, sizeof y);
      snprintf(why, why_len, "argument %u element %zu: %s %s, %s %s", i, j, a->label, x, b->label, y);
      return false;
    }
  }
  return true;
}

/* Loads the entry's saved runs; false (with why) if an expected one is
 * missing and not a known failure. */
static bool load_runs(const char *dir, const corpus_entry *e, run_output *runs, unsigned *n, char *why,
                      size_t why_len) {
  bool ok = true;
  *n = 0;
  for (unsigned v = 0; v < 2; v++)
    for (unsigned p = 0; p < NUM_PATHS; p++) {
      char file[1024];
      snprintf(file, sizeof file, "%s/%s.%s.%s.out", dir, e->name, gac_corpus_variants[v], paths[p]);
      run_output *r = &runs[*n];
      r->data = gac_read_file(file, &r->size);
      if (r->data) {
        snprintf(r->label, sizeof r->label, "%s.%s", gac_corpus_variants[v], paths[p]);
        ++*n;
      } else if (expected(v, p) && !gac_corpus_known_failure(e, paths[p], v) && ok) {
        snprintf(why, why_len, "no output from %s.%s", gac_corpus_variants[v], paths[p]);
        ok = false;
      }
    }
  return ok;
}

unsigned gac_corpus_compare(const char *dir) {
  unsigned agreeing = 0, differing = 0;
  printf("%-24s %-5s %-8s %s\n", "kernel", "runs", "result", "");
  for (size_t i = 0; i < gac_corpus_size; i++) {
    const corpus_entry *e = &gac_corpus[i];
    const char *only = getenv("GAC_CORPUS_ONLY");
    if (only && !strstr(e->name, only))
      continue;
    run_output runs[MAX_RUNS];
    unsigned n;
    char why[512] = "";
    bool ok = load_runs(dir, e, runs, &n, why, sizeof why);
    for (unsigned j = 1; j < n && ok; j++)
      ok = agree(e, &runs[0], &runs[j], why, sizeof why);
    printf("%-24s %-5u %-8s %s\n", e->name, n, ok ? "AGREE" : "DIFFER", why);
    ok ? agreeing++ : differing++;
    for (unsigned j = 0; j < n; j++)
      free(runs[j].data);
  }
  printf("%u agree, %u differ\n", agreeing, differing);
  return differing;
}
