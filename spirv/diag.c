#include <stdlib.h>
#include <string.h>

#include "internal.h"

void gac_diag_init(gac_diag *d) { memset(d, 0, sizeof(*d)); }

void gac_diag_clear(gac_diag *d) {
  for (size_t i = 0; i < d->count; i++) {
    free(d->entries[i].rule);
    free(d->entries[i].message);
  }
  d->count = 0;
  d->error_count = 0;
}

void gac_diag_free(gac_diag *d) {
  gac_diag_clear(d);
  free(d->entries);
  memset(d, 0, sizeof(*d));
}

void gac_diag_vadd(gac_diag *d, gac_severity sev, size_t word_offset, uint32_t result_id,
                   const char *rule, const char *fmt, va_list ap) {
  if (!d)
    return;
  if (d->count == d->capacity) {
    d->capacity = d->capacity ? d->capacity * 2 : 8;
    d->entries = gac_xrealloc(d->entries, d->capacity * sizeof(*d->entries));
  }
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  char *text = gac_xmalloc(n > 0 ? (size_t)n + 1 : 1);
  vsnprintf(text, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
  d->entries[d->count++] = (gac_diag_entry){
      .severity = sev,
      .word_offset = word_offset,
      .result_id = result_id,
      .rule = rule ? gac_xstrdup(rule) : NULL,
      .message = text,
  };
  if (sev == GAC_ERROR)
    d->error_count++;
}

void gac_diag_add(gac_diag *d, gac_severity sev, size_t word_offset, uint32_t result_id,
                  const char *rule, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gac_diag_vadd(d, sev, word_offset, result_id, rule, fmt, ap);
  va_end(ap);
}

static const char *severity_name(gac_severity s) {
  switch (s) {
  case GAC_ERROR:
    return "error";
  case GAC_WARNING:
    return "warning";
  case GAC_REMARK:
    return "remark";
  }
  return "?";
}

void gac_diag_print(const gac_diag *d, FILE *out, const char *source) {
  for (size_t i = 0; i < d->count; i++) {
    const gac_diag_entry *e = &d->entries[i];
    fprintf(out, "%s: %s: ", source ? source : "<input>", severity_name(e->severity));
    if (e->word_offset != GAC_NO_OFFSET)
      fprintf(out, "word %zu: ", e->word_offset);
    if (e->result_id)
      fprintf(out, "%%%u: ", e->result_id);
    fputs(e->message, out);
    if (e->rule)
      fprintf(out, " [%s]", e->rule);
    fputc('\n', out);
  }
}

bool gac_diag_contains(const gac_diag *d, const char *needle) {
  for (size_t i = 0; i < d->count; i++) {
    if (strstr(d->entries[i].message, needle) || (d->entries[i].rule && strstr(d->entries[i].rule, needle)))
      return true;
  }
  return false;
}
