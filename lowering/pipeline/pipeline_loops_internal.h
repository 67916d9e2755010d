/* What the files of --pipeline-loops share (docs/ASYNC_PIPELINE.md): the
 * pipeliner, one per annotated loop, which each step fills in turn. The
 * loop and its counter are recognised (pipeline_loop_shape.c); the loop's
 * body is cut into statements at the markers, the values that cross them
 * are checked and the Workgroup buffers they use found
 * (pipeline_statements.c); the buffers get their versions
 * (pipeline_versions.c); the schedule (pipeline_schedule.c) is emitted
 * as prologue, body and epilogue (pipeline_emit.c), or as a producer warp
 * and its consumers (pipeline_warp_specialize.c); remarks say what the
 * pipeline costs and where it may not pay (pipeline_remarks.c);
 * pipeline_loops.c runs the steps and is the pass. Calls run one way:
 * the pass calls every step; warp-specialised emission calls emission;
 * emission, the statements and the loop shape; the statements, the
 * versions; every file, pipeline_base.c, which calls none of them
 * (tests/architecture/lowering_has_no_circle.py). */
#ifndef GAC_PIPELINE_LOOPS_INTERNAL_H
#define GAC_PIPELINE_LOOPS_INTERNAL_H

#include "gac/builder.h"
#include "gac/cfg.h"
#include "lower_util.h"
#include "pipeline_schedule.h"

enum { MAX_STMTS = 32, MAX_BUFFERS = 32, MAX_CARRIED = 256, MAX_STMT_BLOCKS = 256, MAX_WIDE = 16 };

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
  uint64_t version_elems; /* var a helper's __local pointer: elements a version (pipeline_versions.c) */
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
  /* wide-copies (pipeline_wide_copies): the copies the pipelined code
   * issues in 16-byte elements, and whether it is being emitted. */
  uint32_t wide[MAX_WIDE];
  unsigned num_wide;
  bool emitting_wide;
  bool as_written; /* the loop as written stays, for when the test fails */
  /* The target's limit on a work-group's local memory, and why (0: none
   * known; gac_pipeline_loops_options). */
  uint64_t local_memory_limit;
  const char *local_memory_limit_is;
} pipeliner;
/* A value of the loop used after it, and what it is in the pipelined code. */
typedef struct escape {
  uint32_t id;
  enum { ESC_IV, ESC_INC, ESC_CARRIED_PHI, ESC_CARRIED_BACK } kind;
  unsigned carried;
} escape;
/* Which iterations a step's instances may lack, for loops of n < S
 * iterations: none in the body; in prologue step p, iteration p - stage
 * exists if it is below n; in epilogue step e (t = n + e), iteration
 * n + e - stage exists if n >= stage - e. n >= 1 always. */
typedef struct step_guard {
  enum { GUARD_NONE, GUARD_PROLOGUE, GUARD_EPILOGUE } kind;
  unsigned index; /* p or e */
  uint32_t n;
} step_guard;
enum { WS_PRODUCERS = 32 };

typedef struct ws_plan {
  uint64_t consumers;
  unsigned depth, producer_stage;
  bool keep_barriers; /* consumers share local memory besides the pipe's buffers */
  bool barriers_after; /* the code after the loop synchronises the work-group */
  const escape *escapes;
  unsigned num_escapes;
} ws_plan;

/* Shared helpers (pipeline_base.c). An error that the loop cannot be
 * pipelined, and why; false. */
bool pipeline_fail(pipeliner *P, const gac_inst *at, const char *rule, const char *fmt, ...) GAC_PRINTF(4, 5);
uint32_t pipeline_marker_word(const gac_module *m, const gac_inst *i, unsigned w);
gac_block *pipeline_block_at(const pipeliner *P, unsigned index);
unsigned pipeline_block_index(const pipeliner *P, const gac_inst *i);
/* A constant of the counter's type; op applied to two values of it. */
uint32_t pipeline_iv_const(pipeliner *P, uint64_t v);
uint32_t pipeline_op2(pipeliner *P, gac_builder *b, uint16_t op, uint32_t x, uint32_t y);

/* The loop and its counter (pipeline_loop_shape.c). */
bool pipeline_find_loop(pipeliner *P);
bool pipeline_defined_in_loop(const pipeliner *P, uint32_t id);
bool pipeline_step_of(const pipeliner *P, uint32_t v, int64_t *c, uint32_t *unit, unsigned depth);
bool pipeline_find_counter(pipeliner *P);

/* Remarks (pipeline_remarks.c): local memory, overlapping copies,
 * memory-bound loops. */
void pipeline_say_overlap(pipeliner *P);
void pipeline_say_local_memory(pipeliner *P);
void pipeline_find_overlap(pipeliner *P);
void pipeline_find_intensity(pipeliner *P);
void pipeline_say_intensity(pipeliner *P);

/* Statements, values crossing them, buffers (pipeline_statements.c). */
bool pipeline_is_marker(const pipeliner *P, const gac_inst *i, uint32_t op);
void pipeline_split_at_markers(pipeliner *P);
const char *pipeline_opname(uint16_t op);
bool pipeline_is_pure(const pipeliner *P, const gac_inst *i);
bool pipeline_is_hint(const gac_inst *i);
bool pipeline_find_statements(pipeliner *P);
int pipeline_region_of_id(const pipeliner *P, uint32_t id);
bool pipeline_check_values(pipeliner *P);
uint32_t pipeline_buffer_root(const pipeliner *P, uint32_t id);
buffer_info *pipeline_buffer_of(pipeliner *P, uint32_t var);
bool pipeline_writes(const pipeliner *P, const gac_inst *i, unsigned operand);
bool pipeline_find_buffers(pipeliner *P);
bool pipeline_find_async(pipeliner *P);

/* Versions of the buffers (pipeline_versions.c): bi's buffer as bi->versions
 * of itself (a kernel's array widened in place, a helper's parameter in its
 * callers' arrays). */
void pipeline_add_versions(pipeliner *P, buffer_info *bi);
/* The Workgroup variable var as one of [versions x its type], in its place:
 * every function that used var reaches it through &new[0], made at its
 * entry (*v0_of_f: P->f's, 0 if it has none). Returns the new variable. */
uint32_t pipeline_version_variable(pipeliner *P, gac_inst *var, unsigned versions, uint32_t *v0_of_f);
/* Every use of old in function g but keep's takes id instead. */
void pipeline_replace_in_function(gac_module *m, uint32_t old, uint32_t id, const gac_function *g, const gac_inst *keep);
/* A versioned __local pointer parameter: whether every call passes an array
 * whose length can grow (else a diagnostic), and the callers' arrays made
 * versions times as long. */
bool pipeline_param_callers(pipeliner *P, buffer_info *bi);
void pipeline_add_param_versions(pipeliner *P, buffer_info *bi);

/* Emission of the schedule (pipeline_emit.c). */
uint32_t pipeline_emit_instance(pipeliner *P, gac_block **cur, unsigned s, uint32_t j, uint32_t *carried_vals,
                                uint32_t chain, bool commits, uint32_t guard);
uint32_t pipeline_trip_count(pipeliner *P, gac_builder *b);
/* The test, built at b, under which the pipelined code may issue the
 * loop's copies of narrower elements in 16-byte elements; 0 when no copy
 * can be (P->wide: those that can). */
uint32_t pipeline_wide_copies(pipeliner *P, gac_builder *b);
bool pipeline_find_escapes(pipeliner *P, escape *out, unsigned *num);
void pipeline_emit_step(pipeliner *P, gac_block **cur, const gac_pipe_step *step, uint32_t t, uint32_t *vals,
                        uint32_t (*last_in)[MAX_CARRIED], const step_guard *g);
gac_block *pipeline_enter_new_code(pipeliner *P);
void pipeline_join_exit(pipeliner *P, gac_block *cur, const escape *escapes, unsigned num_escapes, uint32_t n,
                        const uint32_t *vals, const uint32_t *last_in);

/* The warp-specialised schedule (pipeline_warp_specialize.c). */
bool pipeline_is_pipe_buffer(const pipeliner *P, uint32_t root);
const char *pipeline_ws_why_not(pipeliner *P, ws_plan *w, char *why, size_t len);
bool pipeline_emit_warp_specialized(pipeliner *P, const ws_plan *w);

#endif
