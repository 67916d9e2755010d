/* Per wave, along the kernel's CFG (both ways of every s_cbranch_*, loops
 * to a fixpoint), whether the machine code keeps the promises of gac's
 * markers (docs/AMDGCN.md, "The machine-level check").
 *
 * The markers say where the source's commits and waits are: a commit to
 * queue q closes a group, a wait (q, n) promises that every LDS-direct load
 * issued before q's (n+1)-th newest commit is complete, and the s_barrier
 * after it makes them visible to the other waves. What the check counts is
 * the machine code's own: the DMA loads (global_load_lds_*, ... lds), the
 * other loads that retire in order with them (global_load_*, buffer_load_*,
 * gac's padding), the s_waitcnt vmcnt(N) (which completes every load with
 * N or more ordered loads after it) and the s_barrier. Stores, atomics,
 * flat and scratch accesses count in vmcnt too but need not retire in
 * order: they are left out, which only makes a wait look weaker.
 *
 * State, per wave: the loads since each of the last SEGS commits
 * (segments, newest first; older ones folded into a tail), each with the
 * ranges over paths of its ordered loads, its DMA loads and the ordered
 * loads after its newest DMA load, and whether its DMA loads are complete
 * (on every path), published by a barrier (every path), promised by a
 * wait (some path), or left in flight by a wait that promised them (some
 * path). A program point holds up to STATES such states: paths with the
 * same commits, the same segments with and without DMA loads, complete or
 * not, the same promised loads not yet published and the same scalar
 * facts (below) share one (ranges hulled; a segment settled, complete and
 * published, on both is the same whatever its loads), others stay apart,
 * so that a padded empty group and a full one are not mixed, nor a path
 * between a wait and its barrier with one that did not wait, nor the ways
 * into a flow block; past STATES all are hulled into one.
 *
 * Branches are followed both ways, except where the scalar facts decide
 * them (see `facts`).
 *
 * Ping-pong (between the markers __gac_pp_ and __gac_ppx_): the two halves
 * of the work-group run a barrier apart, so a barrier orders a wave's
 * phase only with the phase before it of the other half: a completed load
 * is published by the second barrier after it, not the first.
 *
 * `lo_path`: some path has every count at its lower bound at once. On it a
 * wait(q, n) whose vmcnt(X) leaves a promised DMA load with fewer than X
 * ordered loads after it does not complete it: violated. Where no such
 * path is known, "cannot decide". Proved: on every state, every promised
 * DMA load is complete and published at each LDS read. */
#include "isa_vmcnt.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SEGS = 6, STATES = 64, CAP = 64 }; /* CAP: a count of 64 or more (vmcnt holds 6 bits) */
/* In `queue`: where a wait for all split the loads (no commit of any queue). */
#define WAIT_ALL_BOUNDARY (ISA_ANY_QUEUE - 1)

typedef struct range {
  uint8_t lo, hi;
} range;

typedef struct seg {
  range n, d, t;  /* ordered loads; DMA loads; ordered loads after the newest DMA load (n where none) */
  bool done, pub; /* every path: its DMA loads complete; and published by s_barrier */
  bool pub1;      /* every path: complete before one barrier (ping-pong needs two) */
  bool donem, pub1m, pubm; /* some path: the same (a load unpublished on every path is a race) */
  bool unmet;     /* some path: promised by a wait, and not yet complete and published */
  bool viol;      /* some path: the wait that promised them left one in flight */
} seg;

/* Scalar facts that decide the uniform branches of the structurizer's
 * flow blocks: an if/else becomes `if (c) then; flow: if (!c') else`, c'
 * a phi of constants, s_mov_b64 s[a:a+1], 0 or -1 on each way in, then
 * s_and_b64 vcc, exec, s[a:a+1] and s_cbranch_vccz. Followed both ways,
 * the flow block joins a path through `then` to `else` (a commit of the
 * pipeliner's guarded copy and the padded empty commit of the same stage,
 * one after the other), or one through neither (a copy's paths through
 * registers, each ending in a wait, both skipped): paths neither source
 * nor machine takes. Where the pair is known, so is vcc: 0 from a pair
 * of 0, not 0 from a pair of -1, as exec is not 0 at a uniform branch:
 * LLVM keeps the s_cbranch_execz around a divergent region that holds a
 * conditional branch (SIPreEmitPeephole::mustRetainExeczBranch: a uniform
 * loop in it would never end with exec 0), so no wave reaches one with
 * exec 0.
 * exec is not 0 when a wave starts, after the way of s_cbranch_execz not
 * taken (and of execnz taken), and at the end of a divergent region
 * entered while it was not 0: the end (s_or_b64 exec, exec, P) gives back
 * the region's exec, P the mask saved at an if (s_and_saveexec_b64),
 * turned into its else's (s_xor_b64 with exec, s_andn2_saveexec_b64), or
 * a loop's lanes done (0 at its entry, growing, taken out of exec). That
 * trusts LLVM's lowering of structured control flow, as the machine code
 * itself does; the branch then goes one way. Pairs are known by
 * their first SGPR; an instruction that names a register forgets the
 * pairs holding it, one that writes exec otherwise forgets exec. */
typedef struct facts {
  uint64_t zero[2], ones[2], nonzero[2]; /* pairs s[a:a+1] known 0, -1, not 0 (bit a; ones within nonzero) */
  uint64_t covers[2]; /* pairs P that end a region entered with exec not 0 (see above) */
  bool vcc_zero, vcc_nonzero, exec_nonzero;
} facts;

typedef struct state {
  facts f;
  uint8_t len;              /* segments: s[0] since the newest commit, s[k] before commit k-1 */
  bool tail, lo_path;       /* s[len]: older history, folded */
  bool two_barriers;        /* in a ping-pong loop: publishing takes two barriers */
  uint32_t queue[SEGS];     /* queue[k]: the commit between s[k] and s[k+1] */
  seg s[SEGS + 1];
} state;

typedef struct set {
  unsigned n;
  bool reached, merged; /* merged: past STATES once, one state for all paths from then on */
  state st[STATES];
} set;

static uint8_t sat(unsigned v) { return v > CAP ? CAP : (uint8_t)v; }
static range radd(range a, range b) { return (range){sat(a.lo + b.lo), sat(a.hi + b.hi)}; }
static range rhull(range a, range b) { return (range){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi}; }
static const seg empty_seg = {.done = true, .pub = true, .pub1 = true, .donem = true, .pub1m = true, .pubm = true};

/* s (newer) and o (older) as one segment. */
static seg fold(const seg *s, const seg *o) {
  seg r = {.n = radd(s->n, o->n), .d = radd(s->d, o->d)};
  range through = radd(s->n, o->t); /* the newest DMA load is o's */
  r.t = s->d.lo ? s->t : s->d.hi ? rhull(s->t, through) : through;
  r.done = s->done && o->done;
  r.pub = s->pub && o->pub;
  r.pub1 = s->pub1 && o->pub1;
  r.donem = s->donem && o->donem; /* some path has both: at most where each is on some path */
  r.pub1m = s->pub1m && o->pub1m;
  r.pubm = s->pubm && o->pubm;
  r.unmet = s->unmet || o->unmet;
  r.viol = s->viol || o->viol;
  return r;
}

static void commit(state *st, uint32_t q) {
  if (st->len == SEGS) { /* the oldest segment joins the tail */
    st->s[SEGS - 1] = st->tail ? fold(&st->s[SEGS - 1], &st->s[SEGS]) : st->s[SEGS - 1];
    st->tail = true;
    st->len--;
  }
  memmove(&st->s[1], &st->s[0], (st->len + (st->tail ? 1 : 0)) * sizeof st->s[0]);
  memmove(&st->queue[1], &st->queue[0], st->len * sizeof st->queue[0]);
  st->s[0] = empty_seg;
  st->queue[0] = q;
  st->len++;
}

static unsigned segs(const state *st) { return st->len + (st->tail ? 1 : 0); }

/* The fewest ordered loads after segment k's newest DMA load. */
static unsigned min_after(const state *st, unsigned k) {
  unsigned p = st->s[k].t.lo;
  for (unsigned j = 0; j < k; j++)
    p += st->s[j].n.lo;
  return p;
}

/* The most ordered loads after segment k's newest DMA load (CAP: 64 or more). */
static unsigned max_after(const state *st, unsigned k) {
  unsigned p = st->s[k].t.hi;
  for (unsigned j = 0; j < k; j++)
    p += st->s[j].n.hi;
  return p;
}

/* s_waitcnt vmcnt(x) (x 64: no wait for loads). */
static void wait(state *st, unsigned x) {
  for (unsigned k = 0; x < CAP && k < segs(st); k++)
    st->s[k].donem |= st->s[k].d.hi && max_after(st, k) >= x;
  for (unsigned k = 0; x < CAP && k < segs(st); k++)
    if (st->s[k].d.hi && !st->s[k].done && min_after(st, k) >= x) {
      st->s[k].done = true;
      st->s[k].viol = false;
      st->s[k].unmet &= !st->s[k].pub;
    }
}

typedef enum verdict { V_NONE, V_PROVED, V_UNDECIDED, V_VIOLATED } verdict;

/* The promise of a wait marker: the segments before q's (n+1)-th newest
 * commit (all where q is any), marked as promised; its verdict on st. */
static verdict promise(state *st, const isa_inst *i) {
  unsigned first = 1, seen = 0, k;
  if (i->mark == ISA_MARK_WAIT_ALL) {
    commit(st, WAIT_ALL_BOUNDARY); /* all before it, and not what comes after */
  } else {
    for (k = 0; k + 1 < st->len; k++) /* queue[k]: the commit between s[k] and s[k + 1] */
      if ((st->queue[k] == i->queue || st->queue[k] == ISA_ANY_QUEUE) && ++seen == i->n + 1)
        break;
    first = k + 1 < st->len ? k + 1 : st->len; /* not found: only the tail may hold it */
  }
  verdict v = V_NONE;
  for (k = first; k < segs(st); k++) {
    seg *s = &st->s[k];
    if (!s->d.hi)
      continue;
    s->unmet |= !(s->done && s->pub);
    if (s->done) {
      v = v > V_PROVED ? v : V_PROVED;
    } else if (st->lo_path && s->d.lo && k < st->len) {
      s->viol = true;
      v = V_VIOLATED;
    } else {
      v = v > V_UNDECIDED ? v : V_UNDECIDED;
    }
  }
  return v == V_NONE ? V_PROVED : v;
}

static void transfer(state *st, const isa_inst *i) {
  seg *s = &st->s[0];
  switch (i->kind) {
  case ISA_DMA:
    s->n = radd(s->n, (range){1, 1});
    s->d = radd(s->d, (range){1, 1});
    s->t = (range){0, 0};
    s->done = s->pub = s->pub1 = s->donem = s->pub1m = s->pubm = false;
    break;
  case ISA_LOAD:
    s->n = radd(s->n, (range){1, 1});
    s->t = radd(s->t, (range){1, 1});
    break;
  case ISA_WAIT:
    wait(st, i->vmcnt);
    break;
  case ISA_BARRIER:
    for (unsigned k = 0; k < segs(st); k++) {
      seg *g = &st->s[k];
      g->pub |= st->two_barriers ? g->pub1 : g->done;
      g->pub1 |= g->done;
      g->pubm |= st->two_barriers ? g->pub1m : g->donem;
      g->pub1m |= g->donem;
      g->unmet &= !(g->done && g->pub);
    }
    break;
  default:
    break;
  }
}

static bool known(const uint64_t regs[2], unsigned r) { return regs[r / 64] >> (r % 64) & 1; }

static void forget(facts *f, const uint64_t names[2]) {
  for (unsigned w = 0; w < 2; w++) {
    /* a pair s[a:a+1] holds a register named at a or a+1 */
    uint64_t gone = names[w] | names[w] >> 1 | (w == 0 ? names[1] << 63 : 0);
    f->zero[w] &= ~gone;
    f->ones[w] &= ~gone;
    f->nonzero[w] &= ~gone;
    f->covers[w] &= ~gone;
  }
  if (known(names, 106) || known(names, 107))
    f->vcc_zero = f->vcc_nonzero = false;
}

static void learn(uint64_t regs[2], unsigned a) { regs[a / 64] |= UINT64_C(1) << (a % 64); }

/* Whether i decides something by its pair: a flow block's vcc, exec. */
static bool reads_pair(const isa_inst *i) {
  return i->sop == ISA_S_RESTORE_EXEC || i->sop == ISA_S_SET_EXEC || i->sop == ISA_S_VCC_AND ||
         i->sop == ISA_S_VCC_ANDN2;
}

/* The pairs whose facts some instruction asks for (see scalar_step). */
static void find_tracked(const isa_kernel *k, uint64_t tracked[2]) {
  memset(tracked, 0, 2 * sizeof tracked[0]);
  for (size_t at = 0; at < k->n; at++) {
    if (reads_pair(&k->insts[at]))
      learn(tracked, k->insts[at].sreg);
    if (k->insts[at].sop == ISA_S_ELSE_EXEC)
      learn(tracked, k->insts[at].sreg2);
  }
}

/* tracked: the pairs some flow block or exec restore reads (the others
 * would only keep apart states that no branch tells apart). */
static void scalar_step(facts *f, const isa_inst *i, const uint64_t tracked[2]) {
  forget(f, i->names);
  unsigned a = i->sreg;
  bool track = known(tracked, a);
  uint64_t pair[2] = {0};
  pair[a / 64] = UINT64_C(3) << (a % 64); /* a <= 126; s[63:64]'s second half is not tracked apart */
  if (i->sop == ISA_S_SET_ZERO || i->sop == ISA_S_SET_ONES || i->sop == ISA_S_COPY_EXEC || i->sop == ISA_S_SAVE_EXEC)
    forget(f, pair);
  if (i->sop == ISA_S_GROW || i->sop == ISA_S_ELSE_MASK) { /* no longer 0 or -1 for sure; it still ends its region */
    f->zero[a / 64] &= ~(UINT64_C(1) << (a % 64));
    f->ones[a / 64] &= ~(UINT64_C(1) << (a % 64));
    if (i->sop == ISA_S_ELSE_MASK) /* the else's lanes may be none; a mask that grows stays not 0 */
      f->nonzero[a / 64] &= ~(UINT64_C(1) << (a % 64));
  }
  if (i->sop == ISA_S_ELSE_EXEC) { /* the else's mask: it ends the region its if's mask ends */
    bool covers = known(f->covers, i->sreg2) || known(f->nonzero, i->sreg2);
    forget(f, pair);
    if (covers && track)
      learn(f->covers, a);
  }
  switch (i->sop) {
  case ISA_S_SET_ZERO:
    if (track)
      learn(f->zero, a);
    if (track && f->exec_nonzero)
      learn(f->covers, a);
    break;
  case ISA_S_SET_ONES:
    if (track)
      learn(f->ones, a), learn(f->nonzero, a);
    break;
  case ISA_S_COPY_EXEC:
  case ISA_S_SAVE_EXEC: /* P := exec (before it changes): not 0, and exec | P neither */
    if (track && f->exec_nonzero)
      learn(f->nonzero, a), learn(f->covers, a);
    break;
  case ISA_S_RESTORE_EXEC: f->exec_nonzero |= known(f->nonzero, a) || known(f->covers, a); break;
  case ISA_S_EXEC_ANDN2: f->exec_nonzero = false; break;
  case ISA_S_SET_EXEC: f->exec_nonzero = known(f->nonzero, a); break;
  case ISA_S_VCC_AND: /* exec is not 0 at a uniform branch (see facts) */
    f->vcc_zero = known(f->zero, a);
    f->vcc_nonzero = known(f->ones, a);
    break;
  case ISA_S_VCC_ANDN2:
    f->vcc_zero = known(f->ones, a);
    f->vcc_nonzero = known(f->zero, a);
    break;
  default: break;
  }
  /* a pair read is forgotten (a phi's constant serves one flow block), and
   * vcc once branched on: what no branch will ask keeps no states apart */
  if (reads_pair(i))
    forget(f, pair);
  if (i->writes_exec)
    f->exec_nonzero = false;
}

static facts facts_meet(const facts *a, const facts *b) {
  facts r;
  for (unsigned w = 0; w < 2; w++) {
    r.zero[w] = a->zero[w] & b->zero[w];
    r.ones[w] = a->ones[w] & b->ones[w];
    r.nonzero[w] = a->nonzero[w] & b->nonzero[w];
    r.covers[w] = a->covers[w] & b->covers[w];
  }
  r.vcc_zero = a->vcc_zero && b->vcc_zero;
  r.vcc_nonzero = a->vcc_nonzero && b->vcc_nonzero;
  r.exec_nonzero = a->exec_nonzero && b->exec_nonzero;
  return r;
}

static bool facts_eq(const facts *a, const facts *b) {
  return !memcmp(a->zero, b->zero, sizeof a->zero) && !memcmp(a->ones, b->ones, sizeof a->ones) &&
         !memcmp(a->nonzero, b->nonzero, sizeof a->nonzero) && !memcmp(a->covers, b->covers, sizeof a->covers) &&
         a->vcc_zero == b->vcc_zero && a->vcc_nonzero == b->vcc_nonzero && a->exec_nonzero == b->exec_nonzero;
}

/* Before instruction i: its marker (a wait's promise comes after its own
 * s_waitcnt, see step). */
static void before(state *st, const isa_inst *i) {
  if (i->mark == ISA_MARK_COMMIT)
    commit(st, i->queue);
  else if (i->mark == ISA_MARK_PINGPONG || i->mark == ISA_MARK_PINGPONG_END)
    st->two_barriers = i->mark == ISA_MARK_PINGPONG;
}

static bool same_key(const state *a, const state *b) {
  if (!facts_eq(&a->f, &b->f) || a->len != b->len || a->tail != b->tail || a->two_barriers != b->two_barriers ||
      memcmp(a->queue, b->queue, (a->len - 1u) * sizeof a->queue[0]))
    return false;
  for (unsigned k = 0; k < segs(a); k++) {
    const seg *x = &a->s[k], *y = &b->s[k];
    if (x->done && x->pub && y->done && y->pub && x->unmet == y->unmet)
      continue; /* settled on every path of both: whether it had DMA loads no longer matters */
    if ((x->d.lo > 0) != (y->d.lo > 0) || (x->d.hi > 0) != (y->d.hi > 0) || x->unmet != y->unmet || x->done != y->done)
      return false;
  }
  return true;
}

/* Whether a's lower bounds are all at most b's. */
static bool below(const state *a, const state *b) {
  for (unsigned k = 0; k < segs(a); k++)
    if (a->s[k].n.lo > b->s[k].n.lo || a->s[k].d.lo > b->s[k].d.lo || a->s[k].t.lo > b->s[k].t.lo)
      return false;
  return true;
}

static seg seg_hull(const seg *a, const seg *b) {
  return (seg){.n = rhull(a->n, b->n), .d = rhull(a->d, b->d), .t = rhull(a->t, b->t), .done = a->done && b->done,
               .pub = a->pub && b->pub, .pub1 = a->pub1 && b->pub1, .donem = a->donem || b->donem,
               .pub1m = a->pub1m || b->pub1m, .pubm = a->pubm || b->pubm, .unmet = a->unmet || b->unmet,
               .viol = a->viol || b->viol};
}

/* d := d hulled with s, same key. */
static void hull(state *d, const state *s) {
  bool lo_path = below(d, s) ? d->lo_path : below(s, d) ? s->lo_path : false;
  for (unsigned k = 0; k < segs(d); k++)
    d->s[k] = seg_hull(&d->s[k], &s->s[k]);
  d->lo_path = lo_path;
  d->f = facts_meet(&d->f, &s->f);
}

/* d := d hulled with s, any keys: aligned newest first, the rest folded
 * into the tail; commits that differ become commits to any queue. */
static void hull_any(state *d, const state *s) {
  state a = *d, b = *s;
  unsigned len = a.len < b.len ? a.len : b.len;
  for (state *x = &a; x; x = x == &a ? &b : NULL) {
    while (x->len > len) { /* fold the oldest segment into the tail */
      x->s[x->len - 1] = x->tail ? fold(&x->s[x->len - 1], &x->s[x->len]) : x->s[x->len - 1];
      x->tail = true;
      x->len--;
    }
  }
  if (a.tail != b.tail) { /* one has no older history: an empty tail */
    state *x = a.tail ? &b : &a;
    x->s[x->len] = empty_seg;
    x->tail = true;
  }
  for (unsigned k = 0; k + 1 < len; k++)
    if (a.queue[k] != b.queue[k])
      a.queue[k] = ISA_ANY_QUEUE;
  for (unsigned k = 0; k < segs(&a); k++)
    a.s[k] = seg_hull(&a.s[k], &b.s[k]);
  a.lo_path = false;
  a.f = facts_meet(&a.f, &b.f);
  *d = a;
}

static bool seg_eq(const seg *a, const seg *b) {
  return a->n.lo == b->n.lo && a->n.hi == b->n.hi && a->d.lo == b->d.lo && a->d.hi == b->d.hi &&
         a->t.lo == b->t.lo && a->t.hi == b->t.hi && a->done == b->done && a->pub == b->pub && a->pub1 == b->pub1 &&
         a->donem == b->donem && a->pub1m == b->pub1m && a->pubm == b->pubm && a->unmet == b->unmet &&
         a->viol == b->viol;
}

static bool state_eq(const state *a, const state *b) {
  if (!same_key(a, b) || a->lo_path != b->lo_path)
    return false;
  for (unsigned k = 0; k < segs(a); k++)
    if (!seg_eq(&a->s[k], &b->s[k]))
      return false;
  return true;
}

/* d := d joined with s; true if d changed. */
static bool join_state(set *d, const state *s) {
  d->reached = true;
  state o = d->st[0];
  if (d->merged) {
    hull_any(&d->st[0], s);
    return !state_eq(&o, &d->st[0]);
  }
  for (unsigned k = 0; k < d->n; k++) {
    if (same_key(&d->st[k], s)) {
      o = d->st[k];
      hull(&d->st[k], s);
      return !state_eq(&o, &d->st[k]);
    }
  }
  if (d->n < STATES) {
    d->st[d->n++] = *s;
    return true;
  }
  /* too many: all in one */
  for (unsigned k = 1; k < d->n; k++)
    hull_any(&d->st[0], &d->st[k]);
  hull_any(&d->st[0], s);
  d->n = 1;
  d->merged = true;
  return true;
}

typedef struct flow {
  size_t succ[2];
  unsigned n;
} flow;

static flow successors(const isa_kernel *k, size_t at) {
  const isa_inst *i = &k->insts[at];
  flow f = {{SIZE_MAX, SIZE_MAX}, 0};
  if (i->kind == ISA_BRANCH || i->kind == ISA_CBRANCH)
    f.succ[f.n++] = isa_find(k, i->target);
  if (i->kind != ISA_BRANCH && i->kind != ISA_END && i->kind != ISA_INDIRECT && at + 1 < k->n)
    f.succ[f.n++] = at + 1;
  return f;
}

/* A wait's promise is checked after its own s_waitcnt: where the marker
 * sits on another instruction (the wait was taken out), before it. */
static bool promise_after(const isa_inst *i) { return i->kind == ISA_WAIT; }

/* State st through instruction i (marker, instruction, promise). */
static void step(state *st, const isa_inst *i, const uint64_t tracked[2]) {
  before(st, i);
  bool is_wait = i->mark == ISA_MARK_WAIT || i->mark == ISA_MARK_WAIT_ALL;
  if (is_wait && !promise_after(i))
    promise(st, i);
  transfer(st, i);
  scalar_step(&st->f, i, tracked);
  if (is_wait && promise_after(i))
    promise(st, i);
}

/* Whether the edge at -> to may be taken from st (after the branch), and
 * what it tells of exec on the way. */
static bool feasible(const isa_kernel *k, size_t at, size_t to, state *st) {
  const isa_inst *i = &k->insts[at];
  size_t target = isa_find(k, i->target);
  if (i->kind != ISA_CBRANCH || i->on == ISA_ON_OTHER || target == at + 1)
    return true;
  bool taken = to == target;
  facts f = st->f;
  if (i->on == ISA_ON_VCCZ || i->on == ISA_ON_VCCNZ) {
    st->f.vcc_zero = st->f.vcc_nonzero = false; /* branched on: no branch after asks again */
    st->f.exec_nonzero = true;                  /* a uniform branch: see facts */
  }
  switch (i->on) {
  case ISA_ON_VCCZ: return f.vcc_zero ? taken : f.vcc_nonzero ? !taken : true;
  case ISA_ON_VCCNZ: return f.vcc_zero ? !taken : f.vcc_nonzero ? taken : true;
  case ISA_ON_EXECZ:
    if (f.exec_nonzero)
      return !taken;
    st->f.exec_nonzero = !taken;
    return true;
  case ISA_ON_EXECNZ:
    if (f.exec_nonzero)
      return taken;
    st->f.exec_nonzero = taken;
    return true;
  default: return true;
  }
}

/* The fixpoint; false if a branch leaves the kernel or control flow is indirect. */
static bool solve(const isa_kernel *k, set *in, const char **why) {
  size_t *work = malloc(k->n * sizeof *work), top = 0;
  bool *queued = calloc(k->n, sizeof *queued), ok = work && queued;
  uint64_t tracked[2];
  find_tracked(k, tracked);
  if (ok && k->n) {
    in[0].reached = true;
    in[0].n = 1;
    in[0].st[0] = (state){.len = 1, .lo_path = true, .s = {empty_seg}, .f = {.exec_nonzero = true}};
    work[top++] = 0;
    queued[0] = true;
  }
  while (ok && top) {
    size_t at = work[--top];
    queued[at] = false;
    if (k->insts[at].kind == ISA_INDIRECT) {
      *why = "indirect control flow or a call";
      ok = false;
      break;
    }
    flow f = successors(k, at);
    for (unsigned j = 0; j < f.n && ok; j++)
      if (f.succ[j] == SIZE_MAX) {
        *why = "a branch target outside the kernel";
        ok = false;
      }
    for (unsigned s = 0; s < in[at].n && ok; s++) {
      state out = in[at].st[s];
      step(&out, &k->insts[at], tracked);
      for (unsigned j = 0; j < f.n; j++) {
        state edge = out;
        if (feasible(k, at, f.succ[j], &edge) && join_state(&in[f.succ[j]], &edge) && !queued[f.succ[j]]) {
          queued[f.succ[j]] = true;
          work[top++] = f.succ[j];
        }
      }
    }
  }
  free(work);
  free(queued);
  return ok;
}

/* An LDS read's verdict on one state: every promised DMA load complete and
 * published (V_NONE if no DMA load is in the state at all). Violated where
 * a wait left a promised load in flight, or where one is complete on every
 * path of the state (unmet is too: it is in the key) and published on none
 * (*unpublished). */
static verdict read_verdict(const state *st, unsigned *in_flight, bool *unpublished) {
  verdict v = V_NONE;
  for (unsigned k = 0; k < segs(st); k++) {
    const seg *s = &st->s[k];
    if (!s->d.hi)
      continue;
    v = v > V_PROVED ? v : V_PROVED;
    if (!s->done)
      *in_flight += 1;
    bool bare = s->unmet && s->done && s->d.lo && !s->pubm && k < st->len;
    *unpublished |= bare && !s->viol;
    if (s->unmet)
      v = s->viol || bare ? V_VIOLATED : v > V_UNDECIDED ? v : V_UNDECIDED;
  }
  return v;
}

static const char *const words[] = {[V_PROVED] = "proved", [V_UNDECIDED] = "cannot decide", [V_VIOLATED] = "violated"};

void isa_check_kernel(const isa_kernel *k, const char *where, bool verbose, FILE *out, isa_counts *c) {
  set *in = calloc(k->n ? k->n : 1, sizeof *in);
  const char *why = "out of memory";
  size_t bad = 0;
  for (size_t at = 0; at < k->n; at++) {
    const isa_inst *i = &k->insts[at];
    if (i->mark == ISA_MARK_BAD || (i->mark == ISA_MARK_COMMIT && strncmp(i->text, "s_nop", 5) != 0)) {
      fprintf(out, "%s: warning: %s+0x%" PRIx64 ": the marker %s is not one gac emits, or not on its instruction (%s) [IsaCheck.Marker]\n",
              where, k->name, i->addr, i->label, i->text);
      bad++;
    }
  }
  if (!in || bad || !solve(k, in, &why)) {
    for (size_t at = 0; at < k->n; at++) {
      c->undecided += k->insts[at].kind == ISA_LDS_READ;
      c->waits_undecided += k->insts[at].mark == ISA_MARK_WAIT || k->insts[at].mark == ISA_MARK_WAIT_ALL;
    }
    fprintf(out, "%s: warning: %s: cannot decide any LDS read: %s [IsaCheck.Undecided]\n", where, k->name,
            bad ? "its markers cannot be trusted" : why);
    free(in);
    return;
  }
  for (size_t at = 0; at < k->n; at++) {
    const isa_inst *i = &k->insts[at];
    if (!in[at].reached)
      continue;
    if (i->mark == ISA_MARK_WAIT || i->mark == ISA_MARK_WAIT_ALL) {
      verdict v = V_PROVED;
      for (unsigned s = 0; s < in[at].n; s++) {
        state st = in[at].st[s];
        before(&st, i);
        if (promise_after(i))
          transfer(&st, i);
        verdict w = promise(&st, i);
        v = w > v ? w : v;
      }
      c->waits_proved += v == V_PROVED;
      c->waits_violated += v == V_VIOLATED;
      c->waits_undecided += v == V_UNDECIDED;
      if (v != V_PROVED || verbose)
        fprintf(out, "%s: %s: %s+0x%" PRIx64 ": %s: %s%s (%s): %s [IsaCheck.Wait]\n", where,
                v == V_VIOLATED ? "error" : v == V_UNDECIDED ? "warning" : "remark", k->name, i->addr, words[v],
                i->kind == ISA_WAIT ? "" : "no s_waitcnt at ", i->text, i->label,
                v == V_PROVED      ? "every LDS-direct load it promises is complete on every path"
                : v == V_VIOLATED ? "it leaves an LDS-direct load it promises in flight on a path"
                                  : "a load it promises may be in flight on some path");
    }
    if (i->kind != ISA_LDS_READ)
      continue;
    verdict v = V_NONE;
    unsigned in_flight = 0;
    bool unpublished = false;
    for (unsigned s = 0; s < in[at].n; s++) {
      state st = in[at].st[s];
      before(&st, i);
      verdict r = read_verdict(&st, &in_flight, &unpublished);
      v = r > v ? r : v;
    }
    if (v == V_NONE) {
      c->no_dma++;
      continue;
    }
    c->proved += v == V_PROVED;
    c->violated += v == V_VIOLATED;
    c->undecided += v == V_UNDECIDED;
    if (v != V_PROVED || verbose)
      fprintf(out, "%s: %s: %s+0x%" PRIx64 ": %s: %s: %s [IsaCheck.Read]\n", where,
              v == V_VIOLATED ? "error" : v == V_UNDECIDED ? "warning" : "remark", k->name, i->addr, words[v], i->text,
              v == V_PROVED ? (in_flight ? "every LDS-direct load the waits before it promise is complete and published; "
                                           "groups they do not promise may stay in flight"
                                         : "every LDS-direct load before it is complete and published")
              : v == V_VIOLATED && unpublished
                  ? "an LDS-direct load a wait promised is complete but no barrier has published it on any path "
                    "(in a ping-pong loop: two)"
              : v == V_VIOLATED ? "a wait before it left an LDS-direct load it promised in flight"
                                : "an LDS-direct load a wait promised may be in flight or unpublished on some path");
  }
  free(in);
}
