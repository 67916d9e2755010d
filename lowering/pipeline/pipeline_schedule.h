/* The schedule of a software-pipelined loop (the TVM RFC, seeds/000):
 * which statement runs in which step, where groups are committed and where
 * waits go with which in-flight count. Pure: no SPIR-V here, so the count
 * derivation is unit-tested on the RFC's examples on its own.
 *
 * A loop of n iterations with statements of stages 0..S runs as n + S steps:
 * in step t, statement X (stage s) runs iteration t - s when that is in
 * [0, n). Steps 0..S-1 are the prologue, S..n-1 the body (a loop), n..n+S-1
 * the epilogue; the pass only takes this path when n >= S.
 *
 * Groups and queues (RFC): an async statement's copies are a group committed
 * to the queue numbered by its stage; adjacent async statements of one stage
 * (in order) form one group. A statement that reads a buffer an async
 * statement wrote waits first, with in-flight count = the number of groups
 * committed to that queue after the group it reads (the RFC's
 * producer_head - consumer_head, summed over interleaved producers). The
 * counts come from simulating the steps, so the prologue, body and epilogue
 * counts are exact; body steps must agree (they do: queue = stage makes the
 * steady state periodic) and are checked to. The last epilogue step ends
 * with wait(q, 0) for every queue with groups still in flight, so nothing is
 * pending after the loop. */
#ifndef GAC_PIPELINE_SCHEDULE_H
#define GAC_PIPELINE_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct gac_pipe_statement {
  unsigned stage, order;
  bool async;          /* in an async stage, with copies to commit */
  bool commit_unknown; /* commits under a condition: the count of its queue cannot be known */
} gac_pipe_statement;

/* consumer, running iteration j, needs what producer did in iteration
 * j - distance complete: 0 when it reads what producer wrote; the number of
 * versions when it overwrites a buffer version that producer's async copy
 * reads (the copy of a result out, for example). */
typedef struct gac_pipe_dep {
  unsigned consumer, producer, distance;
} gac_pipe_dep;

typedef enum gac_pipe_action_kind { GAC_PIPE_RUN, GAC_PIPE_COMMIT, GAC_PIPE_WAIT } gac_pipe_action_kind;

typedef struct gac_pipe_action {
  gac_pipe_action_kind kind;
  unsigned statement; /* RUN; COMMIT: the group's last statement; WAIT: the statement it precedes (~0u: the loop's end) */
  unsigned queue;     /* COMMIT, WAIT */
  unsigned count;     /* WAIT: groups left in flight */
  unsigned in_flight; /* WAIT: groups in flight just before it (for the picture) */
  bool unknown;       /* WAIT: 0 because a commit of the queue is conditional */
} gac_pipe_action;

typedef struct gac_pipe_step {
  gac_pipe_action *actions;
  unsigned num_actions;
} gac_pipe_step;

typedef struct gac_pipe_schedule {
  unsigned max_stage;        /* S */
  gac_pipe_step *prologue;   /* S steps */
  gac_pipe_step body;        /* one step, repeated for t = S .. n-1 */
  gac_pipe_step *epilogue;   /* S steps */
} gac_pipe_schedule;

typedef struct gac_pipe_options {
  bool prune;       /* drop waits that the simulation shows can never wait */
  bool early_waits; /* move each wait to the front of its step (see below) */
} gac_pipe_options;

/* Early waits: a wait moves ahead of the statements and commits before it
 * in its step (not past another wait); past a commit of its own queue its
 * count drops by one (the same groups complete), and it stops where the
 * count would go below zero. Waiting earlier is always allowed. It puts the
 * wait, and the barrier a GPU needs after it, between the last step's
 * readers and this step's copies into the buffers they read, as a
 * hand-written multistage loop does: that barrier then also protects those
 * buffers, and the one a loop body ends with is left redundant (the PTX
 * path removes it). */
void gac_pipe_step_early_waits(gac_pipe_step *step);

/* Builds the schedule. false with a message in `error` when the annotation
 * cannot be pipelined (a consumer in an earlier stage than its producer, or
 * before it in the same stage). */
bool gac_pipe_schedule_build(gac_pipe_schedule *s, const gac_pipe_statement *stmts, unsigned num_stmts,
                             const gac_pipe_dep *deps, unsigned num_deps, const gac_pipe_options *opts,
                             char *error, size_t error_size);
void gac_pipe_schedule_free(gac_pipe_schedule *s);

/* A step as text, e.g. "s0 commit(0) wait(0,1) s1", for remarks and tests. */
void gac_pipe_step_format(const gac_pipe_step *step, char *buf, size_t size);

/* The schedule as an SVG picture (lowering/pipeline/pipeline_svg.c). */
void gac_pipe_schedule_svg(const gac_pipe_schedule *s, const gac_pipe_statement *stmts, FILE *out,
                           const char *title);

/* The statements in execution order within a step (by order, then index). */
void gac_pipe_sequence(const gac_pipe_statement *stmts, unsigned num_stmts, unsigned *seq);

#endif
