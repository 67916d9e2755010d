/* The copies of the AMDGCN target (docs/AMDGCN.md): cooperative, but
 * global -> local units of 4 bytes (and of 2 and 1 on gfx942) are
 * LDS-direct loads spread over the waves (lds_direct_loop: a wave's first
 * chunks straight-line), which the waits count in vmcnt
 * (lower_amdgcn_waits.c). */
#include <stdio.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "amdgcn_lowering.h"

enum { WAVE = 64, WAVE_MAX = 1024 / 64 }; /* lanes of a CDNA wave; waves of the largest work-group */

/* The LDS-direct loads one wave issues for copy k at least, on
 * every path: the chunks of 64 units of the widest unit (4 bytes; narrower
 * units make more chunks), over the waves, rounded down. 0 when the copy's
 * shape is unknown (the waits then wait for more, never for less) or a path
 * may move the copy through registers (gfx90a, elements of 1 or 2 bytes). */
static uint32_t dma_per_wave(gac_lowering *L, const gac_function *f, const gac_async_copy *k) {
  uint64_t per_line, bpe, lines, planes = 1, size[3];
  if (!gac_constant_value(L->m, k->num_elements_per_line, &per_line) ||
      !gac_constant_value(L->m, k->num_bytes_per_element, &bpe) || !gac_constant_value(L->m, k->num_lines, &lines) ||
      (k->op == GAC_GROUP_ASYNC_COPY_3D3D && !gac_constant_value(L->m, k->num_planes, &planes)))
    return 0;
  /* Without a required size, a work-group has at most 1024 work-items (the
   * kernels' amdgpu-flat-work-group-size, lowering/amdgcn): 16 waves, each
   * issuing at least chunks / 16 loads. */
  uint64_t waves = WAVE_MAX;
  if (gac_local_size(L->m, f->def->result_id, GAC_LOCAL_SIZE_EVERY_LAUNCH, size))
    waves = (size[0] * size[1] * size[2] + WAVE - 1) / WAVE;
  if ((bpe % 4 != 0 && !amdgcn_state(L)->dma_narrow) || !waves)
    return 0;
  uint64_t chunks = (per_line * bpe / 4 + WAVE - 1) / WAVE;
  uint64_t per_wave = lines * planes * chunks / waves;
  return per_wave > 63 ? 63 : (uint32_t)per_wave;
}

uint32_t lower_amdgcn_dma_per_wave(gac_lowering *L, const gac_function *f, const gac_inst *copy) {
  gac_async_copy k;
  if (!gac_async_copy_decode(L->m, copy, &k) || !lower_global_to_local(L->m, k.destination, k.source))
    return 0;
  return dma_per_wave(L, f, &k);
}

/* Chunk `index` of a copy's `width`-byte units (see below) as one
 * LDS-direct load of the wave: M0 = the chunk's LDS address, lane i loads
 * unit first + i where that lies in the line. The load masks the other
 * lanes off itself, so the instruction is issued on every path. */
static void lds_direct_chunk(gac_lowering *L, gac_builder *b, lower_copy_plan *p, unsigned width, uint32_t index,
                             uint32_t lane, uint32_t chunks, uint32_t units_per_line) {
  gac_module *m = L->m;
  uint32_t w = gac_constant_int(m, L->size_type, width), lanes = gac_constant_int(m, L->size_type, WAVE);
  uint32_t line = lower_op2(b, SpvOpUDiv, L->size_type, index, chunks);
  uint32_t first_unit = lower_mul(L, b, lower_op2(b, SpvOpUMod, L->size_type, index, chunks), lanes);
  uint32_t so, dof;
  lower_line_offsets(L, b, p, line, lower_mul(L, b, first_unit, w), &so, &dof);
  uint32_t base = lower_byte_address(b, p->dst, p->dst_ptr_type, dof); /* the same for the wave */
  uint32_t src = lower_byte_address(b, p->src, p->src_ptr_type, lower_add(L, b, so, lower_mul(L, b, lane, w)));
  uint32_t in_line = lower_op2(b, SpvOpULessThan, L->bool_type, lower_add(L, b, first_unit, lane), units_per_line);
  char name[48];
  snprintf(name, sizeof name, GAC_AMDGCN_LDS_LOAD_PREFIX "%u", width);
  uint32_t types[3] = {p->dst_ptr_type, p->src_ptr_type, L->bool_type}, args[3] = {base, src, in_line};
  lower_call(L, b, name, 3, types, args);
}

/* The `width`-byte units of a global -> local copy as LDS-direct
 * loads, from `from` to `join`. One load moves a unit per lane of a wave
 * into LDS at M0 + lane x width, M0 the same for the whole wave, so a wave
 * takes a chunk of up to 64 consecutive units of one line (a line's units
 * are consecutive in the destination), and the waves take the chunks of
 * all lines in turn: wave w the chunks w, w + waves, ... (in the order of
 * the local linear id, as the hardware forms waves). Each chunk is one
 * load instruction of the wave, which is what the waits count
 * (dma_per_wave). A wave's first K chunks, K that count (every wave has
 * them), are straight-line loads and the rest a loop, so that the K loads
 * the waits rely on lie on every path of the machine code, where
 * gac-isa-check counts them (docs/AMDGCN.md). */
static void lds_direct_loop(gac_lowering *L, lower_copy_plan *p, gac_block *from, gac_block *join, unsigned width,
                            uint32_t id, uint32_t size) {
  gac_module *m = L->m;
  gac_builder f = gac_builder_at_end(m, &from->insts);
  uint32_t w = gac_constant_int(m, L->size_type, width), lanes = gac_constant_int(m, L->size_type, WAVE);
  uint32_t wave = lower_op2(&f, SpvOpUDiv, L->size_type, id, lanes);
  uint32_t lane = lower_op2(&f, SpvOpUMod, L->size_type, id, lanes);
  uint32_t waves = lower_op2(&f, SpvOpUDiv, L->size_type,
                             lower_add(L, &f, size, gac_constant_int(m, L->size_type, WAVE - 1)), lanes);
  uint32_t units_per_line = lower_op2(&f, SpvOpUDiv, L->size_type, p->line_bytes, w);
  uint32_t chunks = lower_op2(&f, SpvOpUDiv, L->size_type,
                              lower_add(L, &f, units_per_line, gac_constant_int(m, L->size_type, WAVE - 1)), lanes);
  uint32_t items = lower_mul(L, &f, p->total_lines, chunks);
  uint32_t divisor = lower_nonzero(L, &f, chunks);
  uint32_t peeled = dma_per_wave(L, from->function, &p->k), first = wave;
  for (uint32_t j = 0; j < peeled; j++) {
    uint32_t index = lower_add(L, &f, wave, lower_mul(L, &f, gac_constant_int(m, L->size_type, j), waves));
    lds_direct_chunk(L, &f, p, width, index, lane, divisor, units_per_line);
  }
  if (peeled)
    first = lower_add(L, &f, wave, lower_mul(L, &f, gac_constant_int(m, L->size_type, peeled), waves));
  uint32_t index;
  gac_loop lp = lower_shared_loop(L, from, join, first, waves, items, !peeled, &index);
  gac_builder b = gac_builder_at_end(m, &lp.body->insts);
  lds_direct_chunk(L, &b, p, width, index, lane, divisor, units_per_line);
  lower_loop_close(L, &lp, lp.body, L->one);
}


/* Global -> local: LDS-direct loads of 4 bytes at most (2 and 1 on gfx942;
 * on gfx90a those go through registers). */
const unsigned *lower_amdgcn_unit_widths(gac_lowering *L, const lower_copy_plan *p) {
  static const unsigned lds_widths[] = {4, 2, 1, 0};
  return lower_global_to_local(L->m, p->k.destination, p->k.source) ? lds_widths : NULL;
}

/* A global -> local copy the waits count (dma_per_wave > 0) may still take
 * a path through registers: units narrower than 4 bytes on gfx90a, where
 * its addresses are not 4-aligned at run time. That path issues no
 * LDS-direct load, and a wave may issue no load at all on it (no unit of
 * its lanes), so the loads the waits count for the copy are not there to
 * keep older groups' loads in flight behind them. The path ends in a
 * vmcnt(0) instead: every load of the wave is complete after it, what the
 * waits after it need of the older groups. It costs the misaligned path
 * nothing it did not already wait for but the older groups' prefetches. */
gac_block *lower_amdgcn_unit_loop_end(gac_lowering *L, const lower_copy_plan *p, unsigned width, gac_block *join) {
  (void)width; /* only the widths lower_amdgcn_unit_loop did not take come here */
  if (!lower_global_to_local(L->m, p->k.destination, p->k.source) || !dma_per_wave(L, join->function, &p->k))
    return join;
  gac_block *drain = gac_block_create(L->m, join->function, join->prev);
  gac_builder b = gac_builder_at_end(L->m, &drain->insts);
  lower_call(L, &b, GAC_AMDGCN_DRAIN_VM, 0, NULL, NULL);
  gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  return drain;
}

bool lower_amdgcn_unit_loop(gac_lowering *L, lower_copy_plan *p, gac_block *from, gac_block *join, unsigned width,
                            uint32_t id, uint32_t size) {
  gac_module *m = L->m;
  uint32_t sc_src = gac_def(m, p->src_ptr_type)->words[2], sc_dst = gac_def(m, p->dst_ptr_type)->words[2];
  bool to_local = sc_src == SpvStorageClassCrossWorkgroup && sc_dst == SpvStorageClassWorkgroup;
  if (!to_local || !(width == 4 || (width < 4 && amdgcn_state(L)->dma_narrow)))
    return false;
  lds_direct_loop(L, p, from, join, width, id, size);
  return true;
}
