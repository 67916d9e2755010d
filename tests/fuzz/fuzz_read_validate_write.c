/* libFuzzer target: read, validate, write, disassemble, assemble, and the
 * passes.
 *
 * For any input the reader accepts:
 *   - both validators run (GroupAsyncCopies rules alone, then with SPIRV-Tools' core rules);
 *   - writing gives back the input bytes exactly (module.h's promise);
 *   - the written words read again, and writing that gives the same words;
 *   - gac_disassemble's text assembles with gac_assemble to the same words
 *     (in host byte order: the assembler writes the host's).
 *   - on a valid module, the passes (--specialize-generic-pointers,
 *     --raise-async-copies, --sort-blocks, --pipeline-loops, --check-async,
 *     --lower-async-copies=opencl with one of eight strategy and helper
 *     choices, late included, --remove-unused-imports) either report an
 *     error or give a module that validates: never a silently wrong module.
 * An input the reader rejects must come with an error. Any violation aborts, so
 * that libFuzzer records the input as a crash. spirv_mutator.c gives the
 * inputs (structure-aware mutation). See README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "fuzz_common.h"
#include "gac/module.h"
#include "gac/pass.h"
#include "gac/text.h"
#include "gac/validate.h"

static bool same_words(const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
  return na == nb && memcmp(a, b, na * sizeof(uint32_t)) == 0;
}

/* Modules the text round trip cannot reproduce yet, each a known issue
 * (README.md, "Known issues"); build with -DGAC_FUZZ_STRICT=1 to check them too. */
#ifndef GAC_FUZZ_STRICT
#define GAC_FUZZ_STRICT 0
#endif

static void find_known_gap(gac_inst *inst, void *user) {
  const char **gap = user;
  /* Integer widths other than 8, 16, 32, 64, float widths other than 16, 32,
   * 64: SPIRV-Tools disassembles their constants but will not assemble them
   * (a 2-bit type holding the literal 4, for one). */
  uint32_t width = inst->num_words > 2 ? inst->words[2] : 0;
  if (inst->opcode == SpvOpTypeInt && width != 8 && width != 16 && width != 32 && width != 64)
    *gap = "integer width";
  if (inst->opcode == SpvOpTypeFloat && width != 16 && width != 32 && width != 64)
    *gap = "float width";
}

static bool known_text_gap(const gac_module *m) {
  const char *gap = NULL;
  if (!GAC_FUZZ_STRICT)
    gac_module_visit((gac_module *)m, find_known_gap, &gap);
  return gap != NULL;
}

static void check_text_round_trip(const gac_module *m, const uint32_t *words, size_t n, gac_diag *d) {
  char *text = NULL;
  if (!gac_disassemble(words, n, &text, d))
    fuzz_fail("a module that was read does not disassemble", d);
  uint32_t *again = NULL;
  size_t n_again = 0;
  if (!gac_assemble(text, strlen(text), &again, &n_again, d)) {
    fprintf(stderr, "%s", text);
    fuzz_fail("the disassembly does not assemble", d);
  }
  uint32_t *host = malloc(n * sizeof(uint32_t));
  for (size_t i = 0; i < n; i++)
    host[i] = m->big_endian ? __builtin_bswap32(words[i]) : words[i];
  if (!same_words(host, n, again, n_again)) {
    fprintf(stderr, "%s", text);
    for (size_t i = 0; i < n || i < n_again; i++)
      if (i >= n || i >= n_again || host[i] != again[i]) {
        fprintf(stderr, "first difference at word %zu: 0x%08x before, 0x%08x after (%zu and %zu words)\n",
                i, i < n ? host[i] : 0, i < n_again ? again[i] : 0, n, n_again);
        break;
      }
    fuzz_fail("disassembling and assembling changed the words", NULL);
  }
  free(host);
  free(again);
  free(text);
}

/* The passes in the order a user runs them, on a valid module m (consumed);
 * `choice` (a hash of the input) picks the OpenCL lowering's strategy and
 * helpers, so that each input takes one of them. */
static void check_passes(gac_module *m, uint32_t choice) {
  static const char *const lowerings[] = {
      "opencl",           "opencl,strategy=lines", "opencl,strategy=cooperative,helpers=always",
      "opencl,strategy=serial", "opencl,strategy=late",  "opencl,strategy=leader",
      "opencl,helpers=never",   "opencl,strategy=auto"};
  const char *const names[][2] = {{"specialize-generic-pointers", NULL},
                                  {"raise-async-copies", NULL},
                                  {"sort-blocks", NULL},
                                  {"pipeline-loops", NULL},
                                  {"check-async", NULL},
                                  {"lower-async-copies", lowerings[choice % 8]},
                                  {"remove-unused-imports", NULL}};
  gac_diag d;
  gac_diag_init(&d);
  gac_validate_options with_core = {.core = true, .target_env = -1};
  unsigned k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    if (!gac_run_pass(m, names[k][0], names[k][1], &d))
      break; /* refused with a diagnostic: allowed */
    if (!gac_validate(m, &with_core, &d)) {
      fprintf(stderr, "after --%s%s%s:\n", names[k][0], names[k][1] ? "=" : "", names[k][1] ? names[k][1] : "");
      fuzz_fail("a pass reported no error but left an invalid module", &d);
    }
  }
  if (k == sizeof names / sizeof names[0])
    fuzz_count(FUZZ_OUTPUT); /* lowered, not refused */
  gac_module_destroy(m);
  gac_diag_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = fuzz_read(data, size, &d);
  if (!m)
    return 0;

  gac_validate_options rules_only = {.core = false, .target_env = -1};
  gac_validate_options with_core = {.core = true, .target_env = -1};
  bool rules_ok = gac_validate(m, &rules_only, &d);
  gac_diag_clear(&d);
  bool all_ok = gac_validate(m, &with_core, &d);
  if (all_ok && !rules_ok)
    fuzz_fail("the GroupAsyncCopies rules gave two answers for one module", &d);
  gac_diag_clear(&d);

  uint32_t *words = NULL, *words2 = NULL;
  size_t n = 0, n2 = 0;
  if (!gac_module_write(m, &words, &n))
    fuzz_fail("gac_module_write failed", NULL);
  if (n * sizeof(uint32_t) != size || memcmp(words, data, size) != 0)
    fuzz_fail("writing an unmodified module did not give back the input", NULL);

  gac_module *m2 = gac_module_read(words, n, &d);
  if (!m2)
    fuzz_fail("the written words do not read back", &d);
  if (!gac_module_write(m2, &words2, &n2) || !same_words(words, n, words2, n2))
    fuzz_fail("writing the module read back gave different words", NULL);

  if (!known_text_gap(m))
    check_text_round_trip(m, words, n, &d);
  if (all_ok) {
    fuzz_count(FUZZ_VALID);
    check_passes(gac_module_read(words, n, &d), fuzz_hash(data, size));
  }

  free(words);
  free(words2);
  gac_module_destroy(m2);
  gac_module_destroy(m);
  gac_diag_free(&d);
  return 0;
}
