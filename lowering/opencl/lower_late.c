/* --lower-async-copies=opencl,strategy=late: a testing strategy, as a
 * sanitizer is. A copy does not land when it is issued: the leading
 * work-item records it and fills its destination with 0xA5 bytes, and the
 * data lands when a wait that covers it runs (OpGroupWaitEvents on its
 * event, AsyncWait with a count that leaves it out, the end of the kernel),
 * read from the source as the source is then. On PoCL every copy otherwise
 * completes at once, so a wait that is missing, too lax or late, or a
 * source overwritten in flight, gave right results; under late it gives
 * wrong ones.
 *
 * The runtime is OpenCL C (lowering/opencl/late/late_runtime.cl, compiled into
 * late_runtime.spvasm and imported with gac_import_library); this pass
 * replaces every copy (the set's and core OpGroupAsyncCopy), wait, commit,
 * queue wait and copy fence with a call to it. Its state (a table of copies in
 * flight, a log of committed groups) is one Workgroup array per kernel.
 * Events are group numbers: a copy that joins an event joins its group.
 *
 * Every load, store and atomic on local or global memory also calls the
 * runtime's check: an access to memory a copy in flight writes (or, for a
 * write, reads) is printed, the work-group's first, with the instruction
 * named (its OpLine, its id, the variable it points into, the function). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builder.h"
#include "gac/passes.h"
#include "gac/text.h"
#include "gac/known.h"
#include "internal.h"
#include "lower_util.h"
#include "lowering.h"
#include "opencl_lowering.h"

extern const char gac_late_runtime_text[]; /* late/late_runtime.spvasm, embedded */

enum { INIT, TO_LOCAL, TO_GLOBAL, WAIT_EVENTS, COMMIT, WAIT_QUEUE, FINISH, CHECK, FENCE, COPY_CHECK, NUM_RUNTIME };
static const char *const runtime_names[NUM_RUNTIME] = {
    "gac_late_init",   "gac_late_to_local",   "gac_late_to_global", "gac_late_wait_events",
    "gac_late_commit", "gac_late_wait_queue", "gac_late_finish",    "gac_late_check",
    "gac_late_fence",  "gac_late_copy_check"};
/* The state's size in 64-bit words: late_runtime.cl's STATE_WORDS. */
#define STATE_WORDS (2 + 16 * 13 + 8 * 3 + 2)
/* gac_late_check's kind: late_runtime.cl's WRITE and LOCAL. */
enum { KIND_WRITE = 1, KIND_LOCAL = 2 };

/* Each kernel has its own state, a Workgroup array named "<kernel>.gac_late_state"
 * (PoCL 3.1 allocates a kernel's automatic locals by that prefix, per
 * work-group; a variable of another name would be one for all work-groups
 * at once); the functions it calls that need it get it as a parameter. */
typedef struct function_state {
  gac_function *f;
  uint32_t state; /* the pointer to the state in f: a bitcast of the kernel's array, or f's parameter */
  bool needs, entry;
  /* f's two Function variables through which events become group numbers
   * and back: one each, since PoCL's loops keep a copy per work-item. */
  uint32_t event_slot, group_slot;
} function_state;

typedef struct site_string {
  char *text;
  uint32_t var;
} site_string;

typedef struct late {
  gac_lowering L;
  const gac_function *first_runtime;
  site_string *strings; /* the checks' texts, one constant each */
  size_t num_strings;
  uint32_t fn[NUM_RUNTIME];
  uint32_t void_type, u64, u32;
  uint32_t state_ptr;               /* pointer to u64 in Workgroup storage */
  uint32_t u64_fn_ptr, event_fn_ptr; /* pointers in Function storage */
  function_state *functions;
  size_t num_functions;
} late;

static function_state *state_of(late *t, const gac_function *f) {
  for (size_t i = 0; i < t->num_functions; i++)
    if (t->functions[i].f == f)
      return &t->functions[i];
  return NULL;
}

static uint32_t call(late *t, gac_builder *b, unsigned fn, uint32_t result_type, const uint32_t *args,
                     unsigned n) {
  gac_op ops[20];
  ops[0] = GAC_ID(t->fn[fn]);
  for (unsigned i = 0; i < n && i < 19; i++)
    ops[1 + i] = GAC_ID(args[i]);
  return gac_build(b, SpvOpFunctionCall, result_type, GAC_NEW_ID, ops, n + 1)->result_id;
}

/* The runtime's functions (imported after the module's own) are not lowered or checked. */
static bool is_runtime(const late *t, const gac_function *f) {
  for (const gac_function *g = t->first_runtime; g; g = g->next)
    if (g == f)
      return true;
  return false;
}

/* The pointer to the state in the function holding inst. */
static uint32_t state_pointer(late *t, const gac_inst *inst) { return state_of(t, gac_inst_function(inst))->state; }

/* Where code opening f goes: after its first block's OpVariables. */
static gac_builder after_variables(gac_module *m, gac_function *f) {
  gac_inst *at = gac_function_after_variables(f);
  return at ? gac_builder_before(m, at) : gac_builder_at_end(m, &f->first_block->insts);
}

/* A Function variable of `pointer_type` at the start of f. */
static uint32_t function_variable(late *t, gac_function *f, uint32_t pointer_type) {
  gac_builder b = after_variables(t->L.m, f);
  return gac_build_ops(&b, SpvOpVariable, pointer_type, GAC_NEW_ID, GAC_LIT(SpvStorageClassFunction))->result_id;
}

/* An event as its group number and back: through memory, since SPIR-V
 * converts no event to an integer. PoCL's events are pointers (8 bytes). */
static uint32_t event_to_group(late *t, gac_builder *b, gac_function *f, uint32_t event) {
  function_state *fs = state_of(t, f);
  if (!fs->event_slot)
    fs->event_slot = function_variable(t, f, gac_type_pointer(t->L.m, SpvStorageClassFunction, t->L.event_type));
  uint32_t slot = fs->event_slot;
  gac_build_ops(b, SpvOpStore, 0, 0, GAC_ID(slot), GAC_ID(event));
  uint32_t as_u64 = gac_build_ops(b, SpvOpBitcast, t->u64_fn_ptr, GAC_NEW_ID, GAC_ID(slot))->result_id;
  return gac_build_ops(b, SpvOpLoad, t->u64, GAC_NEW_ID, GAC_ID(as_u64))->result_id;
}

static uint32_t group_to_event(late *t, gac_builder *b, gac_function *f, uint32_t group) {
  function_state *fs = state_of(t, f);
  if (!fs->group_slot)
    fs->group_slot = function_variable(t, f, t->u64_fn_ptr);
  uint32_t slot = fs->group_slot;
  gac_build_ops(b, SpvOpStore, 0, 0, GAC_ID(slot), GAC_ID(group));
  uint32_t as_event = gac_build_ops(b, SpvOpBitcast, t->event_fn_ptr, GAC_NEW_ID, GAC_ID(slot))->result_id;
  return gac_build_ops(b, SpvOpLoad, t->L.event_type, GAC_NEW_ID, GAC_ID(as_event))->result_id;
}

static uint32_t as_uchar_pointer(late *t, gac_builder *b, uint32_t ptr) {
  uint32_t sc = lower_storage_class(t->L.m, ptr);
  uint32_t type = gac_type_pointer(t->L.m, sc, t->L.uchar_type);
  return gac_build_ops(b, SpvOpBitcast, type, GAC_NEW_ID, GAC_ID(ptr))->result_id;
}

/* x as the runtime's uint (queues and event counts): narrowed or widened,
 * or the same bits where only the signedness differs. */
static uint32_t to_u32(late *t, gac_builder *b, uint32_t x) {
  const gac_inst *type = gac_value_type(t->L.m, x);
  if (type && type->result_id == t->u32)
    return x;
  bool same_width = type && type->opcode == SpvOpTypeInt && type->words[2] == 32;
  return gac_build_ops(b, same_width ? SpvOpBitcast : SpvOpUConvert, t->u32, GAC_NEW_ID, GAC_ID(x))->result_id;
}

/* x as the runtime's ulong: widened, or the same bits where only the
 * signedness differs (a module may declare a signed 64-bit type). */
static uint32_t to_u64(late *t, gac_builder *b, uint32_t x) {
  const gac_inst *type = gac_value_type(t->L.m, x);
  if (type && type->result_id == t->u64)
    return x;
  bool wide = type && type->opcode == SpvOpTypeInt && type->words[2] == 64;
  return gac_build_ops(b, wide ? SpvOpBitcast : SpvOpUConvert, t->u64, GAC_NEW_ID, GAC_ID(x))->result_id;
}

static void site_text(const gac_module *m, const gac_inst *i, uint32_t pointer, char *text, size_t n);
static uint32_t string_constant(late *t, const char *text);

/* A copy, then the runtime's check that it read nothing a copy in flight
 * writes (late_runtime.cl: gac_late_copy_check). */
static void lower_copy(late *t, gac_inst *inst, const gac_async_copy *k) {
  gac_module *m = t->L.m;
  gac_function *f = gac_inst_function(inst);
  char text[512];
  site_text(m, inst, k->source, text, sizeof text);
  uint32_t site = string_constant(t, text);
  gac_builder b = gac_builder_before(m, inst);
  bool to_local = lower_global_to_local(m, k->destination, k->source);
  bool is3d = k->op == GAC_GROUP_ASYNC_COPY_3D3D;
  uint32_t args[] = {
      state_pointer(t, inst),
      event_to_group(t, &b, f, k->event),
      as_uchar_pointer(t, &b, k->destination),
      to_u64(t, &b, k->destination_offset),
      as_uchar_pointer(t, &b, k->source),
      to_u64(t, &b, k->source_offset),
      to_u64(t, &b, k->num_bytes_per_element),
      to_u64(t, &b, k->num_elements_per_line),
      to_u64(t, &b, k->num_lines),
      to_u64(t, &b, is3d ? k->num_planes : t->L.one),
      to_u64(t, &b, k->source_line_length),
      to_u64(t, &b, is3d ? k->source_plane_area : t->L.zero),
      to_u64(t, &b, k->destination_line_length),
      to_u64(t, &b, is3d ? k->destination_plane_area : t->L.zero),
  };
  uint32_t group = call(t, &b, to_local ? TO_LOCAL : TO_GLOBAL, t->u64, args, sizeof args / sizeof *args);
  uint32_t text_type = gac_type_pointer(m, SpvStorageClassUniformConstant, t->L.uchar_type);
  uint32_t check[] = {state_pointer(t, inst), gac_build_ops(&b, SpvOpBitcast, text_type, GAC_NEW_ID, GAC_ID(site))->result_id};
  call(t, &b, COPY_CHECK, t->void_type, check, 2);
  uint32_t event = group_to_event(t, &b, f, group);
  uint32_t result = inst->result_id;
  gac_inst_remove(m, inst);
  gac_replace_all_uses(m, result, event);
}

/* OpGroupWaitEvents (Execution, Num Events, Events List). */
static void lower_wait_events(late *t, gac_inst *inst) {
  gac_module *m = t->L.m;
  gac_builder b = gac_builder_before(m, inst);
  uint32_t list = gac_operand_word(inst, 2);
  const gac_inst *type = gac_value_type(m, list);
  if (type && type->opcode == SpvOpTypePointer && type->words[2] == SpvStorageClassGeneric) {
    /* Events live in private memory only (OpenCL C allows them nowhere else). */
    uint32_t private_type = gac_type_pointer(m, SpvStorageClassFunction, t->L.event_type);
    list = gac_build_ops(&b, SpvOpGenericCastToPtr, private_type, GAC_NEW_ID, GAC_ID(list))->result_id;
  }
  uint32_t groups = gac_build_ops(&b, SpvOpBitcast, t->u64_fn_ptr, GAC_NEW_ID, GAC_ID(list))->result_id;
  uint32_t args[] = {state_pointer(t, inst), to_u32(t, &b, gac_operand_word(inst, 1)), groups};
  call(t, &b, WAIT_EVENTS, t->void_type, args, 3);
  gac_inst_remove(m, inst);
}

/* AsyncCommit (Queue, Event) and AsyncWait (Queue, In Flight). */
static void lower_queue_op(late *t, gac_inst *inst, uint32_t op) {
  gac_module *m = t->L.m;
  gac_builder b = gac_builder_before(m, inst);
  uint32_t queue = to_u32(t, &b, gac_operand_word(inst, 4)), value = gac_operand_word(inst, 5);
  uint32_t args[] = {state_pointer(t, inst), queue,
                     op == GAC_ASYNC_COMMIT ? event_to_group(t, &b, gac_inst_function(inst), value)
                                            : to_u64(t, &b, value)};
  call(t, &b, op == GAC_ASYNC_COMMIT ? COMMIT : WAIT_QUEUE, t->void_type, args, 3);
  gac_inst_remove(m, inst);
}

/* AsyncCopyFence (Flags): the copies in flight land before the later
 * copies that they conflict with start (late_runtime.cl's record()). */
static void lower_fence(late *t, gac_inst *inst) {
  gac_module *m = t->L.m;
  gac_builder b = gac_builder_before(m, inst);
  uint32_t args[] = {state_pointer(t, inst), to_u32(t, &b, inst->words[GAC_FENCE_FLAGS_WORD])};
  call(t, &b, FENCE, t->void_type, args, 2);
  gac_inst_remove(m, inst);
}

/* Each kernel starts with an empty state and lands what is in flight when
 * it returns. */
static void lower_kernels(late *t) {
  gac_module *m = t->L.m;
  for (size_t i = 0; i < t->num_functions; i++) {
    function_state *fs = &t->functions[i];
    if (!fs->entry || !fs->needs)
      continue;
    gac_builder b = gac_builder_after(m, gac_def(m, fs->state)); /* after the state's pointer */
    call(t, &b, INIT, t->void_type, &fs->state, 1);
    gac_foreach_block(blk, fs->f) {
      gac_inst *term = gac_block_terminator(blk);
      if (!term || term->opcode != SpvOpReturn)
        continue;
      gac_builder r = gac_builder_before(m, term);
      call(t, &r, FINISH, t->void_type, &fs->state, 1);
    }
  }
}

static bool import_runtime(late *t, gac_diag *diag) {
  uint32_t *words = NULL;
  size_t n = 0;
  gac_module *lib = NULL;
  bool ok = gac_assemble(gac_late_runtime_text, strlen(gac_late_runtime_text), &words, &n, diag) &&
            (lib = gac_module_read(words, n, diag)) != NULL &&
            gac_import_library(t->L.m, lib, runtime_names, t->fn, NUM_RUNTIME, diag);
  gac_module_destroy(lib);
  free(words);
  return ok;
}

static const char *debug_name(const gac_module *m, uint32_t id) {
  gac_foreach_inst(n, &m->sections[GAC_SECTION_DEBUG_NAME])
    if (n->opcode == SpvOpName && gac_operand_word(n, 0) == id)
      return gac_inst_string(n, 1);
  return NULL;
}

/* The kernel's name if f is one: an entry point, or the function an entry
 * point wraps (llvm-spirv-15 writes some kernels as an entry point that
 * calls a function of the kernel's name, and reading back makes that
 * function the kernel). NULL otherwise. */
static const char *kernel_name(const gac_module *m, const gac_function *f) {
  const char *name = debug_name(m, f->def->result_id);
  gac_foreach_inst(ep, &m->sections[GAC_SECTION_ENTRY_POINT]) {
    const char *ep_name = gac_inst_string(ep, 2);
    if (gac_operand_word(ep, 1) == f->def->result_id)
      return ep_name;
    if (!name || !ep_name || strcmp(name, ep_name) != 0)
      continue;
    const gac_function *wrapper = lower_function_by_id(m, gac_operand_word(ep, 1));
    for (const gac_block *b = wrapper ? wrapper->first_block : NULL; b; b = b->next)
      gac_foreach_inst(i, &b->insts) if (i->opcode == SpvOpFunctionCall && gac_operand_word(i, 2) == f->def->result_id)
        return ep_name;
  }
  return NULL;
}

/* The state of the function an OpFunctionCall calls, or NULL. */
static function_state *callee_of(late *t, const gac_inst *in) {
  return in->opcode == SpvOpFunctionCall ? state_of(t, lower_function_by_id(t->L.m, gac_operand_word(in, 2)))
                                         : NULL;
}

/* The call now passes the callee's state too: the caller's. */
static void pass_state(late *t, gac_inst *call_inst, uint32_t state) {
  gac_op *ops = malloc((call_inst->num_operands + 1u) * sizeof *ops);
  unsigned n = 0;
  for (unsigned k = 2; k < call_inst->num_operands; k++)
    ops[n++] = GAC_ID(gac_operand_word(call_inst, k));
  ops[n++] = GAC_ID(state);
  uint32_t type = call_inst->type_id, result = call_inst->result_id;
  gac_builder b = gac_builder_after(t->L.m, call_inst);
  gac_inst_remove(t->L.m, call_inst); /* frees the result id */
  gac_build(&b, SpvOpFunctionCall, type, result, ops, n);
  free(ops);
}

/* Which functions need a state (those with something to lower or an access
 * to check, and their callers), and the state of each: a kernel's own
 * array, a parameter added to any other function. */
static bool give_states(late *t, gac_inst **todo, size_t n) {
  gac_module *m = t->L.m;
  size_t count = 0;
  gac_foreach_function(f, m) count++;
  t->functions = calloc(count, sizeof *t->functions);
  gac_foreach_function(f, m) {
    if (!is_runtime(t, f) && f->first_block)
      t->functions[t->num_functions++] = (function_state){.f = f, .entry = kernel_name(m, f) != NULL};
  }
  for (size_t c = 0; c < n; c++)
    state_of(t, gac_inst_function(todo[c]))->needs = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < t->num_functions; i++) {
      function_state *caller = &t->functions[i];
      gac_foreach_block(b, caller->f) {
        gac_foreach_inst(in, &b->insts) {
          function_state *callee = callee_of(t, in);
          if (callee && callee->needs && !callee->entry && !caller->needs)
            caller->needs = changed = true;
        }
      }
    }
  }
  for (size_t i = 0; i < t->num_functions; i++) {
    function_state *fs = &t->functions[i];
    if (!fs->needs)
      continue;
    if (!fs->entry) {
      /* One more parameter, and a function type that says so. */
      const gac_inst *type = gac_def(m, gac_operand_word(fs->f->def, 3));
      uint32_t *params = malloc(((type ? type->num_operands : 0) + 1) * sizeof *params);
      unsigned np = 0;
      for (unsigned k = 2; type && k < type->num_operands; k++)
        params[np++] = gac_operand_word(type, k);
      params[np++] = t->state_ptr;
      gac_inst_set_id_operand(m, fs->f->def, 3, gac_type_function(m, fs->f->def->type_id, params, np));
      free(params);
      fs->state = gac_function_add_param(m, fs->f, t->state_ptr);
      continue;
    }
    /* A kernel: its array, named for PoCL, and a pointer to its first word. */
    const char *name = kernel_name(m, fs->f);
    uint32_t array = gac_type_array(m, t->u64, gac_constant_int(m, t->u32, STATE_WORDS));
    gac_builder g = gac_builder_at_end(m, &m->sections[GAC_SECTION_GLOBAL]);
    uint32_t var = gac_build_ops(&g, SpvOpVariable, gac_type_pointer(m, SpvStorageClassWorkgroup, array),
                                 GAC_NEW_ID, GAC_LIT(SpvStorageClassWorkgroup))
                       ->result_id;
    char var_name[256];
    snprintf(var_name, sizeof var_name, "%s.gac_late_state", name ? name : "kernel");
    gac_builder names = gac_builder_at_end(m, &m->sections[GAC_SECTION_DEBUG_NAME]);
    gac_build_ops(&names, SpvOpName, 0, 0, GAC_ID(var), GAC_STR(var_name));
    gac_builder b = after_variables(m, fs->f);
    fs->state = gac_build_ops(&b, SpvOpBitcast, t->state_ptr, GAC_NEW_ID, GAC_ID(var))->result_id;
  }
  /* Calls of functions that now take a state. */
  for (size_t i = 0; i < t->num_functions; i++) {
    function_state *caller = &t->functions[i];
    gac_foreach_block(b, caller->f) {
      gac_foreach_inst(in, &b->insts) {
        function_state *callee = callee_of(t, in);
        if (callee && callee->needs && !callee->entry)
          pass_state(t, in, caller->state);
      }
    }
  }
  return true;
}

/* The pointer an access to memory a copy can move goes through (local or
 * global; a generic pointer is not followed), and whether it writes; 0 for
 * any other instruction. */
static uint32_t access_pointer(const gac_module *m, const gac_inst *i, bool *write) {
  unsigned operand = 2;
  *write = i->opcode != SpvOpLoad && i->opcode != SpvOpAtomicLoad;
  if (i->opcode == SpvOpStore || i->opcode == SpvOpAtomicStore)
    operand = 0;
  else if (i->opcode != SpvOpLoad && i->opcode != SpvOpAtomicLoad &&
           (i->opcode < SpvOpAtomicExchange || i->opcode > SpvOpAtomicXor))
    return 0;
  if (i->num_operands <= operand)
    return 0;
  uint32_t p = gac_operand_word(i, operand), sc = lower_storage_class(m, p);
  return sc == SpvStorageClassWorkgroup || sc == SpvStorageClassCrossWorkgroup ? p : 0;
}

/* The variable or parameter p points into, through access chains and casts. */
static uint32_t pointer_base(const gac_module *m, uint32_t p) {
  for (unsigned hops = 0; hops < 64; hops++) {
    const gac_inst *d = gac_def(m, p);
    bool through = d && d->num_operands > 2 &&
                   (d->opcode == SpvOpAccessChain || d->opcode == SpvOpInBoundsAccessChain ||
                    d->opcode == SpvOpPtrAccessChain || d->opcode == SpvOpInBoundsPtrAccessChain ||
                    d->opcode == SpvOpBitcast || d->opcode == SpvOpGenericCastToPtr ||
                    d->opcode == SpvOpPtrCastToGeneric || d->opcode == SpvOpCopyObject);
    if (!through)
      return p;
    p = gac_operand_word(d, 2);
  }
  return p;
}

/* What the report calls access i: "file:line: OpLoad %12 (tile) in f". */
static void site_text(const gac_module *m, const gac_inst *i, uint32_t pointer, char *text, size_t n) {
  char where[192] = "";
  for (const gac_inst *at = i->prev; at && at->opcode != SpvOpNoLine; at = at->prev)
    if (at->opcode == SpvOpLine && at->num_operands >= 2) {
      const gac_inst *file = gac_def(m, gac_operand_word(at, 0));
      const char *name = file && file->opcode == SpvOpString ? gac_inst_string(file, 1) : NULL;
      snprintf(where, sizeof where, "%s:%u: ", name ? name : "?", gac_operand_word(at, 1));
      break;
    }
  const char *op = i->opcode == SpvOpLoad          ? "OpLoad"
                   : i->opcode == SpvOpStore       ? "OpStore to"
                   : i->opcode == SpvOpAtomicStore ? "OpAtomicStore to"
                   : i->opcode == SpvOpGroupAsyncCopy || gac_is_async_copy_inst(m, i) ? "async copy from"
                                                   : "atomic";
  uint32_t id = i->result_id ? i->result_id : pointer;
  const char *var = debug_name(m, pointer_base(m, pointer));
  const char *fn = debug_name(m, gac_inst_function(i)->def->result_id);
  snprintf(text, n, "%s%s %%%u%s%s%s in %s", where, op, id, var ? " (" : "", var ? var : "", var ? ")" : "",
           fn ? fn : "an unnamed function");
}

/* A constant string (a UniformConstant array of bytes) with this text,
 * one per text. */
static uint32_t string_constant(late *t, const char *text) {
  for (size_t k = 0; k < t->num_strings; k++)
    if (strcmp(t->strings[k].text, text) == 0)
      return t->strings[k].var;
  gac_module *m = t->L.m;
  size_t len = strlen(text) + 1;
  gac_op *bytes = malloc(len * sizeof *bytes);
  for (size_t k = 0; k < len; k++)
    bytes[k] = GAC_ID(gac_constant_int(m, t->L.uchar_type, (unsigned char)text[k]));
  uint32_t array = gac_type_array(m, t->L.uchar_type, gac_constant_int(m, t->u32, len));
  uint32_t pointer = gac_type_pointer(m, SpvStorageClassUniformConstant, array);
  gac_builder g = gac_builder_at_end(m, &m->sections[GAC_SECTION_GLOBAL]);
  uint32_t value = gac_build(&g, SpvOpConstantComposite, array, GAC_NEW_ID, bytes, (unsigned)len)->result_id;
  uint32_t var = gac_build_ops(&g, SpvOpVariable, pointer, GAC_NEW_ID, GAC_LIT(SpvStorageClassUniformConstant),
                               GAC_ID(value))
                     ->result_id;
  free(bytes);
  /* The text as the variable's name too: what a reader of the module sees. */
  gac_builder names = gac_builder_at_end(m, &m->sections[GAC_SECTION_DEBUG_NAME]);
  gac_build_ops(&names, SpvOpName, 0, 0, GAC_ID(var), GAC_STR(text));
  t->strings = realloc(t->strings, (t->num_strings + 1) * sizeof *t->strings);
  t->strings[t->num_strings++] = (site_string){gac_xstrdup(text), var};
  return var;
}

/* A call of the runtime's check before access i. */
static void check_access(late *t, gac_inst *i) {
  gac_module *m = t->L.m;
  bool write;
  uint32_t p = access_pointer(m, i, &write);
  const gac_inst *type = gac_value_type(m, p);
  uint64_t size = 0;
  if (!type || !gac_type_size(m, type->words[3], GAC_SIZE_OBJECT, &size) || size == 0)
    size = 1; /* a struct: its first byte */
  char text[512];
  site_text(m, i, p, text, sizeof text);
  uint32_t site = string_constant(t, text);
  uint32_t kind = (write ? KIND_WRITE : 0) | (lower_storage_class(m, p) == SpvStorageClassWorkgroup ? KIND_LOCAL : 0);
  gac_builder b = gac_builder_before(m, i);
  uint32_t address = gac_build_ops(&b, SpvOpConvertPtrToU, t->u64, GAC_NEW_ID, GAC_ID(p))->result_id;
  uint32_t text_type = gac_type_pointer(m, SpvStorageClassUniformConstant, t->L.uchar_type);
  uint32_t args[] = {state_pointer(t, i), address, gac_constant_int(m, t->u64, size), gac_constant_int(m, t->u32, kind),
                     gac_build_ops(&b, SpvOpBitcast, text_type, GAC_NEW_ID, GAC_ID(site))->result_id};
  call(t, &b, CHECK, t->void_type, args, 5);
}

bool gac_lower_late(gac_module *m, gac_diag *diag) {
  if (gac_module_addressing_model(m) != SpvAddressingModelPhysical64) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "lower.late-addressing",
                 "strategy=late lowers Physical64 modules (its runtime keeps addresses in 64 bits)");
    return false;
  }
  late t = {0};
  gac_lowering_init(&t.L, m);
  gac_require_capability(m, SpvCapabilityInt8);
  t.void_type = gac_type_void(m);
  t.u64 = lower_ulong_type(m);
  t.u32 = gac_type_int(m, 32, 0);
  t.state_ptr = gac_type_pointer(m, SpvStorageClassWorkgroup, t.u64);
  t.u64_fn_ptr = gac_type_pointer(m, SpvStorageClassFunction, t.u64);
  t.event_fn_ptr = gac_type_pointer(m, SpvStorageClassFunction, t.L.event_type);
  const gac_function *last_own = m->last_function;
  const gac_inst *last_global = m->sections[GAC_SECTION_GLOBAL].last;
  if (!import_runtime(&t, diag))
    return false;
  t.first_runtime = last_own ? last_own->next : m->first_function;

  lower_drop_pipeline_markers(m);
  /* Everything to lower (todo[0..num_lowered)), then the accesses to check
   * (the rest), collected first; the runtime's functions are neither. */
  size_t cap = 64, n = 0, num_lowered = 0;
  gac_inst **todo = malloc(cap * sizeof *todo);
  for (int checks = 0; checks < 2; checks++) {
    gac_foreach_function(f, m) {
      if (is_runtime(&t, f))
        continue;
      gac_foreach_block(blk, f) {
        gac_foreach_inst(i, &blk->insts) {
          bool write;
          bool wanted = checks ? num_lowered && access_pointer(m, i, &write)
                               : i->opcode == SpvOpGroupAsyncCopy || i->opcode == SpvOpGroupWaitEvents ||
                                     gac_is_async_copy_inst(m, i) ||
                                     gac_async_pipeline_op_of(m, i) == GAC_ASYNC_COMMIT ||
                                     gac_async_pipeline_op_of(m, i) == GAC_ASYNC_WAIT ||
                                     gac_async_pipeline_op_of(m, i) == GAC_ASYNC_COPY_FENCE;
          if (!wanted)
            continue;
          if (n == cap)
            todo = realloc(todo, (cap *= 2) * sizeof *todo);
          todo[n++] = i;
        }
      }
    }
    if (!checks)
      num_lowered = n;
  }
  bool ok = give_states(&t, todo, n);
  for (size_t c = num_lowered; ok && c < n; c++)
    check_access(&t, todo[c]);
  for (size_t c = 0; ok && c < num_lowered; c++) {
    gac_inst *i = todo[c];
    gac_async_copy k;
    uint32_t op = gac_async_pipeline_op_of(m, i);
    if (i->opcode == SpvOpGroupWaitEvents)
      lower_wait_events(&t, i);
    else if (op == GAC_ASYNC_COMMIT || op == GAC_ASYNC_WAIT)
      lower_queue_op(&t, i, op);
    else if (op == GAC_ASYNC_COPY_FENCE)
      lower_fence(&t, i);
    else if (i->opcode == SpvOpGroupAsyncCopy ? lower_core_copy_as_2d(&t.L, i, &k, diag)
                                              : gac_async_copy_decode(m, i, &k))
      lower_copy(&t, i, &k);
    else
      ok = false;
  }
  free(todo);
  if (ok)
    lower_kernels(&t);
  /* SPIR-V 1.4 and later list every global variable an entry point uses:
   * the states, the checks' texts, the runtime's own (printf's format). */
  if (m->version >= 0x10400)
    for (const gac_inst *g = last_global ? last_global->next : m->sections[GAC_SECTION_GLOBAL].first; g; g = g->next)
      if (g->opcode == SpvOpVariable && g->num_words >= 4 && g->words[3] != SpvStorageClassInput)
        gac_add_to_interfaces(m, g->result_id);
  free(t.functions);
  for (size_t k = 0; k < t.num_strings; k++)
    free(t.strings[k].text);
  free(t.strings);
  gac_remove_unused_imports(m, NULL, diag);
  return ok;
}
