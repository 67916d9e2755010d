/* Bodies for what --lower-async-copies=amdgcn calls (lower_util.h), and
 * OpenCL's barrier, as AMDGPU instructions in inline assembly:
 *
 *   __gac_amdgcn_lds_load_W(local base, global src)
 *       s_mov_b32 m0, base; then gfx942: global_load_lds_{ubyte,ushort,dword},
 *       gfx90a: global_load_dword ... lds (W = 4 only): lane i's W bytes
 *       from src land at M0 + i x W. base is made wave-uniform
 *       (readfirstlane; it is by construction). M0 is not in the clobber
 *       list: LLVM reserves it and sets it right before each instruction
 *       that reads it (it warns that a clobber of it is not honoured).
 *   __gac_amdgcn_wait_vm(N)   s_waitcnt vmcnt(N), N an immediate
 *   __gac_amdgcn_vm_pad(K)    K buffer_load_dword through a null descriptor:
 *                             out of range, so no memory access and 0, but
 *                             each counts in vmcnt like a load
 *   __gac_amdgcn_barrier()    s_waitcnt lgkmcnt(0); s_barrier
 *   barrier(flags)            the same, with vmcnt(0) too for global memory
 *
 * Assembly, not LLVM's intrinsics, on purpose (../shared facts, checked
 * here with LLVM 19.1.7): LLVM puts `s_waitcnt vmcnt(0)` before any LDS
 * read that follows an LDS-direct load it knows of, which drains every
 * prefetch; it does not see loads in inline assembly, so the waits are
 * ours, counted by the lowering. LLVM's own waits for other loads count
 * fewer loads than are in flight, which only makes them stricter. The
 * barrier is assembly with a memory clobber so that no LDS access moves
 * across it (llvm.amdgcn.s.barrier does not touch memory for LLVM), and
 * barrier() is ours because libclc 19's waits for local memory with
 * `s_waitcnt 255`, on gfx9 vmcnt(15), which caps the loads in flight. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amdgcn_internal.h"
#include "lower_util.h"

typedef struct ctx {
  LLVMModuleRef mod;
  LLVMContextRef c;
  LLVMBuilderRef b;
  bool gfx942;
} ctx;

static void asm_call(ctx *x, const char *text, const char *constraints, LLVMValueRef *args, LLVMTypeRef *types,
                     unsigned n) {
  LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(x->c), types, n, 0);
  LLVMValueRef a = LLVMGetInlineAsm(type, text, strlen(text), constraints, strlen(constraints), 1, 0,
                                    LLVMInlineAsmDialectATT, 0);
  LLVMBuildCall2(x->b, type, a, args, n, "");
}

static void begin(ctx *x, LLVMValueRef f) {
  LLVMPositionBuilderAtEnd(x->b, LLVMAppendBasicBlockInContext(x->c, f, "entry"));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(x->c, always, 0));
}

static bool define_lds_load(ctx *x, LLVMValueRef f, unsigned width) {
  static const char *const gfx942_op[5] = {[1] = "global_load_lds_ubyte", [2] = "global_load_lds_ushort",
                                           [4] = "global_load_lds_dword"};
  if (LLVMCountParams(f) != 2 || (!x->gfx942 && width != 4) || width > 4 || !gfx942_op[width])
    return false;
  begin(x, f);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(x->c), i64 = LLVMInt64TypeInContext(x->c);
  LLVMValueRef base = LLVMBuildPtrToInt(x->b, LLVMGetParam(f, 0), i32, "");
  LLVMTypeRef rfl_type = LLVMFunctionType(i32, &i32, 1, 0);
  unsigned id = LLVMLookupIntrinsicID("llvm.amdgcn.readfirstlane", strlen("llvm.amdgcn.readfirstlane"));
  LLVMValueRef rfl = LLVMGetIntrinsicDeclaration(x->mod, id, &i32, 1);
  base = LLVMBuildCall2(x->b, rfl_type, rfl, &base, 1, "");
  LLVMValueRef args[2] = {base, LLVMBuildPtrToInt(x->b, LLVMGetParam(f, 1), i64, "")};
  LLVMTypeRef types[2] = {i32, i64};
  char text[96];
  if (x->gfx942)
    snprintf(text, sizeof text, "s_mov_b32 m0, $0\n\t%s $1, off", gfx942_op[width]);
  else
    snprintf(text, sizeof text, "s_mov_b32 m0, $0\n\tglobal_load_dword $1, off lds");
  asm_call(x, text, "s,v,~{memory}", args, types, 2);
  LLVMBuildRetVoid(x->b);
  return true;
}

/* barrier(flags) and __gac_amdgcn_barrier (no parameter: local memory). */
static void define_barrier(ctx *x, LLVMValueRef f) {
  begin(x, f);
  const char *local = "s_waitcnt lgkmcnt(0)\n\ts_barrier", *global = "s_waitcnt vmcnt(0) lgkmcnt(0)\n\ts_barrier";
  if (LLVMCountParams(f) == 0) {
    asm_call(x, local, "~{memory}", NULL, NULL, 0);
    LLVMBuildRetVoid(x->b);
    return;
  }
  /* CLK_GLOBAL_MEM_FENCE (2), or a fence on images (4): vmcnt too */
  LLVMValueRef flags = LLVMGetParam(f, 0);
  LLVMValueRef mask = LLVMConstInt(LLVMTypeOf(flags), 6, 0);
  LLVMValueRef is_global = LLVMBuildICmp(x->b, LLVMIntNE, LLVMBuildAnd(x->b, flags, mask, ""),
                                         LLVMConstInt(LLVMTypeOf(flags), 0, 0), "");
  LLVMBasicBlockRef g = LLVMAppendBasicBlockInContext(x->c, f, "global");
  LLVMBasicBlockRef l = LLVMAppendBasicBlockInContext(x->c, f, "local");
  LLVMBuildCondBr(x->b, is_global, g, l);
  LLVMPositionBuilderAtEnd(x->b, g);
  asm_call(x, global, "~{memory}", NULL, NULL, 0);
  LLVMBuildRetVoid(x->b);
  LLVMPositionBuilderAtEnd(x->b, l);
  asm_call(x, local, "~{memory}", NULL, NULL, 0);
  LLVMBuildRetVoid(x->b);
}

/* Every call of f(N), N a constant 0..63, becomes s_waitcnt vmcnt(N), or
 * (pad) N padding loads. */
static bool rewrite_counted(ctx *x, LLVMValueRef f, bool pad, gac_diag *diag) {
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetFirstUse(f)) {
    LLVMValueRef call = LLVMGetUser(u);
    LLVMValueRef n = LLVMIsACallInst(call) && LLVMGetNumArgOperands(call) == 1 ? LLVMGetOperand(call, 0) : NULL;
    if (!n || !LLVMIsAConstantInt(n) || LLVMConstIntGetZExtValue(n) > 63) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "amdgcn.wait-count",
                   "%s needs a constant count of 0 to 63 (s_waitcnt vmcnt takes an immediate)",
                   LLVMGetValueName(f));
      return false;
    }
    unsigned count = (unsigned)LLVMConstIntGetZExtValue(n);
    LLVMPositionBuilderBefore(x->b, call);
    if (pad) {
      char text[64 * 40] = "";
      size_t len = 0;
      for (unsigned k = 0; k < count; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%sbuffer_load_dword $0, off, $1, 0", k ? "\n\t" : "");
      LLVMTypeRef i32 = LLVMInt32TypeInContext(x->c), v4 = LLVMVectorType(i32, 4);
      LLVMTypeRef type = LLVMFunctionType(i32, &v4, 1, 0);
      const char *constraints = "=v,s,~{memory}";
      LLVMValueRef a = LLVMGetInlineAsm(type, text, strlen(text), (char *)constraints, strlen(constraints), 1, 0,
                                        LLVMInlineAsmDialectATT, 0);
      LLVMValueRef null = LLVMConstNull(v4);
      LLVMBuildCall2(x->b, type, a, &null, 1, "");
    } else {
      char text[48];
      snprintf(text, sizeof text, "s_waitcnt vmcnt(%u)", count);
      asm_call(x, text, "~{memory}", NULL, NULL, 0);
    }
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDeleteFunction(f);
  return true;
}

bool gac_amdgcn_define_builtins(LLVMModuleRef mod, const char *mcpu, gac_diag *diag) {
  ctx x = {mod, LLVMGetModuleContext(mod), LLVMCreateBuilderInContext(LLVMGetModuleContext(mod)),
           strcmp(mcpu, "gfx942") == 0};
  bool ok = true;
  size_t prefix = strlen(GAC_AMDGCN_LDS_LOAD_PREFIX);
  for (LLVMValueRef f = LLVMGetFirstFunction(mod), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    const char *name = LLVMGetValueName(f);
    if (!LLVMIsDeclaration(f))
      continue;
    if (strcmp(name, GAC_AMDGCN_WAIT_VM) == 0 || strcmp(name, GAC_AMDGCN_VM_PAD) == 0) {
      ok = rewrite_counted(&x, f, strcmp(name, GAC_AMDGCN_VM_PAD) == 0, diag) && ok;
    } else if (strncmp(name, GAC_AMDGCN_LDS_LOAD_PREFIX, prefix) == 0) {
      if (!define_lds_load(&x, f, (unsigned)atoi(name + prefix))) {
        gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "amdgcn.lds-load",
                     "%s: %s has no LDS-direct load of that size", name, mcpu);
        ok = false;
      }
    } else if (strcmp(name, GAC_AMDGCN_BARRIER) == 0 || strcmp(name, "_Z7barrierj") == 0 ||
               strcmp(name, "_Z18work_group_barrierj") == 0) {
      define_barrier(&x, f);
    }
  }
  LLVMDisposeBuilder(x.b);
  return ok;
}
