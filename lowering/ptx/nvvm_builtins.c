/* The functions that llvm-spirv-15's bitcode calls but does not define:
 * OpenCL builtins (as mangled names, e.g. _Z12get_local_idj) and gac's
 * cp.async functions (include/gac/ptx.h), given bodies made of NVVM
 * intrinsics. Each body is internal and always inlined. The rest of the
 * OpenCL C library comes from opencl_library.c. cp.async.wait_group takes
 * an immediate, so its calls are rewritten in place instead. */
#include <stdio.h>
#include <string.h>

#include "gac/ptx.h"
#include "ptx_internal.h"

typedef struct ctx {
  LLVMModuleRef mod;
  LLVMContextRef c;
  LLVMBuilderRef b;
  gac_ptx_abi abi;
} ctx;

static LLVMValueRef intrinsic(ctx *x, const char *name, LLVMTypeRef *overload, unsigned n, LLVMTypeRef *type) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id)
    return NULL;
  *type = LLVMIntrinsicGetType(x->c, id, overload, n);
  return LLVMGetIntrinsicDeclaration(x->mod, id, overload, n);
}

static LLVMValueRef call_intrinsic(ctx *x, const char *name, LLVMTypeRef *overload, unsigned n, LLVMValueRef *args,
                                   unsigned num_args) {
  LLVMTypeRef type;
  LLVMValueRef f = intrinsic(x, name, overload, n, &type);
  return f ? LLVMBuildCall2(x->b, type, f, args, num_args, "") : NULL;
}

/* values[dim] for the i32 `dim` (0, 1 or 2); `other` beyond 2. */
static LLVMValueRef by_dim(ctx *x, LLVMValueRef dim, LLVMTypeRef ret, unsigned long long other, LLVMValueRef values[3]) {
  LLVMValueRef v = LLVMConstInt(ret, other, 0);
  for (int d = 2; d >= 0; d--) {
    LLVMValueRef is = LLVMBuildICmp(x->b, LLVMIntEQ, dim, LLVMConstInt(LLVMTypeOf(dim), (unsigned)d, 0), "");
    v = LLVMBuildSelect(x->b, is, values[d], v, "");
  }
  return v;
}

/* The special register `reg` (e.g. "tid.y", "envreg3"), zero-extended to ret. */
static LLVMValueRef read_sreg(ctx *x, const char *reg, LLVMTypeRef ret) {
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s", reg);
  return LLVMBuildZExt(x->b, call_intrinsic(x, name, NULL, 0, NULL, 0), ret, "");
}

/* A special register x/y/z chosen by the i32 `dim`; `other` beyond 2. */
static LLVMValueRef sreg(ctx *x, const char *reg, LLVMValueRef dim, LLVMTypeRef ret, unsigned long long other) {
  LLVMValueRef values[3];
  for (int d = 0; d < 3; d++) {
    char name[32];
    snprintf(name, sizeof name, "%s.%c", reg, "xyz"[d]);
    values[d] = read_sreg(x, name, ret);
  }
  return by_dim(x, dim, ret, other, values);
}

/* NVIDIA's OpenCL driver launches with the work-group size in %ntid and
 * these in environment registers (read off its own compiler's PTX,
 * docs/VENDOR.md); it may split one NDRange into several grids, so the
 * group id is %ctaid plus the grid's group offset:
 *   %envreg0..2  the group offset of x, y, z
 *   %envreg3..5  the global offset plus the group offset times the local size
 *   %envreg6..8  the NDRange's group count
 *   %envreg9     the work dimension */
enum { ENV_GROUP_OFFSET = 0, ENV_GLOBAL_BASE = 3, ENV_NUM_GROUPS = 6, ENV_WORK_DIM = 9 };

static LLVMValueRef envreg(ctx *x, unsigned first, LLVMValueRef dim, LLVMTypeRef ret, unsigned long long other) {
  LLVMValueRef values[3];
  for (unsigned d = 0; d < 3; d++) {
    char name[32];
    snprintf(name, sizeof name, "envreg%u", first + d);
    values[d] = read_sreg(x, name, ret);
  }
  return by_dim(x, dim, ret, other, values);
}

/* The work-item builtins whose value depends on how the grid was launched. */
static LLVMValueRef group_id(ctx *x, LLVMValueRef dim, LLVMTypeRef ret) {
  LLVMValueRef ctaid = sreg(x, "ctaid", dim, ret, 0);
  return x->abi == GAC_PTX_ABI_OPENCL ? LLVMBuildAdd(x->b, ctaid, envreg(x, ENV_GROUP_OFFSET, dim, ret, 0), "") : ctaid;
}

static LLVMValueRef num_groups(ctx *x, LLVMValueRef dim, LLVMTypeRef ret) {
  return x->abi == GAC_PTX_ABI_OPENCL ? envreg(x, ENV_NUM_GROUPS, dim, ret, 1) : sreg(x, "nctaid", dim, ret, 1);
}

static LLVMValueRef global_offset(ctx *x, LLVMValueRef dim, LLVMTypeRef ret) {
  if (x->abi != GAC_PTX_ABI_OPENCL)
    return LLVMConstInt(ret, 0, 0); /* a CUDA launch has none */
  LLVMValueRef skipped = LLVMBuildMul(x->b, envreg(x, ENV_GROUP_OFFSET, dim, ret, 0), sreg(x, "ntid", dim, ret, 1), "");
  return LLVMBuildSub(x->b, envreg(x, ENV_GLOBAL_BASE, dim, ret, 0), skipped, "");
}

static LLVMValueRef global_id(ctx *x, LLVMValueRef dim, LLVMTypeRef ret) {
  LLVMValueRef id = LLVMBuildAdd(x->b, LLVMBuildMul(x->b, group_id(x, dim, ret), sreg(x, "ntid", dim, ret, 1), ""),
                                 sreg(x, "tid", dim, ret, 0), "");
  return LLVMBuildAdd(x->b, id, global_offset(x, dim, ret), "");
}

/* One PTX instruction (or a few) as inline assembly, for what LLVM 19 has
 * no intrinsic for, or none it can select with 32-bit shared addresses
 * (cp.async, mbarrier.init). The operand constraints follow the operands:
 * a shared pointer is a 32-bit address ("r": the module uses 32-bit shared
 * pointers, as nvcc does), any other pointer a 64-bit one ("l"), an i32
 * "r"; `clobbers` ends the constraint string. */
static void inline_asm(ctx *x, const char *text, const char *clobbers, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef types[4];
  LLVMValueRef values[4];
  char constraints[64] = "";
  size_t len = 0;
  for (unsigned i = 0; i < n && i < 4; i++) {
    values[i] = args[i];
    LLVMTypeRef t = LLVMTypeOf(args[i]);
    bool is_ptr = LLVMGetTypeKind(t) == LLVMPointerTypeKind;
    bool narrow = !is_ptr || LLVMGetPointerAddressSpace(t) == 3;
    if (is_ptr)
      values[i] = LLVMBuildPtrToInt(x->b, args[i], narrow ? LLVMInt32TypeInContext(x->c) : LLVMInt64TypeInContext(x->c), "");
    types[i] = LLVMTypeOf(values[i]);
    len += (size_t)snprintf(constraints + len, sizeof constraints - len, "%s%s", i ? "," : "", narrow ? "r" : "l");
  }
  snprintf(constraints + len, sizeof constraints - len, "%s%s", n ? "," : "", clobbers);
  LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(x->c), types, n, 0);
  LLVMValueRef a = LLVMGetInlineAsm(type, text, strlen(text), constraints, strlen(constraints), 1, 0,
                                    LLVMInlineAsmDialectATT, 0);
  LLVMBuildCall2(x->b, type, a, values, n, "");
}

typedef enum kind {
  LOCAL_ID, GROUP_ID, LOCAL_SIZE, NUM_GROUPS, GLOBAL_ID, GLOBAL_SIZE, GLOBAL_OFFSET,
  LOCAL_LINEAR_ID, GLOBAL_LINEAR_ID, WORK_DIM, MEM_FENCE,
  BARRIER, MAD, FMA, CP_ASYNC_4, CP_ASYNC_8, CP_ASYNC_16, CP_ASYNC_16_L1, COMMIT, WAIT_ALL,
  MBAR_INIT, MBAR_INIT_FENCE, MBAR_EXPECT_TX, MBAR_ARRIVE, MBAR_WAIT,
  BULK_LOAD, BULK_STORE, BULK_COMMIT, BULK_WAIT, FENCE_PROXY_ASYNC, OPAQUE,
  MBAR_INIT_COUNT, CP_ASYNC_MBAR_ARRIVE, NAMED_BARRIER,
} kind;

typedef struct builtin {
  const char *name;
  kind k;
} builtin;

static const builtin builtins[] = {
    {"_Z12get_local_idj", LOCAL_ID},     {"_Z12get_group_idj", GROUP_ID},
    {"_Z14get_local_sizej", LOCAL_SIZE}, {"_Z14get_num_groupsj", NUM_GROUPS},
    {"_Z13get_global_idj", GLOBAL_ID},   {"_Z15get_global_sizej", GLOBAL_SIZE},
    {"_Z17get_global_offsetj", GLOBAL_OFFSET},
    {"_Z23get_enqueued_local_sizej", LOCAL_SIZE}, /* work-groups are uniform on CUDA */
    {"_Z19get_local_linear_idv", LOCAL_LINEAR_ID}, {"_Z20get_global_linear_idv", GLOBAL_LINEAR_ID},
    {"_Z12get_work_dimv", WORK_DIM}, /* NVIDIA's OpenCL ABI only: a CUDA launch does not say */
    {"_Z9mem_fencej", MEM_FENCE}, {"_Z14read_mem_fencej", MEM_FENCE}, {"_Z15write_mem_fencej", MEM_FENCE},
    {"_Z7barrierj", BARRIER},            {"_Z18work_group_barrierj", BARRIER},
    {"_Z3madfff", MAD},                  {"_Z3fmafff", FMA},
    {GAC_PTX_CP_ASYNC_PREFIX "4", CP_ASYNC_4}, {GAC_PTX_CP_ASYNC_PREFIX "8", CP_ASYNC_8},
    {GAC_PTX_CP_ASYNC_PREFIX "16", CP_ASYNC_16},
    {GAC_PTX_CP_ASYNC_16_L1, CP_ASYNC_16_L1}, {GAC_PTX_COMMIT, COMMIT},
    {GAC_PTX_WAIT_ALL, WAIT_ALL},
    {GAC_PTX_MBAR_INIT, MBAR_INIT}, {GAC_PTX_MBAR_INIT_FENCE, MBAR_INIT_FENCE},
    {GAC_PTX_MBAR_EXPECT_TX, MBAR_EXPECT_TX}, {GAC_PTX_MBAR_ARRIVE, MBAR_ARRIVE},
    {GAC_PTX_MBAR_WAIT, MBAR_WAIT}, {GAC_PTX_BULK_LOAD, BULK_LOAD}, {GAC_PTX_BULK_STORE, BULK_STORE},
    {GAC_PTX_BULK_COMMIT, BULK_COMMIT}, {GAC_PTX_BULK_WAIT, BULK_WAIT},
    {GAC_PTX_FENCE_PROXY_ASYNC, FENCE_PROXY_ASYNC}, {GAC_PTX_FENCE_PROXY_ASYNC_LOAD, FENCE_PROXY_ASYNC},
    {GAC_PTX_OPAQUE, OPAQUE},
    {GAC_PTX_MBAR_INIT_COUNT, MBAR_INIT_COUNT}, {GAC_PTX_CP_ASYNC_MBAR_ARRIVE, CP_ASYNC_MBAR_ARRIVE},
    {GAC_PTX_NAMED_BARRIER, NAMED_BARRIER},
};

/* The builtins written as PTX: cp.async (16-byte units bypass L1 with .cg:
 * the data is used once, from shared memory; or, asked for, through L1
 * with .ca, which NVIDIA's OpenCL driver runs faster on some kernels:
 * docs/VENDOR.md), mbarrier.init; sm_90 (PTX
 * ISA 8.0): mbarriers with transaction counts, bulk copies, the proxy
 * fence. The wait spins on try_wait.parity; its label is local to the
 * braces, so the body may be inlined many times. */
static const char *const asm_text[] = {
    [CP_ASYNC_4] = "cp.async.ca.shared.global [$0], [$1], 4;",
    [CP_ASYNC_8] = "cp.async.ca.shared.global [$0], [$1], 8;",
    [CP_ASYNC_16] = "cp.async.cg.shared.global [$0], [$1], 16;",
    [CP_ASYNC_16_L1] = "cp.async.ca.shared.global [$0], [$1], 16;",
    [MBAR_INIT] = "mbarrier.init.shared.b64 [$0], 1;",
    [MBAR_INIT_FENCE] = "fence.mbarrier_init.release.cluster;",
    [MBAR_EXPECT_TX] = "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$0], $1;",
    [MBAR_ARRIVE] = "mbarrier.arrive.shared::cta.b64 _, [$0];",
    [MBAR_WAIT] = "{\n\t.reg .pred p;\nLAB_WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1;\n"
                  "\t@!p bra LAB_WAIT;\n}",
    [BULK_LOAD] = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];",
    [BULK_STORE] = "cp.async.bulk.global.shared::cta.bulk_group [$0], [$1], $2;",
    [BULK_COMMIT] = "cp.async.bulk.commit_group;",
    [BULK_WAIT] = "cp.async.bulk.wait_group 0;",
    [FENCE_PROXY_ASYNC] = "fence.proxy.async.shared::cta;",
    [MBAR_INIT_COUNT] = "mbarrier.init.shared.b64 [$0], $1;",
    [CP_ASYNC_MBAR_ARRIVE] = "cp.async.mbarrier.arrive.noinc.shared.b64 [$0];",
};

/* The body of f as builtin k; false if an intrinsic is missing. */
static bool define(ctx *x, LLVMValueRef f, kind k) {
  LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(f));
  LLVMPositionBuilderAtEnd(x->b, LLVMAppendBasicBlockInContext(x->c, f, "entry"));
  LLVMValueRef p0 = LLVMCountParams(f) > 0 ? LLVMGetParam(f, 0) : NULL;
  LLVMValueRef v = NULL;
  bool ok = true;
  switch (k) {
  case LOCAL_ID: v = sreg(x, "tid", p0, ret, 0); break;
  case GROUP_ID: v = group_id(x, p0, ret); break;
  case LOCAL_SIZE: v = sreg(x, "ntid", p0, ret, 1); break;
  case NUM_GROUPS: v = num_groups(x, p0, ret); break;
  case GLOBAL_ID: v = global_id(x, p0, ret); break;
  case GLOBAL_SIZE: v = LLVMBuildMul(x->b, num_groups(x, p0, ret), sreg(x, "ntid", p0, ret, 1), ""); break;
  case GLOBAL_OFFSET: v = global_offset(x, p0, ret); break;
  case WORK_DIM:
    v = LLVMBuildTrunc(x->b, read_sreg(x, "envreg9", LLVMInt64TypeInContext(x->c)), ret, "");
    break;
  case LOCAL_LINEAR_ID:
  case GLOBAL_LINEAR_ID: {
    /* (id.z * size.y + id.y) * size.x + id.x, of local ids, or of global
     * ids less the global offset (OpenCL 2.0's definition) */
    v = LLVMConstInt(ret, 0, 0);
    for (int d = 2; d >= 0; d--) {
      LLVMValueRef dim = LLVMConstInt(LLVMInt32TypeInContext(x->c), (unsigned)d, 0);
      LLVMValueRef ntid = sreg(x, "ntid", dim, ret, 1), size = ntid, i;
      if (k == LOCAL_LINEAR_ID) {
        i = sreg(x, "tid", dim, ret, 0);
      } else {
        size = LLVMBuildMul(x->b, num_groups(x, dim, ret), ntid, "");
        i = LLVMBuildSub(x->b, global_id(x, dim, ret), global_offset(x, dim, ret), "");
      }
      v = LLVMBuildAdd(x->b, LLVMBuildMul(x->b, v, size, ""), i, "");
    }
    break;
  }
  case MEM_FENCE:
    /* OpenCL 1.2's fences order one work-item's accesses; membar.gl also
     * makes them visible in that order beyond the work-group. */
    ok = call_intrinsic(x, "llvm.nvvm.membar.gl", NULL, 0, NULL, 0) != NULL;
    break;
  case BARRIER: ok = call_intrinsic(x, "llvm.nvvm.barrier0", NULL, 0, NULL, 0) != NULL; break;
  case MAD:
  case FMA: {
    LLVMValueRef args[3] = {LLVMGetParam(f, 0), LLVMGetParam(f, 1), LLVMGetParam(f, 2)};
    v = call_intrinsic(x, k == MAD ? "llvm.fmuladd" : "llvm.fma", &ret, 1, args, 3);
    ok = v != NULL;
    break;
  }
  case OPAQUE: {
    /* A volatile move: LLVM neither folds it nor hoists what depends on it
     * out of its block (see lower_async_copies.c, narrow units). */
    bool wide = LLVMGetIntTypeWidth(ret) == 64;
    LLVMTypeRef type = LLVMFunctionType(ret, &ret, 1, 0);
    const char *text = wide ? "mov.b64 $0, $1;" : "mov.b32 $0, $1;", *constraints = wide ? "=l,l" : "=r,r";
    LLVMValueRef a = LLVMGetInlineAsm(type, text, strlen(text), constraints, strlen(constraints), 1, 0,
                                      LLVMInlineAsmDialectATT, 0);
    v = LLVMBuildCall2(x->b, type, a, &p0, 1, "");
    break;
  }
  case NAMED_BARRIER: {
    /* barrier.sync, not bar.sync (= barrier.sync.aligned, which needs every
     * lane of a warp at the same instruction): LLVM may place a copy of the
     * barrier on each side of a branch that splits a consumer warp (a loop
     * over work-items, rotated), and the aligned form then hangs on the GPU
     * (random case 2411264/207). The intrinsic is also convergent, where an
     * inline asm call is not. */
    LLVMValueRef args[2] = {LLVMGetParam(f, 0), LLVMGetParam(f, 1)};
    ok = call_intrinsic(x, "llvm.nvvm.barrier.sync.cnt", NULL, 0, args, 2) != NULL;
    break;
  }
  case COMMIT: ok = call_intrinsic(x, "llvm.nvvm.cp.async.commit.group", NULL, 0, NULL, 0) != NULL; break;
  case WAIT_ALL: ok = call_intrinsic(x, "llvm.nvvm.cp.async.wait.all", NULL, 0, NULL, 0) != NULL; break;
  default: {
    LLVMValueRef args[4];
    unsigned n = LLVMCountParams(f);
    for (unsigned i = 0; i < n && i < 4; i++)
      args[i] = LLVMGetParam(f, i);
    inline_asm(x, asm_text[k], "~{memory}", args, n);
    break;
  }
  }
  if (v)
    LLVMBuildRet(x->b, v);
  else
    LLVMBuildRetVoid(x->b);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMSetFunctionCallConv(f, LLVMCCallConv);
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(x->c, always, 0));
  return ok;
}

/* Every call of __gac_cp_async_wait(M) becomes cp.async.wait_group M. */
static bool rewrite_waits(ctx *x, LLVMValueRef f, gac_diag *diag) {
  LLVMTypeRef type;
  LLVMValueRef wait = intrinsic(x, "llvm.nvvm.cp.async.wait.group", NULL, 0, &type);
  bool ok = wait != NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(f); u && ok; u = LLVMGetFirstUse(f)) {
    LLVMValueRef call = LLVMGetUser(u);
    LLVMValueRef n = LLVMIsACallInst(call) && LLVMGetNumArgOperands(call) == 1 ? LLVMGetOperand(call, 0) : NULL;
    if (!n || !LLVMIsAConstantInt(n)) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.wait-count",
                   "%s needs a constant group count (cp.async.wait_group takes an immediate)", GAC_PTX_WAIT);
      return false;
    }
    LLVMPositionBuilderBefore(x->b, call);
    LLVMBuildCall2(x->b, type, wait, &n, 1, "");
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDeleteFunction(f);
  return ok;
}

bool gac_ptx_define_builtins(LLVMModuleRef mod, gac_ptx_abi abi, gac_diag *diag) {
  ctx x = {mod, LLVMGetModuleContext(mod), LLVMCreateBuilderInContext(LLVMGetModuleContext(mod)), abi};
  bool ok = true;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (!LLVMIsDeclaration(f) || strncmp(name, "llvm.", 5) == 0)
      continue;
    if (strcmp(name, GAC_PTX_WAIT) == 0) {
      ok = rewrite_waits(&x, f, diag) && ok;
      continue;
    }
    const builtin *bi = NULL;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0] && !bi; i++)
      if (strcmp(name, builtins[i].name) == 0)
        bi = &builtins[i];
    /* A CUDA launch is always three-dimensional: the dimension count the
     * host meant is unknown, and get_work_dim stays undefined (an error
     * naming it, from gac_gpu_resolve). */
    if (!bi || (bi->k == WORK_DIM && abi != GAC_PTX_ABI_OPENCL))
      continue; /* the OpenCL C library's (opencl_library.c) */
    if (!define(&x, f, bi->k)) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.intrinsic",
                   "LLVM lacks the NVVM intrinsic that %s needs", name);
      ok = false;
    }
  }
  LLVMDisposeBuilder(x.b);
  return ok;
}
