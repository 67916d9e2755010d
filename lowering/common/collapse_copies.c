/* Contiguous copies become one line, before any target lowers them.
 *
 * A 2D copy whose source and destination line lengths both equal its line
 * (Num Elements Per Line) moves lines x elements that follow one another
 * on both sides: element i of line l is at offset l x E + i on each side,
 * which is offset j = l x E + i of one line of lines x E elements. So it
 * becomes that one line (Num Lines 1), as cudaMemcpy2D does when a pitch
 * equals the width. The same holds for the lines of each plane of a 3D
 * copy, and then for its planes where both plane areas equal the (now one)
 * line, which is decided on constants only.
 *
 * Why: a target moving a copy in units computes each unit's line and
 * column by dividing its index by the units of a line, a division by a run-
 * time value where the line length is an argument (the corpus'
 * transpose_divmod: two rows of w floats, strides w: docs/VENDOR.md); one
 * line has no division. Bulk copies on sm_90 issue one copy instead of one
 * a line, and the OpenCL target's `lines` way one OpGroupAsyncCopy.
 *
 * Equal means the same id or two constants of one value: a run-time test
 * for strides that happen to equal the line would double every copy's code.
 * The copy instruction itself is rewritten, not a lowering's plan of it, so
 * every later decision (which copies may be bulk copies, which join a run,
 * what a counted wait weighs) sees the same shape as the code. */
#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/builder.h"
#include "gac/known.h"
#include "lower_target.h"
#include "lowering.h"

static bool same_value(const gac_module *m, uint32_t a, uint32_t b) {
  uint64_t x, y;
  return a == b || (gac_constant_value(m, a, &x) && gac_constant_value(m, b, &y) && x == y);
}

/* a x b of type `type` before `at`: a constant where both are (false if
 * that overflows the type), else an OpIMul. */
static bool product(gac_module *m, gac_inst *at, uint32_t type, uint32_t a, uint32_t b, uint32_t *out) {
  uint64_t x, y, xy;
  const gac_inst *t = gac_def(m, type);
  unsigned bits = t && t->opcode == SpvOpTypeInt ? t->words[2] : 0;
  if (gac_constant_value(m, a, &x) && gac_constant_value(m, b, &y)) {
    if (__builtin_mul_overflow(x, y, &xy) || (bits < 64 && xy >> bits))
      return false;
    *out = gac_constant_int(m, type, xy);
    return true;
  }
  gac_builder bld = gac_builder_before(m, at);
  *out = gac_build_ops(&bld, SpvOpIMul, type, GAC_NEW_ID, GAC_ID(a), GAC_ID(b))->result_id;
  return true;
}

/* Whether the sizes and strides of k are values of one integer type, the
 * type a product of them is built in (*type). The validator asks as much
 * (GroupAsyncCopies.SizeOperandType); this keeps a module it was not run
 * on from getting a mistyped OpIMul. */
static bool one_type(const gac_module *m, const gac_async_copy *k, uint32_t *type) {
  uint32_t ids[7] = {k->num_elements_per_line, k->num_lines, k->source_line_length, k->destination_line_length};
  unsigned n = 4;
  if (k->op == GAC_GROUP_ASYNC_COPY_3D3D) {
    ids[n++] = k->num_planes;
    ids[n++] = k->source_plane_area;
    ids[n++] = k->destination_plane_area;
  }
  const gac_inst *first = gac_def(m, ids[0]);
  if (!first || !first->type_id)
    return false;
  for (unsigned i = 1; i < n; i++) {
    const gac_inst *d = gac_def(m, ids[i]);
    if (!d || d->type_id != first->type_id)
      return false;
  }
  const gac_inst *t = gac_def(m, first->type_id);
  *type = first->type_id;
  return t && t->opcode == SpvOpTypeInt;
}

/* Copy i as one line where its lines (and planes) follow one another. */
static bool collapse_copy(gac_module *m, gac_inst *i) {
  gac_async_copy k;
  uint64_t lines;
  uint32_t type, line;
  if (!gac_async_copy_decode(m, i, &k) || !one_type(m, &k, &type) ||
      (gac_constant_value(m, k.num_lines, &lines) && lines == 1) ||
      !same_value(m, k.source_line_length, k.num_elements_per_line) ||
      !same_value(m, k.destination_line_length, k.num_elements_per_line) ||
      !product(m, i, type, k.num_elements_per_line, k.num_lines, &line))
    return false;
  uint32_t one = gac_constant_int(m, type, 1);
  k.num_elements_per_line = k.source_line_length = k.destination_line_length = line;
  k.num_lines = one;
  uint32_t all;
  if (k.op == GAC_GROUP_ASYNC_COPY_3D3D && same_value(m, k.source_plane_area, line) &&
      same_value(m, k.destination_plane_area, line) && product(m, i, type, line, k.num_planes, &all)) {
    k.num_elements_per_line = k.source_line_length = k.destination_line_length = all;
    k.source_plane_area = k.destination_plane_area = all;
    k.num_planes = one;
  }
  gac_async_copy_store(m, i, &k);
  return true;
}

bool lower_collapse_contiguous_copies(gac_module *m) {
  bool progress = false;
  gac_foreach_async_copy(i, m) progress = collapse_copy(m, i) || progress;
  return progress;
}

bool gac_collapse_async_copies(gac_module *m, const char *arg, gac_diag *diag) {
  (void)arg, (void)diag;
  return lower_collapse_contiguous_copies(m);
}
