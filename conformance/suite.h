/* The conformance suite (suite.c) and what a device's runner provides. */
#ifndef GAC_CONFORMANCE_SUITE_H
#define GAC_CONFORMANCE_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct arg {
  enum { ARG_BUFFER, ARG_LOCAL, ARG_U64, ARG_I32 } kind;
  size_t size;     /* bytes of a buffer or local allocation */
  void *host;      /* buffer contents, in and out */
  uint64_t value;
} arg;

#define BUF(ptr, bytes) ((arg){ARG_BUFFER, (bytes), (ptr), 0})
#define LOCAL(bytes) ((arg){ARG_LOCAL, (bytes), NULL, 0})
#define U64(v) ((arg){ARG_U64, 0, NULL, (v)})
#define I32(v) ((arg){ARG_I32, 0, NULL, (v)})

/* A device: load kernel `kernel` of program `program` (NULL with a message
 * in why), run it over global/local (dims 1 or 2) with buffers read back
 * into their host memory (the kernel's time in ms, or -1 with a message),
 * release it. */
typedef struct gac_backend {
  void *self;
  void *(*load)(void *self, const char *program, const char *kernel, char *why, size_t why_len);
  double (*run)(void *self, void *kernel, arg *args, unsigned n, unsigned dims, const size_t *global,
                const size_t *local, char *why, size_t why_len);
  void (*release)(void *self, void *kernel);
} gac_backend;

/* Runners read whole files with gac_read_file (support/subprocess.h). */
#include "subprocess.h"

/* Runs every case on the backend and prints a row for each and the totals;
 * returns the number that failed. */
unsigned gac_conformance_suite(const gac_backend *backend);

#endif
