/* What the fuzz targets share: failing so that libFuzzer keeps the input, and
 * counting how far the inputs get (README.md, "Measuring a campaign"). */
#ifndef GAC_FUZZ_COMMON_H
#define GAC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "gac/diag.h"
#include "gac/module.h"

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

/* The input as a module, counted as an input and as read; NULL where the
 * reader refuses it, which it must do with an error (d is then freed), and
 * an error is a refusal (else fuzz_fail). */
gac_module *fuzz_read(const uint8_t *data, size_t size, gac_diag *d);

/* fuzz_read, then NULL (d freed) unless the module validates, core rules
 * included; a valid one is counted and d cleared for what comes next. */
gac_module *fuzz_read_valid(const uint8_t *data, size_t size, gac_diag *d);

/* FNV-1a of the input: what picks a target's choice for it, so that each
 * input always takes the same one. */
uint32_t fuzz_hash(const uint8_t *data, size_t size);

/* Whether some diagnostic's rule ends with suffix (".internal": the target's
 * own lowering made a valid module invalid). */
bool fuzz_has_rule_suffix(const gac_diag *d, const char *suffix);

#endif
