/* fuzz_common.h */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gac/validate.h"

void fuzz_fail(const char *what, const gac_diag *d) {
  fprintf(stderr, "fuzz: %s\n", what);
  if (d)
    gac_diag_print(d, stderr, "fuzz");
  abort();
}

static unsigned long long counts[FUZZ_STAGES];

static void print_counts(void) {
  unsigned long long n = counts[FUZZ_INPUT] ? counts[FUZZ_INPUT] : 1;
  fprintf(stderr, "gac-fuzz-stats: inputs %llu read %llu (%.1f%%) valid %llu (%.1f%%) output %llu (%.1f%%)\n",
          counts[FUZZ_INPUT], counts[FUZZ_READ], 100.0 * counts[FUZZ_READ] / n, counts[FUZZ_VALID],
          100.0 * counts[FUZZ_VALID] / n, counts[FUZZ_OUTPUT], 100.0 * counts[FUZZ_OUTPUT] / n);
}

void fuzz_count(fuzz_stage s) {
  static int on = -1;
  if (on < 0) {
    const char *e = getenv("GAC_FUZZ_STATS");
    on = e && *e && *e != '0';
    if (on)
      atexit(print_counts);
  }
  counts[s]++;
}

gac_module *fuzz_read(const uint8_t *data, size_t size, gac_diag *d) {
  fuzz_count(FUZZ_INPUT);
  gac_module *m = gac_module_read_bytes(data, size, d);
  if (!m) {
    if (!gac_diag_has_errors(d))
      fuzz_fail("the reader rejected the input without an error", d);
    gac_diag_free(d);
    return NULL;
  }
  if (gac_diag_has_errors(d))
    fuzz_fail("the reader accepted the input but reported an error", d);
  fuzz_count(FUZZ_READ);
  return m;
}

gac_module *fuzz_read_valid(const uint8_t *data, size_t size, gac_diag *d) {
  gac_module *m = fuzz_read(data, size, d);
  if (!m)
    return NULL;
  gac_validate_options with_core = {.core = true, .target_env = -1};
  if (!gac_validate(m, &with_core, d)) {
    gac_module_destroy(m);
    gac_diag_free(d);
    return NULL;
  }
  fuzz_count(FUZZ_VALID);
  gac_diag_clear(d);
  return m;
}

uint32_t fuzz_hash(const uint8_t *data, size_t size) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < size; i++)
    h = (h ^ data[i]) * 16777619u;
  return h;
}

bool fuzz_has_rule_suffix(const gac_diag *d, const char *suffix) {
  for (size_t i = 0; i < d->count; i++) {
    const char *r = d->entries[i].rule;
    size_t n = r ? strlen(r) : 0, k = strlen(suffix);
    if (n >= k && strcmp(r + n - k, suffix) == 0)
      return true;
  }
  return false;
}
