/* --check-async: for every access to a Workgroup buffer that an async copy
 * writes, prove that a wait covering the copy's group comes first, or say
 * where it does not (docs/CHECK_ASYNC.md).
 *
 * Forward dataflow per function over (block, context) pairs, context 0
 * being the first iteration of the block's innermost loop (or no loop) and
 * context 1 a later one. A state is the set of async accesses that may be
 * in flight ("facts"), each with the buffer and version it touches, its
 * queue (or pending, not committed yet), how many groups were committed to
 * that queue after it ([lo, hi] over the paths), whether it is in flight on
 * every path of the context (must), and the equalities known between ids
 * (k = init in a first iteration, k = n after the loop). Joins keep a fact
 * that is on any path (may); must only survives where both sides have it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check_async_internal.h"
#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/check_async.h"

enum { POS_CAP = 32, AGE_CAP = 8, MAX_ROUNDS = 1000, ALIAS_DEPTH = 8, PATH_MAX_BLOCKS = 12 };
/* Contexts: bit 0, the innermost loop's first iteration (0) or a later one
 * (1), or outside loops whether the copying loop left last went round;
 * bit 1, the same of the innermost enclosing loop that copies (kept through
 * loops that do not: a tile's rows and columns), or for a loop outside
 * any, whether the copying loop before it went round. */
enum { NCTX = 4, CTX_LATER = 1, CTX_OUTER_LATER = 2 };
#define PENDING UINT32_MAX
#define UNKNOWN_BUFFER (-1)
#define NOT_WORKGROUP (-2)

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    abort();
  return p;
}

/* An async access that may be in flight. */
typedef struct fact {
  const gac_inst *copy;    /* one copy (or call that may start copies) it stands for, for diagnostics */
  bool copy_in_loop;       /* that copy is in a loop: the better witness for a loop's iterations */
  int buffer;              /* UNKNOWN_BUFFER: any */
  uint32_t versions;       /* the buffer's V */
  gac_version version;     /* offset kept in [0, V) */
  bool async_read;         /* the copy reads the buffer (its Source) rather than writes it */
  uint32_t queue;          /* PENDING until committed */
  uint32_t group;          /* the event id naming its group now; 0 once no id names it */
  uint32_t old_group;      /* the id that named it before an OpPhi did, still valid where it dominates */
  uint8_t lo, hi;          /* groups committed to the queue after it */
  bool must;
  uint8_t must_pos;        /* with must (or must_if): on every path one is in flight at a position <= must_pos */
  /* Without must: in flight (as must says) on every path where must_if's
   * value is in [must_lo, must_hi]; 0 if none. A copy under `if (1 < n)`
   * joined with the path that skipped it (there n <= 1). */
  uint32_t must_if;
  uint64_t must_lo, must_hi;
  /* The copies it stands for are in flight only on paths where only_if's
   * value is in [only_lo, only_hi]; 0 if no such range is known. */
  uint32_t only_if;
  uint64_t only_lo, only_hi;
  uint8_t age;             /* back edges crossed since the copy */
  const gac_inst *kept_by; /* the last wait that left it in flight */
  const gac_inst *doubt;   /* what made it "may" other than a join: an untraceable wait, a call */
  /* The element of Function variable held_var (by its index mod held_len,
   * the array's length) that holds its group's event on every path where
   * it is in flight; held_var 0 if none is known. */
  uint32_t held_var, held_len;
  gac_version held_at;
} fact;

typedef struct alias {
  uint32_t id;
  gac_affine value;
} alias;

/* lo <= id <= hi (unsigned) on every path: from branches on comparisons
 * with constants, and from the pipelined body's start umin(n, S). */
typedef struct range {
  uint32_t id;
  uint64_t lo, hi;
} range;

typedef struct state {
  bool reached;
  fact *f;
  unsigned nf, cf;
  alias *a;
  unsigned na, ca;
  range *r;
  unsigned nr, cr;
} state;

typedef struct buffer {
  uint32_t root;
  uint32_t versions; /* V of a [V x T]; 1 if not multi-buffered */
  bool param;        /* a function parameter rather than a variable */
  bool written;      /* an async copy writes it */
  bool read;         /* an async copy reads it */
} buffer;

/* One element of a Function variable (a variable of one event or value is
 * its own element 0): the stores to it, when nothing else can write it. */
typedef struct slot {
  uint32_t var;
  uint64_t index;
  unsigned stores;
  const gac_inst *store;
} slot;

/* A copy's Destination only conflicts with copies reading the buffer: copies
 * into disjoint parts of one version are common (docs/CHECK_ASYNC.md). */
enum access_kind { ACCESS_READ, ACCESS_WRITE, ACCESS_COPY_WRITE, ACCESS_CALL };

typedef struct place {
  int buffer; /* or UNKNOWN_BUFFER, NOT_WORKGROUP */
  gac_version version;
  /* Pointer arithmetic from inside a version that may leave it: why (for the report). */
  bool left;
  int local_id;       /* dimension + 1 of a get_local_id with no fixed work-group size it depends on */
  bool followed;      /* the bytes below were worked out */
  uint64_t lo, hi;    /* bytes from the version's start */
  uint64_t room;      /* the version's bytes */
} place;

/* The worst an access met in one context, and the fact that made it so. */
typedef struct finding {
  bool evaluated;
  gac_check_verdict verdict;
  fact witness;
  gac_version seen_as, fact_as; /* both versions, resolved in the witness's state */
  gac_version as_read;          /* the access's version as its index says, in that context */
} finding;

typedef struct access {
  const gac_inst *inst;
  unsigned role; /* operand index, to tell a copy's source from its destination */
  enum access_kind kind;
  int buffer;
  gac_version version;
  place where; /* why pointer arithmetic may leave the version, if it may */
  unsigned block;
  finding in[NCTX]; /* per context */
} access;

typedef struct checker {
  const gac_module *m;
  const gac_check_async_options *opt;
  gac_diag *diag;
  gac_check_async_counts *counts;
  ca_cfg cfg;
  bool kernel; /* an entry point: its Workgroup parameters are distinct allocations */
  buffer *buffers;
  unsigned nb;
  slot *slots;
  unsigned nslots;
  bool *escaped; /* by id: a Function variable whose address goes where the checker cannot follow */
  uint8_t *element_stores; /* by id: a Function variable's ELEMENT_DYNAMIC, ELEMENT_UNTRACKED stores */
  uint8_t *starts;  /* by function id: 0 not asked yet, 1 starts no copies, 2 may start some */
  uint8_t *touches; /* by function id: the same for using a Workgroup variable */
  uint8_t *pipe_var; /* by id: a buffer of a warp-specialised Pipe, which check_async_pipes.c checks */
  access *acc;
  unsigned nacc;
  bool any_copy;
  bool unknown_writes; /* a copy into untraced Workgroup memory, or a call that starts copies */
  const gac_inst *at; /* the instruction whose pointers place_of follows */
  const struct state *cur; /* the state there, when there is one */
  bool *loop_copies;       /* by loop: its body holds an async copy */
  uint32_t local_size[3];  /* the function's fixed work-group size, 0 where none */
  bool gave_up; /* irreducible flow or no fixpoint: nothing is proved */
  const char *gave_up_why;
} checker;

/* ---- states ---- */

static void state_free(state *s) {
  free(s->f);
  free(s->a);
  free(s->r);
  memset(s, 0, sizeof *s);
}

static void state_copy(state *d, const state *s) {
  d->reached = s->reached;
  d->nf = s->nf;
  d->na = s->na;
  d->nr = s->nr;
  if (d->cr < s->nr)
    d->r = xrealloc(d->r, (d->cr = s->nr) * sizeof *d->r);
  if (s->nr)
    memcpy(d->r, s->r, s->nr * sizeof *d->r);
  if (d->cf < s->nf)
    d->f = xrealloc(d->f, (d->cf = s->nf) * sizeof *d->f);
  if (d->ca < s->na)
    d->a = xrealloc(d->a, (d->ca = s->na) * sizeof *d->a);
  if (s->nf)
    memcpy(d->f, s->f, s->nf * sizeof *d->f);
  if (s->na)
    memcpy(d->a, s->a, s->na * sizeof *d->a);
}

static bool same_version(gac_version a, gac_version b) {
  return a.known == b.known && (!a.known || (a.value.base == b.value.base && a.value.offset == b.value.offset));
}

/* Copies into one version on one queue are one fact whichever copy they
 * are: so "some copy into buf[(k-1) mod 2] is in flight" holds on every
 * path even where the copy was the prologue's on one and the body's on
 * another. Pending copies stay apart by group, which commits them. */
static bool same_key(const fact *a, const fact *b) {
  return a->buffer == b->buffer && same_version(a->version, b->version) && a->async_read == b->async_read &&
         a->queue == b->queue && (a->queue != PENDING || a->group == b->group) &&
         (a->buffer != UNKNOWN_BUFFER || a->copy == b->copy);
}

/* Offsets mod V, so that a version has one form and the facts of a loop stay finite. */
static void canonical_version(fact *f) {
  if (f->versions <= 1)
    f->version = (gac_version){true, {0, 0}};
  else if (f->version.known) {
    int64_t r = f->version.value.offset % (int64_t)f->versions;
    f->version.value.offset = r < 0 ? r + (int64_t)f->versions : r;
  }
}

/* Two facts become one: the witness copy (with its age) from a loop if either is. */
static void merge_witness(fact *into, const fact *from) {
  if (into->group != from->group)
    into->group = 0;
  if (into->old_group != from->old_group)
    into->old_group = 0;
  if (into->held_var != from->held_var || !same_version(into->held_at, from->held_at))
    into->held_var = 0;
  if (!into->copy_in_loop && from->copy_in_loop) {
    into->copy = from->copy;
    into->copy_in_loop = true;
    into->age = from->age;
  } else if (into->copy_in_loop == from->copy_in_loop && from->age < into->age) {
    into->age = from->age;
  }
}

static fact *find_fact(state *s, const fact *f) {
  for (unsigned i = 0; i < s->nf; i++)
    if (same_key(&s->f[i], f))
      return &s->f[i];
  return NULL;
}

/* Adds f to one path's state: two instances of one key are one fact that
 * is in flight if either is. */
static void state_add(state *s, fact f) {
  canonical_version(&f);
  fact *old = find_fact(s, &f);
  if (old) {
    merge_witness(old, &f);
    old->lo = f.lo < old->lo ? f.lo : old->lo;
    old->hi = f.hi > old->hi ? f.hi : old->hi;
    if (f.must && (!old->must || f.must_pos < old->must_pos))
      old->must_pos = f.must_pos; /* either instance will do */
    else if (!old->must && !old->must_if && f.must_if)
      old->must_if = f.must_if, old->must_lo = f.must_lo, old->must_hi = f.must_hi, old->must_pos = f.must_pos;
    old->must |= f.must;
    if (old->must)
      old->must_if = 0;
    if (old->only_if && old->only_if == f.only_if)
      old->only_lo = f.only_lo < old->only_lo ? f.only_lo : old->only_lo,
      old->only_hi = f.only_hi > old->only_hi ? f.only_hi : old->only_hi;
    else
      old->only_if = 0;
    if (!old->kept_by)
      old->kept_by = f.kept_by;
    if (!old->doubt)
      old->doubt = f.doubt;
    return;
  }
  if (s->nf == s->cf)
    s->f = xrealloc(s->f, (s->cf = s->cf ? 2 * s->cf : 8) * sizeof *s->f);
  s->f[s->nf++] = f;
}

/* Rebuilds s's facts through state_add, merging those whose keys became equal. */
static void state_normalize(state *s) {
  state t = {0};
  for (unsigned i = 0; i < s->nf; i++)
    state_add(&t, s->f[i]);
  free(s->f);
  s->f = t.f;
  s->nf = t.nf;
  s->cf = t.cf;
}

static const alias *find_alias(const state *s, uint32_t id) {
  for (unsigned i = 0; i < s->na; i++)
    if (s->a[i].id == id)
      return &s->a[i];
  return NULL;
}

static void add_alias(state *s, uint32_t id, gac_affine v) {
  if (find_alias(s, id) || id == 0)
    return;
  if (s->na == s->ca)
    s->a = xrealloc(s->a, (s->ca = s->ca ? 2 * s->ca : 4) * sizeof *s->a);
  s->a[s->na++] = (alias){id, v};
}

static void remove_alias(state *s, uint32_t id) {
  for (unsigned i = 0; i < s->na; i++)
    if (s->a[i].id == id) {
      s->a[i] = s->a[--s->na];
      return;
    }
}

static gac_version resolve(const state *s, gac_version v) {
  for (unsigned d = 0; v.known && v.value.base && d < ALIAS_DEPTH; d++) {
    const alias *a = find_alias(s, v.value.base);
    if (!a)
      break;
    v.value = (gac_affine){a->value.base, a->value.offset + v.value.offset};
  }
  return v;
}

static range *find_range(const state *s, uint32_t id) {
  for (unsigned i = 0; i < s->nr; i++)
    if (s->r[i].id == id)
      return &s->r[i];
  return NULL;
}

static void drop_must(fact *f) {
  f->must = false;
  f->must_if = 0;
}

/* Is f in flight on every path of s, as must says? */
static bool must_in(const state *s, const fact *f) {
  const range *r = f->must_if ? find_range(s, f->must_if) : NULL;
  return f->must || (r && r->lo >= f->must_lo && r->hi <= f->must_hi);
}

/* s learns lo <= id <= hi; false if no path is left. One value is an
 * equality, and facts in flight where the range holds are in flight. */
static bool restrict_range(state *s, uint32_t id, uint64_t lo, uint64_t hi) {
  range *r = find_range(s, id);
  if (!r) {
    if (s->nr == s->cr)
      s->r = xrealloc(s->r, (s->cr = s->cr ? 2 * s->cr : 4) * sizeof *s->r);
    r = &s->r[s->nr++];
    *r = (range){id, lo, hi};
  }
  r->lo = lo > r->lo ? lo : r->lo;
  r->hi = hi < r->hi ? hi : r->hi;
  if (r->lo > r->hi)
    return false;
  /* A counter said in id (k = n after a loop): constant versions of copies
   * in flight only where id has one value are said in id too, so they still
   * compare with k's where id is not known. Copies in flight only where id
   * is out of range are not in flight. */
  bool said_in = false;
  for (unsigned k = 0; k < s->na; k++)
    said_in |= s->a[k].value.base == id;
  unsigned out = 0;
  for (unsigned k = 0; k < s->nf; k++) {
    fact *f = &s->f[k];
    uint64_t flo = r->lo, fhi = r->hi;
    if (f->only_if == id)
      flo = f->only_lo > flo ? f->only_lo : flo, fhi = f->only_hi < fhi ? f->only_hi : fhi;
    if (flo > fhi)
      continue;
    if (said_in && flo == fhi && flo <= INT64_MAX && f->version.known && !f->version.value.base && f->versions > 1)
      f->version.value = (gac_affine){id, f->version.value.offset - (int64_t)flo};
    s->f[out++] = *f;
  }
  s->nf = out;
  if (r->lo == r->hi && r->lo <= INT64_MAX)
    add_alias(s, id, (gac_affine){0, (int64_t)r->lo});
  state_normalize(s);
  for (unsigned k = 0; k < s->nf; k++)
    if (!s->f[k].must && must_in(s, &s->f[k]))
      s->f[k].must = true, s->f[k].must_if = 0;
  return true;
}

/* Is a fact (f, or none) in flight on every path of st where x is in [lo, hi]? */
static bool covers(const state *st, const fact *f, uint32_t x, uint64_t lo, uint64_t hi) {
  if (f && must_in(st, f))
    return true;
  if (f && f->must_if == x && lo >= f->must_lo && hi <= f->must_hi)
    return true;
  const range *r = find_range(st, x);
  return r && (r->hi < lo || r->lo > hi); /* st has no such path */
}

/* must of fact d of state ds joined with s of ss (NULL where ss has no
 * such fact): must where both sides have it; else in flight where some
 * range holds, when each side either has it there or has no path there. */
static void join_must(fact *d, const state *ds, const fact *s, const state *ss) {
  uint8_t pos = s && s->must_pos > d->must_pos ? s->must_pos : d->must_pos;
  if (s && must_in(ds, d) && must_in(ss, s)) {
    d->must = true, d->must_if = 0, d->must_pos = pos;
    return;
  }
  range cand[2 + 16];
  unsigned n = 0;
  if (d->must_if)
    cand[n++] = (range){d->must_if, d->must_lo, d->must_hi};
  if (s && s->must_if)
    cand[n++] = (range){s->must_if, s->must_lo, s->must_hi};
  for (unsigned k = 0; k < ds->nr && n < 10; k++)
    cand[n++] = ds->r[k];
  for (unsigned k = 0; k < ss->nr && n < 18; k++)
    cand[n++] = ss->r[k];
  bool any = must_in(ds, d) || d->must_if || (s && (must_in(ss, s) || s->must_if));
  for (unsigned k = 0; any && k < n; k++)
    if (covers(ds, d, cand[k].id, cand[k].lo, cand[k].hi) && covers(ss, s, cand[k].id, cand[k].lo, cand[k].hi)) {
      d->must = false, d->must_if = cand[k].id, d->must_lo = cand[k].lo, d->must_hi = cand[k].hi;
      d->must_pos = pos;
      return;
    }
  drop_must(d);
}

/* Where the copies f stands for may be in flight, as x's range: f's own
 * condition narrowed by what st knows of x; false if neither says. */
static bool exists_where(const state *st, const fact *f, uint32_t x, range *out) {
  const range *r = find_range(st, x);
  *out = (range){x, 0, UINT64_MAX};
  if (f->only_if == x)
    out->lo = f->only_lo, out->hi = f->only_hi;
  if (r)
    out->lo = r->lo > out->lo ? r->lo : out->lo, out->hi = r->hi < out->hi ? r->hi : out->hi;
  return r || f->only_if == x;
}

/* only_if of fact d of state ds joined with s of ss (NULL where ss has no
 * such fact): a range of one id that holds wherever either side's copies
 * may be in flight. */
static void join_only(fact *d, const state *ds, const fact *s, const state *ss) {
  uint32_t cand[2 + 8];
  unsigned n = 0;
  if (d->only_if)
    cand[n++] = d->only_if;
  if (s && s->only_if)
    cand[n++] = s->only_if;
  for (unsigned k = 0; !s && k < ds->nr && n < 10; k++) {
    const range *o = find_range(ss, ds->r[k].id); /* one that tells the sides apart */
    if (o && (o->hi < ds->r[k].lo || o->lo > ds->r[k].hi))
      cand[n++] = ds->r[k].id;
  }
  for (unsigned k = 0; k < n; k++) {
    range a, b;
    if (!exists_where(ds, d, cand[k], &a) || (s && !exists_where(ss, s, cand[k], &b)))
      continue;
    if (s && a.lo > a.hi)
      a = b;
    else if (s && b.lo <= b.hi)
      a.lo = b.lo < a.lo ? b.lo : a.lo, a.hi = b.hi > a.hi ? b.hi : a.hi;
    if (a.lo == 0 && a.hi == UINT64_MAX)
      continue;
    d->only_if = cand[k], d->only_lo = a.lo, d->only_hi = a.hi;
    return;
  }
  d->only_if = 0;
}

/* dst = dst ⊔ src; true if dst changed. */
static bool state_join(state *dst, const state *src) {
  if (!src->reached)
    return false;
  if (!dst->reached) {
    state_copy(dst, src);
    return true;
  }
  bool changed = false;
  for (unsigned i = 0; i < dst->nf; i++) {
    fact *d = &dst->f[i];
    fact *s = find_fact((state *)src, d);
    fact before = *d;
    join_must(d, dst, s, src);
    join_only(d, dst, s, src);
    bool conds = before.must != d->must || before.must_if != d->must_if || before.must_lo != d->must_lo ||
                 before.must_hi != d->must_hi || before.must_pos != d->must_pos || before.only_if != d->only_if ||
                 before.only_lo != d->only_lo || before.only_hi != d->only_hi;
    if (!s) {
      changed |= conds;
      continue;
    }
    merge_witness(d, s);
    d->lo = s->lo < d->lo ? s->lo : d->lo;
    d->hi = s->hi > d->hi ? s->hi : d->hi;
    if (!d->kept_by)
      d->kept_by = s->kept_by;
    if (!d->doubt)
      d->doubt = s->doubt;
    changed |= conds || before.lo != d->lo || before.hi != d->hi || before.age != d->age || before.kept_by != d->kept_by ||
               before.doubt != d->doubt || before.group != d->group || before.old_group != d->old_group ||
               before.held_var != d->held_var || !same_version(before.held_at, d->held_at) ||
               before.copy != d->copy;
  }
  for (unsigned i = 0; i < src->nf; i++) {
    if (find_fact(dst, &src->f[i]))
      continue;
    fact f = src->f[i];
    join_must(&f, src, NULL, dst);
    join_only(&f, src, NULL, dst);
    state_add(dst, f);
    changed = true;
  }
  /* Ranges known on both sides, widened to both. */
  for (unsigned i = 0; i < dst->nr;) {
    const range *o = find_range(src, dst->r[i].id);
    if (!o) {
      dst->r[i] = dst->r[--dst->nr];
      changed = true;
      continue;
    }
    range *r = &dst->r[i++];
    if (o->lo < r->lo || o->hi > r->hi) {
      r->lo = o->lo < r->lo ? o->lo : r->lo;
      r->hi = o->hi > r->hi ? o->hi : r->hi;
      changed = true;
    }
  }
  for (unsigned i = 0; i < dst->na;) {
    const alias *o = find_alias(src, dst->a[i].id);
    if (o && o->value.base == dst->a[i].value.base && o->value.offset == dst->a[i].value.offset) {
      i++;
      continue;
    }
    dst->a[i] = dst->a[--dst->na];
    changed = true;
  }
  return changed;
}

static bool names(const fact *f, uint32_t event) {
  return event && (f->group == event || f->old_group == event);
}

static void rename_group(fact *f, uint32_t to) {
  f->old_group = f->group;
  f->group = to;
}

/* ---- what the instructions touch ---- */

static uint32_t in_operand(const gac_inst *i, unsigned k) {
  unsigned first = gac_inst_first_in_operand(i);
  return first + k < i->num_operands ? gac_operand_word(i, first + k) : 0;
}

static unsigned num_in_operands(const gac_inst *i) { return i->num_operands - gac_inst_first_in_operand(i); }

static uint32_t storage_class_of(const gac_module *m, uint32_t pointer) {
  const gac_inst *t = gac_value_type(m, pointer);
  return t && t->opcode == SpvOpTypePointer ? t->words[2] : ~0u;
}

static bool is_function_variable(const gac_module *m, uint32_t id) {
  const gac_inst *d = gac_def(m, id);
  return d && d->opcode == SpvOpVariable && d->words[3] == SpvStorageClassFunction;
}

static bool is_array_variable(const gac_module *m, uint32_t var) {
  const gac_inst *t = gac_value_type(m, var);
  const gac_inst *pointee = t && t->opcode == SpvOpTypePointer ? gac_def(m, t->words[3]) : NULL;
  return pointee && pointee->opcode == SpvOpTypeArray;
}

enum { ELEMENT_DYNAMIC = 1, ELEMENT_UNTRACKED = 2 };

/* ptr as an element of a Function variable: the variable itself (not an
 * array; *index 0), or an access chain into an array variable with one
 * index, (var, index) or, as clang writes &ev[i], (var, 0, index): *index
 * is the index's id. */
static bool element_of(const checker *c, uint32_t ptr, uint32_t *var, uint32_t *index) {
  const gac_inst *d = gac_def(c->m, ptr);
  if (!d)
    return false;
  if (is_function_variable(c->m, ptr) && !is_array_variable(c->m, ptr)) {
    *var = ptr;
    *index = 0;
    return true;
  }
  bool chain = d->opcode == SpvOpAccessChain || d->opcode == SpvOpInBoundsAccessChain;
  bool ptr_chain = d->opcode == SpvOpPtrAccessChain || d->opcode == SpvOpInBoundsPtrAccessChain;
  uint64_t zero;
  if (!(chain && num_in_operands(d) == 2) &&
      !(ptr_chain && num_in_operands(d) == 3 && gac_constant_value(c->m, in_operand(d, 1), &zero) && zero == 0))
    return false;
  if (!is_function_variable(c->m, in_operand(d, 0)))
    return false;
  *var = in_operand(d, 0);
  *index = in_operand(d, num_in_operands(d) - 1);
  return true;
}

/* The same with a constant index: one slot. */
static bool slot_of(const checker *c, uint32_t ptr, uint32_t *var, uint64_t *index) {
  uint32_t index_id;
  if (!element_of(c, ptr, var, &index_id))
    return false;
  if (!index_id) {
    *index = 0;
    return true;
  }
  return gac_constant_value(c->m, index_id, index);
}

static slot *find_slot(checker *c, uint32_t var, uint64_t index, bool add) {
  for (unsigned k = 0; k < c->nslots; k++)
    if (c->slots[k].var == var && c->slots[k].index == index)
      return &c->slots[k];
  if (!add)
    return NULL;
  c->slots = xrealloc(c->slots, (c->nslots + 1) * sizeof *c->slots);
  c->slots[c->nslots] = (slot){var, index, 0, NULL};
  return &c->slots[c->nslots++];
}

/* The value element `index` of Function variable var holds at `at`: the
 * last store to it before `at` in at's block, or else its single store,
 * when that comes first on every path within the iteration. */
static uint32_t slot_value(const checker *c, uint32_t var, uint64_t index, const gac_inst *at) {
  if (var >= c->m->bound || c->escaped[var])
    return 0;
  uint32_t v, index_id;
  uint64_t k;
  for (const gac_inst *i = at->prev; i; i = i->prev)
    if (i->opcode == SpvOpStore && element_of(c, i->words[1], &v, &index_id) && v == var) {
      if (slot_of(c, i->words[1], &v, &k) && k == index)
        return i->words[2];
      if (!slot_of(c, i->words[1], &v, &k))
        return 0; /* an element at a runtime index: maybe this one */
    }
  const slot *s = find_slot((checker *)c, var, index, false);
  if (!s || s->stores != 1 || (c->element_stores[var] & ELEMENT_DYNAMIC))
    return 0;
  int sb = ca_block_of(&c->cfg, s->store), ab = ca_block_of(&c->cfg, at);
  if (sb < 0 || ab < 0 || sb == ab || !ca_dominates(&c->cfg, (unsigned)sb, (unsigned)ab))
    return 0; /* in at's block it would have been found above, so it comes after */
  if (c->cfg.loop_of[sb] >= 0 && c->cfg.loop_of[sb] != c->cfg.loop_of[ab])
    return 0;
  return s->store->words[2];
}

static uint32_t stored_value(const checker *c, uint32_t ptr, const gac_inst *at) {
  uint32_t var;
  uint64_t index;
  return slot_of(c, ptr, &var, &index) ? slot_value(c, var, index, at) : 0;
}

static bool is_null_event(const gac_module *m, uint32_t id) {
  const gac_inst *d = gac_def(m, id);
  return !d || d->opcode == SpvOpConstantNull || d->opcode == SpvOpUndef;
}

typedef struct copy_view {
  uint32_t destination, source, event;
} copy_view;

static bool copy_of(const gac_module *m, const gac_inst *i, copy_view *v) {
  gac_async_copy copy;
  if (gac_async_copy_decode(m, i, &copy)) {
    *v = (copy_view){copy.destination, copy.source, copy.event};
    return true;
  }
  if (i->opcode == SpvOpGroupAsyncCopy && num_in_operands(i) == 6) {
    *v = (copy_view){in_operand(i, 1), in_operand(i, 2), in_operand(i, 5)};
    return true;
  }
  return false;
}

/* id through OpCopyObject, single-store Function variables and chained
 * copies: a copy given a non-null event returns that event (OpenCL), so
 * the copies of a chain are one group, named by the chain's first event
 * (its Event operand resolved where the copy is). */
static uint32_t resolve_value(const checker *c, uint32_t id, const gac_inst *at) {
  for (unsigned d = 0; d < 16; d++) {
    const gac_inst *def = gac_def(c->m, id);
    copy_view cv;
    if (def && def->opcode == SpvOpCopyObject) {
      id = in_operand(def, 0);
    } else if (def && def->opcode == SpvOpLoad) {
      uint32_t v = stored_value(c, in_operand(def, 0), at);
      if (!v)
        return id;
      id = v;
    } else if (def && copy_of(c->m, def, &cv) && !is_null_event(c->m, cv.event) && gac_inst_block(def)) {
      id = cv.event;
      at = def;
    } else {
      return id;
    }
  }
  return id;
}

/* A lower bound of id where c->at is: id said in what the state knows it
 * equals (k = n after a loop), then a counter's start or a guard's bound. */
static bool base_at_least(const checker *c, gac_affine v, uint64_t *min) {
  int b = c->at ? ca_block_of(&c->cfg, c->at) : -1;
  uint64_t base_min = 0;
  if (v.base && !(b >= 0 && (ca_counter_at_least(&c->cfg, (unsigned)b, v.base, &base_min) ||
                             ca_guard_at_least(&c->cfg, (unsigned)b, v.base, false, &base_min))))
    return false;
  if (v.offset < 0 && base_min < (uint64_t)-v.offset)
    return false;
  *min = base_min + (uint64_t)v.offset;
  return true;
}

static bool state_range(void *user, uint32_t id, ca_interval *out) {
  const checker *c = user;
  const range *r = c->cur ? find_range(c->cur, id) : NULL;
  if (r)
    *out = (ca_interval){r->lo, r->hi};
  return r != NULL;
}

/* Value ranges where c->at is, knowing what c->cur's paths know. */
static ca_ranges ranges_at(const checker *c) {
  int b = c->at ? ca_block_of(&c->cfg, c->at) : -1;
  ca_ranges r = {.c = &c->cfg, .block = b >= 0 ? (unsigned)b : 0, .known = state_range, .user = (void *)c};
  memcpy(r.local_size, c->local_size, sizeof r.local_size);
  return r;
}

static bool lower_bound(void *user, uint32_t id, uint64_t *min) {
  const checker *c = user;
  uint64_t best = 0, m;
  bool found = false;
  gac_affine v = c->cur ? resolve(c->cur, (gac_version){true, {id, 0}}).value : (gac_affine){id, 0};
  if (base_at_least(c, (gac_affine){id, 0}, &m))
    best = m, found = true;
  if (c->cur && base_at_least(c, v, &m) && (!found || m > best))
    best = m, found = true;
  /* What the values' definitions and the paths' branches bound */
  ca_ranges r = ranges_at(c);
  ca_interval i = ca_value_range(&r, id);
  if (i.lo > best || !found)
    best = i.lo > best ? i.lo : best, found = true;
  if (v.base && v.base != id) {
    ca_interval j = ca_value_range(&r, v.base);
    if (v.offset >= 0 || j.lo >= (uint64_t)-v.offset) {
      uint64_t lo = j.lo + (uint64_t)v.offset;
      best = lo > best ? lo : best;
    }
  }
  *min = best;
  return found;
}

static int buffer_index(checker *c, uint32_t root) {
  for (unsigned i = 0; i < c->nb; i++)
    if (c->buffers[i].root == root)
      return (int)i;
  c->buffers = xrealloc(c->buffers, (c->nb + 1) * sizeof *c->buffers);
  buffer *b = &c->buffers[c->nb];
  *b = (buffer){.root = root, .versions = 1, .param = gac_def(c->m, root)->opcode == SpvOpFunctionParameter};
  const gac_inst *t = gac_value_type(c->m, root);
  const gac_inst *pointee = t && t->opcode == SpvOpTypePointer ? gac_def(c->m, t->words[3]) : NULL;
  const gac_inst *element = pointee && pointee->opcode == SpvOpTypeArray ? gac_def(c->m, pointee->words[2]) : NULL;
  uint64_t length;
  if (element && (element->opcode == SpvOpTypeArray || element->opcode == SpvOpTypeStruct) &&
      gac_constant_value(c->m, pointee->words[3], &length) && length >= 1 && length <= UINT32_MAX)
    b->versions = (uint32_t)length;
  return (int)c->nb++;
}


/* An access of the whole pointee: its bytes, when the instruction says. */
static bool access_size(const checker *c, const gac_inst *at, uint32_t ptr, uint64_t *size) {
  bool whole = at->opcode == SpvOpLoad || at->opcode == SpvOpStore || at->opcode == SpvOpCopyMemory ||
               (at->opcode >= SpvOpAtomicLoad && at->opcode <= SpvOpAtomicXor);
  const gac_inst *t = gac_value_type(c->m, ptr);
  return whole && t && t->opcode == SpvOpTypePointer && gac_type_size(c->m, t->words[3], GAC_SIZE_OBJECT, size);
}

static bool is_zero(const gac_module *m, uint32_t id) {
  uint64_t v;
  return gac_constant_value(m, id, &v) && v == 0;
}

/* The buffer and version a pointer points into. */
static place place_of(checker *c, uint32_t ptr, const gac_inst *at) {
  const gac_inst *steps[32];
  unsigned n = 0;
  uint32_t sc = storage_class_of(c->m, ptr);
  place unknown = {.buffer = sc == SpvStorageClassWorkgroup || sc == SpvStorageClassGeneric ? UNKNOWN_BUFFER
                                                                                          : NOT_WORKGROUP};
  uint32_t id = ptr;
  for (;;) {
    const gac_inst *d = gac_def(c->m, id);
    if (!d || n == 32)
      return unknown;
    if (d->opcode == SpvOpVariable || d->opcode == SpvOpFunctionParameter) {
      if (storage_class_of(c->m, id) != SpvStorageClassWorkgroup)
        return (place){.buffer = NOT_WORKGROUP};
      break;
    }
    switch (d->opcode) {
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast: case SpvOpCopyObject:
    case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
      steps[n++] = d;
      id = in_operand(d, 0);
      continue;
    case SpvOpLoad: {
      uint32_t v = stored_value(c, in_operand(d, 0), at);
      if (!v)
        return unknown;
      id = v;
      continue;
    }
    default:
      return unknown;
    }
  }
  place p = {.buffer = buffer_index(c, id)};
  uint32_t versions = c->buffers[p.buffer].versions;
  bool at_root = true, moved = false;
  /* Inside a version: the pointee type and the bytes from the version's start. */
  uint32_t type = 0;
  ca_interval off = {0, 0};
  c->at = at;
  ca_ranges r = ranges_at(c);
  while (n--) {
    const gac_inst *s = steps[n];
    bool ptr_chain = s->opcode == SpvOpPtrAccessChain || s->opcode == SpvOpInBoundsPtrAccessChain;
    bool chain = ptr_chain || s->opcode == SpvOpAccessChain || s->opcode == SpvOpInBoundsAccessChain;
    unsigned first_index = ptr_chain ? 2 : 1;
    if (ptr_chain && !is_zero(c->m, in_operand(s, 1))) {
      /* Pointer arithmetic may leave the version, unless its range stays inside. */
      bool inside = !at_root && versions > 1;
      p.followed = inside && p.followed && ca_element_offset(&r, in_operand(s, 1), type, &off) &&
                   ca_chain_offset(&r, s, first_index, &type, &off);
      moved = true;
      if (inside)
        continue;
      p.version.known = false;
      at_root = false;
      if (versions > 1)
        return p;
      continue;
    }
    if (at_root && chain && num_in_operands(s) > first_index) {
      p.version = gac_version_of_index(c->m, in_operand(s, first_index), versions, lower_bound, c);
      at_root = false;
      const gac_inst *rt = gac_value_type(c->m, c->buffers[p.buffer].root);
      const gac_inst *array = rt && rt->opcode == SpvOpTypePointer ? gac_def(c->m, rt->words[3]) : NULL;
      type = array && array->opcode == SpvOpTypeArray ? array->words[2] : 0;
      p.followed = type && gac_type_size(c->m, type, GAC_SIZE_OBJECT, &p.room) &&
                   ca_chain_offset(&r, s, first_index + 1, &type, &off);
    } else if (!at_root && p.followed && chain) {
      p.followed = ca_chain_offset(&r, s, first_index, &type, &off);
    } else if (!at_root && p.followed) { /* casts: the same address as another type */
      const gac_inst *t = gac_def(c->m, s->type_id);
      p.followed = t && t->opcode == SpvOpTypePointer;
      type = p.followed ? t->words[3] : 0;
    }
  }
  uint64_t size;
  if (moved && versions > 1 && !at_root) {
    p.lo = off.lo;
    p.hi = off.hi;
    p.local_id = r.unbounded_local_id;
    if (!p.followed || !access_size(c, at, ptr, &size) || off.hi > p.room || size > p.room - off.hi) {
      p.version.known = false;
      p.left = true;
    }
  }
  /* The buffer's first address cast to an element's type (clang's tiles[0]) is in version 0;
   * the whole buffer is in all of them. */
  const gac_inst *pt = gac_value_type(c->m, ptr), *rt = gac_value_type(c->m, c->buffers[p.buffer].root);
  if (at_root && pt && rt && pt->opcode == SpvOpTypePointer && rt->opcode == SpvOpTypePointer &&
      pt->words[3] != rt->words[3])
    p.version = (gac_version){true, {0, 0}};
  return p;
}

/* ---- transfer ---- */

/* An instruction a call's callee may hold that matters to the checker. */
typedef bool (*inst_test)(const gac_module *m, const gac_inst *i);

static bool is_copy(const gac_module *m, const gac_inst *i) {
  copy_view v;
  return copy_of(m, i, &v);
}

static bool uses_workgroup_variable(const gac_module *m, const gac_inst *i) {
  for (unsigned k = gac_inst_first_in_operand(i); k < i->num_operands; k++) {
    const gac_inst *d = i->operands[k].kind == GAC_OPERAND_ID ? gac_def(m, gac_operand_word(i, k)) : NULL;
    if (d && d->opcode == SpvOpVariable && d->words[3] == SpvStorageClassWorkgroup && !gac_inst_function(d))
      return true;
  }
  return false;
}

/* Does function fn_def, or what it calls, hold an instruction that passes
 * `test`? A declaration, or calls nested too deep, may hold anything. */
static bool function_holds(const gac_module *m, const gac_inst *fn_def, inst_test test, unsigned depth) {
  if (!fn_def || depth > 8)
    return true;
  gac_foreach_function(f, (gac_module *)m) {
    if (f->def != fn_def)
      continue;
    if (!f->first_block)
      return true;
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (test(m, i) ||
            (i->opcode == SpvOpFunctionCall && function_holds(m, gac_def(m, in_operand(i, 0)), test, depth + 1)))
          return true;
      }
    }
    return false;
  }
  return true;
}

/* The element offset operand of a copy's side of the buffer (the
 * DestinationOffset or SourceOffset of GroupAsyncCopy2D2D/3D3D), or 0. */
static uint32_t copy_offset(const gac_module *m, const gac_inst *copy, bool source) {
  if (!copy || copy->opcode != SpvOpExtInst || !gac_is_async_copy_inst(m, copy))
    return 0;
  return gac_operand_word(copy, source ? 7 : 5);
}

/* Do two accesses of one buffer version surely meet, as far as the copies'
 * offsets tell? A copy at a runtime offset (a ring of slots by offset) may
 * miss the part the other touches: then only "cannot decide". */
static bool offsets_meet(const checker *c, const fact *f, const gac_inst *i, unsigned role) {
  uint32_t theirs = copy_offset(c->m, f->copy, f->async_read);
  uint32_t mine = copy_offset(c->m, i, role == 1); /* a copy's accesses: 0 its Destination, 1 its Source */
  uint64_t a, b;
  bool theirs_known = !theirs || gac_constant_value(c->m, theirs, &a);
  if (!mine)
    return theirs_known;
  return theirs == mine || (theirs && theirs_known && gac_constant_value(c->m, mine, &b) && a == b);
}

static void evaluate(checker *c, const state *s, const gac_inst *i, unsigned role, enum access_kind kind,
                     uint32_t ptr, unsigned ctx, unsigned block);
static void evaluate_place(checker *c, const state *s, const gac_inst *i, unsigned role, enum access_kind kind,
                           place p, unsigned ctx, unsigned block);

/* function_holds for a call's callee, asked once per function: cache[id]
 * is 0 (not asked yet), 1 (no) or 2 (maybe). */
static bool callee_holds(const checker *c, const gac_inst *call, uint8_t *cache, inst_test test) {
  uint32_t fn = in_operand(call, 0);
  if (fn >= c->m->bound)
    return true;
  if (!cache[fn])
    cache[fn] = function_holds(c->m, gac_def(c->m, fn), test, 0) ? 2 : 1;
  return cache[fn] == 2;
}

static bool call_touches_variables(checker *c, const gac_inst *call) {
  return callee_holds(c, call, c->touches, uses_workgroup_variable);
}

static bool call_starts_copies(checker *c, const gac_inst *call) {
  return callee_holds(c, call, c->starts, is_copy);
}

static uint8_t bump(uint8_t x) { return x < POS_CAP ? (uint8_t)(x + 1) : x; }

static void commit(checker *c, state *s, const gac_inst *i) {
  uint64_t q;
  bool known_queue = gac_constant_value(c->m, i->words[GAC_PIPELINE_QUEUE_WORD], &q);
  uint32_t e = resolve_value(c, i->words[GAC_PIPELINE_VALUE_WORD], i);
  bool matched = false;
  for (unsigned k = 0; k < s->nf; k++) {
    fact *f = &s->f[k];
    if (f->queue == PENDING && names(f, e) && known_queue) {
      f->queue = (uint32_t)q;
      f->lo = f->hi = f->must_pos = 0;
      f->kept_by = NULL;
      matched = true;
    } else if (f->queue != PENDING && (!known_queue || f->queue == q)) {
      f->hi = bump(f->hi);
      f->must_pos = bump(f->must_pos);
      if (known_queue)
        f->lo = bump(f->lo);
      else
        drop_must(f), f->doubt = i;
    }
  }
  /* A group the checker cannot name may be any pending one: they may have been committed. */
  if (!matched && !is_null_event(c->m, e)) {
    const gac_inst *d = gac_def(c->m, e);
    copy_view v;
    if (!d || !(copy_of(c->m, d, &v) || d->opcode == SpvOpPhi))
      for (unsigned k = 0; k < s->nf; k++)
        if (s->f[k].queue == PENDING)
          drop_must(&s->f[k]), s->f[k].doubt = i;
  }
  state_normalize(s);
}

static void async_wait(checker *c, state *s, const gac_inst *i) {
  uint64_t q;
  bool known_queue = gac_constant_value(c->m, i->words[GAC_PIPELINE_QUEUE_WORD], &q);
  /* A count that is not a constant by its range (clang merges wait(0, 1)
   * and wait(0, 0) of two branches into one wait of a select): complete
   * what every count completes, in flight what every count leaves. */
  c->at = i;
  c->cur = s;
  ca_ranges r = ranges_at(c);
  ca_interval n = ca_value_range(&r, i->words[GAC_PIPELINE_VALUE_WORD]);
  c->cur = NULL;
  bool known_count = n.hi <= POS_CAP;
  unsigned out = 0;
  for (unsigned k = 0; k < s->nf; k++) {
    fact f = s->f[k];
    if (f.queue != PENDING && (!known_queue || f.queue == q)) {
      if (known_queue && known_count && f.lo >= n.hi)
        continue; /* at least n groups were committed after it: complete */
      if (!known_queue || !known_count)
        drop_must(&f), f.doubt = i;
      else if (f.must_pos >= n.lo || f.must_pos == POS_CAP)
        drop_must(&f);
      if (known_queue && known_count && f.hi >= n.hi)
        f.hi = (uint8_t)(n.hi - 1); /* the older ones it stood for are complete */
      f.kept_by = i;
    }
    s->f[out++] = f;
  }
  s->nf = out;
}

/* The length of array variable var, 0 if it is none or not known. */
static uint32_t array_length(const checker *c, uint32_t var) {
  const gac_inst *t = gac_value_type(c->m, var);
  const gac_inst *a = t && t->opcode == SpvOpTypePointer ? gac_def(c->m, t->words[3]) : NULL;
  uint64_t n;
  bool fits = a && a->opcode == SpvOpTypeArray && gac_constant_value(c->m, a->words[3], &n) && n <= UINT32_MAX;
  return fits ? (uint32_t)n : 0;
}

/* The element a store or a wait's list names, when the checker sees every
 * store to its variable: the variable, its index as a version mod the
 * array's length (a runtime index such as t & 1 too), and that length. */
static bool holder_of(checker *c, state *s, uint32_t ptr, uint32_t *var, gac_version *at, uint32_t *len) {
  uint32_t index;
  uint64_t k;
  if (!element_of(c, ptr, var, &index) || *var >= c->m->bound || c->escaped[*var])
    return false;
  *len = array_length(c, *var);
  if (!index || gac_constant_value(c->m, index, &k)) {
    *at = (gac_version){true, {0, index ? (int64_t)k : 0}};
    *len = *len ? *len : UINT32_MAX; /* a constant index: compared as it is */
    return true;
  }
  if (!*len)
    return false;
  c->cur = s;
  *at = gac_version_of_index(c->m, index, *len, lower_bound, c);
  c->cur = NULL;
  return at->known;
}

/* An element's index with its offset mod the array's length, so that the facts of a loop stay finite. */
static gac_version canonical_index(gac_version v, uint32_t len) {
  if (len && len != UINT32_MAX) {
    int64_t r = v.value.offset % (int64_t)len;
    v.value.offset = r < 0 ? r + (int64_t)len : r;
  }
  return v;
}

static gac_version_relation held_relation(const state *s, const fact *f, uint32_t var, gac_version at) {
  if (f->held_var != var)
    return GAC_VERSION_MAYBE;
  return gac_version_compare(resolve(s, f->held_at), resolve(s, at), f->held_len);
}

/* A store to an event element: what it held there is no longer there (nor
 * where it may be the same element), and the groups the stored event names
 * are held there now (a group stored in two elements: in neither, as far
 * as the checker knows). */
static void store_event(checker *c, state *s, const gac_inst *i) {
  uint32_t var, len;
  gac_version at;
  if (!holder_of(c, s, in_operand(i, 0), &var, &at, &len))
    return;
  uint32_t e = resolve_value(c, in_operand(i, 1), i);
  for (unsigned k = 0; k < s->nf; k++) {
    fact *f = &s->f[k];
    if (f->held_var == var && held_relation(s, f, var, at) != GAC_VERSION_OTHER)
      f->held_var = 0;
    if (!names(f, e))
      continue;
    if (f->held_var) {
      f->held_var = 0;
    } else {
      f->held_var = var;
      f->held_at = canonical_index(at, len);
      f->held_len = len;
    }
  }
}

/* OpGroupWaitEvents on events in Function variables: one, or consecutive
 * elements of an array, at a constant or runtime index. */
static void wait_events(checker *c, state *s, const gac_inst *i) {
  enum { MAX_EVENTS = 16 };
  uint64_t count, first;
  uint32_t var, events[MAX_EVENTS];
  if (gac_constant_value(c->m, in_operand(i, 1), &count) && count == 0)
    return; /* waits for no event */
  bool known_count = gac_constant_value(c->m, in_operand(i, 1), &count) && count >= 1 && count <= MAX_EVENTS;
  bool traced = known_count && slot_of(c, in_operand(i, 2), &var, &first);
  for (unsigned k = 0; traced && k < count; k++) {
    events[k] = slot_value(c, var, first + k, i);
    traced = events[k] != 0;
    if (traced)
      events[k] = resolve_value(c, events[k], i);
  }
  uint32_t hvar = 0, hlen = 0;
  gac_version hat = {0};
  bool held = known_count && holder_of(c, s, in_operand(i, 2), &hvar, &hat, &hlen);
  unsigned out = 0;
  for (unsigned k = 0; k < s->nf; k++) {
    fact f = s->f[k];
    bool waited = false, elsewhere = held && f.held_var == hvar;
    for (unsigned e = 0; traced && e < count; e++)
      waited |= names(&f, events[e]);
    /* The element holds the group's event on every path where it is in
     * flight; one known to be another element holds another event. */
    for (uint64_t e = 0; held && e < count; e++) {
      gac_version at = hat;
      at.value.offset += (int64_t)e;
      gac_version_relation r = held_relation(s, &f, hvar, at);
      waited |= r == GAC_VERSION_SAME;
      elsewhere &= r == GAC_VERSION_OTHER;
    }
    if (waited)
      continue;
    elsewhere &= !(c->element_stores[hvar] & ELEMENT_UNTRACKED);
    /* The events waited for are unknown, or the fact lost its group's name
     * (a merge, a back edge): the wait may be for it. */
    if ((!traced && !elsewhere) || !f.group)
      drop_must(&f), f.doubt = i;
    s->f[out++] = f;
  }
  s->nf = out;
}

static void call(checker *c, state *s, const gac_inst *i, bool eval, unsigned ctx, unsigned block) {
  /* The callee may use the module's Workgroup variables without being passed them. */
  if (eval && call_touches_variables(c, i))
    evaluate_place(c, s, i, 0, ACCESS_CALL, (place){.buffer = UNKNOWN_BUFFER}, ctx, block);
  for (unsigned a = 1; a < num_in_operands(i); a++) {
    uint32_t arg = in_operand(i, a);
    const gac_inst *t = gac_value_type(c->m, arg);
    if (!t)
      continue;
    if (t->opcode == SpvOpTypePointer) {
      if (eval)
        evaluate(c, s, i, a, ACCESS_CALL, arg, ctx, block);
      if (t->words[2] == SpvStorageClassFunction) /* the callee may wait on events stored there */
        for (unsigned k = 0; k < s->nf; k++)
          drop_must(&s->f[k]), s->f[k].doubt = i;
    } else if (t->opcode == SpvOpTypeEvent) {
      uint32_t e = resolve_value(c, arg, i);
      for (unsigned k = 0; k < s->nf; k++)
        if (names(&s->f[k], e))
          drop_must(&s->f[k]), s->f[k].doubt = i;
    }
  }
  if (call_starts_copies(c, i)) {
    const gac_inst *rt = gac_def(c->m, i->type_id);
    state_add(s, (fact){.copy = i, .copy_in_loop = c->cfg.loop_of[block] >= 0, .buffer = UNKNOWN_BUFFER,
                        .versions = 1, .queue = PENDING,
                        .group = rt && rt->opcode == SpvOpTypeEvent ? i->result_id : 0});
  }
}

static void transfer_inst(checker *c, state *s, const gac_inst *i, bool eval, unsigned ctx, unsigned block) {
  copy_view v;
  switch (i->opcode) {
  case SpvOpLoad:
    if (eval)
      evaluate(c, s, i, 0, ACCESS_READ, in_operand(i, 0), ctx, block);
    return;
  case SpvOpStore:
    if (eval)
      evaluate(c, s, i, 0, ACCESS_WRITE, in_operand(i, 0), ctx, block);
    store_event(c, s, i);
    return;
  case SpvOpCopyMemory: case SpvOpCopyMemorySized:
    if (eval) {
      evaluate(c, s, i, 1, ACCESS_READ, in_operand(i, 1), ctx, block);
      evaluate(c, s, i, 0, ACCESS_WRITE, in_operand(i, 0), ctx, block);
    }
    return;
  case SpvOpGroupWaitEvents:
    wait_events(c, s, i);
    return;
  case SpvOpFunctionCall:
    call(c, s, i, eval, ctx, block);
    return;
  default:
    break;
  }
  if ((i->opcode >= SpvOpAtomicLoad && i->opcode <= SpvOpAtomicXor) || i->opcode == SpvOpAtomicFlagTestAndSet ||
      i->opcode == SpvOpAtomicFlagClear) {
    if (eval)
      evaluate(c, s, i, 0, ACCESS_WRITE, in_operand(i, 0), ctx, block);
    return;
  }
  uint32_t op = gac_async_pipeline_op_of(c->m, i);
  if (op && i->num_words == GAC_PIPELINE_NUM_WORDS) {
    if (op == GAC_ASYNC_COMMIT)
      commit(c, s, i);
    else if (op == GAC_ASYNC_WAIT)
      async_wait(c, s, i);
    return;
  }
  if (!copy_of(c->m, i, &v))
    return;
  if (eval) {
    evaluate(c, s, i, 1, ACCESS_READ, v.source, ctx, block);
    evaluate(c, s, i, 0, ACCESS_COPY_WRITE, v.destination, ctx, block);
  }
  /* Chained through its Event operand, the copy joins that group: its
   * result resolves to the event the group is named by. */
  uint32_t group = resolve_value(c, i->result_id, i);
  c->cur = s;
  place dst = place_of(c, v.destination, i), src = place_of(c, v.source, i);
  c->cur = NULL;
  fact f = {.copy = i, .copy_in_loop = c->cfg.loop_of[block] >= 0, .queue = PENDING, .group = group,
            .must = true};
  if (dst.buffer != NOT_WORKGROUP) {
    f.buffer = dst.buffer;
    f.versions = dst.buffer >= 0 ? c->buffers[dst.buffer].versions : 1;
    f.version = dst.version;
    state_add(s, f);
  }
  if (src.buffer != NOT_WORKGROUP) {
    f.buffer = src.buffer;
    f.versions = src.buffer >= 0 ? c->buffers[src.buffer].versions : 1;
    f.version = src.version;
    f.async_read = true;
    state_add(s, f);
  }
  state_normalize(s);
}

/* ---- edges ---- */

/* The event phis of `to` rename the groups `from` named by their incoming values. */
static uint32_t phi_rename(const checker *c, unsigned from, unsigned to, uint32_t group) {
  uint32_t label = gac_block_label(c->cfg.blocks[from]);
  for (gac_inst *phi = c->cfg.blocks[to]->insts.first->next; phi && phi->opcode == SpvOpPhi; phi = phi->next)
    for (unsigned w = 3; w + 1 < phi->num_words; w += 2)
      if (phi->words[w + 1] == label && group &&
          resolve_value(c, phi->words[w], gac_block_terminator(c->cfg.blocks[from])) == group)
        return phi->result_id;
  return 0;
}

/* Ids defined in loop l take new values when the loop is entered or goes round. */
static void forget_loop_values(checker *c, state *s, int l, unsigned from, unsigned to, bool back_edge) {
  const ca_loop *L = &c->cfg.loops[l];
  for (unsigned k = 0; k < s->nf; k++) {
    fact *f = &s->f[k];
    if (f->version.known && f->version.value.base && ca_defined_in_loop(&c->cfg, l, f->version.value.base)) {
      if (back_edge && f->version.value.base == L->k)
        f->version = gac_version_next_iteration(f->version, L->k);
      else
        f->version.known = false;
    }
    uint32_t renamed = phi_rename(c, from, to, f->group);
    if (renamed)
      rename_group(f, renamed);
    else if (f->group && ca_defined_in_loop(&c->cfg, l, f->group))
      f->group = 0;
    if (f->old_group && ca_defined_in_loop(&c->cfg, l, f->old_group))
      f->old_group = 0;
    if (f->held_var && f->held_at.value.base && ca_defined_in_loop(&c->cfg, l, f->held_at.value.base)) {
      if (back_edge && f->held_at.value.base == L->k)
        f->held_at = canonical_index(gac_version_next_iteration(f->held_at, L->k), f->held_len);
      else
        f->held_var = 0;
    }
    if (f->must_if && ca_defined_in_loop(&c->cfg, l, f->must_if))
      f->must_if = 0;
    if (f->only_if && ca_defined_in_loop(&c->cfg, l, f->only_if))
      f->only_if = 0;
    if (back_edge && f->age < AGE_CAP)
      f->age++;
  }
  for (unsigned k = 0; k < s->nr;) {
    if (ca_defined_in_loop(&c->cfg, l, s->r[k].id))
      s->r[k] = s->r[--s->nr];
    else
      k++;
  }
  for (unsigned k = 0; k < s->na;) {
    if (ca_defined_in_loop(&c->cfg, l, s->a[k].id) ||
        (s->a[k].value.base && ca_defined_in_loop(&c->cfg, l, s->a[k].value.base)))
      s->a[k] = s->a[--s->na];
    else
      k++;
  }
  state_normalize(s);
}

static gac_affine affine_value(const gac_module *m, uint32_t id, int64_t plus) {
  uint64_t v;
  return gac_constant_value(m, id, &v) ? (gac_affine){0, (int64_t)v + plus} : (gac_affine){id, plus};
}

/* In a first iteration with constant start and bound, whether the exit test leaves (1), stays (0) or -1. */
static int first_iteration_exit(const checker *c, const ca_loop *L) {
  uint64_t init, n;
  if (!L->has_exit_test || !gac_constant_value(c->m, L->init, &init) || !gac_constant_value(c->m, L->bound, &n))
    return -1;
  const gac_inst *t = gac_value_type(c->m, L->k);
  unsigned w = t && t->opcode == SpvOpTypeInt ? t->words[2] : 32;
  uint64_t mask = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
  uint64_t x = (init + (uint64_t)L->exit_offset) & mask;
  n &= mask;
  int64_t sx = (int64_t)(x << (64 - w)) >> (64 - w), sn = (int64_t)(n << (64 - w)) >> (64 - w);
  switch (L->compare) {
  case SpvOpULessThan: return !(x < n);
  case SpvOpSLessThan: return !(sx < sn);
  case SpvOpINotEqual: return x == n;
  case SpvOpUGreaterThanEqual: return x >= n;
  case SpvOpSGreaterThanEqual: return sx >= sn;
  case SpvOpIEqual: return x == n;
  default: return -1;
  }
}

/* k = value now (value a constant): a constant version c is k + (c - value),
 * a form that stays exact as k grows, so what the prologue wrote keeps its
 * version in later iterations. Only for a loop that copies: the versions
 * cycle with its counter, not with an inner loop's. */
static void rebase_constants(const checker *c, state *t, int l, uint64_t value) {
  const ca_loop *L = &c->cfg.loops[l];
  remove_alias(t, L->k);
  add_alias(t, L->k, (gac_affine){0, (int64_t)value});
  if (!c->loop_copies[l])
    return;
  for (unsigned k = 0; k < t->nf; k++)
    if (t->f[k].version.known && !t->f[k].version.value.base)
      t->f[k].version.value = (gac_affine){L->k, t->f[k].version.value.offset - (int64_t)value};
  state_normalize(t);
}

/* id's value where s knows it: a constant, or an equality with one. */
static bool known_value(const checker *c, const state *s, uint32_t id, uint64_t *value) {
  if (gac_constant_value(c->m, id, value))
    return true;
  gac_version v = resolve(s, (gac_version){true, {id, 0}});
  if (v.value.base || v.value.offset < 0)
    return false;
  *value = (uint64_t)v.value.offset;
  return true;
}

/* What taking edge b -> to says about an integer compared with a value s
 * knows (unsigned, or equality): t learns its range. False if the edge
 * cannot be taken. */
static bool learn_edge(const checker *c, const state *s, state *t, unsigned b, unsigned to) {
  const gac_inst *br = gac_block_terminator(c->cfg.blocks[b]);
  if (!br || br->opcode != SpvOpBranchConditional || br->num_words < 4 || br->words[2] == br->words[3])
    return true;
  const gac_inst *cmp = gac_def(c->m, br->words[1]);
  if (!cmp || cmp->num_words != 5)
    return true;
  uint64_t k, other;
  uint32_t x;
  bool x_left;
  if (known_value(c, s, cmp->words[4], &k) && !known_value(c, s, cmp->words[3], &other))
    x = cmp->words[3], x_left = true;
  else if (known_value(c, s, cmp->words[3], &k) && !known_value(c, s, cmp->words[4], &other))
    x = cmp->words[4], x_left = false;
  else
    return true;
  const gac_inst *ty = gac_value_type(c->m, x);
  unsigned w = ty && ty->opcode == SpvOpTypeInt ? ty->words[2] : 0;
  if (!w || w > 64)
    return true;
  uint64_t max = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
  k &= max;
  enum { LT, LE, GT, GE, EQ, NE } rel;
  switch (cmp->opcode) {
  case SpvOpULessThan: rel = LT; break;
  case SpvOpULessThanEqual: rel = LE; break;
  case SpvOpUGreaterThan: rel = GT; break;
  case SpvOpUGreaterThanEqual: rel = GE; break;
  case SpvOpIEqual: rel = EQ; break;
  case SpvOpINotEqual: rel = NE; break;
  default: return true;
  }
  static const int flip[] = {[LT] = GT, [LE] = GE, [GT] = LT, [GE] = LE, [EQ] = EQ, [NE] = NE};
  static const int negate[] = {[LT] = GE, [LE] = GT, [GT] = LE, [GE] = LT, [EQ] = NE, [NE] = EQ};
  if (!x_left)
    rel = flip[rel];
  if (gac_block_label(c->cfg.blocks[to]) != br->words[2])
    rel = negate[rel];
  switch (rel) {
  case LT: return k && restrict_range(t, x, 0, k - 1);
  case LE: return restrict_range(t, x, 0, k);
  case GT: return k < max && restrict_range(t, x, k + 1, max);
  case GE: return restrict_range(t, x, k, max);
  case EQ: return restrict_range(t, x, k, k);
  default: return k == 0 ? restrict_range(t, x, 1, max) : k == max ? restrict_range(t, x, 0, max - 1) : true;
  }
}

/* The loop around loop l, or -1. */
static int parent_loop(const ca_cfg *g, int l) {
  const ca_loop *L = &g->loops[l];
  int parent = -1;
  for (unsigned p = 0; p < g->num_loops; p++)
    if ((int)p != l && g->loops[p].body[L->header] && g->loops[p].body_size > L->body_size &&
        (parent < 0 || g->loops[p].body_size < g->loops[parent].body_size))
      parent = (int)p;
  return parent;
}

/* Pushes `out` (the state at the end of block b in context ctx) along edge b -> s. */
static bool propagate(checker *c, state *states, const state *out, unsigned b, unsigned ctx, unsigned s) {
  const ca_cfg *g = &c->cfg;
  int lb = g->loop_of[b], ls = g->loop_of[s];
  state t = {0};
  state_copy(&t, out);
  unsigned targets = 1u << ctx; /* bit per context of s */
  unsigned later = ctx & CTX_LATER, outer = ctx & CTX_OUTER_LATER, left = 0;
  bool header = ls >= 0 && g->loops[ls].header == s;
  if (!learn_edge(c, out, &t, b, s)) {
    state_free(&t);
    return false;
  }
  if (lb >= 0 && !later && g->loops[lb].has_exit_test && g->loops[lb].exit_block == b &&
      first_iteration_exit(c, &g->loops[lb]) == (s != g->loops[lb].exit_target)) {
    state_free(&t);
    return false; /* the first iteration cannot take this edge */
  }
  /* Loops left on the way out, innermost first. */
  for (int l = lb; l >= 0 && !ca_in_loop(g, l, s);) {
    const ca_loop *L = &g->loops[l];
    /* Left in the first iteration of `x < n`: n <= init + offset. A guard
     * before the loop that says n >= init + offset makes it equal (more makes
     * this edge impossible): the pipeline with no iteration. */
    uint64_t init, min;
    if (l == lb && !later && L->has_exit_test && L->exit_block == b && s == L->exit_target &&
        (L->compare == SpvOpULessThan || L->compare == SpvOpSLessThan) && gac_constant_value(c->m, L->init, &init) &&
        !gac_constant_value(c->m, L->bound, &min) &&
        ca_guard_at_least(g, L->header, L->bound, L->compare == SpvOpSLessThan, &min)) {
      uint64_t last = init + (uint64_t)L->exit_offset;
      if (min > last) {
        state_free(&t);
        return false;
      }
      /* k = init = n - offset: say it in n, as the later iterations' exit does. */
      if (min == last) {
        remove_alias(&t, L->k);
        add_alias(&t, L->k, (gac_affine){L->bound, -L->exit_offset});
        for (unsigned k = 0; k < t.nf; k++)
          if (t.f[k].version.known && !t.f[k].version.value.base)
            t.f[k].version.value = (gac_affine){L->bound, t.f[k].version.value.offset - (int64_t)last};
      }
    }
    /* Left the first iteration of a loop that starts at umin(n, cap) on
     * k < n: umin(n, cap) >= n, so n <= cap and k = n. */
    if (l == lb && !later && L->init_is_min && L->exit_block == b && s == L->exit_target) {
      remove_alias(&t, L->k);
      add_alias(&t, L->k, (gac_affine){L->bound, 0});
      if (!restrict_range(&t, L->bound, 0, L->cap)) {
        state_free(&t);
        return false;
      }
    }
    /* Left after going round: the test held the iteration before, so k + offset = n now. */
    if (l == lb && later && L->has_exit_test && L->exit_block == b && s == L->exit_target &&
        L->compare != SpvOpIEqual && L->compare != SpvOpINotEqual)
      add_alias(&t, L->k, affine_value(c->m, L->bound, -L->exit_offset));
    if (L->has_exit_test && L->exit_block == b && s == L->exit_target &&
        (L->compare == SpvOpIEqual || L->compare == SpvOpINotEqual))
      add_alias(&t, L->k, affine_value(c->m, L->bound, -L->exit_offset));
    /* What is relative to the loop's values is said in what they equal now. */
    for (unsigned k = 0; k < t.nf; k++)
      if (t.f[k].version.known && t.f[k].version.value.base &&
          ca_defined_in_loop(g, l, t.f[k].version.value.base))
        t.f[k].version = resolve(&t, t.f[k].version);
    state_normalize(&t);
    l = parent_loop(g, l);
    left++;
  }
  /* Into the body of a loop that starts at umin(n, cap) on k < n: the start was cap. */
  if (lb >= 0 && !later && g->loops[lb].init_is_min && b == g->loops[lb].header && ca_in_loop(g, lb, s) &&
      s != g->loops[lb].exit_target) {
    rebase_constants(c, &t, lb, g->loops[lb].cap);
    if (g->loops[lb].cap == UINT64_MAX || !restrict_range(&t, g->loops[lb].bound, g->loops[lb].cap + 1, UINT64_MAX)) {
      state_free(&t);
      return false;
    }
  }
  /* Past every loop, the paths where the loop left went round or not stay
   * apart; back in the enclosing loop, its iteration is what entered this
   * one, and what entered it is no longer known. */
  if (left && ls < 0) /* a loop that does not copy (the epilogue's reads) keeps what came before it */
    targets = left == 1 && !c->loop_copies[lb] ? 1u << (outer >> 1) : 1u << later;
  else if (left == 1 && c->loop_copies[ls]) /* its iteration is what entered this loop */
    targets = 1u << (outer >> 1) | 1u << ((outer >> 1) | CTX_OUTER_LATER);
  else if (left == 1) /* the loop that copies is the same */
    targets = 1u << outer | 1u << (outer | CTX_LATER);
  else if (left)
    targets = (1u << NCTX) - 1;
  if (header && ca_in_loop(g, ls, b)) {
    forget_loop_values(c, &t, ls, b, s, true);
    targets = 1u << (outer | CTX_LATER);
  } else if (header) {
    const ca_loop *L = &g->loops[ls];
    forget_loop_values(c, &t, ls, b, s, false);
    uint64_t init;
    if (L->k && gac_constant_value(c->m, L->init, &init))
      rebase_constants(c, &t, ls, init);
    else if (L->k)
      add_alias(&t, L->k, affine_value(c->m, L->init, 0));
    targets = lb >= 0 && !c->loop_copies[lb] ? 1u << outer : 1u << (later ? CTX_OUTER_LATER : 0);
  } else {
    for (unsigned k = 0; k < t.nf; k++) {
      uint32_t renamed = phi_rename(c, b, s, t.f[k].group);
      if (renamed)
        rename_group(&t.f[k], renamed);
    }
    state_normalize(&t);
  }
  bool changed = false;
  for (unsigned k = 0; k < NCTX; k++)
    if (targets & (1u << k))
      changed |= state_join(&states[NCTX * s + k], &t);
  state_free(&t);
  return changed;
}

static void transfer_block(checker *c, state *s, unsigned b, bool eval, unsigned ctx) {
  gac_foreach_inst(i, &c->cfg.blocks[b]->insts) transfer_inst(c, s, i, eval, ctx, b);
}

/* ---- verdicts ---- */

static access *access_record(checker *c, const gac_inst *i, unsigned role) {
  for (unsigned k = 0; k < c->nacc; k++)
    if (c->acc[k].inst == i && c->acc[k].role == role)
      return &c->acc[k];
  c->acc = xrealloc(c->acc, (c->nacc + 1) * sizeof *c->acc);
  access *a = &c->acc[c->nacc++];
  memset(a, 0, sizeof *a);
  a->inst = i;
  a->role = role;
  return a;
}

static bool buffers_may_alias(const checker *c, int a, int b) {
  if (a == b || a < 0 || b < 0)
    return true;
  const buffer *x = &c->buffers[a], *y = &c->buffers[b];
  /* Distinct variables never alias; a kernel's Workgroup parameters are distinct allocations. */
  if (!x->param && !y->param)
    return false;
  return !c->kernel;
}

/* Accesses worth a verdict: to what an async copy writes (or, for writes, reads). */
static bool relevant(const checker *c, int buf, enum access_kind kind) {
  if (buf == NOT_WORKGROUP)
    return false;
  if (c->unknown_writes)
    return true;
  for (unsigned k = 0; k < c->nb; k++) {
    bool conflicts = kind == ACCESS_READ         ? c->buffers[k].written
                     : kind == ACCESS_COPY_WRITE ? c->buffers[k].read
                                                 : c->buffers[k].written || c->buffers[k].read;
    if (conflicts && buffers_may_alias(c, buf, (int)k))
      return true;
  }
  return false;
}

static void evaluate(checker *c, const state *s, const gac_inst *i, unsigned role, enum access_kind kind,
                     uint32_t ptr, unsigned ctx, unsigned block) {
  c->cur = s;
  place p = place_of(c, ptr, i);
  c->cur = NULL;
  evaluate_place(c, s, i, role, kind, p, ctx, block);
}

static void evaluate_place(checker *c, const state *s, const gac_inst *i, unsigned role, enum access_kind kind,
                           place p, unsigned ctx, unsigned block) {
  if (!relevant(c, p.buffer, kind))
    return;
  access *a = access_record(c, i, role);
  a->kind = kind;
  a->buffer = p.buffer;
  a->version = p.version;
  if (p.left)
    a->where = p;
  a->block = block;
  finding *fd = &a->in[ctx];
  bool first = !fd->evaluated;
  fd->evaluated = true;
  gac_check_verdict v = GAC_CHECK_PROVED;
  const fact *witness = NULL;
  gac_version mine = resolve(s, p.version), theirs = {0};
  for (unsigned k = 0; k < s->nf; k++) {
    const fact *f = &s->f[k];
    if (f->async_read ? kind == ACCESS_READ : kind == ACCESS_COPY_WRITE)
      continue; /* two reads do not conflict; see enum access_kind */
    if (f->async_read && f->copy == i)
      continue;
    if (!buffers_may_alias(c, f->buffer, p.buffer))
      continue;
    range where;
    if (f->only_if && exists_where(s, f, f->only_if, &where) && where.lo > where.hi)
      continue; /* in flight on no path that reaches here */
    gac_version fv = resolve(s, f->version);
    gac_version_relation r =
        f->buffer == p.buffer && p.buffer >= 0 ? gac_version_compare(fv, mine, c->buffers[p.buffer].versions)
                                               : GAC_VERSION_MAYBE; /* unknown buffers: no versions to compare */
    if (r == GAC_VERSION_OTHER)
      continue;
    gac_check_verdict fv_verdict =
        r == GAC_VERSION_SAME && must_in(s, f) && kind != ACCESS_CALL && offsets_meet(c, f, i, role) ? GAC_CHECK_VIOLATED
                                                                                                 : GAC_CHECK_UNDECIDED;
    if (!witness || fv_verdict > v) {
      v = fv_verdict;
      witness = f;
      theirs = fv;
    }
  }
  if (c->gave_up && v == GAC_CHECK_PROVED)
    v = GAC_CHECK_UNDECIDED;
  if (first || v > fd->verdict) {
    fd->verdict = v;
    fd->as_read = p.version;
    fd->seen_as = mine;
    fd->fact_as = theirs;
    if (witness)
      fd->witness = *witness;
    else
      memset(&fd->witness, 0, sizeof fd->witness);
  }
}

static const char *access_verb(const access *a) {
  if (a->kind == ACCESS_CALL)
    return a->role == 0 ? "calls a function that may use" : "passes a pointer into";
  if (a->inst->opcode != SpvOpLoad && a->inst->opcode != SpvOpStore)
    return a->kind == ACCESS_READ ? "reads (as its Source)" : "writes (as its Destination)";
  return a->kind == ACCESS_READ ? "reads" : "writes";
}

static void describe_place(const checker *c, int buf, gac_version v, char *out, size_t size) {
  if (buf < 0) {
    snprintf(out, size, "Workgroup memory the checker cannot trace");
    return;
  }
  char name[64], version[96];
  ca_name(c->m, c->buffers[buf].root, name, sizeof name);
  if (c->buffers[buf].versions <= 1) {
    snprintf(out, size, "%s", name);
    return;
  }
  gac_version_format(c->m, v, c->buffers[buf].versions, version, sizeof version);
  snprintf(out, size, "%s[%s]", name, version);
}

static const char *block_name(const checker *c, unsigned b, char *buf, size_t size) {
  ca_name(c->m, gac_block_label(c->cfg.blocks[b]), buf, size);
  return buf;
}

/* "path: %a -> %b -> %c", round the back edge when the copy is from an earlier iteration. */
static void describe_path(const checker *c, const access *a, unsigned ctx, char *out, size_t size) {
  const fact *w = &a->in[ctx].witness;
  int from = ca_block_of(&c->cfg, w->copy);
  size_t len = 0;
  out[0] = '\0';
  if (from < 0)
    return;
  unsigned blocks[2 * PATH_MAX_BLOCKS], n = 0;
  /* Prefer a path through no wait that could cover the copy: the one that leaves it in flight. */
  bool *avoid = calloc(c->cfg.n ? c->cfg.n : 1, sizeof *avoid);
  if (!avoid)
    abort();
  for (unsigned b = 0; b < c->cfg.n; b++) {
    gac_foreach_inst(i, &c->cfg.blocks[b]->insts) {
      uint32_t op = gac_async_pipeline_op_of(c->m, i);
      uint64_t q;
      avoid[b] |=
          i->opcode == SpvOpGroupWaitEvents ||
          (op == GAC_ASYNC_WAIT && w->queue != PENDING &&
           (!gac_constant_value(c->m, i->words[GAC_PIPELINE_QUEUE_WORD], &q) || q == w->queue) && i != w->kept_by);
    }
  }
  int l = c->cfg.loop_of[a->block];
  if (w->age > 0 && l >= 0) {
    const ca_loop *L = &c->cfg.loops[l];
    unsigned latch = L->header;
    for (unsigned p = 0; p < c->cfg.n; p++)
      for (unsigned k = 0; k < c->cfg.num_succ[p]; k++)
        if (c->cfg.succ[p][k] == L->header && L->body[p])
          latch = p;
    n = ca_path(&c->cfg, (unsigned)from, latch, avoid, blocks, PATH_MAX_BLOCKS);
    if (!n)
      n = ca_path(&c->cfg, (unsigned)from, latch, NULL, blocks, PATH_MAX_BLOCKS);
    unsigned m = ca_path(&c->cfg, L->header, a->block, avoid, blocks + n, PATH_MAX_BLOCKS);
    n += m ? m : ca_path(&c->cfg, L->header, a->block, NULL, blocks + n, PATH_MAX_BLOCKS);
  } else {
    n = ca_path(&c->cfg, (unsigned)from, a->block, avoid, blocks, PATH_MAX_BLOCKS);
    if (!n)
      n = ca_path(&c->cfg, (unsigned)from, a->block, NULL, blocks, PATH_MAX_BLOCKS);
  }
  free(avoid);
  len += (size_t)snprintf(out + len, size - len, "; path:");
  for (unsigned k = 0; k < n && len < size; k++) {
    char name[64];
    len += (size_t)snprintf(out + len, size - len, "%s%s", k ? " -> " : " ", block_name(c, blocks[k], name, sizeof name));
  }
  if (l >= 0 && len < size) {
    const char *when = (ctx & CTX_LATER) ? "in a later iteration k" : "in the loop's first iteration";
    int copying = parent_loop(&c->cfg, l);
    while (copying >= 0 && !c->loop_copies[copying])
      copying = parent_loop(&c->cfg, copying);
    const char *around = copying >= 0 && !(ctx & CTX_OUTER_LATER)
                             ? ", in the first iteration of the loop around it that copies" : "";
    if (w->age == 0 || !ca_in_loop(&c->cfg, l, (unsigned)from))
      snprintf(out + len, size - len, " (%s%s)", when, around);
    else
      snprintf(out + len, size - len, " (copied in iteration k-%u%s, accessed in iteration k%s)", w->age,
               w->age == AGE_CAP ? " or earlier" : "", around);
  }
}

static void describe_group(const checker *c, const fact *f, char *out, size_t size) {
  char wait[128] = "";
  if (f->queue == PENDING) {
    snprintf(out, size, "its group was not committed, and no OpGroupWaitEvents is known to cover it");
    return;
  }
  if (f->kept_by) {
    uint64_t n;
    char name[48], count[24] = "?";
    ca_name(c->m, f->kept_by->result_id, name, sizeof name);
    if (gac_constant_value(c->m, f->kept_by->words[GAC_PIPELINE_VALUE_WORD], &n))
      snprintf(count, sizeof count, "%llu", (unsigned long long)n);
    snprintf(wait, sizeof wait, "AsyncWait %s (queue %u, in flight %s)", name, f->queue, count);
  }
  char positions[48];
  if (f->lo == f->hi)
    snprintf(positions, sizeof positions, "%u%s", f->lo, f->hi == POS_CAP ? " or more" : "");
  else
    snprintf(positions, sizeof positions, "%u to %u%s", f->lo, f->hi, f->hi == POS_CAP ? " or more" : "");
  snprintf(out, size, "its group was committed to queue %u with %s group(s) committed after it, %s%s", f->queue,
           positions, f->kept_by ? "and " : "and no wait on the queue since", f->kept_by ? wait : "");
  if (f->kept_by)
    strncat(out, " leaves it in flight", size - strlen(out) - 1);
}

/* "async copy into %buf[0] (%e0) is in flight: its group ...; path: ..." */
static void describe_finding(const checker *c, const access *a, unsigned ctx, char *out, size_t size) {
  const fact *f = &a->in[ctx].witness;
  char theirs[192], group[320], path[640], copy[64];
  describe_place(c, f->buffer, a->in[ctx].fact_as, theirs, sizeof theirs);
  describe_group(c, f, group, sizeof group);
  describe_path(c, a, ctx, path, sizeof path);
  ca_name(c->m, f->copy->result_id, copy, sizeof copy);
  const char *kind = f->copy->opcode == SpvOpFunctionCall ? "copies started by a call into"
                     : f->async_read                      ? "async copy out of"
                                                          : "async copy into";
  snprintf(out, size, "%s %s (%s) %s: %s%s", kind, theirs, copy,
           a->in[ctx].verdict == GAC_CHECK_VIOLATED ? "is in flight" : "may be in flight", group, path);
}

static const char *doubt_reason(const checker *c, const gac_inst *i) {
  switch (i->opcode) {
  case SpvOpGroupWaitEvents:
    return "the events waited for, or the name of the copy's group, cannot be traced: OpGroupWaitEvents";
  case SpvOpFunctionCall:
    return "the callee may wait for it: OpFunctionCall";
  default:
    return gac_async_pipeline_op_of(c->m, i) == GAC_ASYNC_COMMIT ? "which group is committed cannot be traced: AsyncCommit"
                                                                 : "the queue or count is not a constant: AsyncWait";
  }
}

/* Why the copy's part of the buffer is not related to the access's. */
static void describe_offsets(const checker *c, const fact *f, const gac_inst *i, unsigned role, char *out,
                             size_t size) {
  char theirs[64], mine[64] = "";
  ca_name(c->m, copy_offset(c->m, f->copy, f->async_read), theirs, sizeof theirs);
  uint32_t m = copy_offset(c->m, i, role == 1);
  if (m)
    ca_name(c->m, m, mine, sizeof mine);
  snprintf(out, size,
           "the copy addresses the buffer at the run-time element offset %s%s%s, and run-time parts of one "
           "flat buffer are not related (an array of tiles, buf[2][N], would be)",
           theirs, m ? ", the access at " : "", mine);
}

/* Why pointer arithmetic inside a version may leave it. */
static void describe_leaving(const checker *c, const place *p, char *out, size_t size) {
  (void)c;
  if (p->local_id)
    snprintf(out, size,
             "pointer arithmetic by get_local_id(%d) may leave the version: the kernel fixes no work-group size "
             "(reqd_work_group_size) that would bound it",
             p->local_id - 1);
  else if (!p->followed)
    snprintf(out, size, "pointer arithmetic the checker does not follow may leave the version");
  else
    snprintf(out, size, "pointer arithmetic reaches bytes %llu to %llu of a version of %llu bytes",
             (unsigned long long)p->lo, (unsigned long long)p->hi, (unsigned long long)p->room);
}

static void report(checker *c, const access *a) {
  const gac_inst *i = a->inst;
  char what[192], finding_text[1300], other[1400], why[320] = "";
  const char *opname = i->opcode == SpvOpLoad ? "OpLoad" : i->opcode == SpvOpStore ? "OpStore"
                       : i->opcode == SpvOpFunctionCall ? "OpFunctionCall" : i->opcode == SpvOpExtInst ? "the copy"
                       : "the instruction";
  /* The worst context; the latest (the steady state) on a tie. */
  unsigned ctx = 0;
  for (unsigned k = 1; k < NCTX; k++)
    if (a->in[k].evaluated && (!a->in[ctx].evaluated || a->in[k].verdict >= a->in[ctx].verdict))
      ctx = k;
  const finding *fd = &a->in[ctx];
  if (a->buffer >= 0 && c->buffers[a->buffer].root < c->m->bound && c->pipe_var[c->buffers[a->buffer].root])
    return; /* a warp-specialised pipe's: check_async_pipes.c gave it its verdict */
  describe_place(c, a->buffer, fd->as_read, what, sizeof what);
  gac_severity undecided = c->opt->strict ? GAC_ERROR : GAC_WARNING;
  if (fd->verdict == GAC_CHECK_PROVED) {
    if (a->kind == ACCESS_CALL && a->role == 0)
      return; /* a call that uses no buffer an access conflicts with is no access of interest */
    if (c->opt->verbose)
      gac_diag_add(c->diag, GAC_REMARK, i->offset, i->result_id, "CheckAsync.Proved",
                   "proved: %s %s %s after every async copy into it is covered by a wait", opname, access_verb(a),
                   what);
    c->counts->proved++;
    return;
  }
  if (!fd->witness.copy) { /* only the checker gave up */
    gac_diag_add(c->diag, undecided, i->offset, i->result_id, "CheckAsync.Undecided", "cannot decide: %s %s %s: %s",
                 opname, access_verb(a), what, c->gave_up_why);
    c->counts->undecided++;
    return;
  }
  describe_finding(c, a, ctx, finding_text, sizeof finding_text);
  other[0] = '\0';
  /* Another context as bad for another reason: the other iteration first. */
  unsigned oc = NCTX;
  for (unsigned k = 0; k < NCTX; k++) {
    const finding *o = &a->in[k];
    if (k != ctx && o->evaluated && o->verdict == fd->verdict && o->witness.copy &&
        o->witness.copy != fd->witness.copy && (oc == NCTX || ((k ^ ctx) & CTX_LATER)))
      oc = k;
  }
  if (oc < NCTX) {
    char text[1300];
    describe_finding(c, a, oc, text, sizeof text);
    bool in_loop = c->cfg.loop_of[a->block] >= 0, later = oc & CTX_LATER;
    const char *where = !((oc ^ ctx) & CTX_LATER) ? (oc & CTX_OUTER_LATER ? "where what came before the loop went round"
                                                                           : "where what came before the loop did not go round")
                        : in_loop ? (later ? "in later iterations" : "in the first iteration")
                        : later ? "where the loop before it went round" : "where the loop before it did not go round";
    snprintf(other, sizeof other, "; and %s: %s", where, text);
  }
  if (fd->verdict == GAC_CHECK_VIOLATED) {
    gac_diag_add(c->diag, GAC_ERROR, i->offset, i->result_id, "CheckAsync.Violated", "violated: %s %s %s while %s%s",
                 opname, access_verb(a), what, finding_text, other);
    c->counts->violated++;
    return;
  }
  const fact *f = &fd->witness;
  if (a->kind == ACCESS_CALL)
    snprintf(why, sizeof why, "the callee may access it");
  else if (c->gave_up)
    snprintf(why, sizeof why, "%s", c->gave_up_why);
  else if (a->buffer != f->buffer || a->buffer < 0)
    snprintf(why, sizeof why, "the buffers may alias");
  else if (gac_version_compare(fd->fact_as, fd->seen_as, c->buffers[a->buffer].versions) == GAC_VERSION_MAYBE &&
           a->where.left)
    describe_leaving(c, &a->where, why, sizeof why);
  else if (gac_version_compare(fd->fact_as, fd->seen_as, c->buffers[a->buffer].versions) == GAC_VERSION_MAYBE)
    snprintf(why, sizeof why, "the versions cannot be related");
  else if (!offsets_meet(c, f, i, a->role))
    describe_offsets(c, f, i, a->role, why, sizeof why);
  else if (f->doubt)
    snprintf(why, sizeof why, "%s at word %zu", doubt_reason(c, f->doubt), f->doubt->offset);
  else
    snprintf(why, sizeof why, "it is in flight on some paths only");
  gac_diag_add(c->diag, undecided, i->offset, i->result_id, "CheckAsync.Undecided",
               "cannot decide (%s): %s %s %s while %s%s", why, opname, access_verb(a), what, finding_text, other);
  c->counts->undecided++;
}

/* ---- per function ---- */

static int by_position(const void *x, const void *y) {
  const access *a = x, *b = y;
  if (a->inst->offset != b->inst->offset)
    return a->inst->offset < b->inst->offset ? -1 : 1;
  return (a->role > b->role) - (a->role < b->role);
}

static bool is_entry_point(const gac_module *m, uint32_t function) {
  gac_foreach_inst(e, &m->sections[GAC_SECTION_ENTRY_POINT]) if (e->num_words > 2 && e->words[2] == function)
      return true;
  return false;
}

/* Whether the Workgroup pointer parameters of `function` are distinct
 * allocations: it is a kernel, or it is called (at least once) and every
 * call passes them parameters of such a function, no two the same (as
 * llvm-spirv's kernel wrappers do). */
static bool distinct_parameters(const gac_module *m, uint32_t function, unsigned depth) {
  if (is_entry_point(m, function))
    return true;
  if (depth > 4)
    return false;
  bool called = false;
  gac_foreach_function(f, (gac_module *)m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (i->opcode != SpvOpFunctionCall || in_operand(i, 0) != function)
          continue;
        called = true;
        for (unsigned a = 1; a < num_in_operands(i); a++) {
          uint32_t arg = in_operand(i, a);
          if (storage_class_of(m, arg) != SpvStorageClassWorkgroup)
            continue;
          const gac_inst *d = gac_def(m, arg);
          if (!d || d->opcode != SpvOpFunctionParameter || gac_inst_function(d) != f)
            return false;
          for (unsigned o = 1; o < a; o++)
            if (in_operand(i, o) == arg)
              return false;
        }
        if (!distinct_parameters(m, f->def->result_id, depth + 1))
          return false;
      }
    }
  }
  return called;
}

/* Function variables: the stores to each element, and whether the address
 * escapes (an OpBitcast only for OpLifetimeStart/Stop, as clang -O2 writes,
 * does not). */
/* Whether a value stored is an event the checker names groups by (a
 * copy's, a phi's, none), or no event at all. */
static bool stores_tracked_event(const gac_module *m, uint32_t value) {
  const gac_inst *t = gac_value_type(m, value), *d = gac_def(m, value);
  copy_view v;
  return !t || t->opcode != SpvOpTypeEvent ||
         (d && (d->opcode == SpvOpPhi || d->opcode == SpvOpConstantNull || d->opcode == SpvOpUndef ||
                copy_of(m, d, &v)));
}

static void scan_stores(checker *c) {
  uint32_t *cast_of = calloc(c->m->bound, sizeof *cast_of);
  if (!cast_of)
    abort();
  gac_foreach_block(b, c->cfg.f) {
    gac_foreach_inst(i, &b->insts) {
      copy_view v;
      c->any_copy |= copy_of(c->m, i, &v);
      if (i->opcode == SpvOpFunctionCall && call_starts_copies(c, i))
        c->any_copy = c->unknown_writes = true;
      unsigned first = gac_inst_first_in_operand(i);
      for (unsigned k = first; k < i->num_operands; k++) {
        if (i->operands[k].kind != GAC_OPERAND_ID)
          continue;
        uint32_t id = gac_operand_word(i, k), var, index;
        bool element = element_of(c, id, &var, &index);
        if (id < c->m->bound && cast_of[id]) {
          if (i->opcode != SpvOpLifetimeStart && i->opcode != SpvOpLifetimeStop)
            c->escaped[cast_of[id]] = true;
          continue;
        }
        if (i->opcode == SpvOpBitcast && is_function_variable(c->m, id) && i->result_id < c->m->bound) {
          cast_of[i->result_id] = id;
          continue;
        }
        if (!element) {
          /* The variable as the base of an element's access chain is followed there. */
          if (is_function_variable(c->m, id) && !(element_of(c, i->result_id, &var, &index) && k == first))
            c->escaped[id] = true;
          continue;
        }
        uint64_t constant;
        if (i->opcode == SpvOpStore && k == first) {
          if (!index || gac_constant_value(c->m, index, &constant)) {
            slot *e = find_slot(c, var, index ? constant : 0, true);
            e->stores++;
            e->store = i;
          } else {
            c->element_stores[var] |= ELEMENT_DYNAMIC;
          }
          if (!stores_tracked_event(c->m, in_operand(i, 1)))
            c->element_stores[var] |= ELEMENT_UNTRACKED;
        } else if (!(i->opcode == SpvOpLoad && k == first) && !(i->opcode == SpvOpGroupWaitEvents && k == first + 2)) {
          c->escaped[var] = true;
        }
      }
    }
  }
  free(cast_of);
}

static void mark_written(checker *c) {
  gac_foreach_block(b, c->cfg.f) {
    gac_foreach_inst(i, &b->insts) {
      copy_view v;
      if (!copy_of(c->m, i, &v))
        continue;
      place p = place_of(c, v.destination, i), q = place_of(c, v.source, i);
      if (p.buffer >= 0)
        c->buffers[p.buffer].written = true;
      if (q.buffer >= 0)
        c->buffers[q.buffer].read = true;
      c->unknown_writes |= p.buffer == UNKNOWN_BUFFER;
    }
  }
}

static void mark_loops_that_copy(checker *c) {
  c->loop_copies = calloc(c->cfg.num_loops ? c->cfg.num_loops : 1, sizeof *c->loop_copies);
  if (!c->loop_copies)
    abort();
  for (unsigned b = 0; b < c->cfg.n; b++) {
    bool copies = false;
    gac_foreach_inst(i, &c->cfg.blocks[b]->insts) copies |= is_copy(c->m, i);
    for (unsigned l = 0; copies && l < c->cfg.num_loops; l++)
      c->loop_copies[l] |= c->cfg.loops[l].body[b];
  }
}

static void check_function(checker *c, gac_function *f) {
  memset(c->pipe_var, 0, c->m->bound ? c->m->bound : 1);
  ca_check_pipes(c->m, f, c->opt, c->diag, c->counts, c->pipe_var);
  ca_cfg_build(&c->cfg, c->m, f);
  c->kernel = distinct_parameters(c->m, f->def->result_id, 0);
  uint64_t local_size[3];
  gac_local_size((gac_module *)c->m, f->def->result_id, GAC_LOCAL_SIZE_BOUND, local_size);
  for (unsigned d = 0; d < 3; d++)
    c->local_size[d] = (uint32_t)local_size[d];
  c->escaped = calloc(c->m->bound, sizeof *c->escaped);
  c->element_stores = calloc(c->m->bound ? c->m->bound : 1, sizeof *c->element_stores);
  if (!c->escaped || !c->element_stores)
    abort();
  c->gave_up = c->cfg.irreducible;
  c->gave_up_why = "the control flow is irreducible";
  scan_stores(c);
  mark_written(c);
  mark_loops_that_copy(c);
  unsigned n = c->cfg.n;
  state *states = calloc(NCTX * (n ? n : 1), sizeof *states);
  if (!states)
    abort();
  if (c->any_copy && n) {
    states[0].reached = true;
    bool changed = true;
    unsigned rounds = 0;
    state out = {0};
    for (; changed && rounds < MAX_ROUNDS; rounds++) {
      changed = false;
      for (unsigned r = 0; r < c->cfg.num_rpo; r++) {
        unsigned b = c->cfg.rpo[r];
        for (unsigned ctx = 0; ctx < NCTX; ctx++) {
          if (!states[NCTX * b + ctx].reached)
            continue;
          state_copy(&out, &states[NCTX * b + ctx]);
          transfer_block(c, &out, b, false, ctx);
          for (unsigned k = 0; k < c->cfg.num_succ[b]; k++)
            changed |= propagate(c, states, &out, b, ctx, c->cfg.succ[b][k]);
        }
      }
    }
    if (changed) {
      c->gave_up = true;
      c->gave_up_why = "the analysis found no fixpoint";
    }
    for (unsigned r = 0; r < c->cfg.num_rpo; r++) {
      unsigned b = c->cfg.rpo[r];
      for (unsigned ctx = 0; ctx < NCTX; ctx++) {
        if (!states[NCTX * b + ctx].reached)
          continue;
        state_copy(&out, &states[NCTX * b + ctx]);
        transfer_block(c, &out, b, true, ctx);
      }
    }
    state_free(&out);
    if (c->nacc)
      qsort(c->acc, c->nacc, sizeof *c->acc, by_position);
    for (unsigned k = 0; k < c->nacc; k++)
      report(c, &c->acc[k]);
  }
  for (unsigned k = 0; k < NCTX * n; k++)
    state_free(&states[k]);
  free(states);
  free(c->escaped);
  free(c->element_stores);
  free(c->loop_copies);
  c->loop_copies = NULL;
  free(c->slots);
  c->slots = NULL;
  c->nslots = 0;
  free(c->buffers);
  free(c->acc);
  c->escaped = NULL;
  c->element_stores = NULL;
  c->buffers = NULL;
  c->acc = NULL;
  c->nb = c->nacc = 0;
  c->any_copy = c->unknown_writes = false;
  ca_cfg_free(&c->cfg);
}

void gac_check_async(const gac_module *m, const gac_check_async_options *options, gac_diag *diag,
                     gac_check_async_counts *counts) {
  gac_check_async_counts local = {0};
  gac_check_async_options defaults = {0};
  checker c = {.m = m, .opt = options ? options : &defaults, .diag = diag, .counts = counts ? counts : &local};
  memset(c.counts, 0, sizeof *c.counts);
  c.starts = calloc(m->bound ? m->bound : 1, 1);
  c.touches = calloc(m->bound ? m->bound : 1, 1);
  c.pipe_var = calloc(m->bound ? m->bound : 1, 1);
  if (!c.starts || !c.touches || !c.pipe_var)
    abort();
  gac_foreach_function(f, (gac_module *)m) {
    if (f->first_block)
      check_function(&c, f);
  }
  free(c.starts);
  free(c.touches);
  free(c.pipe_var);
}

bool gac_check_async_pass(gac_module *m, const char *arg, gac_diag *diag) {
  gac_check_async_options o = {0};
  for (const char *p = arg; p && *p;) {
    size_t len = strcspn(p, ",");
    if (len == 6 && strncmp(p, "strict", 6) == 0)
      o.strict = true;
    else if (len == 7 && strncmp(p, "verbose", 7) == 0)
      o.verbose = true;
    else {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "CheckAsync.Option",
                   "--check-async takes 'strict' and 'verbose', not '%.*s'", (int)len, p);
      return false;
    }
    p += len + (p[len] == ',');
  }
  gac_check_async_counts counts;
  gac_check_async(m, &o, diag, &counts);
  if (counts.proved + counts.undecided + counts.violated)
    gac_diag_add(diag, GAC_REMARK, GAC_NO_OFFSET, 0, "CheckAsync.Summary",
                 "check-async: %zu proved, %zu violated, %zu cannot decide", counts.proved, counts.violated,
                 counts.undecided);
  return false; /* an analysis: the module is unchanged */
}
