/* Count derivation for software-pipelined loops by simulating the steps
 * (see pipeline_schedule.h). */
#include "pipeline_schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gac_pipe_sequence(const gac_pipe_statement *stmts, unsigned num_stmts, unsigned *seq) {
  for (unsigned i = 0; i < num_stmts; i++)
    seq[i] = i;
  for (unsigned i = 1; i < num_stmts; i++) /* insertion sort: stable, few statements */
    for (unsigned j = i; j > 0 && stmts[seq[j - 1]].order > stmts[seq[j]].order; j--) {
      unsigned t = seq[j];
      seq[j] = seq[j - 1];
      seq[j - 1] = t;
    }
}

/* One commit as the simulation meets it. */
typedef struct commit_record {
  unsigned queue, group_last; /* the statement that ends the group */
  long iteration;
} commit_record;

typedef struct simulation {
  const gac_pipe_statement *stmts;
  unsigned num_stmts, *seq, *group_last; /* per statement: the last statement of its group */
  const gac_pipe_dep *deps;
  unsigned num_deps;
  commit_record *commits;
  size_t num_commits;
  unsigned in_flight[64];
  bool unknown[64]; /* a commit to this queue is conditional */
  bool prune;
} simulation;

static void push(gac_pipe_step *step, gac_pipe_action a) {
  step->actions = realloc(step->actions, (step->num_actions + 1) * sizeof a);
  step->actions[step->num_actions++] = a;
}

static bool committed(const simulation *sim, unsigned group_last, long iteration) {
  for (size_t k = sim->num_commits; k-- > 0;)
    if (sim->commits[k].group_last == group_last && sim->commits[k].iteration == iteration)
      return true;
  return false;
}

/* Groups committed to `queue` after the commit of `group_last` for `iteration`. */
static unsigned committed_after(const simulation *sim, unsigned queue, unsigned group_last, long iteration) {
  size_t k = sim->num_commits;
  while (k > 0 && !(sim->commits[k - 1].group_last == group_last && sim->commits[k - 1].iteration == iteration))
    k--;
  unsigned count = 0;
  for (; k < sim->num_commits; k++)
    count += sim->commits[k].queue == queue;
  return count;
}

/* Step t of a loop of n iterations, its actions appended to `out`. */
static void simulate_step(simulation *sim, long t, long n, gac_pipe_step *out) {
  for (unsigned k = 0; k < sim->num_stmts; k++) {
    unsigned x = sim->seq[k];
    long it = t - (long)sim->stmts[x].stage;
    if (it < 0 || it >= n)
      continue;
    /* The strictest count each queue needs before x. */
    unsigned need[64];
    bool waits[64] = {false};
    for (unsigned d = 0; d < sim->num_deps; d++) {
      unsigned p = sim->deps[d].producer, q = sim->stmts[p].stage;
      if (sim->deps[d].consumer != x || !sim->stmts[p].async)
        continue; /* a synchronous producer needs no wait */
      long produced = it - (long)sim->deps[d].distance; /* committed in an earlier or the same step */
      if (produced < 0 || !committed(sim, sim->group_last[p], produced))
        continue;
      unsigned c = sim->unknown[q] ? 0 : committed_after(sim, q, sim->group_last[p], produced);
      if (!waits[q] || c < need[q])
        need[q] = c;
      waits[q] = true;
    }
    for (unsigned q = 0; q < 64; q++) {
      if (!waits[q])
        continue;
      unsigned before = sim->in_flight[q];
      if (sim->prune && before <= need[q])
        continue;
      push(out, (gac_pipe_action){GAC_PIPE_WAIT, x, q, need[q], before, sim->unknown[q]});
      if (sim->in_flight[q] > need[q])
        sim->in_flight[q] = need[q];
    }
    push(out, (gac_pipe_action){GAC_PIPE_RUN, x, 0, 0, 0, false});
    if (sim->stmts[x].async && sim->group_last[x] == x) {
      unsigned q = sim->stmts[x].stage;
      sim->commits = realloc(sim->commits, (sim->num_commits + 1) * sizeof *sim->commits);
      sim->commits[sim->num_commits++] = (commit_record){q, x, it};
      sim->in_flight[q]++;
      push(out, (gac_pipe_action){GAC_PIPE_COMMIT, x, q, 0, 0, false});
    }
  }
}

/* Body steps differ only where the prologue had not yet filled the queues
 * (a wait pruned in one and not another): keep each wait any step needs,
 * with the smallest count. */
static bool merge_body(gac_pipe_step *into, const gac_pipe_step *step) {
  if (into->num_actions == 0 && !into->actions) {
    *into = (gac_pipe_step){malloc(step->num_actions * sizeof *step->actions + 1), step->num_actions};
    memcpy(into->actions, step->actions, step->num_actions * sizeof *step->actions);
    return true;
  }
  gac_pipe_step merged = {NULL, 0};
  unsigned a = 0, b = 0;
  while (a < into->num_actions || b < step->num_actions) {
    const gac_pipe_action *x = a < into->num_actions ? &into->actions[a] : NULL;
    const gac_pipe_action *y = b < step->num_actions ? &step->actions[b] : NULL;
    if (x && y && x->kind == y->kind && x->statement == y->statement && x->queue == y->queue) {
      gac_pipe_action m = *x;
      if (m.kind == GAC_PIPE_WAIT && y->count < m.count)
        m.count = y->count;
      if (m.kind == GAC_PIPE_WAIT && y->in_flight > m.in_flight)
        m.in_flight = y->in_flight;
      push(&merged, m);
      a++, b++;
    } else if (x && x->kind == GAC_PIPE_WAIT) {
      push(&merged, *x), a++;
    } else if (y && y->kind == GAC_PIPE_WAIT) {
      push(&merged, *y), b++;
    } else {
      free(merged.actions);
      return false;
    }
  }
  free(into->actions);
  *into = merged;
  return true;
}

bool gac_pipe_schedule_build(gac_pipe_schedule *s, const gac_pipe_statement *stmts, unsigned num_stmts,
                             const gac_pipe_dep *deps, unsigned num_deps, const gac_pipe_options *opts,
                             char *error, size_t error_size) {
  memset(s, 0, sizeof *s);
  for (unsigned i = 0; i < num_stmts; i++) {
    if (stmts[i].stage >= 64) {
      snprintf(error, error_size, "statement %u has stage %u; at most 63", i, stmts[i].stage);
      return false;
    }
    s->max_stage = stmts[i].stage > s->max_stage ? stmts[i].stage : s->max_stage;
  }
  unsigned *seq = malloc((num_stmts + 1) * sizeof *seq), *rank = malloc((num_stmts + 1) * sizeof *rank);
  gac_pipe_sequence(stmts, num_stmts, seq);
  for (unsigned k = 0; k < num_stmts; k++)
    rank[seq[k]] = k;
  for (unsigned d = 0; d < num_deps; d++) {
    const gac_pipe_statement *c = &stmts[deps[d].consumer], *p = &stmts[deps[d].producer];
    if (deps[d].distance == 0 &&
        (c->stage < p->stage || (c->stage == p->stage && rank[deps[d].consumer] < rank[deps[d].producer]))) {
      snprintf(error, error_size, "statement %u (stage %u, order %u) uses a buffer that statement %u (stage %u, "
               "order %u) writes later in the same iteration; a statement may only use what an earlier stage, or "
               "an earlier statement of its own stage, wrote", deps[d].consumer, c->stage, c->order,
               deps[d].producer, p->stage, p->order);
      free(seq), free(rank);
      return false;
    }
  }
  /* Groups: runs of adjacent async statements of one stage. */
  unsigned *group_last = malloc((num_stmts + 1) * sizeof *group_last);
  for (unsigned k = num_stmts; k-- > 0;) {
    unsigned x = seq[k];
    bool joins = k + 1 < num_stmts && stmts[x].async && stmts[seq[k + 1]].async &&
                 stmts[seq[k + 1]].stage == stmts[x].stage;
    for (unsigned d = 0; joins && d < num_deps; d++) /* it must wait for x's group: not one group */
      joins = !(deps[d].consumer == seq[k + 1] && deps[d].producer == x && deps[d].distance == 0);
    group_last[x] = joins ? group_last[seq[k + 1]] : x;
  }
  simulation sim = {stmts, num_stmts, seq, group_last, deps, num_deps, NULL, 0, {0}, {false},
                    opts && opts->prune};
  for (unsigned i = 0; i < num_stmts; i++)
    if (stmts[i].async && stmts[i].commit_unknown)
      sim.unknown[stmts[i].stage] = true;
  /* A loop long enough for several body steps. */
  long S = s->max_stage, n = 3 * S + 3;
  s->prologue = calloc(S + 1, sizeof *s->prologue);
  s->epilogue = calloc(S + 1, sizeof *s->epilogue);
  bool ok = true;
  for (long t = 0; t < n + S; t++) {
    if (t < S) {
      simulate_step(&sim, t, n, &s->prologue[t]);
    } else if (t >= n) {
      simulate_step(&sim, t, n, &s->epilogue[t - n]);
    } else {
      gac_pipe_step step = {NULL, 0};
      simulate_step(&sim, t, n, &step);
      ok = merge_body(&s->body, &step) && ok;
      free(step.actions);
    }
  }
  /* Nothing stays in flight after the loop. */
  for (unsigned q = 0; q < 64 && S > 0; q++)
    if (sim.in_flight[q] > 0)
      push(&s->epilogue[S - 1], (gac_pipe_action){GAC_PIPE_WAIT, ~0u, q, 0, sim.in_flight[q], false});
  if (ok && opts && opts->early_waits) {
    for (long p = 0; p < S; p++) {
      gac_pipe_step_early_waits(&s->prologue[p]);
      gac_pipe_step_early_waits(&s->epilogue[p]);
    }
    gac_pipe_step_early_waits(&s->body);
  }
  if (!ok)
    snprintf(error, error_size, "internal: the body steps of the schedule differ");
  free(sim.commits), free(seq), free(rank), free(group_last);
  if (!ok)
    gac_pipe_schedule_free(s);
  return ok;
}

void gac_pipe_step_early_waits(gac_pipe_step *step) {
  for (unsigned i = 0; i < step->num_actions; i++) {
    if (step->actions[i].kind != GAC_PIPE_WAIT)
      continue;
    gac_pipe_action w = step->actions[i];
    unsigned to = i;
    while (to > 0 && step->actions[to - 1].kind != GAC_PIPE_WAIT) {
      const gac_pipe_action *a = &step->actions[to - 1];
      if (a->kind == GAC_PIPE_COMMIT && a->queue == w.queue) {
        if (w.count == 0)
          break;
        w.count--, w.in_flight--;
      }
      to--;
    }
    memmove(step->actions + to + 1, step->actions + to, (i - to) * sizeof *step->actions);
    step->actions[to] = w;
  }
}

void gac_pipe_schedule_free(gac_pipe_schedule *s) {
  for (unsigned p = 0; s->prologue && p < s->max_stage; p++)
    free(s->prologue[p].actions);
  for (unsigned e = 0; s->epilogue && e < s->max_stage; e++)
    free(s->epilogue[e].actions);
  free(s->prologue), free(s->epilogue), free(s->body.actions);
  memset(s, 0, sizeof *s);
}

void gac_pipe_step_format(const gac_pipe_step *step, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = 0;
  for (unsigned i = 0; i < step->num_actions && len < size; i++) {
    const gac_pipe_action *a = &step->actions[i];
    const char *sep = i ? " " : "";
    int w = a->kind == GAC_PIPE_RUN      ? snprintf(buf + len, size - len, "%ss%u", sep, a->statement)
            : a->kind == GAC_PIPE_COMMIT ? snprintf(buf + len, size - len, "%scommit(%u)", sep, a->queue)
                                         : snprintf(buf + len, size - len, "%swait(%u,%u)", sep, a->queue, a->count);
    len += w > 0 ? (size_t)w : 0;
  }
}
