/* AMDGCN ping-pong (--lower-async-copies=amdgcn,...,pingpong; Triton's AMD
 * BlockPingpong, ../shared/seeds/001): in a pipelined loop the two halves
 * of an 8-wave work-group run a phase apart, so that on each SIMD one wave
 * computes while the other waits for memory.
 *
 * A pipelined body has two barriers, the wait's and the one that ends it,
 * so two phases: the prefetch's LDS-direct loads, the commit and the
 * compute cluster (LDS reads and arithmetic); then, after the end barrier,
 * the wait's s_waitcnt for memory. Before the loop all loads are drained
 * and the work-group meets at a barrier; then waves 4-7 wait at one more
 * s_barrier, which waves 0-3 pass as the loop's first. From then on every
 * barrier pairs a phase of waves 0-3 with the phase before it of waves
 * 4-7: one half issues its prefetch and computes while the other waits for
 * memory. After the loop
 * waves 0-3 wait at one more s_barrier and the halves are aligned again.
 * The compute cluster runs at s_setprio 1, fenced by s_sched_barrier 0 so
 * that LLVM moves nothing across the boundaries.
 *
 * What the shift costs the program: a barrier now orders a phase of the
 * leading half only with the phase *before* it of the other. So a wave's
 * loads must be complete two barriers before another wave reads them, and
 * a buffer may be overwritten only two barriers after the last read of it.
 * Hence the conditions, each a remark where it fails:
 *   - reqd_work_group_size of 512 work-items: 8 waves, halves of 4;
 *   - one wait in the loop, AsyncWait(q, N) with N >= 1 (3 stages or
 *     more): it then waits for one group more than it names (the tile of
 *     the next step is complete a whole step before it is read; its marker
 *     still names N, what the reads need);
 *   - local memory written only by the loop's async copies (a store and a
 *     read one barrier apart would race), copies global -> local;
 *   - no barrier in the body but one after its last read of local memory,
 *     on every path to the latch: the prefetch into the buffer read in the
 *     step before then comes after both that barrier and the wait's;
 *   - one entry, from a block that only enters it, and one exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_pipeline.h"
#include "gac/cfg.h"
#include "amdgcn_lowering.h"

enum { WAVES = 8, WAVE = 64 };

/* f's name (OpName: llvm-spirv's kernels call a function of their name). */
static const char *function_name(const gac_module *m, const gac_function *f) {
  gac_foreach_inst(i, &m->sections[GAC_SECTION_DEBUG_NAME]) {
    if (i->opcode == SpvOpName && gac_operand_word(i, 0) == f->def->result_id)
      return gac_inst_string(i, 1);
  }
  return "a function";
}

static void call(gac_lowering *L, gac_builder *b, const char *name, uint32_t arg) {
  uint32_t uint = gac_type_int(L->m, 32, 0);
  lower_call(L, b, name, arg ? 1 : 0, &uint, &arg);
}

/* What one loop holds, and why it cannot ping-pong (NULL if it can). */
typedef struct loop_scan {
  unsigned waits, barriers, latches, exits, entries, latch;
  gac_inst *wait, *last_commit, *end_barrier;
  gac_block *exit;
  bool read_after_barrier; /* a load of local memory after the barrier, in the body */
  const char *why;
} loop_scan;

static bool writes_local(const gac_module *m, const gac_inst *i) {
  bool store = i->opcode == SpvOpStore || (i->opcode >= SpvOpAtomicStore && i->opcode <= SpvOpAtomicXor) ||
               i->opcode == SpvOpAtomicFMinEXT || i->opcode == SpvOpAtomicFMaxEXT || i->opcode == SpvOpAtomicFAddEXT;
  unsigned ptr = i->opcode == SpvOpStore || i->opcode == SpvOpAtomicStore ? 0 : 2;
  return store && lower_storage_class(m, gac_operand_word(i, ptr)) == SpvStorageClassWorkgroup;
}

static bool reads_local(const gac_module *m, const gac_inst *i) {
  return i->opcode == SpvOpLoad && lower_storage_class(m, gac_operand_word(i, 2)) == SpvStorageClassWorkgroup;
}

static loop_scan scan(gac_lowering *L, const gac_cfg *cfg, const bool *body, unsigned header) {
  gac_module *m = L->m;
  loop_scan s = {0};
  for (unsigned k = 0; k < cfg->num_blocks; k++) {
    if (!body[k])
      continue;
    for (unsigned j = 0; j < cfg->num_succ[k]; j++) {
      unsigned t = cfg->succ[k][j];
      if (t == header)
        s.latches++, s.latch = k;
      else if (!body[t] && (!s.exit || s.exit != cfg->blocks[t]))
        s.exits++, s.exit = cfg->blocks[t];
    }
    gac_foreach_inst(i, &cfg->blocks[k]->insts) {
      uint32_t op = gac_async_pipeline_op_of(m, i);
      gac_async_copy c;
      if (op == GAC_ASYNC_WAIT)
        s.waits++, s.wait = i;
      else if (op == GAC_ASYNC_COMMIT)
        s.last_commit = i; /* blocks in reverse post-order: the last is the latest */
      else if (i->opcode == SpvOpControlBarrier)
        s.barriers++, s.end_barrier = i;
      else if (writes_local(m, i) && !s.why)
        s.why = "the loop writes local memory other than by its async copies: with the halves a cluster apart, "
                "a store and a read one barrier later would race";
      else if ((gac_async_copy_decode(m, i, &c) && !lower_global_to_local(m, c.destination, c.source)) ||
               (i->opcode == SpvOpGroupAsyncCopy &&
                !lower_global_to_local(m, gac_operand_word(i, 3), gac_operand_word(i, 4))))
        s.why = s.why ? s.why : "the loop copies other than global -> local";
    }
  }
  /* What follows the barrier in the body: the rest of its block and the
   * blocks it dominates. */
  int at = s.end_barrier ? gac_cfg_index_of_block(cfg, gac_inst_block(s.end_barrier)) : -1;
  for (const gac_inst *i = s.end_barrier; i; i = i->next)
    s.read_after_barrier |= reads_local(m, i);
  for (unsigned k = 0; at >= 0 && k < cfg->num_blocks; k++) {
    if (!body[k] || k == (unsigned)at || !gac_cfg_dominates(cfg, (unsigned)at, k))
      continue;
    gac_foreach_inst(i, &cfg->blocks[k]->insts) s.read_after_barrier |= reads_local(m, i);
  }
  if (at < 0 || s.latches != 1 || !gac_cfg_dominates(cfg, (unsigned)at, s.latch))
    s.end_barrier = NULL;
  /* One entry, from a block that only enters: the drain and the extra
   * barrier there must run exactly when the loop (and its exit) runs. */
  for (unsigned j = 0; j < cfg->num_pred[header]; j++) {
    unsigned p = cfg->pred[header][j];
    if (!body[p])
      s.entries += cfg->num_succ[p] == 1 ? 1 : 2;
  }
  int exit = s.exit ? gac_cfg_index_of_block(cfg, s.exit) : -1;
  for (unsigned j = 0; exit >= 0 && j < cfg->num_pred[exit]; j++)
    s.exits += !body[cfg->pred[exit][j]]; /* entered from outside too: not only an exit */
  return s;
}

/* Why loop s cannot ping-pong in a work-group of `items` (0: not fixed). */
static const char *refuse(gac_lowering *L, const loop_scan *s, uint64_t items) {
  static char why[200];
  uint64_t q, n;
  if (!items)
    return "the kernel has no reqd_work_group_size: ping-pong needs 8 waves (512 work-items) in two halves";
  if (items != WAVES * WAVE) {
    snprintf(why, sizeof why, "its work-group has %llu work-items, not 512: ping-pong needs 8 waves in two halves",
             (unsigned long long)items);
    return why;
  }
  if (s->waits != 1)
    return "the loop has more than one wait";
  if (!gac_constant_value(L->m, s->wait->words[GAC_PIPELINE_QUEUE_WORD], &q) ||
      !gac_constant_value(L->m, s->wait->words[GAC_PIPELINE_VALUE_WORD], &n))
    return "its wait's queue or count is not a constant";
  if (n == 0)
    return "its wait leaves no group in flight (2 stages): with the halves a cluster apart a tile must be complete a "
           "step before it is read, which needs a group to spare (3 stages or more)";
  if (s->why)
    return s->why;
  if (!s->last_commit)
    return "the loop commits no group";
  if (!s->end_barrier || s->read_after_barrier)
    return "no barrier follows the loop body's last read of local memory on every path: the prefetch could "
           "overwrite a buffer the other half still reads";
  if (s->barriers != 1)
    return "the loop body has barriers between its clusters: each would pair phases of the halves that are a "
           "cluster apart";
  if (s->exits != 1 || s->entries != 1)
    return "the loop has more than one entry or exit, or is entered by a conditional branch (the halves' extra "
           "barriers must run exactly when the loop does)";
  return NULL;
}

/* The loop: drain-and-shift before it, the clusters' boundaries in it, the
 * realignment after it. */
static void apply(gac_lowering *L, const gac_cfg *cfg, const loop_scan *s, unsigned header, bool *tighten) {
  gac_module *m = L->m;
  gac_function *f = cfg->function;
  unsigned pre = header;
  for (unsigned j = 0; j < cfg->num_pred[header]; j++)
    if (!gac_cfg_dominates(cfg, header, cfg->pred[header][j]))
      pre = cfg->pred[header][j];
  gac_builder b = gac_builder_before(m, cfg->blocks[pre]->insts.last);
  uint32_t id, size;
  lower_linear_local_id(L, &b, f, &id, &size);
  call(L, &b, GAC_AMDGCN_PINGPONG_ENTER, lower_to_u32(L, &b, id));
  gac_inst *first = s->exit->insts.first->next; /* after OpLabel */
  while (first && first->opcode == SpvOpPhi)
    first = first->next;
  gac_builder e = gac_builder_before(m, first);
  lower_linear_local_id(L, &e, f, &id, &size);
  call(L, &e, GAC_AMDGCN_PINGPONG_EXIT, lower_to_u32(L, &e, id));
  gac_builder c = gac_builder_before(m, s->last_commit->next);
  call(L, &c, GAC_AMDGCN_SCHED_BARRIER, 0);
  call(L, &c, GAC_AMDGCN_SETPRIO_PREFIX "1", 0);
  gac_builder d = gac_builder_before(m, s->end_barrier);
  call(L, &d, GAC_AMDGCN_SETPRIO_PREFIX "0", 0);
  call(L, &d, GAC_AMDGCN_SCHED_BARRIER, 0);
  tighten[s->wait->result_id] = true;
}

void lower_amdgcn_pingpong(gac_lowering *L, gac_function *f, bool *tighten) {
  gac_module *m = L->m;
  gac_cfg cfg;
  if (!f->first_block || !gac_cfg_build(&cfg, m, f))
    return;
  uint64_t size[3], items = 0;
  if (gac_local_size(m, f->def->result_id, GAC_LOCAL_SIZE_EVERY_LAUNCH, size))
    items = size[0] * size[1] * size[2];
  bool *body = calloc(cfg.num_blocks, sizeof *body), *claimed = calloc(cfg.num_blocks, sizeof *claimed);
  unsigned found = 0, headers[32];
  loop_scan scans[32];
  /* Innermost loops first (they come later in reverse post-order); a wait
   * belongs to the innermost loop around it. */
  for (unsigned h = cfg.num_blocks; h-- > 0 && found < 32;) {
    memset(body, 0, cfg.num_blocks * sizeof *body);
    body[h] = true;
    unsigned latches = 0;
    for (unsigned j = 0; j < cfg.num_pred[h]; j++)
      if (gac_cfg_dominates(&cfg, h, cfg.pred[h][j]))
        latches++, gac_cfg_add_loop_body(&cfg, cfg.pred[h][j], body);
    if (!latches)
      continue;
    bool waits = false;
    for (unsigned k = 0; k < cfg.num_blocks; k++) {
      if (!body[k] || claimed[k])
        continue;
      gac_foreach_inst(i, &cfg.blocks[k]->insts) waits |= gac_async_pipeline_op_of(m, i) == GAC_ASYNC_WAIT;
    }
    if (!waits)
      continue;
    for (unsigned k = 0; k < cfg.num_blocks; k++)
      claimed[k] |= body[k];
    scans[found] = scan(L, &cfg, body, h);
    scans[found].why = refuse(L, &scans[found], items);
    headers[found++] = h;
  }
  /* Remarks, then the edits (which leave cfg stale). */
  for (unsigned k = 0; k < found; k++) {
    const gac_inst *at = cfg.blocks[headers[k]]->insts.first;
    if (scans[k].why)
      gac_diag_add(L->diag, GAC_REMARK, at->offset, 0, "AMDGCN.PingPong", "%s: the loop at %%%u is not ping-ponged: %s",
                   function_name(m, f), at->result_id, scans[k].why);
    else
      gac_diag_add(L->diag, GAC_REMARK, at->offset, 0, "AMDGCN.PingPong",
                   "%s: the loop at %%%u is ping-ponged: waves 4-7 run a cluster behind waves 0-3, the compute "
                   "cluster at s_setprio 1, and its wait covers one group more",
                   function_name(m, f), at->result_id);
  }
  for (unsigned k = 0; k < found; k++)
    if (!scans[k].why)
      apply(L, &cfg, &scans[k], headers[k], tighten);
  free(body);
  free(claimed);
  gac_cfg_free(&cfg);
}
