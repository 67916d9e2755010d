/* Per wave, along the kernel's CFG (both ways of every s_cbranch_*, loops
 * to a fixpoint), which LDS-direct loads may still be in flight. A position
 * p in `fly` is a DMA load with p ordered loads (global_load_*,
 * buffer_load_*, the DMA loads and the padding loads) issued after it;
 * `s_waitcnt vmcnt(N)` completes those at p >= N (they retire in order).
 * Stores, atomics, flat and scratch accesses also count in vmcnt but are
 * not counted here: fewer loads after a DMA load only make a wait look
 * weaker, so "complete" stays true on every path. A completed load becomes
 * visible to the other waves at the next s_barrier.
 *
 * A *batch* is the DMA loads a wave issues between two barriers (gac
 * issues a pipelined step's group so). Verdicts per LDS read:
 *   proved    no DMA load in flight or unpublished on any path;
 *   prefetch  the latest barrier published a wait's loads on every path,
 *             nothing completed is unpublished, and the loads still in
 *             flight are whole batches: safe if the read reads none of
 *             them (multi-buffering, proved on SPIR-V by --check-async;
 *             LDS addresses are not followed here);
 *   cannot decide  otherwise.
 * A wait that on every path completes part of a batch and leaves the rest
 * in flight is violated: it publishes half a group. */
#include "isa_vmcnt.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { TOP = 63 };

typedef struct vm_state {
  bool reached;
  uint64_t fly, starts;  /* may: DMA positions in flight, batch starts (oldest load of a batch) */
  bool unpub, open;      /* may: completed but unpublished; a DMA load since the last barrier */
  bool split_may, split; /* the latest completing wait split a batch: on some / every path */
  bool pub;              /* every path: the latest barrier published completed loads */
} vm_state;

static uint64_t shift(uint64_t m) { return (m << 1) | (m & (1ull << TOP)); }

static bool join(vm_state *d, const vm_state *s) {
  if (!d->reached) {
    *d = *s;
    return true;
  }
  vm_state o = *d;
  d->fly |= s->fly;
  d->starts |= s->starts;
  d->unpub |= s->unpub;
  d->open |= s->open;
  d->split_may |= s->split_may;
  d->split &= s->split;
  d->pub &= s->pub;
  return memcmp(&o, d, sizeof o) != 0;
}

/* Whether completing the positions >= n splits a batch. */
static bool splits(uint64_t fly, uint64_t starts, unsigned n) {
  uint64_t keep = n > TOP ? ~0ull : (1ull << n) - 1, done = fly & ~keep, left = fly & keep;
  if (!done || !left)
    return false;
  unsigned young_done = (unsigned)__builtin_ctzll(done), old_left = 63u - (unsigned)__builtin_clzll(left);
  uint64_t between = ((young_done >= 64 ? ~0ull : (1ull << young_done) - 1)) & ~((1ull << old_left) - 1);
  return (starts & between) == 0;
}

static void transfer(vm_state *s, const isa_inst *i) {
  switch (i->kind) {
  case ISA_DMA:
    s->fly = shift(s->fly) | 1;
    s->starts = shift(s->starts) | (s->open ? 0 : 1);
    s->open = true;
    break;
  case ISA_LOAD:
    s->fly = shift(s->fly);
    s->starts = shift(s->starts);
    break;
  case ISA_WAIT: {
    uint64_t keep = i->vmcnt > TOP ? ~0ull : (1ull << i->vmcnt) - 1;
    if (s->fly & ~keep) {
      s->split = s->split_may = splits(s->fly, s->starts, i->vmcnt);
      s->unpub = true;
      s->fly &= keep;
      s->starts &= keep;
      if (s->fly && !(s->starts & ~((1ull << (63u - (unsigned)__builtin_clzll(s->fly))) - 1)))
        s->starts |= 1ull << (63u - (unsigned)__builtin_clzll(s->fly)); /* the part left is a batch */
    }
    break;
  }
  case ISA_BARRIER:
    s->pub = s->unpub;
    s->unpub = s->open = false;
    break;
  default:
    break;
  }
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

/* The fixpoint; false if a branch leaves the kernel or control flow is indirect. */
static bool solve(const isa_kernel *k, vm_state *in, const char **why) {
  size_t *work = malloc(k->n * sizeof *work), top = 0;
  bool *queued = calloc(k->n, sizeof *queued), ok = work && queued;
  if (ok && k->n) {
    in[0] = (vm_state){.reached = true};
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
    vm_state out = in[at];
    transfer(&out, &k->insts[at]);
    flow f = successors(k, at);
    for (unsigned j = 0; j < f.n; j++) {
      if (f.succ[j] == SIZE_MAX) {
        *why = "a branch target outside the kernel";
        ok = false;
      } else if (join(&in[f.succ[j]], &out) && !queued[f.succ[j]]) {
        queued[f.succ[j]] = true;
        work[top++] = f.succ[j];
      }
    }
  }
  free(work);
  free(queued);
  return ok;
}

static void report_read(const isa_kernel *k, size_t at, const vm_state *s, const char *where, bool verbose, FILE *out,
                        isa_counts *c) {
  const isa_inst *i = &k->insts[at];
  if (!s->reached || (!s->fly && !s->unpub && !s->open)) {
    c->no_dma++;
    return;
  }
  if (!s->fly && !s->unpub) {
    c->proved++;
    if (verbose)
      fprintf(out, "%s: remark: %s+0x%" PRIx64 ": proved: %s after every LDS-direct load is waited for and published by s_barrier [IsaCheck.Proved]\n",
              where, k->name, i->addr, i->text);
  } else if (!s->unpub && s->pub && !s->split_may) {
    c->prefetch++;
    if (verbose)
      fprintf(out, "%s: remark: %s+0x%" PRIx64 ": proved if it reads no prefetch: %s after a wait and s_barrier that publish whole batches; %d LDS-direct loads may stay in flight [IsaCheck.Prefetch]\n",
              where, k->name, i->addr, i->text, __builtin_popcountll(s->fly));
  } else {
    c->undecided++;
    const char *why = s->unpub ? "a completed LDS-direct load is not yet published by s_barrier on some path"
                      : !s->pub ? "the latest s_barrier published no waited-for LDS-direct load on some path"
                                : "a wait may have split a batch of LDS-direct loads";
    fprintf(out, "%s: warning: %s+0x%" PRIx64 ": cannot decide: %s: %s [IsaCheck.Undecided]\n", where, k->name, i->addr,
            i->text, why);
  }
}

void isa_check_kernel(const isa_kernel *k, const char *where, bool verbose, FILE *out, isa_counts *c) {
  vm_state *in = calloc(k->n ? k->n : 1, sizeof *in);
  const char *why = "out of memory";
  if (!in || !solve(k, in, &why)) {
    for (size_t at = 0; at < k->n; at++)
      if (k->insts[at].kind == ISA_LDS_READ)
        c->undecided++;
    fprintf(out, "%s: warning: %s: cannot decide any LDS read: %s [IsaCheck.Undecided]\n", where, k->name, why);
    free(in);
    return;
  }
  for (size_t at = 0; at < k->n; at++) {
    const isa_inst *i = &k->insts[at];
    if (i->kind == ISA_LDS_READ)
      report_read(k, at, &in[at], where, verbose, out, c);
    if (i->kind == ISA_WAIT && in[at].reached) {
      vm_state after = in[at];
      transfer(&after, i);
      if (after.split && (in[at].fly & ~(i->vmcnt > TOP ? ~0ull : (1ull << i->vmcnt) - 1))) {
        c->violated++;
        fprintf(out, "%s: error: %s+0x%" PRIx64 ": violated: %s completes part of a batch of LDS-direct loads and leaves the rest in flight on every path [IsaCheck.Violated]\n",
                where, k->name, i->addr, i->text);
      }
    }
  }
  free(in);
}
