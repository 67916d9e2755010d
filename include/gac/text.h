/* SPIR-V text with the GroupAsyncCopies set printed and parsed by name:
 *   %20 = OpExtInst %5 %1 GroupAsyncCopy2D2D Destination=%11 DestinationOffset=%12 ...
 * The disassembly keeps numeric ids and the header in comments, so that
 * assembling it gives back the identical binary. */
#ifndef GAC_TEXT_H
#define GAC_TEXT_H

#include "gac/diag.h"

/* Disassembles; *text is malloc'd. False (with diag) if the binary does not parse. */
bool gac_disassemble(const uint32_t *words, size_t num_words, char **text, gac_diag *diag);

/* Assembles text in SPIRV-Tools' syntax plus the named form of the set. Header
 * comments (; Version, ; Generator, ; Bound, ; Schema) written by gac_disassemble
 * are honoured. *words is malloc'd. */
bool gac_assemble(const char *text, size_t len, uint32_t **words, size_t *num_words, gac_diag *diag);

#endif
