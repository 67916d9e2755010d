/* gac-gen-module: writes a large, valid SPIR-V 1.0 OpenCL kernel module that
 * uses NonSemantic.Codeplay.GroupAsyncCopies, for benchmarks and round-trip
 * tests. Built with the library's builder.
 *
 * Each kernel is a chain of "diamonds": a head block with integer and float
 * arithmetic, loads and stores (Function, CrossWorkgroup, Workgroup), a call
 * and sometimes a pair of copies, then OpBranchConditional to two arms that
 * meet again in a block starting with OpPhi, which is the next head. Values
 * carried from one diamond to the next are defined in heads only, so they
 * dominate every later use. A copy's event is used only as the Event operand
 * of a later copy, which keeps the module acceptable to plain spirv-val. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/builder.h"

enum {
  NUM_HELPERS = 16,         /* small non-kernel functions that kernels call */
  DIAMONDS_PER_KERNEL = 40, /* about 35 instructions each */
  COPY_EVERY = 4,           /* a 2D2D + 3D3D pair in every 4th head block */
};

typedef struct types {
  uint32_t void_, bool_, uint_, uchar, float_, event;
  uint32_t size; /* the copies' size operands: uint under Physical32, ulong under Physical64 */
  uint32_t fn_uint, fn_float;           /* Function pointers */
  uint32_t cross_uint, wg_uint;         /* CrossWorkgroup and Workgroup uint pointers */
  uint32_t cross_uchar, wg_uchar;       /* the copies' byte buffers */
  uint32_t helper_fn, kernel_fn;        /* function types */
} types;

typedef struct constants {
  uint32_t u[8];          /* uint 1, 3, 5, ..., 15 */
  uint32_t mask, limit;   /* uint 255, uint 0x40000000 */
  uint32_t f_half, f_two; /* float 0.5, 2.0 */
  uint32_t null_event;
  /* The copies' constant sizes, of the size type. */
  uint32_t zero, bytes_per_element, elements_per_line, lines, planes;
  uint32_t narrow_line, wide_line;  /* line lengths, both >= elements_per_line */
  uint32_t narrow_area, wide_area;  /* plane areas, both >= lines * line length */
} constants;

typedef struct generator {
  gac_module *m;
  types t;
  constants c;
  gac_builder at;          /* where instructions go */
  uint32_t helpers[NUM_HELPERS];
  unsigned num_kernels;
  uint32_t addressing;
} generator;

/* Appends an instruction that defines a value and returns its id. */
#define VALUE(g, opcode, type, ...) gac_build_ops(&(g)->at, (opcode), (type), GAC_NEW_ID, __VA_ARGS__)->result_id
/* Appends an instruction without a result. */
#define EFFECT(g, opcode, ...) gac_build_ops(&(g)->at, (opcode), 0, 0, __VA_ARGS__)

static void module_header(generator *g) {
  gac_module *m = g->m;
  bool is64 = g->addressing == SpvAddressingModelPhysical64;
  gac_require_capability(m, SpvCapabilityAddresses);
  gac_require_capability(m, SpvCapabilityKernel);
  if (is64)
    gac_require_capability(m, SpvCapabilityInt64);
  gac_require_capability(m, SpvCapabilityInt8);
  gac_require_extension(m, "SPV_KHR_non_semantic_info");
  gac_require_ext_inst_import(m, GAC_ASYNC_COPIES_SET);
  gac_builder b = gac_builder_at_end(m, &m->sections[GAC_SECTION_MEMORY_MODEL]);
  gac_build_ops(&b, SpvOpMemoryModel, 0, 0, GAC_LIT(g->addressing), GAC_LIT(SpvMemoryModelOpenCL));

  /* Types and constants are looked up linearly by the builder, so make each once. */
  types *t = &g->t;
  t->void_ = gac_type_void(m);
  t->bool_ = gac_type_bool(m);
  t->uint_ = gac_type_int(m, 32, 0);
  t->uchar = gac_type_int(m, 8, 0);
  t->float_ = gac_type_float(m, 32);
  t->event = gac_type_event(m);
  t->size = is64 ? gac_type_int(m, 64, 0) : t->uint_;
  t->fn_uint = gac_type_pointer(m, SpvStorageClassFunction, t->uint_);
  t->fn_float = gac_type_pointer(m, SpvStorageClassFunction, t->float_);
  t->cross_uint = gac_type_pointer(m, SpvStorageClassCrossWorkgroup, t->uint_);
  t->wg_uint = gac_type_pointer(m, SpvStorageClassWorkgroup, t->uint_);
  t->cross_uchar = gac_type_pointer(m, SpvStorageClassCrossWorkgroup, t->uchar);
  t->wg_uchar = gac_type_pointer(m, SpvStorageClassWorkgroup, t->uchar);
  t->helper_fn = gac_type_function(m, t->uint_, (uint32_t[]){t->uint_, t->uint_}, 2);
  t->kernel_fn = gac_type_function(
      m, t->void_, (uint32_t[]){t->cross_uint, t->wg_uint, t->cross_uchar, t->wg_uchar}, 4);

  constants *c = &g->c;
  for (unsigned i = 0; i < 8; i++)
    c->u[i] = gac_constant_int(m, t->uint_, 2 * i + 1);
  c->mask = gac_constant_int(m, t->uint_, 255);
  c->limit = gac_constant_int(m, t->uint_, 0x40000000);
  float half = 0.5f, two = 2.0f;
  uint32_t half_bits, two_bits;
  memcpy(&half_bits, &half, 4);
  memcpy(&two_bits, &two, 4);
  c->f_half = gac_constant_int(m, t->float_, half_bits);
  c->f_two = gac_constant_int(m, t->float_, two_bits);
  c->null_event = gac_constant_null(m, t->event);
  c->zero = gac_constant_int(m, t->size, 0);
  c->bytes_per_element = gac_constant_int(m, t->size, 4);
  c->elements_per_line = gac_constant_int(m, t->size, 16);
  c->lines = gac_constant_int(m, t->size, 8);
  c->planes = gac_constant_int(m, t->size, 2);
  c->narrow_line = gac_constant_int(m, t->size, 16);
  c->wide_line = gac_constant_int(m, t->size, 32);
  c->narrow_area = gac_constant_int(m, t->size, 8 * 16);
  c->wide_area = gac_constant_int(m, t->size, 8 * 32 + 64); /* with a gap between planes */
}

static void add_name(generator *g, uint32_t id, const char *text) {
  gac_builder b = gac_builder_at_end(g->m, &g->m->sections[GAC_SECTION_DEBUG_NAME]);
  gac_build_ops(&b, SpvOpName, 0, 0, GAC_ID(id), GAC_STR(text));
}

static gac_block *start_block(generator *g, gac_function *f) {
  gac_block *b = gac_block_create(g->m, f, NULL);
  g->at = gac_builder_at_end(g->m, &b->insts);
  return b;
}

/* uint helper(uint a, uint b): arithmetic through a Function variable and a diamond. */
static uint32_t make_helper(generator *g, unsigned index) {
  const types *t = &g->t;
  const constants *c = &g->c;
  gac_function *f = gac_function_create(g->m, t->uint_, SpvFunctionControlMaskNone, t->helper_fn);
  uint32_t a = gac_function_add_param(g->m, f, t->uint_);
  uint32_t b = gac_function_add_param(g->m, f, t->uint_);
  start_block(g, f);
  uint32_t var = VALUE(g, SpvOpVariable, t->fn_uint, GAC_LIT(SpvStorageClassFunction));
  uint32_t sum = VALUE(g, SpvOpIAdd, t->uint_, GAC_ID(a), GAC_ID(b));
  uint32_t product = VALUE(g, SpvOpIMul, t->uint_, GAC_ID(sum), GAC_ID(c->u[index % 8]));
  EFFECT(g, SpvOpStore, GAC_ID(var), GAC_ID(product));
  uint32_t loaded = VALUE(g, SpvOpLoad, t->uint_, GAC_ID(var));
  uint32_t mixed = VALUE(g, SpvOpBitwiseXor, t->uint_, GAC_ID(loaded), GAC_ID(b));
  uint32_t cond = VALUE(g, SpvOpUGreaterThan, t->bool_, GAC_ID(mixed), GAC_ID(a));
  gac_inst *branch = EFFECT(g, SpvOpBranchConditional, GAC_ID(cond), GAC_ID(0), GAC_ID(0));

  gac_block *yes = start_block(g, f);
  uint32_t up = VALUE(g, SpvOpIAdd, t->uint_, GAC_ID(mixed), GAC_ID(c->u[1]));
  gac_inst *yes_branch = EFFECT(g, SpvOpBranch, GAC_ID(0));
  gac_block *no = start_block(g, f);
  uint32_t down = VALUE(g, SpvOpISub, t->uint_, GAC_ID(mixed), GAC_ID(c->u[2]));
  gac_inst *no_branch = EFFECT(g, SpvOpBranch, GAC_ID(0));
  gac_block *merge = start_block(g, f);
  uint32_t result = VALUE(g, SpvOpPhi, t->uint_, GAC_ID(up), GAC_ID(gac_block_label(yes)),
                          GAC_ID(down), GAC_ID(gac_block_label(no)));
  EFFECT(g, SpvOpReturnValue, GAC_ID(result));

  /* Branch targets are known only now; operands hold placeholders until here. */
  gac_inst_set_id_operand(g->m, branch, 1, gac_block_label(yes));
  gac_inst_set_id_operand(g->m, branch, 2, gac_block_label(no));
  gac_inst_set_id_operand(g->m, yes_branch, 0, gac_block_label(merge));
  gac_inst_set_id_operand(g->m, no_branch, 0, gac_block_label(merge));

  char text[32];
  snprintf(text, sizeof text, "helper_%u", index);
  add_name(g, f->def->result_id, text);
  return f->def->result_id;
}

/* A copy offset of the size type, computed from value so that it is not constant. */
static uint32_t offset_from(generator *g, uint32_t value) {
  uint32_t small = VALUE(g, SpvOpBitwiseAnd, g->t.uint_, GAC_ID(value), GAC_ID(g->c.mask));
  if (g->t.size == g->t.uint_)
    return small;
  return VALUE(g, SpvOpUConvert, g->t.size, GAC_ID(small));
}

/* Global -> local 2D2D, then local -> global 3D3D chained to its event. Returns the last event. */
static uint32_t emit_copies(generator *g, uint32_t acc, uint32_t event, uint32_t global_bytes,
                            uint32_t local_bytes) {
  const constants *c = &g->c;
  gac_async_copy in = {
      .op = GAC_GROUP_ASYNC_COPY_2D2D,
      .result_type = g->t.event,
      .destination = local_bytes,
      .destination_offset = offset_from(g, acc),
      .source = global_bytes,
      .source_offset = c->zero,
      .num_bytes_per_element = c->bytes_per_element,
      .num_elements_per_line = c->elements_per_line,
      .num_lines = c->lines,
      .source_line_length = c->wide_line,
      .destination_line_length = c->narrow_line,
      .event = event,
  };
  uint32_t in_event = gac_async_copy_build(&g->at, &in)->result_id;
  gac_async_copy out = {
      .op = GAC_GROUP_ASYNC_COPY_3D3D,
      .result_type = g->t.event,
      .destination = global_bytes,
      .destination_offset = c->zero,
      .source = local_bytes,
      .source_offset = offset_from(g, acc),
      .num_bytes_per_element = c->bytes_per_element,
      .num_elements_per_line = c->elements_per_line,
      .num_lines = c->lines,
      .num_planes = c->planes,
      .source_line_length = c->narrow_line,
      .source_plane_area = c->narrow_area,
      .destination_line_length = c->wide_line,
      .destination_plane_area = c->wide_area,
      .event = in_event,
  };
  return gac_async_copy_build(&g->at, &out)->result_id;
}

static size_t function_size(const gac_function *f) {
  size_t n = 2; /* OpFunction and OpFunctionEnd */
  for (const gac_inst *p = f->params.first; p; p = p->next)
    n++;
  gac_foreach_block(b, f) {
    for (const gac_inst *i = b->insts.first; i; i = i->next)
      n++;
  }
  return n;
}

/* void kernel(global uint*, local uint*, global uchar*, local uchar*).
 * Returns how many instructions it added to the module. */
static size_t make_kernel(generator *g) {
  const types *t = &g->t;
  const constants *c = &g->c;
  gac_module *m = g->m;
  unsigned k = g->num_kernels++;
  gac_function *f = gac_function_create(m, t->void_, SpvFunctionControlMaskNone, t->kernel_fn);
  uint32_t global_words = gac_function_add_param(m, f, t->cross_uint);
  uint32_t local_words = gac_function_add_param(m, f, t->wg_uint);
  uint32_t global_bytes = gac_function_add_param(m, f, t->cross_uchar);
  uint32_t local_bytes = gac_function_add_param(m, f, t->wg_uchar);

  start_block(g, f);
  uint32_t int_var = VALUE(g, SpvOpVariable, t->fn_uint, GAC_LIT(SpvStorageClassFunction));
  uint32_t float_var = VALUE(g, SpvOpVariable, t->fn_float, GAC_LIT(SpvStorageClassFunction));
  uint32_t acc = VALUE(g, SpvOpLoad, t->uint_, GAC_ID(global_words));
  EFFECT(g, SpvOpStore, GAC_ID(int_var), GAC_ID(acc));
  EFFECT(g, SpvOpStore, GAC_ID(float_var), GAC_ID(c->f_half));
  uint32_t event = c->null_event;

  for (unsigned d = 0; d < DIAMONDS_PER_KERNEL; d++) {
    const uint32_t *u = c->u;
    /* Head: an integer chain. */
    acc = VALUE(g, SpvOpIAdd, t->uint_, GAC_ID(acc), GAC_ID(u[d % 8]));
    acc = VALUE(g, SpvOpIMul, t->uint_, GAC_ID(acc), GAC_ID(u[(d + 3) % 8]));
    acc = VALUE(g, SpvOpBitwiseXor, t->uint_, GAC_ID(acc), GAC_ID(u[(d + 5) % 8]));
    uint32_t shifted = VALUE(g, SpvOpShiftRightLogical, t->uint_, GAC_ID(acc), GAC_ID(u[1]));
    acc = VALUE(g, SpvOpISub, t->uint_, GAC_ID(acc), GAC_ID(shifted));
    acc = VALUE(g, SpvOpBitwiseOr, t->uint_, GAC_ID(acc), GAC_ID(u[0]));
    /* A float chain through the Function variable. */
    uint32_t as_float = VALUE(g, SpvOpConvertUToF, t->float_, GAC_ID(acc));
    uint32_t old = VALUE(g, SpvOpLoad, t->float_, GAC_ID(float_var));
    uint32_t scaled = VALUE(g, SpvOpFMul, t->float_, GAC_ID(as_float), GAC_ID(c->f_half));
    uint32_t fsum = VALUE(g, SpvOpFAdd, t->float_, GAC_ID(scaled), GAC_ID(old));
    uint32_t fdiv = VALUE(g, SpvOpFDiv, t->float_, GAC_ID(fsum), GAC_ID(c->f_two));
    EFFECT(g, SpvOpStore, GAC_ID(float_var), GAC_ID(fdiv));
    uint32_t back = VALUE(g, SpvOpConvertFToU, t->uint_, GAC_ID(fdiv));
    /* Function, CrossWorkgroup and Workgroup memory. */
    uint32_t stored = VALUE(g, SpvOpLoad, t->uint_, GAC_ID(int_var));
    acc = VALUE(g, SpvOpIAdd, t->uint_, GAC_ID(acc), GAC_ID(stored));
    acc = VALUE(g, SpvOpBitwiseXor, t->uint_, GAC_ID(acc), GAC_ID(back));
    EFFECT(g, SpvOpStore, GAC_ID(int_var), GAC_ID(acc));
    uint32_t slot = VALUE(g, SpvOpInBoundsPtrAccessChain, t->cross_uint, GAC_ID(global_words),
                          GAC_ID(u[d % 8]));
    EFFECT(g, SpvOpStore, GAC_ID(slot), GAC_ID(acc));
    uint32_t shared = VALUE(g, SpvOpLoad, t->uint_, GAC_ID(local_words));
    EFFECT(g, SpvOpStore, GAC_ID(local_words), GAC_ID(acc));
    acc = VALUE(g, SpvOpFunctionCall, t->uint_, GAC_ID(g->helpers[(k + d) % NUM_HELPERS]),
                GAC_ID(acc), GAC_ID(shared));
    if (d % COPY_EVERY == 0)
      event = emit_copies(g, acc, event, global_bytes, local_bytes);
    uint32_t cond = VALUE(g, SpvOpULessThan, t->bool_, GAC_ID(acc), GAC_ID(c->limit));
    gac_inst *branch = EFFECT(g, SpvOpBranchConditional, GAC_ID(cond), GAC_ID(0), GAC_ID(0));

    /* Two arms; their values reach the merge only through OpPhi. */
    gac_block *yes = start_block(g, f);
    uint32_t up = VALUE(g, SpvOpIAdd, t->uint_, GAC_ID(acc), GAC_ID(u[2]));
    up = VALUE(g, SpvOpIMul, t->uint_, GAC_ID(up), GAC_ID(u[3]));
    gac_inst *yes_branch = EFFECT(g, SpvOpBranch, GAC_ID(0));
    gac_block *no = start_block(g, f);
    uint32_t down = VALUE(g, SpvOpISub, t->uint_, GAC_ID(acc), GAC_ID(u[4]));
    down = VALUE(g, SpvOpShiftLeftLogical, t->uint_, GAC_ID(down), GAC_ID(u[0]));
    gac_inst *no_branch = EFFECT(g, SpvOpBranch, GAC_ID(0));
    gac_block *merge = start_block(g, f);
    acc = VALUE(g, SpvOpPhi, t->uint_, GAC_ID(up), GAC_ID(gac_block_label(yes)), GAC_ID(down),
                GAC_ID(gac_block_label(no)));

    gac_inst_set_id_operand(m, branch, 1, gac_block_label(yes));
    gac_inst_set_id_operand(m, branch, 2, gac_block_label(no));
    gac_inst_set_id_operand(m, yes_branch, 0, gac_block_label(merge));
    gac_inst_set_id_operand(m, no_branch, 0, gac_block_label(merge));
  }
  EFFECT(g, SpvOpStore, GAC_ID(global_words), GAC_ID(acc));
  gac_build(&g->at, SpvOpReturn, 0, 0, NULL, 0);

  char text[32];
  snprintf(text, sizeof text, "kernel_%u", k);
  gac_builder b = gac_builder_at_end(m, &m->sections[GAC_SECTION_ENTRY_POINT]);
  gac_build_ops(&b, SpvOpEntryPoint, 0, 0, GAC_LIT(SpvExecutionModelKernel), GAC_ID(f->def->result_id),
                GAC_STR(text));
  add_name(g, f->def->result_id, text);
  return function_size(f) + 2; /* with OpEntryPoint and OpName */
}

static void count_one(gac_inst *inst, void *count) {
  (void)inst;
  ++*(size_t *)count;
}

static size_t count_instructions(gac_module *m) {
  size_t n = 0;
  gac_module_visit(m, count_one, &n);
  return n;
}

static int usage(FILE *out, int status) {
  fputs("Usage: gac-gen-module [--instructions N] [--addressing 32|64] -o out.spv\n"
        "Writes a valid SPIR-V 1.0 OpenCL kernel module of at least N instructions\n"
        "(default 1000000) that uses NonSemantic.Codeplay.GroupAsyncCopies.\n",
        out);
  return status;
}

int main(int argc, char **argv) {
  unsigned long long target = 1000000;
  unsigned addressing_bits = 64;
  const char *output = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has_value = i + 1 < argc;
    char *end;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      return usage(stdout, 0);
    } else if (strcmp(a, "--instructions") == 0 && has_value) {
      errno = 0;
      target = strtoull(argv[++i], &end, 10);
      if (errno || *end || end == argv[i])
        return usage(stderr, 2);
    } else if (strcmp(a, "--addressing") == 0 && has_value) {
      addressing_bits = (unsigned)strtoul(argv[++i], &end, 10);
      if (*end || (addressing_bits != 32 && addressing_bits != 64))
        return usage(stderr, 2);
    } else if (strcmp(a, "-o") == 0 && has_value) {
      output = argv[++i];
    } else {
      return usage(stderr, 2);
    }
  }
  if (!output)
    return usage(stderr, 2);

  generator g = {
      .m = gac_module_create(0x00010000),
      .addressing = addressing_bits == 32 ? SpvAddressingModelPhysical32 : SpvAddressingModelPhysical64,
  };
  module_header(&g);
  for (unsigned i = 0; i < NUM_HELPERS; i++)
    g.helpers[i] = make_helper(&g, i);
  /* At least one kernel, so that there is an entry point; then as many as it takes. */
  size_t count = count_instructions(g.m);
  do
    count += make_kernel(&g);
  while (count < target);

  uint32_t *words;
  size_t num_words;
  if (!gac_module_write(g.m, &words, &num_words)) {
    fputs("gac-gen-module: out of memory\n", stderr);
    return 1;
  }
  FILE *f = fopen(output, "wb");
  bool ok = f && fwrite(words, sizeof(uint32_t), num_words, f) == num_words;
  if (f && fclose(f) != 0)
    ok = false;
  if (!ok)
    fprintf(stderr, "gac-gen-module: cannot write %s: %s\n", output, strerror(errno));
  else
    printf("gac-gen-module: %s: %zu instructions, %u kernels, %zu words\n", output,
            count_instructions(g.m), g.num_kernels, num_words);
  free(words);
  gac_module_destroy(g.m);
  return ok ? 0 : 1;
}
