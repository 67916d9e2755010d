/* Modules shared by the unit tests, in gac's text form. */
#ifndef GAC_TESTS_MODULES_H
#define GAC_TESTS_MODULES_H

#include <stdlib.h>
#include <string.h>

#include "gac/module.h"
#include "gac/text.h"

static const char copies_module[] =
    "; Version: 1.0\n"
    "OpCapability Addresses\n"
    "OpCapability Kernel\n"
    "OpCapability Int64\n"
    "OpCapability Int8\n"
    "OpExtension \"SPV_KHR_non_semantic_info\"\n"
    "%gac = OpExtInstImport \"NonSemantic.Codeplay.GroupAsyncCopies\"\n"
    "OpMemoryModel Physical64 OpenCL\n"
    "OpEntryPoint Kernel %k \"k\"\n"
    "OpName %k \"k\"\n"
    "%void = OpTypeVoid\n"
    "%ulong = OpTypeInt 64 0\n"
    "%uint = OpTypeInt 32 0\n"
    "%uchar = OpTypeInt 8 0\n"
    "%event = OpTypeEvent\n"
    "%gptr = OpTypePointer CrossWorkgroup %uchar\n"
    "%lptr = OpTypePointer Workgroup %uchar\n"
    "%evptr = OpTypePointer Function %event\n"
    "%fnty = OpTypeFunction %void %gptr %lptr %ulong\n"
    "%null = OpConstantNull %event\n"
    "%c0 = OpConstant %ulong 0\n"
    "%c1 = OpConstant %ulong 1\n"
    "%c4 = OpConstant %ulong 4\n"
    "%c8 = OpConstant %ulong 8\n"
    "%c16 = OpConstant %ulong 16\n"
    "%c32 = OpConstant %ulong 32\n"
    "%c256 = OpConstant %ulong 256\n"
    "%scope = OpConstant %uint 2\n"
    "%one32 = OpConstant %uint 1\n"
    "%k = OpFunction %void None %fnty\n"
    "%src = OpFunctionParameter %gptr\n"
    "%dst = OpFunctionParameter %lptr\n"
    "%n = OpFunctionParameter %ulong\n"
    "%entry = OpLabel\n"
    "%evs = OpVariable %evptr Function\n"
    "%e1 = OpExtInst %event %gac GroupAsyncCopy2D2D %dst %c0 %src %c0 %c4 %c16 %n %c32 %c16 %null\n"
    "OpBranch %next\n"
    "%next = OpLabel\n"
    "%e2 = OpExtInst %event %gac GroupAsyncCopy3D3D %src %c0 %dst %c0 %c4 %c16 %c8 %c1 %c16 %c256 %c32 %c256 %e1\n"
    "OpStore %evs %e2\n"
    "OpGroupWaitEvents %scope %one32 %evs\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* Assembles text; aborts the test binary if the text is wrong (a test bug). */
static inline uint32_t *assemble_or_die(const char *text, size_t *n) {
  gac_diag d;
  gac_diag_init(&d);
  uint32_t *words = NULL;
  if (!gac_assemble(text, strlen(text), &words, n, &d)) {
    gac_diag_print(&d, stderr, "test module");
    abort();
  }
  gac_diag_free(&d);
  return words;
}

static inline gac_module *read_or_die(const uint32_t *words, size_t n) {
  gac_diag d;
  gac_diag_init(&d);
  gac_module *m = gac_module_read(words, n, &d);
  if (!m) {
    gac_diag_print(&d, stderr, "test module");
    abort();
  }
  gac_diag_free(&d);
  return m;
}

#endif
