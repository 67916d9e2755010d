/* The generator: (seed, index) -> one test case (rt.h). Every case is
 * well-defined for every value of its runtime conditions, so that the host
 * model is exact and gac's static checker has nothing to report:
 *  - every local tile is filled by the work-items (and a barrier) first;
 *  - no two copies in flight touch the same bytes where one writes, and the
 *    work-items touch no byte a copy in flight writes, nor write one it reads;
 *  - a copy counts as complete only when every event group it may belong to
 *    (both sides of a select) was waited, and each group is waited once;
 *  - reads of local memory come after the wait and a barrier; every read-out
 *    is followed by a barrier before copies may write those bytes again. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

const rt_type rt_types[] = {
    {"uchar", 1},   {"char2", 2},   {"short", 2},  {"char3", 4},  {"int", 4},     {"float", 4},
    {"short3", 8},  {"long", 8},    {"int2", 8},   {"int3", 16},  {"float4", 16}, {"long2", 16},
    {"uchar16", 16}, {"long4", 32}, {"int8", 32},  {"long3", 32}, {"long8", 64},  {"float16", 64},
};
const unsigned rt_num_types = sizeof rt_types / sizeof *rt_types;

/* Element sizes of the 2D/3D copies: the odd ones on purpose. */
static const uint32_t elem_sizes[] = {1, 2, 3, 4, 5, 7, 8, 12, 13, 16, 24, 32, 47, 64};

enum { MAX_BYTES = 8192 };

typedef struct gen {
  rt_rng r;
  rt_case *c;
  const rt_options *o;
  struct {
    bool live, maybe_null, assigned;
    uint32_t mask; /* the event groups the variable may hold */
  } var[RT_MAX_VARS];
  unsigned ngroups;
  uint32_t dead;         /* groups already waited */
  unsigned flight[RT_MAX_OPS]; /* ops of the copies not known complete */
  uint32_t need[RT_MAX_OPS];   /* their groups */
  unsigned nflight;
  uint32_t ro_next[RT_MAX_GBUF]; /* next free read-out byte of an out buffer */
  unsigned helpers;
  bool chain_round; /* this round's copies all join one event: e = copy(.., e) */
  int round_var;    /* that event's variable, -1 before the round's first copy */
} gen;

/* ---- footprints ---- */

/* One access to memory: a side of a copy (alt: its else-branch source), or
 * a byte range of the work-items. key: the tile (0..2) or 10 + buffer. */
typedef struct acc {
  int key;
  bool write;
  const rt_copy *cp;
  bool local_side, alt;
  uint32_t lo, len;
} acc;

/* Sets (test = false) or tests the bytes of a in bm. */
static bool acc_bytes(const acc *a, uint8_t *bm, bool test) {
  if (!a->cp) {
    for (uint32_t i = a->lo; i < a->lo + a->len; i++) {
      if (test && bm[i])
        return true;
      bm[i] = 1;
    }
    return false;
  }
  const rt_copy *cp = a->cp;
  const uint64_t *v = cp->v;
  uint64_t off = a->local_side ? v[O_LOFF] : v[O_GOFF];
  if (a->alt)
    off = cp->alt;
  uint64_t line = a->local_side ? v[O_LLINE] : v[O_GLINE], plane = a->local_side ? v[O_LPLANE] : v[O_GPLANE];
  for (uint64_t p = 0; p < v[O_PLANES]; p++)
    for (uint64_t l = 0; l < v[O_LINES]; l++) {
      uint64_t start = (off + p * plane + l * line) * cp->elem;
      for (uint64_t i = start; i < start + v[O_PER_LINE] * cp->elem; i++) {
        if (test && bm[i])
          return true;
        bm[i] = 1;
      }
    }
  return false;
}

static bool overlap(const acc *a, const acc *b) {
  if (a->key != b->key || (!a->write && !b->write))
    return false;
  static uint8_t bm[MAX_BYTES];
  memset(bm, 0, sizeof bm);
  acc_bytes(a, bm, false);
  return acc_bytes(b, bm, true);
}

/* The accesses of a copy: its destination, its source(s). */
static unsigned copy_accs(const rt_copy *cp, acc out[3]) {
  int gkey = 10 + cp->gbuf, lkey = cp->tile;
  unsigned n = 0;
  out[n++] = (acc){cp->to_local ? lkey : gkey, true, cp, cp->to_local, false, 0, 0};
  out[n++] = (acc){cp->to_local ? gkey : lkey, false, cp, !cp->to_local, false, 0, 0};
  if (cp->alt_cond >= 0)
    out[n++] = (acc){cp->to_local ? gkey : lkey, false, cp, !cp->to_local, true, 0, 0};
  return n;
}

/* Does any access of `as` conflict with a copy in flight? */
static bool conflicts(const gen *g, const acc *as, unsigned n) {
  for (unsigned f = 0; f < g->nflight; f++) {
    acc fl[3];
    unsigned m = copy_accs(&g->c->ops[g->flight[f]].u.copy, fl);
    for (unsigned i = 0; i < n; i++)
      for (unsigned j = 0; j < m; j++)
        if (overlap(&as[i], &fl[j]))
          return true;
  }
  return false;
}

/* ---- arguments ---- */

static int add_arg(rt_case *c, int kind, uint64_t value) {
  if (c->nargs >= RT_MAX_ARGS)
    return -1;
  c->args[c->nargs] = (rt_arg){kind, value};
  return (int)c->nargs++;
}

static int new_cond(gen *g) {
  rt_case *c = g->c;
  if (c->ncond >= 8)
    return (int)rt_range(&g->r, 0, c->ncond - 1);
  int value = rt_chance(&g->r, 50) ? 0 : (int)rt_range(&g->r, 1, 9);
  int a = add_arg(c, A_I32, (uint64_t)value);
  if (a < 0)
    return -1;
  c->cond_value[c->ncond] = value;
  c->cond_arg[c->ncond] = a;
  return (int)c->ncond++;
}

/* ---- copies ---- */

static uint64_t extent(const uint64_t *v, bool local_side) {
  uint64_t line = local_side ? v[O_LLINE] : v[O_GLINE], plane = local_side ? v[O_LPLANE] : v[O_GPLANE];
  if (!v[O_PER_LINE] || !v[O_LINES] || !v[O_PLANES])
    return 0;
  return (v[O_PLANES] - 1) * plane + (v[O_LINES] - 1) * line + v[O_PER_LINE];
}

/* A random shape of `form` with elements of cp->elem bytes, fitting
 * gbytes of global memory and lbytes of the tile, dense on the local side
 * when asked (pipelined tiles). False when none was found. */
static bool random_shape(gen *g, rt_copy *cp, uint32_t gbytes, uint32_t lbytes, bool dense) {
  rt_rng *r = &g->r;
  uint64_t *v = cp->v;
  for (int attempt = 0; attempt < 12; attempt++) {
    uint64_t scale = attempt < 4 ? 1 : attempt < 8 ? 2 : 4;
    v[O_PLANES] = v[O_LINES] = 1;
    v[O_ELEM] = cp->elem;
    switch (cp->form) {
    case F_1D:
      v[O_PER_LINE] = rt_range(r, 1, 24 / scale);
      /* --plain-copies: whole rounds of the work-group's 16-byte units */
      if (g->o->plain_copies && cp->to_local && cp->elem == 16 && attempt < 6)
        v[O_PER_LINE] = g->c->local_size * rt_range(r, 1, 2) + (rt_chance(r, 30) ? rt_range(r, 1, 7) : 0);
      v[O_GLINE] = v[O_LLINE] = v[O_PER_LINE];
      break;
    case F_STRIDED:
      v[O_PER_LINE] = 1;
      v[O_LINES] = rt_range(r, 1, 12 / scale);
      v[O_GLINE] = rt_range(r, 1, 5);
      v[O_LLINE] = 1;
      break;
    case F_2D:
    case F_3D:
      v[O_PER_LINE] = rt_range(r, 1, 8 / scale);
      v[O_LINES] = rt_range(r, 1, 6 / scale + 1);
      v[O_GLINE] = v[O_PER_LINE] + (rt_chance(r, 30) ? 0 : rt_range(r, 1, 4));
      v[O_LLINE] = dense ? v[O_PER_LINE] : v[O_PER_LINE] + (rt_chance(r, 40) ? 0 : rt_range(r, 1, 3));
      if (cp->form == F_3D) {
        v[O_PLANES] = rt_range(r, 1, 4 / scale + 1);
        v[O_GPLANE] = v[O_LINES] * v[O_GLINE] + (rt_chance(r, 40) ? 0 : rt_range(r, 1, 3));
        v[O_LPLANE] = dense ? v[O_LINES] * v[O_LLINE] : v[O_LINES] * v[O_LLINE] + (rt_chance(r, 50) ? 0 : rt_range(r, 1, 2));
      }
      break;
    }
    if (cp->form != F_3D)
      v[O_GPLANE] = v[O_LPLANE] = 0;
    /* Now and then an empty copy: it still gives an event to wait on. */
    if (!dense && rt_chance(r, 3))
      v[cp->form == F_1D ? O_PER_LINE : O_LINES] = 0;
    uint64_t ge = extent(v, false), le = extent(v, true);
    if (ge * cp->elem > gbytes || le * cp->elem > lbytes)
      continue;
    v[O_GOFF] = rt_range(r, 0, gbytes / cp->elem - ge);
    v[O_LOFF] = dense ? 0 : rt_range(r, 0, lbytes / cp->elem - le);
    return true;
  }
  return false;
}

static void pick_elem(gen *g, rt_copy *cp) {
  if (cp->form == F_1D || cp->form == F_STRIDED) {
    cp->type = (int)rt_range(&g->r, 0, rt_num_types - 1);
    cp->elem = rt_types[cp->type].size;
  } else {
    cp->elem = rt_chance(&g->r, 80) ? elem_sizes[rt_range(&g->r, 0, sizeof elem_sizes / sizeof *elem_sizes - 1)]
                                    : (uint32_t)rt_range(&g->r, 1, 64);
    cp->type = rt_chance(&g->r, 30) ? (int)cp->elem : -1; /* sizeof(e<N>) */
  }
  cp->v[O_ELEM] = cp->elem;
}

/* Operands given as kernel arguments, with probability `percent`. */
static bool operand_used(int form, int o) {
  switch (form) {
  case F_1D:
    return o == O_PER_LINE || o == O_GOFF || o == O_LOFF;
  case F_STRIDED:
    return o == O_LINES || o == O_GLINE || o == O_GOFF || o == O_LOFF;
  case F_2D:
    return o != O_PLANES && o != O_GPLANE && o != O_LPLANE;
  default:
    return true;
  }
}

static void pick_runtime(gen *g, rt_copy *cp, unsigned percent) {
  for (int o = 0; o < O_NUM; o++) {
    cp->arg[o] = -1;
    if (operand_used(cp->form, o) && rt_chance(&g->r, percent))
      cp->arg[o] = add_arg(g->c, A_U64, cp->v[o]);
  }
}

/* A copy of the given direction that conflicts with nothing in flight. */
static bool random_copy(gen *g, rt_copy *cp, bool to_local) {
  rt_case *c = g->c;
  rt_rng *r = &g->r;
  for (int attempt = 0; attempt < 24; attempt++) {
    memset(cp, 0, sizeof *cp);
    cp->to_local = to_local;
    cp->tile = (uint8_t)rt_range(r, 0, c->ntile - 1);
    unsigned ins[2], outs[2], ni = 0, no = 0;
    for (unsigned b = 0; b < RT_MAX_GBUF; b++)
      if (c->gbuf_used[b])
        (b < 2 ? ins : outs)[b < 2 ? ni++ : no++] = b;
    cp->gbuf = (uint8_t)(to_local ? ins[rt_range(r, 0, ni - 1)] : outs[rt_range(r, 0, no - 1)]);
    unsigned f = (unsigned)rt_range(r, 0, 99);
    cp->form = f < 20 ? F_1D : f < 30 ? F_STRIDED : f < 65 ? F_2D : F_3D;
    pick_elem(g, cp);
    /* --plain-copies: half the loads into tiles are tile loads of 16-byte
     * units, the shape that becomes cp.async on the PTX path. */
    if (g->o->plain_copies && to_local && rt_chance(r, 50)) {
      static const int sixteen[] = {9, 10, 11, 12}; /* int3, float4, long2, uchar16 */
      cp->form = F_1D;
      cp->type = sixteen[rt_range(r, 0, 3)];
      cp->elem = rt_types[cp->type].size;
      cp->v[O_ELEM] = cp->elem;
    }
    uint32_t gbytes = to_local ? c->region[cp->gbuf] : c->copy_area[cp->gbuf];
    if (!random_shape(g, cp, gbytes, c->tile_size[cp->tile], false))
      continue;
    cp->ev_out = cp->ev_in = cp->sel_a = cp->sel_b = cp->sel_cond = cp->cond = cp->alt_cond = cp->helper = -1;
    cp->alt_arg = -1;
    cp->discard = false;
    /* An if/else that copies from one of two sources to the same place. */
    if (rt_chance(r, 15)) {
      uint64_t se = extent(cp->v, !to_local);
      uint32_t sbytes = to_local ? c->region[cp->gbuf] : c->tile_size[cp->tile];
      cp->alt = rt_range(r, 0, sbytes / cp->elem - se);
      cp->alt_cond = 0; /* the condition is chosen once the copy stands */
    }
    acc as[3];
    unsigned n = copy_accs(cp, as);
    if (conflicts(g, as, n))
      continue;
    for (int o = 0; o < O_NUM; o++)
      cp->arg[o] = -1;
    return true;
  }
  return false;
}

/* ---- events ---- */

static unsigned popcount(uint32_t x) {
  unsigned n = 0;
  for (; x; x &= x - 1)
    n++;
  return n;
}

/* Variables that may be waited: live, non-null, one group. */
static unsigned waitable(const gen *g, int *vars) {
  unsigned n = 0;
  uint32_t seen = 0;
  for (int v = 0; v < RT_MAX_VARS; v++)
    if (g->var[v].live && !g->var[v].maybe_null && popcount(g->var[v].mask) == 1 && !(seen & g->var[v].mask)) {
      seen |= g->var[v].mask;
      vars[n++] = v;
    }
  return n;
}

/* A variable holding no live group; fresh: one of e0..e7 never assigned,
 * so still the null event it was declared with. */
static int free_var(gen *g, bool fresh) {
  int cand[RT_MAX_VARS], n = 0;
  bool array = !fresh && rt_chance(&g->r, 25);
  for (int v = 0; v < RT_MAX_VARS; v++)
    if (!g->var[v].live && (v >= RT_ARRAY_VAR) == array && (!fresh || !g->var[v].assigned))
      cand[n++] = v;
  if (!n && !fresh)
    for (int v = 0; v < RT_MAX_VARS; v++)
      if (!g->var[v].live)
        cand[n++] = v;
  return n ? cand[rt_range(&g->r, 0, n - 1)] : -1;
}

static void set_var(gen *g, int v, uint32_t mask, bool maybe_null) {
  g->var[v].live = true;
  g->var[v].assigned = true;
  g->var[v].mask = mask;
  g->var[v].maybe_null = maybe_null;
  if ((unsigned)v + 1 > g->c->nvars_used)
    g->c->nvars_used = (unsigned)v + 1;
}

static rt_op *new_op(rt_case *c, int kind) {
  if (c->nops >= RT_MAX_OPS)
    return NULL;
  rt_op *op = &c->ops[c->nops++];
  memset(op, 0, sizeof *op);
  op->kind = kind;
  return op;
}

/* Finishes cp (its wiring chosen by the caller) as an op in flight. */
static void issue(gen *g, const rt_copy *cp, uint32_t need, unsigned runtime_percent) {
  rt_op *op = new_op(g->c, OP_COPY);
  if (!op)
    return;
  op->u.copy = *cp;
  rt_copy *k = &op->u.copy;
  pick_runtime(g, k, runtime_percent);
  if (k->alt_cond >= 0) {
    k->alt_cond = new_cond(g);
    int o = k->to_local ? O_GOFF : O_LOFF;
    k->alt_arg = k->arg[o] >= 0 ? add_arg(g->c, A_U64, k->alt) : -1;
  }
  if (rt_chance(&g->r, 15)) {
    k->helper = (int)g->helpers++;
    k->noinline = g->o->noinline && rt_chance(&g->r, 50);
  }
  g->flight[g->nflight] = g->c->nops - 1;
  g->need[g->nflight++] = need;
}

/* One copy and its event wiring. */
static void gen_copy(gen *g, unsigned runtime_percent) {
  rt_rng *r = &g->r;
  rt_copy cp;
  if (g->ngroups >= RT_MAX_GROUPS - 1 || g->c->nops + 4 >= RT_MAX_OPS || !random_copy(g, &cp, rt_chance(r, 50)))
    return;
  int live[RT_MAX_VARS];
  unsigned nlive = waitable(g, live);
  int kind = (int)rt_range(r, 0, 99);
  if (g->chain_round && g->round_var < 0)
    kind = 99; /* the round's first copy: a new event */
  if (kind < 12) {
    /* if (c) en = copy(..., en) with en = 0: a phi of null and the event,
     * then an unconditional copy chained to it. */
    int v = free_var(g, true);
    rt_copy next;
    if (v >= 0 && random_copy(g, &next, rt_chance(r, 50))) {
      uint32_t grp = 1u << g->ngroups++;
      cp.ev_in = cp.ev_out = v;
      cp.cond = new_cond(g);
      issue(g, &cp, grp, runtime_percent);
      set_var(g, v, grp, true);
      /* the second copy must not conflict with the first either */
      acc as[3];
      unsigned n = copy_accs(&next, as);
      if (conflicts(g, as, n)) {
        next.form = F_1D, next.type = 0, next.elem = 1, next.alt_cond = -1;
        memset(next.v, 0, sizeof next.v);
        next.v[O_LINES] = next.v[O_PLANES] = 1;
      }
      int out = rt_chance(r, 50) ? v : free_var(g, false);
      if (out < 0)
        out = v;
      next.ev_in = v;
      next.ev_out = out;
      issue(g, &next, grp, runtime_percent);
      if (out != v)
        g->var[v].live = false; /* still null on some paths: never waited */
      set_var(g, out, grp, false);
      return;
    }
    kind = 50;
  }
  if (kind < 20 && g->o->select_events && nlive >= 2) {
    /* the input is one of two events, as a condition says */
    unsigned a = (unsigned)rt_range(r, 0, nlive - 1), b = (unsigned)rt_range(r, 0, nlive - 2);
    if (b >= a)
      b++;
    int v = free_var(g, false);
    if (v >= 0) {
      cp.sel_a = live[a], cp.sel_b = live[b], cp.sel_cond = new_cond(g);
      cp.ev_out = v;
      uint32_t mask = g->var[live[a]].mask | g->var[live[b]].mask;
      issue(g, &cp, mask, runtime_percent);
      set_var(g, v, mask, false);
      return;
    }
  }
  /* A chained round: the copies after the first join its event, whatever
   * their directions (the shape of a bug found on the GPU: local->global
   * with a null event, local->global and global->local given its event,
   * one wait, then local reads). */
  bool chain = g->chain_round && g->round_var >= 0 && g->var[g->round_var].live && !g->var[g->round_var].maybe_null &&
               popcount(g->var[g->round_var].mask) == 1;
  if ((kind < 70 && nlive) || chain) {
    /* chained: the copy joins the group of its input event */
    int in = chain ? g->round_var : live[rt_range(r, 0, nlive - 1)];
    int out = chain || rt_chance(r, 60) ? in : free_var(g, false);
    if (out < 0)
      out = in;
    cp.ev_in = in, cp.ev_out = out;
    if (out == in && rt_chance(r, 20))
      cp.cond = new_cond(g); /* if (c) e = copy(..., e): e holds the group either way */
    /* The copy returns the event it was given, so `copy(..., e);` leaves e
     * as it was: the wait on e must still cover the copy (a chain where
     * only the first copy's result is stored). */
    else if (out == in && !g->var[in].maybe_null && rt_chance(r, chain ? 50 : 25))
      cp.discard = true;
    uint32_t mask = g->var[in].mask;
    issue(g, &cp, mask, runtime_percent);
    set_var(g, out, mask, false);
    return;
  }
  int out = free_var(g, false);
  if (out < 0)
    return;
  uint32_t grp = 1u << g->ngroups++;
  cp.ev_out = out;
  issue(g, &cp, grp, runtime_percent);
  set_var(g, out, grp, false);
  if (g->chain_round && g->round_var < 0)
    g->round_var = out;
}

/* Waits on `n` of the waitable variables (all when all is set). */
static bool gen_wait(gen *g, bool all) {
  rt_rng *r = &g->r;
  int vars[RT_MAX_VARS];
  unsigned n = waitable(g, vars);
  if (!n)
    return false;
  rt_op *op = new_op(g->c, OP_WAIT);
  if (!op)
    return false;
  rt_wait *w = &op->u.wait;
  unsigned pick = (unsigned)rt_range(r, 0, 3);
  if (all || pick == 0) {
    for (unsigned i = 0; i < n; i++)
      w->vars[w->n++] = vars[i];
  } else if (pick == 1) {
    w->vars[w->n++] = vars[0]; /* the first */
  } else if (pick == 2) {
    w->vars[w->n++] = vars[n - 1]; /* the last */
  } else {
    for (unsigned i = 0; i < n; i++)
      if (rt_chance(r, 50) || (i == n - 1 && !w->n))
        w->vars[w->n++] = vars[i];
  }
  w->form = (int)rt_range(r, 0, W_NUM - 1);
  if (w->form == W_ARRAY) { /* ev[i], ev[i+1], ... in order */
    bool ok = w->vars[0] >= RT_ARRAY_VAR;
    for (unsigned i = 1; i < w->n; i++)
      ok = ok && w->vars[i] == w->vars[i - 1] + 1;
    if (!ok)
      w->form = W_LIST;
  }
  uint32_t waited = 0;
  for (unsigned i = 0; i < w->n; i++)
    waited |= g->var[w->vars[i]].mask;
  g->dead |= waited;
  for (int v = 0; v < RT_MAX_VARS; v++)
    if (g->var[v].mask & g->dead)
      g->var[v].live = false;
  unsigned k = 0;
  for (unsigned f = 0; f < g->nflight; f++)
    if ((g->need[f] & ~g->dead) != 0) {
      g->flight[k] = g->flight[f];
      g->need[k++] = g->need[f];
    }
  g->nflight = k;
  return true;
}

static void barrier_op(gen *g) { new_op(g->c, OP_BARRIER); }

/* Work-items copy bytes of a tile out (or fill it anew), where no copy in flight is. */
static bool gen_items(gen *g, bool fill) {
  rt_rng *r = &g->r;
  rt_case *c = g->c;
  unsigned t = (unsigned)rt_range(r, 0, c->ntile - 1);
  uint32_t size = c->tile_size[t];
  rt_items it = {.tile = (uint8_t)t, .mul = (uint8_t)rt_range(r, 1, 255), .add = (uint8_t)rt_next(r)};
  if (fill) {
    it.loff = 0, it.len = size;
    acc a = {(int)t, true, NULL, true, false, 0, size};
    if (conflicts(g, &a, 1))
      return false;
    rt_op *op = new_op(c, OP_FILL);
    if (op)
      op->u.items = it;
    return op != NULL;
  }
  it.loff = rt_chance(r, 50) ? 0 : (uint32_t)rt_range(r, 0, size - 1);
  it.len = (uint32_t)rt_range(r, 1, size - it.loff);
  unsigned outs[2], no = 0;
  for (unsigned b = 2; b < RT_MAX_GBUF; b++)
    if (c->gbuf_used[b])
      outs[no++] = b;
  it.gbuf = (uint8_t)outs[rt_range(r, 0, no - 1)];
  if (g->ro_next[it.gbuf] + it.len > c->region[it.gbuf])
    return false;
  it.goff = g->ro_next[it.gbuf];
  if (rt_chance(r, 50))
    it.add = 0;
  acc a[2] = {{(int)t, false, NULL, true, false, it.loff, it.len}, {10 + it.gbuf, true, NULL, false, false, it.goff, it.len}};
  if (conflicts(g, a, 2))
    return false;
  g->ro_next[it.gbuf] += it.len;
  rt_op *op = new_op(c, OP_READOUT);
  if (op)
    op->u.items = it;
  return op != NULL;
}

/* ---- pipelined loops ---- */

static void gen_loop(gen *g) {
  rt_case *c = g->c;
  rt_rng *r = &g->r;
  rt_loop *l = &c->loop;
  c->has_loop = true;
  l->stages = (unsigned)rt_range(r, 2, 4);
  l->mid = l->stages > 2 && rt_chance(r, 60) ? (unsigned)rt_range(r, 1, l->stages - 2) : 0;
  l->ncopies = rt_chance(r, 40) ? 2 : 1;
  l->trip = rt_range(r, 0, 6);
  l->trip_arg = add_arg(c, A_I32, l->trip);
  unsigned runtime = (unsigned)rt_range(r, 0, 2) * 50;
  uint32_t out = 0;
  for (unsigned k = 0; k < l->ncopies; k++) {
    rt_op *op = new_op(c, OP_COPY);
    rt_copy *cp = &op->u.copy;
    for (;;) {
      memset(cp, 0, sizeof *cp);
      cp->to_local = 1;
      cp->tile = (uint8_t)k;
      cp->gbuf = (uint8_t)(k == 1 && c->gbuf_used[1] ? 1 : 0);
      unsigned f = (unsigned)rt_range(r, 0, 99);
      cp->form = f < 20 ? F_1D : f < 30 ? F_STRIDED : f < 65 ? F_2D : F_3D;
      /* A warp-specialised loop (sm90ws) refuses a typed 1D copy into the
       * byte tile the consumers read ([AsyncPipeline.PipeShape], README.md):
       * with reqd_work_group_size, 2D/3D copies only, unless asked. */
      if (c->reqd && !g->o->ws_typed && cp->form < F_2D)
        cp->form = f % 2 ? F_2D : F_3D;
      pick_elem(g, cp);
      if (random_shape(g, cp, 2048, 2048, true))
        break;
    }
    cp->v[O_GOFF] = rt_range(r, 0, 16);
    cp->ev_in = k ? 0 : -1;
    cp->ev_out = 0;
    cp->sel_a = cp->sel_b = cp->sel_cond = cp->cond = cp->alt_cond = cp->helper = cp->alt_arg = -1;
    cp->discard = false;
    uint64_t ext = extent(cp->v, false);
    l->step[k] = rt_chance(r, 30) ? rt_range(r, 1, ext ? ext : 1) : ext + rt_range(r, 0, 3);
    c->tile_size[k] = (uint32_t)((extent(cp->v, true) * cp->elem + 15) / 16 * 16);
    if (!c->tile_size[k])
      c->tile_size[k] = 16;
    c->tile_is_arg[k] = false;
    uint64_t need = (cp->v[O_GOFF] + (l->trip ? l->trip - 1 : 0) * l->step[k] + ext) * cp->elem;
    uint32_t region = (uint32_t)((need + 127) / 128 * 128);
    if (region > c->region[cp->gbuf])
      c->region[cp->gbuf] = region;
    out += (uint32_t)(extent(cp->v, true) * cp->elem);
    pick_runtime(g, cp, runtime);
    l->step_arg[k] = cp->arg[O_GOFF] >= 0 ? add_arg(c, A_U64, l->step[k]) : -1;
  }
  if (c->gbuf_used[1] && !c->region[1])
    c->region[1] = 128;
  c->ntile = l->ncopies;
  if (l->mid) {
    c->tile_size[c->ntile] = c->tile_size[0];
    c->tile_is_arg[c->ntile] = false;
    c->fill_add[c->ntile] = (uint8_t)rt_range(r, 1, 255);
    c->ntile++;
  }
  l->out_per_iter = out ? out : 1;
  c->region[2] = (uint32_t)((l->out_per_iter * (l->trip ? l->trip : 1) + 127) / 128 * 128);
  if (c->gbuf_used[3])
    c->region[3] = 128;
  l->in_helper = g->o->loop_helper && rt_chance(r, 50); /* drawn last: other options' streams stay */
  l->helper_noinline = l->in_helper && g->o->noinline;
  new_op(c, OP_LOOP);
}

/* ---- the case ---- */

void rt_generate(uint64_t seed, uint64_t index, const rt_options *opt, rt_case *c) {
  memset(c, 0, sizeof *c);
  gen g = {.c = c, .o = opt};
  g.r.s = seed * 0x2545f4914f6cdd1dull ^ (index + 1) * 0x9e3779b97f4a7c15ull;
  rt_next(&g.r);
  rt_rng *r = &g.r;
  c->seed = seed, c->index = index;
  c->gbuf_used[0] = c->gbuf_used[2] = true;
  c->gbuf_used[1] = rt_chance(r, 30);
  c->gbuf_used[3] = rt_chance(r, 30);
  for (unsigned b = 0; b < RT_MAX_GBUF; b++)
    if (c->gbuf_used[b])
      c->gbuf_arg[b] = add_arg(c, A_BUF, b);
  static const unsigned sizes[] = {1, 2, 13, 32, 64, 96, 128, 256};
  c->local_size = sizes[rt_range(r, 0, 7)];
  c->groups = (unsigned)rt_range(r, 1, 4);
  if (opt->reqd && rt_chance(r, 25)) {
    c->reqd = true;
    c->local_size = 32u << rt_range(r, 0, 2);
  }

  c->noinline_waits = opt->noinline && rt_chance(r, 50);
  c->plain = opt->plain_copies;
  if (opt->loops && !opt->plain_copies && rt_chance(r, 20)) {
    gen_loop(&g);
    return;
  }

  c->ntile = (unsigned)rt_range(r, 1, RT_MAX_TILE);
  for (unsigned t = 0; t < c->ntile; t++) {
    c->tile_size[t] = (uint32_t)rt_range(r, 1, 64) * 16;
    c->tile_is_arg[t] = rt_chance(r, 40);
    if (c->tile_is_arg[t])
      c->tile_arg[t] = add_arg(c, A_LOCAL, c->tile_size[t]);
  }
  for (unsigned b = 0; b < RT_MAX_GBUF; b++) {
    if (!c->gbuf_used[b])
      continue;
    c->region[b] = (uint32_t)rt_range(r, 2, 24) * 128;
    if (b >= 2) { /* copies write the front, read-outs the back */
      c->copy_area[b] = c->region[b];
      uint32_t ro = 0;
      for (unsigned t = 0; t < c->ntile; t++)
        ro += c->tile_size[t] * 2;
      c->region[b] += (ro + 127) / 128 * 128;
      g.ro_next[b] = c->copy_area[b];
    }
  }
  c->region_is_arg = rt_chance(r, 20);
  if (c->region_is_arg)
    for (unsigned b = 0; b < RT_MAX_GBUF; b++)
      if (c->gbuf_used[b])
        c->region_arg[b] = add_arg(c, A_U64, c->region[b]);
  unsigned runtime = (unsigned)rt_range(r, 0, 2) * 50;

  for (unsigned t = 0; t < c->ntile; t++) {
    rt_op *op = new_op(c, OP_FILL);
    op->u.items = (rt_items){.tile = (uint8_t)t, .len = c->tile_size[t], .mul = (uint8_t)rt_range(r, 1, 255),
                             .add = (uint8_t)rt_next(r)};
  }
  barrier_op(&g);
  unsigned rounds = (unsigned)rt_range(r, 1, 3);
  for (unsigned round = 0; round < rounds; round++) {
    bool last = round == rounds - 1;
    unsigned copies = (unsigned)rt_range(r, 1, 4);
    g.chain_round = rt_chance(r, 30);
    g.round_var = -1;
    for (unsigned i = 0; i < copies; i++)
      gen_copy(&g, runtime);
    gen_wait(&g, last);
    while (last && g.nflight && gen_wait(&g, true)) /* groups the first wait did not name */
      ;
    barrier_op(&g);
    unsigned items = 0;
    for (unsigned i = 0; i < (last ? 2 * c->ntile + 2 : 2); i++)
      items += gen_items(&g, false);
    if (!last && rt_chance(r, 20)) {
      /* the read-outs above may read what the fill overwrites: a barrier between */
      if (items)
        barrier_op(&g);
      items += gen_items(&g, true);
    }
    if (items && !last)
      barrier_op(&g);
  }
}
