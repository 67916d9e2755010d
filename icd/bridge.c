/* From SPIR-V to what the wrapped driver can build: validate (the set's
 * rules and the core rules), raise builtin calls, pipeline the annotated
 * loops, then for PoCL lower the copies with the OpenCL target and hand the
 * driver SPIR-V (PoCL 5 and later) or, for PoCL 3.1, run llvm-spirv-15 -r
 * to SPIR 1.2 bitcode (a subprocess: llvm-spirv-15 has no C interface); for
 * NVIDIA's OpenCL driver emit PTX with gac's PTX path (docs/LAYER.md).
 * Results are cached by content (cache.c), keyed on the options the build
 * takes. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, strdup */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gac/opencl.h"
#include "gac/pass.h"
#include "gac/pipeline.h"
#include "gac/ptx.h"
#include "gac/validate.h"
#include "layer.h"
#include "layer_log.h"

static char *diag_text(const gac_diag *d, const char *intro) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return strdup(intro);
  fprintf(f, "%s\n", intro);
  gac_diag_print(d, f, "program IL");
  fclose(f);
  return text;
}

/* The layer's default: auto, for the wrapped device's profile; on PoCL's
 * CPU device it was no slower than cooperative (the default before) on any
 * row of bench/pocl, and faster on most (docs/LOWERING.md). */
static const char default_strategy[] = "auto";

static bool env_on(const char *name) {
  const char *v = getenv(name);
  return v && strcmp(v, "1") == 0;
}

/* GAC_LAYER_PTX_OCCUPANCY=1: PTX with --ptx-occupancy's register caps
 * (docs/PTX.md; it needs CUDA's ptxas on the machine). Off by default: it
 * has been measured on gac-opt's PTX, not through the layer. */
static bool ptx_occupancy(void) { return env_on("GAC_LAYER_PTX_OCCUPANCY"); }

/* GAC_LAYER_PTX_L1=1: 16-byte cp.async units through L1, as
 * --ptx-cp-async-l1 (faster on some kernels under NVIDIA's OpenCL driver,
 * slower on others: docs/results/VENDOR.md#the-same-ptx-through-both-drivers-cg-and-ca;
 * off by default as there). */
static bool ptx_l1(void) { return env_on("GAC_LAYER_PTX_L1"); }

/* The PTX options of NVIDIA's route: the device's sm, NVIDIA's OpenCL ABI,
 * and the two environment switches above. */
static gac_ptx_options nvidia_ptx_options(const gac_layer_target *t) {
  return (gac_ptx_options){
      .sm = t->sm, .abi = GAC_PTX_ABI_OPENCL, .tune_occupancy = ptx_occupancy(), .cp_async_l1 = ptx_l1()};
}

/* The OpenCL target's options for t: the device's (its profile, units=one,
 * events=generic), the strategy GAC_LAYER_STRATEGY names (default auto);
 * false if it names none. */
static bool opencl_options(const gac_layer_target *t, gac_opencl_options *o) {
  const char *strategy = getenv("GAC_LAYER_STRATEGY") ? getenv("GAC_LAYER_STRATEGY") : default_strategy;
  char arg[64];
  gac_opencl_options named;
  if (strchr(strategy, ',') || snprintf(arg, sizeof arg, "opencl,strategy=%s", strategy) >= (int)sizeof arg ||
      !gac_opencl_options_parse(arg, &named))
    return false;
  *o = t->opencl;
  o->strategy = named.strategy;
  return true;
}

/* The cache's name of what is built, from the options the build takes (one
 * spelling for one build: gac_opencl_options_format), which keeps the
 * targets apart. */
static void target_key(const gac_layer_target *t, const gac_opencl_options *opencl, char *key, size_t n) {
  if (t->kind == GAC_LAYER_PTX) {
    gac_ptx_options o = nvidia_ptx_options(t);
    snprintf(key, n, "ptx,sm=%u,abi=opencl%s%s", o.sm, o.tune_occupancy ? ",occupancy" : "",
             o.cp_async_l1 ? ",l1" : "");
  } else {
    gac_opencl_options_format(opencl, key, n);
  }
}

/* --pipeline-loops with what the target asks of pipelined loops: PTX's
 * (gac_ptx_pipeline_wants); the OpenCL target asks nothing. True when the
 * pass reported no error. */
static bool pipeline_loops(gac_module *m, const gac_layer_target *t, gac_diag *d) {
  gac_pipeline_loops_options po = {0};
  if (t->kind == GAC_LAYER_PTX) {
    gac_ptx_options o = nvidia_ptx_options(t);
    gac_ptx_pipeline_wants(&o, &po);
  }
  gac_pipeline_loops_with(m, &po, d);
  return gac_pass_succeeded(m, "pipeline-loops", d);
}

/* m (raised, pipelined, valid) as PTX for NVIDIA's OpenCL driver: gac's PTX
 * path lowers the copies itself. The text with its NUL, as the driver
 * takes PTX. */
static bool emit_nvidia_ptx(gac_module *m, const gac_layer_target *t, unsigned char **out, size_t *out_size,
                            char **log) {
  if (!t->sm) {
    char text[200];
    snprintf(text, sizeof text,
             "gac layer: gac's PTX path needs an NVIDIA GPU of compute capability 8.0 or later "
             "(cp.async); this one is %u.%u",
             t->compute_capability / 10, t->compute_capability % 10);
    *log = strdup(text);
    return false;
  }
  gac_diag d;
  gac_diag_init(&d);
  gac_ptx_options o = nvidia_ptx_options(t);
  char *ptx = NULL;
  size_t size = 0;
  bool ok = gac_emit_ptx(m, &o, &ptx, &size, &d);
  if (!ok)
    *log = diag_text(&d, "gac layer: emitting PTX failed:");
  gac_diag_free(&d);
  *out = (unsigned char *)ptx;
  *out_size = ok ? size + 1 : 0;
  return ok;
}

/* The warnings among d's entries (a loop --pipeline-loops left as written,
 * say), as build-log text; NULL if none. */
static char *warnings_text(const gac_diag *d) {
  gac_diag w;
  gac_diag_init(&w);
  for (size_t i = 0; i < d->count; i++)
    if (d->entries[i].severity == GAC_WARNING)
      gac_diag_add(&w, GAC_WARNING, d->entries[i].word_offset, d->entries[i].result_id, d->entries[i].rule, "%s",
                   d->entries[i].message);
  char *text = w.count ? diag_text(&w, "gac layer: warnings:") : NULL;
  gac_diag_free(&w);
  return text;
}

bool gac_bridge_il(const void *il, size_t size, const gac_layer_target *t, unsigned char **bc, size_t *bc_size,
                   char **log, char **warnings) {
  char lower_arg[128], salt[160], key[1024] = "", warnings_path[1100]; /* key stays empty when caching is off */
  *warnings = NULL;
  gac_opencl_options opencl_opts = {0};
  if (t->kind != GAC_LAYER_PTX && !opencl_options(t, &opencl_opts)) {
    char text[200];
    snprintf(text, sizeof text,
             "gac layer: GAC_LAYER_STRATEGY=%.64s: expected lines, cooperative, leader, auto, serial or late",
             getenv("GAC_LAYER_STRATEGY"));
    *log = strdup(text);
    return false;
  }
  target_key(t, &opencl_opts, lower_arg, sizeof lower_arg);
  snprintf(salt, sizeof salt, "%s%s%s", lower_arg, t->kind == GAC_LAYER_SPIRV ? " spirv" : "",
           t->loops_as_written ? " as-written" : "");
  bool cached = gac_layer_cache_key(salt, il, size, key, sizeof key);
  snprintf(warnings_path, sizeof warnings_path, "%s.warnings", key);
  if (cached && gac_layer_cache_lookup(key, ".spv", ".bc", il, size, bc, bc_size)) {
    gac_layer_log("a module of %zu bytes (%s): from the layer's cache, %s.bc", size, lower_arg, key);
    size_t n;
    *warnings = gac_read_file(warnings_path, &n); /* an entry with warnings has them beside it */
    return true;
  }

  bool opencl = t->kind != GAC_LAYER_PTX; /* the OpenCL target lowers the copies */
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = gac_module_read_bytes(il, size, &d);
  bool ok = m != NULL;
  gac_validate_options vopts = {.core = true, .target_env = -1};
  if (!ok)
    *log = diag_text(&d, "gac layer: the IL is not a SPIR-V module gac can read:");
  /* llvm-spirv-15 orders some loops' blocks against SPIR-V's rule: fix that first. */
  else if (!gac_run_pass(m, "sort-blocks", NULL, &d) || !gac_validate(m, &vopts, &d))
    *log = diag_text(&d, "gac layer: the SPIR-V module is invalid:");
  /* OpenCL C 2.0/3.0 hands builtins generic pointers PoCL 3.1 has no overloads for. */
  else if (!gac_run_pass(m, "specialize-generic-pointers", NULL, &d) ||
           !gac_run_pass(m, "raise-async-copies", NULL, &d) ||
           /* The lowering runs loops the pipeliner did not see as written. */
           (!t->loops_as_written && !pipeline_loops(m, t, &d)) ||
           (opencl && (gac_lower_opencl(m, &opencl_opts, &d), !gac_pass_succeeded(m, "lower-async-copies", &d))))
    *log = diag_text(&d, "gac layer: lowering failed:");
  else if (!gac_validate(m, &vopts, &d))
    *log = diag_text(&d, "gac layer: internal error: the lowered module is invalid:");
  ok = ok && !gac_diag_has_errors(&d);
  uint32_t *words = NULL;
  size_t n = 0;
  if (ok && !opencl) {
    ok = emit_nvidia_ptx(m, t, bc, bc_size, log);
  } else if (ok) {
    if (!gac_module_ids_fit(m, &d)) {
      *log = diag_text(&d, "gac layer: lowering failed:");
      ok = false;
    }
    if (ok && !gac_module_write(m, &words, &n)) {
      *log = strdup("gac layer: out of memory");
      ok = false;
    }
    if (ok && t->kind == GAC_LAYER_SPIRV) {
      *bc = (unsigned char *)words, *bc_size = n * sizeof *words;
      words = NULL;
    } else {
      ok = ok && gac_spirv_to_bitcode(words, n, NULL, bc, bc_size, log);
    }
    if (ok && t->kind == GAC_LAYER_SPIR && !gac_check_pocl_links(*bc, *bc_size, log)) {
      free(*bc);
      *bc = NULL;
      ok = false;
    }
  }
  if (ok)
    *warnings = warnings_text(&d);
  gac_layer_log("a module of %zu bytes (%s): %s%s", size, lower_arg, ok ? "bridged" : "failed",
                ok && *warnings ? ", with warnings" : "");
  /* The warnings before the entry: an entry never lacks its warnings. */
  if (ok && cached && (!*warnings || gac_write_file(warnings_path, *warnings, strlen(*warnings))))
    gac_layer_cache_store(key, ".spv", ".bc", il, size, *bc, *bc_size);
  free(words);
  gac_module_destroy(m);
  gac_diag_free(&d);
  return ok;
}

bool gac_raise_il(const void *il, size_t size, void **out, size_t *out_size, char **log) {
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = gac_module_read_bytes(il, size, &d);
  uint32_t *words = NULL;
  size_t n = 0;
  bool ok = m && gac_run_pass(m, "raise-async-copies", NULL, &d) && gac_module_write(m, &words, &n);
  if (!ok)
    *log = diag_text(&d, "gac layer: cannot raise the builtins of a module to link:");
  *out = words;
  *out_size = n * sizeof(uint32_t);
  gac_module_destroy(m);
  gac_diag_free(&d);
  return ok;
}
