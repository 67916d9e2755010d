/* The control-flow graph of a function and its dominator tree (gac/cfg.h). */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "gac/cfg.h"

unsigned gac_block_successor_labels(const gac_block *b, uint32_t *labels, unsigned max) {
  const gac_inst *t = gac_block_terminator(b);
  unsigned *ops = t && max ? malloc((t->num_operands + 2) * sizeof *ops) : NULL, n = 0;
  unsigned k = ops ? gac_terminator_targets(t, ops, t->num_operands + 2) : 0;
  for (unsigned i = 0; i < k && n < max; i++) {
    uint32_t label = gac_operand_word(t, ops[i]);
    if (t->opcode != SpvOpBranchConditional || !n || label != labels[0]) /* both ways to one block */
      labels[n++] = label;
  }
  free(ops);
  return n;
}

int gac_cfg_index(const gac_cfg *cfg, uint32_t label) {
  return label < cfg->bound ? (int)cfg->index_of[label] - 1 : -1;
}

int gac_cfg_index_of_block(const gac_cfg *cfg, const gac_block *b) {
  return gac_cfg_index(cfg, gac_block_label(b));
}

static gac_block *block_of_label(const gac_module *m, uint32_t label) {
  gac_inst *l = gac_def(m, label);
  return l && l->opcode == SpvOpLabel ? gac_inst_block(l) : NULL;
}

/* Post-order by an explicit stack (deep CFGs must not overflow the C stack). */
static unsigned post_order(const gac_module *m, gac_function *f, gac_block **order, unsigned *visited,
                           uint32_t bound, enum gac_cfg_order walk) {
  typedef struct frame {
    gac_block *b;
    uint32_t *succ;
    unsigned n, next;
  } frame;
  unsigned count = 0, depth = 0, cap = 64;
  frame *stack = malloc(cap * sizeof *stack);
  gac_block *entry = f->first_block;
  uint32_t entry_label = gac_block_label(entry);
  if (!stack || entry_label >= bound) {
    free(stack);
    return 0;
  }
  visited[entry_label] = 1;
  for (gac_block *b = entry; b;) {
    const gac_inst *t = gac_block_terminator(b);
    unsigned max = t ? t->num_operands : 0;
    stack[depth] = (frame){.b = b, .succ = malloc((max ? max : 1) * sizeof(uint32_t))};
    stack[depth].n = stack[depth].succ ? gac_block_successor_labels(b, stack[depth].succ, max) : 0;
    depth++;
    b = NULL;
    while (depth && !b) {
      frame *top = &stack[depth - 1];
      if (top->next < top->n) {
        /* Last successor first, so that reverse post-order lists a branch's
         * first target (and what it leads to) before its second; or the
         * other way round when asked. */
        unsigned k = top->next++;
        uint32_t s = top->succ[walk == GAC_CFG_FIRST_TARGET_FIRST ? top->n - 1 - k : k];
        gac_block *sb = s < bound ? block_of_label(m, s) : NULL;
        if (!sb || sb->function != f || visited[s])
          continue;
        visited[s] = 1;
        if (depth == cap)
          stack = realloc(stack, (cap *= 2) * sizeof *stack);
        b = sb;
      } else {
        order[count++] = top->b;
        free(top->succ);
        depth--;
      }
    }
  }
  free(stack);
  return count;
}

static unsigned intersect(const unsigned *idom, unsigned a, unsigned b) {
  while (a != b) {
    while (a > b)
      a = idom[a];
    while (b > a)
      b = idom[b];
  }
  return a;
}

static void add_edge(unsigned **lists, unsigned *counts, unsigned from, unsigned to) {
  lists[from] = realloc(lists[from], (counts[from] + 1) * sizeof **lists);
  lists[from][counts[from]++] = to;
}

bool gac_cfg_build(gac_cfg *cfg, const gac_module *m, gac_function *f) {
  return gac_cfg_build_ordered(cfg, m, f, GAC_CFG_FIRST_TARGET_FIRST);
}

bool gac_cfg_build_ordered(gac_cfg *cfg, const gac_module *m, gac_function *f, enum gac_cfg_order walk) {
  memset(cfg, 0, sizeof *cfg);
  cfg->function = f;
  if (!f->first_block)
    return false;
  unsigned total = 0;
  gac_foreach_block(b, f) total++;
  cfg->bound = m->bound;
  cfg->index_of = calloc(m->bound ? m->bound : 1, sizeof *cfg->index_of);
  gac_block **po = malloc(total * sizeof *po);
  unsigned n = post_order(m, f, po, cfg->index_of, m->bound, walk);
  if (!n) {
    free(po);
    gac_cfg_free(cfg);
    cfg->function = f;
    return false;
  }
  cfg->num_blocks = n;
  cfg->blocks = malloc(n * sizeof *cfg->blocks);
  cfg->label_of = malloc(n * sizeof *cfg->label_of);
  for (unsigned i = 0; i < n; i++) {
    cfg->blocks[i] = po[n - 1 - i];
    cfg->label_of[i] = gac_block_label(cfg->blocks[i]);
    cfg->index_of[cfg->label_of[i]] = i + 1;
  }
  free(po);
  cfg->succ = calloc(n, sizeof *cfg->succ);
  cfg->pred = calloc(n, sizeof *cfg->pred);
  cfg->num_succ = calloc(n, sizeof *cfg->num_succ);
  cfg->num_pred = calloc(n, sizeof *cfg->num_pred);
  for (unsigned i = 0; i < n; i++) {
    const gac_inst *t = gac_block_terminator(cfg->blocks[i]);
    unsigned max = t ? t->num_operands : 0;
    uint32_t *s = malloc((max ? max : 1) * sizeof *s);
    unsigned k = s ? gac_block_successor_labels(cfg->blocks[i], s, max) : 0;
    for (unsigned j = 0; j < k; j++) {
      int to = gac_cfg_index(cfg, s[j]);
      if (to >= 0) {
        add_edge(cfg->succ, cfg->num_succ, i, (unsigned)to);
        add_edge(cfg->pred, cfg->num_pred, (unsigned)to, i);
      }
    }
    free(s);
  }
  /* Dominators, indices in reverse post-order. */
  cfg->idom = malloc(n * sizeof *cfg->idom);
  for (unsigned i = 0; i < n; i++)
    cfg->idom[i] = ~0u;
  cfg->idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned i = 1; i < n; i++) {
      unsigned d = ~0u;
      for (unsigned k = 0; k < cfg->num_pred[i]; k++) {
        unsigned p = cfg->pred[i][k];
        if (cfg->idom[p] != ~0u)
          d = d == ~0u ? p : intersect(cfg->idom, p, d);
      }
      if (d != cfg->idom[i]) {
        cfg->idom[i] = d;
        changed = true;
      }
    }
  }
  return true;
}

bool gac_cfg_dominates(const gac_cfg *cfg, unsigned a, unsigned b) {
  while (b != a && b != 0)
    b = cfg->idom[b];
  return b == a;
}

unsigned gac_cfg_add_loop_body(const gac_cfg *cfg, unsigned latch, bool *body) {
  if (body[latch])
    return 0;
  unsigned *work = malloc(cfg->num_blocks * sizeof *work), nw = 0, added = 1;
  if (!work)
    abort();
  body[latch] = true;
  work[nw++] = latch;
  while (nw) {
    unsigned b = work[--nw];
    for (unsigned j = 0; j < cfg->num_pred[b]; j++)
      if (!body[cfg->pred[b][j]])
        body[cfg->pred[b][j]] = true, work[nw++] = cfg->pred[b][j], added++;
  }
  free(work);
  return added;
}

void gac_cfg_free(gac_cfg *cfg) {
  for (unsigned i = 0; i < cfg->num_blocks; i++) {
    free(cfg->succ[i]);
    free(cfg->pred[i]);
  }
  free(cfg->succ), free(cfg->pred), free(cfg->num_succ), free(cfg->num_pred);
  free(cfg->idom), free(cfg->blocks), free(cfg->label_of), free(cfg->index_of);
  memset(cfg, 0, sizeof *cfg);
}

void gac_function_sort_blocks(gac_module *m, gac_function *f) {
  gac_cfg cfg;
  if (!gac_cfg_build(&cfg, m, f))
    return;
  unsigned total = 0;
  gac_foreach_block(b, f) total++;
  gac_block **order = malloc((total + 1) * sizeof *order); /* + 1: GCC -O3 fears total = 0 */
  unsigned n = 0;
  for (unsigned i = 0; i < cfg.num_blocks; i++)
    order[n++] = cfg.blocks[i];
  gac_foreach_block(b, f) if (gac_cfg_index_of_block(&cfg, b) < 0) order[n++] = b;
  for (unsigned i = 0; i < n; i++) {
    order[i]->prev = i ? order[i - 1] : NULL;
    order[i]->next = i + 1 < n ? order[i + 1] : NULL;
  }
  f->first_block = order[0];
  f->last_block = order[n - 1];
  free(order);
  gac_cfg_free(&cfg);
}
