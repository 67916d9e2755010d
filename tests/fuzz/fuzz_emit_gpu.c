/* libFuzzer target: the GPU paths, --emit=ptx (sm_80, sm_90) and
 * --emit=amdgcn (gfx942, gfx90a, assembly), on every input that is a valid
 * module. Each emission raises, lowers for its target, validates the
 * lowered module, bridges it through llvm-spirv-15 -r (a subprocess) and
 * runs LLVM 19's backend. The promise checked: it refuses with a diagnostic
 * or returns the text of a module, never crashes, and never hands the
 * bridge a module its own lowering made invalid ([ptx.internal],
 * [amdgcn.internal]). Which of the four an input takes follows from a hash
 * of its bytes. spirv_mutator.c gives the inputs. See README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "gac/amdgcn.h"
#include "gac/module.h"
#include "gac/ptx.h"
#include "gac/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = fuzz_read_valid(data, size, &d);
  if (!m)
    return 0;
  uint32_t h = fuzz_hash(data, size);
  char *out = NULL;
  size_t out_size = 0;
  bool ok;
  const char *expect;
  if (h % 4 < 2) {
    gac_ptx_options o = {.sm = h % 4 ? 90 : 80};
    ok = gac_emit_ptx(m, &o, &out, &out_size, &d);
    expect = h % 4 ? ".target sm_90" : ".target sm_80";
  } else {
    gac_amdgcn_options o = {.mcpu = h % 4 == 2 ? "gfx942" : "gfx90a", .output = GAC_AMDGCN_ASSEMBLY};
    ok = gac_emit_amdgcn(m, &o, &out, &out_size, &d);
    expect = h % 4 == 2 ? "gfx942" : "gfx90a";
  }
  if (ok) {
    if (!out || out_size == 0 || strlen(out) != out_size)
      fuzz_fail("the emission succeeded without a NUL-terminated text of the size it gave", NULL);
    if (!strstr(out, expect))
      fuzz_fail("the emitted text is not for the target asked for", NULL);
    if (gac_diag_has_errors(&d))
      fuzz_fail("the emission succeeded but reported an error", &d);
    fuzz_count(FUZZ_OUTPUT);
  } else {
    if (!gac_diag_has_errors(&d))
      fuzz_fail("the emission failed without an error", &d);
    if (fuzz_has_rule_suffix(&d, ".internal"))
      fuzz_fail("the lowering for the GPU made a valid module invalid", &d);
  }
  free(out);
  gac_module_destroy(m);
  gac_diag_free(&d);
  return 0;
}
