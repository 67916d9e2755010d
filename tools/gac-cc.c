/* gac-cc: OpenCL C to the SPIR-V module gac's passes take, in one step:
 * clang-15 with the builtins' header, `freeze` taken out, llvm-spirv-15
 * (support/opencl_c.c), then block order repaired, builtins given named
 * pointers, the 2D/3D builtin calls raised to GroupAsyncCopy2D2D/3D3D, and
 * the result validated; then, in the same step if asked, pipelined
 * (--pipeline-loops), lowered (--emit=lowered) or emitted as PTX or AMDGCN
 * code, as gac-opt would do from the raised module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_io.h"
#include "gpu_options.h"
#include "gac/amdgcn.h"
#include "gac/pass.h"
#include "gac/ptx.h"
#include "gac/validate.h"
#include "gac/version.h"
#include "subprocess.h"

enum { EXIT_INVALID = 1, EXIT_USAGE = 2, MAX_ARGS = 120 };

static void usage(FILE *out) {
  fputs("Usage: gac-cc [options] <input.cl> -o <output | ->\n"
        "\n"
        "Compiles OpenCL C (with async_work_group_copy_2D2D/_3D3D, declared by gac's\n"
        "header, which is included) to SPIR-V 1.0 with clang-15 and llvm-spirv-15, and\n"
        "prepares it for gac-opt: --split-event-selects, --sort-blocks, --specialize-generic-pointers,\n"
        "--raise-async-copies, then validation.\n"
        "\n"
        "Options:\n"
        "  -o <file>        The output ('-' for stdout); written only on success.\n"
        "  --raw            Write the translator's module as it is (no gac passes).\n"
        "  --pipeline-loops Software-pipeline the annotated loops (gac-opt --pipeline-loops;\n"
        "                   with --emit=ptx, =wide-copies).\n"
        "  --emit=KIND      What to write: raised (default: the module gac-opt takes),\n"
        "                   lowered[=STRATEGY] (core SPIR-V for OpenCL; STRATEGY as for\n"
        "                   gac-opt --lower-async-copies=opencl,strategy=, default\n"
        "                   cooperative), ptx (with --sm=80|90|90,warp-specialize), amdgcn (with\n"
        "                   --mcpu=gfx90a|gfx942; a code object if -o ends in .hsaco),\n"
        "                   amdgcn,pingpong (8-wave pipelined loops ping-ponged).\n"
        "  --ptx-abi=cuda|opencl  With --emit=ptx: for the CUDA driver (default) or\n"
        "                   for NVIDIA's OpenCL driver (clCreateProgramWithBinary).\n"
        "  --ptx-occupancy  With --emit=ptx: .maxnreg on a fixed-size kernel where ptxas\n"
        "                   says it fits one more block per multiprocessor unspilled.\n"
        "  --ptx-cp-async-l1  With --emit=ptx: 16-byte cp.async units through L1 (.ca).\n"
        "  --ptx-keep-tile-loads  With --emit=ptx: loads of global memory stored to local\n"
        "                   memory before a barrier stay loads (not cp.async).\n"
        "                   -cl-fast-relaxed-math also selects fast math for ptx/amdgcn.\n"
        "  -m32             A 32-bit device (spir); default 64-bit (spir64).\n"
        "  -cl-std=CLx.y    OpenCL C version (default CL1.2).\n"
        "  -O0..-O3         Optimisation (default -O2).\n"
        "  -D..., -I..., -cl-..., -w, -Werror   Passed on to clang-15.\n"
        "  --help           Show this help.\n"
        "  --version        Show the version and the commit.\n"
        "\n"
        "Exit status: 0 success, 1 a compile error or an invalid module, 2 usage error.\n",
        out);
}

static int usage_error(const char *what, const char *arg) {
  fprintf(stderr, "gac-cc: %s%s\nTry 'gac-cc --help'.\n", what, arg);
  return EXIT_USAGE;
}

static bool is_clang_option(const char *a) {
  static const char *const prefixes[] = {"-D", "-U", "-I", "-cl-", "-O", "-w", "-Werror", "-W"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (strncmp(a, prefixes[i], strlen(prefixes[i])) == 0)
      return true;
  return false;
}

static bool print_diags(gac_diag *d, const char *source) {
  gac_diag_print(d, stderr, source);
  bool ok = !gac_diag_has_errors(d);
  gac_diag_clear(d);
  return ok;
}

int main(int argc, char **argv) {
  const char *input = NULL, *output = NULL, *std = "-cl-std=CL1.2", *opt = "-O2";
  const char *emit = "raised";
  bool raw = false, m32 = false, pipeline = false, fast_math = false;
  gpu_options gpu = gpu_options_default(); /* --sm, --ptx-*, --mcpu */
  char why[160];
  int gpu_parsed;
  char *user[MAX_ARGS];
  unsigned n_user = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("gac-cc %s\n", gac_version_text());
      return 0;
    } else if (strcmp(a, "-o") == 0) {
      if (++i >= argc)
        return usage_error("-o needs a file name", "");
      output = argv[i];
    } else if (strcmp(a, "--raw") == 0) {
      raw = true;
    } else if (strcmp(a, "-m32") == 0) {
      m32 = true;
    } else if (strcmp(a, "--pipeline-loops") == 0) {
      pipeline = true;
    } else if (strncmp(a, "--emit=", 7) == 0) {
      emit = a + 7;
      if (strcmp(emit, "raised") != 0 && strncmp(emit, "lowered", 7) != 0 && strcmp(emit, "ptx") != 0 &&
          strcmp(emit, "amdgcn") != 0 && strcmp(emit, "amdgcn,pingpong") != 0)
        return usage_error("unknown output kind (raised, lowered[=S], ptx, amdgcn): ", a);
    } else if ((gpu_parsed = gpu_option_parse(a, &gpu, why, sizeof why)) != 0) {
      if (gpu_parsed < 0)
        return usage_error("", why);
    } else if (strncmp(a, "-cl-std=", 8) == 0) {
      std = a;
    } else if (strncmp(a, "-O", 2) == 0) {
      opt = a;
    } else if ((strcmp(a, "-D") == 0 || strcmp(a, "-I") == 0) && i + 1 < argc && n_user + 2 < MAX_ARGS) {
      user[n_user++] = argv[i];
      user[n_user++] = argv[++i];
    } else if (is_clang_option(a) && n_user + 1 < MAX_ARGS) {
      fast_math |= strcmp(a, "-cl-fast-relaxed-math") == 0;
      user[n_user++] = argv[i];
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage_error("unknown option ", a);
    } else if (!input) {
      input = a;
    } else {
      return usage_error("more than one input file: ", a);
    }
  }
  if (!input || !output)
    return usage_error("give an input file and -o", "");

  char dir[32];
  if (!gac_scratch_dir(dir)) {
    fputs("gac-cc: error: cannot create a scratch folder in /tmp\n", stderr);
    return EXIT_INVALID;
  }
  char header[64], spv[64], log_path[64];
  snprintf(header, sizeof header, "%s/extended_async_copies.h", dir);
  snprintf(spv, sizeof spv, "%s/out.spv", dir);
  snprintf(log_path, sizeof log_path, "%s/log", dir);
  char *args[MAX_ARGS + 16];
  unsigned n = 0;
  args[n++] = "-triple";
  args[n++] = m32 ? "spir-unknown-unknown" : "spir64-unknown-unknown";
  args[n++] = (char *)std;
  args[n++] = (char *)opt;
  args[n++] = "-finclude-default-header";
  args[n++] = "-include";
  args[n++] = header;
  for (unsigned i = 0; i < n_user; i++)
    args[n++] = user[i];
  args[n++] = (char *)input;
  args[n] = NULL;
  bool ok = gac_write_file(header, gac_header_text, strlen(gac_header_text)) &&
            gac_opencl_c_to_spirv(args, dir, spv, log_path);
  size_t size = 0;
  char *log = gac_read_file(log_path, &size);
  if (log)
    fputs(log, stderr);
  free(log);
  char *bytes = ok ? gac_read_file(spv, &size) : NULL;
  gac_scratch_remove(dir);
  if (!bytes) {
    fprintf(stderr, "gac-cc: error: %s did not compile\n", input);
    return EXIT_INVALID;
  }

  int status = 0;
  gac_diag diag;
  gac_diag_init(&diag);
  gac_module *m = NULL;
  uint32_t *words = NULL;
  size_t num_words = 0;
  if (raw) {
    ok = write_file_atomic(output, bytes, size);
    status = ok ? 0 : EXIT_INVALID;
    goto done;
  }
  m = gac_module_read_bytes(bytes, size, &diag);
  static const char *const passes[] = {"split-event-selects", "sort-blocks", "specialize-generic-pointers",
                                       "raise-async-copies"};
  for (size_t i = 0; m && i < sizeof passes / sizeof *passes && print_diags(&diag, input); i++)
    gac_run_pass(m, passes[i], NULL, &diag);
  gac_validate_options vopts = {.core = true, .target_env = -1};
  ok = m && print_diags(&diag, input) && gac_validate(m, &vopts, &diag) && print_diags(&diag, input);
  /* With --sm=90,warp-specialize the PTX step pipelines the loops itself. */
  if (ok && pipeline && !(gpu.ptx.warp_specialize && strcmp(emit, "ptx") == 0))
    /* With what the target of --emit asks of pipelined loops (gac/pipeline.h). */
    ok = (gpu_pipeline_loops(m, NULL, &gpu,
                             strcmp(emit, "ptx") == 0      ? GPU_EMIT_PTX
                             : strncmp(emit, "amdgcn", 6) == 0 ? GPU_EMIT_AMDGCN
                                                           : GPU_EMIT_NONE,
                             &diag),
          print_diags(&diag, input));
  if (ok && strncmp(emit, "lowered", 7) == 0) {
    char arg[64];
    snprintf(arg, sizeof arg, "opencl,strategy=%s", emit[7] == '=' ? emit + 8 : "cooperative");
    ok = (gac_run_pass(m, "lower-async-copies", arg, &diag), print_diags(&diag, input)) &&
         gac_validate(m, &vopts, &diag) && print_diags(&diag, input);
  }
  if (ok && (strcmp(emit, "ptx") == 0 || strncmp(emit, "amdgcn", 6) == 0)) {
#ifndef GAC_HAVE_PTX
    fprintf(stderr, "gac-cc: error: built without LLVM 19 (llvm-19-dev); --emit=%s is not available\n", emit);
    ok = false;
    (void)gpu, (void)fast_math;
#else
    char *code = NULL;
    size_t code_size = 0;
    if (strcmp(emit, "ptx") == 0) {
      gac_ptx_options popts = gpu.ptx;
      popts.fast_relaxed_math = fast_math;
      ok = gac_emit_ptx(m, &popts, &code, &code_size, &diag);
    } else {
      size_t len = strlen(output);
      bool hsaco = len > 6 && strcmp(output + len - 6, ".hsaco") == 0;
      gac_amdgcn_options aopts = gpu.amdgcn;
      aopts.output = hsaco ? GAC_AMDGCN_CODE_OBJECT : GAC_AMDGCN_ASSEMBLY;
      aopts.fast_relaxed_math = fast_math, aopts.pingpong = strcmp(emit, "amdgcn,pingpong") == 0;
      ok = gac_emit_amdgcn(m, &aopts, &code, &code_size, &diag);
    }
    ok = print_diags(&diag, input) && ok && write_file_atomic(output, code, code_size);
    free(code);
#endif
  } else if (ok) {
    ok = gac_module_ids_fit(m, &diag) && gac_module_write(m, &words, &num_words) &&
         write_file_atomic(output, words, num_words * sizeof(uint32_t));
  }
  if (!ok) {
    print_diags(&diag, input);
    status = EXIT_INVALID;
  }
done:
  free(words);
  free(bytes);
  gac_module_destroy(m);
  gac_diag_free(&diag);
  return status;
}
