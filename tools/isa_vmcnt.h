/* The vmcnt check of one AMDGCN kernel (docs/AMDGCN.md, "The machine-level
 * check"): a forward dataflow over the instruction-level CFG, per wave. */
#ifndef GAC_TOOLS_ISA_VMCNT_H
#define GAC_TOOLS_ISA_VMCNT_H

#include <stdio.h>

#include "isa_listing.h"

typedef struct isa_counts {
  size_t proved, violated, undecided, no_dma;         /* LDS reads */
  size_t waits_proved, waits_violated, waits_undecided; /* gac's wait markers */
} isa_counts;

/* Reports each wait marker and each LDS read to out (proved ones only when
 * verbose), prefixed with `where`; adds to counts. */
void isa_check_kernel(const isa_kernel *k, const char *where, bool verbose, FILE *out, isa_counts *counts);

#endif
