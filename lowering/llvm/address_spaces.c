/* SPIR 1.2 address spaces to a GPU target's, in the module's values and in
 * the mangled names of the functions it calls (as clang and libclc use them
 * for OpenCL on NVPTX and AMDGPU):
 *
 *   SPIR               NVPTX                      AMDGPU
 *   0 private          0 (allocas; NVPTX lowers   0 (flat; allocas move to 5,
 *                      them to .local)              amdgcn/private.c)
 *   1 global           1 global                   1 global
 *   2 constant         1 global (a)               4 constant (b)
 *   3 local            3 shared                   3 LDS
 *   4 generic          0 generic                  0 flat
 *
 * (a) a __constant kernel argument points into a buffer the host made, so
 *     it cannot be the .const bank, and a helper taking __constant pointers
 *     may get both tables and arguments; so tables go to .global too
 *     (read-only, initialised).
 * (b) AMDGPU's constant space is global memory that is read-only: scalar
 *     loads where the address is uniform.
 *
 * LLVM's C API cannot change the type of a value, and an address space is
 * part of a pointer's type; rebuilding every function with new types is
 * what LLVM's C++ ValueMapper does. We print the module as LLVM assembly,
 * rename the address spaces there and parse it back: LLVM's text form is
 * complete and stable, and the rename is confined to two tokens,
 * `addrspace(N)` and the `PU3ASN` of mangled names, outside quoted text.
 * A cast between private and generic becomes a cast from 0 to 0, which
 * LLVM rejects as an addrspacecast: it becomes a bitcast (a no-op). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/IRReader.h>

#include "llvm_gpu.h"

typedef struct text {
  char *s;
  size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n) {
  if (t->len + n + 1 > t->cap) {
    t->cap = (t->len + n + 1) * 2;
    t->s = realloc(t->s, t->cap);
    if (!t->s)
      abort();
  }
  memcpy(t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = '\0';
}

/* By hand rather than strncmp, which the fuzz targets' instrumentation
 * intercepts at a cost far above the compare. */
static bool starts(const char *s, const char *prefix) {
  while (*prefix)
    if (*s++ != *prefix++)
      return false;
  return true;
}

/* The length of a quoted string at s (s[0] == '"'), quotes included;
 * LLVM escapes a quote inside as \22, so the next quote ends it. */
static size_t quoted_length(const char *s) {
  const char *end = strchr(s + 1, '"');
  return end ? (size_t)(end - s) + 1 : strlen(s);
}

/* s at "addrspacecast": true if its operand and result are both in
 * address space 0 once renamed, e.g. "addrspacecast ptr %p to ptr" or
 * "addrspacecast (ptr @g to ptr)" (operands already renamed in out). */
static bool is_noop_cast(const char *s) {
  s += strlen("addrspacecast");
  s += strspn(s, " (");
  if (!starts(s, "ptr ") || starts(s, "ptr addrspace("))
    return false;
  const char *to = strstr(s, " to ptr");
  const char *eol = strchr(s, '\n');
  if (!to || (eol && to > eol))
    return false;
  return !starts(to + strlen(" to ptr"), " addrspace(");
}

/* Whether a token rename_line looks at may start at c: the rest is
 * copied in runs (a module of 10,000 lines is printed for every emission;
 * six compares a byte were most of the retargeting's time). */
static bool may_start_token(char c) { return c == '"' || c == ' ' || c == 'a' || c == 'P'; }

/* Renames in one pass; a renamed cast is examined once the whole line is
 * renamed, so lines are renamed first and their casts fixed after. An
 * address space the table has no row for goes to *unmapped. */
static void rename_line(text *out, const char *s, size_t n, unsigned constant_as, unsigned *unmapped) {
  char space[32], mangled[16];
  snprintf(space, sizeof space, "addrspace(%u)", constant_as);
  snprintf(mangled, sizeof mangled, "PU3AS%u", constant_as);
  size_t i = 0;
  while (i < n) {
    if (s[i] == '"') {
      size_t q = quoted_length(s + i);
      q = q > n - i ? n - i : q;
      put(out, s + i, q);
      i += q;
    } else if (starts(s + i, " addrspace(4)")) {
      i += strlen(" addrspace(4)"); /* generic: the default space */
    } else if (starts(s + i, "addrspace(2)")) {
      put(out, space, strlen(space));
      i += strlen("addrspace(2)");
    } else if (starts(s + i, "addrspace(") && strtoul(s + i + strlen("addrspace("), NULL, 10) > 4) {
      *unmapped = (unsigned)strtoul(s + i + strlen("addrspace("), NULL, 10);
      put(out, s + i, 1);
      i++;
    } else if (starts(s + i, "PU3AS4")) {
      put(out, "P", 1);
      i += strlen("PU3AS4");
    } else if (starts(s + i, "PU3AS2")) {
      put(out, mangled, strlen(mangled));
      i += strlen("PU3AS2");
    } else {
      size_t run = 1;
      while (i + run < n && !may_start_token(s[i + run]))
        run++;
      put(out, s + i, run);
      i += run;
    }
  }
}

/* A renamed line to out, its casts from 0 to 0 made bitcasts. */
static void put_line(text *out, const char *line) {
  const char *p = line;
  for (const char *cast; (cast = strstr(p, "addrspacecast")); p = cast + strlen("addrspacecast")) {
    put(out, p, (size_t)(cast - p));
    const char *op = is_noop_cast(cast) ? "bitcast" : "addrspacecast";
    put(out, op, strlen(op));
  }
  put(out, p, strlen(p));
}

static char *rename_address_spaces(const char *in, unsigned constant_as, unsigned *unmapped) {
  text out = {0}, line = {0};
  put(&out, "", 0);
  for (const char *s = in; *s;) {
    const char *eol = strchr(s, '\n');
    size_t n = eol ? (size_t)(eol - s) + 1 : strlen(s);
    line.len = 0;
    put(&line, "", 0);
    rename_line(&line, s, n, constant_as, unmapped);
    put_line(&out, line.s);
    s += n;
  }
  free(line.s);
  return out.s;
}

bool gac_gpu_retarget_address_spaces(LLVMModuleRef *mod, unsigned constant_as, gac_diag *diag) {
  LLVMContextRef c = LLVMGetModuleContext(*mod);
  char *in = LLVMPrintModuleToString(*mod);
  unsigned unmapped = 0;
  char *renamed = rename_address_spaces(in, constant_as, &unmapped);
  LLVMDisposeMessage(in);
  /* The backends abort the process on an address space they do not know
   * (NVPTX: "Bad address space found while emitting PTX"). */
  if (unmapped) {
    free(renamed);
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "gpu.address-space",
                 "the module uses SPIR address space %u (5, 6: global device or host; 7, 8: an Input or Output "
                 "variable llvm-spirv-15 kept, not a builtin it knows), which the GPU paths do not map",
                 unmapped);
    return false;
  }
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(renamed, strlen(renamed), "retargeted");
  free(renamed);
  LLVMModuleRef out = NULL;
  char *error = NULL;
  if (LLVMParseIRInContext(c, buffer, &out, &error)) { /* takes the buffer */
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "gpu.internal",
                 "internal error: the module with the target's address spaces does not parse: %s",
                 error ? error : "(no message)");
    LLVMDisposeMessage(error);
    return false;
  }
  LLVMDisposeModule(*mod);
  *mod = out;
  return true;
}
