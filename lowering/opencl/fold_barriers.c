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
 * (docs/results/POCL.md). The two barriers are the same synchronisation
 * on every path, so any device gains or loses nothing by it. */
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

/* The barrier that starts b, or NULL. */
static gac_inst *leading_barrier(const gac_module *m, const gac_block *b) {
  gac_inst *i = b->insts.first ? b->insts.first->next : NULL;
  while (i && i->opcode != SpvOpControlBarrier && passes(m, i))
    i = i->next;
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
      gac_inst *mine = trailing_barrier(m, b), *into = leading_barrier(m, next);
      if (mine && into && mine != into && opencl_merge_barrier(m, mine, into)) {
        gac_inst_remove(m, mine);
        progress = true;
      }
    }
  }
  return progress;
}
