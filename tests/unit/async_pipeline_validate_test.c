/* The AsyncPipeline validator on the warp-specialised kernel of the lit tests
 * (tests/lit/validate/Inputs/warp-specialized.spvasm): valid as written; with
 * any revision 3 instruction given too few or too many operands, exactly
 * OperandCount; with any id operand of its extended instructions and loads
 * replaced by any id of the module, never a crash or a read out of bounds
 * (the sanitizers watch), and false exactly when it reports an error. The
 * lit tests check each rule's diagnostic; these check the rules' code
 * against malformed neighbours they do not name. */
#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gac/async_pipeline.h"
#include "modules.h"

static uint32_t *kernel_words(size_t *n) {
  FILE *f = fopen(WS_KERNEL, "rb");
  if (!f) {
    perror(WS_KERNEL);
    abort();
  }
  static char text[1 << 16];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = '\0';
  return assemble_or_die(text, n);
}

/* Validates words; checks that the result agrees with the diagnostics and
 * that every diagnostic is one of the set's. Returns the number of errors
 * whose rule is `rule` (any rule if NULL). */
static size_t validate(const uint32_t *words, size_t n, const char *rule) {
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = gac_module_read(words, n, &d);
  size_t matching = 0;
  CHECK(m != NULL);
  if (m) {
    bool ok = gac_validate_async_pipeline(m, &d);
    CHECK(ok == !gac_diag_has_errors(&d));
    for (size_t k = 0; k < d.count; k++) {
      CHECK(strncmp(d.entries[k].rule, "AsyncPipeline.", 14) == 0);
      matching += !rule || strcmp(d.entries[k].rule, rule) == 0;
    }
    gac_module_destroy(m);
  }
  gac_diag_free(&d);
  return matching;
}

static void test_kernel_valid(void) {
  size_t n;
  uint32_t *w = kernel_words(&n);
  CHECK(validate(w, n, NULL) == 0);
  free(w);
}

/* words with the instruction at `at` (of `count` words) given `operands`
 * operands after its instruction number: cut, or padded with its last word. */
static uint32_t *resized(const uint32_t *w, size_t n, size_t at, unsigned count, unsigned operands, size_t *out_n) {
  unsigned new_count = 5 + operands;
  uint32_t *r = malloc((n - count + new_count) * sizeof *r);
  memcpy(r, w, at * sizeof *r);
  r[at] = (uint32_t)new_count << 16 | (w[at] & 0xffff);
  for (unsigned k = 1; k < new_count; k++)
    r[at + k] = w[at + (k < count ? k : count - 1)];
  memcpy(r + at + new_count, w + at + count, (n - at - count) * sizeof *r);
  *out_n = n - count + new_count;
  return r;
}

static void test_operand_counts(void) {
  size_t n;
  uint32_t *w = kernel_words(&n);
  gac_module *m = read_or_die(w, n);
  unsigned tried = 0;
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (gac_async_pipeline_op_of(m, i) < GAC_WARP_SPECIALIZE)
          continue;
        unsigned have = i->num_words - 5u;
        for (unsigned k = 0; k <= have + 1; k++) {
          size_t rn;
          uint32_t *r = resized(w, n, i->offset, i->num_words, k, &rn);
          size_t errors = validate(r, rn, "AsyncPipeline.OperandCount");
          CHECK(errors == (k != have));
          free(r);
          tried++;
        }
      }
    }
  }
  CHECK(tried > 30);
  gac_module_destroy(m);
  free(w);
}

static void test_operands_replaced(void) {
  size_t n;
  uint32_t *w = kernel_words(&n);
  gac_module *m = read_or_die(w, n);
  unsigned tried = 0;
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (i->opcode != SpvOpExtInst && i->opcode != SpvOpLoad)
          continue;
        for (unsigned k = 0; k < i->num_operands; k++) {
          unsigned word = i->operands[k].offset;
          if (i->operands[k].kind != GAC_OPERAND_ID || word <= 3) /* keep the type and the set */
            continue;
          for (uint32_t id = 1; id < m->bound; id++) {
            uint32_t saved = w[i->offset + word];
            w[i->offset + word] = id;
            validate(w, n, NULL);
            w[i->offset + word] = saved;
            tried++;
          }
        }
      }
    }
  }
  CHECK(tried > 1000);
  gac_module_destroy(m);
  free(w);
}

/* The sizes PipeSharedMemory counts: OpenCL's layout. */
static void test_type_bytes(void) {
  size_t n;
  uint32_t *w = kernel_words(&n);
  gac_module *m = read_or_die(w, n);
  unsigned seen = 0;
  gac_foreach_inst(t, &m->sections[GAC_SECTION_GLOBAL]) {
    const gac_inst *element = t->opcode == SpvOpTypeArray ? gac_def(m, t->words[2]) : NULL;
    long long want = -1;
    if (t->opcode == SpvOpTypeFloat)
      want = 4;
    else if (t->opcode == SpvOpTypeVector) /* ulong3: four ulongs */
      want = 32;
    else if (element && element->opcode == SpvOpTypeArray) /* the ring: 3 slots of 256 floats */
      want = 3 * 1024;
    else if (t->opcode == SpvOpTypeEvent || t->opcode == SpvOpTypePointer)
      want = 0;
    if (want >= 0) {
      CHECK((long long)gac_type_bytes(m, t->result_id) == want);
      seen++;
    }
  }
  CHECK(gac_type_bytes(m, 0) == 0);
  CHECK(seen >= 5);
  gac_module_destroy(m);
  free(w);
}

int main(void) {
  RUN_TEST(test_kernel_valid);
  RUN_TEST(test_operand_counts);
  RUN_TEST(test_operands_replaced);
  RUN_TEST(test_type_bytes);
  return check_summary();
}
