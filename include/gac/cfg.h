/* The control-flow graph of a function: successors, predecessors, reverse
 * post-order and dominators (Cooper, Harvey and Kennedy's iterative
 * algorithm), and natural loops. Built on demand by the passes that need it;
 * stale after any edit of the blocks. */
#ifndef GAC_CFG_H
#define GAC_CFG_H

#include "gac/module.h"

typedef struct gac_cfg {
  gac_function *function;
  unsigned num_blocks;   /* reachable blocks, in reverse post-order; [0] is the entry */
  gac_block **blocks;
  unsigned **succ, *num_succ;
  unsigned **pred, *num_pred;
  unsigned *idom;        /* immediate dominator index; the entry's is itself */
  uint32_t *label_of;    /* block index -> label id */
  unsigned *index_of;    /* label id -> block index + 1, 0 if unreachable (size: module bound) */
  uint32_t bound;
} gac_cfg;

/* The labels a terminator branches to; returns their number (at most max). */
unsigned gac_block_successor_labels(const gac_block *b, uint32_t *labels, unsigned max);

bool gac_cfg_build(gac_cfg *cfg, const gac_module *m, gac_function *f);
void gac_cfg_free(gac_cfg *cfg);
/* The index of the block labelled `label`, or -1 if it is unreachable. */
int gac_cfg_index(const gac_cfg *cfg, uint32_t label);
int gac_cfg_index_of_block(const gac_cfg *cfg, const gac_block *b);
bool gac_cfg_dominates(const gac_cfg *cfg, unsigned a, unsigned b);

/* Reorders f's blocks in reverse post-order (unreachable ones last), so that
 * every block comes after its dominator, as SPIR-V asks. */
void gac_function_sort_blocks(gac_module *m, gac_function *f);

#endif
