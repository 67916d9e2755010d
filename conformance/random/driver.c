#define _POSIX_C_SOURCE 200809L /* open_memstream */
/* What every runner shares: the batch file's header, the loop over its
 * cases, the comparison with the model and the failure report. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

bool rt_write_batch(const char *path, uint64_t seed, uint64_t first, unsigned count, const rt_options *opt) {
  FILE *f = fopen(path, "w");
  if (!f)
    return false;
  fprintf(f, "/* gac-random seed=%" PRIu64 " first=%" PRIu64 " count=%u select=%d loops=%d reqd=%d noinline=%d wstyped=%d loophelper=%d"
             " plaincopies=%d */\n",
          seed, first, count, opt->select_events, opt->loops, opt->reqd, opt->noinline, opt->ws_typed, opt->loop_helper,
          opt->plain_copies);
  rt_emit_prelude(f);
  rt_case *c = malloc(sizeof *c);
  for (unsigned i = 0; i < count; i++) {
    rt_generate(seed, first + i, opt, c);
    rt_emit(c, f);
  }
  free(c);
  return fclose(f) == 0;
}

bool rt_read_batch(const char *path, uint64_t *seed, uint64_t *first, unsigned *count, rt_options *opt) {
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  char line[256] = "";
  bool ok = fgets(line, sizeof line, f) != NULL;
  fclose(f);
  /* batches before wstyped=, loophelper=, plaincopies= have none */
  int sel, loops, reqd, noinline, wstyped = 0, loophelper = 0, plain = 0;
  ok = ok && sscanf(line,
                    "/* gac-random seed=%" SCNu64 " first=%" SCNu64
                    " count=%u select=%d loops=%d reqd=%d noinline=%d wstyped=%d loophelper=%d plaincopies=%d",
                    seed, first, count, &sel, &loops, &reqd, &noinline, &wstyped, &loophelper, &plain) >= 7;
  if (ok)
    *opt = (rt_options){sel != 0, loops != 0, reqd != 0, noinline != 0, wstyped != 0, loophelper != 0, plain != 0};
  return ok;
}

bool rt_common_option(rt_run_options *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (strcmp(a, "--target") == 0 && *i + 1 < argc) {
    o->target = argv[++*i];
  } else if (strcmp(a, "--only") == 0 && *i + 1 < argc) {
    o->only_set = true;
    o->only = strtoull(argv[++*i], NULL, 10);
  } else if (strcmp(a, "--from") == 0 && *i + 1 < argc) {
    o->from = strtoull(argv[++*i], NULL, 10);
  } else if (strcmp(a, "--repeat") == 0 && *i + 1 < argc) {
    o->repeat = (unsigned)strtoul(argv[++*i], NULL, 10);
  } else if (strcmp(a, "--mutate") == 0) {
    o->mutate = true;
  } else if (strcmp(a, "--quiet") == 0) {
    o->quiet = true;
  } else {
    return false;
  }
  return true;
}

char *rt_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[n] = 0;
    if (size)
      *size = (size_t)n;
  }
  return buf;
}

static bool same_kernel(const rt_case *c, const char *text) {
  char *mine = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&mine, &size);
  if (!f || !text)
    return false;
  rt_emit(c, f);
  fclose(f);
  bool same = strstr(text, mine) != NULL;
  free(mine);
  return same;
}

/* The mutant model: one byte that the kernel writes (it differs from the
 * initial bytes), else the first byte of out0, made wrong. */
static void mutate(const rt_case *c, rt_buffers *b) {
  for (unsigned g = 2; g < RT_MAX_GBUF; g++)
    for (size_t i = 0; c->gbuf_used[g] && i < b->size[g]; i++)
      if (b->want[g][i] != b->init[g][i]) {
        b->want[g][i] ^= 0x5a;
        return;
      }
  if (b->size[2])
    b->want[2][0] ^= 0x5a;
}

unsigned rt_drive(const rt_backend *be, const rt_run_options *o) {
  uint64_t seed, first;
  unsigned count;
  rt_options opt;
  if (!rt_read_batch(o->batch, &seed, &first, &count, &opt)) {
    fprintf(stderr, "gac-random: %s is not a batch of gac-random-gen\n", o->batch);
    return 1;
  }
  const char *target = o->target ? o->target : "?";
  unsigned run = 0, failed = 0;
  rt_case *c = malloc(sizeof *c);
  /* The runner's model is only right for the kernels its own generator
   * writes: each case's text must be in the batch as it is (a batch made by
   * another version of the generator fails here, not with wrong bytes). */
  char *text = rt_read_file(o->batch, NULL);
  for (uint64_t index = first; index < first + count; index++) {
    if ((o->only_set && index != o->only) || index < o->from)
      continue;
    rt_generate(seed, index, &opt, c);
    /* GAC_RANDOM_EDITED=1: the batch was cut down by hand to find a bug;
     * compare anyway (bytes of removed ops then differ as well). */
    if (!getenv("GAC_RANDOM_EDITED") && !same_kernel(c, text)) {
      printf("STALE %s %s: kernel k%" PRIu64 " differs from what this runner's generator makes: remake the batch\n",
             target, o->batch, index);
      failed++, run++;
      continue;
    }
    /* GAC_RANDOM_TRACE=1: name each case before it runs (stderr is not
     * buffered), so that a run killed by a timeout tells which case hung. */
    if (getenv("GAC_RANDOM_TRACE"))
      fprintf(stderr, "running %s k%" PRIu64 "\n", target, index);
    rt_buffers b;
    rt_model(c, &b);
    if (o->mutate)
      mutate(c, &b);
    unsigned char *got[RT_MAX_GBUF] = {0};
    for (unsigned g = 0; g < RT_MAX_GBUF; g++)
      if (c->gbuf_used[g])
        got[g] = malloc(b.size[g]);
    char why[512] = "";
    bool ok = true;
    unsigned repeat = o->repeat ? o->repeat : 1, r;
    for (r = 0; ok && r < repeat; r++) {
      ok = be->run(be->self, c, &b, got, why, sizeof why);
      unsigned buf = 0;
      size_t off = 0;
      if (ok && !rt_compare(c, &b, got, &buf, &off)) {
        ok = false;
        size_t region = c->region[buf];
        snprintf(why, sizeof why, "%s[%zu] (group %zu, byte %zu): expected 0x%02x, got 0x%02x (initial 0x%02x)",
                 rt_gbuf_name(buf), off, off / region, off % region, b.want[buf][off], got[buf][off], b.init[buf][off]);
      }
    }
    if (!ok && repeat > 1) {
      size_t len = strlen(why);
      snprintf(why + len, sizeof why - len, " (run %u of %u)", r, repeat);
    }
    if (!ok && getenv("GAC_RANDOM_DIFF")) /* every differing range, for reading a failure */
      for (unsigned g = 0; g < RT_MAX_GBUF; g++)
        for (size_t i = 0; got[g] && i < b.size[g]; i++)
          if (got[g][i] != b.want[g][i]) {
            size_t j = i;
            while (j < b.size[g] && got[g][j] != b.want[g][j])
              j++;
            printf("  differ: %s[%zu..%zu) (group %zu, byte %zu)\n", rt_gbuf_name(g), i, j, i / c->region[g],
                   i % c->region[g]);
            /* GAC_RANDOM_DIFF=bytes: the first 16 of them, expected/got/initial */
            if (!strcmp(getenv("GAC_RANDOM_DIFF"), "bytes"))
              for (size_t k = i; k < j && k < i + 16; k++)
                printf("%s%02x/%02x/%02x%s", k == i ? "    " : " ", b.want[g][k], got[g][k], b.init[g][k], k + 1 == j || k + 1 == i + 16 ? "\n" : "");
            i = j;
          }
    run++;
    if (!ok) {
      failed++;
      if (!o->quiet || failed <= 3 || getenv("GAC_RANDOM_TRACE")) /* resume.sh counts them */
        printf("FAIL %s seed=%" PRIu64 " index=%" PRIu64 " file=%s kernel=k%" PRIu64 ": %s\n"
               "     reproduce: conformance/random/repro.sh <build-dir> %s %" PRIu64 " %" PRIu64 "%s%s%s%s%s%s\n",
               target, seed, index, o->batch, index, why, target, seed, index, opt.select_events ? " --select-events" : "",
               opt.loops ? "" : " --no-loops", opt.reqd ? "" : " --no-reqd", opt.noinline ? " --noinline" : "", opt.ws_typed ? " --ws-typed" : "",
               opt.loop_helper ? " --loop-helper" : "");
    }
    for (unsigned g = 0; g < RT_MAX_GBUF; g++)
      free(got[g]);
    rt_buffers_free(&b);
  }
  free(c);
  free(text);
  printf("random %s %s: %u cases, %u passed, %u failed\n", target, o->batch, run, run - failed, failed);
  return failed;
}
