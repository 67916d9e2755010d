/* The layer's decision log (GAC_LAYER_LOG; layer_log.c says where it goes). */
#ifndef GAC_ICD_LAYER_LOG_H
#define GAC_ICD_LAYER_LOG_H

#include <stdbool.h>
#include <stddef.h>

/* Whether GAC_LAYER_LOG asks for the log (read once per process). */
bool gac_layer_logging(void);
/* One line, "gac layer: " and the text; nothing when the log is off. */
void gac_layer_log(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* text's first line, in buf. */
const char *gac_layer_first_line(const char *text, char *buf, size_t len);

#endif
