/* What an instruction touches for --check-async: a place is the buffer a
 * pointer is rooted at (a Workgroup variable, or a parameter that may be
 * one), the version of a multi-buffered buffer its index selects, and the
 * bytes from the start of that version it may reach (events and versions
 * stored in Function arrays are followed to what was stored:
 * check_async_value.c); and whether a fact's copy and an access are at the
 * same offset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.h>

#include "check_async_dataflow.h"
#include "gac/known.h"
#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/check_async.h"

/* A lower bound of id where c->at is: id said in what the state knows it
 * equals (k = n after a loop), then a counter's start or a guard's bound. */
static bool base_at_least(const checker *c, gac_affine v, uint64_t *min) {
  int b = c->at ? ca_block_of(&c->cfg, c->at) : -1;
  uint64_t base_min = 0;
  if (v.base && !(b >= 0 && (ca_counter_at_least(&c->cfg, (unsigned)b, v.base, &base_min) ||
                             ca_guard_at_least(&c->cfg, (unsigned)b, v.base, false, &base_min))))
    return false;
  if (v.offset < 0 && base_min < (uint64_t)-v.offset)
    return false;
  *min = base_min + (uint64_t)v.offset;
  return true;
}

static bool state_range(void *user, uint32_t id, ca_interval *out) {
  const checker *c = user;
  const range *r = c->cur ? ca_find_range(c->cur, id) : NULL;
  if (r)
    *out = (ca_interval){r->lo, r->hi};
  return r != NULL;
}

/* Value ranges where c->at is, knowing what c->cur's paths know. */
ca_ranges ca_ranges_at(const checker *c) {
  int b = c->at ? ca_block_of(&c->cfg, c->at) : -1;
  ca_ranges r = {.c = &c->cfg, .block = b >= 0 ? (unsigned)b : 0, .known = state_range, .user = (void *)c};
  memcpy(r.local_size, c->local_size, sizeof r.local_size);
  return r;
}

bool ca_version_lower_bound(void *user, uint32_t id, uint64_t *min) {
  const checker *c = user;
  uint64_t best = 0, m;
  bool found = false;
  gac_affine v = c->cur ? ca_resolve_version(c->cur, (gac_version){true, {id, 0}}).value : (gac_affine){id, 0};
  if (base_at_least(c, (gac_affine){id, 0}, &m))
    best = m, found = true;
  if (c->cur && base_at_least(c, v, &m) && (!found || m > best))
    best = m, found = true;
  /* What the values' definitions and the paths' branches bound */
  ca_ranges r = ca_ranges_at(c);
  ca_interval i = ca_value_range(&r, id);
  if (i.lo > best || !found)
    best = i.lo > best ? i.lo : best, found = true;
  if (v.base && v.base != id) {
    ca_interval j = ca_value_range(&r, v.base);
    if (v.offset >= 0 || j.lo >= (uint64_t)-v.offset) {
      uint64_t lo = j.lo + (uint64_t)v.offset;
      best = lo > best ? lo : best;
    }
  }
  *min = best;
  return found;
}

static int buffer_index(checker *c, uint32_t root) {
  for (unsigned i = 0; i < c->nb; i++)
    if (c->buffers[i].root == root)
      return (int)i;
  c->buffers = ca_xrealloc(c->buffers, (c->nb + 1) * sizeof *c->buffers);
  buffer *b = &c->buffers[c->nb];
  *b = (buffer){.root = root, .versions = 1, .param = gac_def(c->m, root)->opcode == SpvOpFunctionParameter};
  const gac_inst *t = gac_value_type(c->m, root);
  const gac_inst *pointee = t && t->opcode == SpvOpTypePointer ? gac_def(c->m, t->words[3]) : NULL;
  const gac_inst *element = pointee && pointee->opcode == SpvOpTypeArray ? gac_def(c->m, pointee->words[2]) : NULL;
  uint64_t length;
  if (element && (element->opcode == SpvOpTypeArray || element->opcode == SpvOpTypeStruct) &&
      gac_constant_value(c->m, pointee->words[3], &length) && length >= 1 && length <= UINT32_MAX)
    b->versions = (uint32_t)length;
  return (int)c->nb++;
}

/* An access of the whole pointee: its bytes, when the instruction says. */
static bool access_size(const checker *c, const gac_inst *at, uint32_t ptr, uint64_t *size) {
  bool whole = at->opcode == SpvOpLoad || at->opcode == SpvOpStore || at->opcode == SpvOpCopyMemory ||
               (at->opcode >= SpvOpAtomicLoad && at->opcode <= SpvOpAtomicXor);
  const gac_inst *t = gac_value_type(c->m, ptr);
  if (whole)
    return t && t->opcode == SpvOpTypePointer && gac_type_size(c->m, t->words[3], GAC_SIZE_OBJECT, size);
  /* vloadn(offset, p, n) reads n elements of p's type, vstoren(data, offset,
   * p) writes data's bytes (the place is p's: the transfer made the version
   * unknown unless offset is 0). */
  unsigned pointer;
  if (gac_opencl_std_memory_use(c->m, at, &pointer) == GAC_MEMORY_NONE)
    return false;
  uint64_t element;
  switch (gac_operand_word(at, 3)) {
  case OpenCLstd_Vloadn:
    return at->num_operands > 6 && t && t->opcode == SpvOpTypePointer &&
           gac_type_size(c->m, t->words[3], GAC_SIZE_ELEMENT, &element) &&
           (*size = element * gac_operand_word(at, 6), true);
  case OpenCLstd_Vstoren: {
    const gac_inst *data = gac_value_type(c->m, gac_operand_word(at, 4));
    return data && gac_type_size(c->m, data->result_id, GAC_SIZE_ELEMENT, size); /* a 3-vector: 4 elements, more than it writes */
  }
  default:
    return false;
  }
}

static bool is_zero(const gac_module *m, uint32_t id) {
  uint64_t v;
  return gac_constant_value(m, id, &v) && v == 0;
}

/* The buffer and version a pointer points into. */
place ca_place_of(checker *c, uint32_t ptr, const gac_inst *at) {
  const gac_inst *steps[32];
  unsigned n = 0;
  uint32_t sc = ca_storage_class_of(c->m, ptr);
  place unknown = {.buffer = sc == SpvStorageClassWorkgroup || sc == SpvStorageClassGeneric ? UNKNOWN_BUFFER
                                                                                          : NOT_WORKGROUP};
  uint32_t id = ptr;
  for (;;) {
    const gac_inst *d = gac_def(c->m, id);
    if (!d || n == 32)
      return unknown;
    if (d->opcode == SpvOpVariable || d->opcode == SpvOpFunctionParameter) {
      if (ca_storage_class_of(c->m, id) != SpvStorageClassWorkgroup)
        return (place){.buffer = NOT_WORKGROUP};
      break;
    }
    switch (d->opcode) {
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast: case SpvOpCopyObject:
    case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
      steps[n++] = d;
      id = ca_in_operand(d, 0);
      continue;
    case SpvOpLoad: {
      uint32_t v = ca_stored_value(c, ca_in_operand(d, 0), at);
      if (!v)
        return unknown;
      id = v;
      continue;
    }
    default:
      return unknown;
    }
  }
  place p = {.buffer = buffer_index(c, id)};
  uint32_t versions = c->buffers[p.buffer].versions;
  unsigned num_steps = n;
  bool at_root = true, moved = false;
  /* Inside a version: the pointee type and the bytes from the version's start. */
  uint32_t type = 0;
  ca_interval off = {0, 0};
  c->at = at;
  ca_ranges r = ca_ranges_at(c);
  while (n--) {
    const gac_inst *s = steps[n];
    bool ptr_chain = s->opcode == SpvOpPtrAccessChain || s->opcode == SpvOpInBoundsPtrAccessChain;
    bool chain = ptr_chain || s->opcode == SpvOpAccessChain || s->opcode == SpvOpInBoundsAccessChain;
    unsigned first_index = ptr_chain ? 2 : 1;
    if (ptr_chain && !is_zero(c->m, ca_in_operand(s, 1))) {
      /* Pointer arithmetic may leave the version, unless its range stays inside. */
      bool inside = !at_root && versions > 1;
      p.followed = inside && p.followed && ca_element_offset(&r, ca_in_operand(s, 1), type, &off) &&
                   ca_chain_offset(&r, s, first_index, &type, &off);
      moved = true;
      if (inside)
        continue;
      p.version.known = false;
      at_root = false;
      if (versions > 1)
        return p;
      continue;
    }
    if (at_root && chain && ca_num_in_operands(s) > first_index) {
      p.version = gac_version_of_index(c->m, ca_in_operand(s, first_index), versions, ca_version_lower_bound, c);
      at_root = false;
      const gac_inst *rt = gac_value_type(c->m, c->buffers[p.buffer].root);
      const gac_inst *array = rt && rt->opcode == SpvOpTypePointer ? gac_def(c->m, rt->words[3]) : NULL;
      type = array && array->opcode == SpvOpTypeArray ? array->words[2] : 0;
      p.followed = type && gac_type_size(c->m, type, GAC_SIZE_OBJECT, &p.room) &&
                   ca_chain_offset(&r, s, first_index + 1, &type, &off);
    } else if (!at_root && p.followed && chain) {
      p.followed = ca_chain_offset(&r, s, first_index, &type, &off);
    } else if (!at_root && p.followed) { /* casts: the same address as another type */
      const gac_inst *t = gac_def(c->m, s->type_id);
      p.followed = t && t->opcode == SpvOpTypePointer;
      type = p.followed ? t->words[3] : 0;
    }
  }
  uint64_t size;
  if (moved && versions > 1 && !at_root) {
    p.lo = off.lo;
    p.hi = off.hi;
    p.local_id = r.unbounded_local_id;
    if (!p.followed || !access_size(c, at, ptr, &size) || off.hi > p.room || size > p.room - off.hi) {
      p.version.known = false;
      p.left = true;
    }
  }
  /* In a flat buffer, the bytes it may touch (a copy's: from its first, check_async_part.c). */
  if (versions <= 1) {
    bool sized = ca_is_copy(c->m, at) ? (size = 1, true) : access_size(c, at, ptr, &size);
    p.part = ca_pointer_part(c, &r, steps, num_steps, id, sized ? size : 0);
  }
  /* The buffer's first address cast to an element's type (clang's tiles[0]) is in version 0;
   * the whole buffer is in all of them. */
  const gac_inst *pt = gac_value_type(c->m, ptr), *rt = gac_value_type(c->m, c->buffers[p.buffer].root);
  if (at_root && pt && rt && pt->opcode == SpvOpTypePointer && rt->opcode == SpvOpTypePointer &&
      pt->words[3] != rt->words[3])
    p.version = (gac_version){true, {0, 0}};
  return p;
}

bool ca_offsets_meet(const checker *c, const fact *f, const gac_inst *i, unsigned role) {
  uint32_t theirs = ca_copy_offset(c->m, f->copy, f->async_read);
  uint32_t mine = ca_copy_offset(c->m, i, role == 1); /* a copy's accesses: 0 its Destination, 1 its Source */
  uint64_t a, b;
  bool theirs_known = !theirs || gac_constant_value(c->m, theirs, &a);
  if (!mine)
    return theirs_known;
  return theirs == mine || (theirs && theirs_known && gac_constant_value(c->m, mine, &b) && a == b);
}
