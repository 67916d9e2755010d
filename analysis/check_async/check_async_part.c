/* Parts of one flat buffer for --check-async (docs/CHECK_ASYNC.md): the
 * bytes a copy or an access touches, as slot * stride + [lo, hi], where the
 * slot is a run-time value b + c, or (b + c) mod V, that the offset or
 * index is affine in. Two parts in the same value and stride are related
 * exactly, whatever the value is: a double buffer's halves at (t & 1) * S
 * and ((t & 1) ^ 1) * S (as clang writes them, (t << 8) & 256 and that
 * ^ 256) never meet where the bytes are below S, nor t * S and (t + 1) * S.
 *
 * Offsets and indices are followed as integers: constants, + - * << by
 * constants, & of the low bits, ^ of a slot's bit, | of disjoint bits,
 * umod, width conversions, a phi of one value from every side, loads of a
 * known store; anything else is a value of its own (a slot in it). A sum
 * keeps one slot: the coarser, then a mod slot, then a loop counter's; the
 * other term goes by its range. The arithmetic is exact: a value is checked
 * to fit its width where that matters (a mod slot's or a range's), and a
 * slot b + c unbounded in b is only compared with another in the same b,
 * where both are in bounds and their difference is exact modulo 2^w
 * (w >= 32). */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check_async_dataflow.h"
#include "gac/async_copy.h"
#include "gac/known.h"

enum { LIN_DEPTH = 12, SLOT_OFFSET_CAP = 2 * AGE_CAP };

/* An integer as slot * stride + [lo, hi] in its own units. */
typedef struct lin {
  bool has_slot;
  gac_affine slot;
  uint32_t mod;
  int64_t stride;
  int64_t lo, hi;
  unsigned width;   /* the narrowest integer the value went through */
  uint32_t product; /* a run-time factor where a product became a value of its own */
} lin;

typedef struct part_ctx {
  checker *c;
  ca_ranges *r;
  int local_id; /* set when a range met get_local_id with no fixed work-group size */
} part_ctx;

static int64_t clamp(int64_t x) { return x > PART_BIG ? PART_BIG : x < -PART_BIG ? -PART_BIG : x; }
/* a + b for |a|, |b| <= PART_BIG, saturated (2^62 + 2^62 would not fit) */
static int64_t add(int64_t a, int64_t b) {
  if (a > 0 && b > PART_BIG - a)
    return PART_BIG;
  if (a < 0 && b < -PART_BIG - a)
    return -PART_BIG;
  return a + b;
}
static int64_t mul(int64_t a, int64_t k) {
  if (a == 0 || k == 0)
    return 0;
  return (a > 0 ? a : -a) > PART_BIG / (k > 0 ? k : -k) ? ((a > 0) == (k > 0) ? PART_BIG : -PART_BIG) : a * k;
}
static int64_t from_unsigned(uint64_t x) { return x > (uint64_t)PART_BIG ? PART_BIG : (int64_t)x; }

static unsigned width_of(const gac_module *m, uint32_t id) {
  const gac_inst *t = gac_value_type(m, id);
  return t && t->opcode == SpvOpTypeInt ? t->words[2] : 0;
}

static bool power_of_two(uint64_t x) { return x && !(x & (x - 1)); }

static unsigned log2_of(uint64_t x) {
  unsigned k = 0;
  while (x > 1)
    x >>= 1, k++;
  return k;
}

/* A constant as the signed value it adds (clang's k + 0xFFFFFFFF is k - 1). */
static bool signed_constant(const gac_module *m, uint32_t id, int64_t *v) {
  uint64_t c;
  if (!gac_constant_value(m, id, &c))
    return false;
  unsigned w = width_of(m, id);
  *v = clamp(w >= 1 && w < 64 ? (int64_t)(c << (64 - w)) >> (64 - w) : (int64_t)c);
  return true;
}

static lin constant(int64_t v) { return (lin){.lo = v, .hi = v, .width = 64}; }

/* A value of its own: the slot is the value itself. */
static lin value(part_ctx *x, uint32_t id) {
  unsigned w = width_of(x->c->m, id);
  return (lin){.has_slot = true, .slot = {id, 0}, .stride = 1, .width = w ? w : 64};
}

static bool is_phi(const gac_module *m, uint32_t id) {
  const gac_inst *d = gac_def(m, id);
  return d && d->opcode == SpvOpPhi;
}

/* The slot's values, as the range of its base says. */
static void slot_range(part_ctx *x, const lin *l, int64_t *lo, int64_t *hi) {
  if (l->mod) {
    *lo = 0, *hi = (int64_t)l->mod - 1;
    return;
  }
  int before = x->r->unbounded_local_id;
  x->r->unbounded_local_id = 0;
  ca_interval i = ca_value_range(x->r, l->slot.base);
  if (x->r->unbounded_local_id)
    x->local_id = x->r->unbounded_local_id;
  x->r->unbounded_local_id = before;
  unsigned w = width_of(x->c->m, l->slot.base);
  *lo = add(from_unsigned(i.lo), l->slot.offset);
  *hi = add(from_unsigned(i.hi), l->slot.offset);
  if (*lo < 0 || (w && w < 62 && *hi >= (INT64_C(1) << w))) /* b + c may wrap */
    *lo = -PART_BIG, *hi = PART_BIG;
}

/* The slot goes into [lo, hi] by its range. */
static void fold(part_ctx *x, lin *l) {
  if (!l->has_slot)
    return;
  int64_t lo, hi;
  slot_range(x, l, &lo, &hi);
  l->lo = add(l->lo, mul(lo, l->stride));
  l->hi = add(l->hi, mul(hi, l->stride));
  l->has_slot = false;
}

/* A no-mod slot and an exact rest that is a multiple of the stride: one slot (t + 1 rather than t and 1). */
static void absorb(lin *l) {
  if (l->has_slot && !l->mod && l->lo == l->hi && l->lo % l->stride == 0 && l->lo / l->stride <= SLOT_OFFSET_CAP &&
      l->lo / l->stride >= -SLOT_OFFSET_CAP) {
    l->slot.offset += l->lo / l->stride;
    l->lo = l->hi = 0;
  }
}

/* Which slot a sum keeps: the coarser one (a tile's, not a row's in it),
 * then a mod slot's (a buffer's halves), then a loop counter's. */
static bool keeps_second(part_ctx *x, const lin *a, const lin *b) {
  if (a->stride != b->stride)
    return b->stride > a->stride;
  int ra = a->mod ? 2 : is_phi(x->c->m, a->slot.base), rb = b->mod ? 2 : is_phi(x->c->m, b->slot.base);
  return rb > ra;
}

static lin sum(part_ctx *x, lin a, lin b) {
  if (a.has_slot && b.has_slot) {
    if (keeps_second(x, &a, &b))
      fold(x, &a);
    else
      fold(x, &b);
  }
  lin out = a.has_slot ? a : b;
  out.lo = add(a.lo, b.lo);
  out.hi = add(a.hi, b.hi);
  out.width = a.width < b.width ? a.width : b.width;
  out.product = a.product ? a.product : b.product;
  absorb(&out);
  return out;
}

static lin scale(lin l, int64_t k) {
  if (k == 0)
    return constant(0);
  l.stride = mul(l.stride, k);
  l.lo = mul(l.lo, k);
  l.hi = mul(l.hi, k);
  if (k < 0) {
    int64_t t = l.lo;
    l.lo = l.hi, l.hi = t;
  }
  if (l.has_slot && (l.stride <= 0 || l.stride >= PART_BIG))
    l.has_slot = false, l.lo = -PART_BIG, l.hi = PART_BIG;
  return l;
}

/* The largest value l may take, or PART_BIG for a slot unbounded in its base. */
static int64_t top(const lin *l) {
  if (!l->has_slot)
    return l->hi;
  return l->mod ? add(mul((int64_t)l->mod - 1, l->stride), l->hi) : PART_BIG;
}

/* Whether l is the value itself in a w-bit integer, not that wrapped: its
 * values lie in [0, 2^w) (a slot unbounded in its base is left to the
 * comparison, which knows the difference of two is exact). */
static bool fits(const lin *l, unsigned w) {
  if (l->has_slot && !l->mod)
    return true;
  return l->lo >= 0 && (w >= 62 || top(l) < (INT64_C(1) << w));
}

static lin lin_at(part_ctx *x, uint32_t id, unsigned depth);

/* x & M: the low bits of a slot times a power of two, (y << s) & ((2^j - 1) << s),
 * are (y mod 2^j) << s; a mod slot that M keeps whole is unchanged. */
static bool masked(const lin *a, uint64_t m, unsigned w, lin *out) {
  if (!a->has_slot || a->lo != 0 || a->hi != 0 || !power_of_two((uint64_t)a->stride))
    return false;
  unsigned s = log2_of((uint64_t)a->stride);
  if (m & ((UINT64_C(1) << s) - 1) || !power_of_two((m >> s) + 1))
    return false;
  unsigned j = log2_of((m >> s) + 1);
  if (a->width < w) /* the product wrapped at the narrower width */
    w = a->width;
  if (j == 0 || j + s > w || j > 31)
    return false;
  if (a->mod) /* a power of two that the mask keeps whole */
    return power_of_two(a->mod) && log2_of(a->mod) <= j && (*out = *a, true);
  *out = *a;
  out->mod = 1u << j;
  int64_t r = out->slot.offset % (int64_t)out->mod;
  out->slot.offset = r < 0 ? r + (int64_t)out->mod : r;
  return true;
}

static bool same_lin(const lin *a, const lin *b) {
  return a->has_slot == b->has_slot && a->lo == b->lo && a->hi == b->hi && a->width == b->width &&
         (!a->has_slot || (a->slot.base == b->slot.base && a->slot.offset == b->slot.offset && a->mod == b->mod &&
                           a->stride == b->stride));
}

/* A phi that merges the same value from every side (clang's pre-phi of
 * (t & 1) * S computed in both branches): that value. Only where no side
 * is a back edge, so that every side's value is of this iteration. */
static lin merged(part_ctx *x, uint32_t id, const gac_inst *phi, unsigned depth) {
  const ca_cfg *g = &x->c->cfg;
  int b = ca_block_of(g, phi);
  lin first = {0};
  for (unsigned w = 3; b >= 0 && w + 1 < phi->num_words; w += 2) {
    uint32_t from = phi->words[w + 1] < x->c->m->bound ? g->index_of[phi->words[w + 1]] : 0;
    if (!from || ca_dominates(g, (unsigned)b, from - 1))
      return value(x, id);
    lin l = lin_at(x, phi->words[w], depth + 1);
    if (w > 3 && !same_lin(&l, &first))
      return value(x, id);
    first = l;
  }
  return b >= 0 && phi->num_words > 4 ? first : value(x, id);
}

static lin lin_of_def(part_ctx *x, uint32_t id, const gac_inst *d, unsigned depth) {
  const gac_module *m = x->c->m;
  unsigned w = width_of(m, id);
  uint32_t a = d->num_words > 3 ? d->words[3] : 0, b = d->num_words > 4 ? d->words[4] : 0;
  int64_t k;
  uint64_t u;
  lin la, lb, out;
  switch (d->num_words == 5 || d->opcode == SpvOpUConvert || d->opcode == SpvOpSConvert || d->opcode == SpvOpPhi
              ? d->opcode
              : SpvOpNop) {
  case SpvOpUConvert: case SpvOpSConvert: {
    unsigned from = width_of(m, a);
    la = lin_at(x, a, depth + 1);
    /* widening keeps the value (a signed one below its sign bit) */
    bool keeps = from && from <= w && fits(&la, d->opcode == SpvOpSConvert ? from - 1 : from);
    return keeps ? la : value(x, id);
  }
  case SpvOpIAdd:
    return sum(x, lin_at(x, a, depth + 1), lin_at(x, b, depth + 1));
  case SpvOpISub:
    lb = lin_at(x, b, depth + 1);
    fold(x, &lb);
    return sum(x, lin_at(x, a, depth + 1), (lin){.lo = -lb.hi, .hi = -lb.lo, .width = lb.width});
  case SpvOpIMul:
    if (signed_constant(m, b, &k))
      return scale(lin_at(x, a, depth + 1), k);
    if (signed_constant(m, a, &k))
      return scale(lin_at(x, b, depth + 1), k);
    /* A run-time stride: the product is a value of its own, and the factor is why. */
    out = value(x, id);
    la = lin_at(x, a, depth + 1);
    out.product = la.has_slot && la.mod ? b : a;
    return out;
  case SpvOpShiftLeftLogical:
    if (gac_constant_value(m, b, &u) && u < 62)
      return scale(lin_at(x, a, depth + 1), INT64_C(1) << u);
    break;
  case SpvOpBitwiseAnd:
    for (unsigned side = 0; side < 2; side++) {
      if (!gac_constant_value(m, side ? a : b, &u))
        continue;
      la = lin_at(x, side ? b : a, depth + 1);
      if (masked(&la, u, w, &out))
        return out;
    }
    break;
  case SpvOpBitwiseXor:
    /* y ^ S with y = (t mod 2) * S flips the slot: ((t + 1) mod 2) * S */
    for (unsigned side = 0; side < 2; side++) {
      if (!gac_constant_value(m, side ? a : b, &u))
        continue;
      la = lin_at(x, side ? b : a, depth + 1);
      if (la.has_slot && la.mod == 2 && la.lo == 0 && la.hi == 0 && (uint64_t)la.stride == u) {
        la.slot.offset = (la.slot.offset + 1) % 2;
        return la;
      }
    }
    return value(x, id);
  case SpvOpBitwiseOr: {
    /* a | b is a + b where their bits are apart (LLVM's row * 8 + col): a
     * slot times 2^s has its low s bits clear, wrapped or not. */
    la = lin_at(x, a, depth + 1), lb = lin_at(x, b, depth + 1);
    for (unsigned side = 0; side < 2; side++) {
      lin s = side ? lb : la, o = side ? la : lb;
      fold(x, &o);
      if (s.has_slot && (!s.mod || power_of_two(s.mod)) && power_of_two((uint64_t)s.stride) && s.lo == 0 &&
          s.hi == 0 && o.lo >= 0 && o.hi < s.stride)
        return sum(x, s, o);
    }
    break;
  }
  case SpvOpPhi:
    return merged(x, id, d, depth);
  case SpvOpUMod: {
    /* (b + c) mod V, read as the version arithmetic reads it (its rules on wrapping) */
    if (!gac_constant_value(m, b, &u) || u < 2 || u > UINT32_MAX)
      break;
    gac_version v = gac_version_of_index(m, id, (uint32_t)u, ca_version_lower_bound, x->c);
    if (v.known && v.value.base)
      return (lin){.has_slot = true, .slot = v.value, .mod = (uint32_t)u, .stride = 1, .width = w ? w : 64};
    break;
  }
  default:
    break;
  }
  return value(x, id);
}

static lin lin_at(part_ctx *x, uint32_t id, unsigned depth) {
  int64_t k;
  if (signed_constant(x->c->m, id, &k))
    return constant(k);
  const gac_inst *d = gac_def(x->c->m, id);
  if (!d || depth > LIN_DEPTH)
    return value(x, id);
  if (d->opcode == SpvOpLoad) { /* of a Function variable whose store the checker knows (-O0) */
    uint32_t stored = ca_resolve_value(x->c, id, d);
    if (stored != id)
      return lin_at(x, stored, depth + 1);
  }
  lin l = lin_of_def(x, id, d, depth);
  if (l.has_slot && l.mod) { /* offsets of a mod slot stay in [0, V) */
    int64_t r = l.slot.offset % (int64_t)l.mod;
    l.slot.offset = r < 0 ? r + (int64_t)l.mod : r;
  }
  unsigned w = width_of(x->c->m, id);
  if (w && w < l.width)
    l.width = w;
  return fits(&l, w ? w : 64) ? l : value(x, id);
}

static ca_part unknown(uint8_t why, uint32_t id) { return (ca_part){.why = why, .why_id = id}; }

static ca_part part_of(const part_ctx *x, lin l, int64_t last) {
  ca_part p = {.known = true, .lo = l.lo, .hi = add(l.hi, last), .width = (uint8_t)(l.width > 64 ? 64 : l.width),
               .local_id = x->local_id, .product = l.product};
  if (l.has_slot)
    p.slot = l.slot, p.mod = l.mod, p.stride = l.stride;
  return p;
}

static lin lin_of_part(const ca_part *p) {
  lin l = {.has_slot = p->slot.base != 0, .slot = p->slot, .mod = p->mod, .stride = p->stride, .lo = p->lo,
           .hi = p->hi, .width = p->width ? p->width : 64, .product = p->product};
  return l;
}

/* An array index: in bounds, as access chains are (docs/CHECK_ASYNC.md);
 * a mod slot's part is at least 0, so its rest is at most the last. */
static lin index_in(part_ctx *x, uint32_t index, uint64_t len) {
  lin l = lin_at(x, index, 0);
  int64_t last = from_unsigned(len - 1);
  if (l.has_slot && !l.mod)
    return l;
  if (!l.has_slot && l.lo < 0)
    l.lo = 0;
  if (l.hi > last)
    l.hi = last;
  if (l.lo > l.hi)
    l.lo = l.hi;
  return l;
}

ca_part ca_pointer_part(checker *c, ca_ranges *r, const gac_inst *const *steps, unsigned n, uint32_t root,
                        uint64_t size) {
  const gac_module *m = c->m;
  part_ctx x = {c, r, 0};
  const gac_inst *rt = gac_value_type(m, root);
  uint32_t type = rt && rt->opcode == SpvOpTypePointer ? rt->words[3] : 0;
  lin at = constant(0);
  while (n--) {
    const gac_inst *s = steps[n];
    bool ptr_chain = s->opcode == SpvOpPtrAccessChain || s->opcode == SpvOpInBoundsPtrAccessChain;
    bool chain = ptr_chain || s->opcode == SpvOpAccessChain || s->opcode == SpvOpInBoundsAccessChain;
    uint64_t bytes, len;
    if (!chain) { /* a cast: the same address as another type */
      const gac_inst *t = gac_def(m, s->type_id);
      type = t && t->opcode == SpvOpTypePointer ? t->words[3] : 0;
      continue;
    }
    unsigned k = 1;
    if (ptr_chain) { /* Element steps over what the pointer points to */
      uint64_t zero;
      if (!(gac_constant_value(m, ca_in_operand(s, 1), &zero) && zero == 0)) {
        if (!type || !gac_type_size(m, type, GAC_SIZE_OBJECT, &bytes) || bytes > (uint64_t)PART_BIG)
          return unknown(PART_WHY_POINTER, s->result_id);
        at = sum(&x, at, scale(lin_at(&x, ca_in_operand(s, 1), 0), (int64_t)bytes));
      }
      k = 2;
    }
    for (; k < ca_num_in_operands(s); k++) {
      const gac_inst *t = gac_def(m, type);
      if (!t || t->opcode != SpvOpTypeArray || !gac_constant_value(m, t->words[3], &len) || !len ||
          !gac_type_size(m, t->words[2], GAC_SIZE_OBJECT, &bytes) || bytes > (uint64_t)PART_BIG)
        return unknown(PART_WHY_POINTER, s->result_id); /* a struct's members are not laid out */
      at = sum(&x, at, scale(index_in(&x, ca_in_operand(s, k), len), (int64_t)bytes));
      type = t->words[2];
    }
  }
  if (!size)
    return unknown(PART_WHY_POINTER, 0);
  return part_of(&x, at, from_unsigned(size - 1));
}

/* A copy's operand that must be a constant for its extent; the first that is not is why. */
typedef struct extent_doubt {
  uint32_t id;
  const char *operand;
} extent_doubt;

static bool extent_operand(const gac_module *m, uint32_t id, const char *operand, uint64_t *v, extent_doubt *bad) {
  if (gac_constant_value(m, id, v) && *v <= UINT32_MAX)
    return true;
  if (!bad->id)
    *bad = (extent_doubt){id, operand};
  return false;
}

ca_part ca_copy_part(checker *c, ca_ranges *r, const gac_inst *copy, bool source, ca_part pointer) {
  const gac_module *m = c->m;
  if (!pointer.known)
    return pointer;
  part_ctx x = {c, r, pointer.local_id};
  gac_async_copy cp;
  uint64_t e = 0, per_line = 0, lines = 1, line = 0, planes = 1, plane = 0, stride = 1;
  uint32_t offset = 0;
  extent_doubt bad = {0};
  if (gac_async_copy_decode(m, copy, &cp)) {
    extent_operand(m, cp.num_bytes_per_element, "NumBytesPerElement", &e, &bad);
    extent_operand(m, cp.num_elements_per_line, "NumElementsPerLine", &per_line, &bad);
    extent_operand(m, cp.num_lines, "NumLines", &lines, &bad);
    if (lines != 1)
      extent_operand(m, source ? cp.source_line_length : cp.destination_line_length,
                     source ? "SourceLineLength" : "DestinationLineLength", &line, &bad);
    if (cp.op == GAC_GROUP_ASYNC_COPY_3D3D) {
      extent_operand(m, cp.num_planes, "NumPlanes", &planes, &bad);
      if (planes != 1)
        extent_operand(m, source ? cp.source_plane_area : cp.destination_plane_area,
                       source ? "SourcePlaneArea" : "DestinationPlaneArea", &plane, &bad);
    }
    offset = source ? cp.source_offset : cp.destination_offset;
  } else { /* OpGroupAsyncCopy: contiguous on its Workgroup side, strided on the other */
    uint32_t ptr = ca_in_operand(copy, source ? 2 : 1), other = ca_in_operand(copy, source ? 1 : 2);
    const gac_inst *t = gac_value_type(m, ptr);
    if (!t || t->opcode != SpvOpTypePointer || !gac_type_size(m, t->words[3], GAC_SIZE_ELEMENT, &e))
      return unknown(PART_WHY_EXTENT, ptr);
    extent_operand(m, ca_in_operand(copy, 3), "NumElements", &per_line, &bad);
    if (ca_storage_class_of(m, other) == SpvStorageClassWorkgroup &&
        extent_operand(m, ca_in_operand(copy, 4), "Stride", &stride, &bad) && stride != 1)
      bad = (extent_doubt){ca_in_operand(copy, 4), "Stride"};
  }
  if (bad.id) {
    ca_part p = unknown(PART_WHY_EXTENT, bad.id);
    p.why_operand = bad.operand;
    return p;
  }
  /* the last byte: (planes - 1) * plane + (lines - 1) * line + per_line elements from the first */
  int64_t last = mul(add(add(mul((int64_t)planes - 1, (int64_t)plane), mul((int64_t)lines - 1, (int64_t)line)),
                         (int64_t)per_line), (int64_t)e) - 1;
  if (!e || !per_line || !lines || !planes || last >= PART_BIG)
    return unknown(PART_WHY_EXTENT, 0); /* nothing copied, or more than any buffer */
  lin at = lin_of_part(&pointer);
  if (offset)
    at = sum(&x, at, scale(lin_at(&x, offset, 0), (int64_t)e));
  ca_part p = part_of(&x, at, last);
  p.dense = at.lo == at.hi && (lines == 1 || line == per_line) && (planes == 1 || plane == lines * line);
  return p;
}

bool ca_same_part(const ca_part *a, const ca_part *b) {
  if (!a->known || !b->known)
    return a->known == b->known;
  return a->dense == b->dense && a->slot.base == b->slot.base && a->slot.offset == b->slot.offset &&
         a->mod == b->mod && a->stride == b->stride && a->lo == b->lo && a->hi == b->hi && a->width == b->width;
}

void ca_canonical_part(ca_part *p) {
  if (!p->known || !p->slot.base)
    return;
  if (p->mod) {
    int64_t r = p->slot.offset % (int64_t)p->mod;
    p->slot.offset = r < 0 ? r + (int64_t)p->mod : r;
  } else if (p->slot.offset > SLOT_OFFSET_CAP || p->slot.offset < -SLOT_OFFSET_CAP) {
    *p = unknown(PART_WHY_EARLIER, p->slot.base); /* round the loop more often than followed */
  }
}

void ca_part_forget(const ca_cfg *g, ca_part *p, int loop, bool back_edge) {
  if (!p->known || !p->slot.base || !ca_defined_in_loop(g, loop, p->slot.base))
    return;
  if (back_edge && p->slot.base == g->loops[loop].k)
    p->slot.offset -= 1; /* t + c is t' + c - 1 for the next t' = t + 1 */
  else
    *p = unknown(PART_WHY_EARLIER, p->slot.base);
  ca_canonical_part(p);
}

void ca_part_rebase(ca_part *p, gac_affine to) {
  p->slot = to;
  if (p->slot.base)
    return;
  /* A constant slot: its bytes from the buffer's start */
  int64_t v = p->slot.offset;
  if (p->mod)
    v = ((v % (int64_t)p->mod) + (int64_t)p->mod) % (int64_t)p->mod;
  int64_t shift = mul(v, p->stride);
  p->lo = add(p->lo, shift);
  p->hi = add(p->hi, shift);
  p->mod = 0, p->stride = 0, p->slot.offset = 0;
}

static bool apart(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi) { return ahi < blo || alo > bhi; }

/* A part by its slot's range: bytes from the buffer's start, exact only
 * where no value in it may have wrapped at its width. */
static void absolute(part_ctx *x, const ca_part *p, int64_t *lo, int64_t *hi) {
  lin l = lin_of_part(p);
  fold(x, &l);
  if (l.lo < 0 || (l.width < 62 && l.hi >= (INT64_C(1) << l.width)))
    l.lo = -PART_BIG, l.hi = PART_BIG;
  *lo = l.lo, *hi = l.hi;
}

part_relation ca_part_relate(checker *c, ca_ranges *r, ca_part copy, ca_part mine, part_doubt *doubt) {
  part_ctx x = {c, r, mine.local_id};
  *doubt = (part_doubt){0};
  if (!copy.known || !mine.known) {
    const ca_part *u = !copy.known ? &copy : &mine;
    *doubt = (part_doubt){u->why, u->why_id, u->why_operand, copy, mine};
    return PART_MAYBE;
  }
  *doubt = (part_doubt){PART_WHY_OVERLAP, 0, NULL, copy, mine};
  unsigned w = copy.width < mine.width ? copy.width : mine.width;
  if (copy.slot.base && copy.slot.base == mine.slot.base && copy.mod == mine.mod &&
      copy.stride == mine.stride && (copy.mod || w >= 32)) {
    /* The same value: the slots differ by d, or by d - V mod V (both in [0, V)). */
    int64_t d = mine.slot.offset - copy.slot.offset, v = copy.mod;
    int64_t cands[2] = {copy.mod ? ((d % v) + v) % v : d, 0};
    unsigned n = copy.mod && cands[0] ? 2 : 1;
    cands[1] = cands[0] - v;
    bool disjoint = true;
    for (unsigned k = 0; k < n; k++) {
      int64_t shift = mul(cands[k], copy.stride);
      int64_t lo = add(mine.lo, shift), hi = add(mine.hi, shift);
      /* Unbounded slots: the two in-bounds offsets differ by what these
       * say modulo 2^w, so exactly where that stays below 2^(w-1). */
      int64_t half = w < 62 ? INT64_C(1) << (w - 1) : PART_BIG;
      bool exact = copy.mod || (add(lo, -copy.hi) > -half && add(hi, -copy.lo) < half);
      disjoint &= exact && apart(lo, hi, copy.lo, copy.hi);
    }
    if (disjoint)
      return PART_DISJOINT;
    if (n == 1 && cands[0] == 0 && copy.dense && mine.lo >= copy.lo && mine.hi <= copy.hi)
      return PART_INSIDE;
    doubt->access_part.local_id = x.local_id;
    return PART_MAYBE;
  }
  if (copy.slot.base && mine.slot.base)
    doubt->why = PART_WHY_VALUES;
  int64_t clo, chi, alo, ahi;
  absolute(&x, &copy, &clo, &chi);
  absolute(&x, &mine, &alo, &ahi);
  doubt->access_part.local_id = x.local_id;
  if (apart(alo, ahi, clo, chi))
    return PART_DISJOINT;
  if (!copy.slot.base && copy.dense && alo >= clo && ahi <= chi)
    return PART_INSIDE;
  return PART_MAYBE;
}

static void format_slot(const checker *c, const ca_part *p, char *out, size_t size) {
  char name[64];
  if (p->mod) {
    gac_version_format(c->m, (gac_version){true, p->slot}, p->mod, name, sizeof name);
    snprintf(out, size, "(%s) * %lld + ", name, (long long)p->stride);
    return;
  }
  ca_name(c->m, p->slot.base, name, sizeof name);
  if (p->slot.offset)
    snprintf(out, size, "(%s %c %lld) * %lld + ", name, p->slot.offset < 0 ? '-' : '+',
             (long long)(p->slot.offset < 0 ? -p->slot.offset : p->slot.offset), (long long)p->stride);
  else
    snprintf(out, size, "%s * %lld + ", name, (long long)p->stride);
}

void ca_part_format(const checker *c, const ca_part *p, char *out, size_t size) {
  char slot_text[160] = "", lo[24], hi[24];
  if (!p->known) {
    snprintf(out, size, "bytes not known");
    return;
  }
  if (p->slot.base)
    format_slot(c, p, slot_text, sizeof slot_text);
  snprintf(lo, sizeof lo, p->lo <= -PART_BIG ? "?" : "%lld", (long long)p->lo);
  snprintf(hi, sizeof hi, p->hi >= PART_BIG ? "?" : "%lld", (long long)p->hi);
  snprintf(out, size, "bytes %s%s to %s", slot_text, lo, hi);
}
