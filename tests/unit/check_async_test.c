/* --check-async's version arithmetic and library entry point. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gac/check_async.h"
#include "modules.h"

static gac_version at(uint32_t base, int64_t offset) { return (gac_version){true, {base, offset}}; }
static const gac_version unknown = {false, {0, 0}};

static void test_compare(void) {
  CHECK(gac_version_compare(at(7, -1), at(7, 1), 2) == GAC_VERSION_SAME);   /* (k-1) = (k+1) mod 2 */
  CHECK(gac_version_compare(at(7, -1), at(7, 1), 3) == GAC_VERSION_OTHER);  /* but not mod 3 */
  CHECK(gac_version_compare(at(7, -3), at(7, 1), 4) == GAC_VERSION_SAME);
  CHECK(gac_version_compare(at(0, 5), at(0, 1), 4) == GAC_VERSION_SAME);    /* constants */
  CHECK(gac_version_compare(at(0, 2), at(0, 1), 4) == GAC_VERSION_OTHER);
  CHECK(gac_version_compare(at(7, 0), at(8, 0), 2) == GAC_VERSION_MAYBE);   /* k and n unrelated */
  CHECK(gac_version_compare(at(7, 0), at(0, 0), 2) == GAC_VERSION_MAYBE);   /* k and a constant */
  CHECK(gac_version_compare(unknown, at(0, 0), 2) == GAC_VERSION_MAYBE);
  CHECK(gac_version_compare(unknown, at(9, 3), 1) == GAC_VERSION_SAME);     /* one buffer: always */
}

/* The copy of iteration k into k mod 2 is (k' - 1) mod 2 from the next iteration k'. */
static void test_next_iteration(void) {
  gac_version v = gac_version_next_iteration(at(7, 0), 7);
  CHECK(v.known && v.value.base == 7 && v.value.offset == -1);
  v = gac_version_next_iteration(at(8, 2), 7); /* another base is left alone */
  CHECK(v.value.base == 8 && v.value.offset == 2);
  v = gac_version_next_iteration(at(0, 1), 7); /* and so is a constant */
  CHECK(v.value.base == 0 && v.value.offset == 1);
}

static const char *const indices =
    "OpCapability Addresses\n"
    "OpCapability Kernel\n"
    "OpMemoryModel Physical32 OpenCL\n"
    "OpEntryPoint Kernel %f \"f\"\n"
    "OpName %k \"k\"\n"
    "%void = OpTypeVoid\n"
    "%uint = OpTypeInt 32 0\n"
    "%c1 = OpConstant %uint 1\n"
    "%c2 = OpConstant %uint 2\n"
    "%c3 = OpConstant %uint 3\n"
    "%fty = OpTypeFunction %void %uint\n"
    "%f = OpFunction %void None %fty\n"
    "%k = OpFunctionParameter %uint\n"
    "%entry = OpLabel\n"
    "%mod2 = OpUMod %uint %k %c2\n"
    "%sub = OpISub %uint %k %c1\n"
    "%sub2 = OpUMod %uint %sub %c2\n"
    "%sub3 = OpUMod %uint %sub %c3\n"
    "%add = OpIAdd %uint %c1 %k\n"
    "%add3 = OpUMod %uint %add %c3\n"
    "%and = OpBitwiseAnd %uint %k %c1\n"
    "%xor = OpBitwiseXor %uint %and %c1\n"
    "%wrong = OpUMod %uint %k %c3\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* The nth result defined in the entry block, after its label. */
static uint32_t nth_result(const gac_module *m, unsigned nth) {
  unsigned i = 0;
  gac_foreach_inst(inst, &m->first_function->first_block->insts) {
    if (inst != m->first_function->first_block->insts.first && inst->result_id && i++ == nth)
      return inst->result_id;
  }
  return 0;
}

static bool counter_starts_at_2(void *user, uint32_t id, uint64_t *min) {
  (void)user;
  (void)id;
  *min = 2;
  return true;
}

static void test_of_index(void) {
  size_t n;
  uint32_t *w = assemble_or_die(indices, &n);
  gac_module *m = read_or_die(w, n);
  uint32_t k = 0;
  gac_foreach_inst(p, &m->first_function->params) k = p->result_id;
  uint32_t mod2 = nth_result(m, 0), sub2 = nth_result(m, 2), sub3 = nth_result(m, 3), add3 = nth_result(m, 5),
           and = nth_result(m, 6), xor = nth_result(m, 7), wrong = nth_result(m, 8);
  gac_version v = gac_version_of_index(m, mod2, 2, NULL, NULL);
  CHECK(v.known && v.value.base == k && v.value.offset == 0);
  v = gac_version_of_index(m, sub2, 2, NULL, NULL); /* (k - 1) mod 2: no wrap matters for V = 2 */
  CHECK(v.known && v.value.base == k && v.value.offset == -1);
  v = gac_version_of_index(m, sub3, 3, NULL, NULL); /* (k - 1) mod 3 wraps at k = 0 */
  CHECK(!v.known);
  v = gac_version_of_index(m, sub3, 3, counter_starts_at_2, NULL); /* unless k >= 1 */
  CHECK(v.known && v.value.offset == -1);
  v = gac_version_of_index(m, add3, 3, NULL, NULL);
  CHECK(v.known && v.value.base == k && v.value.offset == 1);
  v = gac_version_of_index(m, and, 2, NULL, NULL); /* k & 1 */
  CHECK(v.known && v.value.base == k && v.value.offset == 0);
  v = gac_version_of_index(m, xor, 2, NULL, NULL); /* (k & 1) ^ 1 */
  CHECK(v.known && v.value.base == k && v.value.offset == 1);
  v = gac_version_of_index(m, wrong, 2, NULL, NULL); /* k mod 3 indexing 2 versions */
  CHECK(!v.known);
  char text[64];
  gac_version_format(m, at(k, 1), 4, text, sizeof text);
  CHECK(strcmp(text, "(%k - 3) mod 4") == 0);
  gac_version_format(m, at(0, 5), 4, text, sizeof text);
  CHECK(strcmp(text, "1") == 0);
  gac_module_destroy(m);
  free(w);
}

static const char *const never_waited =
    "OpCapability Addresses\n"
    "OpCapability Kernel\n"
    "OpExtension \"SPV_KHR_non_semantic_info\"\n"
    "%gac = OpExtInstImport \"NonSemantic.Codeplay.GroupAsyncCopies\"\n"
    "OpMemoryModel Physical32 OpenCL\n"
    "OpEntryPoint Kernel %f \"f\"\n"
    "%void = OpTypeVoid\n"
    "%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n"
    "%event = OpTypeEvent\n"
    "%c0 = OpConstant %uint 0\n"
    "%c4 = OpConstant %uint 4\n"
    "%c16 = OpConstant %uint 16\n"
    "%arr = OpTypeArray %float %c16\n"
    "%parr = OpTypePointer Workgroup %arr\n"
    "%pl = OpTypePointer Workgroup %float\n"
    "%pg = OpTypePointer CrossWorkgroup %float\n"
    "%fty = OpTypeFunction %void %pg\n"
    "%null = OpConstantNull %event\n"
    "%tile = OpVariable %parr Workgroup\n"
    "%f = OpFunction %void None %fty\n"
    "%src = OpFunctionParameter %pg\n"
    "%entry = OpLabel\n"
    "%d = OpAccessChain %pl %tile %c0\n"
    "%e = OpExtInst %event %gac GroupAsyncCopy2D2D %d %c0 %src %c0 %c4 %c16 %c4 %c16 %c16 %null\n"
    "%x = OpLoad %float %d\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* The checker reports through diag and counts, and leaves the module's words as they were. */
static void test_entry_point_changes_nothing(void) {
  size_t n;
  uint32_t *w = assemble_or_die(never_waited, &n);
  gac_module *m = read_or_die(w, n);
  gac_diag d;
  gac_diag_init(&d);
  gac_check_async_counts counts;
  gac_check_async(m, &(gac_check_async_options){.verbose = true}, &d, &counts);
  uint32_t *after;
  size_t n2;
  CHECK(gac_module_write(m, &after, &n2));
  CHECK(n2 == n && memcmp(after, w, n * 4) == 0);
  CHECK(counts.violated == 1 && counts.proved == 0 && counts.undecided == 0);
  CHECK(gac_diag_has_errors(&d) && gac_diag_contains(&d, "CheckAsync.Violated"));
  free(after);
  gac_diag_free(&d);
  gac_module_destroy(m);
  free(w);
}

int main(void) {
  RUN_TEST(test_compare);
  RUN_TEST(test_next_iteration);
  RUN_TEST(test_of_index);
  RUN_TEST(test_entry_point_changes_nothing);
  return check_summary();
}
