/* Helpers shared by the lowering passes. */
#ifndef GAC_LOWER_UTIL_H
#define GAC_LOWER_UTIL_H

#include "gac/async_copy.h"
#include "gac/builder.h"

/* Types and constants a lowering uses, made once per module. */
struct gac_ptx_ring;

typedef struct gac_lowering {
  gac_module *m;
  uint32_t size_type, bool_type, uchar_type, event_type;
  uint32_t zero, one, scope_workgroup;
  /* PTX, sm_90: the mbarrier rings of the functions that have them. */
  bool sm90;
  struct gac_ptx_ring *rings;
  /* AMDGCN: copies global -> local are LDS-direct loads, waits count them
   * in vmcnt (gpu_waits.c); dma_narrow: 1- and 2-byte ones too
   * (gfx942; gfx90a loads only dwords from global memory to LDS). */
  bool amdgcn, dma_narrow;
  /* AMDGCN: ping-pong the pipelined loops that allow it
   * (lower_amdgcn_pingpong.c), with remarks to diag. */
  bool pingpong;
  gac_diag *diag;
  /* PTX sm_90: the warp-specialised functions (lower_ptx_warp_specialize.c). */
  struct gac_ptx_ws *ws;
} gac_lowering;

/* Fills L for m: the size type follows the addressing model. */
void lower_drop_pipeline_markers(gac_module *m);
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
/* The work-group size of f when every launch of f has the same constant
 * one (reqd_work_group_size of the kernels that call it). */
bool lower_known_local_size(gac_module *m, const gac_function *f, uint64_t size[3]);
/* AMDGCN: the LDS-direct loads one wave issues for copy k at least, on any
 * path (0 when unknown) (lower_async_copies.c). */
uint32_t lower_amdgcn_dma_per_wave(gac_lowering *L, const gac_function *f, const gac_inst *copy);
/* AMDGCN: the calls the LLVM step gives bodies (lowering/amdgcn). */
/* + 1, 2 or 4: (local base, global src, bool lane loads) */
#define GAC_AMDGCN_LDS_LOAD_PREFIX "__gac_amdgcn_lds_load_"
/* (uint X, uint queue, uint n), constants: s_waitcnt vmcnt(X), marked as
 * the wait for all but queue's n newest groups (queue ANY: for all) */
#define GAC_AMDGCN_WAIT_VM "__gac_amdgcn_wait_vm"
#define GAC_AMDGCN_BARRIER "__gac_amdgcn_barrier" /* (): LDS writes done, s_barrier */
/* (uint queue, uint K), constants: the marker of a commit to queue (ANY:
 * not known), then K loads that do nothing (an empty group's padding) */
#define GAC_AMDGCN_COMMIT "__gac_amdgcn_commit"
#define GAC_AMDGCN_ANY 0xffffffffu
/* Ping-pong: + 0 or 1: () s_setprio; (): s_sched_barrier 0 (nothing moves
 * across); (uint local linear id): before the loop, drain and align, then
 * the waves 4-7 wait at one more s_barrier (enter); after it, waves 0-3
 * (exit) */
#define GAC_AMDGCN_SETPRIO_PREFIX "__gac_amdgcn_setprio_"
#define GAC_AMDGCN_SCHED_BARRIER "__gac_amdgcn_sched_barrier"
#define GAC_AMDGCN_PINGPONG_ENTER "__gac_amdgcn_pingpong_enter"
#define GAC_AMDGCN_PINGPONG_EXIT "__gac_amdgcn_pingpong_exit"
/* AMDGCN: ping-pong f's pipelined loops where the conditions hold
 * (lower_amdgcn_pingpong.c), a remark for each loop that waits on a queue;
 * tighten[id] (by result id) for each AsyncWait whose count must cover one
 * group more than it names. */
void lower_amdgcn_pingpong(gac_lowering *L, gac_function *f, bool *tighten);
bool lower_global_to_local(const gac_module *m, uint32_t dst, uint32_t src);

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

/* The work-item's linear index in the work-group, and the group's size: a
 * constant where f (the function the code goes in) is a kernel with a
 * required work-group size that no function calls. */
void lower_linear_local_id(gac_lowering *L, gac_builder *b, const gac_function *f, uint32_t *id, uint32_t *size);

/* A work-group barrier over local and global memory, as the copies' waits need. */
void lower_workgroup_barrier(gac_lowering *L, gac_builder *b);

/* PTX (gpu_waits.c): one cp.async unit of `width` bytes, dst a local
 * and src a global uchar pointer; the commits and waits of every function
 * as cp.async groups with static counts (and, for sm_90, on mbarrier rings);
 * a call of an imported function `name` taking n arguments of the given
 * types, returning void. */
void lower_ptx_cp_async(gac_lowering *L, gac_builder *b, unsigned width, uint32_t dst, uint32_t src);
bool lower_async_waits_ptx(gac_lowering *L);
void lower_ptx_call(gac_lowering *L, gac_builder *b, const char *name, unsigned n, const uint32_t *types,
                    const uint32_t *args);
/* x (of the size type), as a value LLVM cannot see through: what is
 * computed from it stays where it is computed. */
uint32_t lower_ptx_opaque(gac_lowering *L, gac_builder *b, uint32_t x);
/* x as a 32-bit unsigned value. */
uint32_t lower_to_u32(gac_lowering *L, gac_builder *b, uint32_t x);

/* PTX sm_90, warp-specialised functions (lower_ptx_warp_specialize.c):
 * prepare before the copies are lowered (it finds the producer warp's
 * blocks), finish after (handshakes, named barriers, the consumers'
 * geometry). participants: in a producer block, turns the linear id and
 * size of the work-group into the producer warp's lane and size. */
bool lower_ptx_ws_prepare(gac_lowering *L, gac_diag *diag);
bool lower_ptx_ws_participants(const gac_lowering *L, gac_builder *b, uint32_t *id, uint32_t *size);
/* A producer warp's copy: the full mbarrier of the ring slot it fills (built
 * at b), which its bulk copies complete on; 0 for any other copy. */
uint32_t lower_ptx_ws_full_slot(gac_lowering *L, gac_builder *b, const gac_inst *copy);
bool lower_ptx_ws_producer_copy(const gac_lowering *L, const gac_inst *copy);
bool lower_ptx_ws_finish(gac_lowering *L, gac_diag *diag);

/* PTX sm_90 (lower_ptx_ring.c): a ring of mbarriers in local memory per
 * function with global -> local copies, with counters c (groups committed)
 * and w (groups waited for). Group g completes on mbarrier g mod depth, in
 * phase parity (g / depth) & 1. Each operation puts its code before `at`
 * (an instruction in a block), splitting the block. */
typedef struct gac_ptx_ring gac_ptx_ring;
gac_ptx_ring *lower_ptx_ring_create(gac_lowering *L, gac_function *f, unsigned depth);
gac_ptx_ring *lower_ptx_ring_of(const gac_lowering *L, const gac_function *f);
/* Ends block b with: if all depth slots are in flight, wait for the oldest
 * group first (its slot is needed; waiting early is always allowed).
 * Returns the block that follows, without a terminator. A copy does this
 * before it arms the slot of the group being formed. */
gac_block *lower_ptx_ring_make_room(gac_lowering *L, gac_ptx_ring *r, gac_block *b);
/* Commits the pending group: the elected work-item arrives on its mbarrier
 * (after making room, for a group without copies). */
void lower_ptx_ring_commit(gac_lowering *L, gac_ptx_ring *r, gac_inst *at);
/* Waits until at most `in_flight` (a size-type value) groups are in flight. */
void lower_ptx_ring_wait(gac_lowering *L, gac_ptx_ring *r, gac_inst *at, uint32_t in_flight);
/* The mbarrier of the group being formed (the next commit's). */
uint32_t lower_ptx_ring_slot(gac_lowering *L, gac_ptx_ring *r, gac_builder *b);
void lower_ptx_rings_free(gac_lowering *L);

/* PTX sm_90 (lower_async_copies.c): whether a copy may become bulk copies
 * (its lines are long enough, or their length is known only at run time). */
bool lower_ptx_may_bulk(const gac_lowering *L, const gac_inst *copy);

/* PTX sm_90 (lower_ptx_fence.c): removes every proxy fence that no generic
 * write of local memory can precede. */
void lower_ptx_fences(gac_lowering *L);

#endif
