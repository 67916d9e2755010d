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
 * first with the count lowering/pipeline/pipeline_schedule.c derives. Values computed
 * purely from invariants and the counter are recomputed where a statement
 * needs them; anything else that would cross statements outside memory is
 * rejected with the reason.
 *
 * This file runs the steps for each annotated loop and is the pass
 * (--pipeline-loops[=...], lowering.h's GAC_PIPELINE_LOOPS_ARGS, and the
 * schedule's options); pipeline_loops_internal.h says which file does what. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/passes.h"

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builder.h"
#include "gac/cfg.h"
#include "gac/validate.h"
#include "lower_util.h"
#include "lowering.h"
#include "pipeline_loops_internal.h"
#include "pipeline_schedule.h"


typedef struct pass_options {
  gac_pipe_options schedule;
  const char *svg; /* where to draw the schedules, or NULL */
  size_t svg_len;
  unsigned loops;  /* loops pipelined so far */
  bool warp_specialize;
  bool wide_copies; /* a second body issuing copies in 16-byte elements (pipeline_wide_copies) */
  uint64_t local_memory_limit; /* the target's (pipeline_say_local_memory) */
  const char *local_memory_limit_is;
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
      if (pipeline_is_marker(P, i, GAC_PIPELINE_LOOP) || pipeline_is_marker(P, i, GAC_PIPELINE_STATEMENT))
        gac_inst_remove(P->m, i);
    }
  }
}

/* A copy fence orders the copies of the body as written: the schedule
 * would move copies of later iterations across it. */
static bool no_fences(pipeliner *P) {
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    if (!P->in_loop[b])
      continue;
    gac_foreach_inst(i, &P->cfg.blocks[b]->insts) {
      if (gac_async_pipeline_op_of(P->m, i) == GAC_ASYNC_COPY_FENCE)
        return pipeline_fail(P, i, "Pipeline.Fence",
                             "the loop has an async_work_group_copy_fence (AsyncCopyFence), which orders its copies "
                             "as written; the pipelined schedule would issue later iterations' copies before it");
    }
  }
  return true;
}

/* A loop the pass cannot pipeline (its shape, its annotations, a schedule
 * that does not exist) stays as written, its markers removed: the reasons,
 * errors as found (entries from `first` on), become warnings that say so,
 * as clang warns when a loop pragma's transformation cannot be done. The
 * analyses before the rewrite change nothing the loop means (they split
 * blocks at the markers and add constants). */
static void keep_as_written(pipeliner *P, gac_diag *diag, size_t first) {
  for (size_t i = first; i < diag->count; i++) {
    gac_diag_entry *e = &diag->entries[i];
    if (e->severity != GAC_ERROR)
      continue;
    static const char tail[] = "; the loop stays as written";
    size_t len = strlen(e->message);
    char *message = realloc(e->message, len + sizeof tail);
    if (message) {
      memcpy(message + len, tail, sizeof tail);
      e->message = message;
    }
    e->severity = GAC_WARNING;
    diag->error_count--;
  }
  /* This marker goes whatever else is found (or the pass would find it
   * again, forever); then the loop's statement markers. */
  gac_block *marker_block = gac_inst_block(P->loop_marker);
  gac_inst_remove(P->m, P->loop_marker);
  P->loop_marker = NULL;
  bool found_loop = false;
  for (unsigned b = 0; P->in_loop && b < P->cfg.num_blocks; b++)
    found_loop |= P->in_loop[b];
  if (found_loop) {
    remove_loop_markers(P);
    return;
  }
  /* No loop around the marker: its block's statement markers go. */
  for (gac_inst *i = marker_block->insts.first, *next; i; i = next) {
    next = i->next;
    if (pipeline_is_marker(P, i, GAC_PIPELINE_LOOP) || pipeline_is_marker(P, i, GAC_PIPELINE_STATEMENT))
      gac_inst_remove(P->m, i);
  }
}

/* The loop as written, entered from `from` (which it ends) in place of its
 * preheader; its markers go at the end of the pass. */
static void enter_as_written(pipeliner *P, gac_block *from) {
  gac_module *m = P->m;
  gac_block *H = pipeline_block_at(P, P->header);
  uint32_t pre = gac_block_label(pipeline_block_at(P, P->preheader));
  gac_builder b = gac_builder_at_end(m, &from->insts);
  gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(H)));
  for (gac_inst *phi = H->insts.first->next; phi && phi->opcode == SpvOpPhi; phi = phi->next)
    for (unsigned k = 3; k < phi->num_operands; k += 2)
      if (gac_operand_word(phi, k) == pre)
        gac_inst_set_id_operand(m, phi, k, gac_block_label(from));
  P->as_written = true;
}

/* The body: for (k = k_first; k < n; k++) one step, entered from `from`
 * (which it ends), leaving from its header to `to`. vals: the carried
 * values on entry, then as it leaves them; returns the counter as it
 * leaves it. */
static uint32_t emit_body_loop(pipeliner *P, gac_block *from, gac_block *to, uint32_t k_first, uint32_t n,
                               uint32_t *vals) {
  gac_module *m = P->m;
  gac_block *bh = gac_block_create(m, P->f, NULL), *bb = gac_block_create(m, P->f, NULL);
  gac_builder cb = gac_builder_at_end(m, &from->insts);
  gac_build_ops(&cb, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(bh)));
  gac_builder hb = gac_builder_at_end(m, &bh->insts);
  uint32_t k_id = gac_module_new_id(m), k_next = gac_module_new_id(m);
  gac_inst *k_phi = gac_build_ops(&hb, SpvOpPhi, P->iv_type, k_id, GAC_ID(k_first), GAC_ID(gac_block_label(from)),
                                  GAC_ID(k_next), GAC_ID(0));
  gac_inst *phis[MAX_CARRIED];
  for (unsigned k = 0; k < P->num_carried; k++) {
    phis[k] = gac_build_ops(&hb, SpvOpPhi, P->carried[k].phi->type_id, GAC_NEW_ID, GAC_ID(vals[k]),
                            GAC_ID(gac_block_label(from)), GAC_ID(vals[k]), GAC_ID(0));
    vals[k] = phis[k]->result_id;
  }
  uint32_t more = lower_op2(&hb, SpvOpULessThan, P->L.bool_type, k_id, n);
  gac_build_ops(&hb, SpvOpBranchConditional, 0, 0, GAC_ID(more), GAC_ID(gac_block_label(bb)),
                GAC_ID(gac_block_label(to)));
  /* No last_in from the body: the epilogue runs again every owner of a
   * carried value whose input is used after the loop (stage > 0). */
  pipeline_emit_step(P, &bb, &P->sched.body, k_id, vals, NULL, &(step_guard){GUARD_NONE, 0, n});
  gac_builder lb = gac_builder_at_end(m, &bb->insts);
  gac_build_ops(&lb, SpvOpIAdd, P->iv_type, k_next, GAC_ID(k_id), GAC_ID(pipeline_iv_const(P, 1)));
  gac_build_ops(&lb, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(bh)));
  uint32_t latch_label = gac_block_label(bb);
  gac_inst_set_id_operand(m, k_phi, 5, latch_label);
  for (unsigned k = 0; k < P->num_carried; k++) {
    gac_inst_set_id_operand(m, phis[k], 4, vals[k]);
    gac_inst_set_id_operand(m, phis[k], 5, latch_label);
    vals[k] = phis[k]->result_id;
  }
  return k_id;
}

/* The body from `from`, then the epilogue; returns the block the epilogue
 * ends in (without a terminator). vals and last_in as pipeline_emit_step. */
static gac_block *emit_body_and_epilogue(pipeliner *P, gac_block *from, uint32_t k_first, uint32_t n, uint32_t *vals,
                                         uint32_t (*last_in)[MAX_CARRIED]) {
  gac_block *cur = gac_block_create(P->m, P->f, NULL);
  uint32_t k_id = emit_body_loop(P, from, cur, k_first, n, vals);
  for (unsigned e = 0; e < P->sched.max_stage; e++) {
    gac_builder eb = gac_builder_at_end(P->m, &cur->insts);
    /* Step n + e, written with the body's counter (n when the body ends) so
     * that versions read here relate to those the body wrote. */
    uint32_t t = pipeline_op2(P, &eb, SpvOpIAdd, k_id, pipeline_iv_const(P, e));
    pipeline_emit_step(P, &cur, &P->sched.epilogue[e], t, vals, last_in,
                       &(step_guard){GUARD_EPILOGUE, e, n});
  }
  return cur;
}

static bool pipeline_loop(gac_module *m, gac_function *f, gac_inst *loop_marker, pass_options *po,
                          gac_diag *diag) {
  const gac_pipe_options *opts = &po->schedule;
  size_t first_diag = diag->count;
  pipeliner *P = calloc(1, sizeof *P);
  P->m = m, P->f = f, P->diag = diag, P->loop_marker = loop_marker;
  P->local_memory_limit = po->local_memory_limit, P->local_memory_limit_is = po->local_memory_limit_is;
  gac_lowering_init(&P->L, m);
  P->async_mask = pipeline_marker_word(m, loop_marker, GAC_PIPELINE_ASYNC_STAGES_WORD);
  pipeline_split_at_markers(P);
  gac_cfg_build(&P->cfg, m, f);
  escape escapes[64];
  unsigned num_escapes = 0;
  bool ok = pipeline_find_loop(P) && no_fences(P) && pipeline_find_counter(P) && pipeline_find_statements(P) && pipeline_check_values(P) && pipeline_find_buffers(P) &&
            pipeline_find_async(P) && pipeline_find_escapes(P, escapes, &num_escapes);
  if (ok)
    pipeline_find_overlap(P), pipeline_find_intensity(P);
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
      ok = pipeline_fail(P, loop_marker, "Pipeline.Schedule", "%s", error);
  }
  if (!ok) {
    keep_as_written(P, diag, first_diag);
    gac_pipe_schedule_free(&P->sched);
    gac_cfg_free(&P->cfg);
    free(P->in_loop), free(P->region), free(P);
    return true;
  }
  unsigned S = ok ? P->sched.max_stage : 0;
  ws_plan ws = {.escapes = escapes, .num_escapes = num_escapes};
  bool specialized = false;
  if (ok && S > 0 && po->warp_specialize) {
    char why[300];
    const char *no = pipeline_ws_why_not(P, &ws, why, sizeof why);
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
      if (pipeline_is_pipe_buffer(P, P->buffers[k].var) && P->buffers[k].versions > ws.depth)
        ws.depth = P->buffers[k].versions;
    ws.depth = ws.depth > GAC_PIPE_MAX_DEPTH ? GAC_PIPE_MAX_DEPTH : ws.depth;
    ok = pipeline_emit_warp_specialized(P, &ws);
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
        pipeline_add_versions(P, &P->buffers[k]);
    /* The entry edge goes to the pipelined code, which starts with n. Every
     * trip count takes it: with fewer iterations than stages, the prologue
     * and epilogue skip the instances of iterations that do not exist
     * (guards, below). The loop as written, no longer reached, is removed
     * at the end. It once ran those short loops: LLVM then unrolled it into
     * straight code whose register pressure set the whole kernel's (a
     * pipelined SGEMM: 53 registers against 38 without it). */
    gac_block *cur = pipeline_enter_new_code(P);
    gac_builder pb = gac_builder_at_end(m, &cur->insts);
    uint32_t n = pipeline_trip_count(P, &pb);
    uint32_t vals[MAX_CARRIED], last_in[MAX_CARRIED];
    for (unsigned k = 0; k < P->num_carried; k++)
      vals[k] = last_in[k] = P->carried[k].init;
    /* wide-copies: the pipelined code issues the copies it can in 16-byte
     * elements, where a test finds them aligned; elsewhere the loop runs as
     * written (one pipelined version only: a second, with the copies'
     * every unit width, cost the first its registers, docs/PTX.md). */
    uint32_t wide = po->wide_copies ? pipeline_wide_copies(P, &pb) : 0;
    if (wide) {
      gac_diag_add(P->diag, GAC_REMARK, P->loop_marker->offset, 0, "Pipeline.WideCopies",
                   "the pipelined loop issues %u cop%s in 16-byte elements, taken where a test before it finds %s "
                   "pointers, offsets and strides 16-byte aligned (they change by multiples of 16 bytes an "
                   "iteration); elsewhere the loop runs as written",
                   P->num_wide, P->num_wide == 1 ? "y" : "ies", P->num_wide == 1 ? "its" : "their");
      gac_block *pipelined = gac_block_create(m, f, NULL), *as_written = gac_block_create(m, f, NULL);
      gac_build_ops(&pb, SpvOpBranchConditional, 0, 0, GAC_ID(wide), GAC_ID(gac_block_label(pipelined)),
                    GAC_ID(gac_block_label(as_written)));
      enter_as_written(P, as_written);
      cur = pipelined;
      P->emitting_wide = true;
    }
    /* Prologue. */
    for (unsigned p = 0; p < S; p++)
      pipeline_emit_step(P, &cur, &P->sched.prologue[p], pipeline_iv_const(P, p), vals, &last_in,
                &(step_guard){GUARD_PROLOGUE, p, n});
    /* Body: for (k = min(S, n); k < n; k++): with n < S it does not run,
     * and the epilogue's steps are n + e as they are when it does. */
    gac_builder kb = gac_builder_at_end(m, &cur->insts);
    uint32_t short_loop = lower_op2(&kb, SpvOpULessThan, P->L.bool_type, n, pipeline_iv_const(P, S));
    uint32_t k_first = gac_build_ops(&kb, SpvOpSelect, P->iv_type, GAC_NEW_ID, GAC_ID(short_loop), GAC_ID(n),
                                     GAC_ID(pipeline_iv_const(P, S)))->result_id;
    cur = emit_body_and_epilogue(P, cur, k_first, n, vals, &last_in);
    P->emitting_wide = false;
    pipeline_join_exit(P, cur, escapes, num_escapes, n, vals, last_in);
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
    pipeline_say_local_memory(P);
    pipeline_say_overlap(P);
    pipeline_say_intensity(P);
    po->loops++;
    if (po->svg)
      write_svg(P, st, po);
    if (P->as_written)
      remove_loop_markers(P);
    /* The loop as written is no longer reached (unless wide-copies' test
     * fails). */
    gac_function_remove_unreachable_blocks(m, f);
    gac_function_sort_blocks(m, f);
  }
  gac_pipe_schedule_free(&P->sched);
  gac_cfg_free(&P->cfg);
  free(P->in_loop), free(P->region), free(P);
  return ok;
}

/* The grammar of --pipeline-loops=ARG, one word per flag (lowering.h's
 * GAC_PIPELINE_LOOPS_ARGS spells it for the help text), then svg=FILE. */
static const struct {
  const char *word;
  size_t flag; /* offset of its bool in gac_pipeline_loops_options */
} pipeline_words[] = {
    {"no-prune", offsetof(gac_pipeline_loops_options, no_prune)},
    {"late-waits", offsetof(gac_pipeline_loops_options, late_waits)},           /* each wait just before its reader (the RFC's) */
    {"wide-copies", offsetof(gac_pipeline_loops_options, wide_copies)},         /* a second body of 16-byte copies */
    {"warp-specialize", offsetof(gac_pipeline_loops_options, warp_specialize)}, /* a producer warp (sm_90) */
};

bool gac_pipeline_loops_parse(const char *arg, gac_pipeline_loops_options *o, gac_diag *diag) {
  *o = (gac_pipeline_loops_options){0};
  for (const char *a = arg; a && *a;) {
    size_t len = strcspn(a, ","), w = 0, n = sizeof pipeline_words / sizeof *pipeline_words;
    while (w < n && (strlen(pipeline_words[w].word) != len || strncmp(a, pipeline_words[w].word, len) != 0))
      w++;
    if (w < n) {
      *(bool *)((char *)o + pipeline_words[w].flag) = true;
    } else if (len > 4 && strncmp(a, "svg=", 4) == 0) {
      o->svg = a + 4, o->svg_len = len - 4;
    } else {
      char words[128] = "";
      for (w = 0; w < n; w++)
        snprintf(words + strlen(words), sizeof words - strlen(words), "%s'%s'", w ? ", " : "", pipeline_words[w].word);
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "pipeline.option",
                   "--pipeline-loops takes %s and 'svg=FILE', not '%.*s'", words, (int)len, a);
      return false;
    }
    a += len + (a[len] == ',');
  }
  return true;
}

bool gac_pipeline_loops(gac_module *m, const char *arg, gac_diag *diag) {
  gac_pipeline_loops_options o;
  return gac_pipeline_loops_parse(arg, &o, diag) && gac_pipeline_loops_with(m, &o, diag);
}

bool gac_pipeline_loops_with(gac_module *m, const gac_pipeline_loops_options *o, gac_diag *diag) {
  pass_options opts = {.schedule.prune = !o->no_prune, .schedule.early_waits = !o->late_waits,
                       .warp_specialize = o->warp_specialize, .wide_copies = o->wide_copies, .svg = o->svg,
                       .svg_len = o->svg_len, .local_memory_limit = o->local_memory_limit,
                       .local_memory_limit_is = o->local_memory_limit_is ? o->local_memory_limit_is : "the target gives a work-group"};
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
  /* The prologue's and epilogue's guards select a carried value of any
   * type on a scalar bool: OpSelect cannot have an event, a vector on a
   * scalar condition, or (before SPIR-V 1.4) a composite */
  if (progress)
    gac_split_event_selects(m, NULL, diag);
  return progress;
}
