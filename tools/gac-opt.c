/* gac-opt: read a SPIR-V module, validate it, run passes, write it back,
 * in the manner of spirv-opt. Exit 0 on success, 1 for invalid input or a
 * failed pass, 2 for usage errors. The output file is written only when
 * everything succeeded, and atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_io.h"
#include "gpu_options.h"
#include "gac/pass.h"
#include "gac/amdgcn.h"
#include "gac/ptx.h"
#include "gac/text.h"
#include "gac/validate.h"
#include "gac/version.h"

enum { EXIT_INVALID = 1, EXIT_USAGE = 2, MAX_PASSES = 64 };

typedef struct pass_request {
  const gac_pass_info *pass;
  const char *arg;
} pass_request;

static void usage(FILE *out) {
  fputs("Usage: gac-opt [options] [passes] <input.spv | -> [-o <output.spv | ->]\n"
        "\n"
        "Reads a SPIR-V binary, runs the passes in the order given and writes the result.\n"
        "\n"
        "Options:\n"
        "  -o <file>           Write the binary to <file> ('-' for stdout).\n"
        "  --validate          Validate the input, and the module after every pass: the\n"
        "                      NonSemantic.Codeplay.GroupAsyncCopies rules and SPIRV-Tools'\n"
        "                      core rules (see docs/VALIDATION.md). Without it the input\n"
        "                      is still validated before any pass runs (after --sort-blocks,\n"
        "                      a repair, when it comes first), as spirv-opt does, and the\n"
        "                      module is validated before it is written or emitted (also\n"
        "                      with no pass); only --print alone shows an invalid module.\n"
        "  --skip-validation   Run the passes on, and write, a module without validating it.\n"
        "  --no-core           With --validate, check only the GroupAsyncCopies rules.\n"
        "  --target-env=<env>  Environment for core validation (spv1.0..spv1.6, opencl1.2,\n"
        "                      opencl2.0, ...). Default: universal SPIR-V 1.6.\n"
        "  --print             Print the module (after passes) as text, with the\n"
        "                      GroupAsyncCopies instructions and operands by name.\n"
        "  --emit=ptx          After the passes, write a PTX module (every kernel) to -o\n"
        "                      instead of SPIR-V: copies and queues lowered for PTX,\n"
        "                      llvm-spirv-15 -r, LLVM 19's NVPTX backend (docs/PTX.md).\n"
        "  --sm=80|90          The PTX target: cp.async groups (80, default) or also\n"
        "                      bulk copies on mbarriers (90).\n"
        "  --sm=90,warp-specialize  Also annotated loops as a producer warp and\n"
        "                      consumers (--pipeline-loops=warp-specialize).\n"
        "  --ptx-abi=cuda|opencl  Whose launch the PTX serves: the CUDA driver's\n"
        "                      (default) or NVIDIA's OpenCL driver's, which loads it with\n"
        "                      clCreateProgramWithBinary (docs/VENDOR.md).\n"
        "  --ptx-occupancy     With --emit=ptx: .maxnreg on a fixed-size kernel where\n"
        "                      ptxas says it fits one more block per multiprocessor\n"
        "                      without spilling (docs/PTX.md).\n"
        "  --ptx-keep-tile-loads  With --emit=ptx: loads of global memory stored to\n"
        "                      shared memory before a barrier stay loads and stores\n"
        "                      rather than become cp.async (docs/PTX.md).\n"
        "  --ptx-cp-async-l1   With --emit=ptx: 16-byte cp.async units fill L1 (.ca)\n"
        "                      instead of bypassing it (.cg); faster on some kernels\n"
        "                      under NVIDIA's OpenCL driver, slower on others\n"
        "                      (docs/VENDOR.md).\n"
        "  --emit=amdgcn       After the passes, write AMDGPU code for every kernel to -o:\n"
        "                      an HSA code object if -o ends in .hsaco (ld.lld-19), else\n"
        "                      assembly (LLVM 19's AMDGPU backend, docs/AMDGCN.md).\n"
        "  --emit=amdgcn,pingpong  The same, with the pipelined loops of 8-wave kernels\n"
        "                      in two halves a cluster apart (a remark for each loop).\n"
        "  --mcpu=gfx90a|gfx942  The AMDGCN target (default gfx90a).\n"
        "  --fast-relaxed-math With --emit=ptx: the kernels were built with\n"
        "                      -cl-fast-relaxed-math (libdevice's fast math, denormals\n"
        "                      flushed).\n"
        "  --help              Show this help.\n"
        "  --version           Show the version.\n"
        "\n"
        "Passes:\n",
        out);
  for (const gac_pass_info *p = gac_passes(); p->name; p++)
    fprintf(out, "  --%-22s %s\n", p->name, p->help);
  fputs("\nExit status: 0 success, 1 invalid input or failed pass, 2 usage error.\n", out);
}

/* Passes that only report (analyses): enough to do without -o. */
static bool only_analyses(const pass_request *passes, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    if (strcmp(passes[i].pass->name, "check-async") != 0)
      return false;
  return n > 0;
}

static int usage_error(const char *fmt, const char *arg) {
  fputs("gac-opt: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'gac-opt --help'.\n", stderr);
  return EXIT_USAGE;
}

static bool report(gac_diag *d, const char *source) {
  gac_diag_print(d, stderr, source);
  bool errors = gac_diag_has_errors(d);
  gac_diag_clear(d);
  return !errors;
}

/* Runs one pass; with vopts, validates after it, as NIR does between passes:
 * a pass must leave a valid module. --pipeline-loops before --emit takes
 * what the target asks of it too (gpu_pipeline_loops). */
static bool run_pass(gac_module *m, const pass_request *p, const gpu_options *gpu, gpu_emit emit,
                     const gac_validate_options *vopts, gac_diag *diag, const char *source) {
  if (strcmp(p->pass->name, "pipeline-loops") == 0)
    gpu_pipeline_loops(m, p->arg, gpu, emit, diag);
  else
    gac_run_pass(m, p->pass->name, p->arg, diag);
  if (!report(diag, source))
    return false;
  if (vopts && !(gac_validate(m, vopts, diag), report(diag, source))) {
    fprintf(stderr, "%s: error: the module is invalid after --%s\n", source, p->pass->name);
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  const char *input = NULL, *output = NULL;
  bool validate = false, print = false, core = true, emit_ptx = false, emit_amdgcn = false, skip_validation = false;
  bool pingpong = false;
  gpu_options gpu = gpu_options_default(); /* --sm, --ptx-*, --mcpu */
  bool fast_math = false;
  int target_env = -1;
  pass_request passes[MAX_PASSES];
  unsigned num_passes = 0;

  char why[160];
  int gpu_parsed;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("gac-opt %s\n", gac_version_text());
      return 0;
    } else if (strcmp(a, "-o") == 0) {
      if (++i >= argc)
        return usage_error("%s needs a file name", "-o");
      output = argv[i];
    } else if (strcmp(a, "--validate") == 0) {
      validate = true;
    } else if (strcmp(a, "--skip-validation") == 0) {
      skip_validation = true;
    } else if (strcmp(a, "--no-core") == 0) {
      core = false;
    } else if (strcmp(a, "--print") == 0) {
      print = true;
    } else if (strcmp(a, "--emit=ptx") == 0) {
      emit_ptx = true;
    } else if (strcmp(a, "--emit=amdgcn") == 0 || strcmp(a, "--emit=amdgcn,pingpong") == 0) {
      emit_amdgcn = true;
      pingpong = a[13] == ',';
    } else if (strncmp(a, "--emit=", 7) == 0) {
      return usage_error("unknown output kind '%s' (ptx or amdgcn)", a + 7);
    } else if ((gpu_parsed = gpu_option_parse(a, &gpu, why, sizeof why)) != 0) {
      if (gpu_parsed < 0)
        return usage_error("%s", why);
    } else if (strcmp(a, "--fast-relaxed-math") == 0) {
      fast_math = true;
    } else if (strncmp(a, "--target-env=", 13) == 0) {
      target_env = gac_target_env_parse(a + 13);
      if (target_env < 0)
        return usage_error("unknown target environment '%s'", a + 13);
    } else if (strncmp(a, "--", 2) == 0) {
      char name[128];
      const char *eq = strchr(a + 2, '=');
      size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
      if (len >= sizeof name)
        return usage_error("unknown option '%s'", a);
      memcpy(name, a + 2, len);
      name[len] = '\0';
      const gac_pass_info *p = gac_pass_find(name);
      if (!p)
        return usage_error("unknown option or pass '%s'", a);
      if (num_passes == MAX_PASSES)
        return usage_error("too many passes (at most %s)", "64");
      passes[num_passes++] = (pass_request){p, eq ? eq + 1 : NULL};
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage_error("unknown option '%s'", a);
    } else if (!input) {
      input = a;
    } else {
      return usage_error("more than one input file ('%s')", a);
    }
  }
  if (!input)
    return usage_error("%s", "no input file");
  if (!output && !print && !validate && !only_analyses(passes, num_passes))
    return usage_error("%s", "nothing to do: give -o, --print, --validate or an analysis (--check-async)");
  if (emit_ptx && emit_amdgcn)
    return usage_error("%s", "--emit=ptx and --emit=amdgcn: one output kind at a time");
  bool emit = emit_ptx || emit_amdgcn;
  if (emit && (!output || print))
    return usage_error("--emit=%s writes its output to -o, and does not go with --print", emit_ptx ? "ptx" : "amdgcn");
#ifndef GAC_HAVE_PTX
  if (emit) {
    fprintf(stderr, "gac-opt: error: this gac-opt was built without LLVM 19 (llvm-19-dev); --emit=%s is not "
                    "available\n", emit_ptx ? "ptx" : "amdgcn");
    return EXIT_INVALID;
  }
#endif

  const char *source = strcmp(input, "-") == 0 ? "<stdin>" : input;
  char *bytes;
  size_t size;
  if (!read_file(input, &bytes, &size))
    return EXIT_INVALID;

  gac_diag diag;
  gac_diag_init(&diag);
  gac_module *m = gac_module_read_bytes(bytes, size, &diag);
  free(bytes);
  int status = 0;
  gac_validate_options vopts = {.core = core, .target_env = target_env};
  if (!report(&diag, source) || !m) {
    status = EXIT_INVALID;
    goto done;
  }
  /* The input is validated before the first pass that is not a repair (after
   * the leading repairs), as spirv-opt validates by default: a pass given an
   * invalid module must not write an invalid one and exit 0. A module that
   * only goes through repairs, or through no pass at all, is validated too
   * before it is written or emitted: a repair that did not fix the module
   * (--sort-blocks fixes block order only) or a plain round trip must not
   * write an invalid module either. Only --print alone (a disassembler)
   * shows an invalid module as it is. */
  gpu_emit target = emit_ptx ? GPU_EMIT_PTX : emit_amdgcn ? GPU_EMIT_AMDGCN : GPU_EMIT_NONE;
  unsigned repairs = 0;
  while (repairs < num_passes && passes[repairs].pass->repairs)
    repairs++;
  bool validate_input = validate || (!skip_validation && (num_passes > 0 || emit || output));
  bool ok = true;
  for (unsigned i = 0; ok && i < repairs; i++)
    ok = run_pass(m, &passes[i], &gpu, target, NULL, &diag, source);
  if (ok && validate_input && !(gac_validate(m, &vopts, &diag), report(&diag, source))) {
    if (!validate || repairs) /* not asked for: say why and how to go on */
      fprintf(stderr, "%s: error: the input is invalid%s (--skip-validation %s anyway)\n", source,
              repairs ? " after its repairs" : "", num_passes > repairs ? "runs the passes" : "writes it");
    ok = false;
  }
  for (unsigned i = repairs; ok && i < num_passes; i++)
    ok = run_pass(m, &passes[i], &gpu, target, validate ? &vopts : NULL, &diag, source);
  /* What the passes wrote is validated too (without --validate, once at the
   * end): never an invalid module with exit 0, whatever a pass got wrong. */
  if (ok && validate_input && !validate && num_passes > repairs &&
      !(gac_validate(m, &vopts, &diag), report(&diag, source))) {
    fprintf(stderr, "%s: error: the passes left an invalid module (a bug of gac's: please report it with the input)\n",
            source);
    ok = false;
  }
  if (!ok) {
    status = EXIT_INVALID;
    goto done;
  }

#ifdef GAC_HAVE_PTX
  if (emit_ptx) {
    char *ptx;
    size_t ptx_size;
    gac_ptx_options popts = gpu.ptx;
    popts.fast_relaxed_math = fast_math;
    ok = gac_emit_ptx(m, &popts, &ptx, &ptx_size, &diag);
    if (!report(&diag, source) || !ok || !write_file_atomic(output, ptx, ptx_size))
      status = EXIT_INVALID;
    free(ptx);
    goto done;
  }
  if (emit_amdgcn) {
    char *code;
    size_t code_size;
    size_t len = strlen(output);
    bool hsaco = len > 6 && strcmp(output + len - 6, ".hsaco") == 0;
    gac_amdgcn_options aopts = gpu.amdgcn;
    aopts.output = hsaco ? GAC_AMDGCN_CODE_OBJECT : GAC_AMDGCN_ASSEMBLY;
    aopts.fast_relaxed_math = fast_math, aopts.pingpong = pingpong;
    ok = gac_emit_amdgcn(m, &aopts, &code, &code_size, &diag);
    if (!report(&diag, source) || !ok || !write_file_atomic(output, code, code_size))
      status = EXIT_INVALID;
    free(code);
    goto done;
  }
#endif
  (void)gpu;

  uint32_t *words = NULL;
  size_t num_words = 0;
  if (!gac_module_ids_fit(m, &diag)) {
    report(&diag, source);
    status = EXIT_INVALID;
    goto done;
  }
  if (!gac_module_write(m, &words, &num_words)) {
    fprintf(stderr, "%s: error: out of memory writing the module\n", source);
    status = EXIT_INVALID;
    goto done;
  }
  if (print) {
    char *text;
    if (!gac_disassemble(words, num_words, &text, &diag)) {
      report(&diag, source);
      status = EXIT_INVALID;
    } else {
      fputs(text, stdout);
      free(text);
    }
  }
  if (status == 0 && output && !write_file_atomic(output, words, num_words * sizeof(uint32_t)))
    status = EXIT_INVALID;
  free(words);

done:
  gac_module_destroy(m);
  gac_diag_free(&diag);
  return status;
}
