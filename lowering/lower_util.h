/* Helpers shared by the lowering passes. */
#ifndef GAC_LOWER_UTIL_H
#define GAC_LOWER_UTIL_H

#include "gac/builder.h"

/* Types and constants a lowering uses, made once per module. */
typedef struct gac_lowering {
  gac_module *m;
  uint32_t size_type, bool_type, uchar_type, event_type;
  uint32_t zero, one, scope_workgroup;
} gac_lowering;

/* Fills L for m: the size type follows the addressing model. */
void gac_lowering_init(gac_lowering *L, gac_module *m);

uint32_t lower_op2(gac_builder *b, uint16_t opcode, uint32_t type, uint32_t x, uint32_t y);
uint32_t lower_mul(const gac_lowering *L, gac_builder *b, uint32_t x, uint32_t y);
uint32_t lower_add(const gac_lowering *L, gac_builder *b, uint32_t x, uint32_t y);
/* The value of an integer OpConstant (or OpConstantNull), if id is one. */
bool lower_known(const gac_lowering *L, uint32_t id, uint64_t *value);
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
} gac_loop;

gac_loop lower_loop_open(gac_lowering *L, gac_block *from, gac_block *exit, uint32_t first, uint32_t count,
                   uint32_t carried_type, uint32_t carried_in);
void lower_loop_close(gac_lowering *L, const gac_loop *lp, gac_block *last, uint32_t step);

/* A work-group barrier over local and global memory, as the copies' waits need. */
void lower_workgroup_barrier(gac_lowering *L, gac_builder *b);

/* PTX (lower_async_ptx.c): one cp.async unit of `width` bytes, dst a local
 * and src a global uchar pointer; and the commits and waits of every
 * function as cp.async group calls with static counts. */
void lower_ptx_cp_async(gac_lowering *L, gac_builder *b, unsigned width, uint32_t dst, uint32_t src);
bool lower_async_waits_ptx(gac_lowering *L);

#endif
