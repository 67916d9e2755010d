/* The rules of NonSemantic.Gac.AsyncPipeline (docs/ASYNC_PIPELINE.md). Where the
 * annotations may stand in a loop is checked by --pipeline-loops, which needs
 * the control-flow graph. Each instruction's operands are checked from one
 * table (operand_rules); the revision 3 handshakes are then checked together,
 * per function (check_warp_function), as the PTX path will lower them. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/known.h"
#include "gac/builder.h"
#include "internal.h"

uint32_t gac_async_pipeline_op_of(const gac_module *m, const gac_inst *inst) {
  if (inst->opcode != SpvOpExtInst || inst->num_words <= GAC_PIPELINE_OP_WORD)
    return 0;
  const gac_inst *set = gac_def(m, inst->words[3]);
  const char *name = set && set->opcode == SpvOpExtInstImport ? gac_inst_string(set, 1) : NULL;
  return name && strcmp(name, GAC_ASYNC_PIPELINE_SET) == 0 ? inst->words[GAC_PIPELINE_OP_WORD] : 0;
}

uint64_t gac_type_bytes(const gac_module *m, uint32_t type) {
  uint64_t size;
  return gac_type_size(m, type, GAC_SIZE_OBJECT, &size) ? size : 0;
}

typedef struct checker {
  const gac_module *m;
  gac_diag *diag;
  bool ok;
} checker;

extern const gac_async_copy_info gac_async_pipeline_infos[];
extern const unsigned gac_async_pipeline_num_infos;

static const gac_async_copy_info *info_of(uint32_t op) {
  return gac_ext_info_by_number(gac_async_pipeline_infos, gac_async_pipeline_num_infos, op);
}

/* "PipeBuffer", "GroupAsyncCopy2D2D", "OpLoad": how diagnostics name inst. */
static const char *inst_name(const gac_module *m, const gac_inst *inst) {
  const gac_async_copy_info *info = NULL;
  if (gac_async_pipeline_op_of(m, inst))
    info = info_of(inst->words[GAC_PIPELINE_OP_WORD]);
  else if (gac_is_async_copy_inst(m, inst) && inst->num_words > 4)
    info = gac_async_copy_info_for(inst->words[4]);
  return info ? info->name : gac_opcode_name(inst->opcode);
}

static void report(checker *c, const gac_inst *inst, const char *rule, const char *fmt, ...) GAC_PRINTF(4, 5);
static void report(checker *c, const gac_inst *inst, const char *rule, const char *fmt, ...) {
  char text[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  gac_diag_add(c->diag, GAC_ERROR, inst->offset, inst->result_id, rule, "%s: %s", inst_name(c->m, inst), text);
  c->ok = false;
}

/* The value of operand word w if it is an OpConstant of a 32-bit OpTypeInt. */
static bool constant_operand(const gac_module *m, const gac_inst *inst, unsigned w, uint32_t *value) {
  if (w >= inst->num_words)
    return false;
  const gac_inst *def = gac_def(m, inst->words[w]);
  const gac_inst *t = gac_value_type(m, inst->words[w]);
  if (!def || def->opcode != SpvOpConstant || !t || t->opcode != SpvOpTypeInt || t->words[2] != 32)
    return false;
  *value = def->words[3];
  return true;
}

/* ---- Operands, one table ------------------------------------------------ */

/* What an operand must be; the rule it breaks if it is not. */
typedef enum operand_kind { ANY, CONSTANT, INTEGER, EVENT, PIPE, MUTEX, BUFFER } operand_kind;

static const char *const kind_text[] = {
    [CONSTANT] = "an OpConstant of a 32-bit OpTypeInt", [INTEGER] = "an integer value",
    [EVENT] = "an OpTypeEvent value", [PIPE] = "the result of a Pipe", [MUTEX] = "the result of a Mutex",
    [BUFFER] = "a Workgroup OpVariable of an OpTypeArray (of the pipe's Depth slots)"};

typedef struct operand_rule {
  uint8_t kind;
  const char *rule;
  /* A constant's range: min to max, a multiple of `multiple` when not 0
   * (no range when max is 0); range_rule is broken outside it. */
  uint32_t min, max, multiple;
  const char *range_rule, *why;
} operand_rule;

#define RULE(name) "AsyncPipeline." name
#define ANNOTATION {CONSTANT, RULE("AnnotationConstant")}
#define STAGE {CONSTANT, RULE("AnnotationConstant"), 0, GAC_PIPELINE_MAX_STAGES - 1, 0, RULE("StageRange"), \
               " (a stage is a bit of PipelineLoop's Async Stages)"}
#define WARPS(rule) {CONSTANT, RULE("AnnotationConstant"), 32, 1024, 32, rule, " (whole warps of a work-group)"}
#define PIPE_OPERAND {PIPE, RULE("PipeHandshake")}
#define ITERATION {INTEGER, RULE("IterationType")}

static const operand_rule operand_rules[][4] = {
    [GAC_ASYNC_COMMIT] = {{CONSTANT, RULE("Queue")}, {EVENT, RULE("EventType")}},
    [GAC_ASYNC_WAIT] = {{CONSTANT, RULE("Queue")}, {INTEGER, RULE("InFlightType")}},
    [GAC_PIPELINE_LOOP] = {ANNOTATION},
    [GAC_PIPELINE_STATEMENT] = {STAGE, ANNOTATION},
    [GAC_WARP_SPECIALIZE] = {WARPS(RULE("WarpSpecialize")), WARPS(RULE("WarpSpecialize"))},
    [GAC_PIPE] = {{CONSTANT, RULE("AnnotationConstant"), 2, GAC_PIPE_MAX_DEPTH, 0, RULE("PipeDepth"),
                   " (a ring of two or more slots, two mbarriers each)"},
                  STAGE, ANNOTATION},
    [GAC_PIPE_BUFFER] = {{PIPE, RULE("PipeBuffer")}, {BUFFER, RULE("PipeBuffer")}},
    [GAC_PIPE_PRODUCER_ACQUIRE] = {PIPE_OPERAND, ITERATION},
    [GAC_PIPE_PRODUCER_COMMIT] = {PIPE_OPERAND, ITERATION, {EVENT, RULE("EventType")}},
    [GAC_PIPE_CONSUMER_WAIT] = {PIPE_OPERAND, ITERATION},
    [GAC_PIPE_CONSUMER_RELEASE] = {PIPE_OPERAND, ITERATION},
    [GAC_MUTEX] = {{CONSTANT, RULE("AnnotationConstant"), 1, GAC_NAMED_BARRIERS - 1, 0, RULE("MutexBarrier"),
                    " (named barrier 0 is barrier()'s)"},
                   WARPS(RULE("MutexBarrier")), STAGE, ANNOTATION},
    [GAC_MUTEX_SYNC] = {{MUTEX, RULE("MutexBarrier")}},
    [GAC_ASYNC_COPY_FENCE] = {{CONSTANT, RULE("FenceFlags"), GAC_FENCE_LOCAL, GAC_FENCE_LOCAL | GAC_FENCE_GLOBAL, 0,
                               RULE("FenceFlags"), " (CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2, or both)"}},
};
/* A row per instruction of the header, which tests/grammar_check.py keeps
 * equal to the grammar. */
_Static_assert(sizeof operand_rules / sizeof operand_rules[0] == GAC_ASYNC_COPY_FENCE + 1, "a row per instruction");

/* The set's instruction `op` that id names, or NULL. */
static const gac_inst *def_of_op(const gac_module *m, uint32_t id, uint32_t op) {
  const gac_inst *d = gac_def(m, id);
  return d && gac_async_pipeline_op_of(m, d) == op ? d : NULL;
}

/* A constant operand within its rule's range (false if not a constant or out of range). */
static bool in_range(const operand_rule *r, uint32_t v) {
  return !r->max || (v >= r->min && v <= r->max && (!r->multiple || v % r->multiple == 0));
}

/* A pipe's depth, 0 if its Depth operand is not a valid constant. */
static uint32_t pipe_depth(const gac_module *m, const gac_inst *pipe) {
  uint32_t d;
  return pipe && constant_operand(m, pipe, GAC_PIPE_DEPTH_WORD, &d) &&
                 in_range(&operand_rules[GAC_PIPE][0], d) ? d : 0;
}

/* The number of slots of a Workgroup OpVariable of an OpTypeArray with a
 * constant length, its slot type in *slot; 0 for anything else. */
static uint32_t buffer_slots(const gac_module *m, uint32_t var, uint32_t *slot) {
  const gac_inst *v = gac_def(m, var);
  const gac_inst *ptr = v && v->opcode == SpvOpVariable && v->words[3] == SpvStorageClassWorkgroup
                            ? gac_def(m, v->type_id) : NULL;
  const gac_inst *array = ptr ? gac_def(m, ptr->words[3]) : NULL;
  const gac_inst *len = array && array->opcode == SpvOpTypeArray ? gac_def(m, array->words[3]) : NULL;
  if (!len || len->opcode != SpvOpConstant)
    return 0;
  *slot = array->words[2];
  return len->words[3];
}

static void check_operand(checker *c, const gac_inst *inst, uint32_t op, unsigned k) {
  const operand_rule *r = &operand_rules[op][k];
  const char *name = info_of(op)->operands[k].name;
  uint32_t id = inst->words[5 + k], v = 0, slot;
  const gac_inst *t = gac_value_type(c->m, id);
  bool ok = true;
  switch ((operand_kind)r->kind) {
  case ANY: return;
  case CONSTANT: ok = constant_operand(c->m, inst, 5 + k, &v); break;
  case INTEGER: ok = t && t->opcode == SpvOpTypeInt; break;
  case EVENT: ok = t && t->opcode == SpvOpTypeEvent; break;
  case PIPE: ok = def_of_op(c->m, id, GAC_PIPE) != NULL; break;
  case MUTEX: ok = def_of_op(c->m, id, GAC_MUTEX) != NULL; break;
  case BUFFER: ok = (v = buffer_slots(c->m, id, &slot)) != 0; break;
  }
  if (!ok) {
    report(c, inst, r->rule, "operand '%s' (%%%u) must be %s", name, id, kind_text[r->kind]);
  } else if (r->kind == CONSTANT && !in_range(r, v)) {
    char multiple[40] = "";
    if (r->multiple)
      snprintf(multiple, sizeof multiple, "a multiple of %u from ", r->multiple);
    report(c, inst, r->range_rule, "'%s' is %u; it must be %s%u to %u%s", name, v, multiple, r->min, r->max, r->why);
  } else if (r->kind == BUFFER) {
    const gac_inst *pipe = def_of_op(c->m, inst->words[GAC_PIPE_OF_WORD], GAC_PIPE);
    uint32_t depth = pipe_depth(c->m, pipe);
    if (depth && v != depth)
      report(c, inst, r->rule, "operand '%s' (%%%u) is an array of %u slots, but its Pipe (%%%u) has depth %u",
             name, id, v, pipe->result_id, depth);
  }
}

/* "1 AsyncCommit, 2 AsyncWait, ...", from the grammar's table. */
static void list_instructions(char *out, size_t size) {
  size_t n = 0;
  out[0] = '\0';
  for (unsigned k = 0; k < gac_async_pipeline_num_infos && n < size; k++)
    n += (size_t)snprintf(out + n, size - n, "%s%u %s", k ? ", " : "", (unsigned)gac_async_pipeline_infos[k].op,
                          gac_async_pipeline_infos[k].name);
}

/* The instruction's own rules; true if it is an instruction of the set with
 * the right number of operands. */
static bool check_inst(checker *c, const gac_inst *inst) {
  uint32_t op = gac_async_pipeline_op_of(c->m, inst);
  if (!op)
    return false;
  const gac_async_copy_info *info = info_of(op);
  if (!info) {
    char known[300];
    list_instructions(known, sizeof known);
    report(c, inst, "AsyncPipeline.InstructionNumber", "instruction %u is not in NonSemantic.Gac.AsyncPipeline (%s)",
           op, known);
    return false;
  }
  if (inst->num_words != 5 + info->num_operands) {
    report(c, inst, "AsyncPipeline.OperandCount", "takes %u operands after the instruction number, but has %d",
           info->num_operands, (int)inst->num_words - 5);
    return false;
  }
  const gac_inst *rt = gac_def(c->m, inst->type_id);
  if (!rt || rt->opcode != SpvOpTypeVoid)
    report(c, inst, "AsyncPipeline.ResultType", "'Result Type' must be OpTypeVoid");
  if (!gac_inst_function(inst))
    report(c, inst, "AsyncPipeline.Scope", "must appear in a function body");
  for (unsigned k = 0; op < sizeof operand_rules / sizeof operand_rules[0] && k < info->num_operands && k < 4; k++)
    check_operand(c, inst, op, k);
  return true;
}

/* ---- Queues ------------------------------------------------------------- */

/* Queues committed to in a function, to check the waits against. */
typedef struct queues {
  uint32_t committed[64];
  unsigned n;
} queues;

static bool committed(const queues *qs, uint32_t q) {
  for (unsigned i = 0; i < qs->n; i++)
    if (qs->committed[i] == q)
      return true;
  return false;
}

/* ---- Warp-specialised functions (revision 3) ---------------------------- */

typedef struct pipe_state {
  const gac_inst *inst;
  uint32_t depth;         /* 0 if its Depth is not valid */
  uint64_t slot_bytes;    /* of a slot of each of its buffers */
  unsigned handshakes[4]; /* PipeProducerAcquire .. PipeConsumerRelease */
} pipe_state;

typedef struct buffer_state {
  uint32_t var, scalar; /* the OpVariable; the scalar type its slots hold */
  unsigned pipe;
} buffer_state;

typedef struct warp_function {
  const gac_function *f;
  const gac_inst *ws, *first_handshake; /* the WarpSpecialize; the first Pipe, Mutex or handshake */
  pipe_state *pipes;
  buffer_state *buffers;
  unsigned num_pipes, num_buffers;
  bool bad_buffer; /* a PipeBuffer was rejected: which buffers are whose is unknown */
  const gac_inst *mutexes[GAC_NAMED_BARRIERS]; /* by barrier id */
} warp_function;

/* Room for element n of an array that grows by doubling. */
static void *room_for(void *p, unsigned n, size_t size) {
  return n == 0 || (n >= 4 && !(n & (n - 1))) ? gac_xrealloc(p, (n ? 2 * (size_t)n : 4) * size) : p;
}

/* The pipe whose Pipe instruction defines id, or NULL. */
static pipe_state *pipe_named(const warp_function *w, uint32_t id) {
  for (unsigned k = 0; k < w->num_pipes; k++)
    if (w->pipes[k].inst->result_id == id)
      return &w->pipes[k];
  return NULL;
}

static const buffer_state *buffer_of_var(const warp_function *w, uint32_t var) {
  for (unsigned k = 0; k < w->num_buffers; k++)
    if (w->buffers[k].var == var)
      return &w->buffers[k];
  return NULL;
}

/* A type with its arrays and vectors taken off: what producer and consumers
 * must agree on (a float4 load from float slots reads floats). */
static uint32_t scalar_of(const gac_module *m, uint32_t type) {
  for (const gac_inst *t = gac_def(m, type); t && (t->opcode == SpvOpTypeArray || t->opcode == SpvOpTypeVector);
       t = gac_def(m, type))
    type = t->words[2];
  return type;
}

static bool is_byte(const gac_module *m, uint32_t type) {
  const gac_inst *t = gac_def(m, type);
  return t && t->opcode == SpvOpTypeInt && t->words[2] == 8;
}

/* "f32", "i8", else the type's id. */
static const char *type_name(const gac_module *m, uint32_t type, char buf[24]) {
  const gac_inst *t = gac_def(m, type);
  if (t && (t->opcode == SpvOpTypeInt || t->opcode == SpvOpTypeFloat))
    snprintf(buf, 24, "%c%u", t->opcode == SpvOpTypeInt ? 'i' : 'f', t->words[2]);
  else
    snprintf(buf, 24, "%%%u", type);
  return buf;
}

/* The OpVariable a pointer points into, through access chains and casts
 * (NULL if it leads elsewhere; *end is where it stopped), and in *scalar
 * the scalar type the pointer addresses: the first along the way that is
 * not a byte, since the copies take void pointers, which SPIR-V spells
 * as pointers to 8-bit integers. */
static const gac_inst *pointer_root(const gac_module *m, uint32_t ptr, uint32_t *scalar, uint32_t *end) {
  *scalar = 0;
  for (unsigned steps = 0; steps < 256; steps++) {
    const gac_inst *d = gac_def(m, ptr), *t = d ? gac_def(m, d->type_id) : NULL;
    *end = ptr;
    if (!t || t->opcode != SpvOpTypePointer)
      return NULL;
    if (!*scalar || is_byte(m, *scalar))
      *scalar = scalar_of(m, t->words[3]);
    switch (d->opcode) {
    case SpvOpVariable: return d;
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
    case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain:
    case SpvOpBitcast:
    case SpvOpCopyObject:
    case SpvOpPtrCastToGeneric:
    case SpvOpGenericCastToPtr: ptr = d->words[3]; break;
    default: return NULL;
    }
  }
  return NULL;
}

const gac_inst *gac_pipe_pointer_root(const gac_module *m, uint32_t ptr, uint32_t *scalar) {
  uint32_t end;
  return pointer_root(m, ptr, scalar, &end);
}

uint32_t gac_pipe_scalar_of(const gac_module *m, uint32_t type) { return scalar_of(m, type); }

/* The destination and event operands of a copy of either set, or false. */
static bool copy_operands(const gac_module *m, const gac_inst *i, uint32_t *destination, uint32_t *event) {
  gac_async_copy k;
  if (gac_async_copy_decode(m, i, &k)) {
    *destination = k.destination, *event = k.event;
    return true;
  }
  if (i->opcode != SpvOpGroupAsyncCopy || i->num_words != 9) /* Execution, Destination, ..., Event */
    return false;
  *destination = i->words[4], *event = i->words[8];
  return true;
}

/* Gathers the function's pipes, buffers and mutexes; the rules that need
 * only one instruction besides its definitions were checked already. */
static void gather(checker *c, warp_function *w) {
  const gac_module *m = c->m;
  gac_foreach_block(b, w->f) {
    gac_foreach_inst(i, &b->insts) {
      uint32_t op = gac_async_pipeline_op_of(m, i), v, slot;
      const gac_async_copy_info *info = op >= GAC_WARP_SPECIALIZE && op <= GAC_MUTEX_SYNC ? info_of(op) : NULL;
      if (!info || i->num_words != 5 + info->num_operands)
        continue;
      if (op == GAC_WARP_SPECIALIZE) {
        if (w->ws)
          report(c, i, RULE("WarpSpecialize"), "the function has one already (%%%u): one per kernel", w->ws->result_id);
        else
          w->ws = i;
        continue;
      }
      if (!w->first_handshake)
        w->first_handshake = i;
      pipe_state *p = op != GAC_PIPE && op != GAC_MUTEX ? pipe_named(w, i->words[GAC_PIPE_OF_WORD]) : NULL;
      if (op == GAC_PIPE) {
        w->pipes = room_for(w->pipes, w->num_pipes, sizeof *w->pipes);
        w->pipes[w->num_pipes++] = (pipe_state){.inst = i, .depth = pipe_depth(m, i)};
      } else if (op == GAC_PIPE_BUFFER) {
        uint32_t var = i->words[GAC_PIPE_BUFFER_WORD];
        const buffer_state *other = buffer_of_var(w, var);
        if (!p || !p->depth || buffer_slots(m, var, &slot) != p->depth) {
          w->bad_buffer = true; /* reported with the operands */
        } else if (other) {
          report(c, i, RULE("PipeBuffer"), "%%%u is a buffer of Pipe %%%u already: a buffer belongs to one pipe",
                 var, w->pipes[other->pipe].inst->result_id);
        } else {
          w->buffers = room_for(w->buffers, w->num_buffers, sizeof *w->buffers);
          w->buffers[w->num_buffers++] = (buffer_state){var, scalar_of(m, slot), (unsigned)(p - w->pipes)};
          p->slot_bytes += gac_type_bytes(m, slot);
        }
      } else if (op >= GAC_PIPE_PRODUCER_ACQUIRE && op <= GAC_PIPE_CONSUMER_RELEASE && p) {
        p->handshakes[op - GAC_PIPE_PRODUCER_ACQUIRE]++;
      } else if (op == GAC_MUTEX && constant_operand(m, i, GAC_MUTEX_BARRIER_WORD, &v) &&
                 in_range(&operand_rules[GAC_MUTEX][0], v)) {
        /* One named barrier per live range: a second Mutex on the same id
         * would make two groups of warps count on one barrier. */
        if (w->mutexes[v])
          report(c, i, RULE("MutexBarrier"), "named barrier %u is Mutex %%%u's already: one named barrier per "
                 "live range, never shared", v, w->mutexes[v]->result_id);
        else
          w->mutexes[v] = i;
      }
    }
  }
}

/* WarpSpecialize: an OpEntryPoint Kernel whose LocalSize is the consumers;
 * consumers and producers together fit a work-group, and so does each mutex. */
static void check_launch(checker *c, const warp_function *w) {
  const gac_module *m = c->m;
  uint32_t consumers, producers, f = w->f->def->result_id;
  const operand_rule *r = operand_rules[GAC_WARP_SPECIALIZE];
  if (!constant_operand(m, w->ws, GAC_WS_CONSUMERS_WORD, &consumers) || !in_range(&r[0], consumers) ||
      !constant_operand(m, w->ws, GAC_WS_PRODUCERS_WORD, &producers) || !in_range(&r[1], producers))
    return;
  /* Where: the consumers' code begins with it, in the block that the
   * branch splitting the work-group enters for them (the other target
   * begins the producer's code; lowering/ptx/lower_ptx_warp_specialize.c). */
  uint32_t label = gac_block_label(gac_inst_block(w->ws));
  bool split = false;
  gac_foreach_block(b, w->f) {
    const gac_inst *t = gac_block_terminator(b);
    split |= t && t->opcode == SpvOpBranchConditional && t->num_words > 3 && t->words[3] == label &&
             t->words[2] != label;
  }
  if (!split)
    report(c, w->ws, RULE("WarpSpecialize"), "must begin the consumers' code: its block is the false target of the "
           "OpBranchConditional that splits the work-group (the true target begins the producer warp's)");
  /* The kernel: f's entry point, or the one that calls f (llvm-spirv-15
   * wraps each kernel's body in an entry point that calls it). */
  const gac_inst *entry = NULL, *size = NULL;
  gac_foreach_inst(i, &m->sections[GAC_SECTION_ENTRY_POINT]) {
    if (i->opcode != SpvOpEntryPoint || i->num_words <= 2 || i->words[1] != SpvExecutionModelKernel)
      continue;
    bool runs_f = i->words[2] == f;
    for (const gac_operand *u = gac_first_use((gac_module *)m, f); u && !runs_f; u = u->next_use)
      runs_f = u->inst->opcode == SpvOpFunctionCall && gac_inst_function(u->inst) &&
               gac_inst_function(u->inst)->def->result_id == i->words[2];
    if (runs_f && !entry)
      entry = i;
  }
  for (const gac_operand *u = gac_first_use((gac_module *)m, f); u && entry; u = u->next_use)
    if (u->inst->opcode == SpvOpFunctionCall &&
        (!gac_inst_function(u->inst) || gac_inst_function(u->inst)->def->result_id != entry->words[2]))
      report(c, w->ws, RULE("WarpSpecialize"), "the function (%%%u) is called from %%%u as well as from kernel \"%s\": "
             "the work-group is split once, where the kernel launches", f,
             gac_inst_function(u->inst) ? gac_inst_function(u->inst)->def->result_id : 0, gac_inst_string(entry, 2));
  gac_foreach_inst(i, &m->sections[GAC_SECTION_EXECUTION_MODE]) {
    if (entry && i->opcode == SpvOpExecutionMode && i->num_words == 6 && i->words[1] == entry->words[2] &&
        i->words[2] == SpvExecutionModeLocalSize)
      size = i;
  }
  if (!entry) {
    report(c, w->ws, RULE("WarpSpecialize"), "the function (%%%u) must be an OpEntryPoint Kernel or the body one "
           "calls: the work-group is split where the kernel launches", f);
    return;
  }
  if (!size) {
    report(c, w->ws, RULE("WarpSpecialize"), "kernel \"%s\" has no LocalSize execution mode: the consumers' "
           "work-group size must be known (reqd_work_group_size)", gac_inst_string(entry, 2));
    return;
  }
  uint64_t product = (uint64_t)size->words[3] * size->words[4] * size->words[5];
  if (product != consumers)
    report(c, w->ws, RULE("WarpSpecialize"), "'Consumer Threads' is %u, but kernel \"%s\" has LocalSize %u x %u x "
           "%u = %llu: get_local_size describes the consumers", consumers, gac_inst_string(entry, 2),
           size->words[3], size->words[4], size->words[5], (unsigned long long)product);
  else if (consumers + producers > 1024)
    report(c, w->ws, RULE("WarpSpecialize"), "%u consumer + %u producer work-items = %u, more than the 1024 a "
           "work-group may have", consumers, producers, consumers + producers);
  for (unsigned b = 1; b < GAC_NAMED_BARRIERS; b++) {
    uint32_t threads;
    if (w->mutexes[b] && constant_operand(m, w->mutexes[b], GAC_MUTEX_THREADS_WORD, &threads) &&
        threads > consumers + producers)
      report(c, w->mutexes[b], RULE("MutexBarrier"), "'Threads' is %u, more than the work-group's %u work-items: "
             "the barrier would never complete", threads, consumers + producers);
  }
}

/* A pipe's handshakes come as four: a slot the producer fills but nobody
 * waits for, or waited for but never filled, or never released or never
 * acquired, is a hang or a race once lowered to mbarriers. */
static void check_handshakes(checker *c, const warp_function *w) {
  static const char *const names[] = {"PipeProducerAcquire", "PipeProducerCommit", "PipeConsumerWait",
                                      "PipeConsumerRelease"};
  for (unsigned k = 0; k < w->num_pipes; k++) {
    const pipe_state *p = &w->pipes[k];
    char has[120] = "", lacks[120] = "";
    for (unsigned h = 0; h < 4; h++) {
      char *to = p->handshakes[h] ? has : lacks;
      snprintf(to + strlen(to), 120 - strlen(to), "%s%s", to[0] ? ", " : "", names[h]);
    }
    if (has[0] && lacks[0])
      report(c, p->inst, RULE("PipeHandshake"), "the function has %s but no %s for it: the producer acquires and "
             "commits each slot, the consumers wait for it and release it", has, lacks);
  }
}

/* PipeShape (seed 004's type-match): the copies a commit names fill the
 * pipe's own buffers with the buffers' element type, and the loads from a
 * buffer read that type. */
static void check_shapes(checker *c, const warp_function *w) {
  const gac_module *m = c->m;
  char t1[24], t2[24];
  gac_foreach_block(b, w->f) {
    gac_foreach_inst(i, &b->insts) {
      uint32_t scalar, end;
      const gac_inst *root;
      const buffer_state *buf;
      if (i->opcode == SpvOpLoad && i->num_words >= 4 && (root = pointer_root(m, i->words[3], &scalar, &end)) &&
          (buf = buffer_of_var(w, root->result_id)) && scalar_of(m, i->type_id) != buf->scalar)
        report(c, i, RULE("PipeShape"), "reads %s from buffer %%%u of Pipe %%%u, whose slots hold %s: producer and "
               "consumers must see the same element type", type_name(m, scalar_of(m, i->type_id), t1), buf->var,
               w->pipes[buf->pipe].inst->result_id, type_name(m, buf->scalar, t2));
      const pipe_state *p;
      if (gac_async_pipeline_op_of(m, i) != GAC_PIPE_PRODUCER_COMMIT || i->num_words != 8 ||
          !(p = pipe_named(w, i->words[GAC_PIPE_OF_WORD])) || !p->depth)
        continue;
      /* The chain of copies whose last event the commit names. */
      uint32_t dst, event = i->words[GAC_PIPE_EVENT_WORD];
      for (unsigned steps = 0; steps < m->bound; steps++) {
        const gac_inst *copy = gac_def(m, event);
        if (!copy || !copy_operands(m, copy, &dst, &event))
          break;
        root = pointer_root(m, dst, &scalar, &end);
        buf = root ? buffer_of_var(w, root->result_id) : NULL;
        if (!buf || w->pipes + buf->pipe != p) {
          if (!w->bad_buffer)
            report(c, copy, RULE("PipeShape"), "committed to Pipe %%%u by PipeProducerCommit %%%u, but writes into "
                   "%%%u, which is not one of the pipe's buffers", p->inst->result_id, i->result_id, end);
        } else if (scalar != buf->scalar)
          report(c, copy, RULE("PipeShape"), "writes %s into buffer %%%u of Pipe %%%u, whose slots hold %s: "
                 "producer and consumers must see the same element type", type_name(m, scalar, t1), buf->var,
                 p->inst->result_id, type_name(m, buf->scalar, t2));
      }
    }
  }
}

/* A CUDA kernel's static shared memory; the PTX path has no dynamic
 * fallback for the rings. */
enum { SHARED_MEMORY_LIMIT = 48 * 1024, MBARRIER_BYTES = 8 };

/* PipeSharedMemory: the rings, their mbarriers (full and empty per slot)
 * and the function's other Workgroup variables fit what a CUDA kernel may
 * use statically. */
static void check_shared_memory(checker *c, const warp_function *w) {
  const gac_module *m = c->m;
  if (!w->num_pipes)
    return;
  gac_strbuf parts = {0};
  uint64_t total = 0, mbarriers = 0, other = 0;
  for (unsigned k = 0; k < w->num_pipes; k++) {
    const pipe_state *p = &w->pipes[k];
    if (!p->depth)
      continue;
    gac_strbuf_printf(&parts, "ring of depth %u x %llu bytes + ", p->depth, (unsigned long long)p->slot_bytes);
    total += p->depth * p->slot_bytes;
    mbarriers += 2ull * p->depth * MBARRIER_BYTES;
  }
  /* Other Workgroup variables the function names, each once. */
  uint8_t *seen = calloc(m->bound, 1);
  for (unsigned k = 0; k < w->num_buffers; k++)
    seen[w->buffers[k].var] = 1;
  gac_foreach_block(b, w->f) {
    gac_foreach_inst(i, &b->insts) {
      for (unsigned k = 0; k < i->num_operands; k++) {
        uint32_t id = i->operands[k].kind == GAC_OPERAND_ID ? gac_operand_word(i, k) : 0;
        const gac_inst *v = id < m->bound && !seen[id] ? gac_def(m, id) : NULL;
        if (v && v->opcode == SpvOpVariable && v->words[3] == SpvStorageClassWorkgroup) {
          const gac_inst *ptr = gac_def(m, v->type_id);
          other += ptr ? gac_type_bytes(m, ptr->words[3]) : 0;
          seen[id] = 1;
        }
      }
    }
  }
  free(seen);
  total += mbarriers + other;
  if (total > SHARED_MEMORY_LIMIT)
    report(c, w->pipes[0].inst, RULE("PipeSharedMemory"), "the function's shared memory does not fit: %s%llu bytes "
           "of mbarriers + %llu other = %llu > %u bytes, the static shared memory of a CUDA kernel (fewer slots or "
           "smaller tiles fit)", parts.data ? parts.data : "", (unsigned long long)mbarriers,
           (unsigned long long)other, (unsigned long long)total, SHARED_MEMORY_LIMIT);
  free(parts.data);
}

static void check_warp_function(checker *c, const gac_function *f) {
  warp_function w = {.f = f};
  gather(c, &w);
  if (w.first_handshake && !w.ws)
    report(c, w.first_handshake, RULE("WarpSpecialize"), "only in a function with a WarpSpecialize: pipes and "
           "mutexes hand work between producer and consumer warps");
  if (w.ws)
    check_launch(c, &w);
  check_handshakes(c, &w);
  check_shapes(c, &w);
  check_shared_memory(c, &w);
  free(w.pipes);
  free(w.buffers);
}

bool gac_validate_async_pipeline(const gac_module *m, gac_diag *diag) {
  checker c = {m, diag, true};
  if (!gac_find_ext_inst_import(m, GAC_ASYNC_PIPELINE_SET))
    return true;
  if (!gac_module_has_capability(m, SpvCapabilityKernel))
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "AsyncPipeline.KernelCapability",
                 "NonSemantic.Gac.AsyncPipeline can only be imported with the Kernel capability");
  gac_foreach_inst(i, &m->sections[GAC_SECTION_GLOBAL]) check_inst(&c, i);
  gac_foreach_function(f, (gac_module *)m) {
    /* First the commits (any order: a wait in a loop may precede the commit
     * that feeds it in the block order), then the waits against them. */
    queues qs = {.n = 0};
    bool any = false;
    uint32_t q;
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (!check_inst(&c, i))
          continue;
        uint32_t op = i->words[GAC_PIPELINE_OP_WORD];
        any |= op >= GAC_WARP_SPECIALIZE && op <= GAC_MUTEX_SYNC;
        if (op == GAC_ASYNC_COMMIT && constant_operand(m, i, GAC_PIPELINE_QUEUE_WORD, &q) && !committed(&qs, q) &&
            qs.n < 64)
          qs.committed[qs.n++] = q;
      }
    }
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (gac_async_pipeline_op_of(m, i) == GAC_ASYNC_WAIT && i->num_words == GAC_PIPELINE_NUM_WORDS &&
            constant_operand(m, i, GAC_PIPELINE_QUEUE_WORD, &q) && !committed(&qs, q))
          report(&c, i, "AsyncPipeline.QueueNeverCommitted",
                 "waits on queue %u, to which nothing in this function commits: a queue lives in one function", q);
      }
    }
    if (any)
      check_warp_function(&c, f);
  }
  return c.ok && !gac_diag_has_errors(diag);
}
