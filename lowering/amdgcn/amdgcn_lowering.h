/* The AMDGCN target of the copy lowering (lower_target.h), in libgac: its
 * state, and the parts its files share (docs/AMDGCN.md). */
#ifndef GAC_AMDGCN_LOWERING_H
#define GAC_AMDGCN_LOWERING_H

#include "amdgcn_calls.h"
#include "lower_target.h"

/* The target's state (gac_lowering's target_state). */
typedef struct amdgcn_lowering {
  /* LDS-direct loads of 1 and 2 bytes too (gfx942; gfx90a loads only
   * dwords from global memory to LDS). */
  bool dma_narrow;
  /* Ping-pong the pipelined loops that allow it, with remarks to diag. */
  bool pingpong;
} amdgcn_lowering;

static inline amdgcn_lowering *amdgcn_state(const gac_lowering *L) { return (amdgcn_lowering *)L->target_state; }

/* --lower-async-copies=amdgcn[,mcpu=gfx90a|gfx942][,pingpong]
 * (lower_amdgcn_target.c): whether arg is such an argument, and its mcpu
 * and pingpong in *o; the lowering, options a gac_amdgcn_options (a
 * gac_copy_lowering: --emit=amdgcn hands its own options on). */
struct gac_amdgcn_options;
bool lower_amdgcn_arg(const char *arg, struct gac_amdgcn_options *o);
bool lower_amdgcn_copies(gac_module *m, const void *options, gac_diag *diag);
/* The SPIR-V half of --emit=amdgcn (lower_amdgcn_target.c): the options
 * checked, then gac_gpu_lower_spirv with this target's lowering. */
bool gac_amdgcn_lower_spirv(gac_module *m, const struct gac_amdgcn_options *options, gac_diag *diag);

/* The waits: counted in vmcnt (lower_amdgcn_waits.c). */
extern const lower_wait_emitter lower_amdgcn_waits;

/* The copies (lower_amdgcn_copies.c): the LDS-direct loads one wave issues
 * for copy k at least, on any path (0 when unknown); global -> local units
 * as LDS-direct loads. */
uint32_t lower_amdgcn_dma_per_wave(gac_lowering *L, const gac_function *f, const gac_inst *copy);
const unsigned *lower_amdgcn_unit_widths(gac_lowering *L, const lower_copy_plan *p);
gac_block *lower_amdgcn_unit_loop_end(gac_lowering *L, const lower_copy_plan *p, unsigned width, gac_block *join);
bool lower_amdgcn_unit_loop(gac_lowering *L, lower_copy_plan *p, gac_block *from, gac_block *join, unsigned width,
                            uint32_t id, uint32_t size);

/* Ping-pong f's pipelined loops where the conditions hold
 * (lower_amdgcn_pingpong.c), a remark for each loop that waits on a queue;
 * tighten[id] (by result id) for each AsyncWait whose count must cover one
 * group more than it names. */
void lower_amdgcn_pingpong(gac_lowering *L, gac_function *f, bool *tighten);

#endif
