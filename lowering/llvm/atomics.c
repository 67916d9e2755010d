/* OpenCL C 1.x atomic functions (atomic_* of 1.1, atom_* of the int32 and
 * int64 extensions) on any address space and width, as LLVM atomics, which
 * NVPTX selects as atom.global / atom.shared, AMDGPU as global_atomic_* /
 * ds_*. libclc's NVPTX library defines only the 32-bit ones, and both its
 * libraries with sequentially consistent __sync builtins; OpenCL 1.x
 * atomics order nothing but themselves, so ours are monotonic (relaxed),
 * as nvcc's atomicAdd is. */
#include <string.h>

#include "llvm_gpu.h"

typedef struct atomic_op {
  const char *name;
  LLVMAtomicRMWBinOp op, unsigned_op;
  unsigned operands; /* after the pointer */
} atomic_op;

static const atomic_op ops[] = {
    {"add", LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpAdd, 1},
    {"sub", LLVMAtomicRMWBinOpSub, LLVMAtomicRMWBinOpSub, 1},
    {"xchg", LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpXchg, 1},
    {"inc", LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpAdd, 0},
    {"dec", LLVMAtomicRMWBinOpSub, LLVMAtomicRMWBinOpSub, 0},
    {"min", LLVMAtomicRMWBinOpMin, LLVMAtomicRMWBinOpUMin, 1},
    {"max", LLVMAtomicRMWBinOpMax, LLVMAtomicRMWBinOpUMax, 1},
    {"and", LLVMAtomicRMWBinOpAnd, LLVMAtomicRMWBinOpAnd, 1},
    {"or", LLVMAtomicRMWBinOpOr, LLVMAtomicRMWBinOpOr, 1},
    {"xor", LLVMAtomicRMWBinOpXor, LLVMAtomicRMWBinOpXor, 1},
    {"cmpxchg", 0, 0, 2},
};

/* "_Z10atomic_addPU3AS1Vii": the op, and whether the value is unsigned
 * (the mangled type after the volatile pointee's V: j or m). */
static const atomic_op *parse(const char *mangled, bool *is_unsigned) {
  char name[32];
  const char *p;
  if (!gac_gpu_demangle(mangled, name, sizeof name, &p))
    return NULL;
  const char *op = strncmp(name, "atomic_", 7) == 0 ? name + 7 : strncmp(name, "atom_", 5) == 0 ? name + 5 : NULL;
  const char *v = strchr(p, 'V');
  if (!op || !v)
    return NULL;
  *is_unsigned = v[1] == 'j' || v[1] == 'm';
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(ops[i].name, op) == 0)
      return &ops[i];
  return NULL;
}

static bool define(LLVMModuleRef mod, LLVMValueRef f, const atomic_op *a, bool is_unsigned) {
  LLVMTypeRef type = LLVMGlobalGetValueType(f), ret = LLVMGetReturnType(type);
  if (LLVMCountParams(f) != 1 + a->operands || LLVMGetTypeKind(LLVMTypeOf(LLVMGetParam(f, 0))) != LLVMPointerTypeKind)
    return false;
  bool is_int = LLVMGetTypeKind(ret) == LLVMIntegerTypeKind;
  if (!is_int && !(LLVMGetTypeKind(ret) == LLVMFloatTypeKind && strcmp(a->name, "xchg") == 0))
    return false;
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, "entry"));
  LLVMValueRef p = LLVMGetParam(f, 0), v;
  if (strcmp(a->name, "cmpxchg") == 0) {
    LLVMValueRef pair = LLVMBuildAtomicCmpXchg(b, p, LLVMGetParam(f, 1), LLVMGetParam(f, 2),
                                               LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
    v = LLVMBuildExtractValue(b, pair, 0, "");
  } else {
    LLVMValueRef operand = a->operands ? LLVMGetParam(f, 1) : LLVMConstInt(ret, 1, 0);
    v = LLVMBuildAtomicRMW(b, is_unsigned ? a->unsigned_op : a->op, p, operand, LLVMAtomicOrderingMonotonic, 0);
  }
  LLVMBuildRet(b, v);
  LLVMDisposeBuilder(b);
  return true;
}

void gac_gpu_define_atomics(LLVMModuleRef mod) {
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    bool is_unsigned = false;
    const atomic_op *a = LLVMIsDeclaration(f) ? parse(LLVMGetValueName(f), &is_unsigned) : NULL;
    if (a)
      define(mod, f, a, is_unsigned);
  }
}
