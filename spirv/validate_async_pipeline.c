/* The rules of NonSemantic.Gac.AsyncPipeline (docs/ASYNC_PIPELINE.md). Where the
 * annotations may stand in a loop is checked by --pipeline-loops, which needs
 * the control-flow graph. */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builder.h"
#include "internal.h"

uint32_t gac_async_pipeline_op_of(const gac_module *m, const gac_inst *inst) {
  if (inst->opcode != SpvOpExtInst || inst->num_words <= GAC_PIPELINE_OP_WORD)
    return 0;
  const gac_inst *set = gac_def(m, inst->words[3]);
  const char *name = set && set->opcode == SpvOpExtInstImport ? gac_inst_string(set, 1) : NULL;
  return name && strcmp(name, GAC_ASYNC_PIPELINE_SET) == 0 ? inst->words[GAC_PIPELINE_OP_WORD] : 0;
}

typedef struct checker {
  const gac_module *m;
  gac_diag *diag;
  bool ok;
} checker;

extern const gac_async_copy_info gac_async_pipeline_infos[];
extern const unsigned gac_async_pipeline_num_infos;

static void report(checker *c, const gac_inst *inst, const char *rule, const char *fmt, ...) GAC_PRINTF(4, 5);
static void report(checker *c, const gac_inst *inst, const char *rule, const char *fmt, ...) {
  char text[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  uint32_t op = inst->num_words > GAC_PIPELINE_OP_WORD ? inst->words[GAC_PIPELINE_OP_WORD] : 0;
  const gac_async_copy_info *info = gac_ext_info_by_number(gac_async_pipeline_infos, gac_async_pipeline_num_infos, op);
  gac_diag_add(c->diag, GAC_ERROR, inst->offset, inst->result_id, rule, "%s: %s", info ? info->name : "OpExtInst",
               text);
  c->ok = false;
}

/* The value of operand word w if it is an OpConstant of a 32-bit OpTypeInt. */
static bool constant_operand(const gac_module *m, const gac_inst *inst, unsigned w, uint32_t *value) {
  const gac_inst *def = gac_def(m, inst->words[w]);
  const gac_inst *t = gac_value_type(m, inst->words[w]);
  if (!def || def->opcode != SpvOpConstant || !t || t->opcode != SpvOpTypeInt || t->words[2] != 32)
    return false;
  *value = def->words[3];
  return true;
}

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

/* The constant operands of a pipeline annotation: Async Stages any mask,
 * Stage below GAC_PIPELINE_MAX_STAGES, Order any value. */
static void check_annotation(checker *c, const gac_inst *inst, uint32_t op) {
  static const char *const names[] = {"Async Stages", "Stage", "Order"};
  unsigned first = op == GAC_PIPELINE_LOOP ? 0 : 1, count = op == GAC_PIPELINE_LOOP ? 1 : 2;
  for (unsigned k = 0; k < count; k++) {
    uint32_t v;
    if (!constant_operand(c->m, inst, 5 + k, &v))
      report(c, inst, "AsyncPipeline.AnnotationConstant", "operand '%s' (%%%u) must be an OpConstant of a 32-bit "
             "OpTypeInt", names[first + k], inst->words[5 + k]);
    else if (first + k == 1 && v >= GAC_PIPELINE_MAX_STAGES)
      report(c, inst, "AsyncPipeline.StageRange", "'Stage' is %u; stages are 0 to %d", v,
             GAC_PIPELINE_MAX_STAGES - 1);
  }
}

static void check_inst(checker *c, const gac_inst *inst, queues *qs, bool record) {
  uint32_t op = gac_async_pipeline_op_of(c->m, inst);
  if (!op)
    return;
  const gac_async_copy_info *info = gac_ext_info_by_number(gac_async_pipeline_infos, gac_async_pipeline_num_infos, op);
  if (!info) {
    if (record)
      report(c, inst, "AsyncPipeline.InstructionNumber",
             "instruction %u is not in NonSemantic.Gac.AsyncPipeline (1 AsyncCommit, 2 AsyncWait, "
             "3 PipelineLoop, 4 PipelineStatement)", op);
    return;
  }
  if (inst->num_words != 5 + info->num_operands) {
    if (record)
      report(c, inst, "AsyncPipeline.OperandCount", "takes %u operands after the instruction number, but has %d",
             info->num_operands, (int)inst->num_words - 5);
    return;
  }
  if (record) {
    const gac_inst *rt = gac_def(c->m, inst->type_id);
    if (!rt || rt->opcode != SpvOpTypeVoid)
      report(c, inst, "AsyncPipeline.ResultType", "'Result Type' must be OpTypeVoid");
    if (!gac_inst_function(inst))
      report(c, inst, "AsyncPipeline.Scope", "must appear in a function body");
  }
  if (op == GAC_PIPELINE_LOOP || op == GAC_PIPELINE_STATEMENT) {
    if (record)
      check_annotation(c, inst, op);
    return;
  }
  uint32_t q;
  if (!constant_operand(c->m, inst, GAC_PIPELINE_QUEUE_WORD, &q)) {
    if (record)
      report(c, inst, "AsyncPipeline.Queue", "operand 'Queue' (%%%u) must be an OpConstant of a 32-bit OpTypeInt",
             inst->words[GAC_PIPELINE_QUEUE_WORD]);
    return;
  }
  if (record) {
    const gac_inst *t = gac_value_type(c->m, inst->words[GAC_PIPELINE_VALUE_WORD]);
    if (op == GAC_ASYNC_COMMIT && (!t || t->opcode != SpvOpTypeEvent))
      report(c, inst, "AsyncPipeline.EventType", "operand 'Event' (%%%u) must be an OpTypeEvent value",
             inst->words[GAC_PIPELINE_VALUE_WORD]);
    if (op == GAC_ASYNC_WAIT && (!t || t->opcode != SpvOpTypeInt))
      report(c, inst, "AsyncPipeline.InFlightType", "operand 'In Flight' (%%%u) must be an integer value",
             inst->words[GAC_PIPELINE_VALUE_WORD]);
    if (op == GAC_ASYNC_COMMIT && !committed(qs, q) && qs->n < 64)
      qs->committed[qs->n++] = q;
  } else if (op == GAC_ASYNC_WAIT && !committed(qs, q)) {
    report(c, inst, "AsyncPipeline.QueueNeverCommitted",
           "waits on queue %u, to which nothing in this function commits: a queue lives in one function", q);
  }
}

bool gac_validate_async_pipeline(const gac_module *m, gac_diag *diag) {
  checker c = {m, diag, true};
  if (!gac_find_ext_inst_import(m, GAC_ASYNC_PIPELINE_SET))
    return true;
  if (!gac_module_has_capability(m, SpvCapabilityKernel))
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "AsyncPipeline.KernelCapability",
                 "NonSemantic.Gac.AsyncPipeline can only be imported with the Kernel capability");
  gac_foreach_inst(i, &m->sections[GAC_SECTION_GLOBAL]) {
    queues none = {.n = 0};
    check_inst(&c, i, &none, true);
  }
  gac_foreach_function(f, (gac_module *)m) {
    /* First the commits (any order: a wait in a loop may precede the commit
     * that feeds it in the block order), then the waits against them. */
    queues qs = {.n = 0};
    for (int pass = 0; pass < 2; pass++)
      gac_foreach_block(b, f) {
        gac_foreach_inst(i, &b->insts) check_inst(&c, i, &qs, pass == 0);
      }
  }
  return c.ok && !gac_diag_has_errors(diag);
}
