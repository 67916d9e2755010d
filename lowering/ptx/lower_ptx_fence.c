/* sm_90: fence.proxy.async.shared::cta exactly where generic writes of
 * local memory can precede an async-proxy access to it (seed 002, TileLang's
 * InjectFenceProxy):
 *  - a bulk store reads local memory through the async proxy, after stores,
 *    atomics and cp.async (not bulk), which write it through the generic
 *    proxy: the copy lowering puts a fence before the barrier that precedes
 *    every bulk store;
 *  - a bulk load writes it through the async proxy, after such writes of
 *    the work-items (a tile they cleared, then a copy into it: the CTS's
 *    copy-fence kernels): the copy lowering puts a fence and a barrier
 *    before every bulk load (GAC_PTX_FENCE_PROXY_ASYNC_LOAD, then the
 *    barrier). A cp.async write is not counted here: it is one copy's, done
 *    when a wait covers it, and two copies in flight into the same bytes
 *    are the kernel's race.
 * This pass keeps only the fences that such a write can reach without a
 * fence in between, and with a load's fence its barrier:
 *
 *   forward dataflow, two bits: "generic writes since the last fence" and
 *   "work-items' own writes since the last fence"; join: or (branches,
 *   loops); a kernel starts clean, another function as its calls leave it
 *   (dirty if it has none: it may be called from outside); a call of a
 *   function of the module makes it dirty if that function (or one it
 *   calls) writes; a call of anything else but gac's own PTX functions
 *   makes it dirty (conservative on unknown calls). */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/ptx.h"
#include "ptx_lowering.h"

static bool writes_local(const gac_module *m, uint32_t pointer) {
  return lower_storage_class(m, pointer) == SpvStorageClassWorkgroup;
}

/* DIRTY: a work-item's write (both bits); COPY_WRITE: cp.async's (the store
 * bit only); FENCE, LOAD_FENCE: a fence (both bits clear), before a bulk
 * store, or before a bulk load and its barrier. */
typedef enum effect { NONE, DIRTY, COPY_WRITE, FENCE, LOAD_FENCE } effect;
enum { STORE_BIT = 1, LOAD_BIT = 2, BOTH = 3 };

/* The bits after an instruction of effect e. */
static uint8_t after(effect e, uint8_t dirty) {
  return e == DIRTY ? BOTH : e == COPY_WRITE ? (uint8_t)(dirty | STORE_BIT) : e == FENCE || e == LOAD_FENCE ? 0 : dirty;
}

/* What the pass knows of the module's functions, by id. */
typedef struct facts {
  const gac_module *m;
  uint8_t *writes;  /* a defined function that may write local memory generically (itself or in callees) */
  uint8_t *entry;   /* 0 unknown (no call seen yet), 1 clean, 2 dirty at entry */
} facts;

static gac_function *defined_callee(const gac_module *m, const gac_inst *call) {
  gac_function *f = lower_function_by_id(m, gac_operand_word(call, 2));
  return f && f->first_block ? f : NULL;
}

static effect effect_of(const facts *F, const gac_inst *i) {
  const gac_module *m = F->m;
  switch (i->opcode) {
  case SpvOpStore:
  case SpvOpCopyMemory:
  case SpvOpCopyMemorySized:
    return writes_local(m, gac_operand_word(i, 0)) ? DIRTY : NONE;
  case SpvOpGroupAsyncCopy:
    return DIRTY;
  case SpvOpFunctionCall: {
    uint32_t callee = gac_operand_word(i, 2);
    gac_function *f = defined_callee(m, i);
    if (f)
      return F->writes[callee] ? DIRTY : NONE;
    const char *name = gac_linkage_name(m, callee);
    if (!name || strncmp(name, "__gac_", 6) != 0)
      return DIRTY; /* unknown: conservative */
    if (strcmp(name, GAC_PTX_FENCE_PROXY_ASYNC) == 0)
      return FENCE;
    if (strcmp(name, GAC_PTX_FENCE_PROXY_ASYNC_LOAD) == 0)
      return LOAD_FENCE;
    /* cp.async (not bulk) writes through the generic proxy. */
    size_t len = strlen(GAC_PTX_CP_ASYNC_PREFIX);
    return strncmp(name, GAC_PTX_CP_ASYNC_PREFIX, len) == 0 && name[len] >= '0' && name[len] <= '9' ? COPY_WRITE
                                                                                                      : NONE;
  }
  default:
    /* Atomics that write: the pointer follows the result, or comes first (OpAtomicStore). */
    if (i->opcode > SpvOpAtomicLoad && i->opcode <= SpvOpAtomicXor)
      return writes_local(m, gac_operand_word(i, i->result_id ? 2 : 0)) ? DIRTY : NONE;
    return NONE;
  }
}

/* The dataflow over f from its entry state; records the state at each call
 * of a defined function into the callee's entry (true if one changed), and
 * with `apply`, removes the fences no write reaches. */
static bool flow(facts *F, gac_function *f, bool apply) {
  gac_module *m = (gac_module *)F->m;
  size_t n = 0;
  gac_foreach_block(b, f) n++;
  if (n == 0)
    return false; /* a declaration */
  gac_block **blocks = malloc(n * sizeof *blocks);
  uint8_t *in = calloc(n, 1), *reached = calloc(n, 1);
  uint32_t *index_of = calloc(m->bound, sizeof *index_of);
  size_t k = 0;
  gac_foreach_block(b, f) {
    index_of[gac_block_label(b)] = (uint32_t)k;
    blocks[k++] = b;
  }
  in[0] = F->entry[f->def->result_id] == 2 ? BOTH : 0;
  reached[0] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (k = 0; k < n; k++) {
      if (!reached[k])
        continue;
      uint8_t dirty = in[k];
      gac_foreach_inst(i, &blocks[k]->insts) dirty = after(effect_of(F, i), dirty);
      gac_block *succ[64];
      unsigned ns = gac_block_successors(m, blocks[k], succ, 64);
      for (unsigned s = 0; s < ns; s++) {
        uint32_t j = index_of[gac_block_label(succ[s])];
        if (!reached[j] || (dirty & ~in[j])) {
          reached[j] = 1;
          in[j] |= dirty;
          changed = true;
        }
      }
    }
  }
  bool callee_changed = false;
  for (k = 0; k < n; k++) {
    uint8_t dirty = in[k];
    for (gac_inst *i = blocks[k]->insts.first, *next; i; i = next) {
      next = i->next;
      effect e = effect_of(F, i);
      if (reached[k] && i->opcode == SpvOpFunctionCall && defined_callee(m, i)) {
        uint8_t *entry = &F->entry[gac_operand_word(i, 2)];
        uint8_t state = dirty ? 2 : 1;
        if (*entry < state) {
          *entry = state;
          callee_changed = true;
        }
      }
      /* Nothing generic to order before the async proxy: the fence goes,
       * and a load's barrier with it. */
      if (apply && e == FENCE && !(dirty & STORE_BIT) && reached[k]) {
        gac_inst_remove(m, i);
      } else if (apply && e == LOAD_FENCE && !(dirty & LOAD_BIT) && reached[k]) {
        if (next && next->opcode == SpvOpControlBarrier)
          next = next->next, gac_inst_remove(m, i->next);
        gac_inst_remove(m, i);
      }
      dirty = after(e, dirty);
    }
  }
  free(blocks);
  free(in);
  free(reached);
  free(index_of);
  return callee_changed;
}

void lower_ptx_fences(gac_lowering *L) {
  gac_module *m = L->m;
  facts F = {m, calloc(m->bound, 1), calloc(m->bound, 1)};
  /* Which functions write, through their calls too (a fixpoint). */
  for (bool changed = true; changed;) {
    changed = false;
    gac_foreach_function(f, m) {
      if (!f->first_block || F.writes[f->def->result_id])
        continue;
      bool w = false;
      gac_foreach_block(b, f) {
        gac_foreach_inst(i, &b->insts) w |= effect_of(&F, i) == DIRTY || effect_of(&F, i) == COPY_WRITE;
      }
      if (w)
        F.writes[f->def->result_id] = changed = true;
    }
  }
  /* Entry states: a kernel starts clean; a function as clean as every call
   * of it; one never called (from outside, maybe) dirty. */
  gac_foreach_function(f, m) if (f->first_block && gac_is_entry_point(m, f->def->result_id)) F.entry[f->def->result_id] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    gac_foreach_function(f, m) if (f->first_block && F.entry[f->def->result_id]) changed |= flow(&F, f, false);
  }
  gac_foreach_function(f, m) {
    if (!f->first_block)
      continue;
    if (!F.entry[f->def->result_id])
      F.entry[f->def->result_id] = 2;
    flow(&F, f, true);
  }
  free(F.writes);
  free(F.entry);
}
