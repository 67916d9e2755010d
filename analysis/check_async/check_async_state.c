/* The states of --check-async: sets of facts (async accesses that may be
 * in flight, keyed by copy group, buffer and version), the aliases (id =
 * base + offset) and ranges known in them, and joins: a fact on any path
 * is kept (may); must survives only where both sides have it, and the
 * ranges and ages of groups committed after it widen to cover both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check_async_dataflow.h"
#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/check_async.h"


void ca_state_free(state *s) {
  free(s->f);
  free(s->a);
  free(s->r);
  memset(s, 0, sizeof *s);
}

void ca_state_copy(state *d, const state *s) {
  d->reached = s->reached;
  d->nf = s->nf;
  d->na = s->na;
  d->nr = s->nr;
  if (d->cr < s->nr)
    d->r = ca_xrealloc(d->r, (d->cr = s->nr) * sizeof *d->r);
  if (s->nr)
    memcpy(d->r, s->r, s->nr * sizeof *d->r);
  if (d->cf < s->nf)
    d->f = ca_xrealloc(d->f, (d->cf = s->nf) * sizeof *d->f);
  if (d->ca < s->na)
    d->a = ca_xrealloc(d->a, (d->ca = s->na) * sizeof *d->a);
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
  return a->buffer == b->buffer && same_version(a->version, b->version) && ca_same_part(&a->part, &b->part) &&
         a->async_read == b->async_read && a->fenced == b->fenced &&
         a->queue == b->queue && (a->queue != PENDING || a->group == b->group) &&
         (a->buffer != UNKNOWN_BUFFER || a->copy == b->copy);
}

/* Offsets mod V, so that a version (and a part's slot) has one form and the facts of a loop stay finite. */
static void canonical_version(fact *f) {
  ca_canonical_part(&f->part);
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
  if (into->held_var != from->held_var || (into->held_var && !same_version(into->held_at, from->held_at)))
    into->held_var = HELD_SOMEWHERE; /* in one element on one path, in another or none on the other */
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
void ca_state_add(state *s, fact f) {
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
    s->f = ca_xrealloc(s->f, (s->cf = s->cf ? 2 * s->cf : 8) * sizeof *s->f);
  s->f[s->nf++] = f;
}

/* Rebuilds s's facts through state_add, merging those whose keys became equal. */
void ca_state_normalize(state *s) {
  state t = {0};
  for (unsigned i = 0; i < s->nf; i++)
    ca_state_add(&t, s->f[i]);
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

void ca_add_alias(state *s, uint32_t id, gac_affine v) {
  if (find_alias(s, id) || id == 0)
    return;
  if (s->na == s->ca)
    s->a = ca_xrealloc(s->a, (s->ca = s->ca ? 2 * s->ca : 4) * sizeof *s->a);
  s->a[s->na++] = (alias){id, v};
}

void ca_remove_alias(state *s, uint32_t id) {
  for (unsigned i = 0; i < s->na; i++)
    if (s->a[i].id == id) {
      s->a[i] = s->a[--s->na];
      return;
    }
}

gac_version ca_resolve_version(const state *s, gac_version v) {
  for (unsigned d = 0; v.known && v.value.base && d < ALIAS_DEPTH; d++) {
    const alias *a = find_alias(s, v.value.base);
    if (!a)
      break;
    v.value = (gac_affine){a->value.base, a->value.offset + v.value.offset};
  }
  return v;
}

range *ca_find_range(const state *s, uint32_t id) {
  for (unsigned i = 0; i < s->nr; i++)
    if (s->r[i].id == id)
      return &s->r[i];
  return NULL;
}

void ca_drop_must(fact *f) {
  f->must = false;
  f->must_if = 0;
}

/* Is f in flight on every path of s, as must says? */
bool ca_must_in(const state *s, const fact *f) {
  const range *r = f->must_if ? ca_find_range(s, f->must_if) : NULL;
  return f->must || (r && r->lo >= f->must_lo && r->hi <= f->must_hi);
}

/* s learns lo <= id <= hi; false if no path is left. One value is an
 * equality, and facts in flight where the range holds are in flight. */
bool ca_restrict_range(state *s, uint32_t id, uint64_t lo, uint64_t hi) {
  range *r = ca_find_range(s, id);
  if (!r) {
    if (s->nr == s->cr)
      s->r = ca_xrealloc(s->r, (s->cr = s->cr ? 2 * s->cr : 4) * sizeof *s->r);
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
    ca_add_alias(s, id, (gac_affine){0, (int64_t)r->lo});
  ca_state_normalize(s);
  for (unsigned k = 0; k < s->nf; k++)
    if (!s->f[k].must && ca_must_in(s, &s->f[k]))
      s->f[k].must = true, s->f[k].must_if = 0;
  return true;
}

/* Is a fact (f, or none) in flight on every path of st where x is in [lo, hi]? */
static bool covers(const state *st, const fact *f, uint32_t x, uint64_t lo, uint64_t hi) {
  if (f && ca_must_in(st, f))
    return true;
  if (f && f->must_if == x && lo >= f->must_lo && hi <= f->must_hi)
    return true;
  const range *r = ca_find_range(st, x);
  return r && (r->hi < lo || r->lo > hi); /* st has no such path */
}

/* must of fact d of state ds joined with s of ss (NULL where ss has no
 * such fact): must where both sides have it; else in flight where some
 * range holds, when each side either has it there or has no path there. */
static void join_must(fact *d, const state *ds, const fact *s, const state *ss) {
  uint8_t pos = s && s->must_pos > d->must_pos ? s->must_pos : d->must_pos;
  if (s && ca_must_in(ds, d) && ca_must_in(ss, s)) {
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
  bool any = ca_must_in(ds, d) || d->must_if || (s && (ca_must_in(ss, s) || s->must_if));
  for (unsigned k = 0; any && k < n; k++)
    if (covers(ds, d, cand[k].id, cand[k].lo, cand[k].hi) && covers(ss, s, cand[k].id, cand[k].lo, cand[k].hi)) {
      d->must = false, d->must_if = cand[k].id, d->must_lo = cand[k].lo, d->must_hi = cand[k].hi;
      d->must_pos = pos;
      return;
    }
  ca_drop_must(d);
}

/* Where the copies f stands for may be in flight, as x's range: f's own
 * condition narrowed by what st knows of x; false if neither says. */
bool ca_exists_where(const state *st, const fact *f, uint32_t x, range *out) {
  const range *r = ca_find_range(st, x);
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
    const range *o = ca_find_range(ss, ds->r[k].id); /* one that tells the sides apart */
    if (o && (o->hi < ds->r[k].lo || o->lo > ds->r[k].hi))
      cand[n++] = ds->r[k].id;
  }
  for (unsigned k = 0; k < n; k++) {
    range a, b;
    if (!ca_exists_where(ds, d, cand[k], &a) || (s && !ca_exists_where(ss, s, cand[k], &b)))
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
bool ca_state_join(state *dst, const state *src) {
  if (!src->reached)
    return false;
  if (!dst->reached) {
    ca_state_copy(dst, src);
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
    ca_state_add(dst, f);
    changed = true;
  }
  /* Ranges known on both sides, widened to both. */
  for (unsigned i = 0; i < dst->nr;) {
    const range *o = ca_find_range(src, dst->r[i].id);
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

bool ca_fact_names(const fact *f, uint32_t event) {
  return event && (f->group == event || f->old_group == event);
}

void ca_rename_group(fact *f, uint32_t to) {
  f->old_group = f->group;
  f->group = to;
}

void ca_part_resolve(const state *s, ca_part *p) {
  if (p->known && p->slot.base)
    ca_part_rebase(p, ca_resolve_version(s, (gac_version){true, p->slot}).value);
}
