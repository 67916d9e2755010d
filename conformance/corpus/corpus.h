/* The kernel corpus: OpenCL C kernels written the way people
 * write them, each built with and without the 2D/3D async copies
 * (-DGAC_ASYNC=0/1), run on a device and checked against a host reference.
 *
 * The table is device-neutral: kernels.def lists each entry's name, kernel
 * function, source and build options (CMake reads the same file to build
 * the bitcode and PTX); specs_*.c give the launch, the arguments with their
 * input generators, the reference and the comparison. A runner (OpenCL:
 * runner.c, CUDA: cuda_runner.c) supplies a corpus_backend. */
#ifndef GAC_CORPUS_H
#define GAC_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ctype {
  CT_CHAR, CT_UCHAR, CT_SHORT, CT_USHORT, CT_INT, CT_UINT, CT_LONG, CT_ULONG, CT_FLOAT, CT_DOUBLE
} ctype;

size_t ctype_size(ctype t);
bool ctype_is_float(ctype t);

/* How an input buffer is filled (deterministic: seeded by entry and argument). */
typedef enum gen {
  GEN_ZERO,  /* zero bytes (outputs, accumulators) */
  GEN_BITS,  /* any bit pattern of the type (integers only) */
  GEN_INTS,  /* integers in [lo, hi], also in float types (exact sums) */
  GEN_REAL,  /* uniform reals in [lo, hi] (float types) */
  GEN_IOTA,  /* lo, lo + 1, ... */
} gen;

typedef enum arg_kind {
  CA_END,    /* after the last argument */
  CA_IN,     /* a buffer the kernel reads (also for __constant arguments) */
  CA_OUT,    /* a buffer it writes: compared with the reference */
  CA_LOCAL,  /* a __local allocation of count elements */
  CA_SCALAR, /* a by-value argument of type `type` and value `value` */
} arg_kind;

typedef struct carg {
  arg_kind kind;
  ctype type;
  size_t count; /* elements (vector lanes counted one by one) */
  gen gen;      /* CA_IN and CA_OUT: the initial contents */
  double lo, hi;
  double value; /* CA_SCALAR */
} carg;

/* Float comparison: |got - want| <= ulp * ulp_of(want) + abs. Zero: exact. */
typedef struct tolerance {
  double ulp, abs;
} tolerance;

enum { CORPUS_MAX_ARGS = 10 };

typedef struct corpus_spec {
  unsigned dims;
  size_t global[3], local[3];
  carg args[CORPUS_MAX_ARGS];
  /* Writes the expected outputs into buf[i] of each CA_OUT argument (which
   * hold their initial contents), reading the inputs from the others;
   * buf[i] of a scalar points at its value in its C type. */
  void (*reference)(void *const *buf);
  tolerance tol;
  /* Known failures: "path.variant: reason; ..." (e.g. "cli.async: ..."),
   * matched by prefix; the runner reports them as XFAIL. */
  const char *known_failures;
} corpus_spec;

typedef struct corpus_entry {
  const char *name, *kernel, *source, *options;
  const corpus_spec *spec;
} corpus_entry;

#define CORPUS(name, kernel, source, options) extern const corpus_spec gac_spec_##name;
#include "kernels.def"
#undef CORPUS

extern const corpus_entry gac_corpus[];
extern const size_t gac_corpus_size;

/* Variants: 0 plain, 1 with the 2D/3D copies (-DGAC_ASYNC=1). */
extern const char *const gac_corpus_variants[2];

/* A device. load: the kernel of `entry` built as `variant` (NULL with a
 * message in why). run: launch it with the arguments (a buffer's host
 * memory is copied in and read back into it; a scalar's host points at its
 * bytes), returns false with a message. */
typedef struct corpus_arg {
  arg_kind kind;
  size_t size; /* bytes */
  void *host;
} corpus_arg;

typedef struct corpus_backend {
  void *self;
  const char *path; /* the name printed in the table: pocl, layer, cli, cuda */
  bool variants[2]; /* which variants this path runs */
  void *(*load)(void *self, const corpus_entry *entry, unsigned variant, char *why, size_t why_len);
  bool (*run)(void *self, void *kernel, const corpus_spec *spec, corpus_arg *args, char *why, size_t why_len);
  void (*release)(void *self, void *kernel);
} corpus_backend;

/* Runs every entry (GAC_CORPUS_ONLY=name runs the entries whose name
 * contains it) in each variant the backend runs, prints a row each and the
 * totals; with save_dir, writes each run's outputs to
 * <save_dir>/<name>.<variant>.<path>.out. Returns the number of failures. */
unsigned gac_corpus_run(const corpus_backend *backend, const char *save_dir);

/* Compares the saved outputs of every path and variant of each entry with
 * each other (bitwise, or within the entry's tolerance); prints a row each.
 * Returns the number of disagreements (and of entries with fewer than two). */
unsigned gac_corpus_compare(const char *save_dir);

/* Whether the entry lists `path.variant:` among its known failures. */
bool gac_corpus_known_failure(const corpus_entry *e, const char *path, unsigned variant);

/* Whole files are read with gac_read_file (support/subprocess.h). */
#include "subprocess.h"

#endif
