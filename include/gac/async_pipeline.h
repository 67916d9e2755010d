/* NonSemantic.Gac.AsyncPipeline: async commit/wait queues and software-pipeline
 * annotations (docs/ASYNC_PIPELINE.md;
 * grammar in spirv/grammar/extinst.nonsemantic.gac.asyncpipeline.grammar.json,
 * which tests/grammar_check.py compares with these numbers). */
#ifndef GAC_ASYNC_PIPELINE_H
#define GAC_ASYNC_PIPELINE_H

#include "gac/module.h"

#define GAC_ASYNC_PIPELINE_SET "NonSemantic.Gac.AsyncPipeline"

typedef enum gac_async_pipeline_op {
  GAC_ASYNC_COMMIT = 1, /* Queue, Event */
  GAC_ASYNC_WAIT = 2,   /* Queue, In Flight */
  GAC_PIPELINE_LOOP = 3,      /* Async Stages (a bit mask) */
  GAC_PIPELINE_STATEMENT = 4, /* Stage, Order */
} gac_async_pipeline_op;

/* Word indices in the OpExtInst. AsyncCommit and AsyncWait have
 * GAC_PIPELINE_NUM_WORDS words, PipelineStatement too, PipelineLoop one less. */
enum { GAC_PIPELINE_OP_WORD = 4, GAC_PIPELINE_QUEUE_WORD = 5, GAC_PIPELINE_VALUE_WORD = 6,
       GAC_PIPELINE_NUM_WORDS = 7,
       GAC_PIPELINE_ASYNC_STAGES_WORD = 5, GAC_PIPELINE_STAGE_WORD = 5, GAC_PIPELINE_ORDER_WORD = 6 };

/* Stages are bits of PipelineLoop's Async Stages mask. */
#define GAC_PIPELINE_MAX_STAGES 32

/* The instruction number if inst is an OpExtInst of the set, else 0. */
uint32_t gac_async_pipeline_op_of(const gac_module *m, const gac_inst *inst);

/* The set's rules (docs/ASYNC_PIPELINE.md); true if none is broken. */
bool gac_validate_async_pipeline(const gac_module *m, gac_diag *diag);

#endif
