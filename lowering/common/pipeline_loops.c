/* --pipeline-loops: software pipelining of annotated loops (the TVM RFC,
 * seeds/000; docs/ASYNC_PIPELINE.md).
 *
 * A loop annotated with PipelineLoop and PipelineStatement markers becomes
 *
 *   n = trip count (at least 1)
 *   prologue: steps 0..S-1, unrolled       (statement X runs iteration t - stage(X))
 *   body:     for (k = min(S, n); k < n; k++) one step
 *   epilogue: steps n..n+S-1, unrolled
 *
 * When n < S, prologue and epilogue instances of iterations outside
 * [0, n) are skipped (a branch on n); a skipped async statement still
 * commits its group, empty, so every wait count holds for every n.
 *
 * Each statement is cloned once per step it runs in, with the loop counter
 * replaced by its iteration and every multi-buffered Workgroup array indexed
 * by its version (iteration mod versions). An async statement's wait becomes
 * an AsyncCommit of its event; the statements that read what it copied wait
 * first with the count lowering/common/pipeline_schedule.c derives. Values computed
 * purely from invariants and the counter are recomputed where a statement
 * needs them; anything else that would cross statements outside memory is
 * rejected with the reason. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builder.h"
#include "gac/cfg.h"
#include "gac/validate.h"
#include "lower_util.h"
#include "lowering.h"
#include "pipeline_schedule.h"

enum { MAX_STMTS = 32, MAX_BUFFERS = 32, MAX_CARRIED = 32, MAX_STMT_BLOCKS = 256 };

typedef struct stmt_info {
  gac_inst *marker;
  unsigned stage, order;
  unsigned start; /* cfg index of the block the marker opens */
  bool async;
  gac_inst *wait; /* an async statement's OpGroupWaitEvents */
  bool wait_conditional;
} stmt_info;

typedef struct buffer_info {
  uint32_t var, base_ptr; /* the Workgroup variable; its [0] version, made at the function entry */
  unsigned versions;
  int writer;
  uint64_t users;        /* statements using it */
  uint64_t copy_readers; /* statements whose copies read it */
} buffer_info;

typedef struct carried_info {
  gac_inst *phi;
  uint32_t init, back;
  int owner;
} carried_info;

typedef struct pipeliner {
  gac_module *m;
  gac_function *f;
  gac_diag *diag;
  gac_lowering L;
  gac_cfg cfg;
  gac_inst *loop_marker;
  bool *in_loop;
  int *region; /* per cfg block: its statement, -1 for the loop's own control */
  unsigned header, latch, preheader, exiting, exit_block;
  gac_inst *iv;
  uint32_t iv_type, init, inc, end;
  uint64_t step;
  uint16_t cmp;      /* continue while (tested OP end): SpvOpULessThan, SLessThan, ULessThanEqual, SLessThanEqual, INotEqual */
  bool tests_inc;    /* the exit test compares the incremented counter */
  uint32_t async_mask;
  stmt_info stmts[MAX_STMTS];
  unsigned num_stmts;
  buffer_info buffers[MAX_BUFFERS];
  unsigned num_buffers;
  carried_info carried[MAX_CARRIED];
  unsigned num_carried;
  gac_pipe_schedule sched;
  uint32_t pipeline_set, void_type, event_type, null_event;
  /* An async copy whose tiles of consecutive iterations overlap (say_overlap). */
  const gac_inst *overlap_copy;
  uint64_t overlap_lines, overlap_of;
  /* Per iteration, for the whole work-group (find_intensity; 0: unknown):
   * floating-point operations of the statements that are not async, and
   * bytes the async statements copy. */
  uint64_t flops, copied;
} pipeliner;

static bool fail(pipeliner *P, const gac_inst *at, const char *rule, const char *fmt, ...) GAC_PRINTF(4, 5);
static bool fail(pipeliner *P, const gac_inst *at, const char *rule, const char *fmt, ...) {
  char text[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  gac_diag_add(P->diag, GAC_ERROR, at ? at->offset : GAC_NO_OFFSET, at ? at->result_id : 0, rule,
               "cannot pipeline the loop: %s", text);
  return false;
}

static uint32_t marker_word(const gac_module *m, const gac_inst *i, unsigned w) {
  return gac_def(m, i->words[w])->words[3]; /* validated: a 32-bit OpConstant */
}

static gac_block *block_at(const pipeliner *P, unsigned index) { return P->cfg.blocks[index]; }

static unsigned block_index(const pipeliner *P, const gac_inst *i) {
  return (unsigned)gac_cfg_index_of_block(&P->cfg, gac_inst_block(i));
}

/* CUDA devices give a kernel at most this much static shared memory. */
enum { STATIC_LOCAL_LIMIT = 48 * 1024 };

/* What the pipeline costs in local memory, said once the versions exist:
 * a remark, and a warning where the function's local arrays pass what a
 * CUDA device can launch (the PTX path has no dynamic fallback for them). */
/* Measured on bench/cuda (docs/BENCH_COMPUTE.md): the 5-point stencil,
 * whose 34-line tiles overlap by 2, read 4% more from DRAM pipelined in 3
 * stages and ran at 0.95x its unpipelined build on an H100. */
static void say_overlap(pipeliner *P) {
  if (!P->overlap_copy)
    return;
  gac_diag_add(P->diag, GAC_REMARK, P->overlap_copy->offset, P->overlap_copy->result_id, "Pipeline.OverlappingCopies",
               "the copy's tiles of consecutive iterations overlap by %llu of %llu lines: a step's copy runs while "
               "the previous one is in flight, so the overlap may be fetched from memory twice; a memory-bound "
               "loop may then run slower pipelined (measured: bench/cuda's stencil, 0.95x unpipelined)",
               (unsigned long long)P->overlap_lines, (unsigned long long)P->overlap_of);
}

static void say_local_memory(pipeliner *P) {
  gac_module *m = P->m;
  uint64_t before = 0, after = 0, total = 0;
  for (unsigned k = 0; k < P->num_buffers; k++) {
    const gac_inst *var = gac_def(m, P->buffers[k].var);
    const gac_inst *ptr = var ? gac_def(m, var->type_id) : NULL;
    uint64_t bytes = ptr ? gac_type_bytes(m, ptr->words[3]) : 0;
    after += bytes;
    before += P->buffers[k].versions > 1 ? bytes / P->buffers[k].versions : bytes;
  }
  gac_foreach_inst(i, &m->sections[GAC_SECTION_GLOBAL]) {
    if (i->opcode != SpvOpVariable || i->words[3] != SpvStorageClassWorkgroup)
      continue;
    bool used = false;
    for (gac_operand *u = gac_first_use(m, i->result_id); u && !used; u = u->next_use)
      used = gac_inst_function(u->inst) == P->f;
    const gac_inst *ptr = gac_def(m, i->type_id);
    total += used && ptr ? gac_type_bytes(m, ptr->words[3]) : 0;
  }
  gac_diag_add(P->diag, GAC_REMARK, P->loop_marker->offset, 0, "Pipeline.LocalMemory",
               "the loop's local arrays take %llu bytes pipelined, %llu as written; the function's, %llu",
               (unsigned long long)after, (unsigned long long)before, (unsigned long long)total);
  if (total > STATIC_LOCAL_LIMIT)
    gac_diag_add(P->diag, GAC_WARNING, P->loop_marker->offset, 0, "Pipeline.LocalMemory",
                 "the function's local arrays now take %llu bytes, more than the %u a CUDA device gives static "
                 "shared memory: its PTX cannot be launched (fewer stages or smaller tiles fit)",
                 (unsigned long long)total, STATIC_LOCAL_LIMIT);
}

/* ---- The loop ---------------------------------------------------------- */

/* The innermost natural loop around the PipelineLoop marker. */
static bool find_loop(pipeliner *P) {
  const gac_cfg *c = &P->cfg;
  unsigned at = block_index(P, P->loop_marker), best = ~0u, best_size = ~0u;
  bool *body = calloc(c->num_blocks, sizeof *body);
  P->in_loop = calloc(c->num_blocks, sizeof *P->in_loop);
  for (unsigned u = 0; u < c->num_blocks; u++)
    for (unsigned k = 0; k < c->num_succ[u]; k++) {
      unsigned h = c->succ[u][k];
      if (!gac_cfg_dominates(c, h, u))
        continue;
      /* The natural loop of the back edge u -> h. */
      memset(body, 0, c->num_blocks * sizeof *body);
      body[h] = true;
      unsigned size = 1 + gac_cfg_add_loop_body(c, u, body);
      if (body[at] && size < best_size) {
        best = h, best_size = size;
        P->latch = u;
        memcpy(P->in_loop, body, c->num_blocks * sizeof *body);
      }
    }
  free(body);
  if (best == ~0u)
    return fail(P, P->loop_marker, "Pipeline.Loop", "PipelineLoop is not inside a loop");
  P->header = best;
  unsigned latches = 0, outside = 0;
  for (unsigned j = 0; j < c->num_pred[best]; j++) {
    unsigned p = c->pred[best][j];
    if (P->in_loop[p])
      latches++;
    else
      outside++, P->preheader = p;
  }
  if (latches != 1 || outside != 1)
    return fail(P, P->loop_marker, "Pipeline.LoopShape",
                "the loop needs one back edge and one entry edge (it has %u and %u)", latches, outside);
  unsigned exits = 0;
  for (unsigned b = 0; b < c->num_blocks; b++)
    for (unsigned k = 0; P->in_loop[b] && k < c->num_succ[b]; k++)
      if (!P->in_loop[c->succ[b][k]])
        exits++, P->exiting = b, P->exit_block = c->succ[b][k];
  if (exits != 1 || (P->exiting != P->latch && P->exiting != P->header))
    return fail(P, P->loop_marker, "Pipeline.LoopShape",
                "the loop must leave from its header or its latch, by one edge (irregular control flow)");
  return true;
}


static bool defined_in_loop(const pipeliner *P, uint32_t id) {
  gac_inst *d = gac_def(P->m, id);
  gac_block *b = d ? gac_inst_block(d) : NULL;
  int i = b && b->function == P->f ? gac_cfg_index_of_block(&P->cfg, b) : -1;
  return i >= 0 && P->in_loop[i];
}

/* How v changes from one iteration to the next: by c x unit, unit a loop
 * invariant id (0: the constant 1). Sums, differences and products by
 * invariants of the counter, invariants and constants; false for anything
 * else (then nothing is said). */
static bool step_of(const pipeliner *P, uint32_t v, int64_t *c, uint32_t *unit, unsigned depth) {
  uint64_t k;
  if (v == P->iv->result_id) {
    *c = (int64_t)P->step, *unit = 0;
    return true;
  }
  if (!defined_in_loop(P, v) || gac_constant_value(P->m, v, &k)) {
    *c = 0, *unit = 0;
    return true;
  }
  const gac_inst *d = gac_def(P->m, v);
  if (!d || depth > 16)
    return false;
  int64_t ca, cb;
  uint32_t ua, ub;
  const gac_block *header = block_at(P, P->header);
  if (d->opcode == SpvOpPhi && gac_inst_block(d) == header) {
    /* an induction variable the compiler made: stepped by an invariant on the back edge */
    uint32_t latch = gac_block_label(block_at(P, P->latch));
    for (unsigned o = 3; o < d->num_operands; o += 2) {
      const gac_inst *next = gac_operand_word(d, o) == latch ? gac_def(P->m, gac_operand_word(d, o - 1)) : NULL;
      if (!next || next->opcode != SpvOpIAdd)
        continue;
      uint32_t x = gac_operand_word(next, 2) == v ? gac_operand_word(next, 3)
                   : gac_operand_word(next, 3) == v ? gac_operand_word(next, 2) : 0;
      if (!x || defined_in_loop(P, x))
        return false;
      *c = gac_constant_value(P->m, x, &k) ? (int64_t)k : 1, *unit = gac_constant_value(P->m, x, &k) ? 0 : x;
      return true;
    }
    return false;
  }
  switch (d->opcode) {
  case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast:
    return step_of(P, gac_operand_word(d, 2), c, unit, depth + 1);
  case SpvOpLoad: /* a builtin (the group id) read again in the loop */
    *c = 0, *unit = 0;
    return lower_storage_class(P->m, gac_operand_word(d, 2)) == SpvStorageClassInput;
  case SpvOpCompositeExtract:
    return step_of(P, gac_operand_word(d, 2), c, unit, depth + 1) && *c == 0;
  case SpvOpIAdd: case SpvOpISub:
    if (!step_of(P, gac_operand_word(d, 2), &ca, &ua, depth + 1) ||
        !step_of(P, gac_operand_word(d, 3), &cb, &ub, depth + 1) || (ca && cb && ua != ub))
      return false;
    *c = d->opcode == SpvOpIAdd ? ca + cb : ca - cb, *unit = ca ? ua : ub;
    return true;
  case SpvOpShiftLeftLogical:
    if (!gac_constant_value(P->m, gac_operand_word(d, 3), &k) || k > 32 ||
        !step_of(P, gac_operand_word(d, 2), &ca, &ua, depth + 1))
      return false;
    *c = ca << k, *unit = ua;
    return true;
  case SpvOpIMul:
    for (unsigned side = 2; side <= 3; side++) {
      uint32_t other = gac_operand_word(d, side == 2 ? 3 : 2);
      if (defined_in_loop(P, other) && !gac_constant_value(P->m, other, &k))
        continue;
      if (!step_of(P, gac_operand_word(d, side), &ca, &ua, depth + 1))
        return false;
      if (gac_constant_value(P->m, other, &k))
        *c = ca * (int64_t)k, *unit = ua;
      else if (!ua)
        *c = ca, *unit = other;
      else
        return false;
      return true;
    }
    return false;
  default:
    return false;
  }
}

/* id with its integer conversions taken off (a 32-bit pitch and its 64-bit
 * form are the same length). */
static uint32_t unconverted(const pipeliner *P, uint32_t id) {
  for (const gac_inst *d = gac_def(P->m, id); d && (d->opcode == SpvOpUConvert || d->opcode == SpvOpSConvert);
       d = gac_def(P->m, id))
    id = gac_operand_word(d, 2);
  return id;
}

/* A 2D/3D copy of an async statement whose source tile at the next
 * iteration starts c < NumLines lines further: the tiles overlap by
 * NumLines - c lines, which a prefetching pipeline fetches while the
 * previous copy of them is still in flight. */
static void find_overlap(pipeliner *P) {
  for (unsigned b = 0; b < P->cfg.num_blocks && !P->overlap_copy; b++) {
    if (!P->in_loop[b] || P->region[b] < 0 || !P->stmts[P->region[b]].async)
      continue;
    gac_foreach_inst(i, &block_at(P, b)->insts) {
      gac_async_copy k;
      int64_t c;
      uint32_t unit;
      uint64_t lines, pitch;
      if (!gac_async_copy_decode(P->m, i, &k) || !gac_constant_value(P->m, k.num_lines, &lines) ||
          !step_of(P, k.source_offset, &c, &unit, 0) || c <= 0)
        continue;
      /* in lines: c x SourceLineLength, or a constant c elements of a constant pitch */
      for (const gac_inst *u = gac_def(P->m, unit); u && u->opcode == SpvOpIMul; u = gac_def(P->m, unit)) {
        uint64_t factor; /* c x (factor x L) = (c x factor) x L */
        if (gac_constant_value(P->m, gac_operand_word(u, 2), &factor))
          unit = gac_operand_word(u, 3);
        else if (gac_constant_value(P->m, gac_operand_word(u, 3), &factor))
          unit = gac_operand_word(u, 2);
        else
          break;
        c *= (int64_t)factor;
      }
      uint64_t step_lines =
          unit && unconverted(P, unit) == unconverted(P, k.source_line_length) ? (uint64_t)c
          : !unit && gac_constant_value(P->m, k.source_line_length, &pitch) && pitch && (uint64_t)c % pitch == 0
              ? (uint64_t)c / pitch
              : 0;
      if (step_lines && step_lines < lines) {
        P->overlap_copy = i, P->overlap_lines = lines - step_lines, P->overlap_of = lines;
        break;
      }
    }
  }
}

/* ---- Arithmetic intensity (Pipeline.MemoryBound) ------------------------ */

/* The iterations of the natural loop headed by block h with the given body,
 * when its counter starts, steps and stops at constants; 0 if not known. */
static uint64_t constant_trips(pipeliner *P, unsigned h, const bool *body) {
  gac_module *m = P->m;
  gac_block *hb = block_at(P, h);
  for (gac_inst *phi = hb->insts.first->next; phi && phi->opcode == SpvOpPhi; phi = phi->next) {
    uint64_t init = 0, step = 0, bound;
    bool has_init = false;
    uint32_t back = 0;
    for (unsigned k = 2; k + 1 < phi->num_operands; k += 2) {
      int pred = gac_cfg_index(&P->cfg, gac_operand_word(phi, k + 1));
      if (pred >= 0 && body[pred])
        back = gac_operand_word(phi, k);
      else
        has_init = gac_constant_value(P->m, gac_operand_word(phi, k), &init);
    }
    const gac_inst *add = gac_def(m, back);
    if (!has_init || !add || add->opcode != SpvOpIAdd || gac_operand_word(add, 2) != phi->result_id ||
        !gac_constant_value(P->m, gac_operand_word(add, 3), &step) || !step)
      continue;
    /* The exit: a branch of the body on (counter or counter + step) vs a constant. */
    for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
      gac_inst *t = body[b] ? gac_block_terminator(block_at(P, b)) : NULL;
      if (!t || t->opcode != SpvOpBranchConditional)
        continue;
      const gac_inst *cmp = gac_def(m, gac_operand_word(t, 0));
      int yes = gac_cfg_index(&P->cfg, gac_operand_word(t, 1));
      if (!cmp || cmp->num_operands != 4 || !gac_constant_value(P->m, gac_operand_word(cmp, 3), &bound))
        continue;
      uint32_t x = gac_operand_word(cmp, 2);
      if (x != phi->result_id && x != back)
        continue;
      bool stay_if_true = yes >= 0 && body[yes];
      uint16_t op = cmp->opcode;
      bool less = stay_if_true ? op == SpvOpULessThan || op == SpvOpSLessThan || op == SpvOpINotEqual
                               : op == SpvOpUGreaterThanEqual || op == SpvOpSGreaterThanEqual || op == SpvOpIEqual;
      bool less_equal = stay_if_true ? op == SpvOpULessThanEqual || op == SpvOpSLessThanEqual
                                     : op == SpvOpUGreaterThan || op == SpvOpSGreaterThan;
      if (!less && !less_equal)
        continue;
      /* x takes init (+ step if it is the stepped value), then goes up by
       * step; n tests stay. A test at the end of the body (its block takes
       * the back edge) ran the body once more, when it left. */
      uint64_t first = x == back ? init + step : init, end = bound + (less_equal ? 1 : 0);
      uint64_t n = end > first ? (end - first + step - 1) / step : 0;
      bool at_end = false;
      for (unsigned k = 0; k < P->cfg.num_succ[b]; k++)
        at_end |= P->cfg.succ[b][k] == h;
      return at_end ? n + 1 : n;
    }
  }
  return 0;
}

/* Floating-point operations of one instruction (fma and mad count two). */
static unsigned flops_of(const gac_module *m, const gac_inst *i) {
  unsigned lanes = 1, n = 0;
  const gac_inst *t = i->type_id ? gac_def(m, i->type_id) : NULL;
  if (t && t->opcode == SpvOpTypeVector)
    lanes = t->words[3], t = gac_def(m, t->words[2]);
  if (!t || t->opcode != SpvOpTypeFloat)
    return 0;
  switch (i->opcode) {
  case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpFRem: case SpvOpFMod: n = 1; break;
  case SpvOpExtInst: {
    const gac_inst *set = gac_def(m, i->words[3]);
    const char *name = set && set->opcode == SpvOpExtInstImport ? gac_inst_string(set, 1) : NULL;
    if (name && strcmp(name, "OpenCL.std") == 0)
      n = i->words[4] == 26 /* fma */ || i->words[4] == 42 /* mad */ || i->words[4] == 99 /* mix */ ? 2 : 1;
    break;
  }
  default: break;
  }
  return n * lanes;
}

/* P->flops and P->copied: per iteration and work-group, counting inner
 * loops by their constant trip counts; left 0 where something is not known. */
static void find_intensity(pipeliner *P) {
  uint64_t size[3], copied = 0, flops = 0;
  const gac_cfg *c = &P->cfg;
  if (!gac_local_size(P->m, P->f->def->result_id, GAC_LOCAL_SIZE_EVERY_LAUNCH, size))
    return;
  uint64_t *times = malloc(c->num_blocks * sizeof *times);
  bool *body = calloc(c->num_blocks, sizeof *body);
  for (unsigned b = 0; b < c->num_blocks; b++)
    times[b] = 1;
  bool known_all = true;
  for (unsigned u = 0; u < c->num_blocks && known_all; u++)
    for (unsigned k = 0; k < c->num_succ[u] && known_all; k++) {
      unsigned h = c->succ[u][k];
      if (!P->in_loop[u] || h == P->header || !gac_cfg_dominates(c, h, u))
        continue;
      memset(body, 0, c->num_blocks * sizeof *body);
      body[h] = true;
      gac_cfg_add_loop_body(c, u, body);
      uint64_t trips = constant_trips(P, h, body);
      known_all = trips != 0;
      for (unsigned b = 0; b < c->num_blocks; b++)
        if (body[b])
          times[b] *= trips;
    }
  for (unsigned b = 0; b < c->num_blocks && known_all; b++) {
    int s = P->in_loop[b] ? P->region[b] : -1;
    if (s < 0)
      continue;
    gac_foreach_inst(i, &block_at(P, b)->insts) {
      gac_async_copy k;
      uint64_t per, bpe, lines, planes = 1;
      if (P->stmts[s].async && gac_async_copy_decode(P->m, i, &k)) {
        known_all = gac_constant_value(P->m, k.num_elements_per_line, &per) &&
                    gac_constant_value(P->m, k.num_bytes_per_element, &bpe) &&
                    gac_constant_value(P->m, k.num_lines, &lines) &&
                    (k.op != GAC_GROUP_ASYNC_COPY_3D3D || gac_constant_value(P->m, k.num_planes, &planes));
        copied += known_all ? per * bpe * lines * planes * times[b] : 0;
      } else if (!P->stmts[s].async) {
        flops += (uint64_t)flops_of(P->m, i) * times[b];
      }
    }
  }
  if (known_all && copied) {
    P->copied = copied;
    P->flops = flops * size[0] * size[1] * size[2];
  }
  free(times), free(body);
}

/* Below this many floating-point operations per byte copied, a loop is
 * memory-bound: calibrated on bench/cuda's two kernels on an H100, the
 * stencil (1.3 flop/B: pipelined 0.95x unpipelined) and the SGEMM (8 flop/B:
 * 1.02-1.04x), and no finer than that. */
#define MEMORY_BOUND_FLOPS_PER_BYTE 4.0

static void say_intensity(pipeliner *P) {
  if (!P->copied)
    return;
  double intensity = (double)P->flops / (double)P->copied;
  if (intensity >= MEMORY_BOUND_FLOPS_PER_BYTE)
    return;
  gac_diag_add(P->diag, GAC_REMARK, P->loop_marker->offset, 0, "Pipeline.MemoryBound",
               "the loop computes %.1f floating-point operations per byte it copies (%llu and %llu bytes an iteration, "
               "the whole work-group): memory-bound, where a GPU's occupancy may already hide the latency the "
               "pipeline would; measured on an H100, bench/cuda's stencil (1.3) ran 0.95x unpipelined, its SGEMM "
               "(8) 1.02-1.04x%s",
               intensity, (unsigned long long)P->flops, (unsigned long long)P->copied,
               P->overlap_copy ? "; its tiles overlap too (Pipeline.OverlappingCopies): expect no gain" : "");
}

/* The counter: a header OpPhi stepped by a positive constant on the back
 * edge, and the exit test that bounds it by a loop invariant. */
static bool find_counter(pipeliner *P) {
  gac_module *m = P->m;
  gac_inst *term = gac_block_terminator(block_at(P, P->exiting));
  if (term->opcode != SpvOpBranchConditional)
    return fail(P, term, "Pipeline.Counter", "the loop's exit branch is not conditional");
  bool continue_on_true = gac_cfg_index(&P->cfg, gac_operand_word(term, 1)) >= 0 &&
                          P->in_loop[gac_cfg_index(&P->cfg, gac_operand_word(term, 1))];
  gac_inst *test = gac_def(m, gac_operand_word(term, 0));
  uint32_t latch_label = P->cfg.label_of[P->latch];
  for (gac_inst *phi = block_at(P, P->header)->insts.first->next; phi && phi->opcode == SpvOpPhi; phi = phi->next) {
    uint32_t back = 0, init = 0;
    for (unsigned k = 2; k + 1 < phi->num_operands; k += 2) {
      if (gac_operand_word(phi, k + 1) == latch_label)
        back = gac_operand_word(phi, k);
      else
        init = gac_operand_word(phi, k);
    }
    gac_inst *add = gac_def(m, back);
    uint64_t step;
    if (!P->iv && add && add->opcode == SpvOpIAdd && gac_def(m, phi->type_id)->opcode == SpvOpTypeInt &&
        ((gac_operand_word(add, 2) == phi->result_id && gac_constant_value(P->m, gac_operand_word(add, 3), &step)) ||
         (gac_operand_word(add, 3) == phi->result_id && gac_constant_value(P->m, gac_operand_word(add, 2), &step))) &&
        step > 0 && step < (1u << 30)) {
      P->iv = phi, P->iv_type = phi->type_id, P->init = init, P->inc = back, P->step = step;
      continue;
    }
    if (P->num_carried == MAX_CARRIED)
      return fail(P, phi, "Pipeline.Carried", "more than %d values carried round the loop", MAX_CARRIED);
    P->carried[P->num_carried++] = (carried_info){phi, init, back, -1};
  }
  if (!P->iv)
    return fail(P, P->loop_marker, "Pipeline.Counter", "no loop counter (an OpPhi in the header stepped by a "
                "positive constant OpIAdd on the back edge)");
  if (!test || test->num_operands != 4)
    return fail(P, term, "Pipeline.Counter", "the exit test is not a comparison of the counter");
  uint32_t a = gac_operand_word(test, 2), b = gac_operand_word(test, 3);
  uint32_t tested = P->exiting == P->latch ? P->inc : P->iv->result_id;
  bool swapped = b == tested;
  if (a != tested && b != tested)
    tested = P->iv->result_id == a || P->iv->result_id == b ? P->iv->result_id : 0;
  if (!tested || (tested == P->iv->result_id && P->exiting == P->latch))
    return fail(P, test, "Pipeline.Counter", "the exit test must compare the %s counter with a loop invariant",
                P->exiting == P->latch ? "stepped" : "");
  swapped = b == tested;
  P->end = swapped ? a : b;
  P->tests_inc = tested == P->inc;
  if (defined_in_loop(P, P->end))
    return fail(P, test, "Pipeline.Counter", "the loop bound %%%u changes in the loop", P->end);
  /* Continue while (counter OP end): normalise the comparison. */
  static const struct { uint16_t op, swapped_op, negated_op; } table[] = {
      {SpvOpULessThan, SpvOpUGreaterThan, SpvOpUGreaterThanEqual},
      {SpvOpSLessThan, SpvOpSGreaterThan, SpvOpSGreaterThanEqual},
      {SpvOpULessThanEqual, SpvOpUGreaterThanEqual, SpvOpUGreaterThan},
      {SpvOpSLessThanEqual, SpvOpSGreaterThanEqual, SpvOpSGreaterThan},
      {SpvOpINotEqual, SpvOpINotEqual, SpvOpIEqual},
  };
  P->cmp = 0;
  for (unsigned k = 0; k < sizeof table / sizeof table[0]; k++) {
    uint16_t want = continue_on_true ? (swapped ? table[k].swapped_op : table[k].op) : 0;
    if (!continue_on_true) {
      /* exit when true: continue on the negation */
      uint16_t neg = table[k].negated_op;
      if (swapped) /* end NEG counter */
        neg = table[k].op == SpvOpINotEqual ? SpvOpIEqual
              : table[k].op == SpvOpULessThan ? SpvOpULessThanEqual
              : table[k].op == SpvOpSLessThan ? SpvOpSLessThanEqual
              : table[k].op == SpvOpULessThanEqual ? SpvOpULessThan
                                                    : SpvOpSLessThan;
      want = neg;
    }
    if (test->opcode == want)
      P->cmp = table[k].op;
  }
  if (!P->cmp || (P->cmp == SpvOpINotEqual && P->step != 1))
    return fail(P, test, "Pipeline.Counter", "the exit test is not one of <, <=, != (with step 1) on the counter");
  return true;
}

/* ---- Statements -------------------------------------------------------- */

static bool is_marker(const pipeliner *P, const gac_inst *i, uint32_t op) {
  return gac_async_pipeline_op_of(P->m, i) == op;
}

/* Every marker opens a block of its own. */
static void split_at_markers(pipeliner *P) {
  gac_module *m = P->m;
  gac_foreach_block(b, P->f) {
    for (gac_inst *i = b->insts.first->next; i; i = i->next) {
      if (!is_marker(P, i, GAC_PIPELINE_STATEMENT) || i->prev->opcode == SpvOpLabel)
        continue;
      gac_inst *prev = i->prev;
      gac_block *rest = gac_block_split_after(m, prev);
      gac_builder e = gac_builder_at_end(m, &b->insts);
      gac_build_ops(&e, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(rest)));
      break; /* the rest is visited as the next block */
    }
  }
}

static const char *opname(uint16_t op) {
  switch (op) {
  case SpvOpLoad: return "OpLoad";
  case SpvOpStore: return "OpStore";
  case SpvOpFunctionCall: return "OpFunctionCall";
  case SpvOpPhi: return "OpPhi";
  case SpvOpExtInst: return "OpExtInst";
  default: return "an instruction with side effects or memory access";
  }
}

/* Instructions that only compute from their operands: safe to recompute. */
static bool is_pure(const pipeliner *P, const gac_inst *i) {
  switch (i->opcode) {
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod:
  case SpvOpSRem: case SpvOpSMod: case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
  case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
  case SpvOpNot: case SpvOpSNegate: case SpvOpUConvert: case SpvOpSConvert: case SpvOpConvertUToF:
  case SpvOpConvertSToF: case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpFConvert: case SpvOpBitcast:
  case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpFNegate:
  case SpvOpIEqual: case SpvOpINotEqual: case SpvOpULessThan: case SpvOpSLessThan: case SpvOpUGreaterThan:
  case SpvOpSGreaterThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual: case SpvOpUGreaterThanEqual:
  case SpvOpSGreaterThanEqual: case SpvOpSelect: case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot:
  case SpvOpCompositeExtract: case SpvOpCompositeConstruct: case SpvOpVectorShuffle:
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: case SpvOpCopyObject: case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
  case SpvOpGenericCastToPtr: case SpvOpPtrCastToGeneric:
    return true;
  case SpvOpLoad: { /* of a builtin input (ids, sizes): the same all along */
    gac_inst *var = gac_def(P->m, gac_operand_word(i, 2));
    return var && var->opcode == SpvOpVariable && var->words[3] == SpvStorageClassInput;
  }
  case SpvOpExtInst: /* OpenCL.std math */
    return !gac_async_pipeline_op_of(P->m, i) && !gac_is_async_copy_inst(P->m, i);
  default:
    return false;
  }
}

static bool is_hint(const gac_inst *i) { return i->opcode == SpvOpLifetimeStart || i->opcode == SpvOpLifetimeStop; }

/* Statement regions: the blocks reachable from a marker's block without
 * passing the next marker's block or leaving the iteration. */
static bool find_statements(pipeliner *P) {
  gac_module *m = P->m;
  const gac_cfg *c = &P->cfg;
  unsigned n = 0;
  for (unsigned b = 0; b < c->num_blocks; b++) {
    if (!P->in_loop[b])
      continue;
    gac_foreach_inst(i, &block_at(P, b)->insts) {
      if (is_marker(P, i, GAC_PIPELINE_LOOP) && i != P->loop_marker)
        return fail(P, i, "Pipeline.Loop", "a loop has one PipelineLoop");
      if (!is_marker(P, i, GAC_PIPELINE_STATEMENT))
        continue;
      if (n == MAX_STMTS)
        return fail(P, i, "Pipeline.Statements", "more than %d statements", MAX_STMTS);
      if (!gac_cfg_dominates(c, b, P->latch))
        return fail(P, i, "Pipeline.StatementPlacement", "a PipelineStatement must be met on every path through the "
                    "loop body (not under a branch, nor in an inner loop)");
      P->stmts[n++] = (stmt_info){i, marker_word(m, i, GAC_PIPELINE_STAGE_WORD), marker_word(m, i, GAC_PIPELINE_ORDER_WORD),
                                  b, false, NULL, false};
    }
  }
  if (n == 0)
    return fail(P, P->loop_marker, "Pipeline.Statements", "the loop has no PipelineStatement");
  /* Markers dominate the latch, so dominance orders them: sort by it (the
   * cfg is in reverse post-order, which agrees with dominance). */
  for (unsigned i = 1; i < n; i++)
    for (unsigned j = i; j > 0 && P->stmts[j - 1].start > P->stmts[j].start; j--) {
      stmt_info t = P->stmts[j];
      P->stmts[j] = P->stmts[j - 1];
      P->stmts[j - 1] = t;
    }
  P->num_stmts = n;
  P->region = malloc(c->num_blocks * sizeof *P->region);
  for (unsigned b = 0; b < c->num_blocks; b++)
    P->region[b] = -1;
  unsigned *work = malloc(c->num_blocks * sizeof *work);
  for (unsigned s = 0; s < n; s++) {
    unsigned nw = 0, stop = s + 1 < n ? P->stmts[s + 1].start : ~0u;
    P->region[P->stmts[s].start] = (int)s;
    work[nw++] = P->stmts[s].start;
    while (nw) {
      unsigned b = work[--nw];
      for (unsigned k = 0; k < c->num_succ[b]; k++) {
        unsigned t = c->succ[b][k];
        if (t == stop || t == P->header || !P->in_loop[t])
          continue;
        if (P->region[t] == (int)s)
          continue;
        if (P->region[t] >= 0)
          return fail(P, gac_block_terminator(block_at(P, b)), "Pipeline.ControlFlow",
                      "statement %u branches into statement %d", s, P->region[t]);
        P->region[t] = (int)s;
        work[nw++] = t;
      }
    }
  }
  free(work);
  /* Single entry: only a statement's first block is entered from outside it;
   * single exit: it leaves only to the next statement (or the back edge). */
  for (unsigned b = 0; b < c->num_blocks; b++) {
    if (!P->in_loop[b])
      continue;
    int r = P->region[b];
    for (unsigned k = 0; k < c->num_pred[b]; k++) {
      int pr = P->region[c->pred[b][k]];
      bool ok = r < 0 ? (b == P->header ? true : pr < 0)
                      : pr == r || (b == P->stmts[r].start && (r == 0 ? pr < 0 : pr == r - 1));
      if (!ok)
        return fail(P, gac_block_terminator(block_at(P, c->pred[b][k])), "Pipeline.ControlFlow",
                    "irregular control flow: a branch enters %s from outside it", r < 0 ? "the loop control" : "a statement");
    }
    for (unsigned k = 0; r >= 0 && k < c->num_succ[b]; k++) {
      unsigned t = c->succ[b][k];
      bool ok = P->region[t] == r || (r + 1 < (int)P->num_stmts && t == P->stmts[r + 1].start) ||
                (r + 1 == (int)P->num_stmts && b == P->latch && (t == P->header || t == P->exit_block));
      if (!ok)
        return fail(P, gac_block_terminator(block_at(P, b)), "Pipeline.ControlFlow",
                    "irregular control flow: statement %d branches out of the loop or back to its start", r);
    }
  }
  for (unsigned st = 0; st < n; st++) {
    unsigned size = 0;
    for (unsigned b = 0; b < c->num_blocks; b++)
      size += P->in_loop[b] && P->region[b] == (int)st;
    if (size > MAX_STMT_BLOCKS)
      return fail(P, P->stmts[st].marker, "Pipeline.Statements", "statement %u has %u blocks; at most %d", st, size,
                  MAX_STMT_BLOCKS);
  }
  if (P->region[P->latch] != (int)n - 1)
    return fail(P, P->loop_marker, "Pipeline.ControlFlow", "the last statement must end at the loop's back edge");
  /* What is not in a statement is loop control: it may only compute. */
  for (unsigned b = 0; b < c->num_blocks; b++) {
    if (!P->in_loop[b] || P->region[b] >= 0)
      continue;
    gac_foreach_inst(i, &block_at(P, b)->insts) {
      if (i->opcode == SpvOpLabel || i->opcode == SpvOpPhi || i == P->loop_marker || is_hint(i) ||
          gac_block_terminator(block_at(P, b)) == i || is_pure(P, i))
        continue;
      return fail(P, i, "Pipeline.Statements", "%s (%%%u) comes before the first PipelineStatement; only "
                  "computations may", opname(i->opcode), i->result_id);
    }
  }
  for (unsigned s = 0; s < n; s++)
    if (P->stmts[s].stage >= GAC_PIPELINE_MAX_STAGES)
      return false; /* validated */
  return true;
}

/* ---- Values crossing statements ---------------------------------------- */

static int region_of_id(const pipeliner *P, uint32_t id) {
  gac_inst *d = gac_def(P->m, id);
  gac_block *b = d ? gac_inst_block(d) : NULL;
  int i = b && b->function == P->f ? gac_cfg_index_of_block(&P->cfg, b) : -1;
  return i >= 0 && P->in_loop[i] ? P->region[i] : -2; /* -2: outside the loop */
}

static carried_info *carried_of(pipeliner *P, uint32_t id) {
  for (unsigned k = 0; k < P->num_carried; k++)
    if (P->carried[k].phi->result_id == id)
      return &P->carried[k];
  return NULL;
}

/* Can `id`, used in statement s, be recomputed there? */
static bool recomputable(pipeliner *P, uint32_t id, unsigned depth) {
  if (region_of_id(P, id) == -2 || id == P->iv->result_id)
    return true;
  gac_inst *d = gac_def(P->m, id);
  if (!d || depth > 64 || !is_pure(P, d))
    return false;
  for (unsigned k = (d->type_id != 0) + 1; k < d->num_operands; k++)
    if (d->operands[k].kind == GAC_OPERAND_ID && !recomputable(P, gac_operand_word(d, k), depth + 1))
      return false;
  return true;
}

static bool check_values(pipeliner *P) {
  gac_module *m = P->m;
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    int s = P->in_loop[b] ? P->region[b] : -3;
    if (s < 0)
      continue;
    gac_foreach_inst(i, &block_at(P, b)->insts) {
      for (unsigned k = (i->type_id != 0) + (i->result_id != 0); k < i->num_operands; k++) {
        if (i->operands[k].kind != GAC_OPERAND_ID)
          continue;
        uint32_t id = gac_operand_word(i, k);
        int r = region_of_id(P, id);
        if (r == s || r == -2 || id == P->iv->result_id || gac_def(m, id)->opcode == SpvOpLabel)
          continue;
        carried_info *ci = carried_of(P, id);
        if (ci) {
          if (ci->owner >= 0 && ci->owner != s)
            return fail(P, i, "Pipeline.CrossingValue", "the value %%%u carried round the loop is used in statements %d "
                        "and %d; a carried value belongs to one statement", id, ci->owner, s);
          ci->owner = s;
          continue;
        }
        if (id == P->inc || recomputable(P, id, 0))
          continue;
        return fail(P, i, "Pipeline.CrossingValue", "%%%u, computed by %s in %s, is used in statement %d: values "
                    "cross statements only through memory", id, opname(gac_def(m, id)->opcode),
                    r >= 0 ? "another statement" : "the loop control", s);
      }
    }
  }
  for (unsigned k = 0; k < P->num_carried; k++) {
    carried_info *ci = &P->carried[k];
    int r = region_of_id(P, ci->back);
    if (r >= 0 && ci->owner >= 0 && r != ci->owner)
      return fail(P, ci->phi, "Pipeline.CrossingValue", "the carried value %%%u is updated in statement %d but used in "
                  "statement %d", ci->phi->result_id, r, ci->owner);
    if (ci->owner < 0)
      ci->owner = r >= 0 ? r : 0;
    if (r == -1)
      return fail(P, ci->phi, "Pipeline.CrossingValue", "the carried value %%%u is updated in the loop control",
                  ci->phi->result_id);
  }
  return true;
}

/* ---- Buffers ----------------------------------------------------------- */

static bool is_workgroup_pointer(const pipeliner *P, uint32_t id) {
  const gac_inst *t = gac_value_type(P->m, id);
  return t && t->opcode == SpvOpTypePointer && t->words[2] == SpvStorageClassWorkgroup;
}

/* The Workgroup variable (module scope) or __local kernel argument a
 * pointer is derived from; 0 if it is not a Workgroup pointer, ~0u if it is
 * one whose origin cannot be followed. */
static uint32_t buffer_root(const pipeliner *P, uint32_t id) {
  if (!is_workgroup_pointer(P, id))
    return 0;
  for (unsigned depth = 0; depth < 64; depth++) {
    gac_inst *d = gac_def(P->m, id);
    if (!d)
      return ~0u;
    switch (d->opcode) {
    case SpvOpVariable:
    case SpvOpFunctionParameter:
      return id;
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast: case SpvOpCopyObject:
      id = gac_operand_word(d, 2);
      break;
    default:
      return ~0u;
    }
  }
  return ~0u;
}

static buffer_info *buffer(pipeliner *P, uint32_t var) {
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (P->buffers[k].var == var)
      return &P->buffers[k];
  if (P->num_buffers == MAX_BUFFERS)
    return NULL;
  P->buffers[P->num_buffers] = (buffer_info){var, 0, 1, -1, 0, 0};
  return &P->buffers[P->num_buffers++];
}

static bool writes(const pipeliner *P, const gac_inst *i, unsigned operand) {
  if (i->opcode == SpvOpStore || i->opcode == SpvOpGroupAsyncCopy)
    return operand == (i->opcode == SpvOpStore ? 0u : 3u);
  if (gac_is_async_copy_inst(P->m, i))
    return operand == 4; /* Destination */
  return i->opcode == SpvOpFunctionCall || (i->opcode >= SpvOpAtomicLoad && i->opcode <= SpvOpAtomicXor);
}

static bool find_buffers(pipeliner *P) {
  gac_module *m = P->m;
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    int s = P->in_loop[b] ? P->region[b] : -1;
    if (s < 0)
      continue;
    gac_foreach_inst(i, &block_at(P, b)->insts) {
      for (unsigned k = (i->type_id != 0) + (i->result_id != 0); k < i->num_operands; k++) {
        uint32_t root = i->operands[k].kind == GAC_OPERAND_ID ? buffer_root(P, gac_operand_word(i, k)) : 0;
        if (!root || is_pure(P, i))
          continue;
        if (root == ~0u)
          return fail(P, i, "Pipeline.Buffers", "cannot tell which Workgroup array operand %%%u points into",
                      gac_operand_word(i, k));
        buffer_info *bi = buffer(P, root);
        if (!bi)
          return fail(P, i, "Pipeline.Buffers", "more than %d Workgroup arrays", MAX_BUFFERS);
        bi->users |= 1ull << s;
        if ((i->opcode == SpvOpGroupAsyncCopy && k == 4) || (gac_is_async_copy_inst(m, i) && k == 6))
          bi->copy_readers |= 1ull << s; /* Source */
        if (!writes(P, i, k))
          continue;
        if (bi->writer >= 0 && bi->writer != s)
          return fail(P, i, "Pipeline.Buffers", "the Workgroup array %%%u is written by statements %d and %d; "
                      "one statement must produce it", root, bi->writer, s);
        bi->writer = s;
      }
    }
  }
  /* Versions: one more than the furthest stage that uses what was written. */
  for (unsigned k = 0; k < P->num_buffers; k++) {
    buffer_info *bi = &P->buffers[k];
    if (bi->writer < 0)
      continue;
    for (unsigned s = 0; s < P->num_stmts; s++)
      if (bi->users >> s & 1 && P->stmts[s].stage > P->stmts[bi->writer].stage) {
        unsigned v = P->stmts[s].stage - P->stmts[bi->writer].stage + 1;
        bi->versions = v > bi->versions ? v : bi->versions;
      }
    if (bi->versions == 1)
      continue;
    if (gac_def(m, bi->var)->opcode == SpvOpFunctionParameter)
      return fail(P, gac_def(m, bi->var), "Pipeline.Buffers", "the __local kernel argument %%%u needs %u versions, "
                  "but its size is the host's to set; declare the array in the kernel instead", bi->var,
                  bi->versions);
    /* Every use of a versioned array must be in this function. */
    for (gac_operand *u = gac_first_use(m, bi->var); u; u = u->next_use) {
      gac_function *uf = gac_inst_function(u->inst);
      if (uf && uf != P->f)
        return fail(P, u->inst, "Pipeline.Buffers", "the Workgroup array %%%u needs %u versions but is also used in "
                    "another function", bi->var, bi->versions);
    }
  }
  return true;
}

/* Async statements: those of async stages that wait for their copies. */
static bool find_async(pipeliner *P) {
  for (unsigned s = 0; s < P->num_stmts; s++) {
    stmt_info *st = &P->stmts[s];
    if (!(P->async_mask >> st->stage & 1))
      continue;
    for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
      if (!P->in_loop[b] || P->region[b] != (int)s)
        continue;
      gac_foreach_inst(i, &block_at(P, b)->insts) {
        if (i->opcode != SpvOpGroupWaitEvents)
          continue;
        uint64_t count;
        if (st->wait)
          return fail(P, i, "Pipeline.AsyncStatement", "statement %u (async stage %u) waits twice; an async statement "
                      "waits once, for all its copies (chain their events)", s, st->stage);
        if (!gac_constant_value(P->m, gac_operand_word(i, 1), &count) || count != 1)
          return fail(P, i, "Pipeline.AsyncStatement", "statement %u (async stage %u) waits for several events; "
                      "chain its copies on one event", s, st->stage);
        /* The pipelined code loads the event from the list: it must be one
         * (SPIRV-Tools lets a pointer to another type through). */
        const gac_inst *list = gac_value_type(P->m, gac_operand_word(i, 2));
        const gac_inst *pointee = list && list->opcode == SpvOpTypePointer ? gac_def(P->m, list->words[3]) : NULL;
        if (!pointee || pointee->opcode != SpvOpTypeEvent)
          return fail(P, i, "Pipeline.AsyncStatement", "statement %u (async stage %u) waits on a list that is "
                      "not of events", s, st->stage);
        st->wait = i;
        /* Nothing but computation may follow the wait in the statement. */
        for (gac_inst *j = i->next; j; j = j->next)
          if (!is_pure(P, j) && !is_hint(j) && j != gac_block_terminator(block_at(P, b)))
            return fail(P, j, "Pipeline.AsyncStatement", "statement %u (async stage %u) goes on after its "
                        "wait_group_events; an async statement must end with its wait", s, st->stage);
        /* Met on every path through the statement: its block dominates
         * every block that leaves the statement. */
        for (unsigned x = 0; x < P->cfg.num_blocks; x++) {
          if (!P->in_loop[x] || P->region[x] != (int)s)
            continue;
          for (unsigned k = 0; k < P->cfg.num_succ[x]; k++)
            if (P->region[P->cfg.succ[x][k]] != (int)s || !P->in_loop[P->cfg.succ[x][k]])
              st->wait_conditional = st->wait_conditional || !gac_cfg_dominates(&P->cfg, b, x);
        }
      }
    }
    st->async = st->wait != NULL;
    if (st->wait && st->wait_conditional)
      gac_diag_add(P->diag, GAC_REMARK, st->wait->offset, 0, "Pipeline.CountUnknown",
                   "statement %u waits under a condition, so how many groups it commits is not known: waits on "
                   "queue %u use count 0", s, st->stage);
  }
  return true;
}

/* ---- Emission ----------------------------------------------------------- */

typedef struct instance {
  pipeliner *P;
  unsigned stmt;
  uint32_t *map;      /* old id -> new id (0: unchanged); size: bound at start */
  uint32_t map_size;
  uint32_t iteration; /* the iteration index j (iv type) */
} instance;

static uint32_t map_id(void *user, uint32_t id) {
  instance *I = user;
  return id < I->map_size && I->map[id] ? I->map[id] : id;
}

static uint32_t iv_const(pipeliner *P, uint64_t v) { return gac_constant_int(P->m, P->iv_type, v); }

static uint32_t op2(pipeliner *P, gac_builder *b, uint16_t op, uint32_t x, uint32_t y) {
  return lower_op2(b, op, P->iv_type, x, y);
}

static void set_map(instance *I, uint32_t from, uint32_t to) {
  if (from < I->map_size)
    I->map[from] = to;
}

/* Recomputes a pure value from outside statement s (and what it needs) at
 * the end of b, once per instance. */
/* Does the pure value id (from before the loop) point into a versioned array? */
static bool derives_from_version(const pipeliner *P, uint32_t id, unsigned depth) {
  gac_inst *d = gac_def(P->m, id);
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (P->buffers[k].base_ptr && P->buffers[k].base_ptr == id)
      return true;
  if (!d || depth > 16 || !gac_inst_function(d) || !is_pure(P, d))
    return false;
  for (unsigned k = (d->type_id != 0) + 1; k < d->num_operands; k++)
    if (d->operands[k].kind == GAC_OPERAND_ID && derives_from_version(P, gac_operand_word(d, k), depth + 1))
      return true;
  return false;
}

static void recompute(instance *I, gac_builder *b, uint32_t id) {
  pipeliner *P = I->P;
  if (map_id(I, id) != id || (region_of_id(P, id) == -2 && !derives_from_version(P, id, 0)))
    return;
  gac_inst *d = gac_def(P->m, id);
  if (!d || d->opcode == SpvOpLabel || d->opcode == SpvOpPhi || !is_pure(P, d))
    return;
  for (unsigned k = (d->type_id != 0) + 1; k < d->num_operands; k++)
    if (d->operands[k].kind == GAC_OPERAND_ID)
      recompute(I, b, gac_operand_word(d, k));
  set_map(I, id, gac_module_new_id(P->m));
  gac_list_append(P->m, b->list, gac_inst_clone(P->m, d, map_id, I));
}

/* Emits statement s for the iteration `j` at the end of *cur; *cur becomes
 * the block after it. carried[] holds the statement's carried values in and
 * gets them out. chain: the event an earlier statement of the same group
 * waited for (0 if none); returns the event this statement waits for. */
static uint32_t emit_instance(pipeliner *P, gac_block **cur, unsigned s, uint32_t j, uint32_t *carried_vals,
                              uint32_t chain, bool commits, uint32_t guard) {
  gac_module *m = P->m;
  instance I = {P, s, calloc(m->bound, sizeof(uint32_t)), m->bound, j};
  gac_builder b = gac_builder_at_end(m, &(*cur)->insts);
  /* The counter and the carried values of this iteration. */
  uint32_t i = op2(P, &b, SpvOpIAdd, P->init, op2(P, &b, SpvOpIMul, j, iv_const(P, P->step)));
  set_map(&I, P->iv->result_id, i);
  set_map(&I, P->inc, op2(P, &b, SpvOpIAdd, i, iv_const(P, P->step)));
  for (unsigned k = 0; k < P->num_carried; k++)
    if (P->carried[k].owner == (int)s)
      set_map(&I, P->carried[k].phi->result_id, carried_vals[k]);
  if (chain)
    set_map(&I, P->null_event, chain);
  /* Versions of the arrays: entry pointer -> this iteration's version. */
  for (unsigned k = 0; k < P->num_buffers; k++) {
    buffer_info *bi = &P->buffers[k];
    if (bi->versions < 2 || !(bi->users >> s & 1))
      continue;
    uint32_t v = op2(P, &b, SpvOpUMod, j, iv_const(P, bi->versions));
    gac_inst *base = gac_def(m, bi->base_ptr);
    uint32_t ptr = gac_build_ops(&b, SpvOpInBoundsAccessChain, base->type_id, GAC_NEW_ID, GAC_ID(gac_operand_word(base, 2)),
                                 GAC_ID(v))->result_id;
    set_map(&I, bi->base_ptr, ptr);
  }
  /* Fresh ids for everything the region defines, and its labels. */
  gac_block *blocks[MAX_STMT_BLOCKS];
  unsigned nb = 0;
  for (unsigned x = 0; x < P->cfg.num_blocks; x++)
    if (P->in_loop[x] && P->region[x] == (int)s)
      blocks[nb++] = block_at(P, x); /* at most MAX_STMT_BLOCKS: find_statements */
  gac_block *news[MAX_STMT_BLOCKS], *after = gac_block_create(m, P->f, NULL);
  for (unsigned x = 0; x < nb; x++) {
    news[x] = gac_block_create(m, P->f, NULL);
    set_map(&I, gac_block_label(blocks[x]), gac_block_label(news[x]));
    gac_foreach_inst(in, &blocks[x]->insts) if (in->result_id && in->opcode != SpvOpLabel)
        set_map(&I, in->result_id, gac_module_new_id(m));
  }
  /* What the statement uses from other statements, recomputed here. */
  for (unsigned x = 0; x < nb; x++)
    gac_foreach_inst(in, &blocks[x]->insts) {
      for (unsigned k = (in->type_id != 0) + (in->result_id != 0); k < in->num_operands; k++)
        if (in->operands[k].kind == GAC_OPERAND_ID)
          recompute(&I, &b, gac_operand_word(in, k));
    }
  /* A guarded instance (an iteration that may not exist: the loop has
   * fewer iterations than the pipeline has stages) runs only if `guard`;
   * skipped, it still commits its group, empty, so that every wait count
   * stays exact. */
  gac_block *skip = NULL;
  if (guard) {
    skip = gac_block_create(m, P->f, NULL);
    gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(guard), GAC_ID(gac_block_label(news[0])),
                  GAC_ID(gac_block_label(skip)));
    gac_builder sb = gac_builder_at_end(m, &skip->insts);
    if (commits)
      gac_build_ops(&sb, SpvOpExtInst, P->void_type, GAC_NEW_ID, GAC_ID(P->pipeline_set), GAC_LIT(GAC_ASYNC_COMMIT),
                    GAC_ID(gac_constant_int(m, gac_type_int(m, 32, 0), P->stmts[s].stage)), GAC_ID(P->null_event));
    gac_build_ops(&sb, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(after)));
  } else {
    gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(news[0])));
  }
  /* Edges leaving the statement go to the block after it. */
  if (s + 1 < P->num_stmts)
    set_map(&I, gac_block_label(block_at(P, P->stmts[s + 1].start)), gac_block_label(after));
  else
    set_map(&I, P->cfg.label_of[P->header], gac_block_label(after)),
        set_map(&I, P->cfg.label_of[P->exit_block], gac_block_label(after));
  uint32_t waited = 0;
  for (unsigned x = 0; x < nb; x++) {
    gac_builder nbld = gac_builder_at_end(m, &news[x]->insts);
    gac_foreach_inst(in, &blocks[x]->insts) {
      if (in->opcode == SpvOpLabel || is_hint(in) || gac_async_pipeline_op_of(m, in))
        continue;
      if (in == P->stmts[s].wait) {
        /* The event the statement waited for: the value it stored last in
         * the block (so the group's copies stay chained by value), else a load. */
        uint32_t evar = map_id(&I, gac_operand_word(in, 2));
        waited = 0;
        for (gac_inst *st = news[x]->insts.last; st && !waited; st = st->prev)
          if (st->opcode == SpvOpStore && gac_operand_word(st, 0) == evar)
            waited = gac_operand_word(st, 1);
        if (!waited)
          waited = gac_build_ops(&nbld, SpvOpLoad, P->event_type, GAC_NEW_ID, GAC_ID(evar))->result_id;
        if (commits)
          gac_build_ops(&nbld, SpvOpExtInst, P->void_type, GAC_NEW_ID, GAC_ID(P->pipeline_set), GAC_LIT(GAC_ASYNC_COMMIT),
                        GAC_ID(gac_constant_int(m, gac_type_int(m, 32, 0), P->stmts[s].stage)), GAC_ID(waited));
        continue;
      }
      if (in->opcode == SpvOpBranchConditional && map_id(&I, gac_operand_word(in, 1)) == gac_block_label(after) &&
          map_id(&I, gac_operand_word(in, 2)) == gac_block_label(after)) {
        gac_build_ops(&nbld, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(after)));
        continue;
      }
      gac_list_append(m, nbld.list, gac_inst_clone(m, in, map_id, &I));
    }
  }
  if (guard) {
    /* The values the statement leaves, or on the skipped path what it was given. */
    gac_block *exit = NULL;
    for (unsigned x = 0; x < nb && !exit; x++) {
      unsigned targets[8];
      gac_inst *term = gac_block_terminator(news[x]);
      unsigned nt = term ? gac_terminator_targets(term, targets, 8) : 0;
      for (unsigned t = 0; t < nt; t++)
        if (gac_operand_word(term, targets[t]) == gac_block_label(after))
          exit = news[x];
    }
    gac_builder ab = gac_builder_at_end(m, &after->insts);
    for (unsigned k = 0; k < P->num_carried && exit; k++)
      if (P->carried[k].owner == (int)s)
        carried_vals[k] = gac_build_ops(&ab, SpvOpPhi, P->carried[k].phi->type_id, GAC_NEW_ID,
                                        GAC_ID(map_id(&I, P->carried[k].back)), GAC_ID(gac_block_label(exit)),
                                        GAC_ID(carried_vals[k]), GAC_ID(gac_block_label(skip)))->result_id;
    /* (A statement is a single-exit region: `exit` is its one way out.) */
    if (waited && exit)
      waited = gac_build_ops(&ab, SpvOpPhi, P->event_type, GAC_NEW_ID, GAC_ID(waited), GAC_ID(gac_block_label(exit)),
                             GAC_ID(P->null_event), GAC_ID(gac_block_label(skip)))->result_id;
    else if (!exit)
      waited = P->null_event;
  } else {
    for (unsigned k = 0; k < P->num_carried; k++)
      if (P->carried[k].owner == (int)s)
        carried_vals[k] = map_id(&I, P->carried[k].back);
  }
  free(I.map);
  *cur = after;
  return waited;
}

/* The number of iterations the loop makes once entered (see find_counter). */
static uint32_t trip_count(pipeliner *P, gac_builder *b) {
  bool is_signed = P->cmp == SpvOpSLessThan || P->cmp == SpvOpSLessThanEqual;
  uint32_t bool_type = P->L.bool_type, step = iv_const(P, P->step);
  uint32_t diff = op2(P, b, SpvOpISub, P->end, P->init), pos, n0;
  if (P->cmp == SpvOpINotEqual)
    return diff;
  if (P->cmp == SpvOpULessThan || P->cmp == SpvOpSLessThan) {
    pos = lower_op2(b, is_signed ? SpvOpSLessThan : SpvOpULessThan, bool_type, P->init, P->end);
    n0 = op2(P, b, SpvOpUDiv, op2(P, b, SpvOpIAdd, diff, iv_const(P, P->step - 1)), step);
  } else {
    pos = lower_op2(b, is_signed ? SpvOpSLessThanEqual : SpvOpULessThanEqual, bool_type, P->init, P->end);
    n0 = op2(P, b, SpvOpIAdd, op2(P, b, SpvOpUDiv, diff, step), iv_const(P, 1));
  }
  /* A loop tested at its latch runs once before the first test. */
  return gac_build_ops(b, SpvOpSelect, P->iv_type, GAC_NEW_ID, GAC_ID(pos), GAC_ID(n0),
                       GAC_ID(iv_const(P, P->tests_inc ? 1 : 0)))->result_id;
}

/* A value of the loop used after it, and what it is in the pipelined code. */
typedef struct escape {
  uint32_t id;
  enum { ESC_IV, ESC_INC, ESC_CARRIED_PHI, ESC_CARRIED_BACK } kind;
  unsigned carried;
} escape;

static bool outside_use(const pipeliner *P, const gac_inst *user) {
  gac_block *ub = gac_inst_block(user);
  if (!ub || ub->function != P->f)
    return false;
  int x = gac_cfg_index_of_block(&P->cfg, ub);
  return x >= 0 && !P->in_loop[x];
}

static bool find_escapes(pipeliner *P, escape *out, unsigned *num) {
  gac_module *m = P->m;
  *num = 0;
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    if (!P->in_loop[b])
      continue;
    gac_foreach_inst(i, &block_at(P, b)->insts) {
      if (!i->result_id || i->opcode == SpvOpLabel)
        continue;
      bool escapes = false;
      for (gac_operand *u = gac_first_use(m, i->result_id); u && !escapes; u = u->next_use)
        escapes = outside_use(P, u->inst);
      if (!escapes)
        continue;
      escape e = {i->result_id, ESC_IV, 0};
      if (i == P->iv)
        e.kind = ESC_IV;
      else if (i->result_id == P->inc)
        e.kind = ESC_INC;
      else {
        bool found = false;
        for (unsigned k = 0; k < P->num_carried && !found; k++) {
          if (P->carried[k].phi == i && P->stmts[P->carried[k].owner].stage == 0)
            return fail(P, i, "Pipeline.Escape", "%%%u, carried round the loop by a stage-0 statement, is used after "
                        "the loop; use the value it is updated to instead", i->result_id);
          else if (P->carried[k].phi == i)
            e = (escape){i->result_id, ESC_CARRIED_PHI, k}, found = true;
          else if (P->carried[k].back == i->result_id)
            e = (escape){i->result_id, ESC_CARRIED_BACK, k}, found = true;
        }
        if (!found)
          return fail(P, i, "Pipeline.Escape", "%%%u, computed in the loop, is used after it; only the counter and "
                      "the values carried round the loop may be", i->result_id);
      }
      if (*num == 64)
        return fail(P, i, "Pipeline.Escape", "more than 64 values of the loop are used after it");
      out[(*num)++] = e;
    }
  }
  return true;
}

/* A Workgroup array with versions: [V x T] in place of T, every use in the
 * function through a pointer to version 0 made at the entry; instances
 * index their own version instead. */
static void add_versions(pipeliner *P, buffer_info *bi) {
  gac_module *m = P->m;
  gac_inst *var = gac_def(m, bi->var);
  gac_inst *ptr_type = gac_def(m, var->type_id);
  uint32_t elem = ptr_type->words[3];
  uint32_t array = gac_type_array(m, elem, gac_constant_int(m, gac_type_int(m, 32, 0), bi->versions));
  uint32_t array_ptr = gac_type_pointer(m, SpvStorageClassWorkgroup, array);
  gac_builder g = gac_builder_at_end(m, &m->sections[GAC_SECTION_GLOBAL]); /* after its new types */
  uint32_t nv = gac_build_ops(&g, SpvOpVariable, array_ptr, GAC_NEW_ID, GAC_LIT(SpvStorageClassWorkgroup))->result_id;
  gac_inst *first = P->f->first_block->insts.first->next;
  while (first && first->opcode == SpvOpVariable)
    first = first->next;
  gac_builder e = gac_builder_before(m, first);
  bi->base_ptr = gac_build_ops(&e, SpvOpInBoundsAccessChain, var->type_id, GAC_NEW_ID, GAC_ID(nv),
                               GAC_ID(iv_const(P, 0)))->result_id;
  for (gac_operand *u = gac_first_use(m, bi->var), *next; u; u = next) {
    next = u->next_use;
    if (gac_inst_function(u->inst) == P->f && gac_def(m, bi->base_ptr) != u->inst)
      gac_inst_set_id_operand(m, u->inst, (unsigned)(u - u->inst->operands), bi->base_ptr);
  }
  gac_replace_all_uses(m, bi->var, nv); /* names, decorations, interfaces */
  gac_inst_remove(m, var);
  bi->var = nv;
}

/* Which iterations a step's instances may lack, for loops of n < S
 * iterations: none in the body; in prologue step p, iteration p - stage
 * exists if it is below n; in epilogue step e (t = n + e), iteration
 * n + e - stage exists if n >= stage - e. n >= 1 always. */
typedef struct step_guard {
  enum { GUARD_NONE, GUARD_PROLOGUE, GUARD_EPILOGUE } kind;
  unsigned index; /* p or e */
  uint32_t n;
} step_guard;

static uint32_t guard_of(pipeliner *P, gac_builder *b, const step_guard *g, unsigned stage) {
  if (g->kind == GUARD_PROLOGUE && g->index - stage >= 1)
    return lower_op2(b, SpvOpULessThan, P->L.bool_type, iv_const(P, g->index - stage), g->n);
  if (g->kind == GUARD_EPILOGUE && stage >= g->index + 2)
    return lower_op2(b, SpvOpUGreaterThanEqual, P->L.bool_type, g->n, iv_const(P, stage - g->index));
  return 0;
}

/* One step of the schedule at t (an iteration-type id) at the end of *cur. */
static void emit_step(pipeliner *P, gac_block **cur, const gac_pipe_step *step, uint32_t t, uint32_t *vals,
                      uint32_t (*last_in)[MAX_CARRIED], const step_guard *g) {
  gac_module *m = P->m;
  uint32_t chain = 0;
  for (unsigned a = 0; a < step->num_actions; a++) {
    const gac_pipe_action *act = &step->actions[a];
    if (act->kind == GAC_PIPE_WAIT) {
      gac_builder b = gac_builder_at_end(m, &(*cur)->insts);
      uint32_t u32 = gac_type_int(m, 32, 0);
      gac_build_ops(&b, SpvOpExtInst, P->void_type, GAC_NEW_ID, GAC_ID(P->pipeline_set), GAC_LIT(GAC_ASYNC_WAIT),
                    GAC_ID(gac_constant_int(m, u32, act->queue)), GAC_ID(gac_constant_int(m, u32, act->count)));
    } else if (act->kind == GAC_PIPE_RUN) {
      unsigned s = act->statement;
      gac_builder b = gac_builder_at_end(m, &(*cur)->insts);
      uint64_t tv, stage = P->stmts[s].stage;
      uint32_t j =
          gac_constant_value(P->m, t, &tv) ? iv_const(P, tv - stage) : op2(P, &b, SpvOpISub, t, iv_const(P, stage));
      bool commits = a + 1 < step->num_actions && step->actions[a + 1].kind == GAC_PIPE_COMMIT &&
                     step->actions[a + 1].statement == s;
      uint32_t guard = guard_of(P, &b, g, (unsigned)stage);
      /* last_in: the input of the statement's last instance that ran. */
      for (unsigned k = 0; last_in && k < P->num_carried; k++)
        if (P->carried[k].owner == (int)s)
          (*last_in)[k] = guard ? gac_build_ops(&b, SpvOpSelect, P->carried[k].phi->type_id, GAC_NEW_ID, GAC_ID(guard),
                                                GAC_ID(vals[k]), GAC_ID((*last_in)[k]))->result_id
                                : vals[k];
      uint32_t waited = emit_instance(P, cur, s, j, vals, chain, commits, guard);
      chain = P->stmts[s].async && !commits ? waited : 0;
    }
  }
}

/* The loop's entry edge, moved to a new block (returned, empty): the
 * rewritten loop starts there; the loop as written is no longer reached. */
static gac_block *enter_new_code(pipeliner *P) {
  uint32_t H_label = gac_block_label(block_at(P, P->header));
  gac_block *cur = gac_block_create(P->m, P->f, NULL);
  gac_inst *pt = gac_block_terminator(block_at(P, P->preheader));
  for (unsigned k = 0; k < pt->num_operands; k++)
    if (pt->operands[k].kind == GAC_OPERAND_ID && gac_operand_word(pt, k) == H_label)
      gac_inst_set_id_operand(P->m, pt, k, gac_block_label(cur));
  return cur;
}

/* The pipelined code, ending in `cur`, meets the loop's original exit edge
 * (no longer reached) before the exit block; the values of the loop used
 * after it become those the pipelined code leaves: vals (after the last
 * iteration) and last_in (the input of the last one). */
static void join_exit(pipeliner *P, gac_block *cur, const escape *escapes, unsigned num_escapes, uint32_t n,
                      const uint32_t *vals, const uint32_t *last_in) {
  gac_module *m = P->m;
  gac_block *join = gac_block_create(m, P->f, NULL);
  gac_builder jb = gac_builder_at_end(m, &cur->insts);
  gac_build_ops(&jb, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  gac_block *E = block_at(P, P->exiting), *X = block_at(P, P->exit_block);
  gac_inst *et = gac_block_terminator(E);
  for (unsigned k = 0; k < et->num_operands; k++)
    if (et->operands[k].kind == GAC_OPERAND_ID && gac_operand_word(et, k) == gac_block_label(X))
      gac_inst_set_id_operand(m, et, k, gac_block_label(join));
  gac_builder jp = gac_builder_at_end(m, &join->insts);
  uint32_t finals[64];
  for (unsigned x = 0; x < num_escapes; x++) {
    const escape *es = &escapes[x];
    uint32_t v;
    gac_builder fb = gac_builder_at_end(m, &cur->insts);
    fb.before = gac_block_terminator(cur);
    if (es->kind == ESC_IV || es->kind == ESC_INC)
      v = op2(P, &fb, SpvOpIAdd, P->init,
              op2(P, &fb, SpvOpIMul, es->kind == ESC_IV ? op2(P, &fb, SpvOpISub, n, iv_const(P, 1)) : n,
                  iv_const(P, P->step)));
    else
      v = es->kind == ESC_CARRIED_BACK ? vals[es->carried] : last_in[es->carried];
    finals[x] = gac_build_ops(&jp, SpvOpPhi, gac_def(m, es->id)->type_id, GAC_NEW_ID, GAC_ID(es->id),
                              GAC_ID(gac_block_label(E)), GAC_ID(v), GAC_ID(gac_block_label(cur)))->result_id;
  }
  gac_build_ops(&jp, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(X)));
  /* X's phis now come from join; other uses after the loop take the join's values. */
  for (gac_inst *phi = X->insts.first->next; phi && phi->opcode == SpvOpPhi; phi = phi->next)
    for (unsigned k = 3; k < phi->num_operands; k += 2)
      if (gac_operand_word(phi, k) == gac_block_label(E))
        gac_inst_set_id_operand(m, phi, k, gac_block_label(join));
  for (unsigned x = 0; x < num_escapes; x++)
    for (gac_operand *u = gac_first_use(m, escapes[x].id), *next; u; u = next) {
      next = u->next_use;
      if (outside_use(P, u->inst))
        gac_inst_set_id_operand(m, u->inst, (unsigned)(u - u->inst->operands), finals[x]);
    }
}

/* ---- Warp specialisation (--pipeline-loops=warp-specialize) ------------ */

/* Seed 004's handshakes as the loop's schedule: the kernel gets one more
 * warp, the producer, which runs the async statements of every iteration
 * into a ring of `depth` versions of their arrays (Pipe: acquire a free
 * slot, copy, commit the copies to the slot), while the C work-items of the
 * kernel's own size (the consumers) run the other statements (wait for the
 * slot, compute, release it). Only the PTX path (sm_90) lowers this. */

enum { WS_PRODUCERS = 32 };

typedef struct ws_plan {
  uint64_t consumers;
  unsigned depth, producer_stage;
  bool keep_barriers; /* consumers share local memory besides the pipe's buffers */
  bool barriers_after; /* the code after the loop synchronises the work-group */
  const escape *escapes;
  unsigned num_escapes;
} ws_plan;

static bool ws_is_barrier(const gac_inst *i) { return i->opcode == SpvOpControlBarrier; }

/* Does function fid (or one it calls) synchronise the work-group or read a
 * work-item builtin? The consumer geometry is rewritten in the kernel's
 * own function only (lowering/ptx/lower_ptx_warp_specialize.c). */
static bool ws_callee_unfit(const gac_module *m, uint32_t fid, unsigned depth) {
  const gac_function *g = lower_function_by_id(m, fid);
  if (!g || depth > 8)
    return true;
  gac_foreach_block(b, g) {
    gac_foreach_inst(i, &b->insts) {
      if (ws_is_barrier(i))
        return true;
      if (i->opcode == SpvOpLoad) {
        const gac_inst *v = gac_def(m, gac_operand_word(i, 2));
        if (v && v->opcode == SpvOpVariable && v->words[3] == SpvStorageClassInput)
          return true;
      }
      if (i->opcode == SpvOpFunctionCall && ws_callee_unfit(m, gac_operand_word(i, 2), depth + 1))
        return true;
    }
  }
  return false;
}

static bool is_pipe_buffer(const pipeliner *P, uint32_t root) {
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (P->buffers[k].var == root)
      return P->buffers[k].writer >= 0 && P->stmts[P->buffers[k].writer].async;
  return false;
}

/* The scalar type a ring made of variable `var` holds in its slots. */
static uint32_t slot_scalar(const gac_module *m, const gac_inst *var) {
  const gac_inst *t = gac_def(m, var->type_id);
  return t && t->opcode == SpvOpTypePointer ? gac_pipe_scalar_of(m, t->words[3]) : 0;
}

/* Why the loop cannot be warp-specialised, or NULL (then *w is filled). */
static const char *ws_why_not(pipeliner *P, ws_plan *w, char *why, size_t len) {
  gac_module *m = P->m;
  uint64_t size[3];
  const gac_inst *ftype = gac_def(m, P->f->def->words[4]);
  if (!ftype || gac_def(m, ftype->words[2])->opcode != SpvOpTypeVoid)
    return "the function returns a value (the producer warp returns when its loop ends)";
  if (!gac_local_size(m, P->f->def->result_id, GAC_LOCAL_SIZE_EVERY_LAUNCH, size))
    return "the kernel has no reqd_work_group_size (the producer warp is added to a known size)";
  w->consumers = size[0] * size[1] * size[2];
  if (w->consumers % 32 || w->consumers + WS_PRODUCERS > 1024) {
    snprintf(why, len, "the work-group size %llu is not a multiple of 32 below %d",
             (unsigned long long)w->consumers, 1024 - WS_PRODUCERS + 1);
    return why;
  }
  unsigned loops = 0;
  gac_foreach_block(b, P->f) gac_foreach_inst(i, &b->insts) loops += is_marker(P, i, GAC_PIPELINE_LOOP);
  if (loops != 1)
    return "the function has several pipelined loops (one producer warp serves one loop)";
  int producer_stage = -1;
  for (unsigned s = 0; s < P->num_stmts; s++) {
    const stmt_info *st = &P->stmts[s];
    if (!st->async)
      continue;
    if (producer_stage >= 0 && (unsigned)producer_stage != st->stage)
      return "async statements in several stages (one ring serves one stage)";
    producer_stage = (int)st->stage;
    if (st->wait_conditional)
      return "an async statement waits under a condition";
  }
  if (producer_stage < 0)
    return "no async statement";
  w->producer_stage = (unsigned)producer_stage;
  for (unsigned s = 0; s < P->num_stmts; s++)
    if (!P->stmts[s].async && P->stmts[s].stage <= w->producer_stage) {
      snprintf(why, len, "statement %u (stage %u) is not async but not after the async stage %u", s,
               P->stmts[s].stage, w->producer_stage);
      return why;
    }
  for (unsigned k = 0; k < P->num_carried; k++)
    if (P->stmts[P->carried[k].owner].async)
      return "an async statement carries a value round the loop";
  /* What each side may do. */
  w->keep_barriers = false;
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    bool in = P->in_loop[b];
    int s = in ? P->region[b] : -1;
    gac_foreach_inst(i, &block_at(P, b)->insts) {
      if (i->opcode == SpvOpFunctionCall && ws_callee_unfit(m, gac_operand_word(i, 2), 0)) {
        snprintf(why, len, "the function calls %%%u, which synchronises the work-group or reads a work-item "
                 "builtin", gac_operand_word(i, 2));
        return why;
      }
      if (!in || s < 0)
        continue;
      bool producer = P->stmts[s].async;
      if (producer) {
        bool copy = gac_is_async_copy_inst(m, i) || i->opcode == SpvOpGroupAsyncCopy;
        bool event_var = (i->opcode == SpvOpStore || i->opcode == SpvOpLoad) &&
                         lower_storage_class(m, gac_operand_word(i, i->opcode == SpvOpStore ? 0 : 2)) ==
                             SpvStorageClassFunction;
        uint32_t dst = copy ? gac_operand_word(i, i->opcode == SpvOpGroupAsyncCopy ? 3 : 4) : 0, scalar;
        if (copy && lower_storage_class(m, dst) != SpvStorageClassWorkgroup)
          return "an async statement copies into global memory (the producer fills local buffers only)";
        /* The ring's slots hold the buffer's element type, which the
         * producer's copies must write (AsyncPipeline.PipeShape). */
        const gac_inst *root = copy ? gac_pipe_pointer_root(m, dst, &scalar) : NULL;
        if (root && scalar != slot_scalar(m, root)) {
          snprintf(why, len, "a copy writes %%%u with another element type than its elements (the ring's slots "
                   "hold one type)", root->result_id);
          return why;
        }
        if (!copy && !event_var && !is_pure(P, i) && !is_hint(i) && i != P->stmts[s].wait &&
            i->opcode != SpvOpLabel && i != gac_block_terminator(block_at(P, b)) && !gac_async_pipeline_op_of(m, i)) {
          snprintf(why, len, "an async statement does more than copy (%s %%%u)", opname(i->opcode), i->result_id);
          return why;
        }
        continue;
      }
      uint32_t scalar;
      const gac_inst *read = i->opcode == SpvOpLoad ? gac_pipe_pointer_root(m, gac_operand_word(i, 2), &scalar) : NULL;
      if (read && is_pipe_buffer(P, read->result_id) && gac_pipe_scalar_of(m, i->type_id) != slot_scalar(m, read)) {
        snprintf(why, len, "a load reads %%%u as another type than its elements (the ring's slots hold one type)",
                 read->result_id);
        return why;
      }
      for (unsigned k = (i->type_id != 0) + (i->result_id != 0); k < i->num_operands; k++) {
        uint32_t root = i->operands[k].kind == GAC_OPERAND_ID ? buffer_root(P, gac_operand_word(i, k)) : 0;
        if (root && !is_pure(P, i) && !is_pipe_buffer(P, root))
          w->keep_barriers = true;
      }
      if (i->opcode == SpvOpFunctionCall || gac_is_async_copy_inst(m, i) || i->opcode == SpvOpGroupAsyncCopy)
        w->keep_barriers = true;
    }
  }
  /* The code before the loop runs in every work-item, the producer warp's
   * too, whose local ids lie beyond the work-group: it may only compute. */
  gac_cfg *c = &P->cfg;
  bool *before = calloc(c->num_blocks, sizeof *before);
  unsigned stack[4096], sp = 0;
  stack[sp++] = P->preheader;
  before[P->preheader] = true;
  while (sp) {
    unsigned x = stack[--sp];
    for (unsigned k = 0; k < c->num_pred[x]; k++) {
      unsigned p = c->pred[x][k];
      if (!before[p] && !P->in_loop[p] && sp < 4096)
        before[p] = true, stack[sp++] = p;
    }
  }
  const char *r = NULL;
  w->barriers_after = false;
  for (unsigned b = 0; b < c->num_blocks && !r; b++) {
    if (!before[b]) {
      gac_foreach_inst(i, &block_at(P, b)->insts) w->barriers_after |= !P->in_loop[b] && ws_is_barrier(i);
      continue;
    }
    gac_foreach_inst(i, &block_at(P, b)->insts) {
      bool ok = i->opcode == SpvOpLabel || i->opcode == SpvOpVariable || is_pure(P, i) || is_hint(i) ||
                i == gac_block_terminator(block_at(P, b)) || i->opcode == SpvOpPhi || ws_is_barrier(i) ||
                gac_async_pipeline_op_of(m, i);
      if (!ok && (i->opcode == SpvOpStore || i->opcode == SpvOpLoad))
        ok = lower_storage_class(m, gac_operand_word(i, i->opcode == SpvOpStore ? 0 : 2)) == SpvStorageClassFunction;
      if (!ok) {
        snprintf(why, len, "the code before the loop does more than compute (%s %%%u), and the producer warp "
                 "runs it too", opname(i->opcode), i->result_id);
        r = why;
        break;
      }
    }
  }
  free(before);
  return r;
}

static uint32_t ws_ext(pipeliner *P, gac_builder *b, uint32_t op, unsigned n, const uint32_t *ids) {
  gac_op ops[8] = {GAC_ID(P->pipeline_set), GAC_LIT(op)};
  for (unsigned k = 0; k < n && k < 6; k++)
    ops[2 + k] = GAC_ID(ids[k]);
  return gac_build(b, SpvOpExtInst, P->void_type, GAC_NEW_ID, ops, 2 + n)->result_id;
}

static uint32_t u32_const(pipeliner *P, uint32_t v) { return gac_constant_int(P->m, gac_type_int(P->m, 32, 0), v); }

/* A loop `for (t = 0; t < n; t++)` from `from`; returns the body block (the
 * caller ends it with the latch: ws_loop_close) and sets *exit, *t. */
typedef struct ws_loop {
  gac_block *header, *body, *exit;
  uint32_t t, t_next;
  gac_inst *t_phi;
} ws_loop;

static ws_loop ws_loop_open(pipeliner *P, gac_block *from) {
  gac_module *m = P->m;
  ws_loop lp = {gac_block_create(m, P->f, NULL), gac_block_create(m, P->f, NULL), gac_block_create(m, P->f, NULL),
                gac_module_new_id(m), gac_module_new_id(m), NULL};
  gac_builder f = gac_builder_at_end(m, &from->insts);
  gac_build_ops(&f, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(lp.header)));
  gac_builder h = gac_builder_at_end(m, &lp.header->insts);
  lp.t_phi = gac_build_ops(&h, SpvOpPhi, P->iv_type, lp.t, GAC_ID(iv_const(P, 0)), GAC_ID(gac_block_label(from)),
                           GAC_ID(lp.t_next), GAC_ID(0));
  return lp;
}

/* The header's test and branch, once its phis are all in. */
static void ws_loop_test(pipeliner *P, ws_loop *lp, uint32_t n) {
  gac_builder h = gac_builder_at_end(P->m, &lp->header->insts);
  uint32_t more = lower_op2(&h, SpvOpULessThan, P->L.bool_type, lp->t, n);
  gac_build_ops(&h, SpvOpBranchConditional, 0, 0, GAC_ID(more), GAC_ID(gac_block_label(lp->body)),
                GAC_ID(gac_block_label(lp->exit)));
}

static void ws_loop_close(pipeliner *P, ws_loop *lp, gac_block *last) {
  gac_builder l = gac_builder_at_end(P->m, &last->insts);
  gac_build_ops(&l, SpvOpIAdd, P->iv_type, lp->t_next, GAC_ID(lp->t), GAC_ID(iv_const(P, 1)));
  gac_build_ops(&l, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(lp->header)));
  gac_inst_set_id_operand(P->m, lp->t_phi, 5, gac_block_label(last));
}

/* Blocks reachable from `from` (new code, no cfg): their barriers become
 * MutexSync of `mutex`, or go where `drop` (the consumer loop's, when the
 * pipe alone orders what the consumers share). */
static void ws_rewrite_barriers(pipeliner *P, gac_block *from, gac_block *stop, uint32_t mutex, bool drop) {
  gac_module *m = P->m;
  uint8_t *seen = calloc(m->bound, 1);
  lower_reach_blocks(m, from, stop, seen, m->bound);
  gac_foreach_block(b, P->f) {
    if (gac_block_label(b) >= m->bound || !seen[gac_block_label(b)])
      continue;
    for (gac_inst *i = b->insts.first, *next; i; i = next) {
      next = i->next;
      if (!ws_is_barrier(i))
        continue;
      if (!drop) {
        gac_builder ib = gac_builder_before(m, i);
        ws_ext(P, &ib, GAC_MUTEX_SYNC, 1, &mutex);
      }
      gac_inst_remove(m, i);
    }
  }
  free(seen);
}

/* The named barrier for a live range: the lowest id of the pool (1..15; 0
 * is barrier()'s) no Mutex of the function holds. */
static bool ws_assign_named_barrier(pipeliner *P, uint32_t *id) {
  uint32_t used = 1;
  gac_foreach_block(b, P->f) gac_foreach_inst(i, &b->insts) {
    uint64_t v;
    if (gac_async_pipeline_op_of(P->m, i) == GAC_MUTEX &&
        gac_constant_value(P->m, i->words[GAC_MUTEX_BARRIER_WORD], &v) && v < 32)
      used |= 1u << v;
  }
  for (uint32_t k = 1; k < GAC_NAMED_BARRIERS; k++)
    if (!(used >> k & 1)) {
      *id = k;
      return true;
    }
  return fail(P, P->loop_marker, "Pipeline.NamedBarrier", "fails to assign named barrier: all %d of the pool are "
              "taken", GAC_NAMED_BARRIERS - 1);
}

static bool emit_warp_specialized(pipeliner *P, const ws_plan *w) {
  gac_module *m = P->m;
  gac_function *f = P->f;
  /* The ring: every array an async statement writes gets `depth` versions. */
  for (unsigned k = 0; k < P->num_buffers; k++) {
    buffer_info *bi = &P->buffers[k];
    bi->versions = is_pipe_buffer(P, bi->var) ? w->depth : 1;
    if (bi->versions > 1)
      add_versions(P, bi);
  }
  uint32_t barrier_id = 0;
  if ((w->keep_barriers || w->barriers_after) && !ws_assign_named_barrier(P, &barrier_id))
    return false;
  gac_block *cur = enter_new_code(P);
  gac_builder b = gac_builder_at_end(m, &cur->insts);
  uint32_t n = trip_count(P, &b);
  /* The handshakes, declared where both sides see them. */
  const stmt_info *first_async = NULL;
  for (unsigned s = 0; s < P->num_stmts && !first_async; s++)
    if (P->stmts[s].async)
      first_async = &P->stmts[s];
  uint32_t pipe = ws_ext(P, &b, GAC_PIPE, 3, (uint32_t[]){u32_const(P, w->depth), u32_const(P, first_async->stage),
                                                          u32_const(P, first_async->order)});
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (P->buffers[k].versions > 1)
      ws_ext(P, &b, GAC_PIPE_BUFFER, 2, (uint32_t[]){pipe, P->buffers[k].var});
  uint32_t mutex = 0;
  unsigned consumer_stage = 0, consumer_order = 0;
  for (unsigned s = 0; s < P->num_stmts; s++)
    if (!P->stmts[s].async && !consumer_stage)
      consumer_stage = P->stmts[s].stage, consumer_order = P->stmts[s].order;
  if (barrier_id)
    mutex = ws_ext(P, &b, GAC_MUTEX, 4, (uint32_t[]){u32_const(P, barrier_id), u32_const(P, (uint32_t)w->consumers),
                                                     u32_const(P, consumer_stage), u32_const(P, consumer_order)});
  uint32_t lin, size;
  lower_linear_local_id(&P->L, &b, f, &lin, &size);
  uint32_t is_producer = lower_op2(&b, SpvOpUGreaterThanEqual, P->L.bool_type, lin,
                                   gac_constant_int(m, P->L.size_type, w->consumers));
  gac_block *prod = gac_block_create(m, f, NULL), *cons = gac_block_create(m, f, NULL);
  gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(is_producer), GAC_ID(gac_block_label(prod)),
                GAC_ID(gac_block_label(cons)));

  /* Producer: for each iteration, a free slot, the copies, the commit. */
  ws_loop pl = ws_loop_open(P, prod);
  ws_loop_test(P, &pl, n);
  gac_block *pc = pl.body;
  gac_builder pb = gac_builder_at_end(m, &pc->insts);
  ws_ext(P, &pb, GAC_PIPE_PRODUCER_ACQUIRE, 2, (uint32_t[]){pipe, pl.t});
  uint32_t chain = 0, none[MAX_CARRIED] = {0};
  for (unsigned s = 0; s < P->num_stmts; s++)
    if (P->stmts[s].async)
      chain = emit_instance(P, &pc, s, pl.t, none, chain, false, 0);
  pb = gac_builder_at_end(m, &pc->insts);
  ws_ext(P, &pb, GAC_PIPE_PRODUCER_COMMIT, 3, (uint32_t[]){pipe, pl.t, chain ? chain : P->null_event});
  ws_loop_close(P, &pl, pc);
  gac_builder pe = gac_builder_at_end(m, &pl.exit->insts);
  gac_build_ops(&pe, SpvOpReturn, 0, 0);

  /* Consumers: wait for the slot, the other statements in order, release. */
  gac_builder cb = gac_builder_at_end(m, &cons->insts);
  ws_ext(P, &cb, GAC_WARP_SPECIALIZE, 2, (uint32_t[]){u32_const(P, (uint32_t)w->consumers), u32_const(P, WS_PRODUCERS)});
  ws_loop cl = ws_loop_open(P, cons);
  uint32_t vals[MAX_CARRIED], last_in[MAX_CARRIED];
  gac_inst *phis[MAX_CARRIED], *in_phis[MAX_CARRIED];
  gac_builder hb = gac_builder_at_end(m, &cl.header->insts);
  for (unsigned k = 0; k < P->num_carried; k++) {
    uint32_t type = P->carried[k].phi->type_id;
    phis[k] = gac_build_ops(&hb, SpvOpPhi, type, GAC_NEW_ID, GAC_ID(P->carried[k].init), GAC_ID(gac_block_label(cons)),
                            GAC_ID(P->carried[k].init), GAC_ID(0));
    /* The input of the iteration before: what the last one was given. */
    in_phis[k] = gac_build_ops(&hb, SpvOpPhi, type, GAC_NEW_ID, GAC_ID(P->carried[k].init),
                               GAC_ID(gac_block_label(cons)), GAC_ID(P->carried[k].init), GAC_ID(0));
    vals[k] = phis[k]->result_id;
  }
  ws_loop_test(P, &cl, n);
  gac_block *cc = cl.body;
  gac_builder wb = gac_builder_at_end(m, &cc->insts);
  ws_ext(P, &wb, GAC_PIPE_CONSUMER_WAIT, 2, (uint32_t[]){pipe, cl.t});
  for (unsigned s = 0; s < P->num_stmts; s++)
    if (!P->stmts[s].async)
      emit_instance(P, &cc, s, cl.t, vals, 0, false, 0);
  gac_builder rb = gac_builder_at_end(m, &cc->insts);
  ws_ext(P, &rb, GAC_PIPE_CONSUMER_RELEASE, 2, (uint32_t[]){pipe, cl.t});
  ws_loop_close(P, &cl, cc);
  for (unsigned k = 0; k < P->num_carried; k++) {
    gac_inst_set_id_operand(m, phis[k], 4, vals[k]);
    gac_inst_set_id_operand(m, phis[k], 5, gac_block_label(cc));
    gac_inst_set_id_operand(m, in_phis[k], 4, phis[k]->result_id);
    gac_inst_set_id_operand(m, in_phis[k], 5, gac_block_label(cc));
    vals[k] = phis[k]->result_id;
    last_in[k] = in_phis[k]->result_id;
  }
  /* The consumer loop's barriers order nothing the pipe does not when the
   * consumers share only its buffers; after the loop they are the
   * consumers' named barrier (the producer warp has returned). */
  ws_rewrite_barriers(P, cl.body, cl.header, mutex, !w->keep_barriers);
  join_exit(P, cl.exit, w->escapes, w->num_escapes, n, vals, last_in);
  ws_rewrite_barriers(P, cl.exit, NULL, mutex, false);
  return true;
}

typedef struct pass_options {
  gac_pipe_options schedule;
  const char *svg; /* where to draw the schedules, or NULL */
  size_t svg_len;
  unsigned loops;  /* loops pipelined so far */
  bool warp_specialize;
} pass_options;

/* The picture of a loop's schedule, written whole or not at all: the first
 * loop to PATH, the k-th to PATH.k.svg. */
static void write_svg(pipeliner *P, const gac_pipe_statement *st, pass_options *po) {
  char path[1024], tmp[1100], title[160];
  int len = po->loops == 1 ? snprintf(path, sizeof path, "%.*s", (int)po->svg_len, po->svg)
                           : snprintf(path, sizeof path, "%.*s.%u.svg", (int)po->svg_len, po->svg, po->loops);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  snprintf(title, sizeof title, "gac --pipeline-loops: the loop of PipelineLoop at word %zu",
           P->loop_marker->offset == GAC_NO_OFFSET ? (size_t)0 : P->loop_marker->offset);
  FILE *out = len > 0 && (size_t)len < sizeof path ? fopen(tmp, "w") : NULL;
  if (out)
    gac_pipe_schedule_svg(&P->sched, st, out, title);
  if (!out || fclose(out) != 0 || rename(tmp, path) != 0) {
    remove(tmp);
    gac_diag_add(P->diag, GAC_ERROR, GAC_NO_OFFSET, 0, "pipeline.svg", "cannot write the schedule picture %s", path);
  }
}

/* A loop of one stage stays as written, without its markers: the pass
 * looks for PipelineLoop until none is left, and found this one forever
 * (the fuzzer: a hang, then out of memory). */
static void remove_loop_markers(pipeliner *P) {
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    if (!P->in_loop[b])
      continue;
    for (gac_inst *i = P->cfg.blocks[b]->insts.first, *next; i; i = next) {
      next = i->next;
      if (is_marker(P, i, GAC_PIPELINE_LOOP) || is_marker(P, i, GAC_PIPELINE_STATEMENT))
        gac_inst_remove(P->m, i);
    }
  }
}

static bool pipeline_loop(gac_module *m, gac_function *f, gac_inst *loop_marker, pass_options *po,
                          gac_diag *diag) {
  const gac_pipe_options *opts = &po->schedule;
  pipeliner *P = calloc(1, sizeof *P);
  P->m = m, P->f = f, P->diag = diag, P->loop_marker = loop_marker;
  gac_lowering_init(&P->L, m);
  P->async_mask = marker_word(m, loop_marker, GAC_PIPELINE_ASYNC_STAGES_WORD);
  split_at_markers(P);
  gac_cfg_build(&P->cfg, m, f);
  escape escapes[64];
  unsigned num_escapes = 0;
  bool ok = find_loop(P) && find_counter(P) && find_statements(P) && check_values(P) && find_buffers(P) &&
            find_async(P) && find_escapes(P, escapes, &num_escapes);
  if (ok)
    find_overlap(P), find_intensity(P);
  gac_pipe_statement st[MAX_STMTS];
  gac_pipe_dep deps[2 * MAX_STMTS * MAX_BUFFERS];
  unsigned nd = 0;
  if (ok) {
    for (unsigned s = 0; s < P->num_stmts; s++)
      st[s] = (gac_pipe_statement){P->stmts[s].stage, P->stmts[s].order, P->stmts[s].async,
                                   P->stmts[s].wait_conditional};
    /* Reads wait for the async write they read; writes wait for the async
     * copy that read the same version `versions` iterations earlier. */
    for (unsigned k = 0; k < P->num_buffers; k++) {
      const buffer_info *bi = &P->buffers[k];
      for (unsigned s = 0; bi->writer >= 0 && s < P->num_stmts; s++) {
        if (!(bi->users >> s & 1) || (int)s == bi->writer)
          continue;
        deps[nd++] = (gac_pipe_dep){s, (unsigned)bi->writer, 0};
        if (bi->copy_readers >> s & 1 && P->stmts[s].async)
          deps[nd++] = (gac_pipe_dep){(unsigned)bi->writer, s, bi->versions};
      }
    }
    char error[400];
    if (!gac_pipe_schedule_build(&P->sched, st, P->num_stmts, deps, nd, opts, error, sizeof error))
      ok = fail(P, loop_marker, "Pipeline.Schedule", "%s", error);
  }
  unsigned S = ok ? P->sched.max_stage : 0;
  ws_plan ws = {.escapes = escapes, .num_escapes = num_escapes};
  bool specialized = false;
  if (ok && S > 0 && po->warp_specialize) {
    char why[300];
    const char *no = ws_why_not(P, &ws, why, sizeof why);
    if (no)
      gac_diag_add(diag, GAC_REMARK, loop_marker->offset, 0, "Pipeline.NotSpecialized",
                   "not warp-specialised: %s; pipelined for every work-item instead", no);
    specialized = !no;
  }
  if (ok && S > 0) {
    P->void_type = gac_type_void(m);
    P->event_type = gac_type_event(m);
    P->null_event = gac_constant_null(m, P->event_type);
    P->pipeline_set = gac_require_ext_inst_import(m, GAC_ASYNC_PIPELINE_SET);
  }
  if (specialized) {
    ws.depth = 2;
    for (unsigned k = 0; k < P->num_buffers; k++)
      if (is_pipe_buffer(P, P->buffers[k].var) && P->buffers[k].versions > ws.depth)
        ws.depth = P->buffers[k].versions;
    ws.depth = ws.depth > GAC_PIPE_MAX_DEPTH ? GAC_PIPE_MAX_DEPTH : ws.depth;
    ok = emit_warp_specialized(P, &ws);
    if (ok)
      gac_diag_add(diag, GAC_REMARK, loop_marker->offset, 0, "Pipeline.WarpSpecialized",
                   "warp-specialised the loop: a producer warp (work-items %llu..%llu) fills a ring of %u slots, "
                   "%llu consumers wait for each slot and release it; their barriers in the loop %s",
                   (unsigned long long)ws.consumers, (unsigned long long)ws.consumers + WS_PRODUCERS - 1, ws.depth,
                   (unsigned long long)ws.consumers,
                   ws.keep_barriers ? "are a named barrier of the consumers"
                                    : "are dropped (they share only the ring's buffers, which the ring orders)");
  } else if (ok && S > 0) {
    for (unsigned k = 0; k < P->num_buffers; k++)
      if (P->buffers[k].versions > 1)
        add_versions(P, &P->buffers[k]);
    /* The entry edge goes to the pipelined code, which starts with n. Every
     * trip count takes it: with fewer iterations than stages, the prologue
     * and epilogue skip the instances of iterations that do not exist
     * (guards, below). The loop as written, no longer reached, is removed
     * at the end. It once ran those short loops: LLVM then unrolled it into
     * straight code whose register pressure set the whole kernel's (a
     * pipelined SGEMM: 53 registers against 38 without it). */
    gac_block *cur = enter_new_code(P);
    gac_builder pb = gac_builder_at_end(m, &cur->insts);
    uint32_t n = trip_count(P, &pb);
    uint32_t vals[MAX_CARRIED], last_in[MAX_CARRIED];
    for (unsigned k = 0; k < P->num_carried; k++)
      vals[k] = last_in[k] = P->carried[k].init;
    /* Prologue. */
    for (unsigned p = 0; p < S; p++)
      emit_step(P, &cur, &P->sched.prologue[p], iv_const(P, p), vals, &last_in,
                &(step_guard){GUARD_PROLOGUE, p, n});
    /* Body: for (k = min(S, n); k < n; k++): with n < S it does not run,
     * and the epilogue's steps are n + e as they are when it does. */
    gac_builder kb = gac_builder_at_end(m, &cur->insts);
    uint32_t short_loop = lower_op2(&kb, SpvOpULessThan, P->L.bool_type, n, iv_const(P, S));
    uint32_t k_first = gac_build_ops(&kb, SpvOpSelect, P->iv_type, GAC_NEW_ID, GAC_ID(short_loop), GAC_ID(n),
                                     GAC_ID(iv_const(P, S)))->result_id;
    gac_block *bh = gac_block_create(m, f, NULL), *bb = gac_block_create(m, f, NULL);
    gac_block *epi = gac_block_create(m, f, NULL);
    gac_builder cb = gac_builder_at_end(m, &cur->insts);
    gac_build_ops(&cb, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(bh)));
    gac_builder hb = gac_builder_at_end(m, &bh->insts);
    uint32_t k_id = gac_module_new_id(m), k_next = gac_module_new_id(m);
    gac_inst *k_phi = gac_build_ops(&hb, SpvOpPhi, P->iv_type, k_id, GAC_ID(k_first),
                                    GAC_ID(gac_block_label(cur)), GAC_ID(k_next), GAC_ID(0));
    gac_inst *phis[MAX_CARRIED];
    for (unsigned k = 0; k < P->num_carried; k++) {
      phis[k] = gac_build_ops(&hb, SpvOpPhi, P->carried[k].phi->type_id, GAC_NEW_ID, GAC_ID(vals[k]),
                              GAC_ID(gac_block_label(cur)), GAC_ID(vals[k]), GAC_ID(0));
      vals[k] = phis[k]->result_id;
    }
    uint32_t more = lower_op2(&hb, SpvOpULessThan, P->L.bool_type, k_id, n);
    gac_build_ops(&hb, SpvOpBranchConditional, 0, 0, GAC_ID(more), GAC_ID(gac_block_label(bb)),
                  GAC_ID(gac_block_label(epi)));
    /* No last_in from the body: the epilogue runs again every owner of a
     * carried value whose input is used after the loop (stage > 0). */
    emit_step(P, &bb, &P->sched.body, k_id, vals, NULL, &(step_guard){GUARD_NONE, 0, n});
    gac_builder lb = gac_builder_at_end(m, &bb->insts);
    gac_build_ops(&lb, SpvOpIAdd, P->iv_type, k_next, GAC_ID(k_id), GAC_ID(iv_const(P, 1)));
    gac_build_ops(&lb, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(bh)));
    uint32_t latch_label = gac_block_label(bb);
    gac_inst_set_id_operand(m, k_phi, 5, latch_label);
    for (unsigned k = 0; k < P->num_carried; k++) {
      gac_inst_set_id_operand(m, phis[k], 4, vals[k]);
      gac_inst_set_id_operand(m, phis[k], 5, latch_label);
      vals[k] = phis[k]->result_id;
    }
    /* Epilogue. */
    cur = epi;
    for (unsigned e = 0; e < S; e++) {
      gac_builder eb = gac_builder_at_end(m, &cur->insts);
      /* Step n + e, written with the body's counter (n when the body ends) so
       * that versions read here relate to those the body wrote. */
      uint32_t t = op2(P, &eb, SpvOpIAdd, k_id, iv_const(P, e));
      emit_step(P, &cur, &P->sched.epilogue[e], t, vals, &last_in, &(step_guard){GUARD_EPILOGUE, e, n});
    }
    join_exit(P, cur, escapes, num_escapes, n, vals, last_in);
  } else if (ok) {
    remove_loop_markers(P);
  }
  if (ok) {
    if (!specialized) {
      /* What was done, for the reader (and the tests). */
      char text[2048], step[512];
      int len = snprintf(text, sizeof text, "%u statements, stages 0..%u", P->num_stmts, S);
      for (unsigned k = 0; k < P->num_buffers && len < (int)sizeof text; k++)
        if (P->buffers[k].versions > 1)
          len += snprintf(text + len, sizeof text - len, ", %u versions of %%%u", P->buffers[k].versions,
                          P->buffers[k].var);
      for (unsigned p = 0; p < S && len < (int)sizeof text; p++) {
        gac_pipe_step_format(&P->sched.prologue[p], step, sizeof step);
        len += snprintf(text + len, sizeof text - len, "; prologue %u: %s", p, step);
      }
      gac_pipe_step_format(&P->sched.body, step, sizeof step);
      if (len < (int)sizeof text)
        len += snprintf(text + len, sizeof text - len, "; body: %s", step);
      for (unsigned e = 0; e < S && len < (int)sizeof text; e++) {
        gac_pipe_step_format(&P->sched.epilogue[e], step, sizeof step);
        len += snprintf(text + len, sizeof text - len, "; epilogue %u: %s", e, step);
      }
      gac_diag_add(diag, GAC_REMARK, loop_marker->offset, 0, "Pipeline.Schedule", "pipelined the loop: %s%s", text,
                   S ? "; with fewer iterations than stages, the prologue and epilogue skip those that do not exist"
                     : " (one stage: nothing to do)");
    }
    say_local_memory(P);
    say_overlap(P);
    say_intensity(P);
    po->loops++;
    if (po->svg)
      write_svg(P, st, po);
    /* The loop as written is no longer reached. */
    gac_function_remove_unreachable_blocks(m, f);
    gac_function_sort_blocks(m, f);
  }
  gac_pipe_schedule_free(&P->sched);
  gac_cfg_free(&P->cfg);
  free(P->in_loop), free(P->region), free(P);
  return ok;
}

bool gac_pipeline_loops(gac_module *m, const char *arg, gac_diag *diag) {
  pass_options opts = {.schedule.prune = true, .schedule.early_waits = true};
  for (const char *a = arg; a && *a;) {
    size_t len = strcspn(a, ",");
    if (len == 8 && strncmp(a, "no-prune", 8) == 0)
      opts.schedule.prune = false;
    else if (len == 10 && strncmp(a, "late-waits", 10) == 0)
      opts.schedule.early_waits = false; /* the RFC's placement: each wait just before its reader */
    else if (len == 15 && strncmp(a, "warp-specialize", 15) == 0)
      opts.warp_specialize = true; /* a producer warp and consumers (PTX, sm_90) */
    else if (len > 4 && strncmp(a, "svg=", 4) == 0)
      opts.svg = a + 4, opts.svg_len = len - 4;
    else {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "pipeline.option",
                   "--pipeline-loops takes 'no-prune', 'late-waits', 'warp-specialize' and 'svg=FILE', not '%.*s'",
                   (int)len, a);
      return false;
    }
    a += len + (a[len] == ',');
  }
  if (!gac_find_ext_inst_import(m, GAC_ASYNC_PIPELINE_SET))
    return false;
  if (!gac_validate_async_pipeline(m, diag))
    return false;
  bool progress = false;
  gac_foreach_function(f, m) {
    for (bool again = true; again;) {
      again = false;
      gac_foreach_block(b, f) {
        gac_foreach_inst(i, &b->insts) {
          if (gac_async_pipeline_op_of(m, i) != GAC_PIPELINE_LOOP)
            continue;
          if (!pipeline_loop(m, f, i, &opts, diag))
            return false;
          progress = again = true;
          break;
        }
        if (again)
          break;
      }
    }
  }
  return progress;
}
