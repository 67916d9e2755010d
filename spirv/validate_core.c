/* Core validation of modules that use the GroupAsyncCopies set.
 *
 * spirv-val rejects any core instruction that uses the result of a
 * NonSemantic instruction (SPV_KHR_non_semantic_info), and a copy's event is
 * meant to be used by OpGroupWaitEvents. So we validate a stand-in module in
 * which each copy
 *     %R = OpExtInst %event %set N <operands...> %E
 * becomes
 *     %F = OpExtInst %event %set N <operands...> %E     (F a fresh id, unused)
 *     %R = OpCopyObject %event %E
 * The copy keeps all its operands, so SPIRV-Tools still checks that they are
 * defined and dominate it; every core use of %R now sees a core instruction of
 * the same type whose value is the Event operand, which is what the spec says
 * the result is when Event is not null. Nothing else changes. */
#include <stdlib.h>
#include <string.h>

#include "spirv_tools.h"
#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/validate.h"
#include "internal.h"

typedef struct standin {
  uint32_t *words;
  size_t count, cap;
  size_t *orig_offset; /* per stand-in instruction: word offset in the original, or GAC_NO_OFFSET */
  size_t num_insts, insts_cap;
  uint32_t *fresh, *orig; /* fresh id -> result id it stands for */
  size_t num_fresh;
} standin;

static void push_words(standin *s, const uint32_t *w, size_t n, size_t orig_offset) {
  if (s->count + n > s->cap) {
    s->cap = (s->count + n) * 2;
    s->words = gac_xrealloc(s->words, s->cap * sizeof(uint32_t));
  }
  memcpy(s->words + s->count, w, n * sizeof(uint32_t));
  s->count += n;
  if (s->num_insts == s->insts_cap) {
    s->insts_cap = s->insts_cap ? s->insts_cap * 2 : 1024;
    s->orig_offset = gac_xrealloc(s->orig_offset, s->insts_cap * sizeof(size_t));
  }
  s->orig_offset[s->num_insts++] = orig_offset;
}

static bool in_list(const uint32_t *ids, size_t n, uint32_t id) {
  for (size_t i = 0; i < n; i++)
    if (ids[i] == id)
      return true;
  return false;
}

typedef struct offsets {
  size_t *at;
  size_t count;
} offsets;

static void collect_offset(gac_inst *inst, void *user) {
  offsets *o = user;
  o->at[o->count++] = inst->offset;
}

/* Builds the stand-in from the written module. in_offset[k]: the word offset
 * in the input of the module's k-th instruction (in writing order), so that
 * a finding after a pass that moved instructions (--sort-blocks) still
 * points into the input; GAC_NO_OFFSET for an instruction a pass built. */
static void build_standin(const gac_module *m, const uint32_t *w, size_t n, const size_t *in_offset, standin *s) {
  uint32_t sets[8];
  size_t num_sets = 0;
  gac_foreach_inst(i, &m->sections[GAC_SECTION_EXT_INST_IMPORT]) {
    const char *name = gac_inst_string(i, 1);
    if (name && strcmp(name, GAC_ASYNC_COPIES_SET) == 0 && num_sets < 8)
      sets[num_sets++] = i->result_id;
  }
  uint32_t bound = w[3];
  s->count = 0;
  s->num_insts = 0;
  push_words(s, w, 5, GAC_NO_OFFSET);
  s->num_insts = 0; /* the header is not an instruction */
  bool in_function = false;
  for (size_t at = 5, k = 0; at < n; k++) {
    size_t orig = in_offset[k];
    uint32_t op = w[at] & 0xffff, len = w[at] >> 16;
    if (op == SpvOpFunction)
      in_function = true;
    else if (op == SpvOpFunctionEnd)
      in_function = false;
    if (op == SpvOpExtInst && in_function && len >= 6 && in_list(sets, num_sets, w[at + 3])) {
      uint32_t type = w[at + 1], result = w[at + 2], event = w[at + len - 1];
      uint32_t fresh = bound++;
      size_t first = s->count;
      push_words(s, w + at, len, orig);
      s->words[first + 2] = fresh;
      uint32_t copy[4] = {4u << 16 | SpvOpCopyObject, type, result, event};
      push_words(s, copy, 4, orig);
      s->fresh = gac_xrealloc(s->fresh, (s->num_fresh + 1) * sizeof(uint32_t));
      s->orig = gac_xrealloc(s->orig, (s->num_fresh + 1) * sizeof(uint32_t));
      s->fresh[s->num_fresh] = fresh;
      s->orig[s->num_fresh++] = result;
    } else {
      push_words(s, w + at, len, orig);
    }
    at += len;
  }
  s->words[3] = bound;
}

/* Rewrites "%F" (a fresh id, as a whole token) back to the id it stands for. */
static char *restore_ids(const standin *s, const char *text) {
  gac_strbuf out = {0};
  for (const char *p = text; *p;) {
    if (*p == '%' && p[1] >= '0' && p[1] <= '9') {
      char *end;
      unsigned long id = strtoul(p + 1, &end, 10);
      for (size_t i = 0; i < s->num_fresh; i++)
        if (s->fresh[i] == id) {
          gac_strbuf_printf(&out, "%%%u", s->orig[i]);
          p = end;
          goto next;
        }
    }
    gac_strbuf_append(&out, p, 1);
    p++;
  next:;
  }
  if (!out.data)
    return gac_xstrdup("");
  return out.data;
}

int gac_target_env_parse(const char *name) {
  spv_target_env env;
  return spvParseTargetEnv(name, &env) ? (int)env : -1;
}

bool gac_validate_core(const gac_module *m, int target_env, gac_diag *diag) {
  uint32_t *w;
  size_t n;
  if (!gac_module_ids_fit(m, diag))
    return false;
  /* SPIRV-Tools lets any value through, and llvm-spirv then refuses the
   * module ("unsupported instruction schema") after gac has lowered it. */
  if (m->schema != 0) {
    gac_diag_add(diag, GAC_ERROR, 4, 0, "binary.schema",
                 "the header's schema word (word 4) is %u; SPIR-V reserves it and it must be 0", m->schema);
    return false;
  }
  if (!gac_module_write_native(m, &w, &n)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "core", "out of memory writing the module");
    return false;
  }

  /* One input offset per instruction: at most one per word. */
  offsets in = {.at = gac_xmalloc(n * sizeof(size_t))};
  gac_module_visit((gac_module *)m, collect_offset, &in); /* visiting does not modify */
  standin s = {0};
  build_standin(m, w, n, in.at, &s);
  free(in.at);
  spv_context ctx = spvContextCreate(target_env < 0 ? SPV_ENV_UNIVERSAL_1_6 : (spv_target_env)target_env);
  spv_validator_options opts = spvValidatorOptionsCreate();
  /* Friendly names cost SPIRV-Tools a second parse of the module (30-45% of
   * its time here), and numeric ids match what gac-opt --print shows. */
  spvValidatorOptionsSetFriendlyNames(opts, false);
  /* The fresh ids are the stand-in's own: a legal module whose bound is
   * within its number of copies of SPIR-V's limit (4,194,303) would
   * otherwise be refused for the ids gac added. The module's own bound was
   * checked against the limit above (gac_module_ids_fit), so SPIRV-Tools'
   * limit is raised for the stand-in only, by the ids it added. */
  if (s.words[3] > GAC_MAX_ID_BOUND)
    spvValidatorOptionsSetUniversalLimit(opts, spv_validator_limit_max_id_bound, s.words[3]);
  spv_const_binary_t bin = {s.words, s.count};
  spv_diagnostic d = NULL;
  spv_result_t res = spvValidateWithOptions(ctx, opts, &bin, &d);
  if (res != SPV_SUCCESS) {
    /* SPIRV-Tools gives the 1-based index of the offending instruction, 0 for none. */
    size_t index = d ? d->position.index : 0;
    size_t offset = index > 0 && index <= s.num_insts ? s.orig_offset[index - 1] : GAC_NO_OFFSET;
    char *text = restore_ids(&s, d && d->error ? d->error : "invalid module");
    /* Keep it on one line: SPIRV-Tools appends the instruction after a newline. */
    for (char *p = text; *p; p++)
      if (*p == '\n')
        *p = ' ';
    size_t len = strlen(text);
    while (len && text[len - 1] == ' ')
      text[--len] = '\0';
    gac_diag_add(diag, GAC_ERROR, offset, 0, "core (SPIRV-Tools)", "%s", text);
    free(text);
  }
  spvDiagnosticDestroy(d);
  spvValidatorOptionsDestroy(opts);
  spvContextDestroy(ctx);
  free(s.words);
  free(s.orig_offset);
  free(s.fresh);
  free(s.orig);
  free(w);
  return res == SPV_SUCCESS;
}

bool gac_validate(const gac_module *m, const gac_validate_options *opts, gac_diag *diag) {
  bool ok = gac_validate_async_copies(m, diag);
  ok = gac_validate_async_pipeline(m, diag) && ok;
  if (!opts || opts->core)
    ok = gac_validate_core(m, opts ? opts->target_env : -1, diag) && ok;
  return ok;
}
