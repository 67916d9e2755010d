/* Orders each function's blocks so that every block comes after its
 * dominator, as SPIR-V's validation rules ask (llvm-spirv-15 emits some
 * rotated loops with the latch before the inner loop that dominates it). */
#include <stdlib.h>

#include "gac/cfg.h"

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
  }
  return progress;
}
