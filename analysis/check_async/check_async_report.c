/* Verdicts of --check-async: an access is proved when no fact that may
 * be in flight can touch its place, violated when one is in flight on every
 * path of some context, and undecided otherwise; the diagnostics name the
 * copy, its group, the path and why the checker could not decide. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check_async_dataflow.h"
#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/check_async.h"
#include "gac/known.h"

static access *access_record(checker *c, const gac_inst *i, unsigned role) {
  for (unsigned k = 0; k < c->nacc; k++)
    if (c->acc[k].inst == i && c->acc[k].role == role)
      return &c->acc[k];
  c->acc = ca_xrealloc(c->acc, (c->nacc + 1) * sizeof *c->acc);
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

void ca_evaluate_access(checker *c, const state *s, const gac_inst *i, unsigned role, enum access_kind kind,
                        uint32_t ptr, unsigned ctx, unsigned block) {
  c->cur = s;
  place p = ca_place_of(c, ptr, i);
  c->cur = NULL;
  ca_evaluate_place(c, s, i, role, kind, p, ctx, block);
}

void ca_evaluate_place(checker *c, const state *s, const gac_inst *i, unsigned role, enum access_kind kind,
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
  gac_version mine = ca_resolve_version(s, p.version), theirs = {0};
  bool meets = false, inside = false;
  part_doubt doubt = {0};
  /* In a flat buffer, which bytes: the copy's part and the access's (a call's callee may go anywhere). */
  bool flat = p.buffer >= 0 && c->buffers[p.buffer].versions <= 1 && kind != ACCESS_CALL;
  c->at = i;
  c->cur = s;
  ca_ranges ranges = ca_ranges_at(c);
  for (unsigned k = 0; k < s->nf; k++) {
    const fact *f = &s->f[k];
    if (f->async_read ? kind == ACCESS_READ : kind == ACCESS_COPY_WRITE)
      continue; /* two reads do not conflict; see enum access_kind */
    if (f->async_read && f->copy == i)
      continue;
    if (f->fenced && ca_is_copy(c->m, i))
      continue; /* a copy fence orders it before this copy */
    if (!buffers_may_alias(c, f->buffer, p.buffer))
      continue;
    range where;
    if (f->only_if && ca_exists_where(s, f, f->only_if, &where) && where.lo > where.hi)
      continue; /* in flight on no path that reaches here */
    gac_version fv = ca_resolve_version(s, f->version);
    gac_version_relation r =
        f->buffer == p.buffer && p.buffer >= 0 ? gac_version_compare(fv, mine, c->buffers[p.buffer].versions)
                                               : GAC_VERSION_MAYBE; /* unknown buffers: no versions to compare */
    if (r == GAC_VERSION_OTHER)
      continue;
    part_doubt pd = {0};
    ca_part copy_part = f->part, my_part = p.part;
    if (copy_part.known && my_part.known) /* parts as this state's aliases say them */
      ca_part_resolve(s, &copy_part), ca_part_resolve(s, &my_part);
    part_relation pr =
        flat && f->buffer == p.buffer ? ca_part_relate(c, &ranges, copy_part, my_part, &pd) : PART_MAYBE;
    if (pr == PART_DISJOINT)
      continue;
    /* The access's part inside the copy's meets it; parts that may meet fall
     * back on the copy's offset: a constant one is taken to meet (a read of
     * a[get_local_id(0)] while a[0..15] is copied, docs/CHECK_ASYNC.md), not
     * a copy whose part is in a run-time value (a 1D copy into buf + t * N). */
    bool constant_part = !pd.copy.known || !pd.access_part.known || !pd.copy.slot.base;
    bool meet = pr == PART_INSIDE || (constant_part && ca_offsets_meet(c, f, i, role));
    gac_check_verdict fv_verdict =
        r == GAC_VERSION_SAME && ca_must_in(s, f) && kind != ACCESS_CALL && meet ? GAC_CHECK_VIOLATED
                                                                                 : GAC_CHECK_UNDECIDED;
    if (!witness || fv_verdict > v || (fv_verdict == v && pr == PART_INSIDE && !inside)) {
      v = fv_verdict;
      witness = f;
      theirs = fv;
      meets = meet;
      inside = pr == PART_INSIDE;
      doubt = pd;
    }
  }
  c->cur = NULL;
  if (c->gave_up && v == GAC_CHECK_PROVED)
    v = GAC_CHECK_UNDECIDED;
  if (first || v > fd->verdict) {
    fd->verdict = v;
    fd->as_read = p.version;
    fd->seen_as = mine;
    fd->fact_as = theirs;
    fd->meet = meets;
    fd->inside = inside;
    fd->part = doubt;
    if (witness)
      fd->witness = *witness;
    else
      memset(&fd->witness, 0, sizeof fd->witness);
  }
}

static const char *access_verb(const checker *c, const access *a) {
  if (a->kind == ACCESS_CALL)
    return a->role == 0 ? "calls a function that may use" : "passes a pointer into";
  unsigned ptr;
  if (a->inst->opcode != SpvOpLoad && a->inst->opcode != SpvOpStore &&
      gac_opencl_std_memory_use(c->m, a->inst, &ptr) == GAC_MEMORY_NONE)
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
    int copying = ca_parent_loop(&c->cfg, l);
    while (copying >= 0 && !c->loop_copies[copying])
      copying = ca_parent_loop(&c->cfg, copying);
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
    return "the callee may wait for it or fence it: OpFunctionCall";
  default:
    return gac_async_pipeline_op_of(c->m, i) == GAC_ASYNC_COMMIT ? "which group is committed cannot be traced: AsyncCommit"
                                                                 : "the queue or count is not a constant: AsyncWait";
  }
}

/* Which fact the checker lacked to relate the copy's part of a flat buffer to the access's. */
static void describe_part(const checker *c, const part_doubt *d, char *out, size_t size) {
  char copy[224], theirs[224], name[64] = "", lead[192];
  ca_part_format(c, &d->copy, copy, sizeof copy);
  ca_part_format(c, &d->access_part, theirs, sizeof theirs);
  if (d->id)
    ca_name(c->m, d->id, name, sizeof name);
  uint32_t product = d->copy.product ? d->copy.product : d->access_part.product;
  switch (d->why) {
  case PART_WHY_EXTENT:
    snprintf(out, size, "the copy's extent in the buffer is not a constant%s%s%s%s", d->id ? ": " : "",
             d->operand ? d->operand : "", d->operand ? " " : "", name);
    return;
  case PART_WHY_POINTER:
    snprintf(out, size, "pointer arithmetic the checker does not follow%s%s", d->id ? ": " : "", name);
    return;
  case PART_WHY_EARLIER:
    snprintf(out, size, "the copy's offset was said in %s, a value of an earlier iteration", name);
    return;
  default:
    break;
  }
  if (d->access_part.local_id) {
    snprintf(lead, sizeof lead,
             "the access's bytes depend on get_local_id(%d), and the kernel fixes no work-group size "
             "(reqd_work_group_size) that would bound them",
             d->access_part.local_id - 1);
  } else if (d->why == PART_WHY_VALUES && product) {
    char p[64];
    ca_name(c->m, product, p, sizeof p);
    snprintf(lead, sizeof lead,
             "the copy's part and the access's are not affine in the same run-time value (a stride is the "
             "run-time value %s, not a constant)", p);
  } else {
    snprintf(lead, sizeof lead, "%s", d->why == PART_WHY_VALUES
                                          ? "the copy's part and the access's are not affine in the same run-time value"
                                          : "the parts may meet");
  }
  snprintf(out, size, "%s: the copy's %s, the access's %s", lead, copy, theirs);
}

/* Why the copy's part of the buffer is not related to the access's. */
static void describe_offsets(const checker *c, const fact *f, const gac_inst *i, unsigned role, char *out,
                             size_t size) {
  char theirs[64], mine[64] = "";
  ca_name(c->m, ca_copy_offset(c->m, f->copy, f->async_read), theirs, sizeof theirs);
  uint32_t m = ca_copy_offset(c->m, i, role == 1);
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

void ca_report_access(checker *c, const access *a) {
  const gac_inst *i = a->inst;
  char what[192], finding_text[1300], other[1400], why[800] = "";
  unsigned ptr;
  const char *opname = i->opcode == SpvOpLoad ? "OpLoad" : i->opcode == SpvOpStore ? "OpStore"
                       : i->opcode == SpvOpFunctionCall ? "OpFunctionCall"
                       : gac_opencl_std_memory_use(c->m, i, &ptr) != GAC_MEMORY_NONE ? "the OpenCL.std instruction"
                       : i->opcode == SpvOpExtInst ? "the copy" : "the instruction";
  /* The worst context; on a tie one where the parts of a flat buffer surely
   * meet (not only by a constant offset), then the latest (the steady state). */
  unsigned ctx = 0;
  for (unsigned k = 1; k < NCTX; k++) {
    const finding *o = &a->in[k], *best = &a->in[ctx];
    if (o->evaluated && (!best->evaluated || o->verdict > best->verdict ||
                         (o->verdict == best->verdict && o->inside >= best->inside)))
      ctx = k;
  }
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
                   "proved: %s %s %s after every async copy into it is covered by a wait", opname, access_verb(c, a),
                   what);
    c->counts->proved++;
    return;
  }
  if (!fd->witness.copy) { /* only the checker gave up */
    gac_diag_add(c->diag, undecided, i->offset, i->result_id, "CheckAsync.Undecided", "cannot decide: %s %s %s: %s",
                 opname, access_verb(c, a), what, c->gave_up_why);
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
                 opname, access_verb(c, a), what, finding_text, other);
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
  else if (!fd->meet && fd->part.why)
    describe_part(c, &fd->part, why, sizeof why);
  else if (!fd->meet)
    describe_offsets(c, f, i, a->role, why, sizeof why);
  else if (f->doubt)
    snprintf(why, sizeof why, "%s at word %zu", doubt_reason(c, f->doubt), f->doubt->offset);
  else
    snprintf(why, sizeof why, "it is in flight on some paths only");
  gac_diag_add(c->diag, undecided, i->offset, i->result_id, "CheckAsync.Undecided",
               "cannot decide (%s): %s %s %s while %s%s", why, opname, access_verb(c, a), what, finding_text, other);
  c->counts->undecided++;
}
