/* What a module states outright (gac/known.h): a constant's value, a
 * type's size, the work-group size a function runs under. */
#include <string.h>

#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "gac/known.h"

bool gac_constant_value(const gac_module *m, uint32_t id, uint64_t *value) {
  const gac_inst *def = gac_def(m, id);
  if (def && def->opcode == SpvOpConstantNull) {
    *value = 0;
    return true;
  }
  if (!def || def->opcode != SpvOpConstant || def->num_words < 4)
    return false;
  *value = def->words[3] | (def->num_words > 4 ? (uint64_t)def->words[4] << 32 : 0);
  return true;
}

bool gac_type_size(const gac_module *m, uint32_t type, gac_size_rule rule, uint64_t *size) {
  const gac_inst *t = gac_def(m, type);
  uint64_t n, e;
  if (!t)
    return false;
  switch (t->opcode) {
  case SpvOpTypeInt: case SpvOpTypeFloat:
    *size = t->words[2] / 8;
    return rule == GAC_SIZE_ELEMENT || t->words[2] % 8 == 0;
  case SpvOpTypeVector: /* OpenCL's 3-element vectors take the room of 4 */
    if (!gac_type_size(m, t->words[2], rule, &e))
      return false;
    *size = e * (t->words[3] == 3 ? 4 : t->words[3]);
    return true;
  case SpvOpTypeArray:
    if (rule == GAC_SIZE_ELEMENT || !gac_constant_value(m, t->words[3], &n) ||
        !gac_type_size(m, t->words[2], rule, &e) || (e && n > UINT64_MAX / e))
      return false;
    *size = n * e;
    return true;
  default:
    return false;
  }
}

/* fn's LocalSize execution mode, into size; true if all three are not 0.
 * The rule says which one counts if fn declares it twice (the first for a
 * bound, the last for every launch). A LocalSize mode has 6 words (the
 * reader rejects any other count). */
static bool local_size_mode(const gac_module *m, uint32_t fn, gac_local_size_rule rule, uint64_t size[3]) {
  bool complete = false;
  gac_foreach_inst(i, (gac_inst_list *)&m->sections[GAC_SECTION_EXECUTION_MODE]) {
    if (i->opcode == SpvOpExecutionMode && i->num_words == 6 && i->words[1] == fn &&
        i->words[2] == SpvExecutionModeLocalSize) {
      for (unsigned d = 0; d < 3; d++)
        size[d] = i->words[3 + d];
      complete = size[0] && size[1] && size[2];
      if (rule == GAC_LOCAL_SIZE_BOUND)
        break;
    }
  }
  return complete;
}

static bool called(gac_module *m, uint32_t fn) {
  for (gac_operand *u = gac_first_use(m, fn); u; u = u->next_use)
    if (u->inst->opcode == SpvOpFunctionCall)
      return true;
  return false;
}

/* An entry point with a complete LocalSize that no function calls. */
static bool launched_kernel(gac_module *m, uint32_t fn, uint64_t size[3]) {
  return gac_is_entry_point(m, fn) && local_size_mode(m, fn, GAC_LOCAL_SIZE_EVERY_LAUNCH, size) && !called(m, fn);
}

/* Callers are followed up to this depth: OpenCL C has no recursion, and
 * llvm-spirv adds one level (an entry point that wraps the kernel's own
 * function), so a kernel's helper is two calls from its launch. */
enum { MAX_CALL_DEPTH = 8 };

static bool every_launch(gac_module *m, uint32_t fn, uint64_t size[3], unsigned depth) {
  if (gac_is_entry_point(m, fn))
    return launched_kernel(m, fn, size);
  bool known = false;
  for (gac_operand *u = gac_first_use(m, fn); u; u = u->next_use) {
    if (u->inst->opcode != SpvOpFunctionCall)
      continue;
    gac_block *blk = gac_inst_block(u->inst);
    uint64_t caller[3];
    if (!blk || depth == MAX_CALL_DEPTH || !every_launch(m, blk->function->def->result_id, caller, depth + 1))
      return false;
    if (known && (caller[0] != size[0] || caller[1] != size[1] || caller[2] != size[2]))
      return false;
    memcpy(size, caller, sizeof caller);
    known = true;
  }
  return known;
}

static bool bound(const gac_module *m, uint32_t fn, uint64_t size[3]) {
  memset(size, 0, 3 * sizeof *size);
  if (local_size_mode(m, fn, GAC_LOCAL_SIZE_BOUND, size))
    return true;
  bool called = false;
  gac_foreach_function(f, (gac_module *)m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (i->opcode != SpvOpFunctionCall || i->num_words < 4 || i->words[3] != fn)
          continue;
        uint64_t caller[3];
        if (!local_size_mode(m, f->def->result_id, GAC_LOCAL_SIZE_BOUND, caller)) {
          memset(size, 0, 3 * sizeof *size);
          return false;
        }
        for (unsigned d = 0; d < 3; d++)
          size[d] = caller[d] > size[d] ? caller[d] : size[d];
        called = true;
      }
    }
  }
  if (!called)
    memset(size, 0, 3 * sizeof *size);
  return called;
}

bool gac_local_size(gac_module *m, uint32_t function, gac_local_size_rule rule, uint64_t size[3]) {
  return rule == GAC_LOCAL_SIZE_BOUND ? bound(m, function, size) : every_launch(m, function, size, 0);
}

gac_memory_use gac_opencl_std_memory_use(const gac_module *m, const gac_inst *inst, unsigned *operand) {
  /* operands: result type, result, set, instruction, then the arguments */
  if (inst->opcode != SpvOpExtInst || inst->num_operands < 5 ||
      gac_operand_word(inst, 2) != gac_find_ext_inst_import(m, "OpenCL.std"))
    return GAC_MEMORY_NONE;
  unsigned arg; /* the pointer's argument index */
  gac_memory_use use;
  switch (gac_operand_word(inst, 3)) {
  case OpenCLstd_Vloadn: case OpenCLstd_Vload_half: case OpenCLstd_Vload_halfn: case OpenCLstd_Vloada_halfn:
    arg = 1, use = GAC_MEMORY_READ; /* (offset, p[, n]) */
    break;
  case OpenCLstd_Vstoren: case OpenCLstd_Vstore_half: case OpenCLstd_Vstore_half_r: case OpenCLstd_Vstore_halfn:
  case OpenCLstd_Vstore_halfn_r: case OpenCLstd_Vstorea_halfn: case OpenCLstd_Vstorea_halfn_r:
    arg = 2, use = GAC_MEMORY_WRITE; /* (data, offset, p[, mode]) */
    break;
  case OpenCLstd_Fract: case OpenCLstd_Frexp: case OpenCLstd_Lgamma_r: case OpenCLstd_Modf: case OpenCLstd_Sincos:
    arg = 1, use = GAC_MEMORY_WRITE; /* (x, p) */
    break;
  case OpenCLstd_Remquo:
    arg = 2, use = GAC_MEMORY_WRITE; /* (x, y, quo) */
    break;
  default:
    return GAC_MEMORY_NONE;
  }
  if (4 + arg >= inst->num_operands)
    return GAC_MEMORY_NONE; /* malformed: the validator says so */
  *operand = 4 + arg;
  return use;
}
