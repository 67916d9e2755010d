/* Reading a binary: SPIRV-Tools' spvBinaryParse decodes the words and operand
 * kinds; we place each instruction into the logical layout and reject what
 * cannot be placed, so that writing gives back the same words. */
#include <stdlib.h>
#include <string.h>

#include "spirv_tools.h"
#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "internal.h"


typedef enum scope {
  SCOPE_MODULE,  /* before the first function */
  SCOPE_PARAMS,  /* after OpFunction, before the first OpLabel */
  SCOPE_BLOCK,   /* inside a block that has no terminator yet */
  SCOPE_BETWEEN, /* after a terminator: OpLabel or OpFunctionEnd must follow */
  SCOPE_AFTER_FUNCTION,
} scope;

typedef struct reader {
  gac_module *m;
  gac_diag *diag;
  size_t offset; /* word offset of the current instruction */
  gac_section section;
  scope scope;
  gac_function *function;
  gac_block *block;
  uint32_t max_id; /* largest id defined or referenced */
  bool header_read;
} reader;

static spv_result_t fail(reader *r, uint32_t id, const char *rule, const char *fmt, ...)
    GAC_PRINTF(4, 5);
static spv_result_t fail(reader *r, uint32_t id, const char *rule, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gac_diag_vadd(r->diag, GAC_ERROR, r->offset, id, rule, fmt, ap);
  va_end(ap);
  return SPV_ERROR_INVALID_BINARY;
}

static spv_result_t on_header(void *user, spv_endianness_t endian, uint32_t magic,
                              uint32_t version, uint32_t generator, uint32_t bound,
                              uint32_t schema) {
  reader *r = user;
  r->m->magic = magic;
  (void)endian; /* the caller swapped the words to native order */
  r->m->version = version;
  r->m->generator = generator;
  r->m->bound = bound;
  r->m->schema = schema;
  r->header_read = true;
  if (bound == 0) {
    gac_diag_add(r->diag, GAC_ERROR, 3, 0, "binary.header", "the id bound in the header is 0");
    return SPV_ERROR_INVALID_BINARY;
  }
  /* Checked before anything is sized by it (as spirv-val checks it): a
   * mutated bound must not cost gigabytes or wrap when a pass adds an id. */
  if (bound > GAC_MAX_ID_BOUND) {
    gac_diag_add(r->diag, GAC_ERROR, 3, 0, "binary.id-bound",
                 "the id bound %u in the header is larger than SPIR-V's limit of %u", bound, GAC_MAX_ID_BOUND);
    return SPV_ERROR_INVALID_BINARY;
  }
  return SPV_SUCCESS;
}

static bool is_id_type(spv_operand_type_t t) {
  return t == SPV_OPERAND_TYPE_ID || t == SPV_OPERAND_TYPE_TYPE_ID ||
         t == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID || t == SPV_OPERAND_TYPE_SCOPE_ID;
}

static gac_inst *copy_inst(reader *r, const spv_parsed_instruction_t *p) {
  gac_arena *a = r->m->arena;
  gac_inst *inst = gac_arena_alloc(a, sizeof(gac_inst));
  inst->words = gac_arena_alloc(a, p->num_words * sizeof(uint32_t));
  memcpy(inst->words, p->words, p->num_words * sizeof(uint32_t));
  inst->num_words = p->num_words;
  inst->opcode = p->opcode;
  inst->type_id = p->type_id;
  inst->result_id = p->result_id;
  inst->offset = r->offset;
  inst->num_operands = p->num_operands;
  inst->operands = gac_arena_alloc(a, p->num_operands * sizeof(gac_operand));
  for (unsigned i = 0; i < p->num_operands; i++) {
    const spv_parsed_operand_t *po = &p->operands[i];
    gac_operand *o = &inst->operands[i];
    o->offset = po->offset;
    o->num_words = po->num_words;
    o->inst = inst;
    if (po->type == SPV_OPERAND_TYPE_RESULT_ID)
      o->kind = GAC_OPERAND_RESULT_ID;
    else if (is_id_type(po->type))
      o->kind = GAC_OPERAND_ID;
    else if (po->type == SPV_OPERAND_TYPE_LITERAL_STRING)
      o->kind = GAC_OPERAND_STRING;
    else
      o->kind = GAC_OPERAND_LITERAL;
  }
  return inst;
}

static const char *opname(uint16_t op) { return gac_opcode_name(op); }

static spv_result_t check_operands(reader *r, const gac_inst *inst) {
  for (unsigned i = 0; i < inst->num_operands; i++) {
    const gac_operand *o = &inst->operands[i];
    if (o->kind == GAC_OPERAND_STRING) {
      /* SPIR-V 2.2.1: a string is padded with 0 after its NUL (text could not keep other bytes). */
      const char *s = (const char *)&inst->words[o->offset];
      for (size_t b = strlen(s); b < o->num_words * sizeof(uint32_t); b++)
        if (s[b])
          return fail(r, inst->result_id, "binary.string",
                      "%s: operand %u is a string whose padding after the NUL is not zero",
                      opname(inst->opcode), i);
    }
    if (o->kind != GAC_OPERAND_ID && o->kind != GAC_OPERAND_RESULT_ID)
      continue;
    uint32_t id = inst->words[o->offset];
    /* SPIRV-Tools has rejected id 0 and ids defined twice already. */
    if (id >= r->m->bound)
      return fail(r, inst->result_id, "binary.id-bound",
                  "%s: id %%%u is not below the id bound %u given in the header",
                  opname(inst->opcode), id, r->m->bound);
    if (id > r->max_id)
      r->max_id = id;
  }
  if (inst->result_id)
    gac_module_reserve_ids(r->m, inst->result_id + 1);
  return SPV_SUCCESS;
}

static bool opcode_allowed_before_label(uint16_t op) {
  return op == SpvOpFunctionParameter || op == SpvOpLine || op == SpvOpNoLine;
}

static spv_result_t place(reader *r, gac_inst *inst) {
  gac_module *m = r->m;
  uint16_t op = inst->opcode;
  switch (r->scope) {
  case SCOPE_MODULE:
  case SCOPE_AFTER_FUNCTION:
    if (op == SpvOpFunction) {
      gac_function *f = gac_function_append(m, inst);
      r->function = f;
      r->scope = SCOPE_PARAMS;
      return SPV_SUCCESS;
    }
    if (r->scope == SCOPE_AFTER_FUNCTION)
      return fail(r, inst->result_id, "layout.order",
                  "%s at module scope after a function: only functions may follow the "
                  "first function (SPIR-V 2.4 Logical Layout)",
                  opname(op));
    {
      gac_section s = gac_section_of_opcode(op);
      if (s < r->section)
        return fail(r, inst->result_id, "layout.order",
                    "%s belongs in the %s section but follows %s (SPIR-V 2.4 Logical Layout)",
                    opname(op), gac_section_name(s), gac_section_name(r->section));
      if (op == SpvOpLabel || op == SpvOpFunctionEnd || op == SpvOpFunctionParameter ||
          gac_opcode_is_terminator(op))
        return fail(r, inst->result_id, "layout.scope", "%s outside a function", opname(op));
      r->section = s;
      gac_list_append(m, &m->sections[s], inst);
    }
    return SPV_SUCCESS;
  case SCOPE_PARAMS:
  case SCOPE_BETWEEN:
    if (op == SpvOpLabel) {
      gac_block *b = gac_block_append(m, r->function, inst);
      r->block = b;
      r->scope = SCOPE_BLOCK;
      return SPV_SUCCESS;
    }
    if (op == SpvOpFunctionEnd) {
      r->function->end = inst;
      gac_inst_link(m, inst);
      r->function = NULL;
      r->block = NULL;
      r->scope = SCOPE_AFTER_FUNCTION;
      return SPV_SUCCESS;
    }
    if (r->scope == SCOPE_PARAMS && opcode_allowed_before_label(op)) {
      gac_list_append(m, &r->function->params, inst);
      return SPV_SUCCESS;
    }
    if (r->scope == SCOPE_PARAMS)
      return fail(r, inst->result_id, "layout.function",
                  "%s between OpFunction %%%u and its first OpLabel", opname(op),
                  r->function->def->result_id);
    return fail(r, inst->result_id, "layout.block",
                "%s follows the terminator of block %%%u; expected OpLabel or OpFunctionEnd",
                opname(op), gac_block_label(r->block));
  case SCOPE_BLOCK:
    if (op == SpvOpLabel || op == SpvOpFunctionEnd || op == SpvOpFunction)
      return fail(r, inst->result_id, "layout.block",
                  "%s inside block %%%u, which has no terminator", opname(op),
                  gac_block_label(r->block));
    gac_list_append(m, &r->block->insts, inst);
    if (gac_opcode_is_terminator(op))
      r->scope = SCOPE_BETWEEN;
    return SPV_SUCCESS;
  }
  return SPV_ERROR_INTERNAL;
}

/* SPIR-V 2.2.1: a literal narrower than a word has its high-order bits zero,
 * or, for a signed integer, the sign's. A word with other bits set reads,
 * but no text can say it (the disassembler prints a number the assembler
 * refuses), and it is not a value of the type. */
static spv_result_t check_literal(reader *r, const gac_inst *inst, const gac_inst *type, uint32_t value) {
  if (!type || (type->opcode != SpvOpTypeInt && type->opcode != SpvOpTypeFloat) || type->words[2] >= 32 ||
      type->words[2] == 0)
    return SPV_SUCCESS;
  uint32_t width = type->words[2];
  bool is_signed = type->opcode == SpvOpTypeInt && type->words[3];
  uint32_t high = value >> width, sign = is_signed && (value >> (width - 1) & 1);
  if (high == (sign ? UINT32_MAX >> width : 0))
    return SPV_SUCCESS;
  return fail(r, inst->result_id, "binary.literal-width",
              "%s: the literal word 0x%08x does not fit the %u-bit type: its high-order bits must be %s "
              "(SPIR-V 2.2.1)",
              opname(inst->opcode), value, width, is_signed ? "the sign's" : "zero");
}

/* The literals typed by a narrower type: a constant's, and OpSwitch's case
 * values (the selector's type; one word each below 32 bits). */
static spv_result_t check_literal_width(reader *r, const gac_inst *inst) {
  if ((inst->opcode == SpvOpConstant || inst->opcode == SpvOpSpecConstant) && inst->num_words == 4)
    return check_literal(r, inst, gac_def(r->m, inst->type_id), inst->words[3]);
  if (inst->opcode == SpvOpSwitch && inst->num_words >= 3) {
    const gac_inst *type = gac_value_type(r->m, inst->words[1]);
    for (unsigned w = 3; w + 1 < inst->num_words; w += 2) {
      spv_result_t res = check_literal(r, inst, type, inst->words[w]);
      if (res != SPV_SUCCESS)
        return res;
    }
  }
  return SPV_SUCCESS;
}

static spv_result_t on_instruction(void *user, const spv_parsed_instruction_t *p) {
  reader *r = user;
  gac_inst *inst = copy_inst(r, p);
  spv_result_t res = check_operands(r, inst);
  if (res == SPV_SUCCESS)
    res = check_literal_width(r, inst);
  if (res == SPV_SUCCESS)
    res = place(r, inst);
  r->offset += p->num_words;
  return res;
}

static spv_target_env parse_env(void) { return SPV_ENV_UNIVERSAL_1_6; }

gac_module *gac_module_read(const uint32_t *words, size_t num_words, gac_diag *diag) {
  reader r = {.diag = diag, .offset = 5, .section = GAC_SECTION_CAPABILITY};
  r.m = gac_module_create(0);
  size_t errors_before = diag ? diag->error_count : 0;

  uint32_t *native;
  words = gac_native_words(words, num_words, &native);
  bool big_endian = native != NULL;
  /* SPIRV-Tools says only "Internal error: unhandled header parse failure" for these. */
  if (num_words >= 5 && words[0] == SpvMagicNumber &&
      ((words[1] & 0xff0000ffu) || words[1] < 0x00010000u || words[1] > 0x00010600u)) {
    gac_diag_add(diag, GAC_ERROR, 1, 0, "binary.header",
                 "unsupported SPIR-V version word 0x%08x: gac reads versions 1.0 to 1.6", words[1]);
    free(native);
    gac_module_destroy(r.m);
    return NULL;
  }
  spv_context ctx = spvContextCreate(parse_env());
  spv_diagnostic spv_diag = NULL;
  spv_result_t res =
      spvBinaryParse(ctx, &r, words, num_words, on_header, on_instruction, &spv_diag);
  free(native);
  r.m->big_endian = big_endian;
  if (res != SPV_SUCCESS && (!diag || diag->error_count == errors_before)) {
    /* SPIRV-Tools found it. Its position counts instructions, not words; the
     * instruction it failed on starts where on_instruction stopped. */
    gac_diag_add(diag, GAC_ERROR, r.header_read ? r.offset : 0, 0,
                 "binary.parse", "%s", spv_diag && spv_diag->error ? spv_diag->error : "invalid binary");
  }
  spvDiagnosticDestroy(spv_diag);
  spvContextDestroy(ctx);

  if (res == SPV_SUCCESS && (r.scope == SCOPE_PARAMS || r.scope == SCOPE_BLOCK ||
                             r.scope == SCOPE_BETWEEN)) {
    fail(&r, r.function->def->result_id, "layout.function",
         "the module ends inside function %%%u: OpFunctionEnd is missing",
         r.function->def->result_id);
    res = SPV_ERROR_INVALID_BINARY;
  }
  if (res != SPV_SUCCESS) {
    gac_module_destroy(r.m);
    return NULL;
  }
  gac_module_reserve_ids(r.m, r.max_id + 1);
  return r.m;
}

gac_module *gac_module_read_bytes(const void *bytes, size_t num_bytes, gac_diag *diag) {
  if (num_bytes % 4) {
    gac_diag_add(diag, GAC_ERROR, num_bytes / 4, 0, "binary.size",
                 "the file is %zu bytes long, not a whole number of 32-bit words", num_bytes);
    return NULL;
  }
  /* Words must be 4-byte aligned; copy only when they are not. */
  if ((uintptr_t)bytes % _Alignof(uint32_t) == 0)
    return gac_module_read(bytes, num_bytes / 4, diag);
  uint32_t *words = gac_xmalloc(num_bytes);
  if (num_bytes)
    memcpy(words, bytes, num_bytes);
  gac_module *m = gac_module_read(words, num_bytes / 4, diag);
  free(words);
  return m;
}

