/* The control-flow graph --check-async walks: successors, reverse
 * post-order, dominators (Cooper, Harvey, Kennedy), natural loops with
 * their counters and exit tests. */
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

static void add_successors(ca_cfg *c, unsigned b) {
  gac_inst *t = gac_block_terminator(c->blocks[b]);
  c->succ[b] = xcalloc(t ? t->num_operands : 1, sizeof(unsigned));
  if (!t)
    return;
  for (unsigned i = 0; i < t->num_operands; i++) {
    if (t->operands[i].kind != GAC_OPERAND_ID)
      continue;
    uint32_t id = gac_operand_word(t, i);
    if (id >= c->m->bound || !c->index_of[id])
      continue;
    unsigned s = c->index_of[id] - 1;
    bool seen = false;
    for (unsigned k = 0; k < c->num_succ[b]; k++)
      seen |= c->succ[b][k] == s;
    if (!seen)
      c->succ[b][c->num_succ[b]++] = s;
  }
}

/* Reverse post-order by an explicit stack. */
static void order(ca_cfg *c) {
  unsigned *stack = xcalloc(c->n, sizeof *stack), *next = xcalloc(c->n, sizeof *next);
  unsigned char *mark = xcalloc(c->n, 1); /* 0 new, 1 on stack, 2 done */
  unsigned *post = xcalloc(c->n, sizeof *post), np = 0, sp = 0;
  stack[sp++] = 0;
  mark[0] = 1;
  while (sp) {
    unsigned b = stack[sp - 1];
    if (next[b] < c->num_succ[b]) {
      unsigned s = c->succ[b][next[b]++];
      if (!mark[s]) {
        mark[s] = 1;
        stack[sp++] = s;
      }
    } else {
      mark[b] = 2;
      post[np++] = b;
      sp--;
    }
  }
  c->num_rpo = np;
  for (unsigned i = 0; i < np; i++) {
    c->rpo[i] = post[np - 1 - i];
    c->rpo_number[c->rpo[i]] = i;
  }
  free(stack);
  free(next);
  free(mark);
  free(post);
}

static unsigned intersect(const ca_cfg *c, unsigned a, unsigned b) {
  while (a != b) {
    while (c->rpo_number[a] > c->rpo_number[b])
      a = c->idom[a];
    while (c->rpo_number[b] > c->rpo_number[a])
      b = c->idom[b];
  }
  return a;
}

static void dominators(ca_cfg *c) {
  for (unsigned i = 0; i < c->n; i++)
    c->idom[i] = UINT32_MAX;
  c->idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned r = 1; r < c->num_rpo; r++) {
      unsigned b = c->rpo[r], idom = UINT32_MAX;
      for (unsigned p = 0; p < c->n; p++) {
        if (c->idom[p] == UINT32_MAX)
          continue;
        for (unsigned k = 0; k < c->num_succ[p]; k++)
          if (c->succ[p][k] == b)
            idom = idom == UINT32_MAX ? p : intersect(c, p, idom);
      }
      if (idom != c->idom[b]) {
        c->idom[b] = idom;
        changed = true;
      }
    }
  }
}

bool ca_dominates(const ca_cfg *c, unsigned a, unsigned b) {
  if (c->rpo_number[b] == UINT32_MAX || c->rpo_number[a] == UINT32_MAX)
    return false;
  for (;;) {
    if (a == b)
      return true;
    if (b == 0 || c->idom[b] == b)
      return false;
    b = c->idom[b];
  }
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
    if ((add->words[3] == phi->result_id && ca_constant(c->m, add->words[4], &one) && one == 1) ||
        (add->words[4] == phi->result_id && ca_constant(c->m, add->words[3], &one) && one == 1)) {
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

static void find_loops(ca_cfg *c) {
  c->loops = xcalloc(c->n, sizeof *c->loops);
  unsigned *work = xcalloc(c->n, sizeof *work);
  for (unsigned r = 0; r < c->num_rpo; r++) {
    unsigned h = c->rpo[r];
    ca_loop *L = NULL;
    unsigned latches = 0, latch = 0;
    for (unsigned p = 0; p < c->n; p++) {
      for (unsigned k = 0; k < c->num_succ[p]; k++) {
        if (c->succ[p][k] != h || c->rpo_number[p] == UINT32_MAX)
          continue;
        if (!ca_dominates(c, h, p)) {
          if (c->rpo_number[p] >= c->rpo_number[h])
            c->irreducible = true; /* a retreating edge into a block that does not dominate it */
          continue;
        }
        if (!L) {
          L = &c->loops[c->num_loops++];
          L->header = h;
          L->body = xcalloc(c->n, sizeof(bool));
          L->body[h] = true;
          L->body_size = 1;
        }
        latches++;
        latch = p;
        /* The natural loop: everything that reaches the latch without passing the header. */
        unsigned nw = 0;
        if (!L->body[p]) {
          L->body[p] = true;
          L->body_size++;
          work[nw++] = p;
        }
        while (nw) {
          unsigned b = work[--nw];
          for (unsigned q = 0; q < c->n; q++)
            for (unsigned j = 0; j < c->num_succ[q]; j++)
              if (c->succ[q][j] == b && !L->body[q] && c->rpo_number[q] != UINT32_MAX) {
                L->body[q] = true;
                L->body_size++;
                work[nw++] = q;
              }
        }
      }
    }
    if (!L)
      continue;
    find_counter(c, L);
    find_exit_test(c, L, h);
    if (latches == 1)
      find_exit_test(c, L, latch);
  }
  free(work);
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
  c->idom = xcalloc(c->n, sizeof *c->idom);
  c->loop_of = xcalloc(c->n, sizeof *c->loop_of);
  for (unsigned b = 0; b < c->n; b++) {
    add_successors(c, b);
    c->rpo_number[b] = UINT32_MAX;
  }
  if (!c->n)
    return;
  order(c);
  dominators(c);
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
  free(c->idom);
  free(c->loop_of);
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
  bool n_left = cmp->words[3] == n && ca_constant(c->m, cmp->words[4], &k);
  bool n_right = cmp->words[4] == n && ca_constant(c->m, cmp->words[3], &k);
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
    unsigned preds = 0, pred = 0;
    for (unsigned p = 0; p < c->n; p++)
      for (unsigned k = 0; k < c->num_succ[p]; k++)
        if (c->succ[p][k] == b && c->rpo_number[p] != UINT32_MAX)
          preds++, pred = p;
    gac_inst *t = preds == 1 ? gac_block_terminator(c->blocks[pred]) : NULL;
    uint64_t bound;
    if (t && t->opcode == SpvOpBranchConditional && t->num_words >= 4 &&
        edge_bound(c, t, gac_block_label(c->blocks[b]), n, is_signed, &bound) && (!found || bound > *min)) {
      *min = bound;
      found = true;
    }
    if (b == 0 || c->idom[b] == b || c->idom[b] == UINT32_MAX)
      break;
    b = c->idom[b];
  }
  return found;
}
