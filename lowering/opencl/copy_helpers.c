/* Copies through shared helpers: instead of a copy loop inlined at every
 * copy, the OpenCL lowering (lines, cooperative, serial) makes one function
 * per copy class and calls it, so a module of N copies carries C loops
 * (C classes) and N calls.
 *
 * A class is what the loop's code depends on beyond operand values: the
 * instruction (2D2D or 3D3D: the dimensionality), the storage classes of
 * source and destination (the direction, and the pointer types), and the
 * element size and elements per line where they are constants: the helper
 * has them as constants, as the inlined copy does, so its byte arithmetic
 * folds and a constant line size leaves out the unit widths it rules out
 * (a 37-byte line: the byte loop only). The addressing model is the
 * module's, so one per module. The other operands, the Event included, are parameters,
 * in the instruction's operand order; the helper returns the event the
 * inlined copy would have, and the call takes the copy's result id, so
 * every use of the event (waits, OpPhi, later copies' Event) is unchanged.
 *
 * Every work-item of the group calls the helper with the same operands, as
 * it met the copy: the helper's code is the inlined copy's, in uniform
 * control flow. It has no barrier (the cooperative strategy's barriers
 * follow the waits, in the caller), and OpenCL allows barriers and group
 * copies in functions called from kernels anyway. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "copy_helpers.h"

typedef struct copy_class {
  gac_async_copy_op op;
  uint32_t src_sc, dst_sc;
  uint64_t bytes_per_element; /* a constant element size, or 0: a parameter */
  uint64_t per_line;          /* a constant number of elements per line, or 0 */
  size_t copies;              /* in the module, counted before lowering */
  uint32_t function;          /* the helper, 0 until its first call */
  uint32_t src_ptr, dst_ptr;  /* its pointer parameters' types (uchar pointers) */
} copy_class;

struct copy_helpers {
  gac_lowering *L;
  gac_opencl_helpers mode;
  copy_helper_body body;
  void *user;
  copy_class *classes;
  size_t num, cap;
};

copy_helpers *copy_helpers_create(gac_lowering *L, gac_opencl_helpers mode, copy_helper_body body, void *user) {
  copy_helpers *H = calloc(1, sizeof *H);
  if (H)
    *H = (copy_helpers){.L = L, .mode = mode, .body = body, .user = user};
  return H;
}

void copy_helpers_destroy(copy_helpers *H) {
  if (H)
    free(H->classes);
  free(H);
}

/* Whether the copy is known to move nothing: inlined, it is a branch and
 * the event (lower_async_copies.c emits no loop for it). */
static bool known_empty(const gac_lowering *L, const gac_async_copy *k) {
  return lower_known_zero(L, k->num_elements_per_line) || lower_known_zero(L, k->num_bytes_per_element) ||
         lower_known_zero(L, k->num_lines) || (k->op == GAC_GROUP_ASYNC_COPY_3D3D && lower_known_zero(L, k->num_planes));
}

/* k's class, added if new (NULL if k cannot be called: a pointer operand
 * of no known storage class, or out of memory). */
static copy_class *class_of(copy_helpers *H, const gac_async_copy *k) {
  copy_class c = {.op = k->op,
                  .src_sc = lower_storage_class(H->L->m, k->source),
                  .dst_sc = lower_storage_class(H->L->m, k->destination)};
  if (c.src_sc == ~0u || c.dst_sc == ~0u)
    return NULL;
  if (!gac_constant_value(H->L->m, k->num_bytes_per_element, &c.bytes_per_element))
    c.bytes_per_element = 0;
  if (!gac_constant_value(H->L->m, k->num_elements_per_line, &c.per_line))
    c.per_line = 0;
  for (size_t i = 0; i < H->num; i++) {
    copy_class *o = &H->classes[i];
    if (o->op == c.op && o->src_sc == c.src_sc && o->dst_sc == c.dst_sc &&
        o->bytes_per_element == c.bytes_per_element && o->per_line == c.per_line)
      return o;
  }
  if (H->num == H->cap) {
    size_t cap = H->cap ? 2 * H->cap : 8;
    copy_class *grown = realloc(H->classes, cap * sizeof *grown);
    if (!grown)
      return NULL;
    H->classes = grown, H->cap = cap;
  }
  H->classes[H->num] = c;
  return &H->classes[H->num++];
}

void copy_helpers_count(copy_helpers *H, const gac_async_copy *k) {
  copy_class *c = H->mode == GAC_OPENCL_HELPERS_NEVER ? NULL : class_of(H, k);
  if (c)
    c->copies++;
}

/* The rule (docs/LOWERING.md has the numbers behind it): a copy known to
 * be empty is inlined (a branch); a class of one copy is inlined (a helper
 * would hold the same loop, plus a call); else the helper. */
static bool wants_helper(copy_helpers *H, const gac_async_copy *k, const copy_class *c) {
  if (H->mode == GAC_OPENCL_HELPERS_NEVER || known_empty(H->L, k))
    return false;
  return H->mode == GAC_OPENCL_HELPERS_ALWAYS || c->copies > 1;
}

static const char *space_name(uint32_t sc) {
  switch (sc) {
  case SpvStorageClassCrossWorkgroup: return "global";
  case SpvStorageClassWorkgroup: return "local";
  case SpvStorageClassGeneric: return "generic";
  case SpvStorageClassFunction: return "private";
  case SpvStorageClassUniformConstant: return "constant";
  default: return "other";
  }
}

/* Whether operand o of the set's instruction is fixed by class c. */
static bool fixed_by_class(const copy_class *c, const gac_async_copy_operand_info *o) {
  return (c->bytes_per_element && o->field == offsetof(gac_async_copy, num_bytes_per_element)) ||
         (c->per_line && o->field == offsetof(gac_async_copy, num_elements_per_line));
}

/* The helper of class c: OpFunction returning the event, a parameter per
 * operand the class does not fix, the copy built by H->body. */
static void make_helper(copy_helpers *H, copy_class *c, const gac_async_copy *like) {
  gac_lowering *L = H->L;
  gac_module *m = L->m;
  const gac_async_copy_info *info = gac_async_copy_info_for(c->op);
  c->src_ptr = gac_type_pointer(m, c->src_sc, L->uchar_type);
  c->dst_ptr = gac_type_pointer(m, c->dst_sc, L->uchar_type);
  uint32_t types[16];
  unsigned n = 0;
  for (unsigned i = 0; i < info->num_operands; i++) {
    const gac_async_copy_operand_info *o = &info->operands[i];
    if (fixed_by_class(c, o))
      continue;
    types[n++] = o->field == offsetof(gac_async_copy, source)        ? c->src_ptr
                 : o->field == offsetof(gac_async_copy, destination) ? c->dst_ptr
                 : o->field == offsetof(gac_async_copy, event)       ? L->event_type
                                                                     : L->size_type;
  }
  uint32_t fn_type = gac_type_function(m, L->event_type, types, n);
  gac_function *f = gac_function_create(m, L->event_type, SpvFunctionControlMaskNone, fn_type);
  c->function = f->def->result_id;
  /* k: the parameters, or the constants the class fixes (taken from `like`). */
  gac_async_copy k = *like;
  for (unsigned i = 0, p = 0; i < info->num_operands; i++) {
    const gac_async_copy_operand_info *o = &info->operands[i];
    if (!fixed_by_class(c, o))
      *gac_async_copy_field(&k, o) = gac_function_add_param(m, f, types[p++]);
  }
  gac_block *entry = gac_block_create(m, f, NULL);
  gac_block *exit = gac_block_create(m, f, entry);
  uint32_t event = H->body(L, &k, entry, exit, H->user);
  gac_builder r = gac_builder_at_end(m, &exit->insts);
  gac_build_ops(&r, SpvOpReturnValue, 0, 0, GAC_ID(event));

  char name[96];
  snprintf(name, sizeof name, "gac.copy.%s.%s.to.%s", c->op == GAC_GROUP_ASYNC_COPY_3D3D ? "3d" : "2d",
           space_name(c->src_sc), space_name(c->dst_sc));
  if (c->bytes_per_element)
    snprintf(name + strlen(name), sizeof name - strlen(name), ".e%llu", (unsigned long long)c->bytes_per_element);
  if (c->per_line)
    snprintf(name + strlen(name), sizeof name - strlen(name), ".n%llu", (unsigned long long)c->per_line);
  gac_builder d = gac_builder_at_end(m, &m->sections[GAC_SECTION_DEBUG_NAME]);
  gac_build_ops(&d, SpvOpName, 0, 0, GAC_ID(c->function), GAC_STR(name));
}

/* ptr as a value of type `bytes` (a uchar pointer of its storage class). */
static uint32_t as_param(gac_module *m, gac_builder *b, uint32_t ptr, uint32_t bytes) {
  const gac_inst *def = gac_def(m, ptr);
  if (def && def->type_id == bytes)
    return ptr;
  return gac_build_ops(b, SpvOpBitcast, bytes, GAC_NEW_ID, GAC_ID(ptr))->result_id;
}

bool copy_helpers_call(copy_helpers *H, gac_inst *inst, const gac_async_copy *k) {
  gac_module *m = H->L->m;
  copy_class *c = H->mode == GAC_OPENCL_HELPERS_NEVER ? NULL : class_of(H, k);
  if (!c || !wants_helper(H, k, c))
    return false;
  if (!c->function)
    make_helper(H, c, k);
  const gac_async_copy_info *info = gac_async_copy_info_for(c->op);
  gac_op ops[17];
  unsigned n = 0;
  ops[n++] = GAC_ID(c->function);
  /* The call replaces the copy in place and keeps its result id. A copy is
   * never a block's last instruction, so `next` exists. */
  gac_inst *next = inst->next;
  uint32_t result = inst->result_id;
  gac_inst_remove(m, inst);
  gac_builder b = gac_builder_before(m, next);
  for (unsigned i = 0; i < info->num_operands; i++) {
    const gac_async_copy_operand_info *o = &info->operands[i];
    if (fixed_by_class(c, o))
      continue;
    uint32_t v = gac_async_copy_get(k, o);
    if (o->field == offsetof(gac_async_copy, source))
      v = as_param(m, &b, v, c->src_ptr);
    else if (o->field == offsetof(gac_async_copy, destination))
      v = as_param(m, &b, v, c->dst_ptr);
    ops[n++] = GAC_ID(v);
  }
  gac_build(&b, SpvOpFunctionCall, H->L->event_type, result, ops, n);
  return true;
}
