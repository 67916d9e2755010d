/* Version arithmetic of --check-async: which copy of a multi-buffered
 * buffer an index selects, relative to a loop counter (docs/CHECK_ASYNC.md). */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check_async_internal.h"
#include "gac/check_async.h"
#include "gac/known.h"

static uint64_t mod(int64_t x, uint32_t v) {
  int64_t r = x % (int64_t)v;
  return (uint64_t)(r < 0 ? r + (int64_t)v : r);
}

gac_version_relation gac_version_compare(gac_version a, gac_version b, uint32_t num_versions) {
  if (num_versions <= 1)
    return GAC_VERSION_SAME; /* a single buffer: every access touches it */
  if (!a.known || !b.known || a.value.base != b.value.base)
    return GAC_VERSION_MAYBE;
  return mod(a.value.offset, num_versions) == mod(b.value.offset, num_versions) ? GAC_VERSION_SAME
                                                                                 : GAC_VERSION_OTHER;
}

gac_version gac_version_next_iteration(gac_version v, uint32_t counter) {
  if (v.known && v.value.base == counter && counter != 0)
    v.value.offset -= 1; /* x = k + c now is x = (k' - 1) + c for the next k' = k + 1 */
  return v;
}

/* Width conversions keep the value of the non-negative integers indices are. */
static uint32_t strip_conversions(const gac_module *m, uint32_t id) {
  for (const gac_inst *d = gac_def(m, id); d && (d->opcode == SpvOpUConvert || d->opcode == SpvOpSConvert);
       d = gac_def(m, id))
    id = d->words[3];
  return id;
}

static unsigned int_width(const gac_module *m, uint32_t id) {
  const gac_inst *t = gac_value_type(m, id);
  return t && t->opcode == SpvOpTypeInt ? t->words[2] : 0;
}

/* A constant as the signed value it adds: clang writes k - 1 as k + 0xFFFFFFFF. */
static bool signed_constant(const gac_module *m, uint32_t id, int64_t *value) {
  uint64_t c;
  if (!gac_constant_value(m, id, &c))
    return false;
  unsigned w = int_width(m, id);
  *value = w >= 1 && w < 64 ? (int64_t)(c << (64 - w)) >> (64 - w) : (int64_t)c;
  return true;
}

/* x as b + c, through chains of additions and subtractions of constants
 * (k + 0 - 2 as the pipeliner writes it); false if it is not of that shape.
 * c < 0 means the unsigned value wraps where b < -c. */
static bool affine_of(const gac_module *m, uint32_t x, gac_affine *out, unsigned depth) {
  x = strip_conversions(m, x);
  uint64_t c;
  if (gac_constant_value(m, x, &c)) {
    *out = (gac_affine){0, (int64_t)c};
    return true;
  }
  const gac_inst *d = gac_def(m, x);
  if (d && (d->opcode == SpvOpIAdd || d->opcode == SpvOpISub) && d->num_words == 5) {
    uint32_t l = strip_conversions(m, d->words[3]), r = strip_conversions(m, d->words[4]);
    int64_t k;
    if (signed_constant(m, r, &k) && !gac_constant_value(m, l, &(uint64_t){0}) && depth < 8 &&
        affine_of(m, l, out, depth + 1)) {
      out->offset += d->opcode == SpvOpISub ? -k : k;
      return true;
    }
    if (d->opcode == SpvOpIAdd && signed_constant(m, l, &k) && !gac_constant_value(m, r, &(uint64_t){0}) && depth < 8 &&
        affine_of(m, r, out, depth + 1)) {
      out->offset += k;
      return true;
    }
    return false;
  }
  if (!d || !d->result_id)
    return false;
  *out = (gac_affine){x, 0};
  return true;
}

static bool power_of_two_within(uint32_t v, unsigned width) {
  return (v & (v - 1)) == 0 && width >= 1 && width <= 64 && (width == 64 || v <= (UINT64_C(1) << width));
}

/* index mod V as an affine value, or false. */
static bool version_term(const gac_module *m, uint32_t index, uint32_t num_versions,
                         bool (*lower_bound)(void *user, uint32_t id, uint64_t *min), void *user, gac_affine *out,
                         unsigned depth) {
  uint64_t v;
  index = strip_conversions(m, index);
  const gac_inst *d = gac_def(m, index);
  if (!d || depth > 4)
    return false;
  if (d->opcode == SpvOpUMod && d->num_words == 5) {
    if (!gac_constant_value(m, d->words[4], &v) || v != num_versions || !affine_of(m, d->words[3], out, 0))
      return false;
    /* Unsigned b - c wraps below zero, and 2^w mod V is 0 only for V a power of two. */
    uint64_t min;
    return out->offset >= 0 || !out->base || power_of_two_within(num_versions, int_width(m, d->words[3])) ||
           (lower_bound && lower_bound(user, out->base, &min) && min >= (uint64_t)-out->offset);
  }
  /* x & (V - 1) is x mod V for V a power of two (as clang writes k % 2). */
  if (d->opcode == SpvOpBitwiseAnd && d->num_words == 5 && power_of_two_within(num_versions, int_width(m, index)))
    for (unsigned k = 3; k < 5; k++)
      if (gac_constant_value(m, d->words[k], &v) && v == num_versions - 1)
        return affine_of(m, d->words[7 - k], out, 0);
  /* x ^ 1 is x + 1 mod 2 (as clang writes (k - 1) % 2). */
  if (d->opcode == SpvOpBitwiseXor && d->num_words == 5 && num_versions == 2)
    for (unsigned k = 3; k < 5; k++)
      if (gac_constant_value(m, d->words[k], &v) && v == 1 &&
          version_term(m, d->words[7 - k], num_versions, lower_bound, user, out, depth + 1)) {
        out->offset += 1;
        return true;
      }
  /* An index without mod is in bounds (an access chain's rule), so it is its own version. */
  return affine_of(m, index, out, 0);
}

gac_version gac_version_of_index(const gac_module *m, uint32_t index, uint32_t num_versions,
                                 bool (*lower_bound)(void *user, uint32_t id, uint64_t *min), void *user) {
  gac_version v = {false, {0, 0}};
  v.known = version_term(m, index, num_versions, lower_bound, user, &v.value, 0);
  return v;
}

void ca_name(const gac_module *m, uint32_t id, char *buf, size_t size) {
  gac_foreach_inst(i, &m->sections[GAC_SECTION_DEBUG_NAME]) {
    if (i->opcode == SpvOpName && i->num_words > 2 && i->words[1] == id) {
      const char *s = gac_inst_string(i, 1);
      if (s && *s) {
        snprintf(buf, size, "%%%s", s);
        return;
      }
    }
  }
  snprintf(buf, size, "%%%u", id);
}

void gac_version_format(const gac_module *m, gac_version v, uint32_t num_versions, char *buf, size_t size) {
  if (!v.known) {
    snprintf(buf, size, "?");
  } else if (!v.value.base) {
    snprintf(buf, size, "%llu", (unsigned long long)mod(v.value.offset, num_versions ? num_versions : 1));
  } else {
    char name[64];
    ca_name(m, v.value.base, name, sizeof name);
    /* Pipelines read older versions: k - 3 rather than k + 1 (mod 4). */
    int64_t c = num_versions > 1 ? (int64_t)mod(v.value.offset, num_versions) : v.value.offset;
    if (c > 0 && num_versions > 1)
      c -= num_versions;
    if (c == 0)
      snprintf(buf, size, "%s mod %u", name, num_versions);
    else
      snprintf(buf, size, "(%s %c %lld) mod %u", name, c < 0 ? '-' : '+', (long long)(c < 0 ? -c : c),
               num_versions);
  }
}
