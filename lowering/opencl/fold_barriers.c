/* Barriers folded across a branch, in the OpenCL target's output.
 *
 * A work-group barrier X that ends a block (only instructions that compute
 * a value after it, lower_is_pure) whose terminator is an unconditional
 * OpBranch, to a block that starts with a barrier Y (only phis and such
 * instructions before it), orders nothing Y does not: every work-item that
 * passes X meets Y next, with no access to memory between. X goes and Y
 * orders both semantics (opencl_merge_barrier). Y still runs on the
 * block's other paths, with at least its own ordering.
 *
 * The shape comes from the pipeliner (pipeline_emit.c): an epilogue step
 * guarded by "if an iteration is left" ends in the kernel's own barrier,
 * and the wait after the guard is a barrier in the lowerings whose waits
 * are barriers (cooperative, leader, serial, auto). PoCL splits its
 * work-item loops at every barrier and meets one inside a branch by
 * peeling and replicating regions: without the barrier in the branch,
 * PoCL 3.1 compiled pipelined-s3's matmul in 1.9 s instead of 2.6 s
 * (docs/results/POCL.md). Under late a wait is a call of the runtime,
 * whose first instruction is a barrier: the fold looks through a call that
 * starts the block, and folds into the callee's barrier only where that
 * orders all the folded one did (its other callers keep it as it is). */
#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "lower_util.h"
#include "opencl_lowering.h"

bool opencl_merge_barrier(gac_module *m, const gac_inst *mine, gac_inst *into) {
  enum { ORDERING = 0x1e, SEQUENTIALLY_CONSISTENT = 0x10 };
  uint64_t exec[2], scope[2], sem[2];
  if (!into || into->opcode != SpvOpControlBarrier || into->num_words != 4 || mine->opcode != SpvOpControlBarrier ||
      mine->num_words != 4 || !gac_constant_value(m, mine->words[1], &exec[0]) ||
      !gac_constant_value(m, into->words[1], &exec[1]) || !gac_constant_value(m, mine->words[2], &scope[0]) ||
      !gac_constant_value(m, into->words[2], &scope[1]) || !gac_constant_value(m, mine->words[3], &sem[0]) ||
      !gac_constant_value(m, into->words[3], &sem[1]) || exec[0] != exec[1] || scope[0] != scope[1])
    return false;
  uint64_t both = sem[0] | sem[1];
  if ((sem[0] & ORDERING) != (sem[1] & ORDERING))
    both = (both & ~(uint64_t)ORDERING) | SEQUENTIALLY_CONSISTENT;
  if (both != sem[1])
    into->words[3] = gac_constant_int(m, gac_value_type(m, into->words[3])->result_id, both);
  return true;
}

/* Whether barrier a orders all that barrier b does: the same scopes and
 * b's memory semantics within a's. */
static bool covers(const gac_module *m, const gac_inst *a, const gac_inst *b) {
  uint64_t va[3], vb[3];
  for (int k = 0; k < 3; k++)
    if (a->num_words != 4 || b->num_words != 4 || !gac_constant_value(m, a->words[k + 1], &va[k]) ||
        !gac_constant_value(m, b->words[k + 1], &vb[k]))
      return false;
  return va[0] == vb[0] && va[1] == vb[1] && (va[2] | vb[2]) == va[2];
}

/* Debug lines and what computes a value: nothing a barrier orders. */
static bool passes(const gac_module *m, const gac_inst *i) {
  return i->opcode == SpvOpLine || i->opcode == SpvOpNoLine || i->opcode == SpvOpPhi || lower_is_pure(m, i);
}

/* The barrier that ends b before its terminator, or NULL. */
static gac_inst *trailing_barrier(const gac_module *m, const gac_block *b) {
  gac_inst *i = b->insts.last ? b->insts.last->prev : NULL;
  while (i && i->opcode != SpvOpLabel && i->opcode != SpvOpControlBarrier && passes(m, i))
    i = i->prev;
  return i && i->opcode == SpvOpControlBarrier ? i : NULL;
}

/* The barrier that starts b, or NULL; through a call that starts b, the
 * barrier that starts the callee (depth: how many calls deep already). */
static gac_inst *leading_barrier(const gac_module *m, const gac_block *b, int depth) {
  gac_inst *i = b->insts.first ? b->insts.first->next : NULL;
  while (i && i->opcode != SpvOpControlBarrier && i->opcode != SpvOpFunctionCall && passes(m, i))
    i = i->next;
  if (i && i->opcode == SpvOpFunctionCall && depth < 4) {
    const gac_inst *callee = gac_def(m, i->words[3]);
    gac_foreach_function(f, m) {
      if (f->def == callee)
        return f->first_block ? leading_barrier(m, f->first_block, depth + 1) : NULL;
    }
    return NULL;
  }
  return i && i->opcode == SpvOpControlBarrier ? i : NULL;
}

bool opencl_fold_barriers(gac_module *m) {
  bool progress = false;
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      const gac_inst *branch = b->insts.last;
      if (!branch || branch->opcode != SpvOpBranch)
        continue;
      gac_inst *target = gac_def(m, branch->words[1]);
      gac_block *next = target && target->list ? gac_inst_block(target) : NULL;
      if (!next || next == b)
        continue;
      gac_inst *mine = trailing_barrier(m, b), *into = leading_barrier(m, next, 0);
      /* A callee's barrier runs for its other callers too: it takes mine
       * in only where it orders all mine does already. */
      if (!mine || !into || mine == into || (gac_inst_block(into)->function != f && !covers(m, into, mine)))
        continue;
      if (opencl_merge_barrier(m, mine, into)) {
        gac_inst_remove(m, mine);
        progress = true;
      }
    }
  }
  return progress;
}
