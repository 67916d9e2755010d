/* OpenCL C -> SPIR-V 1.0, the way gac builds kernels (the layer's source
 * path and gac-cc): clang-15 -O2 writes LLVM assembly, which gac repairs
 * where llvm-spirv-15 cannot translate it; clang-15 assembles that to
 * bitcode without optimising it (nothing is made again), and llvm-spirv-15
 * translates it. The repairs:
 *  - `freeze` ("Can't translate llvm instruction: freeze"; clang-15 -O2
 *    makes them from an index computed with / and % of one value) becomes a
 *    select of the value with itself. Dropping a freeze is what later
 *    translators do too: OpenCL C has no poison for it to stop.
 *  - A switch on an integer of an odd width ("InvalidBitWidth: Invalid bit
 *    width in input: 31"; InstCombine narrows `switch (k)` to `trunc i32 %k
 *    to i31` when it knows the top bit clear, as for `k == 0 ? a.x : k == 1 ?
 *    a.y : ...`, since SPIR's data layout names no native widths) switches
 *    on the wide value masked to those bits, with its cases read as such
 *    (bench/cuda/sgemm_fast.cl met it first). */
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

static bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '$' || c == '-';
}

/* Whether every use of the value `name` (with its %) in text, but its
 * definition at def, is the condition of a `switch i<width>` line. */
static bool only_switched_on(const char *text, const char *def, const char *name, unsigned width) {
  size_t len = strlen(name);
  char head[96];
  int head_len = snprintf(head, sizeof head, "switch i%u %s,", width, name);
  for (const char *at = strstr(text, name); at; at = strstr(at + len, name)) {
    if (is_name_char(at[len]) || (at > text && is_name_char(at[-1])) || at == def)
      continue;
    const char *line = at;
    while (line > text && line[-1] != '\n')
      line--;
    while (*line == ' ')
      line++;
    /* "switch i<width> <name>," with this occurrence as its <name> */
    if (strncmp(line, head, (size_t)head_len) != 0 || at != line + head_len - len - 1)
      return false;
  }
  return true;
}

/* text with its switches on odd-width truncations widened (see the top):
 * `%t = trunc iM %x to iN` used only by `switch iN %t` becomes `%t = and iM
 * %x, 2^N - 1`, and the switch and its cases iM. Returns the new text
 * (malloc'd). */
static char *widen_odd_switches(const char *text) {
  size_t cap = strlen(text) * 2 + 64, n = 0;
  char *out = malloc(cap);
  const char *p = text;
  unsigned wide = 0, narrow = 0; /* while inside a rewritten switch's cases */
  while (*p) {
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p + 1) : strlen(p);
    char line[1024], name[96], value[96];
    unsigned from, to;
    int used = 0;
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
    if (sscanf(line, " %95s = trunc i%u %95[^ ] to i%u%n", name, &from, value, &to, &used) == 4 && used > 0 &&
        to != 1 && to != 8 && to != 16 && to != 32 && to != 64 && to < from && from <= 64 &&
        only_switched_on(text, strstr(p, name), name, to)) {
      n += (size_t)snprintf(out + n, cap - n, "  %s = and i%u %s, %llu\n", name, from, value,
                            (unsigned long long)((to == 64 ? 0 : 1ull << to) - 1));
      /* the switch on it: its header and cases, until "]" */
      const char *sw = p + len;
      char head[128]; /* "switch i" N " " name ",": never truncated */
      snprintf(head, sizeof head, "switch i%u %s,", to, name);
      const char *at = strstr(sw, head);
      if (at) {
        memcpy(out + n, sw, (size_t)(at - sw)), n += (size_t)(at - sw);
        n += (size_t)snprintf(out + n, cap - n, "switch i%u %s,", from, name);
        p = at + strlen(head);
        wide = from, narrow = to;
        continue;
      }
      p += len;
      continue;
    }
    long long k;
    char rest[900];
    if (wide && sscanf(line, " i%*u %lld, %899[^\n]", &k, rest) == 2) {
      unsigned long long v = (unsigned long long)k & ((1ull << narrow) - 1);
      n += (size_t)snprintf(out + n, cap - n, "    i%u %llu, %s\n", wide, v, rest);
    } else {
      if (wide && strchr(line, ']'))
        wide = 0;
      memcpy(out + n, p, len), n += len;
    }
    p += len;
  }
  out[n] = '\0';
  return out;
}

/* Rewrites the LLVM assembly at in into out, with the repairs above. */
static bool unfreeze(const char *in_path, const char *out_path) {
  char *text = gac_read_file(in_path, NULL);
  char *widened = text ? widen_odd_switches(text) : NULL;
  FILE *out = fopen(out_path, "w");
  bool ok = widened && out;
  for (char *line = widened, *next; ok && line && *line; line = next) {
    next = strchr(line, '\n');
    next = next ? next + 1 : line + strlen(line);
    char saved = *next;
    *next = '\0';
    if (!unfreeze_line(line, out))
      ok = fputs(line, out) >= 0;
    *next = saved;
  }
  free(text);
  free(widened);
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
