/* The OpenCL C builtins of include/gac/cl/extended_async_copies.h as
 * clang-15 + llvm-spirv-15 emit them: an OpFunctionCall of a declaration
 * (Import linkage) named by the builtin's mangling, any overload. Which
 * instruction each one is, for --raise-async-copies, which turns the calls
 * into the instructions, and for the analyses of modules not raised yet
 * (--check-async on gac-cc --raw's output). */
#ifndef GAC_BUILTINS_H
#define GAC_BUILTINS_H

#include "gac/module.h"

typedef struct gac_builtin {
  const char *prefix; /* the mangled name up to the parameters: "_Z14gac_async_wait" */
  const char *set;    /* the instruction set it is an instruction of */
  uint32_t op;        /* the instruction number in it */
  unsigned num_args;  /* in the order of the instruction's operands */
} gac_builtin;

/* The builtin that function f is, or NULL: f has no blocks and its linkage
 * name starts with a builtin's prefix. */
const gac_builtin *gac_builtin_of(const gac_module *m, const gac_function *f);

/* The same for the callee of an OpFunctionCall; NULL if call is none. */
const gac_builtin *gac_builtin_called(const gac_module *m, const gac_inst *call);

#endif
