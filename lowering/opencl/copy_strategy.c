/* strategy=auto: the OpenCL lowering of each copy chosen by a device profile
 * and the copy's shape, from what bench/pocl measured (gac-bench-tiles;
 * docs/LOWERING.md has the table and the reasons).
 *
 * On PoCL's CPU device (pocl-cpu) the leader lowering was the fastest of
 * gac's lowerings on all 24 rows (tiles of 16 x 8 bytes to 64 x 32 floats,
 * element sizes 1 to 16, local sizes 1 to 256, constant and runtime
 * operands), or within the run's noise of it: PoCL runs a group's
 * work-items one after another on one core, so spreading units over them
 * only adds a division per unit, and PoCL's own async_work_group_copy
 * (lines) copies bytes. No line length turned the order round, so the
 * shape does not change the choice there, and a copy whose shape is known
 * only at run time needs no branch on it. A GPU runs the work-items side by
 * side: the units are spread over them (cooperative), as the PTX and AMDGCN
 * lowerings do; that profile is not measured here (no OpenCL GPU). */
#include "copy_strategy.h"

copy_kind copy_strategy_choose(gac_opencl_device device, uint64_t line_bytes) {
  (void)line_bytes; /* no measured crossover on either profile (above) */
  return device == GAC_OPENCL_DEVICE_GPU ? COPY_KIND_COOPERATIVE : COPY_KIND_LEADER;
}
