/* The copies of the PTX target (docs/PTX.md): cooperative, but global ->
 * local units of 16, 8 or 4 bytes are cp.async calls (the waits:
 * lower_ptx_waits.c); on sm_90 lines long enough are bulk copies that
 * complete on the mbarrier of their group (lower_ptx_ring.c), and copies
 * issued together take their units in one block. */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/ptx.h"
#include "ptx_lowering.h"

bool lower_ptx_move_unit(gac_lowering *L, gac_builder *b, const lower_copy_plan *p, unsigned width, uint32_t dst,
                         uint32_t src) {
  uint32_t sc_src = gac_def(L->m, p->src_ptr_type)->words[2], sc_dst = gac_def(L->m, p->dst_ptr_type)->words[2];
  if (width < 4 || sc_src != SpvStorageClassCrossWorkgroup || sc_dst != SpvStorageClassWorkgroup)
    return false;
  char name[32];
  snprintf(name, sizeof name, GAC_PTX_CP_ASYNC_PREFIX "%u", width);
  if (width == 16 && ptx_state(L)->cp_async_l1)
    snprintf(name, sizeof name, "%s", GAC_PTX_CP_ASYNC_16_L1);
  uint32_t types[2] = {gac_type_pointer(L->m, SpvStorageClassWorkgroup, L->uchar_type),
                       gac_type_pointer(L->m, SpvStorageClassCrossWorkgroup, L->uchar_type)};
  uint32_t args[2] = {dst, src};
  lower_call(L, b, name, 2, types, args);
  return true;
}

uint32_t lower_ptx_opaque(gac_lowering *L, gac_builder *b, uint32_t x) {
  uint32_t f = gac_require_import_function(L->m, GAC_PTX_OPAQUE, L->size_type, &L->size_type, 1);
  return gac_build_ops(b, SpvOpFunctionCall, L->size_type, GAC_NEW_ID, GAC_ID(f), GAC_ID(x))->result_id;
}

/* sm_90: the shortest line a bulk copy moves. Bulk copies are issued per
 * line; lines of 128 bytes (a 32-float SGEMM tile) ran at 0.54x of the
 * same kernel with cp.async on an H100, lines of 256 bytes at parity there
 * but at 0.75x of cudaMemcpy on an H200 (cp.async: 0.966x), and the 512-byte
 * lines of sgemm_fast's B tile at 0.73x of its cp.async build on the H200
 * (bench/cuda; docs/PTX.md, the H200 figures in
 * docs/results/VENDOR.md#experiments). Bulk copies have won on no shape
 * measured: shorter lines than this take cp.async units, and a function
 * with no copy that may be bulk gets no mbarrier ring. */
enum { BULK_MIN_LINE = 1024 };
/* The same holds for a warp-specialised loop's producer warp: with its
 * 128-byte lines as bulk copies (the threshold lowered, as an experiment)
 * bench/cuda's warp-specialised SGEMM ran at 0.76x its cp.async producer. */

/* Whether type t is or holds an event (through pointers, arrays, structs). */
static bool holds_event(const gac_module *m, const gac_inst *t, unsigned depth) {
  if (!t || depth > 8)
    return false;
  switch (t->opcode) {
  case SpvOpTypeEvent:
    return true;
  case SpvOpTypePointer:
    return holds_event(m, gac_def(m, gac_operand_word(t, 2)), depth + 1);
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray:
    return holds_event(m, gac_def(m, gac_operand_word(t, 1)), depth + 1);
  case SpvOpTypeStruct:
    for (unsigned k = 1; k < t->num_operands; k++)
      if (holds_event(m, gac_def(m, gac_operand_word(t, k)), depth + 1))
        return true;
    return false;
  default:
    return false;
  }
}

/* Whether no other function may wait on an event of f: no call in f takes
 * an event or a pointer that may reach one (an event array), and f returns
 * none. A global -> local bulk copy completes on its function's mbarrier
 * ring, which only that function's waits wait on; cp.async groups are the
 * work-item's own, which a wait in any function completes. So a copy
 * whose event may be waited on elsewhere (returned by a helper, or passed
 * to a helper that waits) takes cp.async units (random case 2411267/16167:
 * a helper's bulk copy that its caller's wait never waited for). */
static bool events_stay_in(const gac_module *m, const gac_function *f) {
  gac_foreach_block(b, f) {
    gac_foreach_inst(i, &b->insts) {
      if (i->opcode == SpvOpReturnValue && holds_event(m, gac_value_type(m, gac_operand_word(i, 0)), 0))
        return false;
      if (i->opcode == SpvOpFunctionCall)
        for (unsigned k = 3; k < i->num_operands; k++)
          if (holds_event(m, gac_value_type(m, gac_operand_word(i, k)), 0))
            return false;
    }
  }
  return true;
}

/* Whether copy i (a GroupAsyncCopy2D2D/3D3D or core OpGroupAsyncCopy) may
 * become bulk copies on sm_90: its lines are known to be long enough, or
 * their length is known only at run time (then it is checked there), and
 * if it loads local memory, only its own function waits for it
 * (events_stay_in; bulk stores complete on the work-item's own bulk
 * groups, which every wait completes: lower_ptx_waits.c). */
bool lower_ptx_may_bulk(const gac_lowering *L, const gac_inst *i) {
  gac_async_copy k;
  uint64_t n, size, stride;
  const gac_block *block = gac_inst_block(i);
  if (block && !events_stay_in(L->m, block->function) && lower_copy_loads_local(L->m, i))
    return false;
  if (gac_async_copy_decode(L->m, i, &k))
    return !gac_constant_value(L->m, k.num_elements_per_line, &n) ||
           !gac_constant_value(L->m, k.num_bytes_per_element, &size) || n * size >= BULK_MIN_LINE;
  if (i->opcode != SpvOpGroupAsyncCopy)
    return false;
  /* (Execution, Destination, Source, NumElements, Stride, Event): one line
   * when the stride is a constant 1, else lines of one element. */
  if (!gac_constant_value(L->m, gac_operand_word(i, 6), &stride) || stride != 1)
    return false;
  const gac_inst *type = gac_value_type(L->m, gac_operand_word(i, 3));
  size = 0;
  if (type && type->opcode == SpvOpTypePointer)
    gac_type_size(L->m, type->words[3], GAC_SIZE_ELEMENT, &size);
  return !gac_constant_value(L->m, gac_operand_word(i, 5), &n) || n * size >= BULK_MIN_LINE;
}

/* sm_90: when `any` (everything a unit must divide) is a multiple of 16,
 * the work-items move the copy line by line with bulk copies: a
 * global -> local copy completes on the mbarrier of the group being formed
 * (lower_ptx_ring.c), and is at most 1 MiB - 1 (an mbarrier's transaction
 * count); a local -> global copy is a bulk store, after a proxy fence (kept
 * only where needed: lower_ptx_fence.c) and a barrier, since other
 * work-items wrote the source. `test` gets the branch; returns the block
 * where the other ways of copying are tried. */
gac_block *lower_ptx_bulk_copy(gac_lowering *L, lower_copy_plan *p, gac_block *test, gac_block *join, uint32_t any,
                               uint32_t id, uint32_t size) {
  if (!ptx_state(L)->sm90)
    return test;
  gac_module *m = L->m;
  gac_function *f = test->function;
  uint32_t sc_src = gac_def(m, p->src_ptr_type)->words[2], sc_dst = gac_def(m, p->dst_ptr_type)->words[2];
  gac_ptx_ring *ring = lower_ptx_ring_of(L, f);
  bool load = sc_src == SpvStorageClassCrossWorkgroup && sc_dst == SpvStorageClassWorkgroup && (ring || p->completes_on);
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
    lower_call(L, &t, GAC_PTX_FENCE_PROXY_ASYNC, 0, NULL, NULL);
  /* A bulk load writes local memory through the async proxy: where the
   * work-items wrote it (a tile cleared, say), their writes are ordered
   * before the load's only by a proxy fence of theirs and a barrier
   * (lower_ptx_fence.c removes both where no such write reaches). Not in
   * a producer warp: its slot is freed by the consumers' release. */
  if (load && !p->completes_on) {
    lower_call(L, &t, GAC_PTX_FENCE_PROXY_ASYNC_LOAD, 0, NULL, NULL);
    lower_workgroup_barrier(L, &t);
  }
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
  } else if (!p->completes_on) { /* (a producer warp's slot: its PipeProducerAcquire freed it) */
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
    mbar = p->completes_on ? p->completes_on : lower_ptx_ring_slot(L, ring, &b);
    uint32_t elected = lower_op2(&b, SpvOpIEqual, L->bool_type, id, L->zero);
    gac_block *issue = gac_block_create(m, f, bulk);
    gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(elected), GAC_ID(gac_block_label(issue)),
                  GAC_ID(gac_block_label(after)));
    gac_builder i = gac_builder_at_end(m, &issue->insts);
    uint32_t types[2] = {gac_def(m, mbar)->type_id, uint}, args[2] = {mbar, lower_to_u32(L, &i, total)};
    lower_call(L, &i, GAC_PTX_MBAR_EXPECT_TX, 2, types, args);
    gac_build_ops(&i, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(after)));
  } else {
    gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(after)));
  }
  gac_block *done = gac_block_create(m, f, after);
  uint32_t line;
  gac_loop lp = lower_shared_loop(L, after, done, id, size, p->total_lines, true, &line);
  gac_builder body = gac_builder_at_end(m, &lp.body->insts);
  uint32_t so, dof;
  lower_line_offsets(L, &body, p, line, 0, &so, &dof);
  uint32_t src = lower_byte_address(&body, p->src, p->src_ptr_type, so);
  uint32_t dst = lower_byte_address(&body, p->dst, p->dst_ptr_type, dof);
  uint32_t bytes = lower_to_u32(L, &body, p->line_bytes);
  if (load) {
    uint32_t types[4] = {p->dst_ptr_type, p->src_ptr_type, uint, gac_def(m, mbar)->type_id};
    lower_call(L, &body, GAC_PTX_BULK_LOAD, 4, types, (uint32_t[]){dst, src, bytes, mbar});
  } else {
    uint32_t types[3] = {p->dst_ptr_type, p->src_ptr_type, uint};
    lower_call(L, &body, GAC_PTX_BULK_STORE, 3, types, (uint32_t[]){dst, src, bytes});
  }
  lower_loop_close(L, &lp, lp.body, L->one);
  gac_builder a = gac_builder_at_end(m, &done->insts);
  if (store)
    lower_call(L, &a, GAC_PTX_BULK_COMMIT, 0, NULL, NULL); /* each work-item's own bulk group */
  gac_build_ops(&a, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  return next_test;
}

/* A run of global -> local copies issued together (the tiles of A
 * and B of a matrix product, say) take their 16-byte units in one block
 * when all are aligned for them, behind one test; else each goes its own
 * way as alone. Apart, each copy had its own test and branch, and ptxas
 * pads each block of cp.async (LDGSTS) with three idle loads: a pipelined
 * SGEMM step issued 6 of them where the hand-written kernel issues 3. */
enum { MAX_RUN = 8 };

static void copy_run(gac_lowering *L, lower_copy_plan *plans, unsigned num, gac_block *pre, gac_block *exit) {
  gac_module *m = L->m;
  gac_function *f = pre->function;
  gac_builder b = gac_builder_at_end(m, &pre->insts);
  uint32_t id, size;
  lower_linear_local_id(L, &b, f, &id, &size);
  /* Copies of 16-byte elements (--pipeline-loops=wide-copies) are aligned
   * for 16-byte units by definition: no test, and no way apart. */
  bool all_wide = true;
  for (unsigned c = 0; c < num && all_wide; c++) {
    uint64_t bpe;
    all_wide = gac_constant_value(m, plans[c].k.num_bytes_per_element, &bpe) && bpe == 16;
  }
  /* together: one loop after the other; apart: one whole copy after the other. */
  gac_block *together[MAX_RUN + 1], *apart[MAX_RUN + 1];
  together[0] = gac_block_create(m, f, pre);
  for (unsigned c = 1; c < num; c++)
    together[c] = gac_block_create(m, f, together[c - 1]);
  together[num] = apart[num] = exit;
  if (all_wide) {
    gac_build_ops(&b, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(together[0])));
  } else {
    uint32_t any = lower_unit_alignment(L, &b, &plans[0]);
    for (unsigned c = 1; c < num; c++)
      any = lower_op2(&b, SpvOpBitwiseOr, L->size_type, any, lower_unit_alignment(L, &b, &plans[c]));
    uint32_t low = lower_op2(&b, SpvOpBitwiseAnd, L->size_type, any, gac_constant_int(m, L->size_type, 15));
    uint32_t aligned = lower_op2(&b, SpvOpIEqual, L->bool_type, low, L->zero);
    apart[0] = gac_block_create(m, f, together[num - 1]);
    for (unsigned c = 1; c < num; c++)
      apart[c] = gac_block_create(m, f, apart[c - 1]);
    gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(aligned), GAC_ID(gac_block_label(together[0])),
                  GAC_ID(gac_block_label(apart[0])));
  }
  for (unsigned c = 0; c < num; c++)
    lower_cooperative_loop(L, &plans[c], together[c], together[c + 1], 16, id, size, LOWER_COOPERATIVE, false,
                           all_wide);
  for (unsigned c = 0; c < num && !all_wide; c++)
    lower_cooperative(L, &plans[c], apart[c], apart[c + 1], LOWER_COOPERATIVE);
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
 * copies: all 2D/3D global -> local copies of one block that cannot
 * be bulk copies and whose lines allow 16-byte units, with only values
 * between them; b may use the last one's result as its Event only. */
static bool joins_run(gac_lowering *L, gac_inst *const *run, unsigned num, const gac_inst *b) {
  const gac_inst *a = run[num - 1];
  gac_async_copy k;
  uint64_t per, bpe;
  const gac_inst *both[2] = {a, b};
  for (unsigned c = 0; c < 2; c++) {
    if (!gac_async_copy_decode(L->m, both[c], &k) || !lower_global_to_local(L->m, k.destination, k.source) ||
        (ptx_state(L)->sm90 && lower_ptx_may_bulk(L, both[c])))
      return false;
    if (gac_constant_value(L->m, k.num_elements_per_line, &per) &&
        gac_constant_value(L->m, k.num_bytes_per_element, &bpe) && per * bpe % 16 != 0)
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
  lower_copy_plan plans[MAX_RUN];
  memset(plans, 0, sizeof plans);
  for (unsigned c = 0; c < num; c++) {
    gac_async_copy_decode(m, run[c], &plans[c].k);
    gac_replace_all_uses(m, run[c]->result_id, plans[c].k.event);
  }
  gac_block *pre = gac_inst_block(first), *exit = gac_block_split_after(m, run[num - 1]);
  for (unsigned c = 0; c < num; c++) {
    gac_builder b = gac_builder_before(m, first);
    lower_plan_copy(L, &b, &plans[c]);
  }
  for (unsigned c = 0; c < num; c++)
    gac_inst_remove(m, run[c]);
  copy_run(L, plans, num, pre, exit);
}

unsigned lower_ptx_copy_run(gac_lowering *L, gac_inst **copies, size_t left) {
  unsigned run = 1;
  while (run < MAX_RUN && run < left && joins_run(L, copies, run, copies[run]))
    run++;
  if (run > 1)
    lower_run(L, copies, run);
  return run;
}

