/* Text: SPIRV-Tools' disassembler and assembler, with the GroupAsyncCopies
 * instructions rewritten between their numeric form (which SPIRV-Tools knows)
 * and their named form (which people read):
 *   %20 = OpExtInst %6 %1 1 %11 %12 ...
 *   %20 = OpExtInst %6 %1 GroupAsyncCopy2D2D Destination=%11 DestinationOffset=%12 ...
 * SPIRV-Tools prints the header's generator by name; we print the raw word
 * too, and the assembler restores generator, bound and schema, so that text
 * written here assembles to the identical binary. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_tools.h"
#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/text.h"
#include "internal.h"

enum { MAX_TOKENS = 64, MAX_SETS = 8 };

typedef struct token {
  const char *s;
  size_t n;
} token;

/* Splits a line (without its comment) at whitespace; quoted strings stay whole. */
static unsigned tokenize(const char *line, size_t len, token *t, unsigned max, size_t *code_len) {
  unsigned n = 0;
  size_t i = 0;
  while (i < len) {
    while (i < len && isspace((unsigned char)line[i]))
      i++;
    if (i >= len || line[i] == ';')
      break;
    size_t start = i;
    if (line[i] == '"') {
      for (i++; i < len && line[i] != '"'; i++)
        if (line[i] == '\\' && i + 1 < len)
          i++;
      if (i < len)
        i++;
    } else {
      while (i < len && !isspace((unsigned char)line[i]) && line[i] != ';')
        i++;
    }
    if (n < max)
      t[n] = (token){line + start, i - start};
    n++;
  }
  *code_len = i;
  return n;
}

static bool tok_is(token t, const char *s) { return t.n == strlen(s) && memcmp(t.s, s, t.n) == 0; }

static bool tok_in(token t, const token *set, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    if (t.n == set[i].n && memcmp(t.s, set[i].s, t.n) == 0)
      return true;
  return false;
}

/* The ids (as text tokens) naming the GroupAsyncCopies import in a text. */
static unsigned find_set_tokens(const char *text, size_t len, token *sets, gac_strbuf *storage) {
  (void)storage;
  unsigned n = 0;
  for (size_t at = 0; at < len;) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t line_len = nl ? (size_t)(nl - (text + at)) : len - at;
    token t[MAX_TOKENS];
    size_t code_len;
    unsigned nt = tokenize(text + at, line_len, t, MAX_TOKENS, &code_len);
    if (nt == 4 && tok_is(t[1], "=") && tok_is(t[2], "OpExtInstImport") &&
        tok_is(t[3], "\"" GAC_ASYNC_COPIES_SET "\"") && n < MAX_SETS)
      sets[n++] = t[0];
    at += line_len + 1;
  }
  return n;
}

/* ---- disassembly ---- */

static void print_named_copy(gac_strbuf *out, const char *line, token *t, unsigned nt) {
  const gac_async_copy_info *info = NULL;
  char *end;
  unsigned long number = strtoul(t[5].s, &end, 10);
  if (end == t[5].s + t[5].n)
    info = gac_async_copy_info_for((uint32_t)number);
  if (!info || nt - 6 != info->num_operands) {
    gac_strbuf_puts(out, line); /* malformed copies stay numeric */
    return;
  }
  gac_strbuf_append(out, line, (size_t)(t[0].s - line)); /* indentation */
  for (unsigned i = 0; i < 5; i++) {
    gac_strbuf_append(out, t[i].s, t[i].n);
    gac_strbuf_puts(out, " ");
  }
  gac_strbuf_puts(out, info->name);
  for (unsigned i = 0; i < info->num_operands; i++) {
    gac_strbuf_printf(out, " %s=", info->operands[i].identifier);
    gac_strbuf_append(out, t[6 + i].s, t[6 + i].n);
  }
}

bool gac_disassemble(const uint32_t *words, size_t num_words, char **text_out, gac_diag *diag) {
  uint32_t *native;
  words = gac_native_words(words, num_words, &native);
  spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_text text = NULL;
  spv_diagnostic d = NULL;
  spv_result_t res = spvBinaryToText(ctx, words, num_words,
                                     SPV_BINARY_TO_TEXT_OPTION_INDENT, &text, &d);
  uint32_t generator = num_words > 2 ? words[2] : 0;
  free(native);
  if (res != SPV_SUCCESS) {
    gac_diag_add(diag, GAC_ERROR, d ? d->position.index : GAC_NO_OFFSET, 0, "binary.parse", "%s",
                 d && d->error ? d->error : "cannot disassemble");
    spvDiagnosticDestroy(d);
    spvContextDestroy(ctx);
    return false;
  }
  token sets[MAX_SETS];
  unsigned num_sets = find_set_tokens(text->str, text->length, sets, NULL);

  gac_strbuf out = {0};
  const char *p = text->str, *limit = text->str + text->length;
  while (p < limit) {
    const char *nl = memchr(p, '\n', (size_t)(limit - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(limit - p);
    char *line = memcpy(gac_xmalloc(len + 1), p, len);
    line[len] = '\0';
    token t[MAX_TOKENS];
    size_t code_len;
    unsigned nt = tokenize(line, len, t, MAX_TOKENS, &code_len);
    if (strncmp(line, "; Generator: ", 13) == 0) {
      gac_strbuf_printf(&out, "; Generator: 0x%08x (%s)", generator, line + 13);
    } else if (nt >= 6 && nt <= MAX_TOKENS && tok_is(t[1], "=") && tok_is(t[2], "OpExtInst") &&
               tok_in(t[4], sets, num_sets)) {
      print_named_copy(&out, line, t, nt);
    } else {
      gac_strbuf_puts(&out, line);
    }
    gac_strbuf_puts(&out, "\n");
    free(line);
    p += len + 1;
  }
  spvTextDestroy(text);
  spvContextDestroy(ctx);
  *text_out = out.data ? out.data : gac_xstrdup("");
  return true;
}

/* ---- assembly ---- */

typedef struct header_comments {
  bool have_version, have_generator, have_bound, have_schema;
  uint32_t version, generator, bound, schema;
} header_comments;

static void read_header_comment(const char *line, size_t len, header_comments *h) {
  unsigned major, minor;
  char buf[128];
  if (len >= sizeof buf)
    return;
  memcpy(buf, line, len);
  buf[len] = '\0';
  if (sscanf(buf, "; Version: %u.%u", &major, &minor) == 2) {
    h->have_version = true;
    h->version = major << 16 | minor << 8;
  } else if (sscanf(buf, "; Generator: 0x%x", &h->generator) == 1) {
    h->have_generator = true;
  } else if (sscanf(buf, "; Bound: %u", &h->bound) == 1) {
    h->have_bound = true;
  } else if (sscanf(buf, "; Schema: %u", &h->schema) == 1) {
    h->have_schema = true;
  }
}

/* Rewrites a named copy to numeric form; false (with diag) on a bad operand label. */
static bool rewrite_named_copy(gac_strbuf *out, const char *line, token *t, unsigned nt,
                               size_t line_no, gac_diag *diag) {
  const gac_async_copy_info *info = gac_async_copy_info_by_name(t[5].s, t[5].n);
  if (!info) {
    gac_strbuf_append(out, line, strlen(line));
    return true; /* numeric, or unknown: SPIRV-Tools will say */
  }
  gac_strbuf_append(out, line, (size_t)(t[0].s - line));
  for (unsigned i = 0; i < 5; i++) {
    gac_strbuf_append(out, t[i].s, t[i].n);
    gac_strbuf_puts(out, " ");
  }
  gac_strbuf_printf(out, "%u", (unsigned)info->op);
  for (unsigned i = 6; i < nt; i++) {
    token v = t[i];
    const char *eq = memchr(v.s, '=', v.n);
    if (eq) {
      size_t label_len = (size_t)(eq - v.s);
      unsigned k = i - 6;
      if (k >= info->num_operands) {
        gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "text.operand-name",
                     "line %zu: %s takes %u operands; '%.*s' is one too many", line_no, info->name,
                     info->num_operands, (int)v.n, v.s);
        return false;
      }
      const char *want = info->operands[k].identifier;
      if (label_len != strlen(want) || memcmp(v.s, want, label_len) != 0) {
        gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "text.operand-name",
                     "line %zu: operand %u of %s is '%s', not '%.*s'", line_no, k + 1, info->name,
                     want, (int)label_len, v.s);
        return false;
      }
      v.s = eq + 1;
      v.n -= label_len + 1;
    }
    gac_strbuf_puts(out, " ");
    gac_strbuf_append(out, v.s, v.n);
  }
  return true;
}

static spv_target_env env_for_version(uint32_t version) {
  switch (version >> 8 & 0xffff) {
  case 0x100: return SPV_ENV_UNIVERSAL_1_0;
  case 0x101: return SPV_ENV_UNIVERSAL_1_1;
  case 0x102: return SPV_ENV_UNIVERSAL_1_2;
  case 0x103: return SPV_ENV_UNIVERSAL_1_3;
  case 0x104: return SPV_ENV_UNIVERSAL_1_4;
  case 0x105: return SPV_ENV_UNIVERSAL_1_5;
  default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

bool gac_assemble(const char *text, size_t len, uint32_t **words_out, size_t *num_words_out,
                  gac_diag *diag) {
  token sets[MAX_SETS];
  unsigned num_sets = find_set_tokens(text, len, sets, NULL);
  header_comments h = {0};
  gac_strbuf numeric = {0};
  size_t line_no = 1;
  bool ok = true;
  for (size_t at = 0; at < len && ok; line_no++) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t line_len = nl ? (size_t)(nl - (text + at)) : len - at;
    char *line = memcpy(gac_xmalloc(line_len + 1), text + at, line_len);
    line[line_len] = '\0';
    token t[MAX_TOKENS];
    size_t code_len;
    unsigned nt = tokenize(line, line_len, t, MAX_TOKENS, &code_len);
    if (nt == 0 && line_len > 0 && line[strspn(line, " \t")] == ';')
      read_header_comment(line + strspn(line, " \t"), line_len - strspn(line, " \t"), &h);
    if (nt >= 6 && nt <= MAX_TOKENS && tok_is(t[1], "=") && tok_is(t[2], "OpExtInst") &&
        tok_in(t[4], sets, num_sets))
      ok = rewrite_named_copy(&numeric, line, t, nt, line_no, diag);
    else
      gac_strbuf_append(&numeric, line, line_len);
    gac_strbuf_puts(&numeric, "\n");
    free(line);
    at += line_len + 1;
  }
  if (!ok) {
    free(numeric.data);
    return false;
  }

  spv_context ctx = spvContextCreate(env_for_version(h.have_version ? h.version : 0));
  spv_binary bin = NULL;
  spv_diagnostic d = NULL;
  spv_result_t res = spvTextToBinaryWithOptions(ctx, numeric.data ? numeric.data : "", numeric.len,
                                                SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS, &bin, &d);
  free(numeric.data);
  if (res != SPV_SUCCESS) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "text.syntax", "line %zu, column %zu: %s",
                 d ? d->position.line + 1 : 0, d ? d->position.column + 1 : 0,
                 d && d->error ? d->error : "cannot assemble");
    spvDiagnosticDestroy(d);
    spvContextDestroy(ctx);
    return false;
  }
  uint32_t *w = gac_xmalloc(bin->wordCount * sizeof(uint32_t));
  memcpy(w, bin->code, bin->wordCount * sizeof(uint32_t));
  size_t n = bin->wordCount;
  spvBinaryDestroy(bin);
  spvContextDestroy(ctx);
  if (h.have_generator)
    w[2] = h.generator;
  if (h.have_bound) {
    if (h.bound < w[3]) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "text.bound",
                   "'; Bound: %u' is smaller than the ids the text uses need (%u)", h.bound, w[3]);
      free(w);
      return false;
    }
    w[3] = h.bound;
  }
  if (h.have_schema)
    w[4] = h.schema;
  *words_out = w;
  *num_words_out = n;
  return true;
}
