/* gac_emit_amdgcn (include/gac/amdgcn.h): the SPIR-V half with the AMDGCN
 * lowering (lowering/common/gpu_lower_spirv.c), the bridge
 * (lowering/llvm/bridge.c), LLVM 19's AMDGPU backend (llvm_amdgcn.c) in
 * libgac-llvm.so, opened only now (lowering/llvm/llvm_library.h), and, for
 * a code object, ld.lld-19 -shared, as clang's HIP toolchain links one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "llvm_library.h"
#include "lowering.h"
#include "amdgcn_lowering.h"
#include "subprocess.h"

/* object (an ELF relocatable) to a loadable code object in *out. */
static bool link_code_object(const gac_amdgcn_options *options, const char *object, size_t size, char **out,
                             size_t *out_size, gac_diag *diag) {
  char dir[32], in_path[64], out_path[64], log_path[64];
  if (!gac_scratch_dir(dir)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "amdgcn.link", "cannot make a scratch folder under /tmp");
    return false;
  }
  snprintf(in_path, sizeof in_path, "%s/kernels.o", dir);
  snprintf(out_path, sizeof out_path, "%s/kernels.hsaco", dir);
  snprintf(log_path, sizeof log_path, "%s/lld.log", dir);
  const char *lld = options->lld ? options->lld : gac_gpu_path("GAC_LLD", "ld.lld-19");
  char *argv[] = {(char *)lld, "-shared", "-o", out_path, in_path, NULL};
  bool ok = gac_write_file(in_path, object, size) && gac_run(argv, log_path);
  *out = ok ? gac_read_file(out_path, out_size) : NULL;
  if (!*out) {
    char *log = gac_read_file(log_path, NULL);
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "amdgcn.link", "%s -shared failed: %s", lld,
                 log && *log ? log : "(no output; is lld-19 installed?)");
    free(log);
    ok = false;
  }
  gac_scratch_remove(dir);
  return ok;
}

bool gac_emit_amdgcn(gac_module *m, const gac_amdgcn_options *options, char **out, size_t *size, gac_diag *diag) {
  *out = NULL;
  *size = 0;
  unsigned char *bitcode = NULL;
  size_t bitcode_size = 0;
  const gac_llvm_library *llvm = NULL;
  if (!gac_amdgcn_lower_spirv(m, options, diag) || !(llvm = gac_llvm_library_open("amdgcn", diag)) ||
      !gac_gpu_bitcode(m, options->llvm_spirv, "amdgcn", &bitcode, &bitcode_size, diag))
    return false;
  bool object = options->output == GAC_AMDGCN_CODE_OBJECT;
  char *code = NULL;
  size_t code_size = 0;
  bool ok = llvm->amdgcn_from_bitcode(bitcode, bitcode_size, options, object, &code, &code_size, diag);
  free(bitcode);
  if (ok && object) {
    ok = link_code_object(options, code, code_size, out, size, diag);
    free(code);
  } else {
    *out = code;
    *size = code_size;
  }
  return ok;
}
