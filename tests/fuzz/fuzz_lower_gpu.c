/* libFuzzer target: the SPIR-V half of the GPU paths (gac_ptx_lower_spirv,
 * gac_amdgcn_lower_spirv: lowering/common/gpu_lower_spirv.c), everything
 * gac does before it hands a module to llvm-spirv-15, on every input that is
 * a valid module: sm_80, sm_90, sm_90 warp-specialised, gfx90a, gfx942 and
 * gfx942 ping-pong, one of the six by a hash of the input. No LLVM, no
 * subprocess: thousands of inputs a second, where fuzz_emit_gpu, which adds
 * the bridge and LLVM's backend, runs tens. The promise checked: the half
 * refuses with an error, never with "<target>.internal" (its own lowering
 * made a valid module invalid), or leaves a module that validates, writes
 * and reads back. spirv_mutator.c gives the inputs. See README.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "gac/amdgcn.h"
#include "gac/module.h"
#include "gac/ptx.h"
#include "gac/validate.h"
#include "amdgcn_lowering.h"
#include "lowering.h"
#include "ptx_lowering.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = fuzz_read_valid(data, size, &d);
  if (!m)
    return 0;
  uint32_t h = fuzz_hash(data, size);
  bool ok;
  unsigned target = h % 6;
  if (target < 3) {
    gac_ptx_options o = {.sm = target ? 90 : 80, .warp_specialize = target == 2};
    ok = gac_ptx_lower_spirv(m, &o, &d);
  } else {
    gac_amdgcn_options o = {.mcpu = target == 3 ? "gfx90a" : "gfx942", .pingpong = target == 5};
    ok = gac_amdgcn_lower_spirv(m, &o, &d);
  }
  gac_validate_options with_core = {.core = true, .target_env = -1};
  if (ok) {
    if (gac_diag_has_errors(&d))
      fuzz_fail("the lowering succeeded but reported an error", &d);
    gac_diag_clear(&d);
    if (!gac_validate(m, &with_core, &d))
      fuzz_fail("the lowering succeeded but left an invalid module", &d);
    uint32_t *words = NULL;
    size_t n = 0;
    if (!gac_module_write(m, &words, &n))
      fuzz_fail("the lowered module does not write", NULL);
    gac_module *back = gac_module_read(words, n, &d);
    if (!back)
      fuzz_fail("the lowered module does not read back", &d);
    gac_module_destroy(back);
    free(words);
    fuzz_count(FUZZ_OUTPUT);
  } else {
    if (!gac_diag_has_errors(&d))
      fuzz_fail("the lowering failed without an error", &d);
    if (fuzz_has_rule_suffix(&d, ".internal"))
      fuzz_fail("the lowering for the GPU made a valid module invalid", &d);
  }
  gac_module_destroy(m);
  gac_diag_free(&d);
  return 0;
}
