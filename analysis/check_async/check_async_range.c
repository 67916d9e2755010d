/* Value ranges of --check-async: the unsigned values an integer may take
 * (constants, arithmetic, the local id under a fixed work-group size, loop
 * counters stepped by a constant, and what the point's branches say), and
 * the bytes a pointer moved by pointer arithmetic may be from the start of
 * one version of a multi-buffered array (docs/CHECK_ASYNC.md). */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check_async_internal.h"

/* Bounds on the work per question: input-controlled expressions stay cheap. */
enum { RANGE_DEPTH = 12, RANGE_STEPS = 256 };

static unsigned width_of(const gac_module *m, uint32_t id) {
  const gac_inst *t = gac_value_type(m, id);
  return t && t->opcode == SpvOpTypeInt ? t->words[2] : 0;
}

static uint64_t max_of(unsigned w) { return w >= 64 || !w ? UINT64_MAX : (UINT64_C(1) << w) - 1; }

static bool decorated(const gac_module *m, uint32_t id, uint32_t decoration, uint32_t value) {
  gac_foreach_inst(i, (gac_inst_list *)&m->sections[GAC_SECTION_ANNOTATION]) {
    if (i->opcode == SpvOpDecorate && i->num_words >= 4 && i->words[1] == id && i->words[2] == decoration &&
        i->words[3] == value)
      return true;
  }
  return false;
}

static ca_interval full(const gac_module *m, uint32_t id) { return (ca_interval){0, max_of(width_of(m, id))}; }

/* The largest x & mask for 0 <= x <= hi: keep hi's bits while the mask has
 * them; at the first bit of hi the mask lacks, x may clear it and take
 * every lower bit of the mask. */
static uint64_t max_and(uint64_t hi, uint64_t mask) {
  uint64_t r = 0;
  for (int b = 63; b >= 0; b--) {
    uint64_t bit = 1ull << b;
    if (!(hi & bit))
      continue;
    if (!(mask & bit))
      return r | (mask & (bit - 1));
    r |= bit;
  }
  return r;
}

static ca_interval meet(ca_interval a, ca_interval b) {
  return (ca_interval){a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
}

/* x = OpPhi(init from outside, x + step from a latch that branches back
 * while x < bound (or x + step < bound)): x stays below bound + step. */
static bool stepped_counter(ca_ranges *r, const gac_inst *phi, unsigned depth, ca_interval *out) {
  const gac_module *m = r->c->m;
  if (phi->num_words != 7)
    return false;
  for (unsigned in = 0; in < 2; in++) {
    uint32_t next = phi->words[3 + 2 * in], latch = phi->words[4 + 2 * in];
    uint32_t init = phi->words[3 + 2 * !in];
    const gac_inst *add = gac_def(m, next);
    uint64_t step, bound;
    if (!add || add->opcode != SpvOpIAdd || add->num_words != 5)
      continue;
    if (!((add->words[3] == phi->result_id && gac_constant_value(m, add->words[4], &step)) ||
          (add->words[4] == phi->result_id && gac_constant_value(m, add->words[3], &step))))
      continue;
    const gac_inst *lb = gac_def(m, latch);
    gac_block *blk = lb ? gac_inst_block(lb) : NULL;
    const gac_inst *t = blk ? gac_block_terminator(blk) : NULL;
    const gac_inst *cmp = t && t->opcode == SpvOpBranchConditional && t->num_words >= 4 ? gac_def(m, t->words[1]) : NULL;
    gac_block *header = gac_inst_block(phi);
    if (!cmp || cmp->opcode != SpvOpULessThan || cmp->num_words != 5 || !header ||
        t->words[2] != gac_block_label(header) || t->words[3] == t->words[2] ||
        !gac_constant_value(m, cmp->words[4], &bound) || bound == 0)
      continue;
    uint64_t top;
    if (cmp->words[3] == phi->result_id)
      top = bound - 1 + step; /* x < bound, then x + step */
    else if (cmp->words[3] == next)
      top = bound - 1;
    else
      continue;
    if (top < bound - 1 || top > max_of(width_of(m, phi->result_id)))
      continue; /* x + step may wrap */
    ca_interval i = ca_value_range_at(r, init, depth + 1);
    /* From a constant start, x takes start + k step only: `for (k4 = 0; k4
     * < 8; k4 += 4)` tops at 4, not 7 (sgemm_fast.cl's vector loads). */
    if (i.lo == i.hi && step > 0 && top >= i.lo)
      top = i.lo + (top - i.lo) / step * step;
    *out = (ca_interval){i.lo, i.hi > top ? i.hi : top};
    return true;
  }
  return false;
}

ca_interval ca_value_range_at(ca_ranges *r, uint32_t id, unsigned depth) {
  const gac_module *m = r->c->m;
  ca_interval all = full(m, id), v = all, k;
  uint64_t c;
  if (gac_constant_value(m, id, &c))
    return (ca_interval){c, c};
  if (r->known && r->known(r->user, id, &k))
    v = meet(v, k);
  uint64_t guard;
  if (depth == 0 && ca_guard_at_least(r->c, r->block, id, false, &guard))
    v = meet(v, (ca_interval){guard, all.hi});
  const gac_inst *d = gac_def(m, id);
  if (!d || depth > RANGE_DEPTH || v.lo > v.hi || ++r->steps > RANGE_STEPS)
    return v;
  unsigned w = width_of(m, id);
  ca_interval a = {0, 0}, b = {0, 0}, s = all;
  int local_id = 0, before = r->unbounded_local_id;
  bool two = d->num_words == 5 && d->opcode != SpvOpCompositeExtract;
  if (two) {
    a = ca_value_range_at(r, d->words[3], depth + 1);
    b = ca_value_range_at(r, d->words[4], depth + 1);
  }
  switch (d->opcode) {
  case SpvOpIAdd:
    if (two && a.hi <= all.hi - b.hi)
      s = (ca_interval){a.lo + b.lo, a.hi + b.hi};
    break;
  case SpvOpISub:
    if (two && a.lo >= b.hi)
      s = (ca_interval){a.lo - b.hi, a.hi - b.lo};
    break;
  case SpvOpIMul:
    if (two && (b.hi == 0 || a.hi <= all.hi / b.hi))
      s = (ca_interval){a.lo * b.lo, a.hi * b.hi};
    break;
  case SpvOpShiftLeftLogical:
    if (two && b.lo == b.hi && b.lo < 64 && a.hi <= all.hi >> b.lo)
      s = (ca_interval){a.lo << b.lo, a.hi << b.lo};
    break;
  case SpvOpShiftRightLogical:
    if (two && b.lo == b.hi && b.lo < 64)
      s = (ca_interval){a.lo >> b.lo, a.hi >> b.lo};
    break;
  case SpvOpUDiv:
    if (two && b.lo == b.hi && b.lo)
      s = (ca_interval){a.lo / b.lo, a.hi / b.lo};
    break;
  case SpvOpUMod:
    if (two && b.lo == b.hi && b.lo)
      s = a.hi < b.lo ? a : (ca_interval){0, b.lo - 1};
    break;
  case SpvOpBitwiseAnd:
    /* (i << 4) & ~63 with i < 8, as LLVM writes (i / 4) * 64: at most 64 */
    if (two)
      s = (ca_interval){0, b.lo == b.hi ? max_and(a.hi, b.lo) : a.lo == a.hi ? max_and(b.hi, a.lo)
                                                                            : a.hi < b.hi ? a.hi : b.hi};
    break;
  case SpvOpBitwiseOr: /* a | b <= a + b: LLVM writes row * 8 + col as an or where the bits are apart */
    if (two && a.hi <= all.hi - b.hi)
      s = (ca_interval){a.lo > b.lo ? a.lo : b.lo, a.hi + b.hi};
    break;
  case SpvOpUConvert: case SpvOpSConvert: {
    ca_interval x = ca_value_range_at(r, d->words[3], depth + 1);
    unsigned from = width_of(m, d->words[3]);
    /* a widening SConvert keeps values below the sign bit */
    if (x.hi <= all.hi && (d->opcode == SpvOpUConvert || (from && x.hi < (UINT64_C(1) << (from - 1)))))
      s = x;
    break;
  }
  case SpvOpSelect:
    if (d->num_words == 6) {
      a = ca_value_range_at(r, d->words[4], depth + 1);
      b = ca_value_range_at(r, d->words[5], depth + 1);
      s = (ca_interval){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
    }
    break;
  case SpvOpPhi: {
    /* constants from every side (a count merged from two branches), or a counter */
    ca_interval h = {UINT64_MAX, 0};
    bool constants = d->num_words >= 5;
    for (unsigned w3 = 3; constants && w3 + 1 < d->num_words; w3 += 2)
      if ((constants = gac_constant_value(m, d->words[w3], &c)))
        h = (ca_interval){c < h.lo ? c : h.lo, c > h.hi ? c : h.hi};
    if (constants)
      s = h;
    else
      stepped_counter(r, d, depth, &s);
    break;
  }
  case SpvOpCompositeExtract: {
    /* get_local_id(d): below the kernel's fixed work-group size, if it has one */
    const gac_inst *load = d->num_words == 5 ? gac_def(m, d->words[3]) : NULL;
    if (load && load->opcode == SpvOpLoad && d->words[4] < 3 &&
        decorated(m, load->words[3], SpvDecorationBuiltIn, SpvBuiltInLocalInvocationId)) {
      if (r->local_size[d->words[4]])
        s = (ca_interval){0, r->local_size[d->words[4]] - 1};
      else
        local_id = (int)d->words[4] + 1;
    }
    break;
  }
  default:
    break;
  }
  (void)w;
  if (v.hi < s.hi)
    r->unbounded_local_id = before; /* the paths bound it, whatever its operands are */
  v = meet(v, s);
  if (local_id && v.hi == all.hi && !r->unbounded_local_id)
    r->unbounded_local_id = local_id;
  return v;
}

ca_interval ca_value_range(ca_ranges *r, uint32_t id) {
  r->steps = 0;
  return ca_value_range_at(r, id, 0);
}

/* off += index * size, in bytes; false on overflow. */
static bool add_scaled(ca_interval *off, ca_interval index, uint64_t size) {
  if (size && index.hi > (UINT64_MAX >> 1) / size)
    return false;
  ca_interval x = {index.lo * size, index.hi * size};
  if (off->hi > (UINT64_MAX >> 1) - x.hi)
    return false;
  off->lo += x.lo;
  off->hi += x.hi;
  return true;
}

bool ca_chain_offset(ca_ranges *r, const gac_inst *chain, unsigned first, uint32_t *type, ca_interval *off) {
  const gac_module *m = r->c->m;
  unsigned in = gac_inst_first_in_operand(chain);
  for (unsigned k = in + first; k < chain->num_operands; k++) {
    const gac_inst *t = gac_def(m, *type);
    uint64_t len, size;
    if (!t || t->opcode != SpvOpTypeArray || !gac_constant_value(m, t->words[3], &len) || !len ||
        !gac_type_size(m, t->words[2], GAC_SIZE_OBJECT, &size))
      return false;
    /* access chain indices are in bounds (docs/CHECK_ASYNC.md) */
    ca_interval i = meet(ca_value_range(r, gac_operand_word(chain, k)), (ca_interval){0, len - 1});
    if (i.lo > i.hi || !add_scaled(off, i, size))
      return false;
    *type = t->words[2];
  }
  return true;
}

bool ca_element_offset(ca_ranges *r, uint32_t element, uint32_t type, ca_interval *off) {
  uint64_t size, c;
  unsigned w = width_of(r->c->m, element);
  /* A negative constant steps back (c[-P], the row above): from no lower than the version's start. */
  if (w && gac_constant_value(r->c->m, element, &c) && (c >> (w - 1)) & 1) {
    uint64_t back = (max_of(w) - c + 1) & max_of(w);
    if (!gac_type_size(r->c->m, type, GAC_SIZE_OBJECT, &size) || (size && back > off->lo / size))
      return false;
    off->lo -= back * size;
    off->hi -= back * size;
    return true;
  }
  ca_interval i = ca_value_range(r, element);
  /* the Element operand is signed: a range past the sign bit may be negative */
  return gac_type_size(r->c->m, type, GAC_SIZE_OBJECT, &size) && w && i.hi <= (max_of(w) >> 1) &&
         add_scaled(off, i, size);
}
