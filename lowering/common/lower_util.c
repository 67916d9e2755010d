/* Helpers shared by the lowering passes: arithmetic on the size type,
 * counted loops, the work-item's index in its group. */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_pipeline.h"
#include "lower_target.h"

uint32_t lower_op2(gac_builder *b, uint16_t opcode, uint32_t type, uint32_t x, uint32_t y) {
  return gac_build_ops(b, opcode, type, GAC_NEW_ID, GAC_ID(x), GAC_ID(y))->result_id;
}

uint32_t lower_mul(const gac_lowering *L, gac_builder *b, uint32_t x, uint32_t y) {
  return lower_op2(b, SpvOpIMul, L->size_type, x, y);
}

uint32_t lower_add(const gac_lowering *L, gac_builder *b, uint32_t x, uint32_t y) {
  return lower_op2(b, SpvOpIAdd, L->size_type, x, y);
}

bool lower_known_zero(const gac_lowering *L, uint32_t id) {
  uint64_t v;
  return gac_constant_value(L->m, id, &v) && v == 0;
}

/* x, or 1 where x is 0: a divisor that cannot be zero. The loops that
 * divide never run when it is 0, but a division by a constant 0 in code that
 * does not run is still undefined to LLVM (PoCL crashed on such a kernel). */
uint32_t lower_nonzero(gac_lowering *L, gac_builder *b, uint32_t x) {
  gac_inst *def = gac_def(L->m, x);
  if (def && def->opcode == SpvOpConstant && def->words[3] != 0)
    return x;
  uint32_t is_zero = lower_op2(b, SpvOpIEqual, L->bool_type, x, L->zero);
  return gac_build_ops(b, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(is_zero), GAC_ID(L->one), GAC_ID(x))->result_id;
}

/* A counted loop `for (i = first; i < count; i += step) body(i)` between
 * `from` (which gets the branch into it) and `exit`. Returns the body block's
 * builder through *body and the counter through *counter; the caller fills the
 * body and then calls loop_close. */

gac_loop lower_loop_open(gac_lowering *L, gac_block *from, gac_block *exit, uint32_t first, uint32_t count,
                      uint32_t carried_type, uint32_t carried_in) {
  gac_module *m = L->m;
  gac_loop lp = {0};
  lp.header = gac_block_create(m, from->function, from);
  lp.body = gac_block_create(m, from->function, lp.header);
  lp.next_counter = gac_module_new_id(m);
  gac_builder f = gac_builder_at_end(m, &from->insts);
  gac_build_ops(&f, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(lp.header)));
  gac_builder h = gac_builder_at_end(m, &lp.header->insts);
  lp.counter = gac_build_ops(&h, SpvOpPhi, L->size_type, GAC_NEW_ID, GAC_ID(first),
                             GAC_ID(gac_block_label(from)), GAC_ID(lp.next_counter),
                             GAC_ID(gac_block_label(lp.body)))->result_id;
  if (carried_type) {
    lp.next_carried = gac_module_new_id(m);
    lp.carried = gac_build_ops(&h, SpvOpPhi, carried_type, GAC_NEW_ID, GAC_ID(carried_in),
                               GAC_ID(gac_block_label(from)), GAC_ID(lp.next_carried),
                               GAC_ID(gac_block_label(lp.body)))->result_id;
  }
  uint32_t more = lower_op2(&h, SpvOpULessThan, L->bool_type, lp.counter, count);
  gac_build_ops(&h, SpvOpBranchConditional, 0, 0, GAC_ID(more), GAC_ID(gac_block_label(lp.body)),
                GAC_ID(gac_block_label(exit)));
  return lp;
}

gac_loop lower_shared_loop(gac_lowering *L, gac_block *from, gac_block *exit, uint32_t first, uint32_t step,
                           uint32_t total, bool first_below_step, uint32_t *index) {
  gac_builder f = gac_builder_at_end(L->m, &from->insts);
  /* The counter k runs from 0 to this work-item's count; the unit is
   * first + k x step. The count is computed so that nothing overflows. When
   * first < step (a work-item's share: first is its id, step the group's
   * size) it is total / step, plus one for the first total % step ids: a
   * constant step makes that shifts, and a constant total too makes the
   * count a constant where step divides total (the loop then goes away). */
  uint32_t count;
  uint64_t constant;
  if (first_below_step && L->target && L->target->step_units && !gac_constant_value(L->m, step, &constant)) {
    /* A step known only at run time (the work-group size of a kernel that
     * fixes none), on a target that steps units (lower_target.h): the
     * counter is the unit itself, first, first + step, ... below total,
     * with no division (which LLVM cannot hoist out of the branch that
     * chooses the unit width: a div.u32 per copy per iteration,
     * sgemm_noreqd on the PTX path). No overflow: one side of a copy is
     * local memory, so total is far below the size type's range. */
    gac_loop lp = lower_loop_open(L, from, exit, first, total, 0, 0);
    lp.step = step;
    *index = lp.counter;
    return lp;
  }
  if (first_below_step) {
    uint32_t whole = lower_op2(&f, SpvOpUDiv, L->size_type, total, step);
    uint32_t rest = lower_op2(&f, SpvOpUMod, L->size_type, total, step);
    uint32_t more = lower_op2(&f, SpvOpULessThan, L->bool_type, first, rest);
    count = lower_add(L, &f, whole, gac_build_ops(&f, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(more),
                                                  GAC_ID(L->one), GAC_ID(L->zero))->result_id);
  } else {
    uint32_t has_units = lower_op2(&f, SpvOpULessThan, L->bool_type, first, total);
    uint32_t span = lower_add(L, &f, lower_op2(&f, SpvOpISub, L->size_type, total, first),
                              lower_op2(&f, SpvOpISub, L->size_type, step, L->one));
    count = lower_op2(&f, SpvOpUDiv, L->size_type, span, step);
    count = gac_build_ops(&f, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(has_units), GAC_ID(count),
                          GAC_ID(L->zero))->result_id;
  }
  gac_loop lp = lower_loop_open(L, from, exit, L->zero, count, 0, 0);
  gac_builder b = gac_builder_at_end(L->m, &lp.body->insts);
  *index = lower_add(L, &b, first, lower_mul(L, &b, lp.counter, step));
  return lp;
}

/* Ends the body: counter += step, back to the header. The body may have
 * grown into several blocks; `last` is the one that ends it. */
void lower_loop_close(gac_lowering *L, const gac_loop *lp, gac_block *last, uint32_t step) {
  /* The header's OpPhi take the back edge from `last`. */
  if (last != lp->body)
    gac_foreach_inst(i, &lp->header->insts) {
      for (unsigned k = 3; i->opcode == SpvOpPhi && k < i->num_operands; k += 2) /* (type, result, value, block...) */
        if (gac_operand_word(i, k) == gac_block_label(lp->body))
          gac_inst_set_id_operand(L->m, i, k, gac_block_label(last));
    }
  gac_builder b = gac_builder_at_end(L->m, &last->insts);
  gac_build_ops(&b, SpvOpIAdd, L->size_type, lp->next_counter, GAC_ID(lp->counter), GAC_ID(lp->step ? lp->step : step));
  gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(lp->header)));
}


/* Annotations of loops not pipelined: the loop runs as written. */
void lower_drop_pipeline_markers(gac_module *m) {
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        uint32_t op = gac_async_pipeline_op_of(m, i);
        if (op == GAC_PIPELINE_LOOP || op == GAC_PIPELINE_STATEMENT)
          gac_inst_remove(m, i);
      }
    }
  }
}

void gac_lowering_init(gac_lowering *L, gac_module *m) {
  uint32_t width = gac_module_addressing_model(m) == SpvAddressingModelPhysical32 ? 32 : 64;
  L->m = m;
  /* The types made here are in the module from now on: so are their capabilities. */
  if (width == 64)
    gac_require_capability(m, SpvCapabilityInt64);
  gac_require_capability(m, SpvCapabilityInt8);
  L->size_type = gac_type_int(m, width, 0);
  L->bool_type = gac_type_bool(m);
  L->uchar_type = gac_type_int(m, 8, 0);
  L->event_type = gac_type_event(m);
  L->zero = gac_constant_int(m, L->size_type, 0);
  L->one = gac_constant_int(m, L->size_type, 1);
  L->scope_workgroup = gac_constant_int(m, gac_type_int(m, 32, 0), SpvScopeWorkgroup);
  L->diag = NULL;
  L->target = NULL;
  L->target_state = NULL;
}

void lower_workgroup_barrier(gac_lowering *L, gac_builder *b) {
  uint32_t semantics = gac_constant_int(L->m, gac_type_int(L->m, 32, 0),
                                        SpvMemorySemanticsSequentiallyConsistentMask |
                                            SpvMemorySemanticsWorkgroupMemoryMask |
                                            SpvMemorySemanticsCrossWorkgroupMemoryMask);
  gac_build_ops(b, SpvOpControlBarrier, 0, 0, GAC_ID(L->scope_workgroup), GAC_ID(L->scope_workgroup),
                GAC_ID(semantics));
}

/* The three components of a vector builtin input (LocalInvocationId, WorkgroupSize). */
static void builtin_components(gac_lowering *L, gac_builder *b, uint32_t builtin, uint32_t out[3]) {
  uint32_t v3 = gac_type_vector(L->m, L->size_type, 3);
  uint32_t var = gac_require_builtin_input(L->m, builtin, v3);
  uint32_t value = gac_build_ops(b, SpvOpLoad, v3, GAC_NEW_ID, GAC_ID(var))->result_id;
  for (unsigned i = 0; i < 3; i++)
    out[i] = gac_build_ops(b, SpvOpCompositeExtract, L->size_type, GAC_NEW_ID, GAC_ID(value), GAC_LIT(i))->result_id;
}

/* The work-item's linear index in the group, and the group's size. */
static void linear_local_id(gac_lowering *L, gac_builder *b, const gac_function *f, uint32_t *id, uint32_t *size);

void lower_linear_local_id(gac_lowering *L, gac_builder *b, const gac_function *f, uint32_t *id, uint32_t *size) {
  linear_local_id(L, b, f, id, size);
  if (L->target && L->target->participants)
    L->target->participants(L, b, id, size);
}

static void linear_local_id(gac_lowering *L, gac_builder *b, const gac_function *f, uint32_t *id, uint32_t *size) {
  uint32_t l[3], s[3];
  uint64_t known[3];
  builtin_components(L, b, SpvBuiltInLocalInvocationId, l);
  if (f && gac_local_size(L->m, f->def->result_id, GAC_LOCAL_SIZE_EVERY_LAUNCH, known)) {
    for (unsigned d = 0; d < 3; d++)
      s[d] = gac_constant_int(L->m, L->size_type, known[d]);
    uint32_t sxy = gac_constant_int(L->m, L->size_type, known[0] * known[1]);
    *size = gac_constant_int(L->m, L->size_type, known[0] * known[1] * known[2]);
    *id = l[0];
    if (known[1] > 1)
      *id = lower_add(L, b, *id, lower_mul(L, b, l[1], s[0]));
    if (known[2] > 1)
      *id = lower_add(L, b, *id, lower_mul(L, b, l[2], sxy));
    return;
  }
  builtin_components(L, b, SpvBuiltInWorkgroupSize, s);
  uint32_t sxy = lower_mul(L, b, s[0], s[1]);
  *id = lower_add(L, b, l[0], lower_add(L, b, lower_mul(L, b, l[1], s[0]), lower_mul(L, b, l[2], sxy)));
  *size = lower_mul(L, b, sxy, s[2]);
}


void lower_call(gac_lowering *L, gac_builder *b, const char *name, unsigned n, const uint32_t *types,
                const uint32_t *args) {
  uint32_t void_type = gac_type_void(L->m);
  uint32_t f = gac_require_import_function(L->m, name, void_type, types, n);
  gac_op ops[8];
  ops[0] = GAC_ID(f);
  for (unsigned i = 0; i < n && i < 7; i++)
    ops[i + 1] = GAC_ID(args[i]);
  gac_build(b, SpvOpFunctionCall, void_type, GAC_NEW_ID, ops, n + 1);
}

uint32_t lower_to_u32(gac_lowering *L, gac_builder *b, uint32_t x) {
  uint32_t uint = gac_type_int(L->m, 32, 0);
  if (gac_value_type(L->m, x) == gac_def(L->m, uint))
    return x;
  return gac_build_ops(b, SpvOpUConvert, uint, GAC_NEW_ID, GAC_ID(x))->result_id;
}

gac_function *lower_function_by_id(const gac_module *m, uint32_t id) {
  for (gac_function *f = m->first_function; f; f = f->next)
    if (f->def->result_id == id)
      return f;
  return NULL;
}


const gac_inst *lower_only_call(gac_module *m, uint32_t fn) {
  const gac_inst *call = NULL;
  for (gac_operand *u = gac_first_use(m, fn); u; u = u->next_use) {
    if (u->inst->opcode != SpvOpFunctionCall || gac_operand_word(u->inst, 2) != fn)
      continue;
    if (call)
      return NULL;
    call = u->inst;
  }
  return call;
}

uint32_t lower_ulong_type(gac_module *m) {
  gac_require_capability(m, SpvCapabilityInt64);
  return gac_type_int(m, 64, 0);
}

uint32_t lower_storage_class(const gac_module *m, uint32_t pointer) {
  const gac_inst *type = gac_value_type(m, pointer);
  return type && type->opcode == SpvOpTypePointer ? type->words[2] : ~0u;
}

bool lower_global_to_local(const gac_module *m, uint32_t dst, uint32_t src) {
  return lower_storage_class(m, dst) == SpvStorageClassWorkgroup &&
         lower_storage_class(m, src) == SpvStorageClassCrossWorkgroup;
}

bool lower_copy_ends(const gac_module *m, const gac_inst *copy, uint32_t *dst, uint32_t *src) {
  gac_async_copy k;
  if (gac_async_copy_decode(m, copy, &k)) {
    *dst = k.destination, *src = k.source;
    return true;
  }
  if (copy->opcode != SpvOpGroupAsyncCopy) /* (Execution, Destination, Source, ...) */
    return false;
  *dst = gac_operand_word(copy, 3), *src = gac_operand_word(copy, 4);
  return true;
}

bool lower_copy_loads_local(const gac_module *m, const gac_inst *copy) {
  uint32_t dst, src;
  return lower_copy_ends(m, copy, &dst, &src) && lower_global_to_local(m, dst, src);
}

void lower_reach_blocks(const gac_module *m, gac_block *from, const gac_block *stop, uint8_t *seen, uint32_t bound) {
  gac_block *stack[4096];
  unsigned sp = 0;
  stack[sp++] = from;
  seen[gac_block_label(from)] = 1;
  while (sp) {
    gac_block *b = stack[--sp];
    gac_inst *term = gac_block_terminator(b);
    unsigned targets[8], nt = term ? gac_terminator_targets(term, targets, 8) : 0;
    for (unsigned k = 0; k < nt; k++) {
      uint32_t label = gac_operand_word(term, targets[k]);
      gac_inst *l = gac_def(m, label);
      gac_block *s = l && l->opcode == SpvOpLabel ? gac_inst_block(l) : NULL;
      if (s && s != stop && label < bound && !seen[label] && sp < 4096)
        seen[label] = 1, stack[sp++] = s;
    }
  }
}

bool lower_is_pure(const gac_module *m, const gac_inst *i) {
  switch (i->opcode) {
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod:
  case SpvOpSRem: case SpvOpSMod: case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
  case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
  case SpvOpNot: case SpvOpSNegate: case SpvOpUConvert: case SpvOpSConvert: case SpvOpConvertUToF:
  case SpvOpConvertSToF: case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpFConvert: case SpvOpBitcast:
  case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpFNegate:
  case SpvOpIEqual: case SpvOpINotEqual: case SpvOpULessThan: case SpvOpSLessThan: case SpvOpUGreaterThan:
  case SpvOpSGreaterThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual: case SpvOpUGreaterThanEqual:
  case SpvOpSGreaterThanEqual: case SpvOpSelect: case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot:
  case SpvOpCompositeExtract: case SpvOpCompositeConstruct: case SpvOpVectorShuffle:
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: case SpvOpCopyObject: case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
  case SpvOpGenericCastToPtr: case SpvOpPtrCastToGeneric:
    return true;
  case SpvOpLoad: { /* of a builtin input (ids, sizes): the same all along */
    gac_inst *var = gac_def(m, gac_operand_word(i, 2));
    return var && var->opcode == SpvOpVariable && var->words[3] == SpvStorageClassInput;
  }
  case SpvOpExtInst: { /* OpenCL.std math, not its vector loads and stores */
    unsigned ptr;
    return !gac_async_pipeline_op_of(m, i) && !gac_is_async_copy_inst(m, i) &&
           gac_opencl_std_memory_use(m, i, &ptr) == GAC_MEMORY_NONE;
  }
  default:
    return false;
  }
}
