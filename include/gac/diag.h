/* Diagnostics: what went wrong, where (word offset, result id) and which rule. */
#ifndef GAC_DIAG_H
#define GAC_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum gac_severity {
  GAC_ERROR,
  GAC_WARNING,
  GAC_REMARK,
} gac_severity;

#define GAC_NO_OFFSET SIZE_MAX

typedef struct gac_diag_entry {
  gac_severity severity;
  size_t word_offset;   /* word index in the input binary, GAC_NO_OFFSET if none */
  uint32_t result_id;   /* 0 if the instruction has none */
  char *rule;           /* short rule tag, e.g. "GroupAsyncCopies.SourceStorageClass" */
  char *message;
} gac_diag_entry;

typedef struct gac_diag {
  gac_diag_entry *entries;
  size_t count, capacity;
  size_t error_count;
} gac_diag;

void gac_diag_init(gac_diag *d);
void gac_diag_free(gac_diag *d);
void gac_diag_clear(gac_diag *d);

#if defined(__GNUC__)
#define GAC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GAC_PRINTF(f, a)
#endif

void gac_diag_add(gac_diag *d, gac_severity sev, size_t word_offset,
                  uint32_t result_id, const char *rule, const char *fmt, ...)
    GAC_PRINTF(6, 7);
void gac_diag_vadd(gac_diag *d, gac_severity sev, size_t word_offset,
                   uint32_t result_id, const char *rule, const char *fmt,
                   va_list ap);

static inline bool gac_diag_has_errors(const gac_diag *d) {
  return d && d->error_count > 0;
}

/* One line per entry: "<source>: error: word 42: %17: <message> [rule]". */
void gac_diag_print(const gac_diag *d, FILE *out, const char *source);

/* True if any entry's message or rule contains needle (for tests). */
bool gac_diag_contains(const gac_diag *d, const char *needle);

#endif
