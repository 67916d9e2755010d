/* The control-flow graph --check-async walks: gac_cfg's successors, reverse
 * post-order, dominators and natural loops in function-order block
 * indices, with the loops' counters and exit tests. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check_async_internal.h"

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p)
    abort();
  return p;
}

int ca_block_of(const ca_cfg *c, const gac_inst *inst) {
  gac_block *b = gac_inst_block(inst);
  if (!b || b->function != c->f)
    return -1;
  uint32_t label = gac_block_label(b);
  return label < c->m->bound && c->index_of[label] ? (int)c->index_of[label] - 1 : -1;
}

bool ca_dominates(const ca_cfg *c, unsigned a, unsigned b) {
  if (c->rpo_number[b] == UINT32_MAX || c->rpo_number[a] == UINT32_MAX)
    return false;
  return gac_cfg_dominates(&c->g, c->rpo_number[a], c->rpo_number[b]);
}

bool ca_in_loop(const ca_cfg *c, int loop, unsigned block) { return loop >= 0 && c->loops[loop].body[block]; }

bool ca_defined_in_loop(const ca_cfg *c, int loop, uint32_t id) {
  const gac_inst *d = gac_def(c->m, id);
  int b = d ? ca_block_of(c, d) : -1;
  return b >= 0 && ca_in_loop(c, loop, (unsigned)b);
}

/* k = OpPhi(init, k + 1), one init from outside and k + 1 from every latch. */
static void find_counter(ca_cfg *c, ca_loop *L) {
  gac_block *h = c->blocks[L->header];
  for (gac_inst *phi = h->insts.first->next; phi && phi->opcode == SpvOpPhi; phi = phi->next) {
    uint32_t init = 0, next = 0;
    bool ok = true;
    for (unsigned w = 3; ok && w + 1 < phi->num_words; w += 2) {
      uint32_t label = phi->words[w + 1], v = phi->words[w];
      if (label >= c->m->bound || !c->index_of[label])
        continue;
      uint32_t *slot = L->body[c->index_of[label] - 1] ? &next : &init;
      ok = !*slot || *slot == v;
      *slot = v;
    }
    const gac_inst *add = next ? gac_def(c->m, next) : NULL;
    uint64_t one;
    if (!ok || !init || !add || add->opcode != SpvOpIAdd || add->num_words != 5)
      continue;
    if ((add->words[3] == phi->result_id && gac_constant_value(c->m, add->words[4], &one) && one == 1) ||
        (add->words[4] == phi->result_id && gac_constant_value(c->m, add->words[3], &one) && one == 1)) {
      L->k = phi->result_id;
      L->k_next = next;
      L->init = init;
      return;
    }
  }
}

/* The exit test in block b of L, if it has the recognised shape. */
static void find_exit_test(ca_cfg *c, ca_loop *L, unsigned b) {
  gac_inst *t = gac_block_terminator(c->blocks[b]);
  if (L->has_exit_test || !L->k || !t || t->opcode != SpvOpBranchConditional || t->num_words < 4)
    return;
  const gac_inst *cmp = gac_def(c->m, t->words[1]);
  if (!cmp || cmp->num_words != 5)
    return;
  bool stay_when_true;
  switch (cmp->opcode) {
  case SpvOpULessThan: case SpvOpSLessThan: case SpvOpINotEqual:
    stay_when_true = true;
    break;
  case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual: case SpvOpIEqual:
    stay_when_true = false;
    break;
  default:
    return;
  }
  uint32_t x = cmp->words[3], n = cmp->words[4];
  if ((x != L->k && x != L->k_next) || ca_defined_in_loop(c, (int)(L - c->loops), n))
    return;
  uint32_t tl = t->words[2], fl = t->words[3];
  if (tl >= c->m->bound || fl >= c->m->bound || !c->index_of[tl] || !c->index_of[fl])
    return;
  unsigned stay = c->index_of[stay_when_true ? tl : fl] - 1, leave = c->index_of[stay_when_true ? fl : tl] - 1;
  if (!L->body[stay] || L->body[leave])
    return;
  L->has_exit_test = true;
  L->exit_block = b;
  L->exit_target = leave;
  L->bound = n;
  L->compare = cmp->opcode;
  L->exit_offset = x == L->k_next;
}

/* x = OpSelect(cmp(p, q), a, b) as umin(a, b): a and b are the compared
 * values, a taken where it is the smaller (unsigned). */
static bool umin_of(const gac_module *m, uint32_t x, uint32_t *a, uint32_t *b) {
  const gac_inst *sel = gac_def(m, x);
  if (!sel || sel->opcode != SpvOpSelect || sel->num_words != 6)
    return false;
  const gac_inst *cmp = gac_def(m, sel->words[3]);
  if (!cmp || cmp->num_words != 5)
    return false;
  uint32_t p = cmp->words[3], q = cmp->words[4];
  *a = sel->words[4];
  *b = sel->words[5];
  switch (cmp->opcode) {
  case SpvOpULessThan: case SpvOpULessThanEqual: return *a == p && *b == q;
  case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual: return *a == q && *b == p;
  default: return false;
  }
}

/* The pipelined body's start min(S, n) against the test k < n in the header. */
static void find_min_init(ca_cfg *c, ca_loop *L) {
  uint32_t a, b;
  if (!L->has_exit_test || L->exit_block != L->header || L->compare != SpvOpULessThan || L->exit_offset ||
      !umin_of(c->m, L->init, &a, &b))
    return;
  uint32_t other = a == L->bound ? b : b == L->bound ? a : 0;
  L->init_is_min = other && gac_constant_value(c->m, other, &L->cap);
}

bool ca_counter_at_least(const ca_cfg *c, unsigned block, uint32_t id, uint64_t *min) {
  for (unsigned l = 0; l < c->num_loops; l++) {
    const ca_loop *L = &c->loops[l];
    if (L->k != id)
      continue;
    if (gac_constant_value(c->m, L->init, min))
      return true;
    /* Past the header the test k < bound held once, so the start was cap, and k only grows. */
    if (L->init_is_min && L->body[block] && block != L->header) {
      *min = L->cap;
      return true;
    }
  }
  return false;
}

static void find_loops(ca_cfg *c) {
  const gac_cfg *g = &c->g;
  c->loops = xcalloc(c->n, sizeof *c->loops);
  bool *body = xcalloc(g->num_blocks, sizeof *body); /* in reverse post-order */
  for (unsigned h = 0; h < g->num_blocks; h++) {
    unsigned latches = 0, latch = 0;
    memset(body, 0, g->num_blocks * sizeof *body);
    body[h] = true;
    for (unsigned j = 0; j < g->num_pred[h]; j++) {
      unsigned p = g->pred[h][j];
      if (j && g->pred[h][j - 1] == p)
        continue; /* a switch may list one twice, side by side */
      if (!gac_cfg_dominates(g, h, p)) {
        if (p >= h)
          c->irreducible = true; /* a retreating edge into a block that does not dominate it */
        continue;
      }
      latches++;
      latch = p;
      gac_cfg_add_loop_body(g, p, body);
    }
    if (!latches)
      continue;
    ca_loop *L = &c->loops[c->num_loops++];
    L->header = c->rpo[h];
    L->body = xcalloc(c->n, sizeof(bool));
    for (unsigned b = 0; b < g->num_blocks; b++)
      if (body[b])
        L->body[c->rpo[b]] = true, L->body_size++;
    find_counter(c, L);
    find_exit_test(c, L, L->header);
    if (latches == 1)
      find_exit_test(c, L, c->rpo[latch]);
    find_min_init(c, L);
  }
  free(body);
  for (unsigned b = 0; b < c->n; b++) {
    c->loop_of[b] = -1;
    for (unsigned l = 0; l < c->num_loops; l++)
      if (c->loops[l].body[b] && (c->loop_of[b] < 0 || c->loops[l].body_size < c->loops[c->loop_of[b]].body_size))
        c->loop_of[b] = (int)l;
  }
}

void ca_cfg_build(ca_cfg *c, const gac_module *m, gac_function *f) {
  memset(c, 0, sizeof *c);
  c->m = m;
  c->f = f;
  gac_foreach_block(b, f) c->n++;
  c->blocks = xcalloc(c->n, sizeof *c->blocks);
  c->index_of = xcalloc(m->bound, sizeof *c->index_of);
  unsigned i = 0;
  gac_foreach_block(b, f) {
    c->blocks[i] = b;
    uint32_t label = gac_block_label(b);
    if (label < m->bound)
      c->index_of[label] = i + 1;
    i++;
  }
  c->succ = xcalloc(c->n, sizeof *c->succ);
  c->num_succ = xcalloc(c->n, sizeof *c->num_succ);
  c->rpo = xcalloc(c->n, sizeof *c->rpo);
  c->rpo_number = xcalloc(c->n, sizeof *c->rpo_number);
  c->loop_of = xcalloc(c->n, sizeof *c->loop_of);
  for (unsigned b = 0; b < c->n; b++)
    c->rpo_number[b] = UINT32_MAX;
  /* The fixpoint visits blocks in this order, and which witness a join
   * keeps depends on it: a branch's last target first, as it always was. */
  if (!c->n || !gac_cfg_build_ordered(&c->g, m, f, GAC_CFG_LAST_TARGET_FIRST))
    return;
  const gac_cfg *g = &c->g;
  c->num_rpo = g->num_blocks;
  for (unsigned r = 0; r < g->num_blocks; r++) {
    c->rpo[r] = c->index_of[g->label_of[r]] - 1;
    c->rpo_number[c->rpo[r]] = r;
  }
  /* Successors in function indices, each once (a switch may name one twice). */
  for (unsigned r = 0; r < g->num_blocks; r++) {
    unsigned b = c->rpo[r];
    c->succ[b] = xcalloc(g->num_succ[r], sizeof(unsigned));
    for (unsigned k = 0; k < g->num_succ[r]; k++) {
      unsigned s = c->rpo[g->succ[r][k]];
      bool seen = false;
      for (unsigned j = 0; j < c->num_succ[b]; j++)
        seen |= c->succ[b][j] == s;
      if (!seen)
        c->succ[b][c->num_succ[b]++] = s;
    }
  }
  find_loops(c);
}

void ca_cfg_free(ca_cfg *c) {
  for (unsigned b = 0; b < c->n; b++)
    free(c->succ[b]);
  for (unsigned l = 0; l < c->num_loops; l++)
    free(c->loops[l].body);
  free(c->loops);
  free(c->succ);
  free(c->num_succ);
  free(c->blocks);
  free(c->index_of);
  free(c->rpo);
  free(c->rpo_number);
  free(c->loop_of);
  gac_cfg_free(&c->g);
  memset(c, 0, sizeof *c);
}

unsigned ca_path(const ca_cfg *c, unsigned a, unsigned b, const bool *avoid, unsigned *out, unsigned max) {
  unsigned *from = xcalloc(c->n, sizeof *from), *queue = xcalloc(c->n, sizeof *queue), head = 0, tail = 0;
  for (unsigned i = 0; i < c->n; i++)
    from[i] = UINT32_MAX;
  from[a] = a;
  queue[tail++] = a;
  while (head < tail && from[b] == UINT32_MAX) {
    unsigned x = queue[head++];
    if (x != a && avoid && avoid[x])
      continue;
    for (unsigned k = 0; k < c->num_succ[x]; k++)
      if (from[c->succ[x][k]] == UINT32_MAX) {
        from[c->succ[x][k]] = x;
        queue[tail++] = c->succ[x][k];
      }
  }
  unsigned len = 0;
  if (from[b] != UINT32_MAX) {
    for (unsigned x = b;; x = from[x]) {
      len++;
      if (x == a)
        break;
    }
    unsigned kept = len < max ? len : max, pos = len;
    for (unsigned x = b;; x = from[x]) {
      pos--;
      if (pos < kept)
        out[pos] = x;
      if (x == a)
        break;
    }
    len = kept;
  }
  free(from);
  free(queue);
  return len;
}

/* What taking the edge into `target` of conditional branch t says: n >= bound. */
static bool edge_bound(const ca_cfg *c, const gac_inst *t, uint32_t target, uint32_t n, bool is_signed,
                       uint64_t *bound) {
  const gac_inst *cmp = gac_def(c->m, t->words[1]);
  if (!cmp || cmp->num_words != 5 || t->words[2] == t->words[3])
    return false;
  bool taken = target == t->words[2];
  uint64_t k;
  bool n_left = cmp->words[3] == n && gac_constant_value(c->m, cmp->words[4], &k);
  bool n_right = cmp->words[4] == n && gac_constant_value(c->m, cmp->words[3], &k);
  if (!n_left && !n_right)
    return false;
  enum { GE, GT, LE, LT } rel;
  switch (cmp->opcode) {
  case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual: rel = GE; break;
  case SpvOpUGreaterThan: case SpvOpSGreaterThan: rel = GT; break;
  case SpvOpULessThanEqual: case SpvOpSLessThanEqual: rel = LE; break;
  case SpvOpULessThan: case SpvOpSLessThan: rel = LT; break;
  default: return false;
  }
  bool signed_cmp = cmp->opcode == SpvOpSGreaterThanEqual || cmp->opcode == SpvOpSGreaterThan ||
                    cmp->opcode == SpvOpSLessThanEqual || cmp->opcode == SpvOpSLessThan;
  const gac_inst *kt = gac_value_type(c->m, n_left ? cmp->words[4] : cmp->words[3]);
  unsigned w = kt && kt->opcode == SpvOpTypeInt ? kt->words[2] : 64;
  if (signed_cmp != is_signed || (is_signed && w >= 1 && w <= 64 && (k >> (w - 1)) & 1))
    return false; /* a negative signed bound says nothing useful */
  static const int flip[] = {[GE] = LE, [GT] = LT, [LE] = GE, [LT] = GT};   /* k R n is n flip(R) k */
  static const int negate[] = {[GE] = LT, [GT] = LE, [LE] = GT, [LT] = GE}; /* the branch not taken */
  if (n_right)
    rel = flip[rel];
  if (!taken)
    rel = negate[rel];
  if (rel == GE) {
    *bound = k;
    return true;
  }
  if (rel == GT && k != UINT64_MAX) {
    *bound = k + 1;
    return true;
  }
  return false;
}

bool ca_guard_at_least(const ca_cfg *c, unsigned block, uint32_t n, bool is_signed, uint64_t *min) {
  bool found = false;
  for (unsigned b = block, guard = 0; guard < c->n; guard++) {
    unsigned r = c->rpo_number[b], preds = 0, pred = 0;
    for (unsigned k = 0; r != UINT32_MAX && k < c->g.num_pred[r]; k++)
      if (!preds || c->rpo[c->g.pred[r][k]] != pred) /* a switch may list one twice, side by side */
        preds++, pred = c->rpo[c->g.pred[r][k]];
    gac_inst *t = preds == 1 ? gac_block_terminator(c->blocks[pred]) : NULL;
    uint64_t bound;
    if (t && t->opcode == SpvOpBranchConditional && t->num_words >= 4 &&
        edge_bound(c, t, gac_block_label(c->blocks[b]), n, is_signed, &bound) && (!found || bound > *min)) {
      *min = bound;
      found = true;
    }
    if (r == UINT32_MAX || r == 0)
      break;
    b = c->rpo[c->g.idom[r]];
  }
  return found;
}

int ca_parent_loop(const ca_cfg *g, int l) {
  const ca_loop *L = &g->loops[l];
  int parent = -1;
  for (unsigned p = 0; p < g->num_loops; p++)
    if ((int)p != l && g->loops[p].body[L->header] && g->loops[p].body_size > L->body_size &&
        (parent < 0 || g->loops[p].body_size < g->loops[parent].body_size))
      parent = (int)p;
  return parent;
}
