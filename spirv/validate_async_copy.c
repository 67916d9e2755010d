/* The rules of NonSemantic.Codeplay.GroupAsyncCopies (seeds/003), one check
 * each, every diagnostic naming the instruction, the operand and the rule. */
#include <ctype.h>
#include <string.h>

#include "spirv_tools.h"
#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/known.h"
#include "gac/validate.h"
#include "internal.h"

typedef struct checker {
  const gac_module *m;
  gac_diag *diag;
  uint32_t addressing;
  bool ok;
} checker;

enum { FIRST_OPERAND_WORD = 5 };

static void report(checker *c, const gac_inst *inst, const char *what, const char *rule,
                   const char *fmt, ...) GAC_PRINTF(5, 6);
static void report(checker *c, const gac_inst *inst, const char *what, const char *rule,
                   const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  gac_diag_add(c->diag, GAC_ERROR, inst ? inst->offset : GAC_NO_OFFSET, inst ? inst->result_id : 0,
               rule, "%s: %s", what, text);
  c->ok = false;
}

static const char *opname(const gac_inst *i) { return i ? gac_opcode_name(i->opcode) : "nothing"; }

static void check_import_names(checker *c) {
  gac_foreach_inst(i, &c->m->sections[GAC_SECTION_EXT_INST_IMPORT]) {
    const char *name = gac_inst_string(i, 1);
    if (!name || strcmp(name, GAC_ASYNC_COPIES_SET) == 0)
      continue;
    char lower[256];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof lower; n++)
      lower[n] = (char)tolower((unsigned char)name[n]);
    lower[n] = '\0';
    if (strstr(lower, "groupasynccop"))
      report(c, i, "OpExtInstImport", "GroupAsyncCopies.ImportName",
             "\"%s\" looks like the GroupAsyncCopies set but the set must be imported as "
             "exactly \"" GAC_ASYNC_COPIES_SET "\"",
             name);
  }
}

static void check_pointer(checker *c, const gac_inst *inst, const char *what, const char *operand,
                          uint32_t id, uint32_t want_sc, const char *rule, uint32_t *sc_out) {
  const gac_inst *t = gac_value_type(c->m, id);
  *sc_out = ~0u;
  if (!t || t->opcode != SpvOpTypePointer) {
    report(c, inst, what, rule, "operand '%s' (%%%u) must be an OpTypePointer value, but its type is %s",
           operand, id, opname(t));
    return;
  }
  uint32_t sc = t->words[2];
  *sc_out = sc;
  if (want_sc == ~0u) {
    if (sc != SpvStorageClassWorkgroup && sc != SpvStorageClassCrossWorkgroup)
      report(c, inst, what, rule,
             "operand '%s' (%%%u) must point to Workgroup or CrossWorkgroup storage, not storage class %u",
             operand, id, sc);
  } else if (sc != want_sc) {
    report(c, inst, what, rule,
           "operand '%s' (%%%u) must point to %s storage when 'Destination' points to %s, not storage class %u",
           operand, id, want_sc == SpvStorageClassWorkgroup ? "Workgroup" : "CrossWorkgroup",
           want_sc == SpvStorageClassWorkgroup ? "CrossWorkgroup" : "Workgroup", sc);
  }
}

static void check_size_operand(checker *c, const gac_inst *inst, const char *what, const char *operand,
                               uint32_t id) {
  const gac_inst *t = gac_value_type(c->m, id);
  uint32_t want = c->addressing == SpvAddressingModelPhysical32 ? 32 : 64;
  if (c->addressing != SpvAddressingModelPhysical32 && c->addressing != SpvAddressingModelPhysical64)
    return; /* reported once per module */
  if (!t || t->opcode != SpvOpTypeInt)
    report(c, inst, what, "GroupAsyncCopies.SizeOperandType",
           "operand '%s' (%%%u) must be a %u-bit OpTypeInt under %s, but its type is %s", operand, id,
           want, want == 32 ? "Physical32" : "Physical64", opname(t));
  else if (t->words[2] != want)
    report(c, inst, what, "GroupAsyncCopies.SizeOperandType",
           "operand '%s' (%%%u) must be a %u-bit OpTypeInt under %s, but it is %u-bit", operand, id,
           want, want == 32 ? "Physical32" : "Physical64", t->words[2]);
}

static void check_event_operand(checker *c, const gac_inst *inst, const char *what, uint32_t id) {
  const gac_inst *def = gac_def(c->m, id);
  const gac_inst *t = gac_value_type(c->m, id);
  if (!t || t->opcode != SpvOpTypeEvent)
    report(c, inst, what, "GroupAsyncCopies.EventType",
           "operand 'Event' (%%%u) must be an OpTypeEvent value (OpConstantNull or an earlier "
           "copy's event), but its type is %s",
           id, opname(t));
  else if (def && def->opcode == SpvOpUndef)
    report(c, inst, what, "GroupAsyncCopies.EventValue",
           "operand 'Event' (%%%u) is OpUndef; it must be OpConstantNull or an event value", id);
  else if (id == inst->result_id)
    report(c, inst, what, "GroupAsyncCopies.EventValue", "operand 'Event' is the instruction's own result");
}

/* The cases the spec calls undefined, decidable when the operands are constants. */
static void check_overlaps(checker *c, const gac_inst *inst, const char *what, const gac_async_copy *k) {
  uint64_t per_line = 0, lines = 0;
  bool have_per_line = gac_constant_value(c->m, k->num_elements_per_line, &per_line);
  bool have_lines = gac_constant_value(c->m, k->num_lines, &lines);
  const struct {
    const char *side;
    uint32_t line_length, plane_area;
  } sides[2] = {{"Source", k->source_line_length, k->source_plane_area},
                {"Destination", k->destination_line_length, k->destination_plane_area}};
  for (int s = 0; s < 2; s++) {
    uint64_t len, area, product;
    bool have_len = gac_constant_value(c->m, sides[s].line_length, &len);
    if (have_len && have_per_line && len < per_line)
      report(c, inst, what, "GroupAsyncCopies.LineOverlap",
             "'%s Line Length' (%llu) is smaller than 'Num Elements Per Line' (%llu): lines overlap, "
             "which the spec leaves undefined",
             sides[s].side, (unsigned long long)len, (unsigned long long)per_line);
    if (k->op != GAC_GROUP_ASYNC_COPY_3D3D || !have_len || !have_lines ||
        !gac_constant_value(c->m, sides[s].plane_area, &area))
      continue;
    bool overflow = __builtin_mul_overflow(lines, len, &product);
    if (overflow || area < product)
      report(c, inst, what, "GroupAsyncCopies.PlaneOverlap",
             "'%s Plane Area' (%llu) is smaller than 'Num Lines' x '%s Line Length' (%llu x %llu): "
             "planes overlap, which the spec leaves undefined",
             sides[s].side, (unsigned long long)area, sides[s].side, (unsigned long long)lines,
             (unsigned long long)len);
  }
}

static void check_copy(checker *c, const gac_inst *inst) {
  uint32_t number = inst->num_words > 4 ? inst->words[4] : 0;
  const gac_async_copy_info *info = gac_async_copy_info_for(number);
  if (!info) {
    report(c, inst, "OpExtInst", "GroupAsyncCopies.InstructionNumber",
           "instruction %u is not in NonSemantic.Codeplay.GroupAsyncCopies (1 is GroupAsyncCopy2D2D, "
           "2 is GroupAsyncCopy3D3D)",
           number);
    return;
  }
  const char *what = info->name;
  unsigned have = inst->num_words > FIRST_OPERAND_WORD ? inst->num_words - FIRST_OPERAND_WORD : 0;
  if (have != info->num_operands) {
    report(c, inst, what, "GroupAsyncCopies.OperandCount", "takes %u operands after the instruction number, but has %u",
           info->num_operands, have);
    return;
  }
  if (!gac_inst_function(inst))
    report(c, inst, what, "GroupAsyncCopies.Scope",
           "must appear in a function body: the copy is performed by the work-items of a work-group");

  const gac_inst *rt = gac_def(c->m, inst->type_id);
  if (!rt || rt->opcode != SpvOpTypeEvent)
    report(c, inst, what, "GroupAsyncCopies.ResultType", "'Result Type' (%%%u) must be OpTypeEvent, not %s",
           inst->type_id, opname(rt));

  /* Every operand must name a value before its type can be checked. */
  bool values_ok = true;
  for (unsigned i = 0; i < info->num_operands; i++) {
    uint32_t id = inst->words[FIRST_OPERAND_WORD + i];
    const gac_inst *def = gac_def(c->m, id);
    if (!def || !def->type_id || !def->result_id) {
      report(c, inst, what, "GroupAsyncCopies.OperandValue", "operand '%s' (%%%u) must be a value, but it is %s",
             info->operands[i].name, id, def ? opname(def) : "not defined");
      values_ok = false;
    }
  }
  if (!values_ok)
    return;

  gac_async_copy k;
  gac_async_copy_decode(c->m, inst, &k);
  uint32_t dst_sc, src_sc;
  check_pointer(c, inst, what, "Destination", k.destination, ~0u, "GroupAsyncCopies.DestinationStorageClass", &dst_sc);
  if (dst_sc == SpvStorageClassWorkgroup || dst_sc == SpvStorageClassCrossWorkgroup)
    check_pointer(c, inst, what, "Source", k.source,
                  dst_sc == SpvStorageClassWorkgroup ? SpvStorageClassCrossWorkgroup : SpvStorageClassWorkgroup,
                  "GroupAsyncCopies.SourceStorageClass", &src_sc);
  else
    check_pointer(c, inst, what, "Source", k.source, ~0u, "GroupAsyncCopies.SourceStorageClass", &src_sc);

  for (unsigned i = 0; i < info->num_operands; i++) {
    uint32_t *f = gac_async_copy_field(&k, &info->operands[i]);
    if (f == &k.destination || f == &k.source || f == &k.event)
      continue;
    check_size_operand(c, inst, what, info->operands[i].name, *f);
  }
  check_event_operand(c, inst, what, k.event);
  check_overlaps(c, inst, what, &k);
}

bool gac_validate_async_copies(const gac_module *m, gac_diag *diag) {
  checker c = {.m = m, .diag = diag, .addressing = gac_module_addressing_model(m), .ok = true};
  check_import_names(&c);
  if (!gac_find_ext_inst_import(m, GAC_ASYNC_COPIES_SET))
    return c.ok;
  if (!gac_module_has_capability(m, SpvCapabilityKernel))
    report(&c, NULL, "OpExtInstImport \"" GAC_ASYNC_COPIES_SET "\"", "GroupAsyncCopies.KernelCapability",
           "the set can only be imported when the Kernel capability is declared");
  bool any = false;
  gac_foreach_async_copy(inst, m) {
    if (!any && c.addressing != SpvAddressingModelPhysical32 && c.addressing != SpvAddressingModelPhysical64)
      report(&c, inst, "OpMemoryModel", "GroupAsyncCopies.AddressingModel",
             "the size operands of the set are defined only under the Physical32 or Physical64 "
             "addressing model, but the module uses addressing model %d",
             (int)c.addressing);
    any = true;
    check_copy(&c, inst);
  }
  return c.ok;
}
