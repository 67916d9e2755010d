/* --lower-async-queues: AsyncCommit/AsyncWait of NonSemantic.Gac.AsyncPipeline
 * to core SPIR-V for OpenCL (docs/ASYNC_PIPELINE.md).
 *
 * Per function and queue: a ring of K events and two counters, c (groups
 * committed) and w (groups waited for), all Function variables; every
 * work-item keeps the same values, since the instructions are met by the
 * whole work-group with the same operands.
 *   commit(q, e): if c - w == K, wait for group w first (its slot is needed;
 *                 waiting early is always allowed); ring[c % K] = e; c += 1.
 *   wait(q, N):   OpGroupWaitEvents on ring slots [w, c - N) (mod K: two
 *                 runs at most); w = max(w, c - N). Exactly the groups
 *                 older than the N most recent are waited for, N constant
 *                 or not.
 * K is one more than the largest constant N of the function's waits (at
 * least 2, at most 16), or 8 when an N is a runtime value. The cooperative
 * copy lowering then puts its barrier after each OpGroupWaitEvents. */
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_pipeline.h"
#include "gac/passes.h"
#include "gac/validate.h"
#include "lower_util.h"
#include "lowering.h"

enum { MAX_QUEUES = 32, MIN_RING = 2, MAX_RING = 16, RUNTIME_RING = 8 };

typedef struct queue_state {
  uint32_t number;
  uint32_t ring, committed, waited; /* Function variables */
} queue_state;

typedef struct function_lowering {
  gac_lowering *L;
  gac_function *f;
  uint32_t ring_size;      /* K, a size-type constant */
  uint64_t ring_size_value;
  uint32_t event_ptr, size_ptr, uint32, num_events;
  queue_state queues[MAX_QUEUES];
  unsigned num_queues;
} function_lowering;

static uint32_t load(function_lowering *F, gac_builder *b, uint32_t var) {
  return gac_build_ops(b, SpvOpLoad, F->L->size_type, GAC_NEW_ID, GAC_ID(var))->result_id;
}

static void store(gac_builder *b, uint32_t var, uint32_t value) {
  gac_build_ops(b, SpvOpStore, 0, 0, GAC_ID(var), GAC_ID(value));
}

/* The ring slot of group g: a pointer to ring[g % K]. */
static uint32_t slot(function_lowering *F, gac_builder *b, queue_state *q, uint32_t g) {
  uint32_t index = lower_op2(b, SpvOpUMod, F->L->size_type, g, F->ring_size);
  return gac_build_ops(b, SpvOpAccessChain, F->event_ptr, GAC_NEW_ID, GAC_ID(q->ring), GAC_ID(index))->result_id;
}

/* The state of queue `number`, its variables made at the top of the function. */
static queue_state *queue(function_lowering *F, uint32_t number) {
  for (unsigned i = 0; i < F->num_queues; i++)
    if (F->queues[i].number == number)
      return &F->queues[i];
  gac_module *m = F->L->m;
  queue_state *q = &F->queues[F->num_queues++];
  q->number = number;
  gac_inst *first = gac_function_after_variables(F->f);
  gac_builder b = first ? gac_builder_before(m, first) : gac_builder_at_end(m, &F->f->first_block->insts);
  uint32_t array_ptr = gac_type_pointer(m, SpvStorageClassFunction, gac_type_array(m, F->L->event_type, F->ring_size));
  q->ring = gac_build_ops(&b, SpvOpVariable, array_ptr, GAC_NEW_ID, GAC_LIT(SpvStorageClassFunction))->result_id;
  q->committed = gac_build_ops(&b, SpvOpVariable, F->size_ptr, GAC_NEW_ID, GAC_LIT(SpvStorageClassFunction))->result_id;
  q->waited = gac_build_ops(&b, SpvOpVariable, F->size_ptr, GAC_NEW_ID, GAC_LIT(SpvStorageClassFunction))->result_id;
  /* Zeroed by stores, not initialisers: llvm-spirv-15 makes an initialised
   * Function variable a module-scope global, which every work-item and
   * work-group would then share. */
  store(&b, q->committed, F->L->zero);
  store(&b, q->waited, F->L->zero);
  return q;
}

/* commit(q, e): when the ring is full, group w is waited for first; as one
 * OpGroupWaitEvents of 0 or 1 events, so there is no branch (a barrier under
 * a branch costs PoCL much compile time). */
static void lower_commit(function_lowering *F, gac_inst *inst, queue_state *q) {
  gac_module *m = F->L->m;
  gac_lowering *L = F->L;
  uint32_t event = inst->words[GAC_PIPELINE_VALUE_WORD];
  gac_builder b = gac_builder_before(m, inst);
  uint32_t c = load(F, &b, q->committed), w = load(F, &b, q->waited);
  uint32_t full = lower_op2(&b, SpvOpIEqual, L->bool_type, lower_op2(&b, SpvOpISub, L->size_type, c, w), F->ring_size);
  uint32_t u32 = gac_type_int(m, 32, 0);
  uint32_t num = gac_build_ops(&b, SpvOpSelect, u32, GAC_NEW_ID, GAC_ID(full), GAC_ID(gac_constant_int(m, u32, 1)),
                               GAC_ID(gac_constant_int(m, u32, 0)))->result_id;
  gac_build_ops(&b, SpvOpGroupWaitEvents, 0, 0, GAC_ID(L->scope_workgroup), GAC_ID(num), GAC_ID(slot(F, &b, q, w)));
  store(&b, q->waited, gac_build_ops(&b, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(full),
                                     GAC_ID(lower_add(L, &b, w, L->one)), GAC_ID(w))->result_id);
  gac_build_ops(&b, SpvOpStore, 0, 0, GAC_ID(slot(F, &b, q, c)), GAC_ID(event));
  store(&b, q->committed, lower_add(L, &b, c, L->one));
  gac_inst_remove(m, inst);
}

/* wait(q, N): the groups [w, c - N) are at most K contiguous ring slots,
 * so at most two runs (before and after the wrap), each one
 * OpGroupWaitEvents on an array of events: no loop, and so one barrier per
 * run in the cooperative lowering (PoCL compiles barriers in loops slowly). */
static void lower_wait(function_lowering *F, gac_inst *inst, queue_state *q) {
  gac_module *m = F->L->m;
  gac_lowering *L = F->L;
  uint32_t n = inst->words[GAC_PIPELINE_VALUE_WORD];
  gac_builder b = gac_builder_before(m, inst);
  /* In Flight in the size type. */
  gac_inst *n_type = gac_def(m, gac_def(m, n)->type_id);
  if (n_type->words[2] != gac_def(m, L->size_type)->words[2])
    n = gac_build_ops(&b, SpvOpUConvert, L->size_type, GAC_NEW_ID, GAC_ID(n))->result_id;
  uint32_t c = load(F, &b, q->committed), w = load(F, &b, q->waited);
  uint32_t some_older = lower_op2(&b, SpvOpUGreaterThan, L->bool_type, c, n);
  uint32_t target = gac_build_ops(&b, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(some_older),
                                  GAC_ID(lower_op2(&b, SpvOpISub, L->size_type, c, n)), GAC_ID(L->zero))->result_id;
  uint32_t later = lower_op2(&b, SpvOpUGreaterThan, L->bool_type, target, w);
  uint32_t count = gac_build_ops(&b, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(later),
                                 GAC_ID(lower_op2(&b, SpvOpISub, L->size_type, target, w)), GAC_ID(L->zero))->result_id;
  uint32_t start = lower_op2(&b, SpvOpUMod, L->size_type, w, F->ring_size);
  uint32_t room = lower_op2(&b, SpvOpISub, L->size_type, F->ring_size, start);
  uint32_t fits = lower_op2(&b, SpvOpULessThanEqual, L->bool_type, count, room);
  uint32_t first = gac_build_ops(&b, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(fits), GAC_ID(count),
                                 GAC_ID(room))->result_id;
  uint32_t second = lower_op2(&b, SpvOpISub, L->size_type, count, first);
  uint32_t u32 = gac_type_int(m, 32, 0);
  uint32_t runs[2][2] = {{start, first}, {L->zero, second}};
  for (unsigned r = 0; r < 2; r++) {
    uint32_t num = gac_build_ops(&b, SpvOpUConvert, u32, GAC_NEW_ID, GAC_ID(runs[r][1]))->result_id;
    uint32_t events = gac_build_ops(&b, SpvOpAccessChain, F->event_ptr, GAC_NEW_ID, GAC_ID(q->ring),
                                    GAC_ID(runs[r][0]))->result_id;
    gac_build_ops(&b, SpvOpGroupWaitEvents, 0, 0, GAC_ID(L->scope_workgroup), GAC_ID(num), GAC_ID(events));
  }
  store(&b, q->waited, gac_build_ops(&b, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(later), GAC_ID(target),
                                     GAC_ID(w))->result_id);
  gac_inst_remove(m, inst);
}

static bool lower_function(gac_lowering *L, gac_function *f, gac_diag *diag) {
  gac_module *m = L->m;
  size_t count = 0;
  uint64_t largest = 0;
  bool runtime = false;
  gac_foreach_block(b, f) {
    gac_foreach_inst(i, &b->insts) {
      uint32_t op = gac_async_pipeline_op_of(m, i);
      if (op != GAC_ASYNC_COMMIT && op != GAC_ASYNC_WAIT)
        continue; /* a copy fence is the copy lowering's */
      count++;
      uint64_t n;
      if (op == GAC_ASYNC_WAIT && gac_constant_value(L->m, i->words[GAC_PIPELINE_VALUE_WORD], &n))
        largest = n > largest ? n : largest;
      else if (op == GAC_ASYNC_WAIT)
        runtime = true;
    }
  }
  if (count == 0)
    return true;
  function_lowering F = {.L = L, .f = f};
  F.ring_size_value = largest + 1 < MIN_RING ? MIN_RING : largest + 1 > MAX_RING ? MAX_RING : largest + 1;
  if (runtime && F.ring_size_value < RUNTIME_RING)
    F.ring_size_value = RUNTIME_RING;
  F.ring_size = gac_constant_int(m, L->size_type, F.ring_size_value);
  F.event_ptr = gac_type_pointer(m, SpvStorageClassFunction, L->event_type);
  F.size_ptr = gac_type_pointer(m, SpvStorageClassFunction, L->size_type);
  F.num_events = gac_constant_int(m, gac_type_int(m, 32, 0), 1);
  gac_inst **insts = malloc(count * sizeof *insts);
  size_t n = 0;
  gac_foreach_block(b, f) {
    gac_foreach_inst(i, &b->insts) {
      uint32_t op = gac_async_pipeline_op_of(m, i);
      if (op == GAC_ASYNC_COMMIT || op == GAC_ASYNC_WAIT)
        insts[n++] = i;
    }
  }
  bool ok = true;
  for (size_t k = 0; k < n && ok; k++) {
    gac_inst *i = insts[k];
    uint64_t number;
    if (!gac_constant_value(L->m, i->words[GAC_PIPELINE_QUEUE_WORD], &number) || F.num_queues == MAX_QUEUES) {
      gac_diag_add(diag, GAC_ERROR, i->offset, 0, "lower.queue", "cannot lower: the queue is not a constant, or "
                   "the function uses more than %d queues (run --validate)", MAX_QUEUES);
      ok = false;
      break;
    }
    queue_state *q = queue(&F, (uint32_t)number);
    if (i->words[GAC_PIPELINE_OP_WORD] == GAC_ASYNC_COMMIT)
      lower_commit(&F, i, q);
    else
      lower_wait(&F, i, q);
  }
  free(insts);
  return ok;
}

bool gac_lower_async_queues(gac_module *m, const char *arg, gac_diag *diag) {
  (void)arg;
  if (!gac_find_ext_inst_import(m, GAC_ASYNC_PIPELINE_SET))
    return false;
  if (!gac_validate_async_pipeline(m, diag))
    return false; /* lowering what breaks the rules would give a wrong module */
  lower_drop_pipeline_markers(m);
  gac_lowering L;
  gac_lowering_init(&L, m);
  bool ok = true;
  gac_foreach_function(f, m) ok = lower_function(&L, f, diag) && ok;
  gac_remove_unused_imports(m, NULL, diag);
  return ok;
}
