/* Bodies for what --lower-async-copies=amdgcn calls (amdgcn_calls.h), and
 * OpenCL's barrier, as AMDGPU instructions in inline assembly:
 *
 *   __gac_amdgcn_lds_load_W(local base, global src, bool loads)
 *       s_mov_b32 m0, base; exec &= the lanes that load; then gfx942:
 *       global_load_lds_{ubyte,ushort,dword}, gfx90a: global_load_dword
 *       ... lds (W = 4 only): lane i's W bytes from src land at M0 + i x W;
 *       exec back. The mask is the load's own, not a branch, so that the
 *       instruction is on every path (gac-isa-check counts it; lane 0
 *       always loads). base is made wave-uniform (readfirstlane; it is by
 *       construction). M0 is not in the clobber list: LLVM reserves it and
 *       sets it right before each instruction that reads it (it warns
 *       that a clobber of it is not honoured).
 *   __gac_amdgcn_wait_vm(X, q, n)  s_waitcnt vmcnt(X), X an immediate,
 *       at the label __gac_w<q>_<n>_<uid> (q ANY: __gac_wall_<uid>)
 *   __gac_amdgcn_commit(q, K)  the label __gac_c<q>_<uid> (q ANY:
 *       __gac_cx_<uid>) on an s_nop 0, then K buffer_load_dword through a
 *       null descriptor: out of range, so no memory access and 0, but
 *       each counts in vmcnt like a load
 *   __gac_amdgcn_barrier()    s_waitcnt lgkmcnt(0); s_barrier
 *   __gac_amdgcn_drain_vm()   s_waitcnt vmcnt(0), unmarked (the end of a
 *       copy's path through registers, lower_amdgcn_copies.c)
 *   __gac_amdgcn_setprio_P()  s_setprio P (ping-pong's compute cluster)
 *   __gac_amdgcn_sched_barrier()  llvm.amdgcn.sched.barrier(0): LLVM's
 *       scheduler moves nothing across it
 *   __gac_amdgcn_pingpong_enter(id)  at __gac_pp_<uid>: every load drained,
 *       s_barrier, then waves 4-7 (id / 64 >= 4) one s_barrier more
 *   __gac_amdgcn_pingpong_exit(id)   at __gac_ppx_<uid>: waves 0-3 one
 *       s_barrier more
 *
 * The labels are the markers gac-isa-check reads (docs/AMDGCN.md): local
 * symbols of the code object, at the instruction of the same assembly,
 * unique through ${:uid}; they cost nothing but the commit's s_nop.
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amdgcn_internal.h"
#include "amdgcn_calls.h"

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

/* A call of the intrinsic `name` (overloaded on `overload`) returning ret. */
static LLVMValueRef intrinsic(ctx *x, const char *name, LLVMTypeRef ret, LLVMTypeRef overload, LLVMValueRef arg) {
  LLVMTypeRef type = LLVMFunctionType(ret, (LLVMTypeRef[]){LLVMTypeOf(arg)}, 1, 0);
  LLVMValueRef decl = LLVMGetIntrinsicDeclaration(x->mod, LLVMLookupIntrinsicID(name, strlen(name)), &overload, 1);
  return LLVMBuildCall2(x->b, type, decl, &arg, 1, "");
}

static bool define_lds_load(ctx *x, LLVMValueRef f, unsigned width) {
  static const char *const gfx942_op[5] = {[1] = "global_load_lds_ubyte", [2] = "global_load_lds_ushort",
                                           [4] = "global_load_lds_dword"};
  if (LLVMCountParams(f) != 3 || (!x->gfx942 && width != 4) || width > 4 || !gfx942_op[width])
    return false;
  begin(x, f);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(x->c), i64 = LLVMInt64TypeInContext(x->c);
  LLVMValueRef base = LLVMBuildPtrToInt(x->b, LLVMGetParam(f, 0), i32, "");
  base = intrinsic(x, "llvm.amdgcn.readfirstlane", i32, i32, base);
  LLVMValueRef loads = LLVMGetParam(f, 2);
  if (LLVMGetIntTypeWidth(LLVMTypeOf(loads)) != 1)
    loads = LLVMBuildICmp(x->b, LLVMIntNE, loads, LLVMConstNull(LLVMTypeOf(loads)), "");
  LLVMValueRef mask = intrinsic(x, "llvm.amdgcn.ballot", i64, i64, loads);
  LLVMValueRef args[3] = {base, LLVMBuildPtrToInt(x->b, LLVMGetParam(f, 1), i64, ""), mask};
  LLVMTypeRef types[3] = {i32, i64, i64};
  char text[160];
  snprintf(text, sizeof text, "s_mov_b32 m0, $1\n\ts_and_saveexec_b64 $0, $3\n\t%s $2, off%s\n\ts_mov_b64 exec, $0",
           x->gfx942 ? gfx942_op[width] : "global_load_dword", x->gfx942 ? "" : " lds");
  const char *constraints = "=&s,s,v,s,~{memory},~{scc}";
  LLVMTypeRef type = LLVMFunctionType(i64, types, 3, 0);
  LLVMValueRef a = LLVMGetInlineAsm(type, text, strlen(text), (char *)constraints, strlen(constraints), 1, 0,
                                    LLVMInlineAsmDialectATT, 0);
  LLVMBuildCall2(x->b, type, a, args, 3, "");
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

/* Ping-pong's halves: id the work-item's linear local id (wave-uniform
 * once divided by 64); enter: drain, meet, and waves 4-7 wait at one more
 * barrier; exit: waves 0-3 wait at one more. The branch over the second
 * barrier is inside the assembly, on the wave's scalar id, so that it is a
 * real branch (an s_barrier under an exec mask would run for every wave). */
static void define_pingpong(ctx *x, LLVMValueRef f, bool enter) {
  begin(x, f);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(x->c);
  LLVMValueRef id = LLVMGetParam(f, 0);
  if (LLVMGetIntTypeWidth(LLVMTypeOf(id)) != 32)
    id = LLVMBuildTrunc(x->b, id, i32, "");
  LLVMValueRef wave = LLVMBuildLShr(x->b, intrinsic(x, "llvm.amdgcn.readfirstlane", i32, i32, id),
                                    LLVMConstInt(i32, 6, 0), "");
  const char *text = enter ? "__gac_pp_${:uid}:\n\ts_waitcnt vmcnt(0) lgkmcnt(0)\n\ts_barrier\n\t"
                             "s_cmp_lt_u32 $0, 4\n\ts_cbranch_scc1 1f\n\ts_barrier\n1:"
                           : "__gac_ppx_${:uid}:\n\ts_cmp_ge_u32 $0, 4\n\ts_cbranch_scc1 1f\n\ts_barrier\n1:";
  asm_call(x, text, "s,~{memory},~{scc}", &wave, &i32, 1);
  LLVMBuildRetVoid(x->b);
}

/* A body of one instruction of assembly. */
static void define_asm(ctx *x, LLVMValueRef f, const char *text) {
  begin(x, f);
  asm_call(x, text, "~{memory}", NULL, NULL, 0);
  LLVMBuildRetVoid(x->b);
}

static void define_setprio(ctx *x, LLVMValueRef f, unsigned prio) {
  char text[32];
  snprintf(text, sizeof text, "s_setprio %u", prio);
  define_asm(x, f, text);
}

static void define_sched_barrier(ctx *x, LLVMValueRef f) {
  begin(x, f);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(x->c), type = LLVMFunctionType(LLVMVoidTypeInContext(x->c), &i32, 1, 0);
  const char *name = "llvm.amdgcn.sched.barrier";
  LLVMValueRef decl = LLVMGetIntrinsicDeclaration(x->mod, LLVMLookupIntrinsicID(name, strlen(name)), NULL, 0);
  LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
  LLVMBuildCall2(x->b, type, decl, &zero, 1, "");
  LLVMBuildRetVoid(x->b);
}

/* The constant argument k of call, or -1 (also past `max`). */
static long long constant_arg(LLVMValueRef call, unsigned k, unsigned long long max) {
  LLVMValueRef v = LLVMGetOperand(call, k);
  if (!LLVMIsAConstantInt(v) || LLVMConstIntGetZExtValue(v) > max)
    return -1;
  return (long long)LLVMConstIntGetZExtValue(v);
}

/* A marker's label: __gac_<kind><queue>[_<n>]_${:uid}, the queue `x` (or,
 * for a wait, the kind `wall`) where any. */
static void marker(char *text, size_t size, bool wait, long long queue, long long n) {
  if (queue == GAC_AMDGCN_ANY)
    snprintf(text, size, "__gac_%s_${:uid}:\n\t", wait ? "wall" : "cx");
  else if (wait)
    snprintf(text, size, "__gac_w%lld_%lld_${:uid}:\n\t", queue, n);
  else
    snprintf(text, size, "__gac_c%lld_${:uid}:\n\t", queue);
}

/* Every call of f: __gac_amdgcn_wait_vm(X, q, n), X a constant 0..63,
 * becomes s_waitcnt vmcnt(X) at its marker; __gac_amdgcn_commit(q, K)
 * (commit) the marker on an s_nop 0 and K padding loads. */
static bool rewrite_counted(ctx *x, LLVMValueRef f, bool commit, gac_diag *diag) {
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetFirstUse(f)) {
    LLVMValueRef call = LLVMGetUser(u);
    bool shaped = LLVMIsACallInst(call) && LLVMGetNumArgOperands(call) == (commit ? 2u : 3u);
    long long count = shaped ? constant_arg(call, commit ? 1 : 0, 63) : -1;
    long long queue = shaped ? constant_arg(call, commit ? 0 : 1, UINT32_MAX) : -1;
    long long n = shaped && !commit ? constant_arg(call, 2, UINT32_MAX) : 0;
    if (count < 0 || queue < 0 || n < 0) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "amdgcn.wait-count",
                   "%s needs a constant count of 0 to 63 (s_waitcnt vmcnt takes an immediate) and a constant queue",
                   LLVMGetValueName(f));
      return false;
    }
    LLVMPositionBuilderBefore(x->b, call);
    char text[64 * 40 + 64] = "";
    marker(text, sizeof text, !commit, queue, n);
    size_t len = strlen(text);
    if (commit && count == 0) {
      snprintf(text + len, sizeof text - len, "s_nop 0");
      asm_call(x, text, "~{memory}", NULL, NULL, 0);
    } else if (commit) {
      len += (size_t)snprintf(text + len, sizeof text - len, "s_nop 0");
      for (long long k = 0; k < count; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "\n\tbuffer_load_dword $0, off, $1, 0");
      LLVMTypeRef i32 = LLVMInt32TypeInContext(x->c), v4 = LLVMVectorType(i32, 4);
      LLVMTypeRef type = LLVMFunctionType(i32, &v4, 1, 0);
      const char *constraints = "=v,s,~{memory}";
      LLVMValueRef a = LLVMGetInlineAsm(type, text, strlen(text), (char *)constraints, strlen(constraints), 1, 0,
                                        LLVMInlineAsmDialectATT, 0);
      LLVMValueRef null = LLVMConstNull(v4);
      LLVMBuildCall2(x->b, type, a, &null, 1, "");
    } else {
      snprintf(text + len, sizeof text - len, "s_waitcnt vmcnt(%lld)", count);
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
    if (strcmp(name, GAC_AMDGCN_WAIT_VM) == 0 || strcmp(name, GAC_AMDGCN_COMMIT) == 0) {
      ok = rewrite_counted(&x, f, strcmp(name, GAC_AMDGCN_COMMIT) == 0, diag) && ok;
    } else if (strncmp(name, GAC_AMDGCN_LDS_LOAD_PREFIX, prefix) == 0) {
      if (!define_lds_load(&x, f, (unsigned)atoi(name + prefix))) {
        gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "amdgcn.lds-load",
                     "%s: %s has no LDS-direct load of that size", name, mcpu);
        ok = false;
      }
    } else if (strcmp(name, GAC_AMDGCN_PINGPONG_ENTER) == 0 || strcmp(name, GAC_AMDGCN_PINGPONG_EXIT) == 0) {
      define_pingpong(&x, f, strcmp(name, GAC_AMDGCN_PINGPONG_ENTER) == 0);
    } else if (strncmp(name, GAC_AMDGCN_SETPRIO_PREFIX, strlen(GAC_AMDGCN_SETPRIO_PREFIX)) == 0) {
      define_setprio(&x, f, (unsigned)atoi(name + strlen(GAC_AMDGCN_SETPRIO_PREFIX)));
    } else if (strcmp(name, GAC_AMDGCN_DRAIN_VM) == 0) {
      define_asm(&x, f, "s_waitcnt vmcnt(0)");
    } else if (strcmp(name, GAC_AMDGCN_SCHED_BARRIER) == 0) {
      define_sched_barrier(&x, f);
    } else if (strcmp(name, GAC_AMDGCN_BARRIER) == 0 || strcmp(name, "_Z7barrierj") == 0 ||
               strcmp(name, "_Z18work_group_barrierj") == 0) {
      define_barrier(&x, f);
    }
  }
  LLVMDisposeBuilder(x.b);
  return ok;
}
