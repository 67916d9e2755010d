/* The PTX target of the copy lowering (lower_target.h), in libgac: its
 * state, and the parts its files share (docs/PTX.md). */
#ifndef GAC_PTX_LOWERING_H
#define GAC_PTX_LOWERING_H

#include "lower_target.h"

typedef struct gac_ptx_ring gac_ptx_ring;

/* The target's state (gac_lowering's target_state). */
typedef struct ptx_lowering {
  bool sm90;                /* bulk copies on mbarrier rings, proxy fences */
  bool cp_async_l1;         /* 16-byte cp.async units through L1 (gac_ptx_options) */
  gac_ptx_ring *rings;      /* sm_90: the rings of the functions that have them */
  struct gac_ptx_ws *ws;    /* sm_90: the warp-specialised functions */
  gac_ptx_ring *ring;       /* the ring of the function whose waits are being written */
  bool bulk_stores;         /* the module may have bulk stores: every wait completes them */
} ptx_lowering;

static inline ptx_lowering *ptx_state(const gac_lowering *L) { return (ptx_lowering *)L->target_state; }

/* --lower-async-copies=ptx[,sm=80|90] (lower_ptx_target.c): whether arg
 * is such an argument, and its sm in *o; the lowering, options a
 * gac_ptx_options (a gac_copy_lowering: --emit=ptx hands its own on). */
struct gac_ptx_options;
bool lower_ptx_arg(const char *arg, struct gac_ptx_options *o);
bool lower_ptx_copies(gac_module *m, const void *options, gac_diag *diag);
/* The SPIR-V half of --emit=ptx (lower_ptx_target.c): the options checked,
 * then gac_gpu_lower_spirv with this target's lowering. */
bool gac_ptx_lower_spirv(gac_module *m, const struct gac_ptx_options *options, gac_diag *diag);

/* The waits as cp.async groups, and on sm_90 also on the rings
 * (lower_ptx_waits.c). */
extern const lower_wait_emitter lower_ptx_waits;

/* The copies (lower_ptx_copies.c): one cp.async unit of `width` bytes, dst
 * a local and src a global uchar pointer; x (of the size type) as a value
 * LLVM cannot see through: what is computed from it stays where it is
 * computed; sm_90: whether a copy may become bulk copies (its lines are
 * long enough, or their length is known only at run time), and the bulk
 * copies tried before the units; runs of copies issued together. */
bool lower_ptx_move_unit(gac_lowering *L, gac_builder *b, const lower_copy_plan *p, unsigned width, uint32_t dst,
                         uint32_t src);
uint32_t lower_ptx_opaque(gac_lowering *L, gac_builder *b, uint32_t x);
bool lower_ptx_may_bulk(const gac_lowering *L, const gac_inst *copy);
gac_block *lower_ptx_bulk_copy(gac_lowering *L, lower_copy_plan *p, gac_block *test, gac_block *join, uint32_t any,
                               uint32_t id, uint32_t size);
unsigned lower_ptx_copy_run(gac_lowering *L, gac_inst **copies, size_t left);

/* sm_90, warp-specialised functions (lower_ptx_warp_specialize.c):
 * prepare before the copies are lowered (it finds the producer warp's
 * blocks), finish after (handshakes, named barriers, the consumers'
 * geometry). participants: in a producer block, turns the linear id and
 * size of the work-group into the producer warp's lane and size. */
bool lower_ptx_ws_prepare(gac_lowering *L, gac_diag *diag);
void lower_ptx_ws_participants(const gac_lowering *L, gac_builder *b, uint32_t *id, uint32_t *size);
/* A producer warp's copy: the full mbarrier of the ring slot it fills (built
 * at b), which its bulk copies complete on; 0 for any other copy. */
uint32_t lower_ptx_ws_full_slot(gac_lowering *L, gac_builder *b, const gac_inst *copy);
bool lower_ptx_ws_producer_copy(const gac_lowering *L, const gac_inst *copy);
bool lower_ptx_ws_finish(gac_lowering *L, gac_diag *diag);

/* sm_90 (lower_ptx_ring.c): a ring of mbarriers in local memory per
 * function with global -> local copies, with counters c (groups committed)
 * and w (groups waited for). Group g completes on mbarrier g mod depth, in
 * phase parity (g / depth) & 1. Each operation puts its code before `at`
 * (an instruction in a block), splitting the block. */
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

/* sm_90 (lower_ptx_fence.c): removes every proxy fence that no generic
 * write of local memory can precede. */
void lower_ptx_fences(gac_lowering *L);

#endif
