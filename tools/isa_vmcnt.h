/* The vmcnt check of one AMDGCN kernel (docs/AMDGCN.md, "The machine-level
 * check"): a forward dataflow over the instruction-level CFG, per wave. */
#ifndef GAC_TOOLS_ISA_VMCNT_H
#define GAC_TOOLS_ISA_VMCNT_H

#include <stdio.h>

#include "isa_listing.h"

typedef struct isa_counts {
  size_t proved, prefetch, violated, undecided, no_dma;
} isa_counts;

/* Reports each LDS read and each wait that splits a batch to out (proved
 * ones only when verbose), prefixed with `where`; adds to counts. */
void isa_check_kernel(const isa_kernel *k, const char *where, bool verbose, FILE *out, isa_counts *counts);

#endif
