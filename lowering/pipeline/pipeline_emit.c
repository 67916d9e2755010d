/* Emission of a pipelined loop: each statement cloned once per step it
 * runs in (an instance), with the counter replaced by its iteration and
 * the multi-buffered arrays indexed by its version; steps guarded by the
 * trip count where n < S; prologue, body and epilogue joined to the code
 * after the loop, and the values that escape the loop carried out. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builder.h"
#include "gac/cfg.h"
#include "gac/validate.h"
#include "lower_util.h"
#include "lowering.h"
#include "pipeline_loops_internal.h"
#include "pipeline_schedule.h"

/* ---- Emission ----------------------------------------------------------- */

typedef struct instance {
  pipeliner *P;
  unsigned stmt;
  uint32_t *map;      /* old id -> new id (0: unchanged); size: bound at start */
  uint32_t map_size;
  uint32_t iteration; /* the iteration index j (iv type) */
} instance;

static uint32_t map_id(void *user, uint32_t id) {
  instance *I = user;
  return id < I->map_size && I->map[id] ? I->map[id] : id;
}


static void set_map(instance *I, uint32_t from, uint32_t to) {
  if (from < I->map_size)
    I->map[from] = to;
}

/* An instance of statement s for iteration j, its counter (and the counter
 * after its step) built at b. */
static instance instance_begin(pipeliner *P, gac_builder *b, unsigned s, uint32_t j) {
  instance I = {P, s, calloc(P->m->bound, sizeof(uint32_t)), P->m->bound, j};
  uint32_t i = pipeline_op2(P, b, SpvOpIAdd, P->init, pipeline_op2(P, b, SpvOpIMul, j, pipeline_iv_const(P, P->step)));
  set_map(&I, P->iv->result_id, i);
  set_map(&I, P->inc, pipeline_op2(P, b, SpvOpIAdd, i, pipeline_iv_const(P, P->step)));
  return I;
}

/* Recomputes a pure value from outside statement s (and what it needs) at
 * the end of b, once per instance. */
/* Does the pure value id (from before the loop) point into a versioned array? */
static bool derives_from_version(const pipeliner *P, uint32_t id, unsigned depth) {
  gac_inst *d = gac_def(P->m, id);
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (P->buffers[k].base_ptr && P->buffers[k].base_ptr == id)
      return true;
  if (!d || depth > 16 || !gac_inst_function(d) || !pipeline_is_pure(P, d))
    return false;
  for (unsigned k = (d->type_id != 0) + 1; k < d->num_operands; k++)
    if (d->operands[k].kind == GAC_OPERAND_ID && derives_from_version(P, gac_operand_word(d, k), depth + 1))
      return true;
  return false;
}

static void recompute(instance *I, gac_builder *b, uint32_t id) {
  pipeliner *P = I->P;
  if (map_id(I, id) != id || (pipeline_region_of_id(P, id) == -2 && !derives_from_version(P, id, 0)))
    return;
  gac_inst *d = gac_def(P->m, id);
  if (!d || d->opcode == SpvOpLabel || d->opcode == SpvOpPhi || !pipeline_is_pure(P, d))
    return;
  for (unsigned k = (d->type_id != 0) + 1; k < d->num_operands; k++)
    if (d->operands[k].kind == GAC_OPERAND_ID)
      recompute(I, b, gac_operand_word(d, k));
  set_map(I, id, gac_module_new_id(P->m));
  gac_list_append(P->m, b->list, gac_inst_clone(P->m, d, map_id, I));
}

/* ---- Wide copies (--pipeline-loops=wide-copies) ------------------------- */

/* A copy of 1-, 2-, 4- or 8-byte elements takes units of the widest size
 * its addresses, offsets and strides allow, chosen at run time
 * (lower_cooperative): in a loop every width's path stays in the body, with
 * addresses LLVM computes ahead and keeps live across it. Where each of a
 * copy's byte offsets and strides changes by a multiple of 16 from one
 * iteration to the next (pipeline_step_of), and so does its local array's
 * version, whether they are all 16-byte aligned is the same in every
 * iteration: tested once before the loop, the pipelined code issues the
 * copy in 16-byte elements, which targets that align units to elements
 * copy in 16-byte units alone (pipeline_loops.c: the loop as written runs
 * where the test fails). */

/* The operands a wide copy divides: its offsets, element counts and strides
 * (all in elements). */
static const size_t scaled_fields[] = {
    offsetof(gac_async_copy, source_offset),           offsetof(gac_async_copy, destination_offset),
    offsetof(gac_async_copy, num_elements_per_line),   offsetof(gac_async_copy, source_line_length),
    offsetof(gac_async_copy, destination_line_length), offsetof(gac_async_copy, source_plane_area),
    offsetof(gac_async_copy, destination_plane_area)};
enum { NUM_SCALED = sizeof scaled_fields / sizeof scaled_fields[0] };

static uint32_t *scaled_field(gac_async_copy *k, unsigned f) { return (uint32_t *)((char *)k + scaled_fields[f]); }

static bool is_wide(const pipeliner *P, uint32_t copy) {
  for (unsigned k = 0; k < P->num_wide; k++)
    if (P->wide[k] == copy)
      return true;
  return false;
}

/* Whether value_at can compute id for any iteration before the loop: built
 * from the counter, invariants and pure instructions of the loop. */
static bool recomputable(const pipeliner *P, uint32_t id, unsigned depth) {
  if (id == P->iv->result_id || id == P->inc || pipeline_region_of_id(P, id) == -2)
    return true;
  gac_inst *d = gac_def(P->m, id);
  if (!d || depth > 24 || d->opcode == SpvOpPhi || d->opcode == SpvOpLabel || !pipeline_is_pure(P, d))
    return false;
  for (unsigned k = (d->type_id != 0) + 1; k < d->num_operands; k++)
    if (d->operands[k].kind == GAC_OPERAND_ID && !recomputable(P, gac_operand_word(d, k), depth + 1))
      return false;
  return true;
}

/* Whether bytes = v x bpe changes by a multiple of 16 an iteration. */
static bool steps_by_16(const pipeliner *P, uint32_t v, uint64_t bpe) {
  int64_t c;
  uint32_t unit;
  return pipeline_step_of(P, v, &c, &unit, 0) && (uint64_t)c * bpe % 16 == 0 && recomputable(P, v, 0);
}

/* Whether a copy's pointer is the same in every iteration, up to a local
 * array's version (whose size must be a multiple of 16 bytes). */
static bool pointer_steps_by_16(const pipeliner *P, uint32_t ptr) {
  uint32_t root = pipeline_buffer_root(P, ptr);
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (root && P->buffers[k].var == root && P->buffers[k].versions > 1) {
      gac_inst *base = gac_def(P->m, P->buffers[k].base_ptr);
      gac_inst *ptr_type = base ? gac_def(P->m, base->type_id) : NULL;
      uint64_t elems = P->buffers[k].version_elems ? P->buffers[k].version_elems : 1; /* a version: [T] or N x T */
      if (!ptr_type || gac_type_bytes(P->m, ptr_type->words[3]) * elems % 16 != 0)
        return false;
    }
  return !pipeline_defined_in_loop(P, ptr) || recomputable(P, ptr, 0);
}

static uint32_t to_size(pipeliner *P, gac_builder *b, uint32_t v) {
  gac_inst *t = gac_def(P->m, gac_def(P->m, v)->type_id);
  if (t && t->opcode == SpvOpTypePointer)
    return gac_build_ops(b, SpvOpConvertPtrToU, P->L.size_type, GAC_NEW_ID, GAC_ID(v))->result_id;
  if (gac_def(P->m, v)->type_id != P->L.size_type)
    return gac_build_ops(b, SpvOpUConvert, P->L.size_type, GAC_NEW_ID, GAC_ID(v))->result_id;
  return v;
}

uint32_t pipeline_wide_copies(pipeliner *P, gac_builder *b) {
  gac_module *m = P->m;
  P->num_wide = 0;
  uint32_t any = 0;
  /* Each copy's pointers, offsets and strides in bytes in the first
   * iteration (aligned there, aligned in all), recomputed before the loop. */
  instance first = instance_begin(P, b, 0, pipeline_iv_const(P, 0));
  for (unsigned x = 0; x < P->cfg.num_blocks; x++) {
    if (!P->in_loop[x] || P->region[x] < 0)
      continue;
    gac_foreach_inst(in, &pipeline_block_at(P, x)->insts) {
      gac_async_copy k;
      uint64_t bpe, known;
      if (!gac_async_copy_decode(m, in, &k) || !gac_constant_value(m, k.num_bytes_per_element, &bpe) ||
          (bpe != 1 && bpe != 2 && bpe != 4 && bpe != 8) || P->num_wide == MAX_WIDE)
        continue;
      bool ok = pointer_steps_by_16(P, k.source) && pointer_steps_by_16(P, k.destination);
      for (unsigned f = 0; f < NUM_SCALED && ok; f++) {
        uint32_t v = *scaled_field(&k, f);
        ok = !v || (steps_by_16(P, v, bpe) && !(gac_constant_value(m, v, &known) && known * bpe % 16 != 0));
      }
      if (!ok)
        continue;
      /* Apart, not summed: the wide copy adds them up in 16-byte elements. */
      uint32_t size_bpe = gac_constant_int(m, P->L.size_type, bpe), terms[2 + NUM_SCALED];
      unsigned n = 0;
      terms[n++] = k.source;
      terms[n++] = k.destination;
      for (unsigned f = 0; f < NUM_SCALED; f++)
        if (*scaled_field(&k, f))
          terms[n++] = *scaled_field(&k, f);
      for (unsigned t = 0; t < n; t++) {
        recompute(&first, b, terms[t]);
        uint32_t bytes = to_size(P, b, map_id(&first, terms[t]));
        if (t >= 2)
          bytes = lower_op2(b, SpvOpIMul, P->L.size_type, bytes, size_bpe);
        any = any ? lower_op2(b, SpvOpBitwiseOr, P->L.size_type, any, bytes) : bytes;
      }
      P->wide[P->num_wide++] = in->result_id;
    }
  }
  free(first.map);
  if (!any)
    return 0;
  uint32_t low = lower_op2(b, SpvOpBitwiseAnd, P->L.size_type, any, gac_constant_int(m, P->L.size_type, 15));
  return lower_op2(b, SpvOpIEqual, P->L.bool_type, low, gac_constant_int(m, P->L.size_type, 0));
}

/* The clone of a wide copy, in 16-byte elements: its element counts,
 * offsets and strides divided by 16 / its element's bytes (exactly, under
 * the wide version's test). */
static void widen_copy(pipeliner *P, gac_inst *copy) {
  gac_module *m = P->m;
  gac_async_copy k;
  uint64_t bpe, known;
  if (!gac_async_copy_decode(m, copy, &k) || !gac_constant_value(m, k.num_bytes_per_element, &bpe))
    return;
  gac_builder b = gac_builder_before(m, copy);
  k.num_bytes_per_element = gac_constant_int(m, gac_def(m, k.num_bytes_per_element)->type_id, 16);
  for (unsigned f = 0; f < NUM_SCALED; f++) {
    uint32_t *v = scaled_field(&k, f);
    if (!*v)
      continue;
    /* A constant stays one: the lowerings decide by constant line sizes
     * (sm_90: which lines may be bulk copies). */
    uint32_t type = gac_def(m, *v)->type_id;
    *v = gac_constant_value(m, *v, &known) ? gac_constant_int(m, type, known / (16 / bpe))
                                           : lower_op2(&b, SpvOpUDiv, type, *v, gac_constant_int(m, type, 16 / bpe));
  }
  gac_async_copy_store(m, copy, &k);
}

/* Emits statement s for the iteration `j` at the end of *cur; *cur becomes
 * the block after it. carried[] holds the statement's carried values in and
 * gets them out. chain: the event an earlier statement of the same group
 * waited for (0 if none); returns the event this statement waits for. */
uint32_t pipeline_emit_instance(pipeliner *P, gac_block **cur, unsigned s, uint32_t j, uint32_t *carried_vals,
                                uint32_t chain, bool commits, uint32_t guard) {
  gac_module *m = P->m;
  gac_builder b = gac_builder_at_end(m, &(*cur)->insts);
  /* The counter and the carried values of this iteration. */
  instance I = instance_begin(P, &b, s, j);
  for (unsigned k = 0; k < P->num_carried; k++)
    if (P->carried[k].owner == (int)s)
      set_map(&I, P->carried[k].phi->result_id, carried_vals[k]);
  if (chain)
    set_map(&I, P->null_event, chain);
  /* Versions of the arrays: entry pointer -> this iteration's version. */
  for (unsigned k = 0; k < P->num_buffers; k++) {
    buffer_info *bi = &P->buffers[k];
    if (bi->versions < 2 || !(bi->users >> s & 1))
      continue;
    uint32_t v = pipeline_op2(P, &b, SpvOpUMod, j, pipeline_iv_const(P, bi->versions));
    /* base: &a[0], or &a[0][0] for a helper's __local pointer; here &a[v] or &a[v][0] */
    gac_inst *base = gac_def(m, bi->base_ptr);
    uint32_t ptr = base->num_operands > 4
                       ? gac_build_ops(&b, SpvOpInBoundsAccessChain, base->type_id, GAC_NEW_ID,
                                       GAC_ID(gac_operand_word(base, 2)), GAC_ID(v), GAC_ID(gac_operand_word(base, 4)))
                             ->result_id
                       : gac_build_ops(&b, SpvOpInBoundsAccessChain, base->type_id, GAC_NEW_ID,
                                       GAC_ID(gac_operand_word(base, 2)), GAC_ID(v))
                             ->result_id;
    set_map(&I, bi->base_ptr, ptr);
  }
  /* Fresh ids for everything the region defines, and its labels. */
  gac_block *blocks[MAX_STMT_BLOCKS];
  unsigned nb = 0;
  for (unsigned x = 0; x < P->cfg.num_blocks; x++)
    if (P->in_loop[x] && P->region[x] == (int)s)
      blocks[nb++] = pipeline_block_at(P, x); /* at most MAX_STMT_BLOCKS: find_statements */
  gac_block *news[MAX_STMT_BLOCKS], *after = gac_block_create(m, P->f, NULL);
  for (unsigned x = 0; x < nb; x++) {
    news[x] = gac_block_create(m, P->f, NULL);
    set_map(&I, gac_block_label(blocks[x]), gac_block_label(news[x]));
    gac_foreach_inst(in, &blocks[x]->insts) if (in->result_id && in->opcode != SpvOpLabel)
        set_map(&I, in->result_id, gac_module_new_id(m));
  }
  /* What the statement uses from other statements, recomputed here. */
  for (unsigned x = 0; x < nb; x++)
    gac_foreach_inst(in, &blocks[x]->insts) {
      for (unsigned k = (in->type_id != 0) + (in->result_id != 0); k < in->num_operands; k++)
        if (in->operands[k].kind == GAC_OPERAND_ID)
          recompute(&I, &b, gac_operand_word(in, k));
    }
  /* A guarded instance (an iteration that may not exist: the loop has
   * fewer iterations than the pipeline has stages) runs only if `guard`;
   * skipped, it still commits its group, empty, so that every wait count
   * stays exact. */
  gac_block *skip = NULL;
  if (guard) {
    skip = gac_block_create(m, P->f, NULL);
    gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(guard), GAC_ID(gac_block_label(news[0])),
                  GAC_ID(gac_block_label(skip)));
    gac_builder sb = gac_builder_at_end(m, &skip->insts);
    if (commits)
      gac_build_ops(&sb, SpvOpExtInst, P->void_type, GAC_NEW_ID, GAC_ID(P->pipeline_set), GAC_LIT(GAC_ASYNC_COMMIT),
                    GAC_ID(gac_constant_int(m, gac_type_int(m, 32, 0), P->stmts[s].stage)), GAC_ID(P->null_event));
    gac_build_ops(&sb, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(after)));
  } else {
    gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(news[0])));
  }
  /* Edges leaving the statement go to the block after it. */
  if (s + 1 < P->num_stmts)
    set_map(&I, gac_block_label(pipeline_block_at(P, P->stmts[s + 1].start)), gac_block_label(after));
  else
    set_map(&I, P->cfg.label_of[P->header], gac_block_label(after)),
        set_map(&I, P->cfg.label_of[P->exit_block], gac_block_label(after));
  uint32_t waited = 0;
  for (unsigned x = 0; x < nb; x++) {
    gac_builder nbld = gac_builder_at_end(m, &news[x]->insts);
    gac_foreach_inst(in, &blocks[x]->insts) {
      if (in->opcode == SpvOpLabel || pipeline_is_hint(in) || gac_async_pipeline_op_of(m, in))
        continue;
      if (in == P->stmts[s].wait) {
        /* The event the statement waited for: the value it stored last in
         * the block (so the group's copies stay chained by value), else a load. */
        uint32_t evar = map_id(&I, gac_operand_word(in, 2));
        waited = 0;
        for (gac_inst *st = news[x]->insts.last; st && !waited; st = st->prev)
          if (st->opcode == SpvOpStore && gac_operand_word(st, 0) == evar)
            waited = gac_operand_word(st, 1);
        if (!waited)
          waited = gac_build_ops(&nbld, SpvOpLoad, P->event_type, GAC_NEW_ID, GAC_ID(evar))->result_id;
        if (commits)
          gac_build_ops(&nbld, SpvOpExtInst, P->void_type, GAC_NEW_ID, GAC_ID(P->pipeline_set), GAC_LIT(GAC_ASYNC_COMMIT),
                        GAC_ID(gac_constant_int(m, gac_type_int(m, 32, 0), P->stmts[s].stage)), GAC_ID(waited));
        continue;
      }
      if (in->opcode == SpvOpBranchConditional && map_id(&I, gac_operand_word(in, 1)) == gac_block_label(after) &&
          map_id(&I, gac_operand_word(in, 2)) == gac_block_label(after)) {
        gac_build_ops(&nbld, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(after)));
        continue;
      }
      gac_list_append(m, nbld.list, gac_inst_clone(m, in, map_id, &I));
      if (P->emitting_wide && is_wide(P, in->result_id))
        widen_copy(P, nbld.list->last);
    }
  }
  if (guard) {
    /* The values the statement leaves, or on the skipped path what it was given. */
    gac_block *exit = NULL;
    for (unsigned x = 0; x < nb && !exit; x++) {
      unsigned targets[8];
      gac_inst *term = gac_block_terminator(news[x]);
      unsigned nt = term ? gac_terminator_targets(term, targets, 8) : 0;
      for (unsigned t = 0; t < nt; t++)
        if (gac_operand_word(term, targets[t]) == gac_block_label(after))
          exit = news[x];
    }
    gac_builder ab = gac_builder_at_end(m, &after->insts);
    for (unsigned k = 0; k < P->num_carried && exit; k++)
      if (P->carried[k].owner == (int)s)
        carried_vals[k] = gac_build_ops(&ab, SpvOpPhi, P->carried[k].phi->type_id, GAC_NEW_ID,
                                        GAC_ID(map_id(&I, P->carried[k].back)), GAC_ID(gac_block_label(exit)),
                                        GAC_ID(carried_vals[k]), GAC_ID(gac_block_label(skip)))->result_id;
    /* (A statement is a single-exit region: `exit` is its one way out.) */
    if (waited && exit)
      waited = gac_build_ops(&ab, SpvOpPhi, P->event_type, GAC_NEW_ID, GAC_ID(waited), GAC_ID(gac_block_label(exit)),
                             GAC_ID(P->null_event), GAC_ID(gac_block_label(skip)))->result_id;
    else if (!exit)
      waited = P->null_event;
  } else {
    for (unsigned k = 0; k < P->num_carried; k++)
      if (P->carried[k].owner == (int)s)
        carried_vals[k] = map_id(&I, P->carried[k].back);
  }
  free(I.map);
  *cur = after;
  return waited;
}

/* The number of iterations the loop makes once entered (see find_counter). */
uint32_t pipeline_trip_count(pipeliner *P, gac_builder *b) {
  bool is_signed = P->cmp == SpvOpSLessThan || P->cmp == SpvOpSLessThanEqual;
  uint32_t bool_type = P->L.bool_type, step = pipeline_iv_const(P, P->step);
  uint32_t diff = pipeline_op2(P, b, SpvOpISub, P->end, P->init), pos, n0;
  if (P->cmp == SpvOpINotEqual)
    return diff;
  if (P->cmp == SpvOpULessThan || P->cmp == SpvOpSLessThan) {
    pos = lower_op2(b, is_signed ? SpvOpSLessThan : SpvOpULessThan, bool_type, P->init, P->end);
    n0 = pipeline_op2(P, b, SpvOpUDiv, pipeline_op2(P, b, SpvOpIAdd, diff, pipeline_iv_const(P, P->step - 1)), step);
  } else {
    pos = lower_op2(b, is_signed ? SpvOpSLessThanEqual : SpvOpULessThanEqual, bool_type, P->init, P->end);
    n0 = pipeline_op2(P, b, SpvOpIAdd, pipeline_op2(P, b, SpvOpUDiv, diff, step), pipeline_iv_const(P, 1));
  }
  /* A loop tested at its latch runs once before the first test. */
  return gac_build_ops(b, SpvOpSelect, P->iv_type, GAC_NEW_ID, GAC_ID(pos), GAC_ID(n0),
                       GAC_ID(pipeline_iv_const(P, P->tests_inc ? 1 : 0)))->result_id;
}

static bool outside_use(const pipeliner *P, const gac_inst *user) {
  gac_block *ub = gac_inst_block(user);
  if (!ub || ub->function != P->f)
    return false;
  int x = gac_cfg_index_of_block(&P->cfg, ub);
  return x >= 0 && !P->in_loop[x];
}

bool pipeline_find_escapes(pipeliner *P, escape *out, unsigned *num) {
  gac_module *m = P->m;
  *num = 0;
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    if (!P->in_loop[b])
      continue;
    gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
      if (!i->result_id || i->opcode == SpvOpLabel)
        continue;
      bool escapes = false;
      for (gac_operand *u = gac_first_use(m, i->result_id); u && !escapes; u = u->next_use)
        escapes = outside_use(P, u->inst);
      if (!escapes)
        continue;
      escape e = {i->result_id, ESC_IV, 0};
      if (i == P->iv)
        e.kind = ESC_IV;
      else if (i->result_id == P->inc)
        e.kind = ESC_INC;
      else {
        bool found = false;
        for (unsigned k = 0; k < P->num_carried && !found; k++) {
          if (P->carried[k].phi == i && P->stmts[P->carried[k].owner].stage == 0)
            return pipeline_fail(P, i, "Pipeline.Escape", "%%%u, carried round the loop by a stage-0 statement, is used after "
                        "the loop; use the value it is updated to instead", i->result_id);
          else if (P->carried[k].phi == i)
            e = (escape){i->result_id, ESC_CARRIED_PHI, k}, found = true;
          else if (P->carried[k].back == i->result_id)
            e = (escape){i->result_id, ESC_CARRIED_BACK, k}, found = true;
        }
        if (!found)
          return pipeline_fail(P, i, "Pipeline.Escape", "%%%u, computed in the loop, is used after it; only the counter and "
                      "the values carried round the loop may be", i->result_id);
      }
      if (*num == 64)
        return pipeline_fail(P, i, "Pipeline.Escape", "more than 64 values of the loop are used after it");
      out[(*num)++] = e;
    }
  }
  return true;
}


static uint32_t guard_of(pipeliner *P, gac_builder *b, const step_guard *g, unsigned stage) {
  if (g->kind == GUARD_PROLOGUE && g->index - stage >= 1)
    return lower_op2(b, SpvOpULessThan, P->L.bool_type, pipeline_iv_const(P, g->index - stage), g->n);
  if (g->kind == GUARD_EPILOGUE && stage >= g->index + 2)
    return lower_op2(b, SpvOpUGreaterThanEqual, P->L.bool_type, g->n, pipeline_iv_const(P, stage - g->index));
  return 0;
}

/* One step of the schedule at t (an iteration-type id) at the end of *cur. */
void pipeline_emit_step(pipeliner *P, gac_block **cur, const gac_pipe_step *step, uint32_t t, uint32_t *vals,
                        uint32_t (*last_in)[MAX_CARRIED], const step_guard *g) {
  gac_module *m = P->m;
  uint32_t chain = 0;
  for (unsigned a = 0; a < step->num_actions; a++) {
    const gac_pipe_action *act = &step->actions[a];
    if (act->kind == GAC_PIPE_WAIT) {
      gac_builder b = gac_builder_at_end(m, &(*cur)->insts);
      uint32_t u32 = gac_type_int(m, 32, 0);
      gac_build_ops(&b, SpvOpExtInst, P->void_type, GAC_NEW_ID, GAC_ID(P->pipeline_set), GAC_LIT(GAC_ASYNC_WAIT),
                    GAC_ID(gac_constant_int(m, u32, act->queue)), GAC_ID(gac_constant_int(m, u32, act->count)));
    } else if (act->kind == GAC_PIPE_RUN) {
      unsigned s = act->statement;
      gac_builder b = gac_builder_at_end(m, &(*cur)->insts);
      uint64_t tv, stage = P->stmts[s].stage;
      uint32_t j =
          gac_constant_value(P->m, t, &tv) ? pipeline_iv_const(P, tv - stage) : pipeline_op2(P, &b, SpvOpISub, t, pipeline_iv_const(P, stage));
      bool commits = a + 1 < step->num_actions && step->actions[a + 1].kind == GAC_PIPE_COMMIT &&
                     step->actions[a + 1].statement == s;
      uint32_t guard = guard_of(P, &b, g, (unsigned)stage);
      /* last_in: the input of the statement's last instance that ran. */
      for (unsigned k = 0; last_in && k < P->num_carried; k++)
        if (P->carried[k].owner == (int)s)
          (*last_in)[k] = guard ? gac_build_ops(&b, SpvOpSelect, P->carried[k].phi->type_id, GAC_NEW_ID, GAC_ID(guard),
                                                GAC_ID(vals[k]), GAC_ID((*last_in)[k]))->result_id
                                : vals[k];
      uint32_t waited = pipeline_emit_instance(P, cur, s, j, vals, chain, commits, guard);
      chain = P->stmts[s].async && !commits ? waited : 0;
    }
  }
}

/* The loop's entry edge, moved to a new block (returned, empty): the
 * rewritten loop starts there; the loop as written is no longer reached. */
gac_block *pipeline_enter_new_code(pipeliner *P) {
  uint32_t H_label = gac_block_label(pipeline_block_at(P, P->header));
  gac_block *cur = gac_block_create(P->m, P->f, NULL);
  gac_inst *pt = gac_block_terminator(pipeline_block_at(P, P->preheader));
  for (unsigned k = 0; k < pt->num_operands; k++)
    if (pt->operands[k].kind == GAC_OPERAND_ID && gac_operand_word(pt, k) == H_label)
      gac_inst_set_id_operand(P->m, pt, k, gac_block_label(cur));
  return cur;
}

/* The pipelined code, ending in `cur`, meets the loop's original exit edge
 * (no longer reached) before the exit block; the values of the loop used
 * after it become those the pipelined code leaves: vals (after the last
 * iteration) and last_in (the input of the last one). */
void pipeline_join_exit(pipeliner *P, gac_block *cur, const escape *escapes, unsigned num_escapes, uint32_t n,
                        const uint32_t *vals, const uint32_t *last_in) {
  gac_module *m = P->m;
  gac_block *join = gac_block_create(m, P->f, NULL);
  gac_builder jb = gac_builder_at_end(m, &cur->insts);
  gac_build_ops(&jb, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  gac_block *E = pipeline_block_at(P, P->exiting), *X = pipeline_block_at(P, P->exit_block);
  gac_inst *et = gac_block_terminator(E);
  for (unsigned k = 0; k < et->num_operands; k++)
    if (et->operands[k].kind == GAC_OPERAND_ID && gac_operand_word(et, k) == gac_block_label(X))
      gac_inst_set_id_operand(m, et, k, gac_block_label(join));
  gac_builder jp = gac_builder_at_end(m, &join->insts);
  uint32_t finals[64];
  for (unsigned x = 0; x < num_escapes; x++) {
    const escape *es = &escapes[x];
    uint32_t v;
    gac_builder fb = gac_builder_at_end(m, &cur->insts);
    fb.before = gac_block_terminator(cur);
    if (es->kind == ESC_IV || es->kind == ESC_INC)
      v = pipeline_op2(P, &fb, SpvOpIAdd, P->init,
              pipeline_op2(P, &fb, SpvOpIMul, es->kind == ESC_IV ? pipeline_op2(P, &fb, SpvOpISub, n, pipeline_iv_const(P, 1)) : n,
                  pipeline_iv_const(P, P->step)));
    else
      v = es->kind == ESC_CARRIED_BACK ? vals[es->carried] : last_in[es->carried];
    finals[x] = gac_build_ops(&jp, SpvOpPhi, gac_def(m, es->id)->type_id, GAC_NEW_ID, GAC_ID(es->id),
                              GAC_ID(gac_block_label(E)), GAC_ID(v), GAC_ID(gac_block_label(cur)))->result_id;
  }
  gac_build_ops(&jp, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(X)));
  /* X's phis now come from join; other uses after the loop take the join's values. */
  for (gac_inst *phi = X->insts.first->next; phi && phi->opcode == SpvOpPhi; phi = phi->next)
    for (unsigned k = 3; k < phi->num_operands; k += 2)
      if (gac_operand_word(phi, k) == gac_block_label(E))
        gac_inst_set_id_operand(m, phi, k, gac_block_label(join));
  for (unsigned x = 0; x < num_escapes; x++)
    for (gac_operand *u = gac_first_use(m, escapes[x].id), *next; u; u = next) {
      next = u->next_use;
      if (outside_use(P, u->inst))
        gac_inst_set_id_operand(m, u->inst, (unsigned)(u - u->inst->operands), finals[x]);
    }
}
