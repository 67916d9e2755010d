/* --check-async for warp-specialised functions (docs/CHECK_ASYNC.md, #14).
 *
 * There a ring slot's data is not ordered by waits on events but by the
 * Pipe handshakes of another warp: the producer fills slot t mod d between
 * PipeProducerAcquire(t) and PipeProducerCommit(t); a consumer may use it
 * between PipeConsumerWait(t) and PipeConsumerRelease(t). The general
 * analysis follows one work-item's paths and would see the producer's
 * copies and the consumers' reads on different ones, so it leaves the
 * pipes' buffers to this check, which proves each access to them from
 * the handshakes' places:
 *
 *   a consumer's access (a read; a write is violated: only the producer
 *   fills the ring): a PipeConsumerWait(p, T) of the buffer's pipe
 *   dominates it, no PipeConsumerRelease(p, T) does, and it indexes the
 *   version T mod d;
 *   a producer's copy into the buffer: a PipeProducerAcquire(p, T)
 *   dominates it, it writes version T mod d, and its group (its event
 *   chain) is what PipeProducerCommit(p, T) commits.
 *
 * "Violated" where the access is outside the handshakes on every path (no
 * wait or acquire dominates it; a release dominates it; the wrong version
 * by a constant); "cannot decide" where the version is a value not related
 * to T. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/cfg.h"
#include "gac/check_async.h"
#include "check_async_internal.h"

typedef struct pipes {
  const gac_module *m;
  gac_function *f;
  gac_cfg cfg;
  const gac_check_async_options *opt;
  gac_diag *diag;
  gac_check_async_counts *counts;
  uint32_t *pipe_of_var; /* by id: the Pipe a buffer belongs to (0: none) */
} pipes;

/* Does a dominate b (instructions of f)? */
static bool dominates(const pipes *p, const gac_inst *a, const gac_inst *b) {
  gac_block *ba = gac_inst_block(a), *bb = gac_inst_block(b);
  if (ba == bb) {
    for (const gac_inst *i = a; i; i = i->next)
      if (i == b)
        return true;
    return false;
  }
  int x = gac_cfg_index_of_block(&p->cfg, ba), y = gac_cfg_index_of_block(&p->cfg, bb);
  return x >= 0 && y >= 0 && gac_cfg_dominates(&p->cfg, (unsigned)x, (unsigned)y);
}

/* The buffer a pointer points into, and the version index it takes there
 * (the first index of the access chain on the buffer; 0 if none). */
static uint32_t buffer_of(const pipes *p, uint32_t ptr, uint32_t *version) {
  *version = 0;
  for (unsigned depth = 0; depth < 64; depth++) {
    const gac_inst *d = gac_def(p->m, ptr);
    if (!d)
      return 0;
    switch (d->opcode) {
    case SpvOpVariable:
      return d->result_id;
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: {
      uint32_t base = gac_operand_word(d, 2);
      const gac_inst *bd = gac_def(p->m, base);
      if (bd && bd->opcode == SpvOpVariable && d->num_operands > 3)
        *version = gac_operand_word(d, d->opcode == SpvOpPtrAccessChain || d->opcode == SpvOpInBoundsPtrAccessChain
                                               ? (d->num_operands > 4 ? 4 : 3) : 3);
      ptr = base;
      break;
    }
    case SpvOpBitcast: case SpvOpCopyObject: case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
      ptr = gac_operand_word(d, 2);
      break;
    default:
      return 0;
    }
  }
  return 0;
}

/* x + c with c a constant (0 for x itself); false for anything else. */
static bool offset_of(const pipes *p, uint32_t id, uint32_t *x, int64_t *c) {
  const gac_inst *d = gac_def(p->m, id);
  uint64_t k;
  *x = id, *c = 0;
  if (d && d->opcode == SpvOpIAdd && gac_constant_value(p->m, gac_operand_word(d, 3), &k))
    *x = gac_operand_word(d, 2), *c = (int64_t)k;
  return true;
}

/* Is `version` the slot of iteration t (t mod depth)? 1 yes, -1 provably
 * not (constants apart, or the same value plus an offset that is not a
 * multiple of the depth), 0 unknown. */
static int is_slot_of(const pipes *p, uint32_t version, uint32_t t, uint64_t depth) {
  const gac_inst *v = gac_def(p->m, version);
  uint64_t d, a, b;
  if (v && v->opcode == SpvOpUMod && gac_constant_value(p->m, gac_operand_word(v, 3), &d) && d == depth) {
    uint32_t x, y;
    int64_t cx, cy;
    offset_of(p, gac_operand_word(v, 2), &x, &cx);
    offset_of(p, t, &y, &cy);
    if (x == y) /* (x + cx) mod d against x + cy: the same slot iff cx = cy mod d */
      return ((cx - cy) % (int64_t)depth) == 0 ? 1 : -1;
  }
  if (gac_constant_value(p->m, version, &a) && gac_constant_value(p->m, t, &b))
    return a == b % depth ? 1 : -1;
  return 0;
}

/* The handshake op of pipe `pipe` and iteration-holding instruction that
 * dominates `at` nearest, or NULL. */
static const gac_inst *dominating(const pipes *p, uint32_t op, uint32_t pipe, const gac_inst *at) {
  const gac_inst *best = NULL;
  gac_foreach_block(b, p->f) gac_foreach_inst(i, &b->insts) {
    if (gac_async_pipeline_op_of(p->m, i) == op && i->words[GAC_PIPE_OF_WORD] == pipe && dominates(p, i, at) &&
        (!best || dominates(p, best, i)))
      best = i;
  }
  return best;
}

static void verdict(pipes *p, const gac_inst *at, gac_check_verdict v, const char *fmt, ...)
    GAC_PRINTF(4, 5);
static void verdict(pipes *p, const gac_inst *at, gac_check_verdict v, const char *fmt, ...) {
  char text[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (v == GAC_CHECK_PROVED) {
    p->counts->proved++;
    if (p->opt->verbose)
      gac_diag_add(p->diag, GAC_REMARK, at->offset, at->result_id, "CheckAsync.Proved", "proved: %s", text);
  } else if (v == GAC_CHECK_VIOLATED) {
    p->counts->violated++;
    gac_diag_add(p->diag, GAC_ERROR, at->offset, at->result_id, "CheckAsync.Violated", "%s", text);
  } else {
    p->counts->undecided++;
    gac_diag_add(p->diag, p->opt->strict ? GAC_ERROR : GAC_WARNING, at->offset, at->result_id,
                 "CheckAsync.Undecided", "cannot decide: %s", text);
  }
}

static uint64_t depth_of(const pipes *p, uint32_t pipe) {
  uint64_t d = 0;
  const gac_inst *i = gac_def(p->m, pipe);
  if (i)
    gac_constant_value(p->m, i->words[GAC_PIPE_DEPTH_WORD], &d);
  return d ? d : 1;
}

/* A consumer's access: inside a wait/release of its slot. */
static void check_consumer(pipes *p, const gac_inst *at, uint32_t var, uint32_t version, bool write) {
  uint32_t pipe = p->pipe_of_var[var];
  if (write) {
    verdict(p, at, GAC_CHECK_VIOLATED, "a consumer writes %%%u, a buffer of Pipe %%%u: only the producer fills the "
            "ring, and it may be filling this slot", var, pipe);
    return;
  }
  const gac_inst *wait = dominating(p, GAC_PIPE_CONSUMER_WAIT, pipe, at);
  if (!wait) {
    verdict(p, at, GAC_CHECK_VIOLATED, "reads %%%u, a buffer of Pipe %%%u, where no PipeConsumerWait of the pipe "
            "comes first: the producer may still be filling the slot", var, pipe);
    return;
  }
  uint32_t t = wait->words[GAC_PIPE_ITERATION_WORD];
  const gac_inst *release = dominating(p, GAC_PIPE_CONSUMER_RELEASE, pipe, at);
  if (release && release->words[GAC_PIPE_ITERATION_WORD] == t && dominates(p, wait, release)) {
    verdict(p, at, GAC_CHECK_VIOLATED, "reads %%%u after PipeConsumerRelease %%%u handed iteration %%%u's slot back "
            "to the producer", var, release->result_id, t);
    return;
  }
  int slot = is_slot_of(p, version, t, depth_of(p, pipe));
  if (slot > 0)
    verdict(p, at, GAC_CHECK_PROVED, "reads %%%u in slot %%%u mod %llu after PipeConsumerWait %%%u", var, t,
            (unsigned long long)depth_of(p, pipe), wait->result_id);
  else if (slot < 0)
    verdict(p, at, GAC_CHECK_VIOLATED, "reads version %%%u of %%%u, not the slot of iteration %%%u that "
            "PipeConsumerWait %%%u waited for", version, var, t, wait->result_id);
  else
    verdict(p, at, GAC_CHECK_UNDECIDED, "reads version %%%u of %%%u, which cannot be related to iteration %%%u's "
            "slot (%%%u mod %llu) that PipeConsumerWait %%%u waited for", version, var, t, t,
            (unsigned long long)depth_of(p, pipe), wait->result_id);
}

/* Is `event` (a copy's result) in the chain that `commit` commits? */
static bool committed_by(const pipes *p, uint32_t event, const gac_inst *commit) {
  uint32_t e = commit->words[GAC_PIPE_EVENT_WORD];
  for (unsigned depth = 0; e && depth < 256; depth++) {
    if (e == event)
      return true;
    gac_async_copy k;
    const gac_inst *d = gac_def(p->m, e);
    if (!d || !gac_async_copy_decode(p->m, d, &k))
      return false;
    e = k.event;
  }
  return false;
}

/* A producer's copy into the ring: between acquire and commit of its slot. */
static void check_producer(pipes *p, const gac_inst *copy, uint32_t var, uint32_t version) {
  uint32_t pipe = p->pipe_of_var[var];
  const gac_inst *acquire = dominating(p, GAC_PIPE_PRODUCER_ACQUIRE, pipe, copy);
  if (!acquire) {
    verdict(p, copy, GAC_CHECK_VIOLATED, "the copy into %%%u, a buffer of Pipe %%%u, comes before any "
            "PipeProducerAcquire: consumers may still be reading the slot", var, pipe);
    return;
  }
  uint32_t t = acquire->words[GAC_PIPE_ITERATION_WORD];
  const gac_inst *commit = NULL;
  gac_foreach_block(b, p->f) gac_foreach_inst(i, &b->insts) {
    if (gac_async_pipeline_op_of(p->m, i) == GAC_PIPE_PRODUCER_COMMIT && i->words[GAC_PIPE_OF_WORD] == pipe &&
        i->words[GAC_PIPE_ITERATION_WORD] == t && dominates(p, copy, i) && committed_by(p, copy->result_id, i))
      commit = i;
  }
  int slot = is_slot_of(p, version, t, depth_of(p, pipe));
  if (!commit)
    verdict(p, copy, GAC_CHECK_VIOLATED, "the copy into %%%u is in no group that a PipeProducerCommit of iteration "
            "%%%u commits: the consumers would not wait for it", var, t);
  else if (slot < 0)
    verdict(p, copy, GAC_CHECK_VIOLATED, "the copy writes version %%%u of %%%u, not the slot of iteration %%%u "
            "that PipeProducerAcquire %%%u freed", version, var, t, acquire->result_id);
  else if (slot == 0)
    verdict(p, copy, GAC_CHECK_UNDECIDED, "the copy writes version %%%u of %%%u, which cannot be related to "
            "iteration %%%u's slot", version, var, t);
  else
    verdict(p, copy, GAC_CHECK_PROVED, "the copy fills %%%u's slot of iteration %%%u between PipeProducerAcquire "
            "%%%u and PipeProducerCommit %%%u", var, t, acquire->result_id, commit->result_id);
}

bool ca_check_pipes(const gac_module *m, gac_function *f, const gac_check_async_options *opt, gac_diag *diag,
                    gac_check_async_counts *counts, uint8_t *pipe_var) {
  pipes p = {m, f, {0}, opt, diag, counts, NULL};
  const gac_inst *ws = NULL;
  gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) if (gac_async_pipeline_op_of(m, i) == GAC_WARP_SPECIALIZE) ws = i;
  if (!ws)
    return false;
  p.pipe_of_var = calloc(m->bound, sizeof *p.pipe_of_var);
  gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    uint32_t var = i->num_words > GAC_PIPE_BUFFER_WORD ? i->words[GAC_PIPE_BUFFER_WORD] : 0;
    if (gac_async_pipeline_op_of(m, i) == GAC_PIPE_BUFFER && var < m->bound) {
      p.pipe_of_var[var] = i->words[GAC_PIPE_OF_WORD];
      pipe_var[var] = 1;
    }
  }
  gac_cfg_build(&p.cfg, m, f);
  int start = gac_cfg_index_of_block(&p.cfg, gac_inst_block(ws));
  gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    int x = gac_cfg_index_of_block(&p.cfg, b);
    bool consumer = start >= 0 && x >= 0 && gac_cfg_dominates(&p.cfg, (unsigned)start, (unsigned)x);
    uint32_t var, version;
    gac_async_copy k;
    if (gac_async_copy_decode(m, i, &k)) {
      if ((var = buffer_of(&p, k.destination, &version)) && p.pipe_of_var[var]) {
        if (consumer)
          check_consumer(&p, i, var, version, true);
        else
          check_producer(&p, i, var, version);
      }
    } else if ((i->opcode == SpvOpLoad || i->opcode == SpvOpStore) &&
               (var = buffer_of(&p, gac_operand_word(i, i->opcode == SpvOpLoad ? 2 : 0), &version)) &&
               p.pipe_of_var[var]) {
      if (consumer)
        check_consumer(&p, i, var, version, i->opcode == SpvOpStore);
      else
        verdict(&p, i, GAC_CHECK_VIOLATED, "%s %%%u, a buffer of Pipe %%%u, outside the consumers and the "
                "producer's copies", i->opcode == SpvOpLoad ? "reads" : "writes", var, p.pipe_of_var[var]);
    }
  }
  gac_cfg_free(&p.cfg);
  free(p.pipe_of_var);
  return true;
}
