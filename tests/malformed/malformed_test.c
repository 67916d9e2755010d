/* Malformed binaries: each case derives one broken binary from a small valid
 * module and names the diagnostic the reader must give for it.
 *
 *   malformed_test [output-dir]
 *
 * For every case gac_module_read_bytes (and gac_module_read, when the length
 * is a whole number of words) must return NULL with an error whose message or
 * rule contains the expected text; reading without a diag must not crash.
 * With output-dir, each binary is also written to <output-dir>/<name>.spv for
 * the gac-opt test (run_gac_opt.cmake). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/module.h"
#include "gac/text.h"
#include "gac/validate.h"

/* Ids 1..23 are used; the bound is 40, so 30..39 are free for the cases. */
static const char base_text[] =
    "; SPIR-V\n"
    "; Version: 1.0\n"
    "; Bound: 40\n"
    "OpCapability Addresses\n"
    "OpCapability Kernel\n"
    "OpCapability Int64\n"
    "OpExtension \"SPV_KHR_non_semantic_info\"\n"
    "%1 = OpExtInstImport \"NonSemantic.Codeplay.GroupAsyncCopies\"\n"
    "OpMemoryModel Physical64 OpenCL\n"
    "OpEntryPoint Kernel %20 \"k\"\n"
    "OpName %20 \"k\"\n"
    "%2 = OpTypeVoid\n"
    "%3 = OpTypeInt 64 0\n"
    "%4 = OpTypeEvent\n"
    "%5 = OpTypePointer Workgroup %3\n"
    "%6 = OpTypePointer CrossWorkgroup %3\n"
    "%7 = OpTypeFunction %2 %6\n"
    "%8 = OpConstant %3 0\n"
    "%9 = OpConstant %3 8\n"
    "%10 = OpConstant %3 4\n"
    "%11 = OpConstantNull %4\n"
    "%12 = OpVariable %5 Workgroup\n"
    "%20 = OpFunction %2 None %7\n"
    "%21 = OpFunctionParameter %6\n"
    "%22 = OpLabel\n"
    "%23 = OpExtInst %4 %1 GroupAsyncCopy2D2D Destination=%12 DestinationOffset=%8 Source=%21 "
    "SourceOffset=%8 NumBytesPerElement=%9 NumElementsPerLine=%10 NumLines=%10 "
    "SourceLineLength=%10 DestinationLineLength=%10 Event=%11\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

enum { MAX_WORDS = 256 };

typedef struct bin {
  uint32_t w[MAX_WORDS];
  size_t n;           /* words */
  size_t drop_bytes;  /* bytes cut off the end (for a length that is not a multiple of 4) */
} bin;

static bin base;

static uint32_t opword(uint32_t opcode, uint32_t count) { return count << 16 | opcode; }
static uint32_t count_of(const bin *b, size_t at) { return b->w[at] >> 16; }

/* Word offset of the nth (from 0) instruction with the opcode; aborts if none. */
static size_t find(const bin *b, uint32_t opcode, unsigned nth) {
  for (size_t at = 5; at < b->n && count_of(b, at) > 0; at += count_of(b, at))
    if ((b->w[at] & 0xffff) == opcode && nth-- == 0)
      return at;
  fprintf(stderr, "malformed_test: the base module lacks an instruction with opcode %u\n", opcode);
  abort();
}
static size_t next(const bin *b, size_t at) { return at + count_of(b, at); }

static void insert(bin *b, size_t at, const uint32_t *w, size_t n) {
  if (b->n + n > MAX_WORDS)
    abort();
  memmove(b->w + at + n, b->w + at, (b->n - at) * sizeof(uint32_t));
  memcpy(b->w + at, w, n * sizeof(uint32_t));
  b->n += n;
}
#define INSERT(b, at, ...) \
  insert(b, at, (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

static void erase(bin *b, size_t at, size_t n) {
  memmove(b->w + at, b->w + at + n, (b->n - at - n) * sizeof(uint32_t));
  b->n -= n;
}
static void erase_inst(bin *b, size_t at) { erase(b, at, count_of(b, at)); }

/* ---- the cases ----
 * Each breaks a copy of the base module and returns the word offset the error
 * must carry: the start of the offending instruction, 0 for the header. */

static size_t empty(bin *b) { b->n = 0; return 0; }
static size_t short_header(bin *b) { b->n = 3; return 0; }
static size_t header_without_schema(bin *b) { b->n = 4; return 0; }
static size_t bad_magic(bin *b) { b->w[0] = 0x07230204; return 0; }
static size_t odd_length(bin *b) { b->drop_bytes = 1; return b->n - 1; }
static size_t unsupported_version(bin *b) { b->w[1] = 0x00020000; return 1; }
static size_t bound_zero(bin *b) { b->w[3] = 0; return 3; }
/* The reader keeps tables indexed by id: ids past SPIR-V's limit are refused, not allocated. */
/* Ids past SPIR-V's limit need a bound past it: the header's bound (word 3)
 * is refused before any id is read or anything is sized by it. */
static size_t huge_result_id(bin *b) {
  size_t at = find(b, SpvOpTypeEvent, 0);
  b->w[3] = 0xffffffff;
  b->w[at + 1] = 0xfffffff0;
  return 3;
}
static size_t huge_operand_id(bin *b) {
  size_t at = find(b, SpvOpEntryPoint, 0);
  b->w[3] = 0xffffffff;
  b->w[at + 2] = 0x400000;
  return 3;
}
static size_t bound_too_small(bin *b) { b->w[3] = 23; return find(b, SpvOpExtInst, 0); /* defines %23 */ }
static size_t truncated_instruction(bin *b) {
  size_t at = find(b, SpvOpExtInst, 0);
  b->n = at + 4;
  return at;
}
static size_t word_count_zero(bin *b) {
  size_t at = find(b, SpvOpTypeEvent, 0);
  b->w[at] = opword(SpvOpTypeEvent, 0);
  return at;
}
static size_t word_count_past_end(bin *b) {
  size_t at = find(b, SpvOpFunctionEnd, 0);
  b->w[at] = opword(SpvOpFunctionEnd, 9);
  return at;
}
static size_t word_count_too_big(bin *b) {
  /* OpTypeVoid takes no operand: a third word is one too many. */
  size_t at = find(b, SpvOpTypeVoid, 0);
  INSERT(b, at + 2, 0);
  b->w[at] = opword(SpvOpTypeVoid, 3);
  return at;
}
static size_t unknown_opcode(bin *b) {
  size_t at = find(b, SpvOpReturn, 0);
  INSERT(b, at, opword(0xfff0, 1));
  return at;
}
static size_t result_id_zero(bin *b) {
  size_t at = find(b, SpvOpTypeEvent, 0);
  b->w[at + 1] = 0;
  return at;
}
static size_t operand_id_zero(bin *b) {
  size_t at = find(b, SpvOpTypePointer, 0);
  b->w[at + 3] = 0;
  return at;
}
static size_t result_id_at_bound(bin *b) {
  size_t at = find(b, SpvOpTypeEvent, 0);
  b->w[at + 1] = 40;
  return at;
}
static size_t operand_id_past_bound(bin *b) {
  size_t at = find(b, SpvOpExtInst, 0);
  b->w[at + 7] = 1000;
  return at;
}
static size_t duplicate_result_id(bin *b) {
  size_t at = find(b, SpvOpConstant, 1);
  b->w[at + 2] = 8;
  return at;
}
static size_t duplicate_result_id_in_function(bin *b) {
  size_t at = find(b, SpvOpLabel, 0);
  b->w[at + 1] = 21; /* the parameter's id */
  return at;
}
static size_t type_int_missing_word(bin *b) {
  size_t at = find(b, SpvOpTypeInt, 0);
  erase(b, at + 3, 1);
  b->w[at] = opword(SpvOpTypeInt, 3);
  return at;
}
static size_t string_without_terminator(bin *b) {
  /* OpName %20 "k": the string's only word becomes "kkkk", with no NUL in the instruction. */
  size_t at = find(b, SpvOpName, 0);
  memcpy(&b->w[at + 2], "kkkk", 4);
  return at;
}
static size_t string_padding_not_zero(bin *b) {
  /* OpName %20 "k": bytes 'k', NUL, NUL, 'X'. SPIR-V wants zero padding, and text cannot keep it. */
  size_t at = find(b, SpvOpName, 0);
  memcpy(&b->w[at + 2], "k\0\0X", 4);
  return at;
}
static size_t import_name_without_terminator(bin *b) {
  size_t at = find(b, SpvOpExtInstImport, 0);
  memcpy(&b->w[next(b, at) - 1], "AAAA", 4);
  return at;
}
static size_t bad_storage_class(bin *b) {
  size_t at = find(b, SpvOpTypePointer, 0);
  b->w[at + 2] = 0xffff;
  return at;
}
static size_t bad_addressing_model(bin *b) {
  size_t at = find(b, SpvOpMemoryModel, 0);
  b->w[at + 1] = 77;
  return at;
}
static size_t bad_memory_model(bin *b) {
  size_t at = find(b, SpvOpMemoryModel, 0);
  b->w[at + 2] = 77;
  return at;
}
static size_t bad_capability(bin *b) {
  size_t at = find(b, SpvOpCapability, 0);
  b->w[at + 1] = 0x7fffffff;
  return at;
}
static size_t constant_of_non_type(bin *b) {
  size_t at = find(b, SpvOpConstant, 0);
  b->w[at + 1] = 12; /* a variable */
  return at;
}
static size_t constant_of_undefined_type(bin *b) {
  size_t at = find(b, SpvOpConstant, 0);
  b->w[at + 1] = 30;
  return at;
}
static size_t capability_after_type(bin *b) {
  size_t at = next(b, find(b, SpvOpTypeInt, 0));
  INSERT(b, at, opword(SpvOpCapability, 2), SpvCapabilityInt8);
  return at;
}
static size_t memory_model_after_name(bin *b) {
  size_t at = find(b, SpvOpMemoryModel, 0);
  uint32_t mm[3];
  memcpy(mm, b->w + at, sizeof mm);
  erase(b, at, 3);
  at = next(b, find(b, SpvOpName, 0));
  insert(b, at, mm, 3);
  return at;
}
static size_t type_after_function(bin *b) {
  size_t at = b->n;
  INSERT(b, at, opword(SpvOpTypeFloat, 3), 30, 32);
  return at;
}
static size_t label_outside_function(bin *b) {
  size_t at = find(b, SpvOpFunction, 0);
  INSERT(b, at, opword(SpvOpLabel, 2), 30);
  return at;
}
static size_t terminator_outside_function(bin *b) {
  size_t at = find(b, SpvOpFunction, 0);
  INSERT(b, at, opword(SpvOpReturn, 1));
  return at;
}
static size_t parameter_outside_function(bin *b) {
  size_t at = find(b, SpvOpFunction, 0);
  INSERT(b, at, opword(SpvOpFunctionParameter, 3), 6, 30);
  return at;
}
static size_t function_end_outside_function(bin *b) {
  size_t at = find(b, SpvOpFunction, 0);
  INSERT(b, at, opword(SpvOpFunctionEnd, 1));
  return at;
}
static size_t instruction_before_label(bin *b) {
  size_t at = find(b, SpvOpLabel, 0);
  INSERT(b, at, opword(SpvOpCopyObject, 4), 3, 30, 8);
  return at;
}
static size_t instruction_after_terminator(bin *b) {
  size_t at = next(b, find(b, SpvOpReturn, 0));
  INSERT(b, at, opword(SpvOpNop, 1));
  return at;
}
static size_t block_without_terminator(bin *b) {
  size_t at = find(b, SpvOpReturn, 0);
  erase_inst(b, at);
  return at; /* where OpFunctionEnd now is */
}
static size_t label_inside_block(bin *b) {
  size_t at = find(b, SpvOpReturn, 0);
  INSERT(b, at, opword(SpvOpLabel, 2), 30);
  return at;
}
static size_t missing_function_end(bin *b) {
  erase_inst(b, find(b, SpvOpFunctionEnd, 0));
  return b->n; /* the end of the module */
}
static size_t missing_function_end_in_params(bin *b) {
  b->n = find(b, SpvOpLabel, 0);
  return b->n;
}
static size_t function_nested_in_block(bin *b) {
  size_t at = find(b, SpvOpReturn, 0);
  INSERT(b, at, opword(SpvOpFunction, 5), 2, 30, 0, 7);
  return at;
}
static size_t function_nested_in_params(bin *b) {
  size_t at = find(b, SpvOpLabel, 0);
  INSERT(b, at, opword(SpvOpFunction, 5), 2, 30, 0, 7);
  return at;
}
static size_t unknown_import_name(bin *b) {
  /* "NonSemantic.Codeplay..." becomes "MonSemantic.Codeplay...": neither NonSemantic nor known. */
  size_t at = find(b, SpvOpExtInstImport, 0);
  memcpy(&b->w[at + 2], "M", 1);
  return at;
}
static size_t ext_inst_undefined_set(bin *b) {
  size_t at = find(b, SpvOpExtInst, 0);
  b->w[at + 3] = 30;
  return at;
}
static size_t ext_inst_set_not_an_import(bin *b) {
  size_t at = find(b, SpvOpExtInst, 0);
  b->w[at + 3] = 3; /* a type */
  return at;
}

typedef struct test_case {
  const char *name;
  size_t (*make)(bin *);
  const char *expect; /* substring of an error's message or rule */
} test_case;

#define CASE(fn, expect) {#fn, fn, expect}
static const test_case cases[] = {
    CASE(empty, "incomplete header"),
    CASE(short_header, "incomplete header"),
    CASE(header_without_schema, "incomplete header"),
    CASE(bad_magic, "magic number"),
    CASE(odd_length, "binary.size"),
    CASE(unsupported_version, "unsupported SPIR-V version"),
    CASE(bound_zero, "binary.header"),
    CASE(huge_result_id, "larger than SPIR-V's limit of 4194303"),
    CASE(huge_operand_id, "larger than SPIR-V's limit of 4194303"),
    CASE(bound_too_small, "binary.id-bound"),
    CASE(truncated_instruction, "End of input reached"),
    CASE(word_count_zero, "word count: 0"),
    CASE(word_count_past_end, "stated word count is 9"),
    CASE(word_count_too_big, "stated word count is 3"),
    CASE(unknown_opcode, "Invalid opcode"),
    CASE(result_id_zero, "Result Id is 0"),
    CASE(operand_id_zero, "Id is 0"),
    CASE(result_id_at_bound, "binary.id-bound"),
    CASE(operand_id_past_bound, "binary.id-bound"),
    CASE(duplicate_result_id, "defined more than once"),
    CASE(duplicate_result_id_in_function, "defined more than once"),
    CASE(type_int_missing_word, "expected more operands"),
    CASE(string_without_terminator, "Invalid word count"),
    CASE(string_padding_not_zero, "padding"),
    CASE(import_name_without_terminator, "Invalid word count"),
    CASE(bad_storage_class, "Invalid storage class"),
    CASE(bad_addressing_model, "Invalid addressing model"),
    CASE(bad_memory_model, "Invalid memory model"),
    CASE(bad_capability, "Invalid capability"),
    CASE(constant_of_non_type, "is not a type"),
    CASE(constant_of_undefined_type, "is not a type"),
    CASE(capability_after_type, "layout.order"),
    CASE(memory_model_after_name, "layout.order"),
    CASE(type_after_function, "after a function"),
    CASE(label_outside_function, "outside a function"),
    CASE(terminator_outside_function, "outside a function"),
    CASE(parameter_outside_function, "outside a function"),
    CASE(function_end_outside_function, "outside a function"),
    CASE(instruction_before_label, "layout.function"),
    CASE(instruction_after_terminator, "follows the terminator"),
    CASE(block_without_terminator, "no terminator"),
    CASE(label_inside_block, "no terminator"),
    CASE(missing_function_end, "OpFunctionEnd is missing"),
    CASE(missing_function_end_in_params, "OpFunctionEnd is missing"),
    CASE(function_nested_in_block, "layout.block"),
    CASE(function_nested_in_params, "layout.function"),
    CASE(unknown_import_name, "Invalid extended instruction import"),
    CASE(ext_inst_undefined_set, "does not reference an OpExtInstImport"),
    CASE(ext_inst_set_not_an_import, "does not reference an OpExtInstImport"),
};

static void write_case(const char *dir, const char *name, const void *bytes, size_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.spv", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(bytes, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "malformed_test: cannot write %s\n", path);
    exit(2);
  }
}

static char *diag_text(const gac_diag *d) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    abort();
  if (d->count == 0)
    fputs("(no diagnostics)", f);
  for (size_t i = 0; i < d->count; i++)
    fprintf(f, "%sword %zu: %s [%s]", i ? "; " : "", d->entries[i].word_offset,
            d->entries[i].message, d->entries[i].rule ? d->entries[i].rule : "");
  fclose(f);
  return text;
}

/* The first error whose message or rule contains needle. */
static const gac_diag_entry *find_error(const gac_diag *d, const char *needle) {
  for (size_t i = 0; i < d->count; i++) {
    const gac_diag_entry *e = &d->entries[i];
    if (e->severity == GAC_ERROR && (strstr(e->message, needle) || (e->rule && strstr(e->rule, needle))))
      return e;
  }
  return NULL;
}


/* One reading: NULL module, an error containing the expected text, at the expected word. */
static bool check_read(const test_case *c, size_t at, gac_module *m, const gac_diag *d,
                       const char *how) {
  const gac_diag_entry *e = find_error(d, c->expect);
  char why[128] = "";
  if (m)
    snprintf(why, sizeof why, "the module was accepted");
  else if (!gac_diag_has_errors(d))
    snprintf(why, sizeof why, "no error reported");
  else if (!e)
    snprintf(why, sizeof why, "no error contains '%s'", c->expect);
  else if (e->word_offset != at)
    snprintf(why, sizeof why, "the error should be at word %zu", at);
  gac_module_destroy(m);
  if (!why[0])
    return true;
  char *text = diag_text(d);
  printf("FAIL %s: %s (%s): got %s\n", c->name, why, how, text);
  free(text);
  return false;
}

static bool run_case(const test_case *c, const char *dir) {
  bin b = base;
  size_t at = c->make(&b);
  size_t n = b.n * sizeof(uint32_t) - b.drop_bytes;
  if (dir)
    write_case(dir, c->name, b.w, n);

  gac_diag d;
  gac_diag_init(&d);
  bool ok = check_read(c, at, gac_module_read_bytes(b.w, n, &d), &d, "gac_module_read_bytes");
  if (ok && n % 4 == 0) {
    gac_diag_clear(&d);
    ok = check_read(c, at, gac_module_read(b.w, n / 4, &d), &d, "gac_module_read");
  }
  gac_diag_free(&d);
  /* Without a diag the reader must fail quietly. */
  gac_module *m = gac_module_read_bytes(b.w, n, NULL);
  if (ok && m) {
    printf("FAIL %s: accepted when read without a diag\n", c->name);
    ok = false;
  }
  gac_module_destroy(m);
  if (ok)
    printf("PASS %s\n", c->name);
  return ok;
}

static bool make_base(void) {
  gac_diag d;
  gac_diag_init(&d);
  uint32_t *words = NULL;
  size_t n = 0;
  bool ok = gac_assemble(base_text, strlen(base_text), &words, &n, &d) && n <= MAX_WORDS;
  gac_module *m = ok ? gac_module_read(words, n, &d) : NULL;
  gac_validate_options opts = {.core = true, .target_env = -1};
  ok = m && gac_validate(m, &opts, &d);
  if (ok) {
    memcpy(base.w, words, n * sizeof(uint32_t));
    base.n = n;
  } else {
    fputs("malformed_test: the base module is not valid:\n", stderr);
    gac_diag_print(&d, stderr, "base");
  }
  gac_module_destroy(m);
  free(words);
  gac_diag_free(&d);
  return ok;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : NULL;
  setvbuf(stdout, NULL, _IOLBF, 0); /* keep the lines printed before a sanitizer abort */
  if (!make_base())
    return 2;
  unsigned passed = 0, failed = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_case(&cases[i], dir) ? passed++ : failed++;
  }

  /* A NULL pointer with no bytes is the empty file too. */
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = gac_module_read_bytes(NULL, 0, &d);
  if (!m && gac_diag_has_errors(&d)) {
    printf("PASS empty_null\n");
    passed++;
  } else {
    printf("FAIL empty_null: got %zu diagnostics\n", d.count);
    failed++;
  }
  gac_module_destroy(m);
  gac_diag_free(&d);

  printf("%u passed, %u failed\n", passed, failed);
  return failed ? 1 : 0;
}
