/* Validation through the library API: valid modules pass, the set's rules and
 * the core rules are reported at the right word, and ids of the stand-in never
 * leak into diagnostics. */
#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gac/validate.h"
#include "modules.h"

static char *replace(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  if (!at)
    abort();
  size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
  char *out = malloc(n);
  snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  return out;
}

static void test_valid_module_passes(void) {
  size_t n;
  uint32_t *w = assemble_or_die(copies_module, &n);
  gac_module *m = read_or_die(w, n);
  gac_diag d;
  gac_diag_init(&d);
  const char *envs[] = {"spv1.0", "spv1.6", "opencl1.2", "opencl2.0"};
  for (unsigned i = 0; i < 4; i++) {
    gac_validate_options o = {.core = true, .target_env = gac_target_env_parse(envs[i])};
    CHECK(o.target_env >= 0);
    CHECK(gac_validate(m, &o, &d));
  }
  gac_diag_print(&d, stderr, "copies_module");
  CHECK(d.count == 0);
  CHECK(gac_target_env_parse("vulkan9") == -1);
  gac_module_destroy(m);
  gac_diag_free(&d);
  free(w);
}

/* A core error is placed at the word of the instruction that breaks it, even
 * though SPIRV-Tools saw a stand-in with extra instructions before it. */
static void test_core_error_offset(void) {
  char *text = replace(copies_module, "OpStore %evs %e2\n", "OpStore %evs %e2\n%bad = OpIAdd %ulong %c1 %one32\n");
  size_t n;
  uint32_t *w = assemble_or_die(text, &n);
  gac_module *m = read_or_die(w, n);
  gac_inst *iadd = NULL;
  gac_foreach_inst(i, &m->first_function->last_block->insts) if (i->opcode == SpvOpIAdd) iadd = i;
  gac_diag d;
  gac_diag_init(&d);
  CHECK(gac_validate_async_copies(m, &d));
  CHECK(!gac_validate_core(m, -1, &d));
  CHECK(d.count == 1 && iadd);
  if (d.count == 1 && iadd) {
    CHECK(d.entries[0].word_offset == iadd->offset);
    CHECK(strstr(d.entries[0].message, "IAdd") != NULL);
  }
  gac_module_destroy(m);
  gac_diag_free(&d);
  free(w);
  free(text);
}

/* An error SPIRV-Tools finds on a copy itself names the copy's own id. */
static void test_core_error_on_copy_names_its_id(void) {
  /* The 2D2D copy's Event is defined later in the block: a dominance error. */
  char *t1 = replace(copies_module, "%c16 %null\n", "%c16 %late\n");
  char *text = replace(t1, "OpStore %evs %e2\n", "OpStore %evs %e2\n%late = OpCopyObject %event %null\n");
  size_t n;
  uint32_t *w = assemble_or_die(text, &n);
  gac_module *m = read_or_die(w, n);
  gac_inst *copy = gac_def(m, 0);
  gac_foreach_inst(i, &m->first_function->first_block->insts) if (i->opcode == SpvOpExtInst) copy = i;
  gac_diag d;
  gac_diag_init(&d);
  CHECK(!gac_validate_core(m, -1, &d));
  CHECK(d.count == 1);
  if (d.count == 1 && copy) {
    char own[32];
    snprintf(own, sizeof own, "%%%u", copy->result_id);
    /* The stand-in's fresh ids are at or above the module's bound. */
    char fresh[32];
    snprintf(fresh, sizeof fresh, "%%%u", m->bound);
    CHECK(strstr(d.entries[0].message, fresh) == NULL);
    CHECK(d.entries[0].word_offset != GAC_NO_OFFSET);
  }
  gac_module_destroy(m);
  gac_diag_free(&d);
  free(w);
  free(t1);
  free(text);
}

/* Runtime operands are not constants: the overlap rules cannot and do not fire. */
static void test_runtime_operands_are_not_judged(void) {
  char *text = replace(copies_module, "%c4 %c16 %n %c32 %c16 %null", "%c4 %n %n %n %n %null");
  size_t n;
  uint32_t *w = assemble_or_die(text, &n);
  gac_module *m = read_or_die(w, n);
  gac_diag d;
  gac_diag_init(&d);
  CHECK(gac_validate_async_copies(m, &d));
  gac_module_destroy(m);
  gac_diag_free(&d);
  free(w);
  free(text);
}

int main(void) {
  RUN_TEST(test_valid_module_passes);
  RUN_TEST(test_core_error_offset);
  RUN_TEST(test_core_error_on_copy_names_its_id);
  RUN_TEST(test_runtime_operands_are_not_judged);
  return check_summary();
}
