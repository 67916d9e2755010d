/* OpenCL C printf as CUDA's vprintf(format, arguments): the arguments
 * after the format, as the caller promoted them, are stored in a buffer
 * laid out as a struct of their types (each at its natural alignment, the
 * layout vprintf reads), and the format, a global (once constant) string,
 * is passed as a generic pointer. The driver prints when the host next
 * synchronises. Vector arguments (%v4f) have no vprintf counterpart: an
 * error names them. */
#include <string.h>

#include "ptx_internal.h"

static LLVMValueRef vprintf_function(LLVMModuleRef mod, LLVMTypeRef *type) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef params[2] = {ptr, ptr};
  *type = LLVMFunctionType(LLVMInt32TypeInContext(c), params, 2, 0);
  LLVMValueRef f = LLVMGetNamedFunction(mod, "vprintf");
  return f ? f : LLVMAddFunction(mod, "vprintf", *type);
}

static bool rewrite_call(LLVMModuleRef mod, LLVMValueRef call, gac_diag *diag) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  unsigned n = LLVMGetNumArgOperands(call);
  LLVMTypeRef types[32];
  if (n < 1 || n - 1 > sizeof types / sizeof types[0]) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.printf", "printf with %u arguments: at most %zu", n,
                 sizeof types / sizeof types[0]);
    return false;
  }
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
  for (unsigned i = 1; i < n; i++) {
    types[i - 1] = LLVMTypeOf(LLVMGetOperand(call, i));
    if (LLVMGetTypeKind(types[i - 1]) == LLVMPointerTypeKind)
      types[i - 1] = ptr; /* %s and %p read generic addresses */
    if (LLVMGetTypeKind(types[i - 1]) == LLVMVectorTypeKind) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.printf",
                   "printf argument %u is a vector: CUDA's vprintf has no vector conversions (%%v)", i);
      return false;
    }
  }
  LLVMValueRef function = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMValueRef buffer = LLVMConstNull(ptr);
  if (n > 1) {
    LLVMTypeRef record = LLVMStructTypeInContext(c, types, n - 1, 0);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(function);
    LLVMPositionBuilder(b, entry, LLVMGetFirstInstruction(entry));
    buffer = LLVMBuildAlloca(b, record, "printf.args");
    LLVMPositionBuilderBefore(b, call);
    for (unsigned i = 1; i < n; i++) {
      LLVMValueRef v = LLVMGetOperand(call, i);
      if (LLVMTypeOf(v) != types[i - 1])
        v = LLVMBuildAddrSpaceCast(b, v, ptr, "");
      LLVMBuildStore(b, v, LLVMBuildStructGEP2(b, record, buffer, i - 1, ""));
    }
  }
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef format = LLVMGetOperand(call, 0);
  if (LLVMGetPointerAddressSpace(LLVMTypeOf(format)) != 0)
    format = LLVMBuildAddrSpaceCast(b, format, ptr, "");
  LLVMTypeRef type;
  LLVMValueRef vprintf = vprintf_function(mod, &type);
  LLVMValueRef args[2] = {format, buffer};
  LLVMValueRef v = LLVMBuildCall2(b, type, vprintf, args, 2, "");
  LLVMReplaceAllUsesWith(call, v);
  LLVMInstructionEraseFromParent(call);
  LLVMDisposeBuilder(b);
  return true;
}

bool gac_ptx_lower_printf(LLVMModuleRef mod, gac_diag *diag) {
  LLVMValueRef printf = LLVMGetNamedFunction(mod, "printf");
  if (!printf)
    return true;
  bool ok = true;
  for (LLVMUseRef u = LLVMGetFirstUse(printf), next; u; u = next) {
    next = LLVMGetNextUse(u);
    LLVMValueRef call = LLVMGetUser(u);
    if (LLVMIsACallInst(call) && LLVMGetCalledValue(call) == printf)
      ok = rewrite_call(mod, call, diag) && ok;
  }
  if (!LLVMGetFirstUse(printf))
    LLVMDeleteFunction(printf);
  return ok;
}
