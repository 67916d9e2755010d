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
  /* Revision 3: warp-specialised pipelines (seed 004's Pipe_ and Mutex_;
   * docs/ASYNC_PIPELINE.md), made by --pipeline-loops=warp-specialize. */
  GAC_WARP_SPECIALIZE = 5,         /* Consumer Threads, Producer Threads */
  GAC_PIPE = 6,                    /* Depth, Stage, Order */
  GAC_PIPE_BUFFER = 7,             /* Pipe, Buffer */
  GAC_PIPE_PRODUCER_ACQUIRE = 8,   /* Pipe, Iteration */
  GAC_PIPE_PRODUCER_COMMIT = 9,    /* Pipe, Iteration, Event */
  GAC_PIPE_CONSUMER_WAIT = 10,     /* Pipe, Iteration */
  GAC_PIPE_CONSUMER_RELEASE = 11,  /* Pipe, Iteration */
  GAC_MUTEX = 12,                  /* Barrier, Threads, Stage, Order */
  GAC_MUTEX_SYNC = 13,             /* Mutex */
  /* Revision 4: cl_khr_async_work_group_copy_fence's async_work_group_copy_fence. */
  GAC_ASYNC_COPY_FENCE = 14,       /* Flags */
} gac_async_pipeline_op;

/* Word indices in the OpExtInst. AsyncCommit and AsyncWait have
 * GAC_PIPELINE_NUM_WORDS words, PipelineStatement too, PipelineLoop one less. */
enum { GAC_PIPELINE_OP_WORD = 4, GAC_PIPELINE_QUEUE_WORD = 5, GAC_PIPELINE_VALUE_WORD = 6,
       GAC_PIPELINE_NUM_WORDS = 7,
       GAC_PIPELINE_ASYNC_STAGES_WORD = 5, GAC_PIPELINE_STAGE_WORD = 5, GAC_PIPELINE_ORDER_WORD = 6 };

/* Stages are bits of PipelineLoop's Async Stages mask. */
#define GAC_PIPELINE_MAX_STAGES 32

/* Word indices of the revision 3 instructions' operands (first operand at
 * word 5). */
enum { GAC_WS_CONSUMERS_WORD = 5, GAC_WS_PRODUCERS_WORD = 6,
       GAC_PIPE_DEPTH_WORD = 5, GAC_PIPE_STAGE_WORD = 6, GAC_PIPE_ORDER_WORD = 7, GAC_PIPE_BUFFER_WORD = 6,
       GAC_PIPE_OF_WORD = 5, GAC_PIPE_ITERATION_WORD = 6, GAC_PIPE_EVENT_WORD = 7,
       GAC_MUTEX_BARRIER_WORD = 5, GAC_MUTEX_THREADS_WORD = 6, GAC_MUTEX_STAGE_WORD = 7, GAC_MUTEX_ORDER_WORD = 8,
       GAC_MUTEX_OF_WORD = 5, GAC_FENCE_FLAGS_WORD = 5 };

/* AsyncCopyFence's Flags: OpenCL's cl_mem_fence_flags, the memories whose
 * accesses by the copies before the fence come before those of the copies
 * after it (docs/ASYNC_PIPELINE.md). */
enum { GAC_FENCE_LOCAL = 1, GAC_FENCE_GLOBAL = 2 };

/* sm_90's named barriers: 16 per CTA, id 0 being barrier()'s. A pipe's
 * depth: 2..GAC_PIPE_MAX_DEPTH slots (two mbarriers each). */
enum { GAC_NAMED_BARRIERS = 16, GAC_PIPE_MAX_DEPTH = 16 };

/* The instruction number if inst is an OpExtInst of the set, else 0. */
uint32_t gac_async_pipeline_op_of(const gac_module *m, const gac_inst *inst);

/* Bytes of a type made of scalars, vectors and arrays (a 3-vector as a
 * 4-vector, as OpenCL lays it out); 0 for anything else: gac_type_size's
 * GAC_SIZE_OBJECT (gac/known.h) as one number. What the shared-memory
 * rules count (AsyncPipeline.PipeSharedMemory). */
uint64_t gac_type_bytes(const gac_module *m, uint32_t type);

/* What the PipeShape rule compares: the OpVariable a pointer points into
 * through access chains and casts (NULL if elsewhere), with in *scalar the
 * scalar type the pointer addresses (the first along the way that is not a
 * byte: the copies take void pointers); and the scalar a type holds
 * (through arrays and vectors), for a variable its slots'. */
const gac_inst *gac_pipe_pointer_root(const gac_module *m, uint32_t ptr, uint32_t *scalar);
uint32_t gac_pipe_scalar_of(const gac_module *m, uint32_t type);

/* The set's rules (docs/ASYNC_PIPELINE.md); true if none is broken. */
bool gac_validate_async_pipeline(const gac_module *m, gac_diag *diag);

#endif
