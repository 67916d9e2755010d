/* libFuzzer target: read, validate, write, disassemble, assemble.
 *
 * For any input the reader accepts:
 *   - both validators run (GroupAsyncCopies rules alone, then with SPIRV-Tools' core rules);
 *   - writing gives back the input bytes exactly (module.h's promise);
 *   - the written words read again, and writing that gives the same words;
 *   - gac_disassemble's text assembles with gac_assemble to the same words
 *     (in host byte order: the assembler writes the host's).
 * An input the reader rejects must come with an error. Any violation aborts, so
 * that libFuzzer records the input as a crash. See README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/module.h"
#include "gac/text.h"
#include "gac/validate.h"

/* Inputs whose header bound exceeds this are skipped: the reader sizes its id
 * table by the largest id (see README.md, "Known issues"). 0 disables the filter. */
#ifndef GAC_FUZZ_MAX_BOUND
#define GAC_FUZZ_MAX_BOUND 0x400000u
#endif

static void fail(const char *what, const gac_diag *d) {
  fprintf(stderr, "fuzz_read_validate_write: %s\n", what);
  if (d)
    gac_diag_print(d, stderr, "fuzz");
  abort();
}

static bool same_words(const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
  return na == nb && memcmp(a, b, na * sizeof(uint32_t)) == 0;
}

static uint32_t header_bound(const uint8_t *data, size_t size) {
  uint32_t w[4];
  if (size < sizeof w)
    return 0;
  memcpy(w, data, sizeof w);
  return w[0] == 0x03022307u ? __builtin_bswap32(w[3]) : w[3];
}

/* Inputs the text round trip cannot yet reproduce, each a known library issue
 * (README.md, "Known issues"); -DGAC_FUZZ_STRICT=1 checks them all the same. */
#ifndef GAC_FUZZ_STRICT
#define GAC_FUZZ_STRICT 0
#endif

static void find_known_gap(gac_inst *inst, void *user) {
  const char **gap = user;
  /* 2. Literals of integer types wider than 64 bits or floats other than 16/32/64 bits:
   *    SPIRV-Tools prints them but will not assemble them. */
  if (inst->opcode == SpvOpTypeInt && inst->num_words > 2 && (inst->words[2] > 64 || inst->words[2] == 0))
    *gap = "integer width";
  if (inst->opcode == SpvOpTypeFloat && inst->num_words > 2 && inst->words[2] != 16 &&
      inst->words[2] != 32 && inst->words[2] != 64)
    *gap = "float width";
  for (unsigned i = 0; i < inst->num_operands && !*gap; i++) {
    const gac_operand *o = &inst->operands[i];
    if (o->kind != GAC_OPERAND_STRING)
      continue;
    /* 1. A string's padding after its NUL must be zero; text has no way to keep it. */
    const char *bytes = (const char *)&inst->words[o->offset];
    size_t len = strlen(bytes), total = o->num_words * sizeof(uint32_t);
    for (size_t b = len; b < total; b++)
      if (bytes[b])
        *gap = "nonzero padding after a string";
  }
}

static const char *known_text_gap(const gac_module *m) {
  const char *gap = NULL;
  if (!GAC_FUZZ_STRICT)
    gac_module_visit((gac_module *)m, find_known_gap, &gap);
  return gap;
}

static void check_text_round_trip(const gac_module *m, const uint32_t *words, size_t n, gac_diag *d) {
  char *text = NULL;
  if (!gac_disassemble(words, n, &text, d))
    fail("a module that was read does not disassemble", d);
  uint32_t *again = NULL;
  size_t n_again = 0;
  if (!gac_assemble(text, strlen(text), &again, &n_again, d)) {
    fprintf(stderr, "%s", text);
    fail("the disassembly does not assemble", d);
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
    fail("disassembling and assembling changed the words", NULL);
  }
  free(host);
  free(again);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (GAC_FUZZ_MAX_BOUND && header_bound(data, size) > GAC_FUZZ_MAX_BOUND)
    return -1; /* not added to the corpus */
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = gac_module_read_bytes(data, size, &d);
  if (!m) {
    if (!gac_diag_has_errors(&d))
      fail("the reader rejected the input without an error", &d);
    gac_diag_free(&d);
    return 0;
  }
  if (gac_diag_has_errors(&d))
    fail("the reader accepted the input but reported an error", &d);

  gac_validate_options rules_only = {.core = false, .target_env = -1};
  gac_validate_options with_core = {.core = true, .target_env = -1};
  bool rules_ok = gac_validate(m, &rules_only, &d);
  gac_diag_clear(&d);
  bool all_ok = gac_validate(m, &with_core, &d);
  if (all_ok && !rules_ok)
    fail("core validation passed a module the GroupAsyncCopies rules reject", &d);
  gac_diag_clear(&d);

  uint32_t *words = NULL, *words2 = NULL;
  size_t n = 0, n2 = 0;
  if (!gac_module_write(m, &words, &n))
    fail("gac_module_write failed", NULL);
  if (n * sizeof(uint32_t) != size || memcmp(words, data, size) != 0)
    fail("writing an unmodified module did not give back the input", NULL);

  gac_module *m2 = gac_module_read(words, n, &d);
  if (!m2)
    fail("the written words do not read back", &d);
  if (!gac_module_write(m2, &words2, &n2) || !same_words(words, n, words2, n2))
    fail("writing the module read back gave different words", NULL);

  if (!known_text_gap(m))
    check_text_round_trip(m, words, n, &d);

  free(words);
  free(words2);
  gac_module_destroy(m2);
  gac_module_destroy(m);
  gac_diag_free(&d);
  return 0;
}
