/* The static checker of async copies (`--check-async`, docs/CHECK_ASYNC.md):
 * every access to a Workgroup buffer that an async copy writes must come
 * after a wait covering that copy's group. Each access gets a verdict. */
#ifndef GAC_CHECK_ASYNC_H
#define GAC_CHECK_ASYNC_H

#include "gac/module.h"

typedef enum gac_check_verdict {
  GAC_CHECK_PROVED,    /* no copy into what it touches can be in flight */
  GAC_CHECK_UNDECIDED, /* one may be, on some path or by what the checker cannot trace */
  GAC_CHECK_VIOLATED,  /* one is, on every path of some iteration context */
} gac_check_verdict;

typedef struct gac_check_async_options {
  bool strict;  /* "cannot decide" is an error, not a warning */
  bool verbose; /* a remark for every proved access too */
} gac_check_async_options;

typedef struct gac_check_async_counts {
  size_t proved, undecided, violated;
} gac_check_async_counts;

/* Checks every function of m, adding a diagnostic per violated or undecided
 * access (and per proved one with verbose). Never changes m. counts may be NULL. */
void gac_check_async(const gac_module *m, const gac_check_async_options *options, gac_diag *diag,
                     gac_check_async_counts *counts);

/* The pass: --check-async[=strict][,verbose]. Makes no progress by design. */
bool gac_check_async_pass(gac_module *m, const char *arg, gac_diag *diag);

/* Versions. A multi-buffered buffer is a Workgroup [V x T]; the index of
 * its outer level is the version. A version is an affine value base + offset
 * (base 0: the constant offset) taken mod V, or unknown. base is an id, in
 * the pipelined loops the header's counter k. */
typedef struct gac_affine {
  uint32_t base;
  int64_t offset;
} gac_affine;

typedef struct gac_version {
  bool known;
  gac_affine value;
} gac_version;

typedef enum gac_version_relation {
  GAC_VERSION_SAME,  /* equal mod V whatever base is */
  GAC_VERSION_OTHER, /* different mod V whatever base is */
  GAC_VERSION_MAYBE, /* depends on values the checker does not know */
} gac_version_relation;

gac_version_relation gac_version_compare(gac_version a, gac_version b, uint32_t num_versions);
/* The version seen from the next iteration, where base (the counter) is one more. */
gac_version gac_version_next_iteration(gac_version v, uint32_t counter);
/* The version an index id selects out of num_versions: a constant, or
 * OpUMod(x, V), x & (V-1) for V a power of two, or (for V = 2) y ^ 1 with y
 * such a version, with x = b, b + c, c + b or b - c (b - c under OpUMod
 * only when it cannot wrap: V a power of two, or lower_bound says b >= c);
 * an index without mod is its own version (indices are in bounds).
 * Anything else is unknown. */
gac_version gac_version_of_index(const gac_module *m, uint32_t index, uint32_t num_versions,
                                 bool (*lower_bound)(void *user, uint32_t id, uint64_t *min), void *user);
/* "2", "(%k - 1) mod 2", "?" into buf. */
void gac_version_format(const gac_module *m, gac_version v, uint32_t num_versions, char *buf, size_t size);

#endif
