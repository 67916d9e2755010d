/* sm_90: fence.proxy.async.shared::cta exactly where generic writes of
 * local memory can precede an async-proxy read of it (seed 002, TileLang's
 * InjectFenceProxy). A bulk store reads local memory through the async
 * proxy; stores, atomics and cp.async (not bulk) write it through the
 * generic proxy. The copy lowering puts a fence before the barrier that
 * precedes every bulk store; this pass keeps only those that a generic
 * write can reach without a fence in between:
 *
 *   forward dataflow, one bit "generic writes since the last fence";
 *   join: or (branches, loops); a kernel starts clean, another function
 *   dirty (its caller may have written); a call of anything but gac's own
 *   PTX functions makes it dirty (conservative on unknown calls). */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/ptx.h"
#include "lower_util.h"

static const char *import_name(const gac_module *m, uint32_t function) {
  gac_foreach_inst(d, &m->sections[GAC_SECTION_ANNOTATION]) {
    if (d->opcode == SpvOpDecorate && d->num_words >= 4 && d->words[1] == function &&
        d->words[2] == SpvDecorationLinkageAttributes)
      return gac_inst_string(d, 2);
  }
  return NULL;
}

static bool writes_local(const gac_module *m, uint32_t pointer) {
  const gac_inst *type = gac_value_type(m, pointer);
  return type && type->opcode == SpvOpTypePointer && type->words[2] == SpvStorageClassWorkgroup;
}

typedef enum effect { NONE, DIRTY, FENCE } effect;

static effect effect_of(const gac_module *m, const gac_inst *i) {
  switch (i->opcode) {
  case SpvOpStore:
  case SpvOpCopyMemory:
  case SpvOpCopyMemorySized:
    return writes_local(m, gac_operand_word(i, 0)) ? DIRTY : NONE;
  case SpvOpGroupAsyncCopy:
    return DIRTY;
  case SpvOpFunctionCall: {
    uint32_t callee = gac_operand_word(i, 2);
    const gac_inst *def = gac_def(m, callee);
    const gac_function *f = def ? gac_inst_function(def) : NULL;
    const char *name = f && !f->first_block ? import_name(m, callee) : NULL;
    if (!name || strncmp(name, "__gac_", 6) != 0)
      return DIRTY;
    if (strcmp(name, GAC_PTX_FENCE_PROXY_ASYNC) == 0)
      return FENCE;
    /* cp.async (not bulk) writes through the generic proxy. */
    size_t len = strlen(GAC_PTX_CP_ASYNC_PREFIX);
    return strncmp(name, GAC_PTX_CP_ASYNC_PREFIX, len) == 0 && name[len] >= '0' && name[len] <= '9' ? DIRTY : NONE;
  }
  default:
    /* Atomics that write: the pointer follows the result, or comes first (OpAtomicStore). */
    if (i->opcode > SpvOpAtomicLoad && i->opcode <= SpvOpAtomicXor)
      return writes_local(m, gac_operand_word(i, i->result_id ? 2 : 0)) ? DIRTY : NONE;
    return NONE;
  }
}

static bool is_kernel(const gac_module *m, const gac_function *f) {
  gac_foreach_inst(e, &m->sections[GAC_SECTION_ENTRY_POINT]) {
    if (e->num_words > 2 && e->words[2] == f->def->result_id)
      return true;
  }
  return false;
}

static void fences_of(gac_lowering *L, gac_function *f) {
  gac_module *m = L->m;
  size_t n = 0;
  gac_foreach_block(b, f) n++;
  if (n == 0)
    return;
  gac_block **blocks = malloc(n * sizeof *blocks);
  uint8_t *in = calloc(n, 1), *reached = calloc(n, 1);
  uint32_t *index_of = calloc(m->bound, sizeof *index_of);
  size_t k = 0;
  gac_foreach_block(b, f) {
    index_of[gac_block_label(b)] = (uint32_t)k;
    blocks[k++] = b;
  }
  in[0] = !is_kernel(m, f);
  reached[0] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (k = 0; k < n; k++) {
      if (!reached[k])
        continue;
      uint8_t dirty = in[k];
      gac_foreach_inst(i, &blocks[k]->insts) {
        effect e = effect_of(m, i);
        dirty = e == DIRTY ? 1 : e == FENCE ? 0 : dirty;
      }
      gac_block *succ[64];
      unsigned ns = gac_block_successors(m, blocks[k], succ, 64);
      for (unsigned s = 0; s < ns; s++) {
        uint32_t j = index_of[gac_block_label(succ[s])];
        if (!reached[j] || (dirty && !in[j])) {
          reached[j] = 1;
          in[j] |= dirty;
          changed = true;
        }
      }
    }
  }
  for (k = 0; k < n; k++) {
    uint8_t dirty = in[k];
    for (gac_inst *i = blocks[k]->insts.first, *next; i; i = next) {
      next = i->next;
      effect e = effect_of(m, i);
      if (e == FENCE && !dirty)
        gac_inst_remove(m, i); /* nothing generic to order before the async proxy */
      dirty = e == DIRTY ? 1 : e == FENCE ? 0 : dirty;
    }
  }
  free(blocks);
  free(in);
  free(reached);
  free(index_of);
}

void lower_ptx_fences(gac_lowering *L) {
  gac_foreach_function(f, L->m) fences_of(L, f);
}
