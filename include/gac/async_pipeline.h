/* NonSemantic.Gac.AsyncPipeline: async commit/wait queues (docs/ASYNC_PIPELINE.md;
 * grammar in spirv/grammar/extinst.nonsemantic.gac.asyncpipeline.grammar.json,
 * which tests/grammar_check.py compares with these numbers). */
#ifndef GAC_ASYNC_PIPELINE_H
#define GAC_ASYNC_PIPELINE_H

#include "gac/module.h"

#define GAC_ASYNC_PIPELINE_SET "NonSemantic.Gac.AsyncPipeline"

typedef enum gac_async_pipeline_op {
  GAC_ASYNC_COMMIT = 1, /* Queue, Event */
  GAC_ASYNC_WAIT = 2,   /* Queue, In Flight */
} gac_async_pipeline_op;

/* Word indices in the OpExtInst. */
enum { GAC_PIPELINE_OP_WORD = 4, GAC_PIPELINE_QUEUE_WORD = 5, GAC_PIPELINE_VALUE_WORD = 6,
       GAC_PIPELINE_NUM_WORDS = 7 };

/* The instruction number if inst is an OpExtInst of the set, else 0. */
uint32_t gac_async_pipeline_op_of(const gac_module *m, const gac_inst *inst);

/* The set's rules (docs/ASYNC_PIPELINE.md); true if none is broken. */
bool gac_validate_async_pipeline(const gac_module *m, gac_diag *diag);

#endif
