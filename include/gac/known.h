/* What a module states outright about a value, a type or a kernel, known
 * at compile time: a constant's value, a type's size in bytes, the
 * work-group size a function runs under. One of each, for every pass and
 * analysis; where two users need different answers on the same module,
 * the difference is a named rule the caller passes, not a second helper. */
#ifndef GAC_KNOWN_H
#define GAC_KNOWN_H

#include "gac/module.h"

/* The value of an integer OpConstant (its low word, and its high word if it
 * has one) or of an OpConstantNull (0), if id is one. */
bool gac_constant_value(const gac_module *m, uint32_t id, uint64_t *value);

/* What a type's size counts. */
typedef enum gac_size_rule {
  /* An element that a copy moves: an integer or float scalar (its width
   * in whole bytes, rounded down) or a vector of them (a 3-element vector
   * takes the room of 4). Anything else has no size. */
  GAC_SIZE_ELEMENT,
  /* The bytes an object of the type takes: scalars of whole bytes, vectors
   * of them as above, arrays of a constant length of such; structs have no
   * size (their layout is not followed). */
  GAC_SIZE_OBJECT,
} gac_size_rule;

/* The bytes of `type` under `rule`, into *size; false if it has none
 * (*size may then have been written, as for a scalar of a width that is
 * not whole bytes under GAC_SIZE_OBJECT). */
bool gac_type_size(const gac_module *m, uint32_t type, gac_size_rule rule, uint64_t *size);

/* The work-group size a function runs under, from the LocalSize execution
 * modes (OpenCL's reqd_work_group_size) of the kernels that launch it.
 * llvm-spirv-15 makes each kernel an entry-point wrapper that calls the
 * kernel's body, so the size of a function that is not a kernel is its
 * callers'. How their sizes combine is the rule: */
typedef enum gac_local_size_rule {
  /* The size of every launch, for code that divides work by it: the
   * function is an entry point with a LocalSize that no function calls,
   * or every OpFunctionCall of it is in a function whose every launch has
   * a size (such an entry point, or a function called only from those, and
   * so on up: a kernel's helper is two calls below its entry point) and
   * they all have the same size. A LocalSize with a 0 is none; if a kernel declares
   * LocalSize twice, the last one counts. Builds m's use lists. */
  GAC_LOCAL_SIZE_EVERY_LAUNCH,
  /* A bound per dimension, 0 where there is none, for code that bounds
   * the local id: the function's own LocalSize if it has all three, else
   * the largest of each dimension over its callers' LocalSizes (and over
   * what its own incomplete one declares), all zeros if it has no caller
   * or a caller without a complete one. If a function declares LocalSize
   * twice, the first one counts. Reads m only. */
  GAC_LOCAL_SIZE_BOUND,
} gac_local_size_rule;

/* The work-group size of `function` (an OpFunction's id) under `rule`, into
 * size. True if known: under GAC_LOCAL_SIZE_BOUND, if any caller or the
 * function's own complete LocalSize gave it. Under
 * GAC_LOCAL_SIZE_EVERY_LAUNCH size may have been written when false. */
bool gac_local_size(gac_module *m, uint32_t function, gac_local_size_rule rule, uint64_t size[3]);

/* How an OpenCL.std OpExtInst uses memory through a pointer operand: the
 * vector loads (vloadn, vload_half[n], vloada_halfn) read it, the vector
 * stores (vstoren, vstore[a]_half[n][_r]) and the math functions with a
 * pointer result (fract, frexp, lgamma_r, modf, remquo, sincos) write it.
 * *operand is that pointer's index in inst->operands. Anything else
 * (arithmetic, printf's constant format, prefetch, other instructions) is
 * GAC_MEMORY_NONE: every pass that asks which instructions read or write
 * memory beyond OpLoad and OpStore asks here. */
typedef enum gac_memory_use { GAC_MEMORY_NONE, GAC_MEMORY_READ, GAC_MEMORY_WRITE } gac_memory_use;
gac_memory_use gac_opencl_std_memory_use(const gac_module *m, const gac_inst *inst, unsigned *operand);

#endif
