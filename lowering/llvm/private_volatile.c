/* Volatile accesses to private variables that nothing else can see, made
 * plain before LLVM's optimiser (the GPU paths; llvm_gpu.h).
 *
 * Kernels mark private variables volatile to steer a compiler: CLBlast's
 * Xgemm keeps its thread id in a `volatile int tid` ("volatile to disable
 * caching"). LLVM keeps every volatile load and store, so such a variable
 * lives in local memory, and each use in a loop is a load from it (8 bytes
 * of stack and two ld.volatile.local per iteration of Xgemm's K loop).
 * NVIDIA's OpenCL compiler keeps it in a register. Its address never leaves
 * the work-item's own loads and stores here, and an OpenCL work-item has no
 * signal handler, longjmp or other agent that could observe the accesses,
 * so making them plain changes no result a kernel can see; mem2reg then
 * promotes the variable. Measured on an H200
 * (docs/results/VENDOR.md#experiments, "Xgemm with loads kept, other
 * attempts"): CLBlast's Xgemm through gac, 31.2 -> 32.3 TFLOP/s, against
 * 33.0 from NVIDIA's compiler.
 *
 * An alloca qualifies when every use, through GEPs and casts, is a load
 * from it, a store to it (not of its address), or a lifetime marker. */
#include <stdbool.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "llvm_gpu.h"

enum { MAX_DERIVED = 256 };

/* Whether call is llvm.lifetime.start/end. */
static bool is_lifetime_marker(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  size_t len = 0;
  const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : NULL;
  return name && strncmp(name, "llvm.lifetime.", 14) == 0;
}

/* The loads and stores through alloca a (and what is derived from it), in
 * accesses; false if its address goes anywhere else. */
static bool private_accesses(LLVMValueRef a, LLVMValueRef *accesses, unsigned *n, unsigned max) {
  LLVMValueRef derived[MAX_DERIVED];
  unsigned nd = 0;
  derived[nd++] = a;
  *n = 0;
  for (unsigned k = 0; k < nd; k++) {
    for (LLVMUseRef u = LLVMGetFirstUse(derived[k]); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsALoadInst(user)) {
        if (*n == max)
          return false;
        accesses[(*n)++] = user;
      } else if (LLVMIsAStoreInst(user)) {
        if (LLVMGetOperand(user, 0) == derived[k] || *n == max)
          return false; /* its address is stored: it escapes */
        accesses[(*n)++] = user;
      } else if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user)) {
        if (nd == MAX_DERIVED)
          return false;
        derived[nd++] = user;
      } else if (!(LLVMIsACallInst(user) && is_lifetime_marker(user))) {
        return false;
      }
    }
  }
  return true;
}

bool gac_gpu_unvolatile_private(LLVMModuleRef mod) {
  bool changed = false;
  LLVMValueRef accesses[512];
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        unsigned n;
        if (!LLVMIsAAllocaInst(i) || !private_accesses(i, accesses, &n, sizeof accesses / sizeof *accesses))
          continue;
        for (unsigned k = 0; k < n; k++)
          if (LLVMGetVolatile(accesses[k])) {
            LLVMSetVolatile(accesses[k], 0);
            changed = true;
          }
      }
  return changed;
}
