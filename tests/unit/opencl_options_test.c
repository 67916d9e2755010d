/* The OpenCL lowering's typed options (gac/opencl.h): every set of options
 * written by gac_opencl_options_format reads back as itself, one spelling
 * per set (the layer's cache key); the parser refuses what the pass
 * refuses; a short buffer still gets the length. */
#include <string.h>

#include "check.h"
#include "gac/opencl.h"

static bool same(const gac_opencl_options *a, const gac_opencl_options *b) {
  return a->strategy == b->strategy && a->device == b->device && a->helpers == b->helpers &&
         a->one_unit_loop == b->one_unit_loop && a->generic_events == b->generic_events;
}

static void test_round_trip(void) {
  char seen[6 * 2 * 3 * 4][128];
  unsigned n = 0;
  for (int s = GAC_OPENCL_LINES; s <= GAC_OPENCL_AUTO; s++)
    for (int d = GAC_OPENCL_DEVICE_POCL_CPU; d <= GAC_OPENCL_DEVICE_GPU; d++)
      for (int h = GAC_OPENCL_HELPERS_AUTO; h <= GAC_OPENCL_HELPERS_NEVER; h++)
        for (int f = 0; f < 4; f++) {
          gac_opencl_options o = {(gac_opencl_strategy)s, (gac_opencl_device)d, (gac_opencl_helpers)h, f & 1, f & 2};
          char text[128];
          int len = gac_opencl_options_format(&o, text, sizeof text);
          CHECK(len > 0 && (size_t)len == strlen(text));
          gac_opencl_options back;
          CHECK(gac_opencl_options_parse(text, &back));
          CHECK(same(&o, &back));
          for (unsigned k = 0; k < n; k++)
            CHECK(strcmp(seen[k], text) != 0);
          strcpy(seen[n++], text);
        }
  CHECK(n == sizeof seen / sizeof *seen);
}

static void test_spelling(void) {
  char text[128];
  gac_opencl_options o = gac_opencl_options_default();
  gac_opencl_options_format(&o, text, sizeof text);
  CHECK(strcmp(text, "opencl,strategy=cooperative,device=pocl-cpu,helpers=auto") == 0);
  gac_opencl_options parsed;
  CHECK(gac_opencl_options_parse("opencl,events=generic,strategy=auto,units=one", &parsed));
  gac_opencl_options_format(&parsed, text, sizeof text);
  CHECK(strcmp(text, "opencl,strategy=auto,device=pocl-cpu,helpers=auto,units=one,events=generic") == 0);
  /* The whole length, as snprintf, in a buffer too short (and none). */
  char small[10];
  int len = gac_opencl_options_format(&parsed, small, sizeof small);
  CHECK(len == (int)strlen(text) && strlen(small) == sizeof small - 1 && strncmp(small, text, sizeof small - 1) == 0);
  CHECK(gac_opencl_options_format(&parsed, NULL, 0) == len);
}

static void test_refused(void) {
  static const char *bad[] = {"opencl,strategy=bogus", "openclx", "ptx", "opencl,", "opencl,strategy=auto,",
                              "opencl,units=two"};
  gac_opencl_options o;
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK(!gac_opencl_options_parse(bad[i], &o));
  CHECK(gac_opencl_options_parse(NULL, &o));
  gac_opencl_options d = gac_opencl_options_default();
  CHECK(same(&o, &d));
}

int main(void) {
  RUN_TEST(test_round_trip);
  RUN_TEST(test_spelling);
  RUN_TEST(test_refused);
  return check_summary();
}
