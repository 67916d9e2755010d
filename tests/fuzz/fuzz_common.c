/* fuzz_common.h */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>

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
