/* sm_90: the ring of mbarriers that bulk copies complete on (docs/PTX.md,
 * after seed 004's Pipe_: a producer/consumer ring of depth d).
 *
 * Per function with global -> local copies: `ring`, a local ulong[d] of
 * mbarriers (each initialised once to an arrival count of 1), and two
 * Function counters, c (groups committed) and w (groups waited for); every
 * work-item keeps the same values, as the instructions are met by the whole
 * work-group. Group g completes on ring[g mod d]: the elected work-item
 * (linear id 0) adds each bulk copy's bytes to it (expect_tx) before issuing
 * the copy, and arrives on it at the commit, so the phase completes when
 * the commit was made and every byte has landed. Waiting for group g is a
 * wait for phase parity (g / d) & 1 of that mbarrier, by every work-item.
 *
 * What must hold before this is emitted, checked here by construction:
 * the depth is within the hardware-independent bound (2..16; more in-flight
 * groups than slots is handled by waiting early, never by reusing a slot
 * whose phase is pending: a copy that arms slot c mod d, and a commit, first
 * wait for group w when c - w == d); every wait has its arrive (waits cover groups [w, c - M) with
 * c - M <= c, all committed); and all work-items have seen a phase before
 * the slot is re-armed (a barrier follows every wait). */
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "gac/ptx.h"
#include "ptx_lowering.h"

enum { MAX_DEPTH = 16 };

struct gac_ptx_ring {
  gac_function *f;
  uint32_t ring, committed, waited; /* variables */
  uint32_t depth;                   /* a size-type constant */
  uint32_t ulong_ptr;               /* pointer to local ulong */
  struct gac_ptx_ring *next;
};

static uint32_t load(gac_lowering *L, gac_builder *b, uint32_t var) {
  return gac_build_ops(b, SpvOpLoad, L->size_type, GAC_NEW_ID, GAC_ID(var))->result_id;
}

static void store(gac_builder *b, uint32_t var, uint32_t value) {
  gac_build_ops(b, SpvOpStore, 0, 0, GAC_ID(var), GAC_ID(value));
}

static void branch(gac_builder *b, gac_block *to) {
  gac_build_ops(b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(to)));
}

static void branch_if(gac_builder *b, uint32_t cond, gac_block *yes, gac_block *no) {
  gac_build_ops(b, SpvOpBranchConditional, 0, 0, GAC_ID(cond), GAC_ID(gac_block_label(yes)),
                GAC_ID(gac_block_label(no)));
}

/* The mbarrier of group g. */
static uint32_t slot_of(gac_lowering *L, gac_ptx_ring *r, gac_builder *b, uint32_t g) {
  uint32_t index = lower_op2(b, SpvOpUMod, L->size_type, g, r->depth);
  return gac_build_ops(b, SpvOpAccessChain, r->ulong_ptr, GAC_NEW_ID, GAC_ID(r->ring), GAC_ID(index))->result_id;
}

static void mbar_call(gac_lowering *L, gac_ptx_ring *r, gac_builder *b, const char *name, uint32_t mbar) {
  lower_call(L, b, name, 1, &r->ulong_ptr, &mbar);
}

/* Every work-item waits for group g to complete. */
static void wait_group(gac_lowering *L, gac_ptx_ring *r, gac_builder *b, uint32_t g) {
  uint32_t phase = lower_op2(b, SpvOpUDiv, L->size_type, g, r->depth);
  uint32_t parity = lower_to_u32(L, b, lower_op2(b, SpvOpBitwiseAnd, L->size_type, phase, L->one));
  uint32_t types[2] = {r->ulong_ptr, gac_type_int(L->m, 32, 0)}, args[2] = {slot_of(L, r, b, g), parity};
  lower_call(L, b, GAC_PTX_MBAR_WAIT, 2, types, args);
}

/* Moves `at` and what follows into a new block; returns the block before it,
 * left without a terminator. */
static gac_block *split_before(gac_lowering *L, gac_inst *at, gac_block **rest) {
  gac_block *pre = gac_inst_block(at);
  *rest = gac_block_split_after(L->m, at->prev);
  return pre;
}

/* `pre` gets: if (linear id == 0) goto elected else goto join; returns the
 * builder of `elected`, which the caller ends with a branch to join. */
static gac_builder elect(gac_lowering *L, gac_block *pre, gac_block *join, gac_block **elected) {
  gac_builder b = gac_builder_at_end(L->m, &pre->insts);
  uint32_t id, size;
  lower_linear_local_id(L, &b, pre->function, &id, &size);
  *elected = gac_block_create(L->m, pre->function, pre);
  branch_if(&b, lower_op2(&b, SpvOpIEqual, L->bool_type, id, L->zero), *elected, join);
  return gac_builder_at_end(L->m, &(*elected)->insts);
}

gac_ptx_ring *lower_ptx_ring_create(gac_lowering *L, gac_function *f, unsigned depth) {
  gac_module *m = L->m;
  depth = depth < 2 ? 2 : depth > MAX_DEPTH ? MAX_DEPTH : depth;
  gac_ptx_ring *r = calloc(1, sizeof *r);
  r->f = f;
  r->depth = gac_constant_int(m, L->size_type, depth);
  uint32_t ulong = lower_ulong_type(m);
  r->ulong_ptr = gac_type_pointer(m, SpvStorageClassWorkgroup, ulong);
  uint32_t array = gac_type_array(m, ulong, gac_constant_int(m, gac_type_int(m, 32, 0), depth));
  gac_builder g = gac_builder_at_end(m, &m->sections[GAC_SECTION_GLOBAL]);
  r->ring = gac_build_ops(&g, SpvOpVariable, gac_type_pointer(m, SpvStorageClassWorkgroup, array), GAC_NEW_ID,
                          GAC_LIT(SpvStorageClassWorkgroup))->result_id;
  gac_builder n = gac_builder_at_end(m, &m->sections[GAC_SECTION_DEBUG_NAME]);
  gac_build_ops(&n, SpvOpName, 0, 0, GAC_ID(r->ring), GAC_STR("__gac_mbarriers"));
  if (m->version >= 0x00010400)
    gac_add_to_interfaces(m, r->ring);
  /* The counters, at the top of the entry block with its other variables. */
  gac_inst *first = gac_function_after_variables(f);
  gac_builder v = gac_builder_before(m, first);
  /* Set by stores, not initialisers: llvm-spirv-15 turns a Function
   * variable with an initialiser into a module-scope global, which on a GPU
   * every thread would share. */
  uint32_t size_ptr = gac_type_pointer(m, SpvStorageClassFunction, L->size_type);
  r->committed = gac_build_ops(&v, SpvOpVariable, size_ptr, GAC_NEW_ID, GAC_LIT(SpvStorageClassFunction))->result_id;
  r->waited = gac_build_ops(&v, SpvOpVariable, size_ptr, GAC_NEW_ID, GAC_LIT(SpvStorageClassFunction))->result_id;
  store(&v, r->committed, L->zero);
  store(&v, r->waited, L->zero);
  /* Initialisation by the elected work-item, seen by all after the barrier. */
  gac_block *join;
  gac_block *pre = split_before(L, first, &join), *init;
  gac_builder e = elect(L, pre, join, &init);
  for (unsigned k = 0; k < depth; k++) {
    uint32_t index = gac_constant_int(m, L->size_type, k);
    mbar_call(L, r, &e, GAC_PTX_MBAR_INIT,
              gac_build_ops(&e, SpvOpAccessChain, r->ulong_ptr, GAC_NEW_ID, GAC_ID(r->ring), GAC_ID(index))->result_id);
  }
  lower_call(L, &e, GAC_PTX_MBAR_INIT_FENCE, 0, NULL, NULL);
  branch(&e, join);
  gac_builder j = gac_builder_before(m, join->insts.first->next);
  lower_workgroup_barrier(L, &j);
  r->next = ptx_state(L)->rings;
  ptx_state(L)->rings = r;
  return r;
}

gac_ptx_ring *lower_ptx_ring_of(const gac_lowering *L, const gac_function *f) {
  for (gac_ptx_ring *r = ptx_state(L)->rings; r; r = r->next)
    if (r->f == f)
      return r;
  return NULL;
}

uint32_t lower_ptx_ring_slot(gac_lowering *L, gac_ptx_ring *r, gac_builder *b) {
  return slot_of(L, r, b, load(L, b, r->committed));
}

gac_block *lower_ptx_ring_make_room(gac_lowering *L, gac_ptx_ring *r, gac_block *b) {
  gac_module *m = L->m;
  gac_block *make_room = gac_block_create(m, b->function, b);
  gac_block *cont = gac_block_create(m, b->function, make_room);
  gac_builder e = gac_builder_at_end(m, &b->insts);
  uint32_t c = load(L, &e, r->committed), w = load(L, &e, r->waited);
  uint32_t full = lower_op2(&e, SpvOpIEqual, L->bool_type, lower_op2(&e, SpvOpISub, L->size_type, c, w), r->depth);
  branch_if(&e, full, make_room, cont);
  gac_builder mr = gac_builder_at_end(m, &make_room->insts);
  wait_group(L, r, &mr, w);
  lower_workgroup_barrier(L, &mr);
  store(&mr, r->waited, lower_add(L, &mr, w, L->one));
  branch(&mr, cont);
  return cont;
}

void lower_ptx_ring_commit(gac_lowering *L, gac_ptx_ring *r, gac_inst *at) {
  gac_module *m = L->m;
  gac_block *rest;
  gac_block *push = lower_ptx_ring_make_room(L, r, split_before(L, at, &rest));
  gac_block *join = gac_block_create(m, push->function, push), *arrive;
  gac_builder a = elect(L, push, join, &arrive);
  uint32_t c = load(L, &a, r->committed);
  mbar_call(L, r, &a, GAC_PTX_MBAR_ARRIVE, slot_of(L, r, &a, c));
  branch(&a, join);
  gac_builder j = gac_builder_at_end(m, &join->insts);
  store(&j, r->committed, lower_add(L, &j, load(L, &j, r->committed), L->one));
  branch(&j, rest);
}

void lower_ptx_ring_wait(gac_lowering *L, gac_ptx_ring *r, gac_inst *at, uint32_t n) {
  gac_module *m = L->m;
  gac_block *rest;
  gac_block *pre = split_before(L, at, &rest);
  gac_block *done = gac_block_create(m, pre->function, pre);
  gac_builder b = gac_builder_at_end(m, &pre->insts);
  uint32_t c = load(L, &b, r->committed), w = load(L, &b, r->waited);
  uint32_t some_older = lower_op2(&b, SpvOpUGreaterThan, L->bool_type, c, n);
  uint32_t target = gac_build_ops(&b, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(some_older),
                                  GAC_ID(lower_op2(&b, SpvOpISub, L->size_type, c, n)), GAC_ID(L->zero))->result_id;
  gac_loop lp = lower_loop_open(L, pre, done, w, target, 0, 0);
  gac_builder body = gac_builder_at_end(m, &lp.body->insts);
  wait_group(L, r, &body, lp.counter);
  lower_loop_close(L, &lp, lp.body, L->one);
  gac_builder d = gac_builder_at_end(m, &done->insts);
  uint32_t later = lower_op2(&d, SpvOpUGreaterThan, L->bool_type, target, w);
  store(&d, r->waited, gac_build_ops(&d, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(later), GAC_ID(target),
                                     GAC_ID(w))->result_id);
  branch(&d, rest);
}

void lower_ptx_rings_free(gac_lowering *L) {
  while (ptx_state(L)->rings) {
    gac_ptx_ring *next = ptx_state(L)->rings->next;
    free(ptx_state(L)->rings);
    ptx_state(L)->rings = next;
  }
}
