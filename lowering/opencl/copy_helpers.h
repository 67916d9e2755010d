/* Copies through shared helpers (copy_helpers.c): the OpenCL lowering's
 * copies of one class become calls of one function per module. */
#ifndef GAC_COPY_HELPERS_H
#define GAC_COPY_HELPERS_H

#include "gac/opencl.h" /* gac_opencl_helpers: where a copy's loop goes (copy_helpers.c says when auto inlines) */
#include "lower_util.h"

/* Builds the copy k (its operands the helper's parameters, or constants the
 * class fixes) from the end of `entry`, ending at `exit`; returns the event. */
typedef uint32_t (*copy_helper_body)(gac_lowering *L, const gac_async_copy *k, gac_block *entry, gac_block *exit,
                                     void *user);

typedef struct copy_helpers copy_helpers;

copy_helpers *copy_helpers_create(gac_lowering *L, gac_opencl_helpers mode, copy_helper_body body, void *user);
/* Counts a copy before any is lowered: the rule looks at how many share a class. */
void copy_helpers_count(copy_helpers *H, const gac_async_copy *k);
/* Replaces copy `inst` (decoded as k) by a call of its class's helper, made
 * on first use, the call keeping the copy's result id; false, with nothing
 * changed, where the copy is to be inlined. */
bool copy_helpers_call(copy_helpers *H, gac_inst *inst, const gac_async_copy *k);
void copy_helpers_destroy(copy_helpers *H);

#endif
