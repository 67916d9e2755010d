/* Helpers shared by the lowering passes. */
#ifndef GAC_LOWER_UTIL_H
#define GAC_LOWER_UTIL_H

#include "gac/async_copy.h"
#include "gac/builder.h"
#include "gac/known.h"

/* Types and constants a lowering uses, made once per module, and the
 * target it lowers for (lower_target.h) with the target's own state. */
typedef struct lower_target lower_target;

typedef struct gac_lowering {
  gac_module *m;
  uint32_t size_type, bool_type, uchar_type, event_type;
  uint32_t zero, one, scope_workgroup;
  gac_diag *diag; /* for a target's remarks */
  const lower_target *target;
  void *target_state;
} gac_lowering;

/* Fills L for m: the size type follows the addressing model. */
void lower_drop_pipeline_markers(gac_module *m);
void gac_lowering_init(gac_lowering *L, gac_module *m);

uint32_t lower_op2(gac_builder *b, uint16_t opcode, uint32_t type, uint32_t x, uint32_t y);
uint32_t lower_mul(const gac_lowering *L, gac_builder *b, uint32_t x, uint32_t y);
uint32_t lower_add(const gac_lowering *L, gac_builder *b, uint32_t x, uint32_t y);
bool lower_known_zero(const gac_lowering *L, uint32_t id);
/* x, or 1 where x is 0: a divisor that cannot be zero. */
uint32_t lower_nonzero(gac_lowering *L, gac_builder *b, uint32_t x);

/* A counted loop `for (i = first; i < count; i += step)` between `from`
 * (which gets the branch into it) and `exit`, with an optional second value
 * carried round it. The caller fills body, then calls loop_close. */
typedef struct gac_loop {
  gac_block *header, *body;
  uint32_t counter, next_counter;
  gac_inst *counter_phi;
  uint32_t carried, next_carried; /* an optional second value carried round the loop */
  uint32_t step; /* what lower_loop_close adds to the counter, if not its step argument */
} gac_loop;

gac_loop lower_loop_open(gac_lowering *L, gac_block *from, gac_block *exit, uint32_t first, uint32_t count,
                   uint32_t carried_type, uint32_t carried_in);
void lower_loop_close(gac_lowering *L, const gac_loop *lp, gac_block *last, uint32_t step);
/* A work-item's share of `total` units: first, first + step, ... below
 * total (*index, in the body). Closed with lower_loop_close(..., L->one).
 * first_below_step: the caller knows first < step (an id and the size). */
gac_loop lower_shared_loop(gac_lowering *L, gac_block *from, gac_block *exit, uint32_t first, uint32_t step,
                           uint32_t total, bool first_below_step, uint32_t *index);

/* The storage class of a pointer value (~0u if it is not one), and whether
 * a copy from src to dst goes from global to local memory. */
uint32_t lower_storage_class(const gac_module *m, uint32_t pointer);
/* The 64-bit unsigned type, with the Int64 capability it needs (a module
 * may have none: Physical32 modules, say). */
uint32_t lower_ulong_type(gac_module *m);
bool lower_global_to_local(const gac_module *m, uint32_t dst, uint32_t src);
/* The destination and source of copy, a GroupAsyncCopy2D2D/3D3D or a core
 * OpGroupAsyncCopy; false for any other instruction. */
bool lower_copy_ends(const gac_module *m, const gac_inst *copy, uint32_t *dst, uint32_t *src);
/* Whether copy is a copy global -> local (of either kind). */
bool lower_copy_loads_local(const gac_module *m, const gac_inst *copy);

/* OpGroupAsyncCopy (OpenCL's 1D async_work_group_(strided_)copy) as the 2D
 * copy it is; false, with an error, for elements that are not scalars or
 * vectors. */
bool lower_core_copy_as_2d(gac_lowering *L, const gac_inst *i, gac_async_copy *k, gac_diag *diag);

/* Marks in seen (by label, below bound) the blocks reachable from `from`
 * without passing `stop` (may be NULL), `from` included. Needs no cfg: for
 * code being rewritten. */
void lower_reach_blocks(const gac_module *m, gac_block *from, const gac_block *stop, uint8_t *seen, uint32_t bound);

/* The function whose OpFunction defines `id`, or NULL. */
gac_function *lower_function_by_id(const gac_module *m, uint32_t id);
/* The OpFunctionCall of function `fn` if it has exactly one, else NULL
 * (llvm-spirv writes a kernel's body as a function its entry point calls
 * once). */
const gac_inst *lower_only_call(gac_module *m, uint32_t fn);

/* The work-item's linear index in the work-group, and the group's size: a
 * constant where f (the function the code goes in) is a kernel with a
 * required work-group size that no function calls. */
void lower_linear_local_id(gac_lowering *L, gac_builder *b, const gac_function *f, uint32_t *id, uint32_t *size);

/* Whether i computes a value and nothing else: arithmetic, comparisons,
 * conversions, pointer arithmetic, loads of builtin inputs (the same all
 * along), OpenCL.std math (not its vector loads and stores); no other
 * access to memory, no call, no barrier. */
bool lower_is_pure(const gac_module *m, const gac_inst *i);

/* A work-group barrier over local and global memory, as the copies' waits need. */
void lower_workgroup_barrier(gac_lowering *L, gac_builder *b);

/* A call of an imported function `name` taking n arguments of the given
 * types, returning void (what a target's later step gives a body). */
void lower_call(gac_lowering *L, gac_builder *b, const char *name, unsigned n, const uint32_t *types,
                const uint32_t *args);
/* x as a 32-bit unsigned value. */
uint32_t lower_to_u32(gac_lowering *L, gac_builder *b, uint32_t x);


#endif
