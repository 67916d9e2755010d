/* What every step of --pipeline-loops asks of the pipeliner
 * (pipeline_loops_internal.h): its errors, its markers' words, its blocks
 * by CFG index, and constants and arithmetic of the loop counter's type.
 * The bottom of the pipeliner's files: it calls none of them. */
#include <stdarg.h>
#include <stdio.h>

#include "gac/cfg.h"
#include "lower_util.h"
#include "pipeline_loops_internal.h"

bool pipeline_fail(pipeliner *P, const gac_inst *at, const char *rule, const char *fmt, ...) {
  char text[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  gac_diag_add(P->diag, GAC_ERROR, at ? at->offset : GAC_NO_OFFSET, at ? at->result_id : 0, rule,
               "cannot pipeline the loop: %s", text);
  return false;
}

uint32_t pipeline_marker_word(const gac_module *m, const gac_inst *i, unsigned w) {
  return gac_def(m, i->words[w])->words[3]; /* validated: a 32-bit OpConstant */
}

gac_block *pipeline_block_at(const pipeliner *P, unsigned index) { return P->cfg.blocks[index]; }

unsigned pipeline_block_index(const pipeliner *P, const gac_inst *i) {
  return (unsigned)gac_cfg_index_of_block(&P->cfg, gac_inst_block(i));
}

uint32_t pipeline_iv_const(pipeliner *P, uint64_t v) { return gac_constant_int(P->m, P->iv_type, v); }

uint32_t pipeline_op2(pipeliner *P, gac_builder *b, uint16_t op, uint32_t x, uint32_t y) {
  return lower_op2(b, op, P->iv_type, x, y);
}
