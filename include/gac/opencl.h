/* The OpenCL target's copy lowering with its options typed
 * (--lower-async-copies=opencl[,...], docs/LOWERING.md): copies and waits
 * in core SPIR-V any OpenCL device accepts, by the strategy asked for. A
 * driver or layer fills gac_opencl_options and calls gac_lower_opencl;
 * gac_opencl_options_format writes the same options as the pass's
 * argument, one spelling for one set of options (a cache key). */
#ifndef GAC_OPENCL_H
#define GAC_OPENCL_H

#include <stddef.h>

#include "gac/module.h"

typedef enum gac_opencl_strategy {
  GAC_OPENCL_LINES,       /* a core OpGroupAsyncCopy per line */
  GAC_OPENCL_COOPERATIVE, /* the work-items share units of 16, 8, 4 or 1 bytes (the default) */
  GAC_OPENCL_SERIAL,      /* work-item 0 copies byte by byte (a benchmark baseline) */
  GAC_OPENCL_LATE,        /* copies land at their waits, for testing (docs/LOWERING.md) */
  GAC_OPENCL_LEADER,      /* work-item 0 copies line after line */
  GAC_OPENCL_AUTO,        /* per copy, by the device's profile */
} gac_opencl_strategy;

/* The device profile auto chooses for (and PoCL's CPU device also gets its
 * local size clamped, pocl_local_size.c). */
typedef enum gac_opencl_device { GAC_OPENCL_DEVICE_POCL_CPU, GAC_OPENCL_DEVICE_GPU } gac_opencl_device;

typedef enum gac_opencl_helpers {
  GAC_OPENCL_HELPERS_AUTO,   /* copies in helper functions, except where inlining pays */
  GAC_OPENCL_HELPERS_ALWAYS, /* every copy that can be called */
  GAC_OPENCL_HELPERS_NEVER,  /* every copy inlined */
} gac_opencl_helpers;

typedef struct gac_opencl_options {
  gac_opencl_strategy strategy;
  gac_opencl_device device;
  gac_opencl_helpers helpers;
  bool one_unit_loop;  /* units=one: one loop per copy, no branch on the unit width */
  bool generic_events; /* events=generic: waits take their events list as a generic pointer */
} gac_opencl_options;

/* cooperative, PoCL's CPU device, helpers=auto, no flag. */
gac_opencl_options gac_opencl_options_default(void);
/* opencl[,strategy=S][,device=D][,helpers=H][,units=one][,events=generic]
 * into *o (the defaults, then each word); false if arg is not such an
 * argument. NULL: the defaults. */
bool gac_opencl_options_parse(const char *arg, gac_opencl_options *o);
/* *o as that argument, every field spelt out in that order
 * ("opencl,strategy=auto,device=pocl-cpu,helpers=auto,units=one"): the
 * length snprintf would write. */
int gac_opencl_options_format(const gac_opencl_options *o, char *buf, size_t len);
/* --lower-async-copies with these options: the copies and waits lowered,
 * then the names and non-semantic instructions left on what was deleted
 * removed; progress, errors in diag (gac_pass_succeeded says which). */
bool gac_lower_opencl(gac_module *m, const gac_opencl_options *o, gac_diag *diag);

#endif
