#define _POSIX_C_SOURCE 200809L
#include "file_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool read_file(const char *path, char **data, size_t *size) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "error: cannot open '%s': %s\n", path, strerror(errno));
    return false;
  }
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (!buf)
      break;
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (len < cap)
      break;
    char *bigger = realloc(buf, cap * 2 + 1);
    if (!bigger) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = bigger;
    cap *= 2;
  }
  bool ok = buf && !ferror(f);
  if (!ok)
    fprintf(stderr, "error: cannot read '%s'\n", path);
  if (f != stdin)
    fclose(f);
  if (!ok) {
    free(buf);
    return false;
  }
  buf[len] = '\0';
  *data = buf;
  *size = len;
  return true;
}

bool write_file_atomic(const char *path, const void *data, size_t size) {
  if (strcmp(path, "-") == 0) {
    bool ok = fwrite(data, 1, size, stdout) == size && fflush(stdout) == 0;
    if (!ok)
      fprintf(stderr, "error: cannot write to stdout\n");
    return ok;
  }
  size_t n = strlen(path);
  char *tmp = malloc(n + 16);
  if (!tmp)
    return false;
  snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(stderr, "error: cannot create a temporary file next to '%s': %s\n", path, strerror(errno));
    free(tmp);
    return false;
  }
  /* mkstemp makes the file 0600; give it the mode a plain fopen would. */
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  const char *p = data;
  size_t left = size;
  bool ok = true;
  while (left > 0) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      ok = false;
      break;
    }
    p += w;
    left -= (size_t)w;
  }
  ok = close(fd) == 0 && ok;
  if (ok && rename(tmp, path) != 0)
    ok = false;
  if (!ok) {
    fprintf(stderr, "error: cannot write '%s': %s\n", path, strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return ok;
}
