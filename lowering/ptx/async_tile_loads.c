/* Cooperative tile loads as cp.async (docs/PTX.md, "Tile loads"): the
 * pattern a careful user of NVIDIA's OpenCL writes instead of async copies,
 *
 *     tile[l] = in[g];  ...  barrier(CLK_LOCAL_MEM_FENCE);
 *
 * compiles to a load into registers and a store from them, so each
 * work-item holds the tile's values until they arrive and stalls at the
 * store. `cp.async` moves the same bytes from global to shared memory
 * without registers; `cp.async.wait_all` before the barrier makes them the
 * work-item's own writes again, which the barrier then publishes, as it did
 * the stores. Run on the optimised module (every builtin inlined, unrolled
 * tile loops straight-line), before redundant barriers go.
 *
 * The dataflow, per basic block, in order. A *candidate* is a store to
 * shared memory (addrspace 3) whose value is a load from global memory
 * (addrspace 1) of the same block, used by that store alone, neither
 * volatile nor atomic, of 16 bytes with both addresses aligned to 16, and
 * with nothing between load and store that may write global
 * memory (the copy reads its source later, at the store's place). From a
 * candidate to the block's next barrier (llvm.nvvm.barrier0) the work-item
 * may only load global memory, compute, and make more candidates: a load or
 * store of shared or generic memory, any other store, an atomic, a fence,
 * or a call that is not arithmetic or a special-register read drops every
 * candidate so far, and so does the block's end. At the barrier the
 * candidates become cp.async (.cg, or .ca with cp_async_l1) and one
 * cp.async.wait_all goes before it.
 *
 * Why 16 bytes alone (H200, NVIDIA's OpenCL; docs/results/VENDOR.md#experiments,
 * "Xgemm's tile loads"):
 * CLBlast's Xgemm, six float4 tile loads a step, went from 32.2 to 36.3
 * TFLOP/s (0.977x to 1.10x NVIDIA's build of it); the corpus' matmul_f32,
 * one float each into two 16x16 tiles, from 5084 to 4451 GFLOP/s (-12.5%)
 * with 4-byte copies.
 *
 * A function that already issues cp.async or other inline assembly (gac's
 * own async copies, rings, warp specialisation) is left as it is: a wait_all
 * would also wait for its copies in flight. Tile loads in a loop that stays
 * a loop, or a barrier in another block, stay loads (not followed yet). */
#include <string.h>

#include <llvm-c/Target.h>

#include "ptx_internal.h"

enum { MAX_PENDING = 256, GLOBAL_AS = 1, SHARED_AS = 3, UNIT = 16 /* bytes a copy */ };

static unsigned address_space(LLVMValueRef pointer) { return LLVMGetPointerAddressSpace(LLVMTypeOf(pointer)); }

/* Whether f issues cp.async, bulk copies or anything else as inline assembly. */
static bool has_own_copies(LLVMValueRef f) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsACallInst(i) && (LLVMIsAInlineAsm(LLVMGetCalledValue(i)) || gac_ptx_calls(i, "llvm.nvvm.cp.async.")))
        return true;
  return false;
}

/* Whether i may write memory the way a later read of global memory could
 * see (stores and atomics anywhere, fences, calls that are not arithmetic). */
static bool may_write(LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  return op != LLVMLoad && op != LLVMVAArg && gac_ptx_touches_memory(i);
}

/* Whether i, met between a candidate and the barrier, keeps the candidate:
 * a plain load of global memory or no memory access at all. */
static bool harmless_after(LLVMValueRef i) {
  if (LLVMGetInstructionOpcode(i) == LLVMLoad)
    return address_space(LLVMGetOperand(i, 0)) == GLOBAL_AS && !LLVMGetVolatile(i) &&
           LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic;
  return !gac_ptx_touches_memory(i);
}

/* The load s stores, if s is a candidate (above). */
static LLVMValueRef candidate_load(LLVMTargetDataRef td, LLVMValueRef s) {
  if (LLVMGetInstructionOpcode(s) != LLVMStore || LLVMGetVolatile(s) ||
      LLVMGetOrdering(s) != LLVMAtomicOrderingNotAtomic || address_space(LLVMGetOperand(s, 1)) != SHARED_AS)
    return NULL;
  LLVMValueRef l = LLVMGetOperand(s, 0);
  if (!LLVMIsALoadInst(l) || LLVMGetInstructionParent(l) != LLVMGetInstructionParent(s) || LLVMGetVolatile(l) ||
      LLVMGetOrdering(l) != LLVMAtomicOrderingNotAtomic || address_space(LLVMGetOperand(l, 0)) != GLOBAL_AS)
    return NULL;
  LLVMUseRef use = LLVMGetFirstUse(l);
  if (!use || LLVMGetNextUse(use) || LLVMGetUser(use) != s || LLVMGetOperand(s, 1) == l)
    return NULL;
  LLVMTypeKind kind = LLVMGetTypeKind(LLVMTypeOf(l));
  if (kind != LLVMIntegerTypeKind && kind != LLVMFloatTypeKind && kind != LLVMDoubleTypeKind &&
      kind != LLVMHalfTypeKind && kind != LLVMVectorTypeKind)
    return NULL;
  if (LLVMStoreSizeOfType(td, LLVMTypeOf(l)) != UNIT || LLVMGetAlignment(l) < UNIT || LLVMGetAlignment(s) < UNIT)
    return NULL;
  for (LLVMValueRef i = LLVMGetNextInstruction(l); i != s; i = LLVMGetNextInstruction(i))
    if (may_write(i) && !(LLVMIsAStoreInst(i) && address_space(LLVMGetOperand(i, 1)) == SHARED_AS))
      return NULL;
  return l;
}

/* Whether two candidates' destinations are disjoint. Copies of one
 * work-item land in no set order, so two that may overlap cannot both be
 * copies. An address is read as a linear form, root + constant + sum of
 * coefficient x atom, through getelementptr, add, sub, `or disjoint`, and
 * shl and mul by constants (all modulo 2^bits, so wrapping keeps it exact);
 * anything else is an atom. Two forms with the same root and atoms whose
 * constants differ by at least a unit are disjoint; so are
 * addresses into two different global variables (__local arrays) reached
 * through inbounds getelementptrs alone. */
enum { MAX_TERMS = 16 };

typedef struct linear {
  LLVMValueRef root; /* the pointer the offsets start from */
  unsigned long long constant;
  unsigned num_terms;
  struct {
    LLVMValueRef atom;
    unsigned long long coefficient;
  } terms[MAX_TERMS];
  bool ok;        /* false: too many terms to follow */
  bool in_bounds; /* every getelementptr on the way is inbounds */
} linear;

static void add_term(linear *f, LLVMValueRef atom, unsigned long long coefficient) {
  for (unsigned k = 0; k < f->num_terms; k++)
    if (f->terms[k].atom == atom) {
      f->terms[k].coefficient += coefficient;
      return;
    }
  if (f->num_terms == MAX_TERMS) {
    f->ok = false;
    return;
  }
  f->terms[f->num_terms].atom = atom;
  f->terms[f->num_terms++].coefficient = coefficient;
}

static bool constant_of(LLVMValueRef v, unsigned long long *c) {
  if (!LLVMIsAConstantInt(v))
    return false;
  *c = (unsigned long long)LLVMConstIntGetSExtValue(v);
  return true;
}

/* f += scale * v, v an integer. */
static void add_integer(linear *f, LLVMValueRef v, unsigned long long scale, unsigned depth) {
  unsigned long long c;
  if (constant_of(v, &c)) {
    f->constant += scale * c;
    return;
  }
  LLVMOpcode op = LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : (LLVMOpcode)0;
  if (depth < 12 && op) {
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    if (op == LLVMAdd || (op == LLVMOr && LLVMGetIsDisjoint(v))) {
      add_integer(f, a, scale, depth + 1);
      add_integer(f, b, scale, depth + 1);
      return;
    }
    if (op == LLVMSub) {
      add_integer(f, a, scale, depth + 1);
      add_integer(f, b, 0 - scale, depth + 1);
      return;
    }
    if (op == LLVMShl && constant_of(b, &c) && c < 64) {
      add_integer(f, a, scale << c, depth + 1);
      return;
    }
    if (op == LLVMMul && (constant_of(b, &c) || constant_of(a, &c))) {
      add_integer(f, LLVMIsAConstantInt(b) ? a : b, scale * c, depth + 1);
      return;
    }
  }
  add_term(f, v, scale);
}

/* The linear form of pointer p. */
static linear address_of(LLVMTargetDataRef td, LLVMValueRef p) {
  linear f = {.ok = true, .in_bounds = true};
  for (unsigned depth = 0; depth < 12 && LLVMIsAGetElementPtrInst(p); depth++) {
    f.in_bounds = f.in_bounds && LLVMIsInBounds(p);
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    unsigned n = (unsigned)LLVMGetNumOperands(p);
    for (unsigned k = 1; k < n; k++) {
      LLVMValueRef index = LLVMGetOperand(p, k);
      unsigned long long field = 0;
      if (k > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
        if (!constant_of(index, &field)) /* struct indices are constants */
          f.ok = false;
        f.constant += LLVMOffsetOfElement(td, t, (unsigned)field);
        t = LLVMStructGetTypeAtIndex(t, (unsigned)field);
        continue;
      }
      if (k > 1)
        t = LLVMGetElementType(t); /* into an array or vector */
      add_integer(&f, index, LLVMABISizeOfType(td, t), 0);
    }
    p = LLVMGetOperand(p, 0);
  }
  f.root = p;
  return f;
}

static bool disjoint(LLVMTargetDataRef td, LLVMValueRef p, LLVMValueRef q) {
  linear a = address_of(td, p), b = address_of(td, q);
  if (a.root != b.root) /* two arrays: inbounds addresses stay inside each */
    return LLVMIsAGlobalVariable(a.root) && LLVMIsAGlobalVariable(b.root) && a.in_bounds && b.in_bounds;
  if (!a.ok || !b.ok)
    return false;
  for (unsigned k = 0; k < a.num_terms; k++) {
    unsigned long long other = 0;
    for (unsigned j = 0; j < b.num_terms; j++)
      if (b.terms[j].atom == a.terms[k].atom)
        other = b.terms[j].coefficient;
    if (other != a.terms[k].coefficient)
      return false;
  }
  for (unsigned j = 0; j < b.num_terms; j++) {
    bool found = b.terms[j].coefficient == 0;
    for (unsigned k = 0; k < a.num_terms && !found; k++)
      found = a.terms[k].atom == b.terms[j].atom;
    if (!found)
      return false;
  }
  unsigned bits = 8 * LLVMPointerSizeForAS(td, address_space(p));
  unsigned long long mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  unsigned long long d = (b.constant - a.constant) & mask; /* b - a, modulo 2^bits */
  return d >= UNIT && ((0 - d) & mask) >= UNIT;
}

/* cp.async for store s of load l, at s; both go. */
static void issue_copy(LLVMBuilderRef b, LLVMValueRef s, LLVMValueRef l, bool l1) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(s));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
  LLVMPositionBuilderBefore(b, s);
  /* 32-bit shared addresses (-nvptx-short-ptr), as gac's own copies. */
  LLVMValueRef args[2] = {LLVMBuildPtrToInt(b, LLVMGetOperand(s, 1), i32, ""),
                          LLVMBuildPtrToInt(b, LLVMGetOperand(l, 0), i64, "")};
  LLVMTypeRef params[2] = {i32, i64};
  LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 2, 0);
  const char *text = l1 ? "cp.async.ca.shared.global [$0], [$1], 16;" : "cp.async.cg.shared.global [$0], [$1], 16;";
  static const char constraints[] = "r,l,~{memory}";
  LLVMValueRef a = LLVMGetInlineAsm(type, (char *)text, strlen(text), (char *)constraints, strlen(constraints), 1, 0,
                                    LLVMInlineAsmDialectATT, 0);
  LLVMBuildCall2(b, type, a, args, 2, "");
  LLVMInstructionEraseFromParent(s);
  LLVMInstructionEraseFromParent(l);
}

static void wait_all(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef before) {
  static const char name[] = "llvm.nvvm.cp.async.wait.all";
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMTypeRef type = LLVMIntrinsicGetType(LLVMGetModuleContext(mod), id, NULL, 0);
  LLVMPositionBuilderBefore(b, before);
  LLVMBuildCall2(b, type, LLVMGetIntrinsicDeclaration(mod, id, NULL, 0), NULL, 0, "");
}

typedef struct pending {
  LLVMValueRef store, load;
} pending;

static unsigned convert_block(LLVMModuleRef mod, LLVMTargetDataRef td, LLVMBuilderRef b, LLVMBasicBlockRef block,
                              bool l1) {
  pending p[MAX_PENDING];
  unsigned n = 0, converted = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(block), next; i; i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMValueRef l;
    if (gac_ptx_is_barrier(i)) {
      for (unsigned k = 0; k < n; k++)
        issue_copy(b, p[k].store, p[k].load, l1);
      if (n)
        wait_all(mod, b, i);
      converted += n;
      n = 0;
    } else if ((l = candidate_load(td, i)) != NULL) {
      /* One that may overlap a pending copy leaves those as stores: they
       * happen first, the copy lands after them, as written. */
      for (unsigned k = 0; k < n; k++)
        if (!disjoint(td, LLVMGetOperand(p[k].store, 1), LLVMGetOperand(i, 1)))
          n = 0;
      if (n == MAX_PENDING)
        n = 0;
      p[n++] = (pending){i, l};
    } else if (!harmless_after(i)) {
      n = 0;
    }
  }
  return converted; /* what is still pending at the block's end stays as it is */
}

unsigned gac_ptx_async_tile_loads(LLVMModuleRef mod, bool cp_async_l1) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(mod);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
  unsigned converted = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    if (LLVMGetFirstBasicBlock(f) && !has_own_copies(f))
      for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(f); block; block = LLVMGetNextBasicBlock(block))
        converted += convert_block(mod, td, b, block, cp_async_l1);
  LLVMDisposeBuilder(b);
  return converted;
}
