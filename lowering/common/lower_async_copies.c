/* --lower-async-copies: every GroupAsyncCopy2D2D/3D3D becomes core SPIR-V,
 * in one of the ways a target chooses (lower_target.h; the OpenCL target
 * picks by its strategy=, the GPU targets move their copies cooperatively
 * with units of their own):
 *
 * lines        one core OpGroupAsyncCopy per line (planes x lines of them, in
 *              a loop), chained on the copy's Event operand, so the result is
 *              a real event and OpGroupWaitEvents keeps its meaning; or (a
 *              target's LOWER_LINES_SHARED_EVENT) the first line's copy before
 *              the loop and its event handed to the others, none carried.
 * cooperative  the work-items of the group share the copy: the planes x lines
 *              x line bytes are cut into units of 16, 8, 4 or 1 bytes (the
 *              widest that the addresses, strides and line size allow, chosen
 *              at run time) and distributed over the local size. Where the
 *              target's events are dead (every target but OpenCL's `lines`,
 *              whose fenced copies go this way) the result is the Event
 *              operand and the waits count without it; else a zero-length
 *              OpGroupAsyncCopy chained on the Event operand (a real event,
 *              equal to Event when that is not null). Every wait is followed
 *              by a work-group barrier, which is what makes the other
 *              work-items' stores visible. A target
 *              may move units its own way (hardware copies: cp.async,
 *              LDS-direct loads), try a way of its own first (bulk copies),
 *              or lower several copies together; where its events are dead
 *              a copy's result is its Event operand, and its waits count.
 * leader       work-item 0 copies line after line, each line a loop of units
 *              of 16, 8, 4 or 1 bytes (chosen as for cooperative), with no
 *              division per unit; events and waits as for cooperative. On
 *              PoCL's CPU device, whose work-items run one after another,
 *              that is the least work per byte (docs/LOWERING.md).
 * serial       a baseline for benchmarks, not for use: work-item 0 copies
 *              byte by byte, as Codeplay's kit lowers these builtins; events
 *              and waits as for cooperative.
 *
 * All keep the spec's semantics: the whole work-group performs the copy,
 * operands may be runtime values, a copy may sit in any block, and copies may
 * share one event. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/builder.h"
#include "gac/async_pipeline.h"
#include "gac/passes.h"
#include "gac/validate.h"
#include "copy_fences.h"
#include "lower_target.h"
#include "lowering.h"

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

void lower_line_offsets(gac_lowering *L, gac_builder *b, const lower_copy_plan *p, uint32_t line_index,
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

uint32_t lower_byte_address(gac_builder *b, uint32_t base, uint32_t ptr_type, uint32_t offset) {
  return gac_build_ops(b, SpvOpPtrAccessChain, ptr_type, GAC_NEW_ID, GAC_ID(base), GAC_ID(offset))->result_id;
}

/* One OpGroupAsyncCopy of line `line` at b, on `event`; its result id is
 * `result` (GAC_NEW_ID: a new one), which it returns. */
static uint32_t copy_line(gac_lowering *L, gac_builder *b, const lower_copy_plan *p, uint32_t line, uint32_t event,
                          uint32_t result) {
  uint32_t so, dof;
  lower_line_offsets(L, b, p, line, 0, &so, &dof);
  uint32_t s = lower_byte_address(b, p->src, p->src_ptr_type, so);
  uint32_t d = lower_byte_address(b, p->dst, p->dst_ptr_type, dof);
  return gac_build_ops(b, SpvOpGroupAsyncCopy, L->event_type, result, GAC_ID(L->scope_workgroup), GAC_ID(d),
                       GAC_ID(s), GAC_ID(p->line_bytes), GAC_ID(L->one), GAC_ID(event))
      ->result_id;
}

/* lines: one OpGroupAsyncCopy per line, chained on one event: carried
 * round the loop of lines, or (shared_event) the first line's copy issued
 * before the loop and its event handed to every other line's, which
 * returns that same event (a non-null Event operand is what a copy
 * returns), so the result is the same and no event is carried. */
static uint32_t lower_lines(gac_lowering *L, lower_copy_plan *p, gac_block *pre, gac_block *exit, bool shared_event) {
  if (p->empty) {
    gac_builder b = gac_builder_at_end(L->m, &pre->insts);
    gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(exit)));
    return p->k.event;
  }
  if (!shared_event) {
    gac_loop lp = lower_loop_open(L, pre, exit, L->zero, p->total_lines, L->event_type, p->k.event);
    gac_builder b = gac_builder_at_end(L->m, &lp.body->insts);
    copy_line(L, &b, p, lp.counter, lp.carried, lp.next_carried);
    lower_loop_close(L, &lp, lp.body, L->one);
    /* The loop's exit sees the header's event: the input one if no line was copied. */
    return lp.carried;
  }
  /* A line count known only at run time may be 0: then no copy, and the
   * input event, joined after the lines. */
  uint64_t lines;
  bool some = gac_constant_value(L->m, p->total_lines, &lines) && lines > 0;
  gac_block *first = pre, *join = exit;
  if (!some) {
    first = gac_block_create(L->m, pre->function, pre);
    join = gac_block_create(L->m, pre->function, first);
    gac_builder b = gac_builder_at_end(L->m, &pre->insts);
    uint32_t any = lower_op2(&b, SpvOpINotEqual, L->bool_type, p->total_lines, L->zero);
    gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(any), GAC_ID(gac_block_label(first)),
                  GAC_ID(gac_block_label(join)));
  }
  gac_builder fb = gac_builder_at_end(L->m, &first->insts);
  uint32_t event = copy_line(L, &fb, p, L->zero, p->k.event, GAC_NEW_ID);
  gac_loop lp = lower_loop_open(L, first, join, L->one, p->total_lines, 0, 0);
  gac_builder b = gac_builder_at_end(L->m, &lp.body->insts);
  copy_line(L, &b, p, lp.counter, event, GAC_NEW_ID);
  lower_loop_close(L, &lp, lp.body, L->one);
  if (some)
    return event;
  gac_builder jb = gac_builder_at_end(L->m, &join->insts);
  uint32_t joined = gac_build_ops(&jb, SpvOpPhi, L->event_type, GAC_NEW_ID, GAC_ID(event),
                                  GAC_ID(gac_block_label(lp.header)), GAC_ID(p->k.event),
                                  GAC_ID(gac_block_label(pre)))
                        ->result_id;
  gac_build_ops(&jb, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(exit)));
  return joined;
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
static void move_unit(gac_lowering *L, gac_builder *b, const lower_copy_plan *p, uint32_t t, unsigned width,
                      uint32_t src, uint32_t dst) {
  gac_module *m = L->m;
  uint32_t sc_src = gac_def(m, p->src_ptr_type)->words[2], sc_dst = gac_def(m, p->dst_ptr_type)->words[2];
  uint32_t sp = gac_build_ops(b, SpvOpBitcast, gac_type_pointer(m, sc_src, t), GAC_NEW_ID, GAC_ID(src))->result_id;
  uint32_t dp = gac_build_ops(b, SpvOpBitcast, gac_type_pointer(m, sc_dst, t), GAC_NEW_ID, GAC_ID(dst))->result_id;
  uint32_t v = gac_build_ops(b, SpvOpLoad, t, GAC_NEW_ID, GAC_ID(sp), GAC_LIT(SpvMemoryAccessAlignedMask),
                             GAC_LIT(width))->result_id;
  gac_build_ops(b, SpvOpStore, 0, 0, GAC_ID(dp), GAC_ID(v), GAC_LIT(SpvMemoryAccessAlignedMask), GAC_LIT(width));
}

/* Marks the loop lp (exit `done`, back edge from `latch`) not to be
 * unrolled: an OpLoopMerge with DontUnroll, which llvm-spirv-15 passes on to
 * LLVM as llvm.loop.unroll.disable. */
static void dont_unroll(gac_lowering *L, const gac_loop *lp, gac_block *done, gac_block *latch) {
  gac_builder h = gac_builder_before(L->m, lp->header->insts.last);
  gac_build_ops(&h, SpvOpLoopMerge, 0, 0, GAC_ID(gac_block_label(done)), GAC_ID(gac_block_label(latch)),
                GAC_LIT(SpvLoopControlDontUnrollMask));
}

/* Moves unit `index` (of `divisor` a line) of p's copy, at the end of b. */
static void emit_unit(gac_lowering *L, gac_builder *b, lower_copy_plan *p, unsigned width, uint32_t index,
                      uint32_t divisor) {
  const lower_target *T = L->target;
  uint32_t w = gac_constant_int(L->m, L->size_type, width);
  uint32_t line = L->zero, unit = index;
  uint64_t lines, planes;
  if (!gac_constant_value(L->m, p->k.num_lines, &lines) || lines != 1 || /* one line: no division */
      !gac_constant_value(L->m, p->k.num_planes, &planes) || planes != 1) {
    line = lower_op2(b, SpvOpUDiv, L->size_type, index, divisor);
    unit = lower_op2(b, SpvOpUMod, L->size_type, index, divisor);
  }
  uint32_t so, dof;
  lower_line_offsets(L, b, p, line, lower_mul(L, b, unit, w), &so, &dof);
  uint32_t src = lower_byte_address(b, p->src, p->src_ptr_type, so);
  uint32_t dst = lower_byte_address(b, p->dst, p->dst_ptr_type, dof);
  if (!T->move_unit || !T->move_unit(L, b, p, width, dst, src))
    move_unit(L, b, p, unit_type(L, width), width, src, dst);
}

/* The loop moving `width`-byte units, from `from` to `join`: work-item `id`
 * of `size` takes units id, id + size, ... When serial, work-item 0 takes
 * them all and the others none. `rolled`: the loop stays a loop, and its
 * addresses are computed from the id as the code generator cannot see it
 * (the target's opaque). A target with opaque gives that to the narrower
 * units, a path taken only for misaligned copies: else their unit
 * addresses are loop invariants that LLVM hoists out of the loops around
 * the copy, each holding registers for the whole kernel (the SGEMM of
 * bench/cuda on the PTX path: 50 registers with the 8- and 4-byte paths,
 * 40 without).
 * A size known only at run time (a kernel that fixes no work-group size,
 * on a target that steps units) is tested first when the loop is the
 * copy's only path (`alone`): where the group has at least as many
 * work-items as the copy has units, work-item id moves unit id or none, out
 * of any loop, so that LLVM hoists its address arithmetic out of the loops
 * around the copy as it does where the size is fixed. Measured on the H200
 * (docs/results/VENDOR.md#experiments, "Kernels without
 * reqd_work_group_size"): the pipelined sgemm_noreqd (16-byte elements, one
 * path) from 19.56 to 19.83 TFLOP/s; the unpipelined one, whose copies keep a
 * path per unit width, went from 34 to 42 registers and lost a block per
 * multiprocessor (19.10 to 18.72), hence `alone`. */
void lower_cooperative_loop(gac_lowering *L, lower_copy_plan *p, gac_block *from, gac_block *join, unsigned width,
                            uint32_t id, uint32_t size, lower_copy_way way, bool rolled, bool alone) {
  const lower_target *T = L->target;
  bool serial = way == LOWER_SERIAL;
  gac_module *m = L->m;
  if (T->unit_loop && T->unit_loop(L, p, from, join, width, id, size))
    return;
  if (T->unit_loop_end)
    join = T->unit_loop_end(L, p, width, join);
  /* serial stays a loop too: its one work-item's constant count made PoCL
   * unroll it byte by byte, as leader's (leader_loop). */
  bool dont_unroll_it = rolled || serial;
  gac_block *exit = join;
  if (dont_unroll_it) /* a loop's merge block is its own */
    exit = gac_block_create(m, from->function, join->prev);
  gac_builder f = gac_builder_at_end(m, &from->insts);
  if (rolled)
    id = T->opaque(L, &f, id);
  uint32_t w = gac_constant_int(m, L->size_type, width);
  uint32_t units_per_line = lower_op2(&f, SpvOpUDiv, L->size_type, p->line_bytes, w);
  uint32_t total = lower_mul(L, &f, p->total_lines, units_per_line);
  uint32_t divisor = lower_nonzero(L, &f, units_per_line);
  uint64_t constant;
  if (alone && !serial && !rolled && T->step_units && !gac_constant_value(m, size, &constant)) {
    gac_block *one = gac_block_create(m, from->function, from);
    gac_block *mine = gac_block_create(m, from->function, one);
    gac_block *many = gac_block_create(m, from->function, mine);
    uint32_t enough = lower_op2(&f, SpvOpULessThanEqual, L->bool_type, total, size);
    gac_build_ops(&f, SpvOpBranchConditional, 0, 0, GAC_ID(enough), GAC_ID(gac_block_label(one)),
                  GAC_ID(gac_block_label(many)));
    gac_builder o = gac_builder_at_end(m, &one->insts);
    uint32_t has = lower_op2(&o, SpvOpULessThan, L->bool_type, id, total);
    gac_build_ops(&o, SpvOpBranchConditional, 0, 0, GAC_ID(has), GAC_ID(gac_block_label(mine)),
                  GAC_ID(gac_block_label(exit)));
    gac_builder u = gac_builder_at_end(m, &mine->insts);
    emit_unit(L, &u, p, width, id, divisor);
    gac_build_ops(&u, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(exit)));
    from = many;
    f = gac_builder_at_end(m, &from->insts);
  }
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
  if (dont_unroll_it) {
    dont_unroll(L, &lp, exit, lp.body);
    gac_builder e = gac_builder_at_end(m, &exit->insts);
    gac_build_ops(&e, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  }
  gac_builder b = gac_builder_at_end(m, &lp.body->insts);
  emit_unit(L, &b, p, width, index, divisor);
  lower_loop_close(L, &lp, lp.body, L->one);
}

/* leader: work-item 0 copies line after line, each line a loop of
 * `width`-byte units from `from` to `join`; the others' line count is 0
 * (a select, not a branch on the local id). No division per unit, as in a
 * memcpy: PoCL runs a group's work-items one after another anyway. Both
 * loops are marked DontUnroll: where the shape is constant, PoCL's -O3
 * peeled work-item 0 and unrolled every copy of a pipelined kernel in full,
 * once per unit width (3,840 16-byte and 7,680 8-byte loads in the 4-stage
 * matmul), which made its compile 2.5 times as long and its code twice the
 * size; rolled, the tile sweep's constant-shape copies run at 0.93x and
 * its runtime-shape ones at 1.11x (docs/results/POCL.md). */
static void leader_loop(gac_lowering *L, lower_copy_plan *p, gac_block *from, gac_block *join, unsigned width,
                        uint32_t id) {
  gac_module *m = L->m;
  gac_builder f = gac_builder_at_end(m, &from->insts);
  uint32_t w = gac_constant_int(m, L->size_type, width);
  uint32_t units = lower_op2(&f, SpvOpUDiv, L->size_type, p->line_bytes, w);
  uint32_t leads = lower_op2(&f, SpvOpIEqual, L->bool_type, id, L->zero);
  uint32_t lines = gac_build_ops(&f, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(leads), GAC_ID(p->total_lines),
                                 GAC_ID(L->zero))->result_id;
  gac_block *exit = gac_block_create(m, from->function, join->prev);
  gac_loop outer = lower_loop_open(L, from, exit, L->zero, lines, 0, 0);
  gac_builder o = gac_builder_at_end(m, &outer.body->insts);
  uint32_t so, dof;
  lower_line_offsets(L, &o, p, outer.counter, 0, &so, &dof);
  uint32_t src_line = lower_byte_address(&o, p->src, p->src_ptr_type, so);
  uint32_t dst_line = lower_byte_address(&o, p->dst, p->dst_ptr_type, dof);
  gac_block *line_done = gac_block_create(m, from->function, outer.body);
  gac_loop inner = lower_loop_open(L, outer.body, line_done, L->zero, units, 0, 0);
  gac_builder b = gac_builder_at_end(m, &inner.body->insts);
  uint32_t t = unit_type(L, width), offset = lower_mul(L, &b, inner.counter, w);
  move_unit(L, &b, p, t, width, lower_byte_address(&b, src_line, p->src_ptr_type, offset),
            lower_byte_address(&b, dst_line, p->dst_ptr_type, offset));
  lower_loop_close(L, &inner, inner.body, L->one);
  lower_loop_close(L, &outer, line_done, L->one);
  dont_unroll(L, &inner, line_done, inner.body);
  dont_unroll(L, &outer, exit, line_done);
  gac_builder e = gac_builder_at_end(m, &exit->insts);
  gac_build_ops(&e, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
}

uint32_t lower_unit_alignment(gac_lowering *L, gac_builder *b, const lower_copy_plan *p) {
  const gac_async_copy *k = &p->k;
  uint32_t so, dof;
  lower_line_offsets(L, b, p, L->zero, 0, &so, &dof);
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

uint32_t lower_cooperative(gac_lowering *L, lower_copy_plan *p, gac_block *pre, gac_block *exit, lower_copy_way way) {
  const lower_target *T = L->target;
  bool serial = way == LOWER_SERIAL;
  gac_module *m = L->m;
  gac_builder b = gac_builder_at_end(m, &pre->insts);
  const gac_async_copy *k = &p->k;
  uint32_t id, size;
  lower_linear_local_id(L, &b, p->in_helper ? NULL : pre->function, &id, &size);

  uint32_t any = lower_unit_alignment(L, &b, p);

  /* pre -> (16?) loop16 : (8?) loop8 : (4?) loop4 : loop1, all to join, with
   * only the widths that can apply (a constant line size rules some out). New
   * blocks go just before join, so each comes after the blocks dominating it. */
  gac_block *join = gac_block_create(m, pre->function, pre);
  unsigned widths[4], num_widths = 0;
  static const unsigned all_widths[] = {16, 8, 4, 1};
  const unsigned *candidates = T->unit_widths ? T->unit_widths(L, p) : NULL;
  if (!candidates)
    candidates = all_widths;
  /* No unit narrower than an element of 4, 8 or 16 bytes, where the target
   * asks (OpenCL aligns every element to its size), so no byte path; its
   * widest unit still goes where elements are wider. */
  uint64_t bpe = 0;
  bool element_unit = T->whole_element_units && gac_constant_value(L->m, k->num_bytes_per_element, &bpe) &&
                      (bpe == 4 || bpe == 8 || bpe == 16);
  for (unsigned i = serial ? 3 : 0; i < 4 && candidates[i] && !p->empty; i++) {
    unsigned w = candidates[i];
    if (element_unit && w < bpe && w != candidates[0])
      continue;
    if (w == 1 || w == bpe || !p->line_bytes_known || p->line_bytes_known % w == 0)
      widths[num_widths++] = w;
  }
  gac_block *test = pre;
  if (T->before_units && !p->empty)
    test = T->before_units(L, p, test, join, any, id, size);
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
    if (way == LOWER_LEADER)
      leader_loop(L, p, loop_from, join, widths[i], id);
    else
      lower_cooperative_loop(L, p, loop_from, join, widths[i], id, size, way, T->opaque && i > 0, false);
  }
  if (num_widths == 0) {
    gac_builder t = gac_builder_at_end(m, &pre->insts);
    gac_build_ops(&t, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  }
  /* join: a real event, chained on Event, then on to the rest of the block. */
  gac_builder j = gac_builder_at_end(m, &join->insts);
  if (T->events_dead) {
    gac_build_ops(&j, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(exit)));
    return k->event;
  }
  uint32_t event = gac_build_ops(&j, SpvOpGroupAsyncCopy, L->event_type, GAC_NEW_ID, GAC_ID(L->scope_workgroup),
                                 GAC_ID(p->dst), GAC_ID(p->src), GAC_ID(L->zero), GAC_ID(L->one),
                                 GAC_ID(k->event))->result_id;
  gac_build_ops(&j, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(exit)));
  return event;
}

/* The rest of p's plan (p->k decoded), its values built at b. */
void lower_plan_copy(gac_lowering *L, gac_builder *b, lower_copy_plan *p) {
  if (p->k.op == GAC_GROUP_ASYNC_COPY_2D2D)
    p->k.num_planes = L->one;
  p->src = as_bytes(L, b, p->k.source, &p->src_ptr_type);
  p->dst = as_bytes(L, b, p->k.destination, &p->dst_ptr_type);
  p->line_bytes = lower_mul(L, b, p->k.num_elements_per_line, p->k.num_bytes_per_element);
  p->total_lines = lower_mul(L, b, p->k.num_planes, p->k.num_lines);
  p->empty = lower_known_zero(L, p->k.num_elements_per_line) || lower_known_zero(L, p->k.num_bytes_per_element) ||
             lower_known_zero(L, p->k.num_lines) || lower_known_zero(L, p->k.num_planes);
  uint64_t per_line, bpe;
  if (gac_constant_value(L->m, p->k.num_elements_per_line, &per_line) &&
      gac_constant_value(L->m, p->k.num_bytes_per_element, &bpe))
    p->line_bytes_known = per_line * bpe;
}

/* After every OpGroupWaitEvents (or run of them): a barrier over both
 * memories, so that what other work-items copied is visible. */
void lower_barrier_after_waits(gac_lowering *L) {
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

/* The core OpGroupAsyncCopy instructions of m (in `out` if not NULL): for
 * a target after which nothing else would lower OpenCL's 1D
 * async_work_group_(strided_)copy. */
/* copies[*n] = i, growing copies (capacity *cap). */
static gac_inst **append_copy(gac_inst **copies, size_t *n, size_t *cap, gac_inst *i) {
  if (*n == *cap && !(copies = realloc(copies, (*cap = *cap ? 2 * *cap : 64) * sizeof *copies)))
    abort();
  copies[(*n)++] = i;
  return copies;
}

/* The copies to lower, in one walk of the module: the set's, then (with
 * `core`) every core OpGroupAsyncCopy; *n of them, malloc'd (NULL if
 * none). One walk rather than a count and a second walk: on a module of a
 * million instructions each walk costs as much as much of the lowering. */
static gac_inst **collect_copies(gac_module *m, bool core, size_t *n) {
  size_t cap = 0;
  gac_inst **copies = NULL;
  *n = 0;
  gac_foreach_async_copy(i, m) copies = append_copy(copies, n, &cap, i);
  if (!core)
    return copies;
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (i->opcode == SpvOpGroupAsyncCopy)
          copies = append_copy(copies, n, &cap, i);
      }
    }
  }
  return copies;
}

/* OpGroupAsyncCopy (Execution, Destination, Source, NumElements, Stride,
 * Event) as the 2D copy it is: NumElements lines of one element, the
 * stride on the global side (OpenCL's strided copies), or one line when
 * the stride is a constant 1. */
bool lower_core_copy_as_2d(gac_lowering *L, const gac_inst *i, gac_async_copy *k, gac_diag *diag) {
  gac_module *m = L->m;
  const gac_inst *type = gac_value_type(m, gac_operand_word(i, 3));
  uint64_t size = 0;
  if (type && type->opcode == SpvOpTypePointer)
    gac_type_size(m, type->words[3], GAC_SIZE_ELEMENT, &size);
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
  if (gac_constant_value(L->m, stride, &known) && known == 1) {
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

uint32_t lower_copy(gac_lowering *L, lower_copy_plan *p, gac_block *pre, gac_block *exit, lower_copy_way way) {
  if (way == LOWER_LINES || way == LOWER_LINES_SHARED_EVENT)
    return lower_lines(L, p, pre, exit, way == LOWER_LINES_SHARED_EVENT);
  return lower_cooperative(L, p, pre, exit, way);
}

/* L for m and target t, as far as its types and constants. */
static void init(gac_lowering *L, gac_module *m, const lower_target *t, void *state, gac_diag *diag) {
  gac_lowering_init(L, m);
  L->target = t;
  L->target_state = state;
  L->diag = diag;
}

bool lower_async_copies_for(gac_module *m, const lower_target *t, void *state, gac_diag *diag) {
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
  if (!t->warp_specialize) {
    gac_foreach_function(f, m) gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
      if (gac_async_pipeline_op_of(m, i) == GAC_WARP_SPECIALIZE) {
        gac_diag_add(diag, GAC_ERROR, i->offset, i->result_id, "lower.warp-specialize",
                     "WarpSpecialize: a warp-specialised loop runs only on the PTX path (--emit=ptx --sm=90); "
                     "pipeline without warp-specialize for this target");
        return false;
      }
    }
  }
  /* Fences that order nothing go (copy_fences.h); where some are left,
   * the target's own ways must own every copy a fence orders. */
  bool fences = lower_drop_idle_fences(m);
  lower_collapse_contiguous_copies(m);
  if (t->lower_module)
    return t->lower_module(m, state, diag);
  /* Queues first: where waits stay OpGroupWaitEvents, queues become rings
   * of events, which the cooperative way follows with barriers below;
   * where the target counts its waits, all waits become its own, before
   * the copies. */
  gac_lowering L = {.m = m, .target = t, .target_state = state, .diag = diag};
  bool queues;
  if (t->waits) {
    init(&L, m, t, state, diag);
    gac_require_capability(m, SpvCapabilityInt8); /* for the uchar type init made */
    /* A target's preparation first (warp-specialised functions: their
     * producer's copies arm the pipes' rings, not the function's). */
    if (t->prepare && !t->prepare(&L, diag))
      return false;
    queues = lower_counted_waits(&L, t->waits);
  } else {
    queues = gac_lower_async_queues(m, NULL, diag);
  }
  if (gac_diag_has_errors(diag))
    return false;
  /* Core copies left to the driver would be in flight past a fence's
   * barrier: with fences, the target lowers them too. */
  bool core = t->core_copies || fences;
  size_t n;
  gac_inst **copies = collect_copies(m, core, &n);
  if (n == 0) {
    if (t->finish && !t->finish(&L, LOWER_NO_COPIES, diag))
      return false;
    gac_remove_unused_imports(m, NULL, diag);
    return queues;
  }

  if (!t->waits)
    init(&L, m, t, state, diag);
  gac_require_capability(m, SpvCapabilityInt8);
  if (t->begin_copies)
    t->begin_copies(&L, copies, n);
  bool typed = true;
  for (size_t c = 0; c < n; c++)
    typed = operand_types_fit(&L, copies[c], diag) && typed;
  bool ok = typed;
  for (size_t c = 0; typed && c < n; c++) {
    gac_inst *inst = copies[c];
    unsigned run = t->copy_run ? t->copy_run(&L, copies + c, n - c) : 0;
    if (run > 1) {
      c += run - 1;
      continue;
    }
    lower_copy_plan p = {0};
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
    if (t->copy_elsewhere && t->copy_elsewhere(&L, inst, &p.k))
      continue;
    gac_block *pre = gac_inst_block(inst);
    gac_block *exit = gac_block_split_after(m, inst);
    gac_builder b = gac_builder_before(m, inst);
    lower_plan_copy(&L, &b, &p);
    if (t->plan)
      t->plan(&L, &b, inst, &p);
    uint32_t result = inst->result_id;
    gac_inst_remove(m, inst);
    uint32_t event = lower_copy(&L, &p, pre, exit, t->way ? t->way(&L, &p) : LOWER_COOPERATIVE);
    gac_replace_all_uses(m, result, event);
  }
  free(copies);
  /* Where the waits are not counted, every copy is done when the work-items
   * return from it: a fence is a barrier. */
  if (fences && !t->waits)
    lower_fences_as_barriers(&L);
  if (t->finish)
    ok = t->finish(&L, ok ? LOWER_COPIES_DONE : LOWER_COPIES_FAILED, diag) && ok;
  gac_remove_unused_imports(m, NULL, diag);
  return ok;
}

bool gac_lower_async_copies_with(gac_module *m, gac_copy_lowering lower, const void *options, gac_diag *diag) {
  bool ok = lower(m, options, diag);
  /* What the lowering deleted (commits, waits, copies, markers) may have had
   * a name, or other non-semantic instructions that use it. */
  gac_remove_dangling_non_semantic(m);
  gac_remove_dangling_names(m);
  return ok;
}
