/* The calls the AMDGCN lowering puts in SPIR-V and the LLVM step gives
 * bodies (amdgcn_builtins.c): the contract between the two halves of the
 * path (docs/AMDGCN.md). */
#ifndef GAC_AMDGCN_CALLS_H
#define GAC_AMDGCN_CALLS_H

/* + 1, 2 or 4: (local base, global src, bool lane loads) */
#define GAC_AMDGCN_LDS_LOAD_PREFIX "__gac_amdgcn_lds_load_"
/* (uint X, uint queue, uint n), constants: s_waitcnt vmcnt(X), marked as
 * the wait for all but queue's n newest groups (queue ANY: for all) */
#define GAC_AMDGCN_WAIT_VM "__gac_amdgcn_wait_vm"
#define GAC_AMDGCN_BARRIER "__gac_amdgcn_barrier" /* (): LDS writes done, s_barrier */
/* (): s_waitcnt vmcnt(0), no marker: every load of the wave complete */
#define GAC_AMDGCN_DRAIN_VM "__gac_amdgcn_drain_vm"
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

#endif
