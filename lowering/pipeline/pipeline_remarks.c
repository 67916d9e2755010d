/* The remarks of --pipeline-loops, which change nothing: what the versions
 * cost in local memory (a warning past what a CUDA device launches),
 * copies of consecutive iterations that overlap (re-read from global
 * memory), and loops too memory-bound for pipelining to pay
 * (Pipeline.MemoryBound: flops per byte copied, per iteration). */
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
#include "pipeline_loops_internal.h"
#include "pipeline_schedule.h"

/* What the pipeline costs in local memory, said once the versions exist:
 * a remark, and a warning where the function's local arrays pass what the
 * target says a work-group may take (gac_pipeline_loops_options). */
/* Measured on bench/cuda (docs/results/PTX.md#stencil-schedules): the
 * 5-point stencil at n = 8192, whose 34-line tiles overlap by 2, read 3-4%
 * more from DRAM pipelined in 3 stages and ran slower than its unpipelined
 * build on an H100 (2558 against 2720 GB/s). */
void pipeline_say_overlap(pipeliner *P) {
  if (!P->overlap_copy)
    return;
  gac_diag_add(P->diag, GAC_REMARK, P->overlap_copy->offset, P->overlap_copy->result_id, "Pipeline.OverlappingCopies",
               "the copy's tiles of consecutive iterations overlap by %llu of %llu lines: a step's copy runs while "
               "the previous one is in flight, so the overlap may be fetched from memory twice; a memory-bound "
               "loop may then run slower pipelined (measured: bench/cuda's stencil, 0.95x unpipelined)",
               (unsigned long long)P->overlap_lines, (unsigned long long)P->overlap_of);
}

void pipeline_say_local_memory(pipeliner *P) {
  gac_module *m = P->m;
  uint64_t before = 0, after = 0, total = 0;
  for (unsigned k = 0; k < P->num_buffers; k++) {
    const gac_inst *var = gac_def(m, P->buffers[k].var);
    const gac_inst *ptr = var ? gac_def(m, var->type_id) : NULL;
    uint64_t bytes = ptr ? gac_type_bytes(m, ptr->words[3]) : 0;
    if (P->buffers[k].version_elems) /* a helper's __local pointer: its callers' arrays, counted here */
      total += bytes;
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
  if (P->local_memory_limit && total > P->local_memory_limit)
    gac_diag_add(P->diag, GAC_WARNING, P->loop_marker->offset, 0, "Pipeline.LocalMemory",
                 "the function's local arrays now take %llu bytes, more than the %llu %s (fewer stages or smaller "
                 "tiles fit)",
                 (unsigned long long)total, (unsigned long long)P->local_memory_limit, P->local_memory_limit_is);
}

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
void pipeline_find_overlap(pipeliner *P) {
  for (unsigned b = 0; b < P->cfg.num_blocks && !P->overlap_copy; b++) {
    if (!P->in_loop[b] || P->region[b] < 0 || !P->stmts[P->region[b]].async)
      continue;
    gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
      gac_async_copy k;
      int64_t c;
      uint32_t unit;
      uint64_t lines, pitch;
      if (!gac_async_copy_decode(P->m, i, &k) || !gac_constant_value(P->m, k.num_lines, &lines) ||
          !pipeline_step_of(P, k.source_offset, &c, &unit, 0) || c <= 0)
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
  gac_block *hb = pipeline_block_at(P, h);
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
      gac_inst *t = body[b] ? gac_block_terminator(pipeline_block_at(P, b)) : NULL;
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
void pipeline_find_intensity(pipeliner *P) {
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
    gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
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

void pipeline_say_intensity(pipeliner *P) {
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
