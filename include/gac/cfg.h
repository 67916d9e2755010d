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

/* Which of a branch's targets, with the blocks it leads to, reverse
 * post-order lists first (the depth-first walk takes the other first). */
enum gac_cfg_order {
  GAC_CFG_FIRST_TARGET_FIRST, /* a branch's first target first in reverse post-order */
  GAC_CFG_LAST_TARGET_FIRST,  /* its last target first */
};

bool gac_cfg_build(gac_cfg *cfg, const gac_module *m, gac_function *f); /* first target first */
bool gac_cfg_build_ordered(gac_cfg *cfg, const gac_module *m, gac_function *f, enum gac_cfg_order walk);
void gac_cfg_free(gac_cfg *cfg);
/* The index of the block labelled `label`, or -1 if it is unreachable. */
int gac_cfg_index(const gac_cfg *cfg, uint32_t label);
int gac_cfg_index_of_block(const gac_cfg *cfg, const gac_block *b);
bool gac_cfg_dominates(const gac_cfg *cfg, unsigned a, unsigned b);
/* Adds to body ([num_blocks], the header already in it) the natural loop of
 * the back edge latch -> header: the blocks that reach the latch without
 * passing the header. Returns how many blocks it added. */
unsigned gac_cfg_add_loop_body(const gac_cfg *cfg, unsigned latch, bool *body);

/* Reorders f's blocks in reverse post-order (unreachable ones last), so that
 * every block comes after its dominator, as SPIR-V asks. */
void gac_function_sort_blocks(gac_module *m, gac_function *f);

#endif
