/* Unit tests of the in-memory module: reading, structure, ids, use lists,
 * mutation, the builder and writing. */
#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gac/async_copy.h"
#include "gac/builder.h"
#include "gac/validate.h"
#include "modules.h"

typedef struct finder {
  uint16_t opcode;
  unsigned skip;
  gac_inst *found;
} finder;

static void find_fn(gac_inst *i, void *user) {
  finder *f = user;
  if (!f->found && i->opcode == f->opcode && f->skip-- == 0)
    f->found = i;
}

/* The n-th instruction (from 0) with this opcode, in module order. */
static gac_inst *find(gac_module *m, uint16_t opcode, unsigned n) {
  finder f = {opcode, n, NULL};
  gac_module_visit(m, find_fn, &f);
  return f.found;
}

static unsigned list_length(const gac_inst_list *l) {
  unsigned n = 0;
  gac_foreach_inst(i, l) n++;
  return n;
}

static gac_module *copies(uint32_t **words, size_t *n) {
  *words = assemble_or_die(copies_module, n);
  return read_or_die(*words, *n);
}

static void test_read_structure(void) {
  uint32_t *w;
  size_t n;
  gac_module *m = copies(&w, &n);
  CHECK(m->version == 0x00010000);
  CHECK(list_length(&m->sections[GAC_SECTION_CAPABILITY]) == 4);
  CHECK(list_length(&m->sections[GAC_SECTION_EXTENSION]) == 1);
  CHECK(list_length(&m->sections[GAC_SECTION_EXT_INST_IMPORT]) == 1);
  CHECK(list_length(&m->sections[GAC_SECTION_MEMORY_MODEL]) == 1);
  CHECK(list_length(&m->sections[GAC_SECTION_ENTRY_POINT]) == 1);
  CHECK(list_length(&m->sections[GAC_SECTION_DEBUG_NAME]) == 1);
  CHECK(m->first_function && m->first_function == m->last_function);
  gac_function *f = m->first_function;
  CHECK(list_length(&f->params) == 3);
  CHECK(f->first_block && f->first_block->next == f->last_block);
  CHECK(gac_block_terminator(f->first_block)->opcode == SpvOpBranch);
  CHECK(gac_block_terminator(f->last_block)->opcode == SpvOpReturn);
  CHECK(gac_module_addressing_model(m) == SpvAddressingModelPhysical64);
  CHECK(gac_module_has_capability(m, SpvCapabilityKernel));
  CHECK(!gac_module_has_capability(m, SpvCapabilityShader));
  gac_inst *copy = find(m, SpvOpExtInst, 0);
  CHECK(gac_inst_block(copy) == f->first_block);
  CHECK(gac_inst_function(copy) == f);
  CHECK(gac_inst_function(find(m, SpvOpTypeInt, 0)) == NULL);
  CHECK(gac_def(m, copy->result_id) == copy);
  CHECK(copy->offset != GAC_NO_OFFSET && copy->offset < n);
  CHECK(w[copy->offset] == copy->words[0]);
  gac_module_destroy(m);
  free(w);
}

static void test_write_is_bit_exact(void) {
  uint32_t *w, *out;
  size_t n, out_n;
  gac_module *m = copies(&w, &n);
  CHECK(gac_module_write(m, &out, &out_n));
  CHECK(out_n == n && memcmp(out, w, n * 4) == 0);
  free(out);
  gac_module_destroy(m);
  free(w);
}

static void test_use_lists(void) {
  uint32_t *w;
  size_t n;
  gac_module *m = copies(&w, &n);
  gac_inst *e1 = find(m, SpvOpExtInst, 0), *e2 = find(m, SpvOpExtInst, 1);
  gac_inst *c0 = find(m, SpvOpConstant, 0);
  /* %c0 is Destination Offset and Source Offset of both copies. */
  CHECK(gac_use_count(m, c0->result_id) == 4);
  CHECK(gac_use_count(m, e1->result_id) == 1);
  CHECK(gac_first_use(m, e1->result_id)->inst == e2);
  /* Every use names the id it is on the list of. */
  for (gac_operand *u = gac_first_use(m, c0->result_id); u; u = u->next_use)
    CHECK(u->inst->words[u->offset] == c0->result_id);

  /* Replace %c0 by %c1 everywhere: the lists move with it. */
  gac_inst *c1 = find(m, SpvOpConstant, 1);
  size_t c1_before = gac_use_count(m, c1->result_id);
  CHECK(gac_replace_all_uses(m, c0->result_id, c1->result_id) == 4);
  CHECK(gac_use_count(m, c0->result_id) == 0);
  CHECK(gac_use_count(m, c1->result_id) == c1_before + 4);

  /* Removing an instruction takes its uses off the lists and its definition away. */
  uint32_t e2_id = e2->result_id;
  gac_inst *store = find(m, SpvOpStore, 0);
  gac_inst_remove(m, store);
  CHECK(gac_use_count(m, e2_id) == 0);
  CHECK(store->list == NULL);
  gac_inst_remove(m, e2);
  CHECK(gac_def(m, e2_id) == NULL);
  CHECK(gac_use_count(m, e1->result_id) == 0);
  gac_module_destroy(m);
  free(w);
}

static void test_set_operand(void) {
  uint32_t *w;
  size_t n;
  gac_module *m = copies(&w, &n);
  gac_module_build_uses(m);
  gac_inst *e2 = find(m, SpvOpExtInst, 1);
  gac_inst *null = find(m, SpvOpConstantNull, 0);
  uint32_t e1 = find(m, SpvOpExtInst, 0)->result_id;
  unsigned event_operand = e2->num_operands - 1;
  gac_inst_set_id_operand(m, e2, event_operand, null->result_id);
  CHECK(gac_use_count(m, e1) == 0);
  CHECK(e2->words[e2->num_words - 1] == null->result_id);
  gac_async_copy k;
  CHECK(gac_async_copy_decode(m, e2, &k) && k.event == null->result_id);
  gac_module_destroy(m);
  free(w);
}

static void test_builder_unique_types(void) {
  uint32_t *w;
  size_t n;
  gac_module *m = copies(&w, &n);
  uint32_t bound = m->bound;
  uint32_t ulong = find(m, SpvOpTypeInt, 0)->result_id;
  CHECK(gac_type_int(m, 64, 0) == ulong);
  CHECK(gac_type_event(m) == find(m, SpvOpTypeEvent, 0)->result_id);
  CHECK(gac_constant_int(m, ulong, 16) == find(m, SpvOpConstant, 4)->result_id);
  CHECK(m->bound == bound); /* nothing new was needed */
  uint32_t i16 = gac_type_int(m, 16, 1);
  CHECK(i16 == bound && m->bound == bound + 1);
  CHECK(gac_type_int(m, 16, 1) == i16);
  uint32_t big = gac_constant_int(m, ulong, 0x123456789ull);
  gac_inst *def = gac_def(m, big);
  CHECK(def && def->num_words == 5 && def->words[3] == 0x23456789u && def->words[4] == 1);
  uint32_t v4 = gac_type_vector(m, i16, 4);
  CHECK(gac_first_use(m, i16) && gac_first_use(m, i16)->inst == gac_def(m, v4));
  /* The component count is a literal, not a use of the id with that number. */
  CHECK(gac_use_count(m, 4) == 0 || gac_first_use(m, 4)->inst != gac_def(m, v4));
  gac_module_destroy(m);
  free(w);
}

/* A whole kernel made with the builder validates, core rules included. */
static void test_build_module_from_scratch(void) {
  gac_module *m = gac_module_create(0x00010000);
  gac_require_capability(m, SpvCapabilityAddresses);
  gac_require_capability(m, SpvCapabilityKernel);
  gac_require_capability(m, SpvCapabilityInt64);
  gac_require_capability(m, SpvCapabilityInt8);
  gac_require_capability(m, SpvCapabilityKernel); /* once only */
  CHECK(m->sections[GAC_SECTION_CAPABILITY].first->next->next->next->next == NULL);
  gac_builder mm = gac_builder_at_end(m, &m->sections[GAC_SECTION_MEMORY_MODEL]);
  gac_build_ops(&mm, SpvOpMemoryModel, 0, 0, GAC_LIT(SpvAddressingModelPhysical64),
                GAC_LIT(SpvMemoryModelOpenCL));

  uint32_t void_t = gac_type_void(m), ulong = gac_type_int(m, 64, 0), uchar = gac_type_int(m, 8, 0);
  uint32_t gptr = gac_type_pointer(m, SpvStorageClassCrossWorkgroup, uchar);
  uint32_t lptr = gac_type_pointer(m, SpvStorageClassWorkgroup, uchar);
  uint32_t fnty = gac_type_function(m, void_t, (uint32_t[]){gptr, lptr}, 2);
  gac_function *f = gac_function_create(m, void_t, SpvFunctionControlMaskNone, fnty);
  uint32_t src = gac_function_add_param(m, f, gptr), dst = gac_function_add_param(m, f, lptr);
  gac_builder ep = gac_builder_at_end(m, &m->sections[GAC_SECTION_ENTRY_POINT]);
  gac_build_ops(&ep, SpvOpEntryPoint, 0, 0, GAC_LIT(SpvExecutionModelKernel), GAC_ID(f->def->result_id),
                GAC_STR("tile"));
  gac_block *b = gac_block_create(m, f, NULL);
  gac_builder at = gac_builder_at_end(m, &b->insts);
  uint32_t c0 = gac_constant_int(m, ulong, 0), c4 = gac_constant_int(m, ulong, 4);
  uint32_t c8 = gac_constant_int(m, ulong, 8), c64 = gac_constant_int(m, ulong, 64);
  gac_async_copy k = {
      .op = GAC_GROUP_ASYNC_COPY_2D2D, .destination = dst, .destination_offset = c0, .source = src,
      .source_offset = c0, .num_bytes_per_element = c4, .num_elements_per_line = c8, .num_lines = c8,
      .source_line_length = c64, .destination_line_length = c8,
      .event = gac_constant_null(m, gac_type_event(m))};
  gac_inst *copy = gac_async_copy_build(&at, &k);
  CHECK(copy && gac_is_async_copy_inst(m, copy));
  gac_build(&at, SpvOpReturn, 0, 0, NULL, 0);
  CHECK(gac_find_ext_inst_import(m, GAC_ASYNC_COPIES_SET) != 0);

  gac_async_copy back;
  CHECK(gac_async_copy_decode(m, copy, &back));
  k.result_type = copy->type_id;
  k.result = copy->result_id;
  CHECK(memcmp(&back, &k, sizeof k) == 0);

  gac_diag d;
  gac_diag_init(&d);
  gac_validate_options opts = {.core = true, .target_env = gac_target_env_parse("opencl1.2")};
  CHECK(gac_validate(m, &opts, &d));
  gac_diag_print(&d, stderr, "built module");

  /* Written and read back, it is the same module. */
  uint32_t *w, *w2;
  size_t n, n2;
  CHECK(gac_module_write(m, &w, &n));
  gac_module *again = gac_module_read(w, n, &d);
  CHECK(again != NULL);
  CHECK(gac_module_write(again, &w2, &n2));
  CHECK(n == n2 && memcmp(w, w2, n * 4) == 0);
  free(w);
  free(w2);
  gac_module_destroy(again);
  gac_module_destroy(m);
  gac_diag_free(&d);
}

/* Instructions inserted through a builder land where it points. */
static void test_builder_positions(void) {
  uint32_t *w;
  size_t n;
  gac_module *m = copies(&w, &n);
  gac_inst *store = find(m, SpvOpStore, 0);
  gac_builder before = gac_builder_before(m, store);
  gac_inst *nop = gac_build(&before, SpvOpNop, 0, 0, NULL, 0);
  CHECK(nop->next == store && store->prev == nop);
  gac_builder after = gac_builder_after(m, store);
  gac_inst *nop2 = gac_build(&after, SpvOpNop, 0, 0, NULL, 0);
  CHECK(store->next == nop2);
  gac_block *first = m->first_function->first_block;
  gac_block *mid = gac_block_create(m, m->first_function, first);
  CHECK(first->next == mid && mid->next == m->first_function->last_block);
  CHECK(gac_block_label(mid) != 0 && gac_def(m, gac_block_label(mid)) == mid->insts.first);
  gac_module_destroy(m);
  free(w);
}

/* A block no path reaches goes, with the phi pair and the name that
 * named it and what it defined; the rest of the function stays valid. */
static void test_remove_unreachable_blocks(void) {
  static const char text[] =
      "; Version: 1.0\n"
      "OpCapability Addresses\nOpCapability Kernel\n"
      "OpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %k \"k\"\n"
      "OpName %dead \"dead\"\nOpName %x \"x\"\n"
      "%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%one = OpConstant %uint 1\n%two = OpConstant %uint 2\n"
      "%fnty = OpTypeFunction %void\n"
      "%k = OpFunction %void None %fnty\n"
      "%entry = OpLabel\nOpBranch %join\n"
      "%dead = OpLabel\n%x = OpIAdd %uint %one %two\nOpBranch %join\n"
      "%join = OpLabel\n%p = OpPhi %uint %one %entry %x %dead\nOpReturn\n"
      "OpFunctionEnd\n";
  size_t n;
  uint32_t *words = assemble_or_die(text, &n);
  gac_module *m = read_or_die(words, n);
  unsigned blocks = 0;
  gac_foreach_block(b, m->first_function) blocks++;
  CHECK(blocks == 3);
  gac_function_remove_unreachable_blocks(m, m->first_function);
  blocks = 0;
  gac_foreach_block(b, m->first_function) blocks++;
  CHECK(blocks == 2);
  gac_inst *phi = find(m, SpvOpPhi, 0);
  CHECK(phi && phi->num_operands == 4); /* type, result, one (value, parent) pair */
  CHECK(list_length(&m->sections[GAC_SECTION_DEBUG_NAME]) == 0);
  gac_diag d;
  gac_diag_init(&d);
  gac_validate_options vo = {.core = true, .target_env = -1};
  CHECK(gac_validate(m, &vo, &d));
  gac_diag_free(&d);
  gac_module_destroy(m);
  free(words);
}

int main(void) {
  RUN_TEST(test_read_structure);
  RUN_TEST(test_write_is_bit_exact);
  RUN_TEST(test_use_lists);
  RUN_TEST(test_set_operand);
  RUN_TEST(test_builder_unique_types);
  RUN_TEST(test_build_module_from_scratch);
  RUN_TEST(test_builder_positions);
  RUN_TEST(test_remove_unreachable_blocks);
  return check_summary();
}
