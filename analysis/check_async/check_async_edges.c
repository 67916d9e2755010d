/* Edges for --check-async: phis rename event groups; entering a loop's
 * first iteration, going round and leaving change the context and forget
 * or rebase what the loop's values made known; branches on loop counters
 * and guards restrict ranges; a state moves from a block's end to each
 * successor's start (propagate). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check_async_dataflow.h"
#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/check_async.h"

/* The event phis of `to` rename the groups `from` named by their incoming values. */
static uint32_t phi_rename(const checker *c, unsigned from, unsigned to, uint32_t group) {
  uint32_t label = gac_block_label(c->cfg.blocks[from]);
  for (gac_inst *phi = c->cfg.blocks[to]->insts.first->next; phi && phi->opcode == SpvOpPhi; phi = phi->next)
    for (unsigned w = 3; w + 1 < phi->num_words; w += 2)
      if (phi->words[w + 1] == label && group &&
          ca_resolve_value(c, phi->words[w], gac_block_terminator(c->cfg.blocks[from])) == group)
        return phi->result_id;
  return 0;
}

/* Ids defined in loop l take new values when the loop is entered or goes round. */
static void forget_loop_values(checker *c, state *s, int l, unsigned from, unsigned to, bool back_edge) {
  const ca_loop *L = &c->cfg.loops[l];
  for (unsigned k = 0; k < s->nf; k++) {
    fact *f = &s->f[k];
    if (f->version.known && f->version.value.base && ca_defined_in_loop(&c->cfg, l, f->version.value.base)) {
      if (back_edge && f->version.value.base == L->k)
        f->version = gac_version_next_iteration(f->version, L->k);
      else
        f->version.known = false;
    }
    ca_part_forget(&c->cfg, &f->part, l, back_edge);
    uint32_t renamed = phi_rename(c, from, to, f->group);
    if (renamed)
      ca_rename_group(f, renamed);
    else if (f->group && ca_defined_in_loop(&c->cfg, l, f->group))
      f->group = 0;
    if (f->old_group && ca_defined_in_loop(&c->cfg, l, f->old_group))
      f->old_group = 0;
    if (f->held_var && f->held_var != HELD_SOMEWHERE && f->held_at.value.base &&
        ca_defined_in_loop(&c->cfg, l, f->held_at.value.base)) {
      if (back_edge && f->held_at.value.base == L->k)
        f->held_at = ca_canonical_index(gac_version_next_iteration(f->held_at, L->k), f->held_len);
      else
        f->held_var = HELD_SOMEWHERE;
    }
    if (f->must_if && ca_defined_in_loop(&c->cfg, l, f->must_if))
      f->must_if = 0;
    if (f->only_if && ca_defined_in_loop(&c->cfg, l, f->only_if))
      f->only_if = 0;
    if (back_edge && f->age < AGE_CAP)
      f->age++;
  }
  for (unsigned k = 0; k < s->nr;) {
    if (ca_defined_in_loop(&c->cfg, l, s->r[k].id))
      s->r[k] = s->r[--s->nr];
    else
      k++;
  }
  for (unsigned k = 0; k < s->na;) {
    if (ca_defined_in_loop(&c->cfg, l, s->a[k].id) ||
        (s->a[k].value.base && ca_defined_in_loop(&c->cfg, l, s->a[k].value.base)))
      s->a[k] = s->a[--s->na];
    else
      k++;
  }
  ca_state_normalize(s);
}

static gac_affine affine_value(const gac_module *m, uint32_t id, int64_t plus) {
  uint64_t v;
  return gac_constant_value(m, id, &v) ? (gac_affine){0, (int64_t)v + plus} : (gac_affine){id, plus};
}

/* In a first iteration with constant start and bound, whether the exit test leaves (1), stays (0) or -1. */
static int first_iteration_exit(const checker *c, const ca_loop *L) {
  uint64_t init, n;
  if (!L->has_exit_test || !gac_constant_value(c->m, L->init, &init) || !gac_constant_value(c->m, L->bound, &n))
    return -1;
  const gac_inst *t = gac_value_type(c->m, L->k);
  unsigned w = t && t->opcode == SpvOpTypeInt ? t->words[2] : 32;
  uint64_t mask = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
  uint64_t x = (init + (uint64_t)L->exit_offset) & mask;
  n &= mask;
  int64_t sx = (int64_t)(x << (64 - w)) >> (64 - w), sn = (int64_t)(n << (64 - w)) >> (64 - w);
  switch (L->compare) {
  case SpvOpULessThan: return !(x < n);
  case SpvOpSLessThan: return !(sx < sn);
  case SpvOpINotEqual: return x == n;
  case SpvOpUGreaterThanEqual: return x >= n;
  case SpvOpSGreaterThanEqual: return sx >= sn;
  case SpvOpIEqual: return x == n;
  default: return -1;
  }
}

/* k = value now (value a constant): a constant version c is k + (c - value),
 * a form that stays exact as k grows, so what the prologue wrote keeps its
 * version in later iterations. Only for a loop that copies: the versions
 * cycle with its counter, not with an inner loop's. */
static void rebase_constants(const checker *c, state *t, int l, uint64_t value) {
  const ca_loop *L = &c->cfg.loops[l];
  ca_remove_alias(t, L->k);
  ca_add_alias(t, L->k, (gac_affine){0, (int64_t)value});
  if (!c->loop_copies[l])
    return;
  for (unsigned k = 0; k < t->nf; k++)
    if (t->f[k].version.known && !t->f[k].version.value.base)
      t->f[k].version.value = (gac_affine){L->k, t->f[k].version.value.offset - (int64_t)value};
  ca_state_normalize(t);
}

/* id's value where s knows it: a constant, or an equality with one. */
static bool known_value(const checker *c, const state *s, uint32_t id, uint64_t *value) {
  if (gac_constant_value(c->m, id, value))
    return true;
  gac_version v = ca_resolve_version(s, (gac_version){true, {id, 0}});
  if (v.value.base || v.value.offset < 0)
    return false;
  *value = (uint64_t)v.value.offset;
  return true;
}

/* What taking edge b -> to says about an integer compared with a value s
 * knows (unsigned, or equality): t learns its range. False if the edge
 * cannot be taken. */
static bool learn_edge(const checker *c, const state *s, state *t, unsigned b, unsigned to) {
  const gac_inst *br = gac_block_terminator(c->cfg.blocks[b]);
  if (!br || br->opcode != SpvOpBranchConditional || br->num_words < 4 || br->words[2] == br->words[3])
    return true;
  const gac_inst *cmp = gac_def(c->m, br->words[1]);
  if (!cmp || cmp->num_words != 5)
    return true;
  uint64_t k, other;
  uint32_t x;
  bool x_left;
  if (known_value(c, s, cmp->words[4], &k) && !known_value(c, s, cmp->words[3], &other))
    x = cmp->words[3], x_left = true;
  else if (known_value(c, s, cmp->words[3], &k) && !known_value(c, s, cmp->words[4], &other))
    x = cmp->words[4], x_left = false;
  else
    return true;
  const gac_inst *ty = gac_value_type(c->m, x);
  unsigned w = ty && ty->opcode == SpvOpTypeInt ? ty->words[2] : 0;
  if (!w || w > 64)
    return true;
  uint64_t max = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
  k &= max;
  enum { LT, LE, GT, GE, EQ, NE } rel;
  switch (cmp->opcode) {
  case SpvOpULessThan: rel = LT; break;
  case SpvOpULessThanEqual: rel = LE; break;
  case SpvOpUGreaterThan: rel = GT; break;
  case SpvOpUGreaterThanEqual: rel = GE; break;
  case SpvOpIEqual: rel = EQ; break;
  case SpvOpINotEqual: rel = NE; break;
  default: return true;
  }
  static const int flip[] = {[LT] = GT, [LE] = GE, [GT] = LT, [GE] = LE, [EQ] = EQ, [NE] = NE};
  static const int negate[] = {[LT] = GE, [LE] = GT, [GT] = LE, [GE] = LT, [EQ] = NE, [NE] = EQ};
  if (!x_left)
    rel = flip[rel];
  if (gac_block_label(c->cfg.blocks[to]) != br->words[2])
    rel = negate[rel];
  switch (rel) {
  case LT: return k && ca_restrict_range(t, x, 0, k - 1);
  case LE: return ca_restrict_range(t, x, 0, k);
  case GT: return k < max && ca_restrict_range(t, x, k + 1, max);
  case GE: return ca_restrict_range(t, x, k, max);
  case EQ: return ca_restrict_range(t, x, k, k);
  default: return k == 0 ? ca_restrict_range(t, x, 1, max) : k == max ? ca_restrict_range(t, x, 0, max - 1) : true;
  }
}

/* The loop around loop l, or -1. */

/* Pushes `out` (the state at the end of block b in context ctx) along edge b -> s. */
bool ca_propagate_edge(checker *c, state *states, const state *out, unsigned b, unsigned ctx, unsigned s) {
  const ca_cfg *g = &c->cfg;
  int lb = g->loop_of[b], ls = g->loop_of[s];
  state t = {0};
  ca_state_copy(&t, out);
  unsigned targets = 1u << ctx; /* bit per context of s */
  unsigned later = ctx & CTX_LATER, outer = ctx & CTX_OUTER_LATER, left = 0;
  bool header = ls >= 0 && g->loops[ls].header == s;
  if (!learn_edge(c, out, &t, b, s)) {
    ca_state_free(&t);
    return false;
  }
  if (lb >= 0 && !later && g->loops[lb].has_exit_test && g->loops[lb].exit_block == b &&
      first_iteration_exit(c, &g->loops[lb]) == (s != g->loops[lb].exit_target)) {
    ca_state_free(&t);
    return false; /* the first iteration cannot take this edge */
  }
  /* Loops left on the way out, innermost first. */
  for (int l = lb; l >= 0 && !ca_in_loop(g, l, s);) {
    const ca_loop *L = &g->loops[l];
    /* Left in the first iteration of `x < n`: n <= init + offset. A guard
     * before the loop that says n >= init + offset makes it equal (more makes
     * this edge impossible): the pipeline with no iteration. */
    uint64_t init, min;
    if (l == lb && !later && L->has_exit_test && L->exit_block == b && s == L->exit_target &&
        (L->compare == SpvOpULessThan || L->compare == SpvOpSLessThan) && gac_constant_value(c->m, L->init, &init) &&
        !gac_constant_value(c->m, L->bound, &min) &&
        ca_guard_at_least(g, L->header, L->bound, L->compare == SpvOpSLessThan, &min)) {
      uint64_t last = init + (uint64_t)L->exit_offset;
      if (min > last) {
        ca_state_free(&t);
        return false;
      }
      /* k = init = n - offset: say it in n, as the later iterations' exit does. */
      if (min == last) {
        ca_remove_alias(&t, L->k);
        ca_add_alias(&t, L->k, (gac_affine){L->bound, -L->exit_offset});
        for (unsigned k = 0; k < t.nf; k++)
          if (t.f[k].version.known && !t.f[k].version.value.base)
            t.f[k].version.value = (gac_affine){L->bound, t.f[k].version.value.offset - (int64_t)last};
      }
    }
    /* Left the first iteration of a loop that starts at umin(n, cap) on
     * k < n: umin(n, cap) >= n, so n <= cap and k = n. */
    if (l == lb && !later && L->init_is_min && L->exit_block == b && s == L->exit_target) {
      ca_remove_alias(&t, L->k);
      ca_add_alias(&t, L->k, (gac_affine){L->bound, 0});
      if (!ca_restrict_range(&t, L->bound, 0, L->cap)) {
        ca_state_free(&t);
        return false;
      }
    }
    /* Left after going round: the test held the iteration before, so k + offset = n now. */
    if (l == lb && later && L->has_exit_test && L->exit_block == b && s == L->exit_target &&
        L->compare != SpvOpIEqual && L->compare != SpvOpINotEqual)
      ca_add_alias(&t, L->k, affine_value(c->m, L->bound, -L->exit_offset));
    if (L->has_exit_test && L->exit_block == b && s == L->exit_target &&
        (L->compare == SpvOpIEqual || L->compare == SpvOpINotEqual))
      ca_add_alias(&t, L->k, affine_value(c->m, L->bound, -L->exit_offset));
    /* What is relative to the loop's values is said in what they equal now. */
    for (unsigned k = 0; k < t.nf; k++) {
      if (t.f[k].version.known && t.f[k].version.value.base &&
          ca_defined_in_loop(g, l, t.f[k].version.value.base))
        t.f[k].version = ca_resolve_version(&t, t.f[k].version);
      if (t.f[k].part.known && t.f[k].part.slot.base && ca_defined_in_loop(g, l, t.f[k].part.slot.base))
        ca_part_resolve(&t, &t.f[k].part);
    }
    ca_state_normalize(&t);
    l = ca_parent_loop(g, l);
    left++;
  }
  /* Into the body of a loop that starts at umin(n, cap) on k < n: the start was cap. */
  if (lb >= 0 && !later && g->loops[lb].init_is_min && b == g->loops[lb].header && ca_in_loop(g, lb, s) &&
      s != g->loops[lb].exit_target) {
    rebase_constants(c, &t, lb, g->loops[lb].cap);
    if (g->loops[lb].cap == UINT64_MAX || !ca_restrict_range(&t, g->loops[lb].bound, g->loops[lb].cap + 1, UINT64_MAX)) {
      ca_state_free(&t);
      return false;
    }
  }
  /* Past every loop, the paths where the loop left went round or not stay
   * apart; back in the enclosing loop, its iteration is what entered this
   * one, and what entered it is no longer known. */
  if (left && ls < 0) /* a loop that does not copy (the epilogue's reads) keeps what came before it */
    targets = left == 1 && !c->loop_copies[lb] ? 1u << (outer >> 1) : 1u << later;
  else if (left == 1 && c->loop_copies[ls]) /* its iteration is what entered this loop */
    targets = 1u << (outer >> 1) | 1u << ((outer >> 1) | CTX_OUTER_LATER);
  else if (left == 1) /* the loop that copies is the same */
    targets = 1u << outer | 1u << (outer | CTX_LATER);
  else if (left)
    targets = (1u << NCTX) - 1;
  if (header && ca_in_loop(g, ls, b)) {
    forget_loop_values(c, &t, ls, b, s, true);
    targets = 1u << (outer | CTX_LATER);
  } else if (header) {
    const ca_loop *L = &g->loops[ls];
    forget_loop_values(c, &t, ls, b, s, false);
    uint64_t init;
    if (L->k && gac_constant_value(c->m, L->init, &init))
      rebase_constants(c, &t, ls, init);
    else if (L->k)
      ca_add_alias(&t, L->k, affine_value(c->m, L->init, 0));
    targets = lb >= 0 && !c->loop_copies[lb] ? 1u << outer : 1u << (later ? CTX_OUTER_LATER : 0);
  } else {
    for (unsigned k = 0; k < t.nf; k++) {
      uint32_t renamed = phi_rename(c, b, s, t.f[k].group);
      if (renamed)
        ca_rename_group(&t.f[k], renamed);
    }
    ca_state_normalize(&t);
  }
  bool changed = false;
  for (unsigned k = 0; k < NCTX; k++)
    if (targets & (1u << k))
      changed |= ca_state_join(&states[NCTX * s + k], &t);
  ca_state_free(&t);
  return changed;
}

void ca_transfer_block(checker *c, state *s, unsigned b, bool eval, unsigned ctx) {
  gac_foreach_inst(i, &c->cfg.blocks[b]->insts) ca_transfer_inst(c, s, i, eval, ctx, b);
}
