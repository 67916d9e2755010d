/* What the fuzz targets share: failing so that libFuzzer keeps the input, and
 * counting how far the inputs get (README.md, "Measuring a campaign"). */
#ifndef GAC_FUZZ_COMMON_H
#define GAC_FUZZ_COMMON_H

#include "gac/diag.h"

/* Prints what broke (and the diagnostics) and aborts. */
_Noreturn void fuzz_fail(const char *what, const gac_diag *d);

typedef enum fuzz_stage {
  FUZZ_INPUT,   /* every input */
  FUZZ_READ,    /* the reader took it */
  FUZZ_VALID,   /* it validates, core rules included: the passes run */
  FUZZ_OUTPUT,  /* a target's last step gave output (e.g. PTX) rather than a diagnostic */
  FUZZ_STAGES
} fuzz_stage;

/* Counts an input reaching a stage; with GAC_FUZZ_STATS=1 in the
 * environment the counts are printed to stderr at exit. */
void fuzz_count(fuzz_stage s);

#endif
