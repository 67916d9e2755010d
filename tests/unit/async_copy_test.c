/* The GroupAsyncCopies tables, typed views, building and enumeration. */
#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gac/async_copy.h"
#include "modules.h"

/* The operand lists as the spec (seeds/003) gives them, transcribed here a
 * second time, independently of the grammar file the tables come from. */
static const char *const spec_2d2d[] = {"Destination", "Destination Offset", "Source", "Source Offset",
                                        "Num Bytes Per Element", "Num Elements Per Line", "Num Lines",
                                        "Source Line Length", "Destination Line Length", "Event"};
static const char *const spec_3d3d[] = {
    "Destination", "Destination Offset", "Source", "Source Offset", "Num Bytes Per Element",
    "Num Elements Per Line", "Num Lines", "Num Planes", "Source Line Length", "Source Plane Area",
    "Destination Line Length", "Destination Plane Area", "Event"};

static void check_info(uint32_t op, const char *name, const char *const *names, unsigned count) {
  const gac_async_copy_info *info = gac_async_copy_info_for(op);
  CHECK(info != NULL);
  if (!info)
    return;
  CHECK(strcmp(info->name, name) == 0);
  CHECK(gac_async_copy_info_by_name(name, strlen(name)) == info);
  CHECK(info->num_operands == count);
  for (unsigned i = 0; i < count && i < info->num_operands; i++)
    CHECK(strcmp(info->operands[i].name, names[i]) == 0);
}

static void test_tables_match_spec(void) {
  check_info(1, "GroupAsyncCopy2D2D", spec_2d2d, 10);
  check_info(2, "GroupAsyncCopy3D3D", spec_3d3d, 13);
  CHECK(gac_async_copy_info_for(0) == NULL && gac_async_copy_info_for(3) == NULL);
  CHECK(gac_async_copy_info_by_name("GroupAsyncCopy2D", 16) == NULL);
  CHECK(gac_async_copy_grammar_revision == 1);
  /* The identifiers used in text are the names without spaces. */
  CHECK(strcmp(gac_async_copy_info_for(2)->operands[9].identifier, "SourcePlaneArea") == 0);
}

/* The grammar file is the one the library was generated from. */
static void test_grammar_file_is_there(void) {
  FILE *f = fopen(GRAMMAR_FILE, "r");
  CHECK(f != NULL);
  if (!f)
    return;
  char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  CHECK(strstr(buf, "\"opname\": \"GroupAsyncCopy2D2D\"") != NULL);
  CHECK(strstr(buf, "\"opname\": \"GroupAsyncCopy3D3D\"") != NULL);
  CHECK(strstr(buf, "\"revision\": 1") != NULL);
}

static void test_decode_names_every_operand(void) {
  size_t n;
  uint32_t *w = assemble_or_die(copies_module, &n);
  gac_module *m = read_or_die(w, n);
  gac_inst *copies[3] = {0};
  unsigned count = 0;
  gac_foreach_async_copy(i, m) {
    if (count < 3)
      copies[count] = i;
    count++;
  }
  CHECK(count == 2);
  gac_async_copy a, b;
  CHECK(gac_async_copy_decode(m, copies[0], &a));
  CHECK(gac_async_copy_decode(m, copies[1], &b));
  CHECK(a.op == GAC_GROUP_ASYNC_COPY_2D2D && b.op == GAC_GROUP_ASYNC_COPY_3D3D);
  /* 2D2D: %dst %c0 %src %c0 %c4 %c16 %n %c32 %c16 %null */
  gac_inst *dst = gac_def(m, a.destination), *src = gac_def(m, a.source);
  CHECK(dst->opcode == SpvOpFunctionParameter && src->opcode == SpvOpFunctionParameter);
  CHECK(a.destination_offset == a.source_offset);
  CHECK(gac_def(m, a.num_bytes_per_element)->words[3] == 4);
  CHECK(gac_def(m, a.num_elements_per_line)->words[3] == 16);
  CHECK(gac_def(m, a.num_lines)->opcode == SpvOpFunctionParameter);
  CHECK(gac_def(m, a.source_line_length)->words[3] == 32);
  CHECK(gac_def(m, a.destination_line_length)->words[3] == 16);
  CHECK(gac_def(m, a.event)->opcode == SpvOpConstantNull);
  CHECK(a.num_planes == 0 && a.source_plane_area == 0 && a.destination_plane_area == 0);
  /* 3D3D goes the other way and chains on the first copy's event. */
  CHECK(b.destination == a.source && b.source == a.destination);
  CHECK(gac_def(m, b.num_planes)->words[3] == 1);
  CHECK(gac_def(m, b.source_plane_area)->words[3] == 256);
  CHECK(gac_def(m, b.destination_line_length)->words[3] == 32);
  CHECK(b.event == a.result);
  /* Not a copy: another instruction, or a copy with the wrong operand count. */
  gac_async_copy x;
  CHECK(!gac_async_copy_decode(m, m->sections[GAC_SECTION_GLOBAL].first, &x));
  gac_module_destroy(m);
  free(w);
}

/* Building from a decoded view gives back the same words (but a fresh result id). */
static void test_build_from_view(void) {
  size_t n;
  uint32_t *w = assemble_or_die(copies_module, &n);
  gac_module *m = read_or_die(w, n);
  for (gac_inst *i = gac_async_copy_next(m, NULL); i; i = gac_async_copy_next(m, i)) {
    gac_async_copy k;
    CHECK(gac_async_copy_decode(m, i, &k));
    k.result = 0;
    gac_builder b = gac_builder_after(m, i);
    gac_inst *again = gac_async_copy_build(&b, &k);
    CHECK(again->result_id != i->result_id && again->num_words == i->num_words);
    CHECK(memcmp(again->words + 3, i->words + 3, (i->num_words - 3) * 4) == 0);
    CHECK(again->words[0] == i->words[0] && again->words[1] == i->words[1]);
    i = again; /* go on after the new one */
  }
  gac_module_destroy(m);
  free(w);
}

/* Storing a changed view writes its operands into the instruction (and
 * its uses); the instruction keeps its result, and decodes to the view. */
static void test_store_view(void) {
  size_t n;
  uint32_t *w = assemble_or_die(copies_module, &n);
  gac_module *m = read_or_die(w, n);
  gac_inst *i = gac_async_copy_next(m, NULL);
  gac_async_copy k, back;
  CHECK(i && gac_async_copy_decode(m, i, &k));
  uint32_t result = i->result_id, lines = k.num_lines, per_line = k.num_elements_per_line;
  size_t uses_before = gac_use_count(m, lines);
  k.num_lines = per_line; /* any id of the size type */
  k.source_line_length = lines;
  gac_async_copy_store(m, i, &k);
  CHECK(i->result_id == result && gac_async_copy_decode(m, i, &back));
  CHECK(back.num_lines == per_line && back.source_line_length == lines);
  CHECK(memcmp(&back, &k, sizeof k) == 0);
  CHECK(gac_use_count(m, lines) == uses_before); /* one use moved from Num Lines to the line length */
  gac_module_destroy(m);
  free(w);
}

int main(void) {
  RUN_TEST(test_tables_match_spec);
  RUN_TEST(test_grammar_file_is_there);
  RUN_TEST(test_decode_names_every_operand);
  RUN_TEST(test_build_from_view);
  RUN_TEST(test_store_view);
  return check_summary();
}
