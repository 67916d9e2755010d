/* gac-random-gen: writes a batch of random async-copy kernels.
 *
 * Usage: gac-random-gen [--select-events] [--no-loops] [--no-reqd] [--noinline] [--ws-typed] [--loop-helper] [--plain-copies] SEED FIRST COUNT OUT.cl
 *   cases FIRST .. FIRST+COUNT-1 of SEED, kernels k<index>; the first line
 *   records what the runners need to make the same cases again.
 *        gac-random-gen --print SEED INDEX   the one case's kernel on stdout */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

int main(int argc, char **argv) {
  rt_options opt = {.loops = true, .reqd = true};
  bool print = false;
  const char *pos[4];
  int npos = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--select-events") == 0)
      opt.select_events = true;
    else if (strcmp(argv[i], "--no-loops") == 0)
      opt.loops = false;
    else if (strcmp(argv[i], "--no-reqd") == 0)
      opt.reqd = false;
    else if (strcmp(argv[i], "--ws-typed") == 0)
      opt.ws_typed = true;
    else if (strcmp(argv[i], "--noinline") == 0)
      opt.noinline = true;
    else if (strcmp(argv[i], "--loop-helper") == 0)
      opt.loop_helper = true;
    else if (strcmp(argv[i], "--plain-copies") == 0)
      opt.plain_copies = true;
    else if (strcmp(argv[i], "--print") == 0)
      print = true;
    else if (npos < 4)
      pos[npos++] = argv[i];
    else
      npos = 5;
  }
  if (print && npos == 2) {
    rt_case *c = malloc(sizeof *c);
    rt_generate(strtoull(pos[0], NULL, 10), strtoull(pos[1], NULL, 10), &opt, c);
    rt_emit_prelude(stdout);
    rt_emit(c, stdout);
    /* the arguments' values, for reading a failure */
    printf("/* local size %u, %u groups; arguments:", c->local_size, c->groups);
    for (unsigned i = 0; i < c->nargs; i++)
      if (c->args[i].kind == A_U64 || c->args[i].kind == A_I32)
        printf(" p%u=%llu", i, (unsigned long long)c->args[i].value);
      else if (c->args[i].kind == A_LOCAL)
        printf(" [%u]=local %llu bytes", i, (unsigned long long)c->args[i].value);
    printf(" */\n");
    free(c);
    return 0;
  }
  if (npos != 4) {
    fprintf(stderr, "usage: gac-random-gen [--select-events] [--no-loops] [--no-reqd] [--noinline] [--ws-typed] [--loop-helper] [--plain-copies] SEED FIRST COUNT OUT.cl\n"
                    "       gac-random-gen [options] --print SEED INDEX\n");
    return 2;
  }
  if (!rt_write_batch(pos[3], strtoull(pos[0], NULL, 10), strtoull(pos[1], NULL, 10),
                      (unsigned)strtoul(pos[2], NULL, 10), &opt)) {
    fprintf(stderr, "gac-random-gen: cannot write %s\n", pos[3]);
    return 1;
  }
  return 0;
}
