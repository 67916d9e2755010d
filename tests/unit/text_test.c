/* Text: named disassembly, assembly of the named and numeric forms, header
 * preservation, both byte orders. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "modules.h"

static void test_print_assemble_identity(void) {
  size_t n, n2;
  uint32_t *w = assemble_or_die(copies_module, &n);
  w[2] = 0x12345678; /* an unknown generator */
  w[3] += 10;        /* a bound above what the ids need */
  char *text;
  gac_diag d;
  gac_diag_init(&d);
  CHECK(gac_disassemble(w, n, &text, &d));
  CHECK(strstr(text, "GroupAsyncCopy2D2D Destination=") != NULL);
  CHECK(strstr(text, "GroupAsyncCopy3D3D Destination=") != NULL);
  CHECK(strstr(text, " Event=") != NULL);
  CHECK(strstr(text, "; Generator: 0x12345678") != NULL);
  uint32_t *w2;
  CHECK(gac_assemble(text, strlen(text), &w2, &n2, &d));
  CHECK(n == n2 && memcmp(w, w2, n * 4) == 0);
  free(w2);
  free(text);
  free(w);
  gac_diag_free(&d);
}

/* Named, labelled-named and numeric forms assemble to the same words. */
static void test_three_forms_agree(void) {
  const char *forms[] = {"GroupAsyncCopy2D2D %dst %c0 %src %c0 %c4 %c16 %n %c32 %c16 %null",
                         "GroupAsyncCopy2D2D Destination=%dst DestinationOffset=%c0 Source=%src "
                         "SourceOffset=%c0 NumBytesPerElement=%c4 NumElementsPerLine=%c16 "
                         "NumLines=%n SourceLineLength=%c32 DestinationLineLength=%c16 Event=%null",
                         "1 %dst %c0 %src %c0 %c4 %c16 %n %c32 %c16 %null"};
  uint32_t *first = NULL;
  size_t first_n = 0;
  for (unsigned i = 0; i < 3; i++) {
    const char *from = forms[0];
    const char *at = strstr(copies_module, from);
    CHECK(at != NULL);
    size_t len = strlen(copies_module) - strlen(from) + strlen(forms[i]) + 1;
    char *text = malloc(len);
    snprintf(text, len, "%.*s%s%s", (int)(at - copies_module), copies_module, forms[i], at + strlen(from));
    size_t n;
    uint32_t *w = assemble_or_die(text, &n);
    if (!first) {
      first = w;
      first_n = n;
    } else {
      CHECK(n == first_n && memcmp(w, first, n * 4) == 0);
      free(w);
    }
    free(text);
  }
  free(first);
}

static void test_big_endian(void) {
  size_t n;
  uint32_t *w = assemble_or_die(copies_module, &n);
  uint32_t *be = malloc(n * 4);
  for (size_t i = 0; i < n; i++)
    be[i] = __builtin_bswap32(w[i]);
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = gac_module_read(be, n, &d);
  CHECK(m && m->big_endian);
  uint32_t *out;
  size_t out_n;
  CHECK(m && gac_module_write(m, &out, &out_n));
  CHECK(m && out_n == n && memcmp(out, be, n * 4) == 0);
  char *text;
  CHECK(gac_disassemble(be, n, &text, &d));
  CHECK(strstr(text, "GroupAsyncCopy3D3D") != NULL);
  free(text);
  if (m)
    free(out);
  gac_module_destroy(m);
  gac_diag_free(&d);
  free(be);
  free(w);
}

static void test_assembler_errors(void) {
  gac_diag d;
  gac_diag_init(&d);
  uint32_t *w = NULL;
  size_t n = 0;
  const char *bad = "OpCapability Kernel\n%x = OpTypeInt 32\n";
  CHECK(!gac_assemble(bad, strlen(bad), &w, &n, &d));
  CHECK(gac_diag_contains(&d, "OpTypeInt") && gac_diag_contains(&d, "text.syntax"));
  gac_diag_clear(&d);
  const char *low_bound = "; Bound: 2\nOpCapability Kernel\n%a = OpTypeVoid\n%b = OpTypeBool\n";
  CHECK(!gac_assemble(low_bound, strlen(low_bound), &w, &n, &d));
  CHECK(gac_diag_contains(&d, "text.bound"));
  gac_diag_free(&d);
}

int main(void) {
  RUN_TEST(test_print_assemble_identity);
  RUN_TEST(test_three_forms_agree);
  RUN_TEST(test_big_endian);
  RUN_TEST(test_assembler_errors);
  return check_summary();
}
