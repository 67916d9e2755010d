/* Gives builtins the named-address-space pointer a generic pointer was made
 * from. OpenCL C 2.0 and 3.0 pass generic pointers to builtins (clang casts
 * `&event` to generic for wait_group_events, `p` for vload4, fract, atomics),
 * and llvm-spirv-15 -r then calls the generic overloads (`...PU3AS4...`).
 * PoCL 3.1's kernel library has none of them: wait_group_events' is declared
 * but calls an undefined function, so the kernel fails to load (dlopen) and
 * PoCL aborts the host process. Where the generic pointer is a cast of a
 * named one (directly or through bitcasts and access chains), the builtin
 * gets the named one, which SPIR-V allows for all of these. The events of
 * OpGroupWaitEvents can only be in private memory (OpenCL C forbids event_t
 * elsewhere), so a generic events pointer of any other origin is cast back to
 * Function storage. Anything left is for the layer's link check to report. */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "gac/module.h"

/* Instructions that make a pointer from a pointer (their operand 2). */
static bool is_pointer_chain(uint16_t opcode) {
  return opcode == SpvOpBitcast || opcode == SpvOpAccessChain || opcode == SpvOpInBoundsAccessChain ||
         opcode == SpvOpPtrAccessChain || opcode == SpvOpInBoundsPtrAccessChain;
}

static bool is_generic_pointer(const gac_module *m, uint32_t id) {
  const gac_inst *t = gac_value_type(m, id);
  return t && t->opcode == SpvOpTypePointer && gac_operand_word(t, 1) == SpvStorageClassGeneric;
}

/* The named pointer equivalent to generic pointer `id`, built next to the
 * generic chain where needed, or 0 when its origin is not a cast. Depth is
 * bounded: input-controlled chains cannot recurse without end. */
static uint32_t named_pointer(gac_module *m, uint32_t id, unsigned depth) {
  gac_inst *def = gac_def(m, id);
  if (!def || depth > 64)
    return 0;
  if (def->opcode == SpvOpPtrCastToGeneric)
    return gac_operand_word(def, 2);
  if (!is_pointer_chain(def->opcode) || !gac_inst_block(def) || !is_generic_pointer(m, gac_operand_word(def, 2)))
    return 0;
  uint32_t base = named_pointer(m, gac_operand_word(def, 2), depth + 1);
  const gac_inst *base_type = base ? gac_value_type(m, base) : NULL;
  const gac_inst *type = gac_def(m, def->type_id);
  if (!base_type || !type || type->opcode != SpvOpTypePointer)
    return 0;
  /* The same instruction on the named base, in the base's storage class. */
  uint32_t named_type = gac_type_pointer(m, gac_operand_word(base_type, 1), gac_operand_word(type, 2));
  gac_op ops[16];
  unsigned n = 0;
  for (unsigned i = 2; i < def->num_operands && n < 16; i++)
    ops[n++] = i == 2 ? GAC_ID(base)
                      : (gac_op){def->operands[i].kind, gac_operand_word(def, i), NULL};
  if (n != def->num_operands - 2u)
    return 0;
  gac_builder b = gac_builder_after(m, def);
  return gac_build(&b, def->opcode, named_type, GAC_NEW_ID, ops, n)->result_id;
}

static bool is_atomic(uint16_t opcode) {
  return (opcode >= SpvOpAtomicLoad && opcode <= SpvOpAtomicXor) || opcode == SpvOpAtomicFlagTestAndSet ||
         opcode == SpvOpAtomicFlagClear || opcode == SpvOpAtomicFMinEXT || opcode == SpvOpAtomicFMaxEXT ||
         opcode == SpvOpAtomicFAddEXT;
}

/* Removes the generic chain of `id` (casts, bitcasts, access chains) where
 * nothing uses it any more. */
static bool names_only(gac_module *m, uint32_t id) {
  for (gac_operand *use = gac_first_use(m, id); use; use = use->next_use)
    if (use->inst->opcode != SpvOpName && use->inst->opcode != SpvOpDecorate)
      return false;
  return true;
}

static void remove_if_dead(gac_module *m, uint32_t id, unsigned depth) {
  gac_inst *def = gac_def(m, id);
  if (!def || depth > 64 || !gac_inst_block(def) || !names_only(m, id))
    return;
  if ((def->opcode != SpvOpPtrCastToGeneric && !is_pointer_chain(def->opcode)) || !is_generic_pointer(m, id))
    return;
  uint32_t base = gac_operand_word(def, 2);
  for (gac_operand *use; (use = gac_first_use(m, id));)
    gac_inst_remove(m, use->inst); /* its OpName and decorations */
  gac_inst_remove(m, def);
  remove_if_dead(m, base, depth + 1);
}

/* Replaces generic pointer operand `op` of inst by its named equivalent. */
static bool specialize_operand(gac_module *m, gac_inst *inst, unsigned op) {
  uint32_t id = gac_operand_word(inst, op);
  if (inst->operands[op].kind != GAC_OPERAND_ID || !is_generic_pointer(m, id))
    return false;
  uint32_t named = named_pointer(m, id, 0);
  if (!named && inst->opcode == SpvOpGroupWaitEvents) {
    const gac_inst *type = gac_value_type(m, id);
    uint32_t private_type = gac_type_pointer(m, SpvStorageClassFunction, gac_operand_word(type, 2));
    gac_builder b = gac_builder_before(m, inst);
    named = gac_build_ops(&b, SpvOpGenericCastToPtr, private_type, GAC_NEW_ID, GAC_ID(id))->result_id;
  }
  if (!named)
    return false;
  gac_inst_set_id_operand(m, inst, op, named);
  remove_if_dead(m, id, 0);
  return true;
}

static bool is_opencl_std(const gac_inst *inst, uint32_t opencl_std) {
  return inst->opcode == SpvOpExtInst && opencl_std && gac_operand_word(inst, 2) == opencl_std;
}

bool gac_specialize_generic_pointers(gac_module *m, const char *arg, gac_diag *diag) {
  (void)arg;
  (void)diag;
  bool progress = false;
  uint32_t opencl_std = gac_find_ext_inst_import(m, "OpenCL.std");
  gac_module_build_uses(m);
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(inst, &b->insts) {
        if (is_opencl_std(inst, opencl_std)) {
          for (unsigned op = 4; op < inst->num_operands; op++)
            progress |= specialize_operand(m, inst, op);
        } else if (inst->opcode == SpvOpGroupWaitEvents && inst->num_operands == 3) {
          progress |= specialize_operand(m, inst, 2);
        } else if (is_atomic(inst->opcode) && inst->num_operands > 2) {
          /* The pointer is the first operand after result type and result. */
          progress |= specialize_operand(m, inst, gac_inst_first_in_operand(inst));
        }
      }
    }
  }
  return progress;
}
