/* The waits of the PTX target (docs/PTX.md), written for the counted waits
 * (counted_waits.c: the counts). On sm_80 the copies are per-thread
 * cp.async, and all queues share the one hardware queue of cp.async
 * groups, whose wait count must be an immediate:
 *
 *   AsyncCommit(q, e)  -> __gac_cp_async_commit()        (cp.async.commit_group)
 *   AsyncWait(q, N)    -> __gac_cp_async_wait(M); barrier (cp.async.wait_group M)
 *   OpGroupWaitEvents  -> __gac_cp_async_wait_all(); barrier, or only the
 *                         barrier where no copy the wait may wait for is
 *                         in flight
 *
 * wait_group M leaves at most M groups in flight; a wait_all counts as one
 * more group (it commits an empty one). The barrier makes the other
 * threads' copies visible: cp.async groups are per thread.
 *
 * On sm_90 a function with copies that may be bulk copies gets a ring of
 * mbarriers (lower_ptx_ring.c) holding the groups that may be in flight at
 * once, on which the same groups are counted: a commit also arrives, a
 * wait also waits for the ring's groups older than the M newest; where the
 * module may have bulk stores, every wait also completes them
 * (cp.async.bulk.wait_group 0). */
#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/ptx.h"
#include "ptx_lowering.h"

static void call0(gac_lowering *L, gac_builder *b, const char *name) { lower_call(L, b, name, 0, NULL, NULL); }

/* Whether f has a copy that may be bulk copies, global -> local (`load`:
 * on sm_90 f then gets a ring) or local -> global (its waits then wait
 * for bulk stores). */
static bool has_bulk(const gac_lowering *L, const gac_function *f, bool load) {
  const gac_module *m = L->m;
  gac_foreach_block(b, f) {
    gac_foreach_inst(i, &b->insts) {
      uint32_t dst, src;
      if (!lower_copy_ends(m, i, &dst, &src))
        continue;
      if ((load ? lower_global_to_local(m, dst, src) : lower_global_to_local(m, src, dst)) &&
          lower_ptx_may_bulk(L, i) && !lower_ptx_ws_producer_copy(L, i))
        return true;
    }
  }
  return false;
}

/* A wait may be in another function than the bulk store it waits for (an
 * event passed or returned): any in the module makes every wait complete
 * them. */
static void begin(gac_lowering *L, bool *tighten) {
  (void)tighten;
  ptx_lowering *P = ptx_state(L);
  P->bulk_stores = false;
  gac_foreach_function(f, L->m) P->bulk_stores |= P->sm90 && has_bulk(L, f, false);
}

/* sm_90: the ring holds the groups that may be in flight at once. */
static void begin_function(gac_lowering *L, gac_function *f, uint32_t deepest) {
  ptx_lowering *P = ptx_state(L);
  P->ring = P->sm90 && has_bulk(L, f, true) ? lower_ptx_ring_create(L, f, deepest + 1) : NULL;
}

static void commit(gac_lowering *L, gac_builder *b, const lower_wait *w) {
  call0(L, b, GAC_PTX_COMMIT);
  if (ptx_state(L)->ring)
    lower_ptx_ring_commit(L, ptx_state(L)->ring, w->inst);
}

static void wait(gac_lowering *L, gac_builder *b, uint32_t count, uint32_t queue, uint32_t n) {
  (void)queue, (void)n;
  uint32_t uint = gac_type_int(L->m, 32, 0), types[1] = {uint};
  uint32_t args[1] = {gac_constant_int(L->m, uint, count)};
  lower_call(L, b, GAC_PTX_WAIT, 1, types, args);
}

static void wait_all(gac_lowering *L, gac_builder *b) { call0(L, b, GAC_PTX_WAIT_ALL); }

/* The ring: an OpGroupWaitEvents commits what is pending, then waits for
 * all; a wait waits until at most its count are in flight. */
static void after_wait(gac_lowering *L, const lower_wait *w, uint32_t cond) {
  gac_module *m = L->m;
  gac_ptx_ring *r = ptx_state(L)->ring;
  if (!r)
    return;
  if (w->op != GAC_ASYNC_WAIT)
    lower_ptx_ring_commit(L, r, w->inst);
  uint32_t in_flight = gac_constant_int(m, L->size_type, w->op == GAC_ASYNC_WAIT ? w->count : 0);
  if (cond) {
    gac_builder s = gac_builder_before(m, w->inst);
    in_flight = gac_build_ops(&s, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(cond), GAC_ID(in_flight),
                              GAC_ID(gac_constant_int(m, L->size_type, w->count2)))->result_id;
  }
  lower_ptx_ring_wait(L, r, w->inst, in_flight);
}

static void barrier(gac_lowering *L, gac_builder *b) {
  if (ptx_state(L)->bulk_stores)
    call0(L, b, GAC_PTX_BULK_WAIT);
  lower_workgroup_barrier(L, b);
}

const lower_wait_emitter lower_ptx_waits = {
    .begin = begin,
    .begin_function = begin_function,
    .commit = commit,
    .wait = wait,
    .wait_all = wait_all,
    .after_wait = after_wait,
    .barrier = barrier,
};
