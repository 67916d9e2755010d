/* Private memory on AMDGPU. SPIR's private space (0) stays 0, which on
 * AMDGPU is the flat space (address_spaces.c), but AMDGPU keeps allocas in
 * its private space (5):
 *  - before the address spaces are renamed, each OpenCL builtin the module
 *    declares with private-pointer parameters (a bare `P` in its mangled
 *    name: frexp, modf, sincos, vload/vstore from private arrays, ...) is
 *    declared again as libclc's AMDGPU library defines it (`PU3AS5`, a
 *    pointer in space 5), and its calls cast their arguments;
 *  - after, each alloca moves to space 5 and its users get it cast to flat;
 *    LLVM's InferAddressSpaces gives the accesses space 5 back. */
#include <stdlib.h>
#include <string.h>

#include "amdgcn_internal.h"
#include "llvm_gpu.h"

enum { PRIVATE_AS = 5 };

static bool is_private_pointer(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 0;
}

/* name with U3AS5 after each bare P of its parameters (after the
 * _Z<length><name> part); NULL if not an Itanium-mangled name. */
static char *private_name(const char *name) {
  char base[128];
  const char *params;
  if (!gac_gpu_demangle(name, base, sizeof base, &params))
    return NULL;
  char *out = malloc(strlen(name) * 6 + 1), *o = out;
  memcpy(o, name, (size_t)(params - name));
  o += params - name;
  for (const char *p = params; *p; p++) {
    *o++ = *p;
    if (*p == 'P' && strncmp(p + 1, "U3AS", 4) != 0) {
      memcpy(o, "U3AS5", 5);
      o += 5;
    }
  }
  *o = '\0';
  return out;
}

void gac_amdgcn_private_builtins(LLVMModuleRef mod) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMTypeRef private_ptr = LLVMPointerTypeInContext(c, PRIVATE_AS);
  for (LLVMValueRef f = LLVMGetFirstFunction(mod), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    if (!LLVMIsDeclaration(f) || strncmp(LLVMGetValueName(f), "_Z", 2) != 0)
      continue;
    LLVMTypeRef type = LLVMGlobalGetValueType(f);
    unsigned n = LLVMCountParamTypes(type);
    LLVMTypeRef *params = malloc((n + 1) * sizeof *params);
    LLVMGetParamTypes(type, params);
    bool any = false;
    for (unsigned i = 0; i < n; i++)
      if (is_private_pointer(params[i]))
        params[i] = private_ptr, any = true;
    char *name = any ? private_name(LLVMGetValueName(f)) : NULL;
    if (name) {
      LLVMTypeRef new_type = LLVMFunctionType(LLVMGetReturnType(type), params, n, LLVMIsFunctionVarArg(type));
      LLVMValueRef g = LLVMGetNamedFunction(mod, name);
      if (!g)
        g = LLVMAddFunction(mod, name, new_type);
      for (LLVMUseRef u = LLVMGetFirstUse(f), un; u; u = un) {
        un = LLVMGetNextUse(u);
        LLVMValueRef call = LLVMGetUser(u);
        if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f)
          continue;
        LLVMValueRef *args = malloc((n + 1) * sizeof *args);
        LLVMPositionBuilderBefore(b, call);
        for (unsigned i = 0; i < n; i++) {
          args[i] = LLVMGetOperand(call, i);
          if (params[i] == private_ptr && LLVMTypeOf(args[i]) != private_ptr)
            args[i] = LLVMBuildAddrSpaceCast(b, args[i], private_ptr, "");
        }
        LLVMValueRef v = LLVMBuildCall2(b, new_type, g, args, n, "");
        LLVMSetInstructionCallConv(v, LLVMGetInstructionCallConv(call));
        LLVMReplaceAllUsesWith(call, v);
        LLVMInstructionEraseFromParent(call);
        free(args);
      }
      if (!LLVMGetFirstUse(f))
        LLVMDeleteFunction(f);
      free(name);
    }
    free(params);
  }
  LLVMDisposeBuilder(b);
}

void gac_amdgcn_private_allocas(LLVMModuleRef mod) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMTypeRef flat = LLVMPointerTypeInContext(c, 0);
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (!LLVMIsAAllocaInst(i) || LLVMGetPointerAddressSpace(LLVMTypeOf(i)) == PRIVATE_AS)
          continue;
        LLVMPositionBuilderBefore(b, i);
        /* the data layout's alloca space, 5; the count is an operand */
        LLVMValueRef a = LLVMBuildArrayAlloca(b, LLVMGetAllocatedType(i), LLVMGetOperand(i, 0), "");
        LLVMSetAlignment(a, LLVMGetAlignment(i));
        LLVMValueRef cast = LLVMBuildAddrSpaceCast(b, a, flat, "");
        LLVMReplaceAllUsesWith(i, cast);
        LLVMInstructionEraseFromParent(i);
      }
  LLVMDisposeBuilder(b);
}
