/* The count derivation of --pipeline-loops on the examples of the TVM RFC
 * "Asynchronous stage in software pipeline" (seeds/000). Statements are
 * numbered in program order; s<i> runs statement i. */
#include <string.h>

#include "check.h"
#include "pipeline_schedule.h"

static char text[512];

static const char *fmt(const gac_pipe_step *step) {
  gac_pipe_step_format(step, text, sizeof text);
  return text;
}

#define CHECK_STEP(step, expected)                                           \
  do {                                                                       \
    const char *got_ = fmt(step);                                            \
    CHECK(strcmp(got_, expected) == 0);                                      \
    if (strcmp(got_, expected) != 0)                                         \
      fprintf(stderr, "  got      %s\n  expected %s\n", got_, expected);     \
  } while (0)

static bool build_with(gac_pipe_schedule *s, const gac_pipe_statement *st, unsigned n, const gac_pipe_dep *d,
                       unsigned nd, bool prune, bool early_waits) {
  char err[300];
  gac_pipe_options o = {prune, early_waits};
  bool ok = gac_pipe_schedule_build(s, st, n, d, nd, &o, err, sizeof err);
  if (!ok)
    fprintf(stderr, "  %s\n", err);
  return ok;
}

static bool build(gac_pipe_schedule *s, const gac_pipe_statement *st, unsigned n, const gac_pipe_dep *d,
                  unsigned nd, bool prune) {
  return build_with(s, st, n, d, nd, prune, false);
}

/* B[0] = A[i] + 1 (stage 0, async); C[i] = B[0] + 1 (stage 1). */
static void two_stages(void) {
  gac_pipe_statement st[] = {{0, 0, true, false}, {1, 1, false, false}};
  gac_pipe_dep d[] = {{1, 0, 0}};
  gac_pipe_schedule s;
  CHECK(build(&s, st, 2, d, 1, false));
  CHECK(s.max_stage == 1);
  CHECK_STEP(&s.prologue[0], "s0 commit(0)");
  CHECK_STEP(&s.body, "s0 commit(0) wait(0,1) s1");
  CHECK_STEP(&s.epilogue[0], "wait(0,0) s1");
  gac_pipe_schedule_free(&s);
}

/* Three stages, the first two async: stage 1 consumes queue 0 and produces
 * queue 1 (RFC "Three stages of compute"). */
static void three_stages_two_async(void) {
  gac_pipe_statement st[] = {{0, 0, true, false}, {1, 1, true, false}, {2, 2, false, false}};
  gac_pipe_dep d[] = {{1, 0, 0}, {2, 1, 0}};
  gac_pipe_schedule s;
  CHECK(build(&s, st, 3, d, 2, false));
  CHECK_STEP(&s.prologue[0], "s0 commit(0)");
  CHECK_STEP(&s.prologue[1], "s0 commit(0) wait(0,1) s1 commit(1)");
  CHECK_STEP(&s.body, "s0 commit(0) wait(0,1) s1 commit(1) wait(1,1) s2");
  CHECK_STEP(&s.epilogue[0], "wait(0,0) s1 commit(1) wait(1,1) s2");
  CHECK_STEP(&s.epilogue[1], "wait(1,0) s2");
  gac_pipe_schedule_free(&s);
}

/* The GEMM-like loop: stages [0,0,2,3,3], order [0,1,3,2,4], stage 0 async:
 * copies to A_shared and B_shared (one group), X = shared->local at i+1
 * (stage 2), Y = shared->local at i (stage 3), Z = compute (stage 3). The
 * RFC's counts: (i+3)-i = 3 before Y and (i+3)-(i+1) = 2 before X, and in the
 * epilogue 2-i before Y and 1-i before X. */
static void gemm_four_buffers(void) {
  gac_pipe_statement st[] = {{0, 0, true, false}, {0, 1, true, false}, {2, 3, false, false},
                             {3, 2, false, false}, {3, 4, false, false}};
  gac_pipe_dep d[] = {{2, 0, 0}, {2, 1, 0}, {3, 0, 0}, {3, 1, 0}};
  gac_pipe_schedule s;
  CHECK(build(&s, st, 5, d, 4, false));
  CHECK(s.max_stage == 3);
  CHECK_STEP(&s.prologue[0], "s0 s1 commit(0)");
  CHECK_STEP(&s.prologue[2], "s0 s1 commit(0) wait(0,2) s2");
  CHECK_STEP(&s.body, "s0 s1 commit(0) wait(0,3) s3 wait(0,2) s2 s4");
  CHECK_STEP(&s.epilogue[0], "wait(0,2) s3 wait(0,1) s2 s4");
  CHECK_STEP(&s.epilogue[1], "wait(0,1) s3 wait(0,0) s2 s4");
  CHECK_STEP(&s.epilogue[2], "wait(0,0) s3 s4");
  gac_pipe_schedule_free(&s);
  /* Pruned: the wait of 3 cannot wait (the last body step left 2 in flight
   * and one commit followed), as the RFC notes; nor can 2-i before Y. */
  CHECK(build(&s, st, 5, d, 4, true));
  CHECK_STEP(&s.body, "s0 s1 commit(0) s3 wait(0,2) s2 s4");
  CHECK_STEP(&s.epilogue[0], "s3 wait(0,1) s2 s4");
  CHECK_STEP(&s.epilogue[1], "s3 wait(0,0) s2 s4");
  CHECK_STEP(&s.epilogue[2], "s3 s4");
  gac_pipe_schedule_free(&s);
}

/* Interleaved producers: stages [0,0,3], order [0,2,1]: the consumer sits
 * between the two copies of stage 0, which commit separately; count 5. */
static void interleaved_producers(void) {
  gac_pipe_statement st[] = {{0, 0, true, false}, {0, 2, true, false}, {3, 1, false, false}};
  gac_pipe_dep d[] = {{2, 0, 0}, {2, 1, 0}};
  gac_pipe_schedule s;
  CHECK(build(&s, st, 3, d, 2, false));
  CHECK_STEP(&s.prologue[0], "s0 commit(0) s1 commit(0)");
  CHECK_STEP(&s.body, "s0 commit(0) wait(0,5) s2 s1 commit(0)");
  CHECK_STEP(&s.epilogue[0], "wait(0,4) s2");
  CHECK_STEP(&s.epilogue[2], "wait(0,0) s2");
  gac_pipe_schedule_free(&s);
}

/* A consumer in the producer's own stage, after it: wait(0) (RFC: the
 * mistaken annotation [0, 0, 0, 3, 3]). */
static void same_stage_consumer(void) {
  gac_pipe_statement st[] = {{0, 0, true, false}, {0, 1, false, false}, {1, 2, false, false}};
  gac_pipe_dep d[] = {{1, 0, 0}, {2, 0, 0}};
  gac_pipe_schedule s;
  CHECK(build(&s, st, 3, d, 2, false));
  CHECK_STEP(&s.body, "s0 commit(0) wait(0,0) s1 wait(0,1) s2");
  gac_pipe_schedule_free(&s);
}

/* A producer that commits under a condition: its queue's counts are 0. */
static void conditional_commit(void) {
  gac_pipe_statement st[] = {{0, 0, true, true}, {1, 1, false, false}};
  gac_pipe_dep d[] = {{1, 0, 0}};
  gac_pipe_schedule s;
  CHECK(build(&s, st, 2, d, 1, false));
  CHECK_STEP(&s.body, "s0 commit(0) wait(0,0) s1");
  CHECK(s.body.actions[2].unknown);
  gac_pipe_schedule_free(&s);
}

/* A consumer before its producer in the same iteration cannot be pipelined. */
static void rejects_backward_use(void) {
  gac_pipe_statement st[] = {{1, 0, true, false}, {0, 1, false, false}};
  gac_pipe_dep d[] = {{1, 0, 0}};
  gac_pipe_schedule s;
  char err[300];
  CHECK(!gac_pipe_schedule_build(&s, st, 2, d, 1, NULL, err, sizeof err));
  CHECK(strstr(err, "statement 1 (stage 0") != NULL);
}

/* An async copy out of a buffer a synchronous statement fills: nothing in
 * the loop reads the copy's result, but the next write of the same version
 * waits for the copy (distance = 2 versions), and the loop ends waiting for
 * every group. */
static void async_copy_out(void) {
  gac_pipe_statement st[] = {{0, 0, false, false}, {1, 1, true, false}};
  gac_pipe_dep d[] = {{1, 0, 0}, {0, 1, 2}};
  gac_pipe_schedule s;
  CHECK(build(&s, st, 2, d, 2, false));
  CHECK_STEP(&s.prologue[0], "s0");
  CHECK_STEP(&s.body, "wait(1,0) s0 s1 commit(1)");
  CHECK_STEP(&s.epilogue[0], "s1 commit(1) wait(1,0)");
  gac_pipe_schedule_free(&s);
}

/* Early waits (gac's default, not the RFC's): each wait moves to the front
 * of its step, its count one lower past each commit of its queue, never
 * below zero and never past another wait. */
static void early_waits(void) {
  gac_pipe_schedule s;
  gac_pipe_statement two[] = {{0, 0, true, false}, {1, 1, false, false}};
  gac_pipe_dep d2[] = {{1, 0, 0}};
  CHECK(build_with(&s, two, 2, d2, 1, true, true));
  CHECK_STEP(&s.prologue[0], "s0 commit(0)");
  CHECK_STEP(&s.body, "wait(0,0) s0 commit(0) s1");
  CHECK_STEP(&s.epilogue[0], "wait(0,0) s1");
  gac_pipe_schedule_free(&s);
  gac_pipe_statement gemm[] = {{0, 0, true, false}, {0, 1, true, false}, {2, 3, false, false},
                               {3, 2, false, false}, {3, 4, false, false}};
  gac_pipe_dep dg[] = {{2, 0, 0}, {2, 1, 0}, {3, 0, 0}, {3, 1, 0}};
  CHECK(build_with(&s, gemm, 5, dg, 4, true, true));
  CHECK_STEP(&s.prologue[2], "wait(0,1) s0 s1 commit(0) s2");
  CHECK_STEP(&s.body, "wait(0,1) s0 s1 commit(0) s3 s2 s4");
  CHECK_STEP(&s.epilogue[0], "wait(0,1) s3 s2 s4");
  gac_pipe_schedule_free(&s);
  gac_pipe_statement inter[] = {{0, 0, true, false}, {0, 2, true, false}, {3, 1, false, false}};
  gac_pipe_dep di[] = {{2, 0, 0}, {2, 1, 0}};
  CHECK(build_with(&s, inter, 3, di, 2, false, true));
  CHECK_STEP(&s.body, "wait(0,4) s0 commit(0) s2 s1 commit(0)");
  gac_pipe_schedule_free(&s);
  /* A wait of 0 right after a commit of its queue stays there. */
  gac_pipe_step step = {(gac_pipe_action[]){{GAC_PIPE_RUN, 0, 0, 0, 0, false}, {GAC_PIPE_COMMIT, 0, 1, 0, 0, false},
                                            {GAC_PIPE_WAIT, ~0u, 1, 0, 1, false}},
                        3};
  gac_pipe_step_early_waits(&step);
  CHECK_STEP(&step, "s0 commit(1) wait(1,0)");
}

int main(void) {
  RUN_TEST(two_stages);
  RUN_TEST(three_stages_two_async);
  RUN_TEST(gemm_four_buffers);
  RUN_TEST(interleaved_producers);
  RUN_TEST(same_stage_consumer);
  RUN_TEST(conditional_commit);
  RUN_TEST(rejects_backward_use);
  RUN_TEST(async_copy_out);
  RUN_TEST(early_waits);
  return check_summary();
}
