/* GAC_LAYER_LOG: the layer's decisions, one line each, for a user who wants
 * to know what happened to a program: whose it is (the layer's or the
 * driver's) and why, what the layer built for which device, whether the
 * cache answered, and what failed. Unset (the default), nothing is written.
 *   GAC_LAYER_LOG=1 or stderr   lines go to standard error
 *   GAC_LAYER_LOG=PATH          lines are appended to that file
 * Each line is one write(2) to a file opened O_APPEND, so the lines of
 * threads and processes sharing the file do not interleave. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layer_log.h"

static int log_fd = -1;
static pthread_once_t opened = PTHREAD_ONCE_INIT;

static void open_log(void) {
  const char *where = getenv("GAC_LAYER_LOG");
  if (!where || !*where || strcmp(where, "0") == 0)
    return;
  if (strcmp(where, "1") == 0 || strcmp(where, "stderr") == 0) {
    log_fd = STDERR_FILENO;
    return;
  }
  log_fd = open(where, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0)
    fprintf(stderr, "gac layer: GAC_LAYER_LOG=%s cannot be opened; the layer's log is off\n", where);
}

bool gac_layer_logging(void) {
  pthread_once(&opened, open_log);
  return log_fd >= 0;
}

void gac_layer_log(const char *format, ...) {
  if (!gac_layer_logging())
    return;
  char line[2048];
  int n = snprintf(line, sizeof line, "gac layer: ");
  va_list ap;
  va_start(ap, format);
  int m = vsnprintf(line + n, sizeof line - n - 1, format, ap);
  va_end(ap);
  size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m < sizeof line - n - 1 ? (size_t)m : sizeof line - n - 2);
  line[len++] = '\n';
  ssize_t unused = write(log_fd, line, len);
  (void)unused; /* a log that cannot be written changes nothing the host sees */
}

/* The first line of text (a build log), for a one-line record. */
const char *gac_layer_first_line(const char *text, char *buf, size_t len) {
  if (!text)
    return "";
  size_t n = strcspn(text, "\n");
  snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), text);
  return buf;
}
