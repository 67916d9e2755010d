/* The target interface of the copy lowering: the shared lowering
 * (lower_async_copies.c, counted_waits.c) asks, each target answers from
 * its own folder (opencl/, ptx/, amdgcn/), as LLVM's generic code asks
 * TargetLowering and NIR's generic passes call the callbacks of their
 * options. The shared lowering names no target; a target includes this
 * header and fills a lower_target, never the reverse
 * (tests/architecture/shared_lowering_names_no_target.py).
 *
 * A hook left NULL means the target does nothing special there. */
#ifndef GAC_LOWER_TARGET_H
#define GAC_LOWER_TARGET_H

#include "lower_util.h"

/* The pieces of one copy, as values of the size type (bytes where noted). */
typedef struct lower_copy_plan {
  gac_async_copy k;
  uint32_t src, dst; /* the pointers as uchar pointers */
  uint32_t src_ptr_type, dst_ptr_type;
  uint32_t line_bytes;  /* elements per line x bytes per element */
  uint32_t total_lines; /* planes x lines */
  /* What is known at compile time. A loop whose count is a constant 0 is not
   * emitted at all: PoCL 3.1 miscompiled kernels with such loops (an empty
   * kernel body) where the count folded to 0 in a path never taken. */
  bool empty;                /* a constant 0 elements, bytes, lines or planes */
  uint64_t line_bytes_known; /* 0 if not a constant */
  bool in_helper;            /* built in a copy helper, which launches of any size call */
  uint32_t completes_on;     /* a target's: what the copy's units complete on (0: nothing of the copy's own) */
} lower_copy_plan;

/* The ways a copy is moved in core SPIR-V (lower_async_copies.c). */
typedef enum lower_copy_way {
  LOWER_LINES,       /* one OpGroupAsyncCopy per line, chained on one event */
  LOWER_LINES_SHARED_EVENT, /* the same, the first line's event handed to the others: none carried round
                               the loop of lines (which PoCL 3.1's work-group passes other than loops
                               abort on, conformance/random/known/pocl31-line-loop-event.cl) */
  LOWER_COOPERATIVE, /* the work-items share units of 16, 8, 4 or 1 bytes */
  LOWER_SERIAL,      /* work-item 0 copies byte by byte (a benchmark baseline) */
  LOWER_LEADER,      /* work-item 0 copies line after line */
} lower_copy_way;

/* How the copies went, for finish. */
typedef enum lower_outcome { LOWER_NO_COPIES, LOWER_COPIES_FAILED, LOWER_COPIES_DONE } lower_outcome;

/* What a wait covers that its wait emitter needs (counted_waits.c). */
typedef struct lower_wait {
  gac_inst *inst;
  uint32_t op;     /* GAC_ASYNC_COMMIT, GAC_ASYNC_WAIT, or 0 for OpGroupWaitEvents */
  uint32_t count;  /* the wait's count (a commit's: the loads an empty group is padded with) */
  uint32_t split;  /* In Flight one of two constants: the first (an id), */
  uint32_t count2; /* and the count for the other (count: for the first) */
  bool drain;      /* a wait on copies in flight */
  /* The queue and In Flight (for the first and the other constant),
   * LOWER_WAIT_ANY where not known */
  uint32_t queue, n, n2;
} lower_wait;

#define LOWER_WAIT_ANY 0xffffffffu

/* The counted waits (counted_waits.c): a forward dataflow counts, for each
 * wait on a queue, what may stay in flight; the emitter says what a group
 * weighs and writes the target's commits and waits. */
typedef struct lower_wait_emitter {
  /* What instruction i issues that the target's waits count (loads of one
   * wave, say), a lower bound; NULL: each group counts one, and a wait for
   * everything commits one more. */
  uint32_t (*issued)(gac_lowering *L, const gac_function *f, const gac_inst *i);
  /* Before the counts: tighten[id] (by result id) for each AsyncWait whose
   * count must cover one group more than it names. */
  void (*begin)(gac_lowering *L, bool *tighten);
  /* Before f's waits are written: deepest, the largest count among them. */
  void (*begin_function)(gac_lowering *L, gac_function *f, uint32_t deepest);
  /* An AsyncCommit, at b. (commit, wait and wait_all left NULL: the
   * target's copies are done when the work-items return from them, and a
   * wait is only its barrier.) */
  void (*commit)(gac_lowering *L, gac_builder *b, const lower_wait *w);
  /* A wait leaving at most `count` in flight, at b. */
  void (*wait)(gac_lowering *L, gac_builder *b, uint32_t count, uint32_t queue, uint32_t n);
  /* An OpGroupWaitEvents on copies in flight: a wait for all, at b. */
  void (*wait_all)(gac_lowering *L, gac_builder *b);
  /* After the wait of w is written (cond: the In Flight test of a split
   * wait, or 0): what else the target counts with. */
  void (*after_wait)(gac_lowering *L, const lower_wait *w, uint32_t cond);
  /* The barrier after a wait, at b: the other work-items' copies visible. */
  void (*barrier)(gac_lowering *L, gac_builder *b);
} lower_wait_emitter;

struct lower_target {
  /* The target counts its waits (counted_waits.c); NULL: queues become rings
   * of events (lower_async_queues.c) and waits stay OpGroupWaitEvents. */
  const lower_wait_emitter *waits;
  /* The target runs warp-specialised loops (WarpSpecialize). */
  bool warp_specialize;
  /* The target lowers core OpGroupAsyncCopy too (nothing after it would). */
  bool core_copies;
  /* The copies' events are dead: a copy's result is its Event operand (the
   * waits count without them). Else a copy ends with a real event. */
  bool events_dead;
  /* Every unit holds whole elements of 4, 8 or 16 bytes (OpenCL aligns
   * every element to its size), except the target's widest unit. */
  bool whole_element_units;
  /* A work-item's share of units over a work-group size known only at run
   * time is a loop stepping the unit (id, id + size, ...) rather than one
   * counting total / size + 1 iterations (lower_shared_loop): no division,
   * which LLVM cannot hoist out of the branch that picks the unit width
   * (GPU targets). The OpenCL target counts: PoCL 3.1 mis-compiles
   * `for (u = id; u < 1; u += size)` (conformance/random/known/
   * pocl31-peeled-branch.ll; it crashed on conformance's shapes-int1). */
  bool step_units;
  /* Lowers the module its own way instead (all of it). */
  bool (*lower_module)(gac_module *m, void *state, gac_diag *diag);
  /* Before the waits and copies are lowered. */
  bool (*prepare)(gac_lowering *L, gac_diag *diag);
  /* In the block b builds in, the work-items that share a copy: id and
   * size of the work-group changed (a producer warp's lanes, say). */
  void (*participants)(const gac_lowering *L, gac_builder *b, uint32_t *id, uint32_t *size);
  /* The n copies about to be lowered. */
  void (*begin_copies)(gac_lowering *L, gac_inst *const *copies, size_t n);
  /* How many of the `left` copies from copies[0] on it lowered together
   * (0 or 1: none; each is then lowered alone). */
  unsigned (*copy_run)(gac_lowering *L, gac_inst **copies, size_t left);
  /* Lowers copy (decoded in k) elsewhere (a call of a shared helper, say). */
  bool (*copy_elsewhere)(gac_lowering *L, gac_inst *copy, const gac_async_copy *k);
  /* The plan of copy, made at b, completed by the target. */
  void (*plan)(gac_lowering *L, gac_builder *b, const gac_inst *copy, lower_copy_plan *p);
  /* The way copy p is moved (NULL: cooperative). */
  lower_copy_way (*way)(gac_lowering *L, const lower_copy_plan *p);
  /* The unit widths to try, widest first, ending in 0 (NULL: 16, 8, 4, 1). */
  const unsigned *(*unit_widths)(gac_lowering *L, const lower_copy_plan *p);
  /* Before the units: a way of its own to move the copy, from block test,
   * on to join, where `any` (everything a unit must divide, OR'ed) allows;
   * returns the block where the units are tried. */
  gac_block *(*before_units)(gac_lowering *L, lower_copy_plan *p, gac_block *test, gac_block *join, uint32_t any,
                             uint32_t id, uint32_t size);
  /* x as a value the code generator cannot see through; set, the units
   * narrower than the first stay a rolled loop (their addresses computed
   * from an opaque id, not hoisted where they hold registers). */
  uint32_t (*opaque)(gac_lowering *L, gac_builder *b, uint32_t x);
  /* The loop moving `width`-byte units from `from` to `join`, if the target
   * moves them its own way. */
  bool (*unit_loop)(gac_lowering *L, lower_copy_plan *p, gac_block *from, gac_block *join, unsigned width,
                    uint32_t id, uint32_t size);
  /* Where the shared loop of `width`-byte units goes on to: join, or a
   * block of the target's own on the way there (NULL: join). */
  gac_block *(*unit_loop_end)(gac_lowering *L, const lower_copy_plan *p, unsigned width, gac_block *join);
  /* One `width`-byte unit from src to dst (uchar pointers) at b, if the
   * target moves it its own way. */
  bool (*move_unit)(gac_lowering *L, gac_builder *b, const lower_copy_plan *p, unsigned width, uint32_t dst,
                    uint32_t src);
  /* After the copies; returns false on an error. */
  bool (*finish)(gac_lowering *L, lower_outcome outcome, gac_diag *diag);
};

/* --lower-async-copies for target t, its state in state. */
bool lower_async_copies_for(gac_module *m, const lower_target *t, void *state, gac_diag *diag);
/* Rewrites each copy whose lines (and planes) follow one another on both
 * sides as one line (collapse_copies.c); true if any was. */
bool lower_collapse_contiguous_copies(gac_module *m);

/* The pieces of the copy lowering a target builds with
 * (lower_async_copies.c). */
void lower_plan_copy(gac_lowering *L, gac_builder *b, lower_copy_plan *p);
uint32_t lower_copy(gac_lowering *L, lower_copy_plan *p, gac_block *pre, gac_block *exit, lower_copy_way way);
uint32_t lower_cooperative(gac_lowering *L, lower_copy_plan *p, gac_block *pre, gac_block *exit, lower_copy_way way);
/* The unit loop of one width (lower_async_copies.c says more). `rolled`:
 * a narrow width's loop stays a loop. `alone`: the copy's only path (16-byte
 * elements), so that where the work-group size is known only at run time a
 * work-item's single unit may go out of the loop. */
void lower_cooperative_loop(gac_lowering *L, lower_copy_plan *p, gac_block *from, gac_block *join, unsigned width,
                            uint32_t id, uint32_t size, lower_copy_way way, bool rolled, bool alone);
/* Byte offsets into source and destination of line `line_index` (counted
 * over all planes), plus `extra` bytes. */
void lower_line_offsets(gac_lowering *L, gac_builder *b, const lower_copy_plan *p, uint32_t line_index,
                        uint32_t extra, uint32_t *src_off, uint32_t *dst_off);
uint32_t lower_byte_address(gac_builder *b, uint32_t base, uint32_t ptr_type, uint32_t offset);
/* Everything a copy's unit must divide, OR'ed: both start addresses, every
 * stride, the line. */
uint32_t lower_unit_alignment(gac_lowering *L, gac_builder *b, const lower_copy_plan *p);
/* After every OpGroupWaitEvents (or run of them): a work-group barrier. */
void lower_barrier_after_waits(gac_lowering *L);

/* The counted waits of every function, with emitter E (counted_waits.c);
 * true if there were commits or waits. */
bool lower_counted_waits(gac_lowering *L, const lower_wait_emitter *E);

#endif
