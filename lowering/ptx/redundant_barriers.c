/* Removes a work-group barrier (bar.sync 0) when every path from it reaches
 * another barrier before any memory access or the kernel's end: the second
 * orders everything the first would. Run on the optimised module, where
 * every builtin is inlined.
 *
 * What may lie between: arithmetic, control flow, reads of special
 * registers, and cp.async commits and waits. A cp.async wait only blocks
 * until the thread's own groups have landed; a barrier orders when copies
 * are issued, not when they land, so it needs none before the wait. This is
 * what is left of a loop body's closing barrier when the next step starts
 * with a wait and its barrier (--pipeline-loops=early-waits), as in a
 * hand-written multistage loop: one barrier per step instead of two. */
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

enum { MAX_BLOCKS = 64 };

bool gac_ptx_calls(LLVMValueRef call, const char *prefix) {
  if (!LLVMIsACallInst(call))
    return false;
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee))
    return false;
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  return strncmp(name, prefix, strlen(prefix)) == 0;
}

bool gac_ptx_is_barrier(LLVMValueRef i) { return LLVMIsACallInst(i) && gac_ptx_calls(i, "llvm.nvvm.barrier0"); }

static bool call_touches_memory(LLVMValueRef call) {
  static const char *const harmless[] = {
      "llvm.nvvm.read.ptx.sreg.", "llvm.nvvm.cp.async.wait.", "llvm.nvvm.cp.async.commit.group",
      "llvm.fmuladd.", "llvm.fma.", "llvm.lifetime.", "llvm.assume", "llvm.umin.", "llvm.umax.",
      "llvm.smin.", "llvm.smax.", "llvm.abs."};
  for (size_t k = 0; k < sizeof harmless / sizeof harmless[0]; k++)
    if (gac_ptx_calls(call, harmless[k]))
      return false;
  return true; /* inline assembly (cp.async, mbarriers, bulk copies) and any other call */
}

/* Whether i may read or write memory (or does anything a barrier orders). */
bool gac_ptx_touches_memory(LLVMValueRef i) {
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMLoad:
  case LLVMStore:
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
  case LLVMFence:
  case LLVMVAArg:
  case LLVMInvoke:
  case LLVMCallBr:
    return true;
  case LLVMCall:
    return call_touches_memory(i);
  default:
    return false;
  }
}

/* Whether every path from `from` (an instruction) meets a barrier before a
 * memory access or a return. */
static bool barrier_first(LLVMValueRef from) {
  LLVMBasicBlockRef seen[MAX_BLOCKS];
  LLVMValueRef start[MAX_BLOCKS]; /* where each path still to explore begins */
  unsigned num_seen = 0, num_work = 0;
  start[num_work++] = from;
  while (num_work > 0) {
    num_work--;
    LLVMValueRef i = start[num_work];
    bool met = false;
    for (; i && !met; i = LLVMGetNextInstruction(i)) {
      if (gac_ptx_is_barrier(i))
        met = true;
      else if (gac_ptx_touches_memory(i))
        return false;
      else if (LLVMIsATerminatorInst(i))
        break;
    }
    if (met)
      continue;
    if (!i || LLVMGetNumSuccessors(i) == 0)
      return false; /* a return or unreachable */
    for (unsigned s = 0; s < LLVMGetNumSuccessors(i); s++) {
      LLVMBasicBlockRef b = LLVMGetSuccessor(i, s);
      bool known = false;
      for (unsigned k = 0; k < num_seen && !known; k++)
        known = seen[k] == b;
      if (known)
        continue; /* explored, or being explored: a cycle adds no new path */
      if (num_seen == MAX_BLOCKS || num_work == MAX_BLOCKS)
        return false;
      seen[num_seen++] = b;
      start[num_work++] = LLVMGetFirstInstruction(b);
    }
  }
  return true;
}

unsigned gac_ptx_remove_redundant_barriers(LLVMModuleRef mod) {
  unsigned removed = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (gac_ptx_is_barrier(i) && next && barrier_first(next)) {
          LLVMInstructionEraseFromParent(i);
          removed++;
        }
      }
  return removed;
}
