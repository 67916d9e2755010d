/* Software pipelining (--pipeline-loops, docs/ASYNC_PIPELINE.md) with its
 * options typed, for a tool or driver that pipelines for a target it knows:
 * the user's words parsed (gac_pipeline_loops_parse), then what the target
 * asks of pipelined loops added by the target itself
 * (gac_ptx_pipeline_wants in gac/ptx.h, gac_amdgcn_pipeline_wants in
 * gac/amdgcn.h), then the pass (gac_pipeline_loops_with). The pipeliner
 * names no target: what differs between targets arrives here. */
#ifndef GAC_PIPELINE_H
#define GAC_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "gac/module.h"

/* --pipeline-loops' argument: any of these words, comma-separated. */
#define GAC_PIPELINE_LOOPS_ARGS "[=no-prune,late-waits,wide-copies,warp-specialize,svg=FILE]"

typedef struct gac_pipeline_loops_options {
  bool no_prune;        /* keep waits the schedule's pruning would drop */
  bool late_waits;      /* each wait just before its reader (the RFC's) */
  bool warp_specialize; /* a producer warp and consumers (PTX, sm_90) */
  bool wide_copies;     /* the pipelined body's copies in 16-byte elements where
                           a test before the loop finds them aligned */
  const char *svg;      /* where to draw the schedules (svg_len bytes), or NULL */
  size_t svg_len;
  /* The target's: the local memory a work-group of its kernels may take, in
   * bytes (0: not known, no warning), and why, for the warning past it:
   * "a CUDA device gives static shared memory: its PTX cannot be launched". */
  uint64_t local_memory_limit;
  const char *local_memory_limit_is;
} gac_pipeline_loops_options;

/* Parses --pipeline-loops' ARG (NULL or "": no word) into *o, which it
 * clears first; false with a [pipeline.option] error naming the word. */
bool gac_pipeline_loops_parse(const char *arg, gac_pipeline_loops_options *o, gac_diag *diag);

/* The pass with its options typed: what --pipeline-loops=ARG runs once ARG
 * is parsed; progress, as every pass (gac_pass_succeeded says whether it
 * reported an error). */
bool gac_pipeline_loops_with(gac_module *m, const gac_pipeline_loops_options *options, gac_diag *diag);

#endif
