/* gac-isa-check: the machine-level vmcnt check of an AMDGCN code object
 * (docs/AMDGCN.md): reads `llvm-objdump-19 -d` of it and, per kernel,
 * gives each of gac's wait markers and each LDS read a verdict
 * (tools/isa_vmcnt.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_io.h"
#include "isa_listing.h"
#include "isa_vmcnt.h"
#include "subprocess.h"
#include "gac/version.h"

static const char usage[] =
    "Usage: gac-isa-check [--mcpu=gfx90a|gfx942] [--verbose] [--strict] <code.hsaco | object.o>\n"
    "       gac-isa-check [--verbose] [--strict] --listing <objdump.txt | ->\n"
    "Disassembles the code object with llvm-objdump-19 -d and checks, per wave along each\n"
    "kernel's CFG, that every wait gac marked completes the LDS-direct loads it promises\n"
    "(s_waitcnt vmcnt counted on the loads the machine code issues) and that every LDS read\n"
    "finds them complete and published by s_barrier: proved, violated or cannot decide\n"
    "(docs/AMDGCN.md). Exit: 0 nothing violated, 1 violated (or, with --strict, cannot\n"
    "decide) or unreadable input, 2 usage. --version shows the version and the commit.";

/* The listing of `path`, malloc'd: llvm-objdump-19's output, or the file itself. */
static char *listing(const char *path, const char *mcpu, bool is_listing) {
  size_t size;
  if (is_listing) {
    char *text = NULL;
    return read_file(path, &text, &size) ? text : NULL;
  }
  char dir[32], out[64], cpu[64];
  if (!gac_scratch_dir(dir))
    return NULL;
  snprintf(out, sizeof out, "%s/listing.txt", dir);
  snprintf(cpu, sizeof cpu, "--mcpu=%s", mcpu ? mcpu : "");
  char *argv[] = {"llvm-objdump-19", "-d", cpu, (char *)path, NULL};
  if (!mcpu)
    argv[2] = (char *)path, argv[3] = NULL;
  char *text = gac_run(argv, out) ? gac_read_file(out, &size) : NULL;
  if (!text) {
    char *log = gac_read_file(out, &size);
    fprintf(stderr, "gac-isa-check: llvm-objdump-19 -d %s failed%s%s", path, log ? ":\n" : "\n", log ? log : "");
    free(log);
  }
  gac_scratch_remove(dir);
  return text;
}

int main(int argc, char **argv) {
  const char *input = NULL, *mcpu = NULL;
  bool verbose = false, strict = false, is_listing = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0)
      return puts(usage), 0;
    if (strcmp(argv[i], "--version") == 0)
      return printf("gac-isa-check %s\n", gac_version_text()), 0;
    if (strncmp(argv[i], "--mcpu=", 7) == 0 && (!strcmp(argv[i] + 7, "gfx90a") || !strcmp(argv[i] + 7, "gfx942")))
      mcpu = argv[i] + 7;
    else if (strcmp(argv[i], "--verbose") == 0)
      verbose = true;
    else if (strcmp(argv[i], "--strict") == 0)
      strict = true;
    else if (strcmp(argv[i], "--listing") == 0)
      is_listing = true;
    else if ((argv[i][0] != '-' || !strcmp(argv[i], "-")) && !input)
      input = argv[i];
    else {
      fprintf(stderr, "gac-isa-check: unexpected argument '%s'\n%s\n", argv[i], usage);
      return 2;
    }
  }
  if (!input) {
    fprintf(stderr, "%s\n", usage);
    return 2;
  }
  char *text = listing(input, mcpu, is_listing), err[600];
  isa_kernel *kernels = NULL;
  size_t n = 0;
  if (!text || !isa_listing_parse(text, &kernels, &n, err, sizeof err) || !n) {
    fprintf(stderr, "%s: error: %s\n", input, !text ? "cannot read it" : n ? err : "no kernel in the listing");
    free(text);
    isa_kernels_free(kernels, n);
    return 1;
  }
  isa_counts c = {0};
  for (size_t k = 0; k < n; k++)
    isa_check_kernel(&kernels[k], input, verbose, stdout, &c);
  printf("%s: isa-check: %zu kernels; waits: %zu proved, %zu violated, %zu cannot decide; LDS reads: %zu proved, "
         "%zu violated, %zu cannot decide, %zu after no LDS-direct load\n",
         input, n, c.waits_proved, c.waits_violated, c.waits_undecided, c.proved, c.violated, c.undecided, c.no_dma);
  free(text);
  isa_kernels_free(kernels, n);
  bool violated = c.violated || c.waits_violated, undecided = c.undecided || c.waits_undecided;
  return violated || (strict && undecided) ? 1 : 0;
}
