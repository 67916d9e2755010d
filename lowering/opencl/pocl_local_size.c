/* The local size as PoCL 3.1 needs to see it (device=pocl-cpu, the OpenCL
 * target's default profile): each component taken out of a load of the
 * WorkgroupSize builtin (OpCompositeExtract) is clamped to
 * u_min(u_max(size, 1), 0xffffffff), through OpenCL.std. A local size is
 * always in [1, 2^32), so the value is the same; PoCL folds the clamp away
 * once it fixes the work-group size.
 *
 * Why: a work-item loop `for (uint i = get_local_id(0); i < 1u; i +=
 * get_local_size(0))`, which clang rotates into `if (lid == 0)` and a latch
 * testing `(uint)size == 0`, is split by PoCL 3.1's -O3 on that test (LLVM
 * cannot prove it false). The copy for `size == 0` is a loop with no exit,
 * so the barrier after the read-out no longer post-dominates the entry;
 * PoCL's implicit conditional barriers then put a barrier in the loop,
 * its work-item loops peel work-item 0 and assume the branch on `lid == 0`
 * uniform (llvm.assume), and every work-item stores where work-item 0 does:
 * work-items 1..N of a read-out store nothing (random cases 2024/143 and
 * 2411269/10, 34, ...: conformance/random/README.md, "Known limits"). With
 * the clamp LLVM knows the size is not 0 and nothing is split. max(size, 1)
 * alone is not enough: the kernel's (uint) cast of a 64-bit size could
 * still be 0. Kernels of PoCL's own front end meet the same bug in this
 * shape; it is the kernel's own code, not gac's copies. */
#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "opencl_lowering.h"

enum { OPENCL_STD_U_MAX = 157, OPENCL_STD_U_MIN = 159 };

/* The variable decorated BuiltIn WorkgroupSize, or 0 (looked up once: the
 * decorations are a list). */
static uint32_t workgroup_size_variable(const gac_module *m) {
  gac_foreach_inst(d, &m->sections[GAC_SECTION_ANNOTATION]) {
    if (d->opcode == SpvOpDecorate && d->num_words >= 4 && d->words[2] == SpvDecorationBuiltIn &&
        d->words[3] == SpvBuiltInWorkgroupSize)
      return d->words[1];
  }
  return 0;
}

/* Whether i is a load of `size` (the WorkgroupSize variable) as OpenCL's
 * kernels load it (3 integers). */
static bool loads_size(const gac_module *m, const gac_inst *i, uint32_t size) {
  if (!i || i->opcode != SpvOpLoad || i->words[3] != size)
    return false;
  const gac_inst *type = gac_def(m, i->type_id);
  const gac_inst *component = type && type->opcode == SpvOpTypeVector ? gac_def(m, type->words[2]) : NULL;
  return component && component->opcode == SpvOpTypeInt && type->words[3] == 3;
}

bool opencl_clamp_local_size(gac_module *m) {
  bool progress = false;
  uint32_t std = 0, size = workgroup_size_variable(m);
  if (!size)
    return false;
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      /* Each component taken out of such a load, clamped where it is taken:
       * the load itself stays as llvm-spirv-15 -r expects a builtin's load
       * (it crashed on one whose extracts were followed by a rebuilt vector),
       * and PoCL 3.1's vector max and min hid the range from LLVM where its
       * scalar ones do not. */
      gac_foreach_inst(i, &b->insts) {
        if (i->opcode != SpvOpCompositeExtract || i->num_words != 5 || !loads_size(m, gac_def(m, i->words[3]), size))
          continue;
        if (!std)
          std = gac_require_ext_inst_import(m, "OpenCL.std");
        uint32_t scalar = i->type_id, one = gac_constant_int(m, scalar, 1), bound = gac_constant_int(m, scalar, 0xffffffffu);
        gac_builder after = gac_builder_after(m, i);
        gac_inst *at_least_1 = gac_build_ops(&after, SpvOpExtInst, scalar, GAC_NEW_ID, GAC_ID(std),
                                             GAC_LIT(OPENCL_STD_U_MAX), GAC_ID(i->result_id), GAC_ID(one));
        gac_inst *clamped = gac_build_ops(&after, SpvOpExtInst, scalar, GAC_NEW_ID, GAC_ID(std),
                                          GAC_LIT(OPENCL_STD_U_MIN), GAC_ID(at_least_1->result_id), GAC_ID(bound));
        gac_replace_all_uses(m, i->result_id, clamped->result_id);
        at_least_1->words[5] = i->result_id; /* the extract's one use left */
        progress = true;
      }
    }
  }
  return progress;
}
