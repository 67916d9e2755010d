/* Repairs two layout rules that llvm-spirv-15's modules break:
 *  - each function's blocks are ordered so that every block comes after its
 *    dominator (llvm-spirv-15 emits some rotated loops with the latch before
 *    the inner loop that dominates it);
 *  - a function's OpVariables come first in its first block (llvm-spirv-15
 *    writes the OpBitcast of a constant-expression bitcast of an alloca
 *    right after that alloca's OpVariable, before the next one: seen on
 *    bench/cuda/sgemm_fast.cl, whose accumulator array LLVM memsets). */
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "gac/cfg.h"

/* Moves the OpVariables of f's first block that follow other instructions
 * up to the front (after OpLabel and the OpVariables already there), in
 * their order; true if one moved. An OpVariable has no operand defined in
 * the function (its initializer is a constant or a global), so the move
 * keeps every definition before its uses. */
static bool hoist_variables(gac_module *m, gac_function *f) {
  gac_inst_list *insts = &f->first_block->insts;
  gac_inst *front = insts->first ? insts->first->next : NULL; /* after OpLabel */
  while (front && front->opcode == SpvOpVariable)
    front = front->next;
  bool progress = false;
  for (gac_inst *i = front, *next; i; i = next) {
    next = i->next;
    if (i->opcode != SpvOpVariable)
      continue;
    gac_inst_remove(m, i);
    gac_list_insert_before(m, insts, front, i);
    progress = true;
  }
  return progress;
}

bool gac_sort_blocks(gac_module *m, const char *arg, gac_diag *diag) {
  (void)arg;
  (void)diag;
  bool progress = false;
  gac_foreach_function(f, m) {
    if (!f->first_block)
      continue;
    size_t n = 0;
    gac_foreach_block(b, f) n++;
    gac_block **order = malloc(n * sizeof *order);
    n = 0;
    gac_foreach_block(b, f) order[n++] = b;
    gac_function_sort_blocks(m, f);
    size_t k = 0;
    gac_foreach_block(b, f) progress = progress || order[k++] != b;
    free(order);
    progress = hoist_variables(m, f) || progress;
  }
  return progress;
}
