/* The OpenCL target (--lower-async-copies=opencl[,strategy=S][,device=D]
 * [,helpers=H]): the shared copy lowering (lower_async_copies.c) in the
 * way the strategy names.
 *
 * lines        the driver's own copies: one core OpGroupAsyncCopy per line,
 *              queues as rings of events, waits stay OpGroupWaitEvents.
 * cooperative, leader, serial, auto
 *              the work-items move every copy themselves, the module's core
 *              OpGroupAsyncCopy (OpenCL's 1D copies) included, so a copy is
 *              done when they return from it: its result is its Event
 *              operand, and every wait, OpGroupWaitEvents or a queue's, is
 *              only a work-group barrier that makes the other work-items'
 *              stores visible. Nothing of the driver's copies is left: no
 *              empty copy for an event, no call of wait_group_events. PoCL
 *              5.0's kernel library lacks that builtin (a kernel calling it
 *              does not load), and PoCL 3.1 miscompiled some kernels shaped
 *              around such waits (conformance/random/README.md).
 * auto         per copy, cooperative or leader, as a device profile
 *              (device=pocl-cpu, the default, or gpu) and the copy's shape
 *              decide (copy_strategy.c: the rule and its measurements).
 * late         a testing strategy: copies land only at the waits that cover
 *              them, their destinations poisoned meanwhile (lower_late.c).
 * units=one   (cooperative, leader, auto) every copy one loop of units of one
 *              width known when it is built, no branch on the width at run
 *              time: for PoCL 5.0 (unit_widths below says why).
 * events=generic (lines): each wait of the driver's copies takes its
 *              events list as a generic pointer: for PoCL 5.0, whose
 *              library lacks the private one (pocl_generic_events.c).
 * helpers=auto|always|never (lines, cooperative, serial, leader, auto):
 *              the copies of one class call one helper function per module
 *              instead of an inlined loop each (copy_helpers.c); auto
 *              inlines a copy alone in its class.
 *
 * device=pocl-cpu (the default) also clamps every load of the local size to
 * [1, 2^32 - 1], which changes no value and keeps PoCL 3.1 from a
 * miscompile (pocl_local_size.c).
 *
 * The default is cooperative: it was faster than lines on PoCL over most
 * shapes of bench/pocl (docs/LOWERING.md), and it is the one that spreads
 * the work on a device whose work-items run in parallel. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "copy_fences.h"
#include "lowering.h"
#include "lower_target.h"
#include "opencl_lowering.h"

typedef struct opencl_lowering {
  gac_opencl_options options;
  copy_helpers *helpers;
  bool fenced; /* the module has copy fences (which order copies: copy_fences.h) */
} opencl_lowering;

static opencl_lowering *state(const gac_lowering *L) { return (opencl_lowering *)L->target_state; }

/* Lines for the device: on PoCL's CPU device the first line's event is
 * handed to the other lines' copies, none carried round their loop (PoCL
 * 3.1 aborts on that with its default work-group method:
 * conformance/random/known/pocl31-line-loop-event.cl). */
static lower_copy_way lines_for(gac_opencl_device device) {
  return device == GAC_OPENCL_DEVICE_POCL_CPU ? LOWER_LINES_SHARED_EVENT : LOWER_LINES;
}

static lower_copy_way way_of(copy_kind kind, gac_opencl_device device) {
  return kind == COPY_KIND_LINES    ? lines_for(device)
         : kind == COPY_KIND_LEADER ? LOWER_LEADER
                                    : LOWER_COOPERATIVE;
}

/* Whether the copies are lines, the driver's own: then a wait on their
 * events completes them, and only that. With a copy fence, which is a
 * barrier here, they are cooperative instead. */
static bool driver_lines(const gac_lowering *L) {
  return state(L)->options.strategy == GAC_OPENCL_LINES && !state(L)->fenced;
}

/* The way copy p goes: auto's choice for its shape, or the strategy's. */
static lower_copy_way way(gac_lowering *L, const lower_copy_plan *p) {
  const gac_opencl_options *o = &state(L)->options;
  switch (o->strategy) {
  case GAC_OPENCL_AUTO: return way_of(copy_strategy_choose(o->device, p->line_bytes_known), o->device);
  case GAC_OPENCL_LINES: return driver_lines(L) ? lines_for(o->device) : LOWER_COOPERATIVE;
  case GAC_OPENCL_SERIAL: return LOWER_SERIAL;
  case GAC_OPENCL_LEADER: return LOWER_LEADER;
  default: return LOWER_COOPERATIVE;
  }
}

/* A copy helper's body (copy_helpers.c): the copy as it would be inlined. */
static uint32_t helper_body(gac_lowering *L, const gac_async_copy *k, gac_block *entry, gac_block *exit, void *user) {
  (void)user;
  lower_copy_plan p = {.k = *k, .in_helper = true};
  gac_builder b = gac_builder_at_end(L->m, &entry->insts);
  lower_plan_copy(L, &b, &p);
  return lower_copy(L, &p, entry, exit, way(L, &p));
}

/* Copies of a class through one helper: counted before any is lowered. */
static void begin_copies(gac_lowering *L, gac_inst *const *copies, size_t n) {
  opencl_lowering *O = state(L);
  O->fenced = lower_module_has_fences(L->m);
  if (O->options.helpers == GAC_OPENCL_HELPERS_NEVER)
    return;
  O->helpers = copy_helpers_create(L, O->options.helpers, helper_body, NULL);
  for (size_t c = 0; O->helpers && c < n; c++) {
    gac_async_copy k; /* a core copy as its 2D copy (its errors are reported when it is lowered) */
    if (copies[c]->opcode == SpvOpGroupAsyncCopy ? lower_core_copy_as_2d(L, copies[c], &k, NULL)
                                                 : gac_async_copy_decode(L->m, copies[c], &k))
      copy_helpers_count(O->helpers, &k);
  }
}

static bool copy_elsewhere(gac_lowering *L, gac_inst *copy, const gac_async_copy *k) {
  return state(L)->helpers && copy_helpers_call(state(L)->helpers, copy, k);
}

/* After the copies. Where the waits stay the driver's OpGroupWaitEvents
 * (lines) and some copies are not the driver's (lines made cooperative by a
 * fence), a barrier after each; the synchronous target's waits became
 * barriers already. Then a barrier that ends a block and one that starts
 * the block it branches to are one (fold_barriers.c). */
static bool finish(gac_lowering *L, lower_outcome outcome, gac_diag *diag) {
  (void)diag;
  if (outcome == LOWER_NO_COPIES)
    return true;
  copy_helpers_destroy(state(L)->helpers);
  if (outcome == LOWER_COPIES_DONE && !L->target->waits && !driver_lines(L))
    lower_barrier_after_waits(L);
  if (outcome == LOWER_COPIES_DONE)
    opencl_fold_barriers(L->m);
  return true;
}

static const lower_target lines_target = {
    .way = way,
    .begin_copies = begin_copies,
    .copy_elsewhere = copy_elsewhere,
    .finish = finish,
};

/* A wait of synchronous copies: only its barrier, folded into a barrier
 * right before or after it (the kernel's own, or the one of the wait
 * before in a run of waits: a queue's wait, a list). Two barriers with
 * nothing between them are one, and an empty region between two barriers
 * is a shape a work-group compiler need not meet. b is before the wait,
 * which goes after this. */
static void wait_barrier(gac_lowering *L, gac_builder *b) {
  gac_inst *wait = b->before;
  lower_workgroup_barrier(L, b);
  gac_inst *mine = wait ? wait->prev : NULL;
  if (mine && (opencl_merge_barrier(L->m, mine, mine->prev) || opencl_merge_barrier(L->m, mine, wait->next)))
    gac_inst_remove(L->m, mine);
}

static const lower_wait_emitter synchronous_waits = {.barrier = wait_barrier};

/* units=one: the copy's units all of one width, known when it is built,
 * so one loop and no branch to a loop per width: the element size where
 * it is 4, 8 or 16 bytes and divides the line (OpenCL aligns every element
 * to its size), else single bytes. PoCL 5.0 aborts in its work-group
 * compiler on an if/else of two work-item loops inside a loop with barriers
 * (conformance/random/known/pocl50-branch-loops-abort.cl), which the
 * run-time choice of width makes; the cost is narrower units where the
 * addresses would have allowed wider ones. */
static const unsigned *unit_widths(gac_lowering *L, const lower_copy_plan *p) {
  static const unsigned one[][4] = {{16}, {8}, {4}, {1}};
  /* serial moves bytes alone already (its loop is the last width's) */
  if (!state(L)->options.one_unit_loop || state(L)->options.strategy == GAC_OPENCL_SERIAL)
    return NULL;
  uint64_t bpe = 0;
  if (gac_constant_value(L->m, p->k.num_bytes_per_element, &bpe) && (bpe == 16 || bpe == 8 || bpe == 4) &&
      (!p->line_bytes_known || p->line_bytes_known % bpe == 0))
    return one[bpe == 16 ? 0 : bpe == 8 ? 1 : 2];
  return one[3];
}

static const lower_target synchronous_target = {
    .waits = &synchronous_waits,
    .unit_widths = unit_widths,
    .core_copies = true,
    .events_dead = true,
    .way = way,
    .begin_copies = begin_copies,
    .copy_elsewhere = copy_elsewhere,
    .finish = finish,
};

static bool lower_late_module(gac_module *m, void *unused, gac_diag *diag) {
  (void)unused;
  if (!gac_lower_late(m, diag))
    return false;
  opencl_fold_barriers(m); /* the runtime's waits start with a barrier */
  return true;
}

/* late: the whole module its own way (lower_late.c). */
static const lower_target late_target = {.lower_module = lower_late_module};

bool lower_opencl_copies(gac_module *m, const void *options, gac_diag *diag) {
  const gac_opencl_options *o = options;
  opencl_lowering O = {.options = *o};
  const lower_target *t = o->strategy == GAC_OPENCL_LATE    ? &late_target
                          : o->strategy == GAC_OPENCL_LINES ? &lines_target
                                                         : &synchronous_target;
  bool ok = lower_async_copies_for(m, t, &O, diag);
  /* For PoCL's CPU device, the local size as PoCL 3.1 needs it. */
  if (ok && o->device == GAC_OPENCL_DEVICE_POCL_CPU)
    opencl_clamp_local_size(m);
  if (ok && o->generic_events)
    opencl_generic_wait_events(m);
  return ok;
}

/* The argument's words: each sets one field. The first word of each
 * field is also how gac_opencl_options_format spells that field. */
static const struct {
  const char *text;
  int strategy, helpers, device; /* -1: not this option */
  int flag;                      /* the offset of the bool it sets in gac_opencl_options, or -1 */
} options[] = {
    {"strategy=lines", GAC_OPENCL_LINES, -1, -1, -1},
    {"strategy=cooperative", GAC_OPENCL_COOPERATIVE, -1, -1, -1},
    {"strategy=serial", GAC_OPENCL_SERIAL, -1, -1, -1},
    {"strategy=late", GAC_OPENCL_LATE, -1, -1, -1},
    {"strategy=leader", GAC_OPENCL_LEADER, -1, -1, -1},
    {"strategy=auto", GAC_OPENCL_AUTO, -1, -1, -1},
    {"device=pocl-cpu", -1, -1, GAC_OPENCL_DEVICE_POCL_CPU, -1},
    {"device=gpu", -1, -1, GAC_OPENCL_DEVICE_GPU, -1},
    {"helpers=auto", -1, GAC_OPENCL_HELPERS_AUTO, -1, -1},
    {"helpers=always", -1, GAC_OPENCL_HELPERS_ALWAYS, -1, -1},
    {"helpers=never", -1, GAC_OPENCL_HELPERS_NEVER, -1, -1},
    {"units=one", -1, -1, -1, offsetof(gac_opencl_options, one_unit_loop)},
    {"events=generic", -1, -1, -1, offsetof(gac_opencl_options, generic_events)},
};
enum { NUM_OPTIONS = sizeof options / sizeof *options };

gac_opencl_options gac_opencl_options_default(void) {
  return (gac_opencl_options){
      .strategy = GAC_OPENCL_COOPERATIVE, .device = GAC_OPENCL_DEVICE_POCL_CPU, .helpers = GAC_OPENCL_HELPERS_AUTO};
}

bool gac_opencl_options_parse(const char *arg, gac_opencl_options *o) {
  *o = gac_opencl_options_default();
  if (!arg)
    return true;
  bool ok = strncmp(arg, "opencl", 6) == 0 && (arg[6] == 0 || arg[6] == ',');
  for (const char *rest = arg + 6; ok && *rest == ',';) {
    rest++;
    size_t len = strcspn(rest, ","), i = 0;
    while (i < NUM_OPTIONS && (strlen(options[i].text) != len || strncmp(options[i].text, rest, len)))
      i++;
    ok = i < NUM_OPTIONS;
    if (ok && options[i].strategy >= 0)
      o->strategy = (gac_opencl_strategy)options[i].strategy;
    if (ok && options[i].helpers >= 0)
      o->helpers = (gac_opencl_helpers)options[i].helpers;
    if (ok && options[i].device >= 0)
      o->device = (gac_opencl_device)options[i].device;
    if (ok && options[i].flag >= 0)
      *(bool *)((char *)o + options[i].flag) = true;
    rest += len;
  }
  return ok;
}

int gac_opencl_options_format(const gac_opencl_options *o, char *buf, size_t len) {
  const char *words[NUM_OPTIONS + 1] = {"opencl"};
  size_t n = 1;
  for (size_t i = 0; i < NUM_OPTIONS; i++) {
    bool set = options[i].strategy >= 0   ? (int)o->strategy == options[i].strategy
               : options[i].device >= 0   ? (int)o->device == options[i].device
               : options[i].helpers >= 0  ? (int)o->helpers == options[i].helpers
                                          : *(const bool *)((const char *)o + options[i].flag);
    if (set)
      words[n++] = options[i].text;
  }
  int total = 0;
  for (size_t i = 0; i < n; i++) {
    int w = snprintf(buf && (size_t)total < len ? buf + total : NULL, buf && (size_t)total < len ? len - (size_t)total : 0,
                     "%s%s", i ? "," : "", words[i]);
    total += w;
  }
  return total;
}

bool gac_lower_opencl(gac_module *m, const gac_opencl_options *o, gac_diag *diag) {
  return gac_lower_async_copies_with(m, lower_opencl_copies, o, diag);
}
