/* strategy=auto (copy_strategy.c): which OpenCL lowering a copy gets, from
 * a device profile and the copy's shape. */
#ifndef GAC_COPY_STRATEGY_H
#define GAC_COPY_STRATEGY_H

#include <stdint.h>

#include "gac/opencl.h" /* gac_opencl_device */

/* The lowerings auto chooses between (lower_async_copies.c builds them). */
typedef enum copy_kind {
  COPY_KIND_LINES,       /* a core OpGroupAsyncCopy per line */
  COPY_KIND_COOPERATIVE, /* units spread over the work-items */
  COPY_KIND_LEADER,      /* work-item 0, line by line, units of the widest width */
} copy_kind;

/* The lowering for a copy of lines of line_bytes bytes (0: known only at
 * run time) on `device`. */
copy_kind copy_strategy_choose(gac_opencl_device device, uint64_t line_bytes);

#endif
