/* OpenCL C -> SPIR-V 1.0, the way gac builds kernels (the layer's source
 * path and gac-cc): clang-15 -O2 writes LLVM assembly; its `freeze`
 * instructions, which llvm-spirv-15 cannot translate ("Can't translate llvm
 * instruction: freeze"; clang-15 -O2 makes them from an index computed with
 * / and % of one value), become selects of the value with itself; clang-15
 * assembles that to bitcode without optimising it (no new freeze), and
 * llvm-spirv-15 translates it. Dropping a freeze is what later translators do
 * too: OpenCL C has no poison for it to stop. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subprocess.h"

/* "  %x = freeze <type> <value>[, !dbg !n]" -> "  %x = select i1 true, <type>
 * <value>, <type> <value>[, ...]". False when the line is a freeze of some
 * other form (a constant expression operand), which is left as it is. */
static bool unfreeze_line(const char *line, FILE *out) {
  const char *eq = strstr(line, " = freeze ");
  if (!eq)
    return false;
  const char *operand = eq + strlen(" = freeze ");
  const char *end = strstr(operand, ", !"); /* metadata attachments */
  if (!end)
    end = operand + strcspn(operand, "\n");
  while (end > operand && end[-1] == ' ')
    end--;
  const char *value = end;
  while (value > operand && value[-1] != ' ')
    value--;
  if (value == operand || strchr(value, '(') || strchr(value, ')'))
    return false;
  int type_len = (int)(value - 1 - operand), value_len = (int)(end - value);
  fprintf(out, "%.*sselect i1 true, %.*s %.*s, %.*s %.*s%s", (int)(eq + 3 - line), line, type_len, operand,
          value_len, value, type_len, operand, value_len, value, end);
  return true;
}

/* Rewrites every freeze of the LLVM assembly at in into out. */
static bool unfreeze(const char *in_path, const char *out_path) {
  FILE *in = fopen(in_path, "r"), *out = fopen(out_path, "w");
  bool ok = in && out;
  char *line = NULL;
  size_t cap = 0;
  while (ok && getline(&line, &cap, in) > 0)
    if (!unfreeze_line(line, out))
      ok = fputs(line, out) >= 0;
  free(line);
  if (in)
    fclose(in);
  if (out && fclose(out) != 0)
    ok = false;
  return ok;
}

bool gac_opencl_c_to_spirv(char *const clang_args[], const char *scratch, const char *spv_out, const char *log_path) {
  char ll[96], unfrozen[96], bc[96];
  snprintf(ll, sizeof ll, "%s/front.ll", scratch);
  snprintf(unfrozen, sizeof unfrozen, "%s/front.unfrozen.ll", scratch);
  snprintf(bc, sizeof bc, "%s/front.bc", scratch);
  const char *clang = getenv("GAC_CLANG") ? getenv("GAC_CLANG") : "clang-15";
  char *argv[160];
  unsigned n = 0;
  argv[n++] = (char *)clang;
  argv[n++] = "-cc1";
  for (unsigned i = 0; clang_args[i] && n < 150; i++)
    argv[n++] = clang_args[i];
  argv[n++] = "-emit-llvm";
  argv[n++] = "-no-opaque-pointers";
  argv[n++] = "-o";
  argv[n++] = ll;
  argv[n] = NULL;
  /* The same triple again, or clang would override the module's with the host's. */
  char *triple = "spir64-unknown-unknown";
  for (unsigned i = 0; clang_args[i] && clang_args[i + 1]; i++)
    if (strcmp(clang_args[i], "-triple") == 0)
      triple = clang_args[i + 1];
  char *assemble[] = {(char *)clang, "-cc1", "-triple", triple, "-x", "ir", "-emit-llvm-bc", "-no-opaque-pointers",
                      "-O0", unfrozen, "-o", bc, NULL};
  const char *llvm_spirv = getenv("GAC_LLVM_SPIRV_FORWARD") ? getenv("GAC_LLVM_SPIRV_FORWARD") : "llvm-spirv-15";
  char *to_spirv[] = {(char *)llvm_spirv, "--spirv-max-version=1.0", bc, "-o", (char *)spv_out, NULL};
  if (!gac_run(argv, log_path))
    return false;
  if (!unfreeze(ll, unfrozen)) {
    FILE *log = fopen(log_path, "a");
    if (log) {
      fprintf(log, "gac: cannot rewrite %s\n", ll);
      fclose(log);
    }
    return false;
  }
  return gac_run(assemble, log_path) && gac_run(to_spirv, log_path);
}
