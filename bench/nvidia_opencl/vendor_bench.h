/* What vendor_bench.c shares with the rest of the vendor benchmark
 * (vendor_corpus.c): the OpenCL context, the timing and the table. */
#ifndef GAC_VENDOR_BENCH_H
#define GAC_VENDOR_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "nvcl.h"

enum { WARMUP = 3, REPS = 21, MAX_ROWS = 24 };

typedef struct row {
  char label[48];
  bool ran, ok;
  double ms, value;
  double build_ms; /* clCreateProgram* and clBuildProgram, wall */
} row;

/* A row's build: the kernel file (NULL: the table's own), how it is built
 * (a PTX file's tag, or a way of NVIDIA's compiler) and its label. */
typedef struct variant {
  const char *file, *how, *label;
} variant;

extern nvcl cl;
/* VENDOR_EXTRA's tags, in order: rows every table adds. */
extern variant extra[MAX_ROWS];
extern unsigned num_extra;
extern const char *src_dir, *ptx_dir;

double wall_ms(void);
/* A deterministic 64-bit value for index i (splitmix64): the inputs. */
unsigned long long vendor_hash(size_t i, unsigned seed);
/* Kernel `name` of the OpenCL C file `path`, built by NVIDIA's compiler with
 * `options`; with vendor_copies.h in front and `define` (VENDOR_1D or
 * VENDOR_PLAIN) defined, unless define is NULL. NULL (with a message) if it
 * does not build. */
cl_kernel vendor_build_source(const char *path, const char *define, const char *options, const char *name,
                              cl_program *program);
/* Kernel `name` of the PTX file `path` (gac's, NVIDIA's OpenCL ABI). */
cl_kernel vendor_build_ptx(const char *path, const char *name, cl_program *program);
/* rows[i].ms: the median milliseconds of REPS launches of k[i] (after
 * WARMUP), from profiled events, and rows[i].value, work per second. The
 * kernels take turns, one launch each, so that drift in the card's clock
 * over a table weighs on every row alike. Then k[i] and p[i] are released;
 * a NULL kernel is skipped (its row keeps ms and value 0). At most MAX_ROWS. */
void time_rows(row *rows, cl_kernel *k, cl_program *p, unsigned n, unsigned dims, const size_t *global,
               const size_t *local, double work);
/* The table of rows, with each row's ratio to each of refs (labels), and a
 * RESULT line per row. */
void print_table(const char *title, const char *unit, row *rows, unsigned n, const char *const *refs,
                 unsigned num_refs);

/* vendor_corpus.c: the kernel corpus' tile-copying kernels; false if a
 * result is wrong or missing. */
bool bench_corpus(void);

#endif
