/* Versions of the pipelined loop's Workgroup buffers (pipeline_add_versions).
 *
 * A pipelined loop's local tiles need one version per stage in flight
 * (pipeline_find_buffers). A Workgroup array declared in the kernel gets
 * them by widening: [V x T] in place of T (pipeline_version_variable). Kernels
 * written like CLBlast's Xgemm declare the tiles in the kernel and hand
 * them to a helper function that holds the loop:
 *
 *     __local float4 alm[256];            // the kernel
 *     XgemmBody(..., alm, blm);           // the loop is in XgemmBody
 *
 * so the loop sees a parameter, `__local float4 *alm`. Its versions can
 * still be made, in the callers: every call passes the start of a
 * Workgroup array [N x T] of the parameter's element type T, of one length
 * N for all calls. Each such array becomes [V x [N x T]] (the callers'
 * other uses reach version 0), the parameter a pointer to that type, and
 * the helper's uses go through &alm[0][0], which each instance of the
 * pipelined loop replaces by &alm[v][0] (pipeline_emit_instance): the form
 * of a kernel's own versioned array, which --check-async follows. A
 * parameter that a kernel's own argument reaches keeps the refusal it had:
 * the host sets that size. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "gac/known.h"
#include "lower_util.h"
#include "pipeline_loops_internal.h"

/* The index of parameter `param` in f, or -1. */
static int param_index(const gac_function *f, uint32_t param) {
  int k = 0;
  gac_foreach_inst(p, &f->params) {
    if (p->opcode != SpvOpFunctionParameter)
      continue;
    if (p->result_id == param)
      return k;
    k++;
  }
  return -1;
}

/* The call whose callee operand u is, or NULL. */
static gac_inst *call_of(gac_operand *u) {
  return u->inst->opcode == SpvOpFunctionCall && u == &u->inst->operands[2] ? u->inst : NULL;
}

/* The Workgroup variable whose start `arg` is (an access chain of constant
 * zero indices, or the variable itself), or NULL. */
static gac_inst *array_start(const gac_module *m, uint32_t arg) {
  for (unsigned depth = 0; depth < 8; depth++) {
    gac_inst *d = gac_def(m, arg);
    if (!d)
      return NULL;
    if (d->opcode == SpvOpVariable)
      return gac_operand_word(d, 2) == SpvStorageClassWorkgroup ? d : NULL;
    if (d->opcode != SpvOpAccessChain && d->opcode != SpvOpInBoundsAccessChain && d->opcode != SpvOpPtrAccessChain &&
        d->opcode != SpvOpInBoundsPtrAccessChain)
      return NULL;
    for (unsigned k = 3; k < d->num_operands; k++) {
      uint64_t v;
      if (!gac_constant_value(m, gac_operand_word(d, k), &v) || v != 0)
        return NULL;
    }
    arg = gac_operand_word(d, 2);
  }
  return NULL;
}

/* Whether id (the variable, or a chain of it) is only passed to calls,
 * or named, decorated or an interface: the callers do not touch the array,
 * whose accesses would see version 0 alone. */
static bool only_passed(gac_module *m, uint32_t id, unsigned depth) {
  for (gac_operand *u = gac_first_use(m, id); u; u = u->next_use) {
    SpvOp op = u->inst->opcode;
    bool chain = op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain ||
                 op == SpvOpInBoundsPtrAccessChain;
    if (op == SpvOpFunctionCall || op == SpvOpEntryPoint || op == SpvOpName || op == SpvOpDecorate)
      continue;
    if (!chain || depth > 4 || u != &u->inst->operands[2] || !only_passed(m, u->inst->result_id, depth + 1))
      return false;
  }
  return true;
}

/* The array type [N x T] of a Workgroup variable, its element T and N. */
static bool array_of(const gac_module *m, const gac_inst *var, uint32_t *elem, uint64_t *length) {
  const gac_inst *ptr = gac_def(m, var->type_id);
  const gac_inst *array = ptr ? gac_def(m, ptr->words[3]) : NULL;
  if (!array || array->opcode != SpvOpTypeArray)
    return false;
  *elem = array->words[2];
  return gac_constant_value(m, array->words[3], length);
}

static bool kernel_argument(pipeliner *P, const buffer_info *bi) {
  return pipeline_fail(P, gac_def(P->m, bi->var), "Pipeline.Buffers", "the __local kernel argument %%%u needs %u versions, "
                       "but its size is the host's to set; declare the array in the kernel instead", bi->var,
                       bi->versions);
}

bool pipeline_param_callers(pipeliner *P, buffer_info *bi) {
  gac_module *m = P->m;
  gac_inst *param = gac_def(m, bi->var);
  uint32_t fn = P->f->def->result_id;
  int index = param_index(P->f, bi->var);
  const gac_inst *ptr_type = gac_def(m, param->type_id);
  uint32_t elem = ptr_type && ptr_type->opcode == SpvOpTypePointer ? ptr_type->words[3] : 0;
  unsigned calls = 0;
  uint32_t array_type = 0;
  bi->version_elems = 0;
  if (gac_is_entry_point(m, fn))
    return kernel_argument(P, bi);
  for (gac_operand *u = gac_first_use(m, fn); u; u = u->next_use) {
    gac_inst *call = call_of(u);
    if (!call)
      continue;
    calls++;
    uint32_t arg = gac_operand_word(call, 3 + (unsigned)index);
    gac_inst *var = array_start(m, arg);
    uint32_t var_elem;
    uint64_t n;
    if (!var) {
      gac_inst *d = gac_def(m, arg);
      gac_function *caller = gac_inst_function(call);
      if (d && d->opcode == SpvOpFunctionParameter && caller && gac_is_entry_point(m, caller->def->result_id))
        return kernel_argument(P, bi); /* the kernel's body, called by its entry point (llvm-spirv's wrapper) */
      return pipeline_fail(P, call, "Pipeline.Buffers", "the __local pointer %%%u needs %u versions, but this call passes "
                           "something other than the start of a __local array; pass an array declared in the kernel",
                           bi->var, bi->versions);
    }
    if (!array_of(m, var, &var_elem, &n) || var_elem != elem)
      return pipeline_fail(P, call, "Pipeline.Buffers", "the __local pointer %%%u needs %u versions, but the array %%%u this "
                           "call passes is not an array of the pointer's element type", bi->var, bi->versions,
                           var->result_id);
    if (bi->version_elems && n != bi->version_elems)
      return pipeline_fail(P, call, "Pipeline.Buffers", "the __local pointer %%%u needs %u versions, but its calls pass "
                           "arrays of %llu and of %llu elements; each version must be one length", bi->var,
                           bi->versions, (unsigned long long)bi->version_elems, (unsigned long long)n);
    if (array_type && gac_def(m, var->type_id)->words[3] != array_type)
      return pipeline_fail(P, call, "Pipeline.Buffers", "the __local pointer %%%u needs %u versions, but its calls pass "
                           "arrays of two types", bi->var, bi->versions);
    array_type = gac_def(m, var->type_id)->words[3];
    if (!only_passed(m, var->result_id, 0))
      return pipeline_fail(P, call, "Pipeline.Buffers", "the __local pointer %%%u needs %u versions, made in the array "
                           "%%%u this call passes, which its kernel also uses; there it would see one version only",
                           bi->var, bi->versions, var->result_id);
    for (unsigned k = 0; k < P->num_buffers; k++) {
      const buffer_info *other = &P->buffers[k];
      if (other != bi && other->version_elems &&
          array_start(m, gac_operand_word(call, 3 + (unsigned)param_index(P->f, other->var))) == var)
        return pipeline_fail(P, call, "Pipeline.Buffers", "the array %%%u is passed for two __local pointers that "
                             "need versions", var->result_id);
    }
    bi->version_elems = n;
  }
  if (!calls || !bi->version_elems)
    return pipeline_fail(P, param, "Pipeline.Buffers", "the __local pointer %%%u needs %u versions, but nothing calls "
                         "this function with an array", bi->var, bi->versions);
  return true;
}

/* The parameter becomes a pointer to [V x [N x T]], as a kernel's own array
 * does (pipeline_add_versions), so that --check-async sees the versions; its
 * uses go through a pointer to element 0 of version 0 made at the entry,
 * and every caller passes its array, now [V x [N x T]], itself. */
void pipeline_add_param_versions(pipeliner *P, buffer_info *bi) {
  gac_module *m = P->m;
  gac_function *f = P->f;
  gac_inst *param = gac_def(m, bi->var);
  uint32_t elem_ptr = param->type_id, fn = f->def->result_id;
  unsigned index = (unsigned)param_index(f, bi->var);
  uint32_t versioned_ptr = 0;
  /* Each array the calls pass, once: [V x [N x T]], passed whole. */
  for (gac_operand *u = gac_first_use(m, fn); u; u = u->next_use) {
    gac_inst *call = call_of(u), *var = call ? array_start(m, gac_operand_word(call, 3 + index)) : NULL;
    if (!var || var->type_id == versioned_ptr)
      continue;
    uint32_t nv = pipeline_version_variable(P, var, bi->versions, NULL);
    versioned_ptr = gac_def(m, nv)->type_id;
    for (gac_operand *w = gac_first_use(m, fn); w; w = w->next_use)
      if (call_of(w) && array_start(m, gac_operand_word(w->inst, 3 + index)) == gac_def(m, nv))
        gac_inst_set_id_operand(m, w->inst, 3 + index, nv);
  }
  /* The helper: the parameter's new type, and its uses through &p[0][0]. */
  const gac_inst *ftype = gac_def(m, f->def->words[4]);
  unsigned nt = ftype->num_words - 3;
  uint32_t *types = malloc(nt * sizeof *types);
  memcpy(types, &ftype->words[3], nt * sizeof *types);
  types[index] = versioned_ptr;
  gac_inst_set_id_operand(m, f->def, 3, gac_type_function(m, ftype->words[2], types, nt));
  free(types);
  gac_inst_set_id_operand(m, param, 0, versioned_ptr);
  gac_builder e = gac_builder_before(m, gac_function_after_variables(f));
  uint32_t zero = pipeline_iv_const(P, 0);
  bi->base_ptr = gac_build_ops(&e, SpvOpInBoundsAccessChain, elem_ptr, GAC_NEW_ID, GAC_ID(bi->var), GAC_ID(zero),
                               GAC_ID(zero))->result_id;
  pipeline_replace_in_function(m, bi->var, bi->base_ptr, f, gac_def(m, bi->base_ptr));
}

void pipeline_replace_in_function(gac_module *m, uint32_t old, uint32_t id, const gac_function *g, const gac_inst *keep) {
  for (gac_operand *u = gac_first_use(m, old), *next; u; u = next) {
    next = u->next_use;
    if (gac_inst_function(u->inst) == g && u->inst != keep)
      gac_inst_set_id_operand(m, u->inst, (unsigned)(u - u->inst->operands), id);
  }
}

uint32_t pipeline_version_variable(pipeliner *P, gac_inst *var, unsigned versions, uint32_t *v0_of_f) {
  gac_module *m = P->m;
  uint32_t elem = gac_def(m, var->type_id)->words[3];
  uint32_t array = gac_type_array(m, elem, gac_constant_int(m, gac_type_int(m, 32, 0), versions));
  uint32_t array_ptr = gac_type_pointer(m, SpvStorageClassWorkgroup, array);
  gac_builder g = gac_builder_at_end(m, &m->sections[GAC_SECTION_GLOBAL]); /* after its new types */
  uint32_t nv = gac_build_ops(&g, SpvOpVariable, array_ptr, GAC_NEW_ID, GAC_LIT(SpvStorageClassWorkgroup))->result_id;
  if (v0_of_f)
    *v0_of_f = 0;
  gac_foreach_function(h, m) {
    bool uses = false;
    for (gac_operand *u = gac_first_use(m, var->result_id); u && !uses; u = u->next_use)
      uses = gac_inst_function(u->inst) == h;
    if (!uses)
      continue;
    gac_builder e = gac_builder_before(m, gac_function_after_variables(h));
    uint32_t v0 = gac_build_ops(&e, SpvOpInBoundsAccessChain, var->type_id, GAC_NEW_ID, GAC_ID(nv),
                                GAC_ID(pipeline_iv_const(P, 0)))->result_id;
    pipeline_replace_in_function(m, var->result_id, v0, h, gac_def(m, v0));
    if (h == P->f && v0_of_f)
      *v0_of_f = v0;
  }
  gac_replace_all_uses(m, var->result_id, nv); /* names, decorations, interfaces */
  gac_inst_remove(m, var);
  return nv;
}

/* A Workgroup array with versions: [V x T] in place of T, every use in the
 * function through a pointer to version 0 made at the entry; instances
 * index their own version instead. */
void pipeline_add_versions(pipeliner *P, buffer_info *bi) {
  gac_inst *var = gac_def(P->m, bi->var);
  if (var->opcode == SpvOpFunctionParameter)
    pipeline_add_param_versions(P, bi);
  else
    bi->var = pipeline_version_variable(P, var, bi->versions, &bi->base_ptr);
}
