/* events=generic: every OpGroupWaitEvents left in the module (lines keeps
 * the driver's waits) takes its events list as a Generic pointer, cast
 * right before the wait (OpPtrCastToGeneric of the Function variable the
 * list lives in).
 *
 * Why: PoCL 5.0's kernel library (as Ubuntu ships it, built for OpenCL 3.0
 * with the generic address space) defines wait_group_events for a generic
 * list only. Its SPIR wrapper for a private list, the one llvm-spirv-15 -r
 * calls for OpGroupWaitEvents on a Function pointer
 * (_Z17wait_group_eventsiP9ocl_event), calls
 * _Z21_cl_wait_group_eventsiPU9CLprivate9ocl_event, which the library
 * declares and never defines: the kernel does not load (dlopen: undefined
 * symbol), and neither does PoCL's own build of an OpenCL C kernel that
 * waits for an event. The generic wrapper (_Z17wait_group_eventsiPU3AS4...)
 * is defined. PoCL 3.1 is the other way round (no generic overload), so the
 * choice belongs to the device: the layer asks for it on PoCL 5 and later.
 *
 * The module needs the GenericPointer capability then (an OpenCL 2.0
 * device's): the list is still the same private variable. */
#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "opencl_lowering.h"

bool opencl_generic_wait_events(gac_module *m) {
  bool progress = false;
  uint32_t generic_list = 0;
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        /* OpGroupWaitEvents Execution NumEvents EventsList */
        if (i->opcode != SpvOpGroupWaitEvents || i->num_words != 4)
          continue;
        const gac_inst *list = gac_def(m, i->words[3]);
        const gac_inst *type = list ? gac_def(m, list->type_id) : NULL;
        if (!type || type->opcode != SpvOpTypePointer || type->words[2] == SpvStorageClassGeneric)
          continue;
        if (!generic_list) {
          gac_require_capability(m, SpvCapabilityGenericPointer);
          generic_list = gac_type_pointer(m, SpvStorageClassGeneric, gac_type_event(m));
        }
        gac_builder before = gac_builder_before(m, i);
        gac_inst *cast = gac_build_ops(&before, SpvOpPtrCastToGeneric, generic_list, GAC_NEW_ID, GAC_ID(list->result_id));
        gac_inst_set_id_operand(m, i, 2, cast->result_id); /* operand 2: word 3 */
        progress = true;
      }
    }
  }
  return progress;
}
