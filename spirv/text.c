/* Text: SPIRV-Tools' disassembler and assembler, with the instructions of
 * GroupAsyncCopies and of gac's AsyncPipeline set rewritten between their numeric form (which SPIRV-Tools knows)
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
#include "gac/async_pipeline.h"
#include "gac/text.h"
#include "internal.h"

enum { MAX_TOKENS = 64, MAX_SETS = 8 };

typedef struct token {
  const char *s;
  size_t n;
  unsigned set; /* for an import's id: which of named_sets it imports */
} token;

/* The sets printed and parsed by name; their tables come from their grammars. */
extern const gac_async_copy_info gac_async_copy_infos[], gac_async_pipeline_infos[];
extern const unsigned gac_async_copy_num_infos, gac_async_pipeline_num_infos;

typedef struct named_set {
  const char *name;
  const gac_async_copy_info *infos;
  const unsigned *num_infos;
} named_set;

static const named_set named_sets[] = {
    {GAC_ASYNC_COPIES_SET, gac_async_copy_infos, &gac_async_copy_num_infos},
    {GAC_ASYNC_PIPELINE_SET, gac_async_pipeline_infos, &gac_async_pipeline_num_infos},
};
enum { NUM_NAMED_SETS = sizeof named_sets / sizeof named_sets[0] };

static const gac_async_copy_info *info_by_number(unsigned set, uint32_t op) {
  return gac_ext_info_by_number(named_sets[set].infos, *named_sets[set].num_infos, op);
}

static const gac_async_copy_info *info_by_name(unsigned set, const char *name, size_t len) {
  return gac_ext_info_by_name(named_sets[set].infos, *named_sets[set].num_infos, name, len);
}

/* Walks a text line by line. A literal string may span lines; the lines it
 * continues on are not instructions (continued). Header comments are the
 * comment lines before the first instruction (in_header). */
typedef struct line_iter {
  const char *text;
  size_t len, at, number;
  bool in_string, in_header;
  /* the current line */
  const char *line;
  size_t line_len;
  bool continued;
  token t[MAX_TOKENS];
  unsigned nt; /* tokens before the comment; may exceed MAX_TOKENS */
} line_iter;

/* Whether a string is still open at the end of the line, given it was at its start. */
static bool string_open_after(const char *line, size_t len, bool open) {
  for (size_t i = 0; i < len; i++) {
    if (open) {
      if (line[i] == '\\')
        i++;
      else if (line[i] == '"')
        open = false;
    } else if (line[i] == ';') {
      break;
    } else if (line[i] == '"') {
      open = true;
    }
  }
  return open;
}

/* Splits a line (without its comment) at whitespace; quoted strings stay whole. */
static unsigned tokenize(const char *line, size_t len, token *t) {
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
    if (n < MAX_TOKENS)
      t[n] = (token){line + start, i - start, 0};
    n++;
  }
  return n;
}

static line_iter lines_of(const char *text, size_t len) {
  return (line_iter){.text = text, .len = len, .in_header = true};
}

static bool next_line(line_iter *it) {
  if (it->at >= it->len)
    return false;
  const char *nl = memchr(it->text + it->at, '\n', it->len - it->at);
  it->line = it->text + it->at;
  it->line_len = nl ? (size_t)(nl - it->line) : it->len - it->at;
  it->at += it->line_len + 1;
  it->number++;
  it->continued = it->in_string;
  it->in_string = string_open_after(it->line, it->line_len, it->in_string);
  it->nt = it->continued ? 0 : tokenize(it->line, it->line_len, it->t);
  it->in_header = it->in_header && !it->continued && it->nt == 0;
  return true;
}

static bool tok_is(token t, const char *s) { return t.n == strlen(s) && memcmp(t.s, s, t.n) == 0; }

/* The named set t imports (an index into named_sets), or -1. */
static int set_of(token t, const token *sets, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    if (t.n == sets[i].n && memcmp(t.s, sets[i].s, t.n) == 0)
      return (int)sets[i].set;
  return -1;
}

/* The ids (as text tokens) naming imports of the named sets in a text. */
static unsigned find_set_tokens(const char *text, size_t len, token *sets) {
  unsigned n = 0;
  for (line_iter it = lines_of(text, len); next_line(&it);) {
    if (it.nt != 4 || !tok_is(it.t[1], "=") || !tok_is(it.t[2], "OpExtInstImport") || n == MAX_SETS)
      continue;
    for (unsigned s = 0; s < NUM_NAMED_SETS; s++) {
      const char *name = named_sets[s].name;
      size_t nl = strlen(name);
      if (it.t[3].n == nl + 2 && memcmp(it.t[3].s + 1, name, nl) == 0) {
        sets[n] = it.t[0];
        sets[n++].set = s;
      }
    }
  }
  return n;
}

/* For `%r = OpExtInst %type %set <instruction> ...` with %set an import of a
 * named set: that set's index; else -1. */
static int named_ext_inst(const line_iter *it, const token *sets, unsigned num_sets) {
  if (it->nt < 6 || it->nt > MAX_TOKENS || !tok_is(it->t[1], "=") || !tok_is(it->t[2], "OpExtInst"))
    return -1;
  return set_of(it->t[4], sets, num_sets);
}

/* Copies the line's indentation and its first five tokens ("%r = OpExtInst %t %s "). */
static void put_ext_inst_prefix(gac_strbuf *out, const line_iter *it) {
  gac_strbuf_append(out, it->line, (size_t)(it->t[0].s - it->line));
  for (unsigned i = 0; i < 5; i++) {
    gac_strbuf_append(out, it->t[i].s, it->t[i].n);
    gac_strbuf_puts(out, " ");
  }
}

/* ---- disassembly ---- */

static void print_named(gac_strbuf *out, const line_iter *it, unsigned set) {
  const gac_async_copy_info *info = NULL;
  char *end;
  unsigned long number = strtoul(it->t[5].s, &end, 10);
  if (end == it->t[5].s + it->t[5].n)
    info = info_by_number(set, (uint32_t)number);
  if (!info || it->nt - 6 != info->num_operands) {
    gac_strbuf_append(out, it->line, it->line_len); /* malformed instructions stay numeric */
    return;
  }
  put_ext_inst_prefix(out, it);
  gac_strbuf_puts(out, info->name);
  for (unsigned i = 0; i < info->num_operands; i++) {
    gac_strbuf_printf(out, " %s=", info->operands[i].identifier);
    gac_strbuf_append(out, it->t[6 + i].s, it->t[6 + i].n);
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
  unsigned num_sets = find_set_tokens(text->str, text->length, sets);
  gac_strbuf out = {0};
  for (line_iter it = lines_of(text->str, text->length); next_line(&it);) {
    static const char generator_line[] = "; Generator: ";
    int set;
    size_t gl = sizeof generator_line - 1;
    if (it.in_header && it.line_len >= gl && memcmp(it.line, generator_line, gl) == 0) {
      gac_strbuf_printf(&out, "; Generator: 0x%08x (%.*s)", generator, (int)(it.line_len - gl), it.line + gl);
    } else if ((set = named_ext_inst(&it, sets, num_sets)) >= 0) {
      print_named(&out, &it, (unsigned)set);
    } else {
      gac_strbuf_append(&out, it.line, it.line_len);
    }
    gac_strbuf_puts(&out, "\n");
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

static void read_header_comment(const line_iter *it, header_comments *h) {
  char buf[128];
  size_t skip = strspn(it->line, " \t");
  if (skip >= it->line_len || it->line_len - skip >= sizeof buf)
    return;
  memcpy(buf, it->line + skip, it->line_len - skip);
  buf[it->line_len - skip] = '\0';
  unsigned major, minor;
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

/* Rewrites a named instruction to numeric form; false (with diag) on a bad operand label. */
static bool rewrite_named(gac_strbuf *out, const line_iter *it, unsigned set, gac_diag *diag) {
  const gac_async_copy_info *info = info_by_name(set, it->t[5].s, it->t[5].n);
  if (!info) {
    gac_strbuf_append(out, it->line, it->line_len);
    return true; /* numeric, or unknown: SPIRV-Tools will say */
  }
  put_ext_inst_prefix(out, it);
  gac_strbuf_printf(out, "%u", (unsigned)info->op);
  for (unsigned i = 6; i < it->nt; i++) {
    token v = it->t[i];
    const char *eq = memchr(v.s, '=', v.n);
    if (eq) {
      size_t label_len = (size_t)(eq - v.s);
      unsigned k = i - 6;
      if (k >= info->num_operands) {
        gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "text.operand-name",
                     "line %zu: %s takes %u operands; '%.*s' is one too many", it->number, info->name,
                     info->num_operands, (int)v.n, v.s);
        return false;
      }
      const char *want = info->operands[k].identifier;
      if (label_len != strlen(want) || memcmp(v.s, want, label_len) != 0) {
        gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "text.operand-name",
                     "line %zu: operand %u of %s is '%s', not '%.*s'", it->number, k + 1, info->name,
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

bool gac_assemble(const char *text, size_t len, uint32_t **words_out, size_t *num_words_out,
                  gac_diag *diag) {
  token sets[MAX_SETS];
  unsigned num_sets = find_set_tokens(text, len, sets);
  header_comments h = {0};
  gac_strbuf numeric = {0};
  bool ok = true;
  for (line_iter it = lines_of(text, len); ok && next_line(&it);) {
    if (it.in_header)
      read_header_comment(&it, &h);
    int set = named_ext_inst(&it, sets, num_sets);
    if (set >= 0)
      ok = rewrite_named(&numeric, &it, (unsigned)set, diag);
    else
      gac_strbuf_append(&numeric, it.line, it.line_len);
    gac_strbuf_puts(&numeric, "\n");
  }
  if (!ok) {
    free(numeric.data);
    return false;
  }

  /* The newest grammar, so that every name the disassembler printed is known
   * (a 1.0 environment refuses a capability named in 1.5, as
   * ShaderViewportIndex is); the version comes from the header comment. */
  spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
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
  if (h.have_version)
    w[1] = h.version;
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
