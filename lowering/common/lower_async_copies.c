/* --lower-async-copies=opencl[,strategy=lines|cooperative]: every
 * GroupAsyncCopy2D2D/3D3D becomes core SPIR-V that any OpenCL device accepts.
 *
 * lines        one core OpGroupAsyncCopy per line (planes x lines of them, in
 *              a loop), chained on the copy's Event operand, so the result is
 *              a real event and OpGroupWaitEvents keeps its meaning.
 * cooperative  the work-items of the group share the copy: the planes x lines
 *              x line bytes are cut into units of 16, 8, 4 or 1 bytes (the
 *              widest that the addresses, strides and line size allow, chosen
 *              at run time) and distributed over the local size. The result
 *              is a zero-length OpGroupAsyncCopy chained on the Event operand
 *              (a real event, equal to Event when that is not null), and every
 *              OpGroupWaitEvents is followed by a work-group barrier, which is
 *              what makes the other work-items' stores visible.
 * late         a testing strategy: copies land only at the waits that cover
 *              them, their destinations poisoned meanwhile (lower_late.c).
 * leader       work-item 0 copies line after line, each line a loop of units
 *              of 16, 8, 4 or 1 bytes (chosen as for cooperative), with no
 *              division per unit; events and waits as for cooperative. On
 *              PoCL's CPU device, whose work-items run one after another,
 *              that is the least work per byte (docs/LOWERING.md).
 * auto         per copy, lines, cooperative or leader, as a device profile
 *              (device=pocl-cpu, the default, or gpu) and the copy's shape
 *              decide (copy_strategy.c: the rule and its measurements).
 * serial       a baseline for benchmarks, not for use: work-item 0 copies
 *              byte by byte, as Codeplay's kit lowers these builtins; events
 *              and waits as for cooperative.
 * ptx          (--lower-async-copies=ptx) cooperative, but global -> local
 *              units of 16, 8 or 4 bytes are cp.async calls, and waits and
 *              queues become cp.async groups (gpu_waits.c); events
 *              are then dead: a copy's result is its Event operand.
 * amdgcn       (--lower-async-copies=amdgcn[,mcpu=gfx90a|gfx942])
 *              cooperative, but global -> local units of 4 bytes (and of
 *              2 and 1 on gfx942) are LDS-direct loads spread over the
 *              waves (lds_direct_loop: a wave's first chunks
 *              straight-line), and waits count them in vmcnt
 *              (gpu_waits.c); events are dead as for ptx.
 *
 * helpers=auto|always|never (lines, cooperative, serial): the copies of one
 * class call one helper function per module instead of an inlined loop
 * each (copy_helpers.c); auto inlines a copy alone in its class.
 *
 * Both keep the spec's semantics: the whole work-group performs the copy,
 * operands may be runtime values, a copy may sit in any block, and copies may
 * share one event. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/builder.h"
#include "gac/async_pipeline.h"
#include "gac/pass.h"
#include "gac/ptx.h"
#include "gac/validate.h"
#include "copy_helpers.h"
#include "copy_strategy.h"
#include "lower_util.h"
#include "lowering.h"

typedef enum strategy {
  STRATEGY_LINES, STRATEGY_COOPERATIVE, STRATEGY_SERIAL, STRATEGY_PTX, STRATEGY_LATE, STRATEGY_AMDGCN,
  STRATEGY_LEADER, STRATEGY_AUTO
} strategy;

enum { WAVE = 64, WAVE_MAX = 1024 / 64 }; /* lanes of a CDNA wave; waves of the largest work-group */

/* The pieces of one copy, as values of the size type (bytes where noted). */
typedef struct copy_plan {
  gac_async_copy k;
  uint32_t src, dst;     /* the pointers as uchar pointers */
  uint32_t src_ptr_type, dst_ptr_type;
  uint32_t line_bytes;   /* elements per line x bytes per element */
  uint32_t total_lines;  /* planes x lines */
  /* What is known at compile time. A loop whose count is a constant 0 is not
   * emitted at all: PoCL 3.1 miscompiled kernels with such loops (an empty
   * kernel body) where the count folded to 0 in a path never taken. */
  bool empty;            /* a constant 0 elements, bytes, lines or planes */
  uint64_t line_bytes_known; /* 0 if not a constant */
  bool in_helper;        /* built in a copy helper, which launches of any size call */
  uint32_t ws_mbar;      /* sm_90, a producer warp's copy: the full mbarrier of its ring slot */
} copy_plan;

/* ptr as a pointer to uchar in its storage class (a bitcast unless it is one). */
static uint32_t as_bytes(gac_lowering *L, gac_builder *b, uint32_t ptr, uint32_t *ptr_type) {
  gac_inst *def = gac_def(L->m, ptr);
  gac_inst *type = def ? gac_def(L->m, def->type_id) : NULL;
  uint32_t sc = type ? type->words[2] : SpvStorageClassCrossWorkgroup;
  *ptr_type = gac_type_pointer(L->m, sc, L->uchar_type);
  if (def && def->type_id == *ptr_type)
    return ptr;
  return gac_build_ops(b, SpvOpBitcast, *ptr_type, GAC_NEW_ID, GAC_ID(ptr))->result_id;
}

/* Byte offsets into source and destination of line `line_index` (counted over
 * all planes), plus `extra` bytes. */
static void line_offsets(gac_lowering *L, gac_builder *b, const copy_plan *p, uint32_t line_index,
                         uint32_t extra, uint32_t *src_off, uint32_t *dst_off) {
  const gac_async_copy *k = &p->k;
  uint32_t line = line_index, plane = 0;
  if (k->op == GAC_GROUP_ASYNC_COPY_3D3D) {
    uint32_t lines = lower_nonzero(L, b, k->num_lines);
    plane = lower_op2(b, SpvOpUDiv, L->size_type, line_index, lines);
    line = lower_op2(b, SpvOpUMod, L->size_type, line_index, lines);
  }
  uint32_t s = lower_add(L, b, k->source_offset, lower_mul(L, b, line, k->source_line_length));
  uint32_t d = lower_add(L, b, k->destination_offset, lower_mul(L, b, line, k->destination_line_length));
  if (plane) {
    s = lower_add(L, b, s, lower_mul(L, b, plane, k->source_plane_area));
    d = lower_add(L, b, d, lower_mul(L, b, plane, k->destination_plane_area));
  }
  *src_off = lower_mul(L, b, s, k->num_bytes_per_element);
  *dst_off = lower_mul(L, b, d, k->num_bytes_per_element);
  if (extra) {
    *src_off = lower_add(L, b, *src_off, extra);
    *dst_off = lower_add(L, b, *dst_off, extra);
  }
}

static uint32_t byte_address(gac_lowering *L, gac_builder *b, uint32_t base, uint32_t ptr_type, uint32_t offset) {
  (void)L;
  return gac_build_ops(b, SpvOpPtrAccessChain, ptr_type, GAC_NEW_ID, GAC_ID(base), GAC_ID(offset))->result_id;
}

/* lines: one OpGroupAsyncCopy per line, chained on one event. */
static uint32_t lower_lines(gac_lowering *L, copy_plan *p, gac_block *pre, gac_block *exit) {
  if (p->empty) {
    gac_builder b = gac_builder_at_end(L->m, &pre->insts);
    gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(exit)));
    return p->k.event;
  }
  gac_loop lp = lower_loop_open(L, pre, exit, L->zero, p->total_lines, L->event_type, p->k.event);
  gac_builder b = gac_builder_at_end(L->m, &lp.body->insts);
  uint32_t so, dof;
  line_offsets(L, &b, p, lp.counter, 0, &so, &dof);
  uint32_t s = byte_address(L, &b, p->src, p->src_ptr_type, so);
  uint32_t d = byte_address(L, &b, p->dst, p->dst_ptr_type, dof);
  gac_build_ops(&b, SpvOpGroupAsyncCopy, L->event_type, lp.next_carried, GAC_ID(L->scope_workgroup),
                GAC_ID(d), GAC_ID(s), GAC_ID(p->line_bytes), GAC_ID(L->one), GAC_ID(lp.carried));
  lower_loop_close(L, &lp, lp.body, L->one);
  /* The loop's exit sees the header's event: the input one if no line was copied. */
  return lp.carried;
}

/* ---- cooperative ---- */

static uint32_t unit_type(gac_lowering *L, unsigned width) {
  uint32_t uint = gac_type_int(L->m, 32, 0);
  switch (width) {
  case 16: return gac_type_vector(L->m, uint, 4);
  case 8: return gac_type_vector(L->m, uint, 2);
  case 4: return uint;
  default: return L->uchar_type;
  }
}

/* One unit of type t (`width` bytes) from src to dst, uchar pointers of
 * p's storage classes. */
static void move_unit(gac_lowering *L, gac_builder *b, const copy_plan *p, uint32_t t, unsigned width, uint32_t src,
                      uint32_t dst) {
  gac_module *m = L->m;
  uint32_t sc_src = gac_def(m, p->src_ptr_type)->words[2], sc_dst = gac_def(m, p->dst_ptr_type)->words[2];
  uint32_t sp = gac_build_ops(b, SpvOpBitcast, gac_type_pointer(m, sc_src, t), GAC_NEW_ID, GAC_ID(src))->result_id;
  uint32_t dp = gac_build_ops(b, SpvOpBitcast, gac_type_pointer(m, sc_dst, t), GAC_NEW_ID, GAC_ID(dst))->result_id;
  uint32_t v = gac_build_ops(b, SpvOpLoad, t, GAC_NEW_ID, GAC_ID(sp), GAC_LIT(SpvMemoryAccessAlignedMask),
                             GAC_LIT(width))->result_id;
  gac_build_ops(b, SpvOpStore, 0, 0, GAC_ID(dp), GAC_ID(v), GAC_LIT(SpvMemoryAccessAlignedMask), GAC_LIT(width));
}

/* Marks the loop lp (a body of one block, exit `done`) not to be unrolled:
 * an OpLoopMerge with DontUnroll, which llvm-spirv-15 passes on to LLVM as
 * llvm.loop.unroll.disable. */
static void dont_unroll(gac_lowering *L, const gac_loop *lp, gac_block *done) {
  gac_builder h = gac_builder_before(L->m, lp->header->insts.last);
  gac_build_ops(&h, SpvOpLoopMerge, 0, 0, GAC_ID(gac_block_label(done)), GAC_ID(gac_block_label(lp->body)),
                GAC_LIT(SpvLoopControlDontUnrollMask));
}

/* AMDGCN: the LDS-direct loads one wave issues for copy k at least, on
 * every path: the chunks of 64 units of the widest unit (4 bytes; narrower
 * units make more chunks), over the waves, rounded down. 0 when the copy's
 * shape is unknown (the waits then wait for more, never for less) or a path
 * may move the copy through registers (gfx90a, elements of 1 or 2 bytes). */
static uint32_t dma_per_wave(gac_lowering *L, const gac_function *f, const gac_async_copy *k) {
  uint64_t per_line, bpe, lines, planes = 1, size[3];
  if (!lower_known(L, k->num_elements_per_line, &per_line) || !lower_known(L, k->num_bytes_per_element, &bpe) ||
      !lower_known(L, k->num_lines, &lines) ||
      (k->op == GAC_GROUP_ASYNC_COPY_3D3D && !lower_known(L, k->num_planes, &planes)))
    return 0;
  /* Without a required size, a work-group has at most 1024 work-items (the
   * kernels' amdgpu-flat-work-group-size, lowering/amdgcn): 16 waves, each
   * issuing at least chunks / 16 loads. */
  uint64_t waves = WAVE_MAX;
  if (lower_known_local_size(L->m, f, size))
    waves = (size[0] * size[1] * size[2] + WAVE - 1) / WAVE;
  if ((bpe % 4 != 0 && !L->dma_narrow) || !waves)
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

/* AMDGCN: chunk `index` of a copy's `width`-byte units (see below) as one
 * LDS-direct load of the wave: M0 = the chunk's LDS address, lane i loads
 * unit first + i where that lies in the line. The load masks the other
 * lanes off itself, so the instruction is issued on every path. */
static void lds_direct_chunk(gac_lowering *L, gac_builder *b, copy_plan *p, unsigned width, uint32_t index,
                             uint32_t lane, uint32_t chunks, uint32_t units_per_line) {
  gac_module *m = L->m;
  uint32_t w = gac_constant_int(m, L->size_type, width), lanes = gac_constant_int(m, L->size_type, WAVE);
  uint32_t line = lower_op2(b, SpvOpUDiv, L->size_type, index, chunks);
  uint32_t first_unit = lower_mul(L, b, lower_op2(b, SpvOpUMod, L->size_type, index, chunks), lanes);
  uint32_t so, dof;
  line_offsets(L, b, p, line, lower_mul(L, b, first_unit, w), &so, &dof);
  uint32_t base = byte_address(L, b, p->dst, p->dst_ptr_type, dof); /* the same for the wave */
  uint32_t src = byte_address(L, b, p->src, p->src_ptr_type, lower_add(L, b, so, lower_mul(L, b, lane, w)));
  uint32_t in_line = lower_op2(b, SpvOpULessThan, L->bool_type, lower_add(L, b, first_unit, lane), units_per_line);
  char name[48];
  snprintf(name, sizeof name, GAC_AMDGCN_LDS_LOAD_PREFIX "%u", width);
  uint32_t types[3] = {p->dst_ptr_type, p->src_ptr_type, L->bool_type}, args[3] = {base, src, in_line};
  lower_ptx_call(L, b, name, 3, types, args);
}

/* AMDGCN: the `width`-byte units of a global -> local copy as LDS-direct
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
static void lds_direct_loop(gac_lowering *L, copy_plan *p, gac_block *from, gac_block *join, unsigned width,
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

/* The loop moving `width`-byte units, from `from` to `join`: work-item `id`
 * of `size` takes units id, id + size, ... When serial, work-item 0 takes
 * them all and the others none. `rolled`: the loop stays a loop, and its
 * addresses are computed from the id as LLVM cannot see it. PTX gives that
 * to the narrower units, a path taken only for misaligned copies: else
 * their unit addresses are loop invariants that LLVM hoists out of the
 * loops around the copy, each holding registers for the whole kernel (the
 * SGEMM of bench/cuda: 50 registers with the 8- and 4-byte paths, 40
 * without). */
static void cooperative_loop(gac_lowering *L, copy_plan *p, gac_block *from, gac_block *join, unsigned width,
                             uint32_t id, uint32_t size, strategy strat, bool rolled) {
  bool serial = strat == STRATEGY_SERIAL;
  gac_module *m = L->m;
  uint32_t sc_src = gac_def(m, p->src_ptr_type)->words[2], sc_dst = gac_def(m, p->dst_ptr_type)->words[2];
  bool to_local = sc_src == SpvStorageClassCrossWorkgroup && sc_dst == SpvStorageClassWorkgroup;
  if (strat == STRATEGY_AMDGCN && to_local && (width == 4 || (width < 4 && L->dma_narrow))) {
    lds_direct_loop(L, p, from, join, width, id, size);
    return;
  }
  gac_block *exit = join;
  if (rolled) /* a loop's merge block is its own */
    exit = gac_block_create(m, from->function, join->prev);
  gac_builder f = gac_builder_at_end(m, &from->insts);
  if (rolled)
    id = lower_ptx_opaque(L, &f, id);
  uint32_t w = gac_constant_int(m, L->size_type, width);
  uint32_t units_per_line = lower_op2(&f, SpvOpUDiv, L->size_type, p->line_bytes, w);
  uint32_t total = lower_mul(L, &f, p->total_lines, units_per_line);
  uint32_t divisor = lower_nonzero(L, &f, units_per_line);
  /* This work-item's units: id, id + size, ... below total; serial: all of
   * them in work-item 0. The counter k runs from 0 to this work-item's count,
   * the unit is first + k x step. */
  uint32_t first = id, step = size;
  if (serial) {
    uint32_t leader = lower_op2(&f, SpvOpIEqual, L->bool_type, id, L->zero);
    first = gac_build_ops(&f, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(leader), GAC_ID(L->zero),
                          GAC_ID(total))->result_id;
    step = L->one;
  }
  uint32_t index;
  gac_loop lp = lower_shared_loop(L, from, exit, first, step, total, !serial, &index);
  if (rolled) {
    dont_unroll(L, &lp, exit);
    gac_builder e = gac_builder_at_end(m, &exit->insts);
    gac_build_ops(&e, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  }
  gac_builder b = gac_builder_at_end(m, &lp.body->insts);
  uint32_t line = lower_op2(&b, SpvOpUDiv, L->size_type, index, divisor);
  uint32_t unit = lower_op2(&b, SpvOpUMod, L->size_type, index, divisor);
  uint32_t so, dof;
  line_offsets(L, &b, p, line, lower_mul(L, &b, unit, w), &so, &dof);
  uint32_t t = unit_type(L, width);
  uint32_t src = byte_address(L, &b, p->src, p->src_ptr_type, so);
  uint32_t dst = byte_address(L, &b, p->dst, p->dst_ptr_type, dof);
  if (strat == STRATEGY_PTX && width >= 4 && to_local) {
    lower_ptx_cp_async(L, &b, width, dst, src);
    lower_loop_close(L, &lp, lp.body, L->one);
    return;
  }
  move_unit(L, &b, p, t, width, src, dst);
  lower_loop_close(L, &lp, lp.body, L->one);
}

/* leader: work-item 0 copies line after line, each line a loop of
 * `width`-byte units from `from` to `join`; the others' line count is 0
 * (a select, not a branch on the local id). No division per unit, as in a
 * memcpy: PoCL runs a group's work-items one after another anyway. */
static void leader_loop(gac_lowering *L, copy_plan *p, gac_block *from, gac_block *join, unsigned width, uint32_t id) {
  gac_module *m = L->m;
  gac_builder f = gac_builder_at_end(m, &from->insts);
  uint32_t w = gac_constant_int(m, L->size_type, width);
  uint32_t units = lower_op2(&f, SpvOpUDiv, L->size_type, p->line_bytes, w);
  uint32_t leads = lower_op2(&f, SpvOpIEqual, L->bool_type, id, L->zero);
  uint32_t lines = gac_build_ops(&f, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(leads), GAC_ID(p->total_lines),
                                 GAC_ID(L->zero))->result_id;
  gac_loop outer = lower_loop_open(L, from, join, L->zero, lines, 0, 0);
  gac_builder o = gac_builder_at_end(m, &outer.body->insts);
  uint32_t so, dof;
  line_offsets(L, &o, p, outer.counter, 0, &so, &dof);
  uint32_t src_line = byte_address(L, &o, p->src, p->src_ptr_type, so);
  uint32_t dst_line = byte_address(L, &o, p->dst, p->dst_ptr_type, dof);
  gac_block *line_done = gac_block_create(m, from->function, outer.body);
  gac_loop inner = lower_loop_open(L, outer.body, line_done, L->zero, units, 0, 0);
  gac_builder b = gac_builder_at_end(m, &inner.body->insts);
  uint32_t t = unit_type(L, width), offset = lower_mul(L, &b, inner.counter, w);
  move_unit(L, &b, p, t, width, byte_address(L, &b, src_line, p->src_ptr_type, offset),
            byte_address(L, &b, dst_line, p->dst_ptr_type, offset));
  lower_loop_close(L, &inner, inner.body, L->one);
  lower_loop_close(L, &outer, line_done, L->one);
}

/* sm_90: the shortest line a bulk copy moves. Bulk copies are issued per
 * line; lines of 128 bytes (a 32-float SGEMM tile) ran at 0.54x of the
 * same kernel with cp.async on an H100, lines of 256 bytes at parity
 * (bench/cuda, docs/PTX.md). Shorter lines take cp.async units, and a
 * function with no copy that may be bulk gets no mbarrier ring. */
enum { BULK_MIN_LINE = 256 };
/* The same holds for a warp-specialised loop's producer warp: with its
 * 128-byte lines as bulk copies (the threshold lowered, as an experiment)
 * bench/cuda's warp-specialised SGEMM ran at 0.76x its cp.async producer. */

static uint64_t element_size(const gac_module *m, uint32_t type);

/* Whether copy i (a GroupAsyncCopy2D2D/3D3D or core OpGroupAsyncCopy) may
 * become bulk copies on sm_90: its lines are known to be long enough, or
 * their length is known only at run time (then it is checked there). */
bool lower_ptx_may_bulk(const gac_lowering *L, const gac_inst *i) {
  gac_async_copy k;
  uint64_t n, size, stride;
  if (gac_async_copy_decode(L->m, i, &k))
    return !lower_known(L, k.num_elements_per_line, &n) || !lower_known(L, k.num_bytes_per_element, &size) ||
           n * size >= BULK_MIN_LINE;
  if (i->opcode != SpvOpGroupAsyncCopy)
    return false;
  /* (Execution, Destination, Source, NumElements, Stride, Event): one line
   * when the stride is a constant 1, else lines of one element. */
  if (!lower_known(L, gac_operand_word(i, 6), &stride) || stride != 1)
    return false;
  const gac_inst *type = gac_value_type(L->m, gac_operand_word(i, 3));
  size = type && type->opcode == SpvOpTypePointer ? element_size(L->m, type->words[3]) : 0;
  return !lower_known(L, gac_operand_word(i, 5), &n) || n * size >= BULK_MIN_LINE;
}

/* sm_90: when `any` (everything a unit must divide) is a multiple of 16,
 * the work-items move the copy line by line with bulk copies: a
 * global -> local copy completes on the mbarrier of the group being formed
 * (lower_ptx_ring.c), and is at most 1 MiB - 1 (an mbarrier's transaction
 * count); a local -> global copy is a bulk store, after a proxy fence (kept
 * only where needed: lower_ptx_fence.c) and a barrier, since other
 * work-items wrote the source. `test` gets the branch; returns the block
 * where the other ways of copying are tried. */
static gac_block *bulk_copy(gac_lowering *L, copy_plan *p, gac_block *test, gac_block *join, uint32_t any,
                            uint32_t id, uint32_t size) {
  gac_module *m = L->m;
  gac_function *f = test->function;
  uint32_t sc_src = gac_def(m, p->src_ptr_type)->words[2], sc_dst = gac_def(m, p->dst_ptr_type)->words[2];
  gac_ptx_ring *ring = lower_ptx_ring_of(L, f);
  bool load = sc_src == SpvStorageClassCrossWorkgroup && sc_dst == SpvStorageClassWorkgroup && (ring || p->ws_mbar);
  bool store = sc_src == SpvStorageClassWorkgroup && sc_dst == SpvStorageClassCrossWorkgroup;
  if ((!load && !store) || (p->line_bytes_known && p->line_bytes_known < BULK_MIN_LINE))
    return test;
  gac_block *bulk = gac_block_create(m, f, join->prev);
  gac_block *next_test = gac_block_create(m, f, bulk);
  gac_builder t = gac_builder_at_end(m, &test->insts);
  /* The fence goes before the choice, on both ways: a write that reached a
   * copy done the other way would otherwise still need a fence at the next
   * bulk store. */
  if (store)
    lower_ptx_call(L, &t, GAC_PTX_FENCE_PROXY_ASYNC, 0, NULL, NULL);
  uint32_t low = lower_op2(&t, SpvOpBitwiseAnd, L->size_type, any, gac_constant_int(m, L->size_type, 15));
  uint32_t ok = lower_op2(&t, SpvOpIEqual, L->bool_type, low, L->zero);
  uint32_t total = lower_mul(L, &t, p->total_lines, p->line_bytes);
  if (load) {
    uint32_t fits = lower_op2(&t, SpvOpULessThan, L->bool_type, total, gac_constant_int(m, L->size_type, 1u << 20));
    ok = lower_op2(&t, SpvOpLogicalAnd, L->bool_type, ok, fits);
  }
  if (!p->line_bytes_known) {
    uint32_t min = gac_constant_int(m, L->size_type, BULK_MIN_LINE);
    uint32_t long_lines = lower_op2(&t, SpvOpUGreaterThanEqual, L->bool_type, p->line_bytes, min);
    ok = lower_op2(&t, SpvOpLogicalAnd, L->bool_type, ok, long_lines);
  }
  gac_build_ops(&t, SpvOpBranchConditional, 0, 0, GAC_ID(ok), GAC_ID(gac_block_label(bulk)),
                GAC_ID(gac_block_label(next_test)));

  gac_builder b = gac_builder_at_end(m, &bulk->insts);
  if (store) {
    lower_workgroup_barrier(L, &b);
  } else if (!p->ws_mbar) { /* (a producer warp's slot: its PipeProducerAcquire freed it) */
    /* The slot this copy arms must not hold a group still in flight. */
    bulk = lower_ptx_ring_make_room(L, ring, bulk);
    b = gac_builder_at_end(m, &bulk->insts);
  }
  gac_block *after = gac_block_create(m, f, bulk);
  /* The elected work-item adds the copy's bytes to the mbarrier; then the
   * work-items share the lines (id, id + size, ...), each issuing its own:
   * a transaction count may go below zero while bytes land before the
   * expect_tx, and the phase cannot complete before the commit's arrive. */
  uint32_t uint = gac_type_int(m, 32, 0), mbar = 0;
  if (load) {
    mbar = p->ws_mbar ? p->ws_mbar : lower_ptx_ring_slot(L, ring, &b);
    uint32_t elected = lower_op2(&b, SpvOpIEqual, L->bool_type, id, L->zero);
    gac_block *issue = gac_block_create(m, f, bulk);
    gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(elected), GAC_ID(gac_block_label(issue)),
                  GAC_ID(gac_block_label(after)));
    gac_builder i = gac_builder_at_end(m, &issue->insts);
    uint32_t types[2] = {gac_def(m, mbar)->type_id, uint}, args[2] = {mbar, lower_to_u32(L, &i, total)};
    lower_ptx_call(L, &i, GAC_PTX_MBAR_EXPECT_TX, 2, types, args);
    gac_build_ops(&i, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(after)));
  } else {
    gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(after)));
  }
  gac_block *done = gac_block_create(m, f, after);
  uint32_t line;
  gac_loop lp = lower_shared_loop(L, after, done, id, size, p->total_lines, true, &line);
  gac_builder body = gac_builder_at_end(m, &lp.body->insts);
  uint32_t so, dof;
  line_offsets(L, &body, p, line, 0, &so, &dof);
  uint32_t src = byte_address(L, &body, p->src, p->src_ptr_type, so);
  uint32_t dst = byte_address(L, &body, p->dst, p->dst_ptr_type, dof);
  uint32_t bytes = lower_to_u32(L, &body, p->line_bytes);
  if (load) {
    uint32_t types[4] = {p->dst_ptr_type, p->src_ptr_type, uint, gac_def(m, mbar)->type_id};
    lower_ptx_call(L, &body, GAC_PTX_BULK_LOAD, 4, types, (uint32_t[]){dst, src, bytes, mbar});
  } else {
    uint32_t types[3] = {p->dst_ptr_type, p->src_ptr_type, uint};
    lower_ptx_call(L, &body, GAC_PTX_BULK_STORE, 3, types, (uint32_t[]){dst, src, bytes});
  }
  lower_loop_close(L, &lp, lp.body, L->one);
  gac_builder a = gac_builder_at_end(m, &done->insts);
  if (store)
    lower_ptx_call(L, &a, GAC_PTX_BULK_COMMIT, 0, NULL, NULL); /* each work-item's own bulk group */
  gac_build_ops(&a, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  return next_test;
}

/* Everything a copy's unit must divide, OR'ed: both start addresses, every
 * stride, the line. */
static uint32_t unit_alignment(gac_lowering *L, gac_builder *b, const copy_plan *p) {
  const gac_async_copy *k = &p->k;
  uint32_t so, dof;
  line_offsets(L, b, p, L->zero, 0, &so, &dof);
  uint32_t bits[8];
  unsigned n = 0;
  bits[n++] = lower_add(L, b, gac_build_ops(b, SpvOpConvertPtrToU, L->size_type, GAC_NEW_ID, GAC_ID(p->src))->result_id, so);
  bits[n++] = lower_add(L, b, gac_build_ops(b, SpvOpConvertPtrToU, L->size_type, GAC_NEW_ID, GAC_ID(p->dst))->result_id, dof);
  bits[n++] = p->line_bytes;
  bits[n++] = lower_mul(L, b, k->source_line_length, k->num_bytes_per_element);
  bits[n++] = lower_mul(L, b, k->destination_line_length, k->num_bytes_per_element);
  if (k->op == GAC_GROUP_ASYNC_COPY_3D3D) {
    bits[n++] = lower_mul(L, b, k->source_plane_area, k->num_bytes_per_element);
    bits[n++] = lower_mul(L, b, k->destination_plane_area, k->num_bytes_per_element);
  }
  uint32_t any = bits[0];
  for (unsigned i = 1; i < n; i++)
    any = lower_op2(b, SpvOpBitwiseOr, L->size_type, any, bits[i]);
  return any;
}

static uint32_t lower_cooperative(gac_lowering *L, copy_plan *p, gac_block *pre, gac_block *exit, strategy strat) {
  bool serial = strat == STRATEGY_SERIAL;
  gac_module *m = L->m;
  gac_builder b = gac_builder_at_end(m, &pre->insts);
  const gac_async_copy *k = &p->k;
  uint32_t id, size;
  lower_linear_local_id(L, &b, p->in_helper ? NULL : pre->function, &id, &size);

  uint32_t any = unit_alignment(L, &b, p);

  /* pre -> (16?) loop16 : (8?) loop8 : (4?) loop4 : loop1, all to join, with
   * only the widths that can apply (a constant line size rules some out). New
   * blocks go just before join, so each comes after the blocks dominating it. */
  gac_block *join = gac_block_create(m, pre->function, pre);
  unsigned widths[4], num_widths = 0;
  static const unsigned all_widths[] = {16, 8, 4, 1}, lds_widths[] = {4, 2, 1, 0};
  /* AMDGCN, global -> local: LDS-direct loads of 4 bytes at most (2 and 1
   * on gfx942; on gfx90a those go through registers). */
  bool lds = strat == STRATEGY_AMDGCN && lower_global_to_local(m, k->destination, k->source);
  const unsigned *candidates = lds ? lds_widths : all_widths;
  /* PTX and AMDGCN: no unit narrower than an element of 4, 8 or 16 bytes
   * (OpenCL aligns every element to its size), so no byte path. */
  uint64_t bpe = 0;
  bool element_unit = (strat == STRATEGY_PTX || strat == STRATEGY_AMDGCN) &&
                      lower_known(L, k->num_bytes_per_element, &bpe) && (bpe == 4 || bpe == 8 || bpe == 16);
  for (unsigned i = serial ? 3 : 0; i < 4 && candidates[i] && !p->empty; i++) {
    unsigned w = candidates[i];
    if (element_unit && w < bpe && !(lds && w == 4))
      continue;
    if (w == 1 || w == bpe || !p->line_bytes_known || p->line_bytes_known % w == 0)
      widths[num_widths++] = w;
  }
  gac_block *test = pre;
  if (strat == STRATEGY_PTX && L->sm90 && !p->empty)
    test = bulk_copy(L, p, test, join, any, id, size);
  for (unsigned i = 0; i < num_widths; i++) {
    gac_block *loop_from = test;
    if (i + 1 < num_widths) {
      loop_from = gac_block_create(m, pre->function, join->prev);
      gac_block *next_test = gac_block_create(m, pre->function, loop_from);
      gac_builder t = gac_builder_at_end(m, &test->insts);
      uint32_t mask = gac_constant_int(m, L->size_type, widths[i] - 1);
      uint32_t low = lower_op2(&t, SpvOpBitwiseAnd, L->size_type, any, mask);
      uint32_t aligned = lower_op2(&t, SpvOpIEqual, L->bool_type, low, L->zero);
      gac_build_ops(&t, SpvOpBranchConditional, 0, 0, GAC_ID(aligned), GAC_ID(gac_block_label(loop_from)),
                    GAC_ID(gac_block_label(next_test)));
      test = next_test;
    }
    if (strat == STRATEGY_LEADER)
      leader_loop(L, p, loop_from, join, widths[i], id);
    else
      cooperative_loop(L, p, loop_from, join, widths[i], id, size, strat, strat == STRATEGY_PTX && i > 0);
  }
  if (num_widths == 0) {
    gac_builder t = gac_builder_at_end(m, &pre->insts);
    gac_build_ops(&t, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  }
  /* join: a real event, chained on Event, then on to the rest of the block. */
  gac_builder j = gac_builder_at_end(m, &join->insts);
  if (strat == STRATEGY_PTX || strat == STRATEGY_AMDGCN) {
    gac_build_ops(&j, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(exit)));
    return k->event;
  }
  uint32_t event = gac_build_ops(&j, SpvOpGroupAsyncCopy, L->event_type, GAC_NEW_ID, GAC_ID(L->scope_workgroup),
                                 GAC_ID(p->dst), GAC_ID(p->src), GAC_ID(L->zero), GAC_ID(L->one),
                                 GAC_ID(k->event))->result_id;
  gac_build_ops(&j, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(exit)));
  return event;
}

/* PTX: a run of global -> local copies issued together (the tiles of A
 * and B of a matrix product, say) take their 16-byte units in one block
 * when all are aligned for them, behind one test; else each goes its own
 * way as alone. Apart, each copy had its own test and branch, and ptxas
 * pads each block of cp.async (LDGSTS) with three idle loads: a pipelined
 * SGEMM step issued 6 of them where the hand-written kernel issues 3. */
enum { MAX_RUN = 8 };

static void lower_ptx_copy_run(gac_lowering *L, copy_plan *plans, unsigned num, gac_block *pre, gac_block *exit) {
  gac_module *m = L->m;
  gac_function *f = pre->function;
  gac_builder b = gac_builder_at_end(m, &pre->insts);
  uint32_t id, size;
  lower_linear_local_id(L, &b, f, &id, &size);
  uint32_t any = unit_alignment(L, &b, &plans[0]);
  for (unsigned c = 1; c < num; c++)
    any = lower_op2(&b, SpvOpBitwiseOr, L->size_type, any, unit_alignment(L, &b, &plans[c]));
  uint32_t low = lower_op2(&b, SpvOpBitwiseAnd, L->size_type, any, gac_constant_int(m, L->size_type, 15));
  uint32_t aligned = lower_op2(&b, SpvOpIEqual, L->bool_type, low, L->zero);
  /* together: one loop after the other; apart: one whole copy after the other. */
  gac_block *together[MAX_RUN + 1], *apart[MAX_RUN + 1];
  together[0] = gac_block_create(m, f, pre);
  for (unsigned c = 1; c < num; c++)
    together[c] = gac_block_create(m, f, together[c - 1]);
  apart[0] = gac_block_create(m, f, together[num - 1]);
  for (unsigned c = 1; c < num; c++)
    apart[c] = gac_block_create(m, f, apart[c - 1]);
  together[num] = apart[num] = exit;
  gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(aligned), GAC_ID(gac_block_label(together[0])),
                GAC_ID(gac_block_label(apart[0])));
  for (unsigned c = 0; c < num; c++)
    cooperative_loop(L, &plans[c], together[c], together[c + 1], 16, id, size, STRATEGY_PTX, false);
  for (unsigned c = 0; c < num; c++)
    lower_cooperative(L, &plans[c], apart[c], apart[c + 1], STRATEGY_PTX);
}

/* Whether the instructions strictly between copies a and b (one block) only
 * compute values (which may move before the run, if they use none of the
 * `num` results of its copies so far) or store an event into a Function
 * variable (which may move after the run). */
static bool only_values_between(const gac_module *m, const gac_inst *a, const gac_inst *b, gac_inst *const *run,
                                unsigned num) {
  for (const gac_inst *i = a->next; i != b; i = i->next) {
    if (!i)
      return false;
    if (i->opcode == SpvOpStore) {
      if (lower_storage_class(m, gac_operand_word(i, 0)) != SpvStorageClassFunction)
        return false;
      continue;
    }
    switch (i->opcode) {
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpUMod:
    case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpBitwiseAnd: case SpvOpBitwiseOr:
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast: case SpvOpSelect:
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain:
      break;
    default:
      return false;
    }
    for (unsigned k = 0; k < i->num_operands; k++)
      for (unsigned c = 0; c < num; c++)
        if (i->operands[k].kind == GAC_OPERAND_ID && gac_operand_word(i, k) == run[c]->result_id)
          return false;
  }
  return true;
}

/* Whether copy b may join the run that ends with the last of its `num`
 * copies (PTX): all 2D/3D global -> local copies of one block that cannot
 * be bulk copies and whose lines allow 16-byte units, with only values
 * between them; b may use the last one's result as its Event only. */
static bool joins_run(gac_lowering *L, gac_inst *const *run, unsigned num, const gac_inst *b) {
  const gac_inst *a = run[num - 1];
  gac_async_copy k;
  uint64_t per, bpe;
  const gac_inst *both[2] = {a, b};
  for (unsigned c = 0; c < 2; c++) {
    if (!gac_async_copy_decode(L->m, both[c], &k) || !lower_global_to_local(L->m, k.destination, k.source) ||
        (L->sm90 && lower_ptx_may_bulk(L, both[c])))
      return false;
    if (lower_known(L, k.num_elements_per_line, &per) && lower_known(L, k.num_bytes_per_element, &bpe) &&
        per * bpe % 16 != 0)
      return false;
  }
  if (!b || gac_inst_block(a) != gac_inst_block(b))
    return false;
  for (unsigned i = 0; i + 1 < b->num_operands; i++)
    for (unsigned c = 0; c < num; c++)
      if (b->operands[i].kind == GAC_OPERAND_ID && gac_operand_word(b, i) == run[c]->result_id)
        return false;
  return only_values_between(L->m, a, b, run, num);
}

/* The rest of p's plan (p->k decoded), its values built at b. */
static void plan_copy(gac_lowering *L, gac_builder *b, copy_plan *p) {
  if (p->k.op == GAC_GROUP_ASYNC_COPY_2D2D)
    p->k.num_planes = L->one;
  p->src = as_bytes(L, b, p->k.source, &p->src_ptr_type);
  p->dst = as_bytes(L, b, p->k.destination, &p->dst_ptr_type);
  p->line_bytes = lower_mul(L, b, p->k.num_elements_per_line, p->k.num_bytes_per_element);
  p->total_lines = lower_mul(L, b, p->k.num_planes, p->k.num_lines);
  p->empty = lower_known_zero(L, p->k.num_elements_per_line) || lower_known_zero(L, p->k.num_bytes_per_element) ||
             lower_known_zero(L, p->k.num_lines) || lower_known_zero(L, p->k.num_planes);
  uint64_t per_line, bpe;
  if (lower_known(L, p->k.num_elements_per_line, &per_line) && lower_known(L, p->k.num_bytes_per_element, &bpe))
    p->line_bytes_known = per_line * bpe;
}

/* Lowers a run of copies (joins_run) together. They are made adjacent
 * first: the values between them go before the first, the event stores
 * after the last. On PTX a copy's result is its Event operand. */
static void lower_run(gac_lowering *L, gac_inst **run, unsigned num) {
  gac_module *m = L->m;
  gac_inst *first = run[0], *last = run[num - 1];
  for (unsigned c = 0; c + 1 < num; c++)
    for (gac_inst *i = run[c]->next, *next; i != run[c + 1]; i = next) {
      next = i->next;
      gac_inst_list *list = i->list;
      gac_inst_remove(m, i);
      gac_list_insert_before(m, list, i->opcode == SpvOpStore ? last->next : first, i);
      if (i->opcode == SpvOpStore)
        last = i;
    }
  copy_plan plans[MAX_RUN];
  memset(plans, 0, sizeof plans);
  for (unsigned c = 0; c < num; c++) {
    gac_async_copy_decode(m, run[c], &plans[c].k);
    gac_replace_all_uses(m, run[c]->result_id, plans[c].k.event);
  }
  gac_block *pre = gac_inst_block(first), *exit = gac_block_split_after(m, run[num - 1]);
  for (unsigned c = 0; c < num; c++) {
    gac_builder b = gac_builder_before(m, first);
    plan_copy(L, &b, &plans[c]);
  }
  for (unsigned c = 0; c < num; c++)
    gac_inst_remove(m, run[c]);
  lower_ptx_copy_run(L, plans, num, pre, exit);
}

/* After every OpGroupWaitEvents (or run of them): a barrier over both
 * memories, so that what other work-items copied is visible. */
static void barrier_after_waits(gac_lowering *L) {
  gac_foreach_function(f, L->m) {
    gac_foreach_block(blk, f) {
      gac_foreach_inst(i, &blk->insts) {
        /* One barrier after a run of waits (a queue's wait is two). */
        if (i->opcode != SpvOpGroupWaitEvents || (i->next && i->next->opcode == SpvOpGroupWaitEvents))
          continue;
        gac_builder b = gac_builder_after(L->m, i);
        lower_workgroup_barrier(L, &b);
      }
    }
  }
}

/* The core OpGroupAsyncCopy instructions of m (in `out` if not NULL): on
 * PTX nothing else would lower OpenCL's 1D async_work_group_(strided_)copy. */
static size_t count_core_copies(gac_module *m, gac_inst **out) {
  size_t n = 0;
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (i->opcode != SpvOpGroupAsyncCopy)
          continue;
        if (out)
          out[n] = i;
        n++;
      }
    }
  }
  return n;
}

/* Bytes of one element of OpenCL type `type` (a 3-vector is the size of a
 * 4-vector), 0 if not a scalar or vector. */
static uint64_t element_size(const gac_module *m, uint32_t type) {
  const gac_inst *t = gac_def(m, type);
  if (t && (t->opcode == SpvOpTypeInt || t->opcode == SpvOpTypeFloat))
    return t->words[2] / 8;
  if (t && t->opcode == SpvOpTypeVector)
    return element_size(m, t->words[2]) * (t->words[3] == 3 ? 4 : t->words[3]);
  return 0;
}

/* OpGroupAsyncCopy (Execution, Destination, Source, NumElements, Stride,
 * Event) as the 2D copy it is: NumElements lines of one element, the
 * stride on the global side (OpenCL's strided copies), or one line when
 * the stride is a constant 1. */
bool lower_core_copy_as_2d(gac_lowering *L, const gac_inst *i, gac_async_copy *k, gac_diag *diag) {
  gac_module *m = L->m;
  const gac_inst *type = gac_value_type(m, gac_operand_word(i, 3));
  uint64_t size = type && type->opcode == SpvOpTypePointer ? element_size(m, type->words[3]) : 0;
  if (!size) {
    gac_diag_add(diag, GAC_ERROR, i->offset, i->result_id, "lower.element",
                 "OpGroupAsyncCopy: this lowering copies scalars and vectors only");
    return false;
  }
  /* SPIRV-Tools lets a non-pointer Source through (an integer made a
   * pointer type of storage class 32 here once). */
  const gac_inst *src_type = gac_value_type(m, gac_operand_word(i, 4));
  uint32_t dst_sc = type->words[2], src_sc = src_type && src_type->opcode == SpvOpTypePointer ? src_type->words[2] : ~0u;
  if (!(dst_sc == SpvStorageClassWorkgroup && src_sc == SpvStorageClassCrossWorkgroup) &&
      !(dst_sc == SpvStorageClassCrossWorkgroup && src_sc == SpvStorageClassWorkgroup)) {
    gac_diag_add(diag, GAC_ERROR, i->offset, i->result_id, "lower.core-copy-pointers",
                 "OpGroupAsyncCopy: Destination and Source must be pointers, one to Workgroup and one to "
                 "CrossWorkgroup memory");
    return false;
  }
  *k = (gac_async_copy){.op = GAC_GROUP_ASYNC_COPY_2D2D, .destination = gac_operand_word(i, 3),
                        .source = gac_operand_word(i, 4), .event = gac_operand_word(i, 7)};
  k->destination_offset = k->source_offset = L->zero;
  k->num_bytes_per_element = gac_constant_int(m, L->size_type, size);
  uint32_t n = gac_operand_word(i, 5), stride = gac_operand_word(i, 6);
  uint64_t known;
  if (lower_known(L, stride, &known) && known == 1) {
    k->num_elements_per_line = n;
    k->num_lines = L->one;
    k->source_line_length = k->destination_line_length = n;
  } else {
    bool global_source = lower_storage_class(m, k->source) == SpvStorageClassCrossWorkgroup;
    k->num_elements_per_line = L->one;
    k->num_lines = n;
    k->source_line_length = global_source ? stride : L->one;
    k->destination_line_length = global_source ? L->one : stride;
  }
  return true;
}

/* Whether copy i's sizes are of the size type the lowering computes with
 * and its event of OpTypeEvent. Others pass the validators (a signed 64-bit
 * size, a pointer as OpGroupAsyncCopy's event) but made invalid code. */
static bool operand_types_fit(gac_lowering *L, const gac_inst *i, gac_diag *diag) {
  gac_module *m = L->m;
  const gac_inst *size = gac_def(m, L->size_type), *event = gac_def(m, L->event_type);
  bool ok = true;
  gac_async_copy k;
  if (i->opcode == SpvOpGroupAsyncCopy) {
    ok = i->num_operands > 7 && gac_value_type(m, gac_operand_word(i, 5)) == size &&
         gac_value_type(m, gac_operand_word(i, 6)) == size && gac_value_type(m, gac_operand_word(i, 7)) == event;
  } else if (gac_async_copy_decode(m, i, &k)) { /* else: refused below, lower.invalid */
    const gac_async_copy_info *info = gac_async_copy_info_for(k.op);
    for (unsigned o = 0; o < info->num_operands; o++) {
      size_t field = info->operands[o].field;
      if (field != offsetof(gac_async_copy, source) && field != offsetof(gac_async_copy, destination))
        ok = ok && gac_value_type(m, gac_async_copy_get(&k, &info->operands[o])) ==
                       (field == offsetof(gac_async_copy, event) ? event : size);
    }
  }
  if (!ok)
    gac_diag_add(diag, GAC_ERROR, i->offset, i->result_id, "lower.operand-type",
                 "a size operand is not of the %s-bit unsigned integer type the lowering computes with, or the "
                 "event is not an OpTypeEvent",
                 gac_module_addressing_model(m) == SpvAddressingModelPhysical32 ? "32" : "64");
  return ok;
}

/* An OpenCL strategy and, for auto, the device profile. */
typedef struct opencl_strategy {
  strategy strat;
  copy_device device;
} opencl_strategy;

static uint32_t lower_opencl(gac_lowering *L, copy_plan *p, gac_block *pre, gac_block *exit, opencl_strategy s);

static strategy strategy_of(copy_kind kind) {
  return kind == COPY_KIND_LINES ? STRATEGY_LINES : kind == COPY_KIND_LEADER ? STRATEGY_LEADER : STRATEGY_COOPERATIVE;
}

/* auto: the lowering the device profile chooses for the copy's shape. */
static uint32_t lower_auto(gac_lowering *L, copy_plan *p, gac_block *pre, gac_block *exit, copy_device device) {
  strategy chosen = strategy_of(copy_strategy_choose(device, p->line_bytes_known));
  return lower_opencl(L, p, pre, exit, (opencl_strategy){chosen, device});
}

/* The copy p lowered by strategy s, from the end of pre to exit; returns its event. */
static uint32_t lower_opencl(gac_lowering *L, copy_plan *p, gac_block *pre, gac_block *exit, opencl_strategy s) {
  if (s.strat == STRATEGY_AUTO)
    return lower_auto(L, p, pre, exit, s.device);
  return s.strat == STRATEGY_LINES ? lower_lines(L, p, pre, exit) : lower_cooperative(L, p, pre, exit, s.strat);
}

/* A copy helper's body (copy_helpers.c): the copy as it would be inlined. */
static uint32_t helper_body(gac_lowering *L, const gac_async_copy *k, gac_block *entry, gac_block *exit, void *user) {
  copy_plan p = {.k = *k, .in_helper = true};
  gac_builder b = gac_builder_at_end(L->m, &entry->insts);
  plan_copy(L, &b, &p);
  return lower_opencl(L, &p, entry, exit, *(const opencl_strategy *)user);
}

static const struct {
  const char *text;
  int strategy, helpers, device; /* -1: not this option */
} options[] = {
    {"strategy=lines", STRATEGY_LINES, -1, -1},       {"strategy=cooperative", STRATEGY_COOPERATIVE, -1, -1},
    {"strategy=serial", STRATEGY_SERIAL, -1, -1},     {"strategy=late", STRATEGY_LATE, -1, -1},
    {"strategy=leader", STRATEGY_LEADER, -1, -1},     {"strategy=auto", STRATEGY_AUTO, -1, -1},
    {"device=pocl-cpu", -1, -1, COPY_DEVICE_POCL_CPU}, {"device=gpu", -1, -1, COPY_DEVICE_GPU},
    {"helpers=auto", -1, COPY_HELPERS_AUTO, -1},      {"helpers=always", -1, COPY_HELPERS_ALWAYS, -1},
    {"helpers=never", -1, COPY_HELPERS_NEVER, -1},
};

/* amdgcn[,mcpu=gfx90a|gfx942][,pingpong]: gfx942 also has LDS-direct
 * loads of 1 and 2 bytes; pingpong: lower_amdgcn_pingpong.c. */
static bool amdgcn_arg(const char *arg, bool *dma_narrow, bool *pingpong) {
  static const char *const forms[] = {"amdgcn", "amdgcn,mcpu=gfx90a", "amdgcn,mcpu=gfx942"};
  for (unsigned k = 0; k < 3; k++) {
    size_t len = strlen(forms[k]);
    if (strncmp(arg, forms[k], len) == 0 && (!arg[len] || strcmp(arg + len, ",pingpong") == 0)) {
      *dma_narrow = k == 2;
      *pingpong = arg[len] != 0;
      return true;
    }
  }
  return false;
}

/* opencl[,strategy=S][,helpers=H], ptx[,sm=80|90] or
 * amdgcn[,mcpu=gfx90a|gfx942][,pingpong]. The default is
 * cooperative: it was faster than lines on PoCL over most shapes of
 * bench/pocl (docs/LOWERING.md), and it is the one that spreads the work on
 * a device whose work-items run in parallel. */
static bool parse_arg(const char *arg, strategy *s, copy_device *device, bool *sm90, bool *dma_narrow,
                      bool *pingpong, copy_helper_mode *helpers, gac_diag *diag) {
  *s = STRATEGY_COOPERATIVE;
  *device = COPY_DEVICE_POCL_CPU;
  *helpers = COPY_HELPERS_AUTO;
  *sm90 = arg && strcmp(arg, "ptx,sm=90") == 0;
  *dma_narrow = *pingpong = false;
  if (!arg)
    return true;
  if (strcmp(arg, "ptx") == 0 || strcmp(arg, "ptx,sm=80") == 0 || strcmp(arg, "ptx,sm=90") == 0) {
    *s = STRATEGY_PTX;
    return true;
  }
  if (amdgcn_arg(arg, dma_narrow, pingpong)) {
    *s = STRATEGY_AMDGCN;
    return true;
  }
  bool ok = strncmp(arg, "opencl", 6) == 0 && (arg[6] == 0 || arg[6] == ',');
  for (const char *rest = arg + 6; ok && *rest == ','; ) {
    rest++;
    size_t len = strcspn(rest, ","), i = 0;
    while (i < sizeof options / sizeof *options && (strlen(options[i].text) != len || strncmp(options[i].text, rest, len)))
      i++;
    ok = i < sizeof options / sizeof *options;
    if (ok && options[i].strategy >= 0)
      *s = (strategy)options[i].strategy;
    if (ok && options[i].helpers >= 0)
      *helpers = (copy_helper_mode)options[i].helpers;
    if (ok && options[i].device >= 0)
      *device = (copy_device)options[i].device;
    rest += len;
  }
  if (ok)
    return true;
  gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "lower.argument",
               "--lower-async-copies=%s: expected opencl[,strategy=S][,device=D][,helpers=H] with S one of "
               "lines, cooperative, leader, auto, serial, late, D one of pocl-cpu, gpu (for auto) and H one of "
               "auto, always, never; or ptx[,sm=80|90]; or "
               "amdgcn[,mcpu=gfx90a|gfx942][,pingpong]",
               arg);
  return false;
}

static bool lower_async_copies(gac_module *m, const char *arg, gac_diag *diag) {
  strategy strat;
  copy_device device;
  bool sm90, dma_narrow, pingpong;
  copy_helper_mode helper_mode;
  if (!parse_arg(arg, &strat, &device, &sm90, &dma_narrow, &pingpong, &helper_mode, diag))
    return false;
  /* PTX and AMDGCN: the waits become the target's, before the copies. */
  bool gpu = strat == STRATEGY_PTX || strat == STRATEGY_AMDGCN;
  /* Only what follows the sets' rules is lowered: anything else would give a
   * silently wrong module. */
  if (!gac_validate_async_copies(m, diag) || !gac_validate_async_pipeline(m, diag))
    return false;
  /* The lowerings read the work-group size from the WorkgroupSize builtin
   * variable, which a shader module may not have (it must be a constant). */
  uint32_t shader = gac_module_shader_capability(m);
  if (shader != ~0u) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "lower.shader",
                 "the module declares capability %u, which is or implies Shader: only OpenCL kernel modules "
                 "(without Shader) are lowered",
                 shader);
    return false;
  }
  /* Warp-specialised loops need a producer warp and mbarriers. */
  if (strat != STRATEGY_PTX) {
    gac_foreach_function(f, m) gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
      if (gac_async_pipeline_op_of(m, i) == GAC_WARP_SPECIALIZE) {
        gac_diag_add(diag, GAC_ERROR, i->offset, i->result_id, "lower.warp-specialize",
                     "WarpSpecialize: a warp-specialised loop runs only on the PTX path (--emit=ptx --sm=90); "
                     "pipeline without warp-specialize for this target");
        return false;
      }
    }
  }
  if (strat == STRATEGY_LATE)
    return gac_lower_late(m, diag);
  /* Queues first: for OpenCL their waits are OpGroupWaitEvents, which the
   * cooperative strategy follows with barriers below; for PTX all waits
   * become cp.async group waits and barriers. */
  gac_lowering L;
  bool queues;
  if (gpu) {
    gac_lowering_init(&L, m);
    L.sm90 = sm90;
    L.amdgcn = strat == STRATEGY_AMDGCN;
    L.dma_narrow = dma_narrow;
    L.pingpong = pingpong;
    L.diag = diag;
    gac_require_capability(m, SpvCapabilityInt8); /* for the uchar type init made */
    /* Warp-specialised functions first: their producer's copies arm the
     * pipes' rings, not the function's (gpu_waits.c makes none for them). */
    if (strat == STRATEGY_PTX && !lower_ptx_ws_prepare(&L, diag))
      return false;
    queues = lower_async_waits_ptx(&L);
  } else {
    queues = gac_lower_async_queues(m, NULL, diag);
  }
  if (gac_diag_has_errors(diag))
    return false;
  size_t count = 0;
  gac_foreach_async_copy(i, m) count++;
  if (gpu)
    count += count_core_copies(m, NULL);
  if (count == 0) {
    if (gpu)
      lower_ptx_rings_free(&L);
    if (gpu && !lower_ptx_ws_finish(&L, diag))
      return false;
    gac_pass_find("remove-unused-imports")->run(m, NULL, diag);
    return queues;
  }

  if (!gpu)
    gac_lowering_init(&L, m);
  gac_require_capability(m, SpvCapabilityInt8);
  gac_inst **copies = malloc(count * sizeof(gac_inst *));
  size_t n = 0;
  gac_foreach_async_copy(i, m) copies[n++] = i;
  if (gpu)
    n += count_core_copies(m, copies + n);
  /* OpenCL: copies of a class through one helper (copy_helpers.c). PTX
   * inlines every copy: its units and runs depend on each copy's block. */
  copy_helpers *helpers = NULL;
  opencl_strategy opencl = {strat, device};
  if (!gpu && helper_mode != COPY_HELPERS_NEVER) {
    helpers = copy_helpers_create(&L, helper_mode, helper_body, &opencl);
    for (size_t c = 0; helpers && c < n; c++) {
      gac_async_copy k;
      if (gac_async_copy_decode(m, copies[c], &k))
        copy_helpers_count(helpers, &k);
    }
  }
  bool typed = true;
  for (size_t c = 0; c < n; c++)
    typed = operand_types_fit(&L, copies[c], diag) && typed;
  bool ok = typed;
  for (size_t c = 0; typed && c < n; c++) {
    gac_inst *inst = copies[c];
    unsigned run = 1;
    while (strat == STRATEGY_PTX && run < MAX_RUN && c + run < n && joins_run(&L, copies + c, run, copies[c + run]))
      run++;
    if (run > 1) {
      lower_run(&L, copies + c, run);
      c += run - 1;
      continue;
    }
    copy_plan p = {0};
    if (inst->opcode == SpvOpGroupAsyncCopy) {
      if (!lower_core_copy_as_2d(&L, inst, &p.k, diag)) {
        ok = false;
        continue;
      }
    } else if (!gac_async_copy_decode(m, inst, &p.k) || !gac_inst_block(inst)) {
      gac_diag_add(diag, GAC_ERROR, inst->offset, inst->result_id, "lower.invalid",
                   "cannot lower a copy that breaks the set's rules (run --validate)");
      ok = false;
      continue;
    }
    if (helpers && copy_helpers_call(helpers, inst, &p.k))
      continue;
    gac_block *pre = gac_inst_block(inst);
    gac_block *exit = gac_block_split_after(m, inst);
    gac_builder b = gac_builder_before(m, inst);
    plan_copy(&L, &b, &p);
    if (strat == STRATEGY_PTX && sm90)
      p.ws_mbar = lower_ptx_ws_full_slot(&L, &b, inst);
    uint32_t result = inst->result_id;
    gac_inst_remove(m, inst);
    uint32_t event = lower_opencl(&L, &p, pre, exit, opencl);
    gac_replace_all_uses(m, result, event);
  }
  free(copies);
  copy_helpers_destroy(helpers);
  if (ok && (strat == STRATEGY_COOPERATIVE || strat == STRATEGY_SERIAL || strat == STRATEGY_LEADER ||
             strat == STRATEGY_AUTO))
    barrier_after_waits(&L);
  if (gpu) {
    if (sm90)
      lower_ptx_fences(&L);
    ok = lower_ptx_ws_finish(&L, diag) && ok;
    lower_ptx_rings_free(&L);
  }
  const gac_pass_info *cleanup = gac_pass_find("remove-unused-imports");
  cleanup->run(m, NULL, diag);
  return ok;
}

bool gac_lower_async_copies(gac_module *m, const char *arg, gac_diag *diag) {
  bool ok = lower_async_copies(m, arg, diag);
  /* What the lowering deleted (commits, waits, copies, markers) may have had
   * a name, or other non-semantic instructions that use it. */
  gac_remove_dangling_non_semantic(m);
  gac_remove_dangling_names(m);
  return ok;
}
