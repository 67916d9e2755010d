/* libFuzzer target: gac's LLVM side of the GPU paths, fed SPIR 1.2
 * bitcode directly (what llvm-spirv-15 -r gives the paths after gac's
 * SPIR-V half), without the SPIR-V half and without the llvm-spirv-15
 * subprocess that make fuzz_emit_gpu slow. An input is one byte that picks
 * the target (low two bits: sm_80, sm_90, gfx90a, gfx942; bit 2: PTX with
 * -cl-fast-relaxed-math) and the bitcode.
 * It goes to gac_ptx_from_bitcode or gac_amdgcn_from_bitcode (assembly),
 * the entry points gac_emit_ptx and gac_emit_amdgcn call after the bridge:
 * LLVM reads and verifies the bitcode (lowering/llvm/llvm_gpu.c refuses
 * what does not verify, [<rule>.bitcode]), then gac's passes (retargeting,
 * address spaces, kernels and their local parameters, the builtins, the
 * OpenCL C library, printf, atomics, private memory, redundant barriers)
 * and LLVM 19's O3 and backend run.
 *
 * The promise checked: it refuses with a diagnostic, or returns
 * NUL-terminated text for the target asked for; never an error with
 * success, never [<rule>.internal] (gac's own passes made the valid module
 * invalid, or O3 failed on it), never a crash.
 *
 * The mutator below works on the IR (read, change, verify, write), so that
 * inputs stay valid bitcode and LLVM's bitcode reader, which is not built
 * for hostile input, is not what gets fuzzed; GAC_FUZZ_MUTATOR=bytes gives
 * libFuzzer's byte mutations instead. See README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/Linker.h>

#include "amdgcn_internal.h"
#include "fuzz_common.h"
#include "gac/amdgcn.h"
#include "gac/ptx.h"
#include "llvm_gpu.h"
#include "ptx_internal.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

/* LLVM's report_fatal_error exits the process after this; libFuzzer then
 * keeps the input ("fuzz target exited"). Say whose it is. */
static void llvm_fatal(const char *reason) {
  fprintf(stderr, "fuzz: LLVM reported a fatal error (the process exits inside LLVM): %s\n", reason);
}

/* GAC_FUZZ_FULL=1: every input through LLVM's O3 and backend; =0: none. */
static int full_always = -1;
/* GAC_FUZZ_PRINT=1: the diagnostics of every refusal, to stderr. */
static bool print_refusals;

static void print_cache_stats(void) {
  unsigned long hits, misses;
  gac_gpu_library_cache_stats(&hits, &misses);
  fprintf(stderr, "gac-fuzz-library-cache: hits %lu misses %lu\n", hits, misses);
}

static bool env_on(const char *name, bool fallback) {
  const char *e = getenv(name);
  return e && *e ? *e != '0' : fallback;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  LLVMInstallFatalErrorHandler(llvm_fatal);
  const char *e = getenv("GAC_FUZZ_FULL");
  if (e && *e)
    full_always = *e != '0';
  print_refusals = env_on("GAC_FUZZ_PRINT", false);
  /* What an input links from libclc and libdevice is kept per process
   * (llvm_gpu.h): reading the libraries was most of an execution's time.
   * GAC_FUZZ_LIBRARY_CACHE=0 reads them for every input, as gac-cc does. */
  gac_gpu_set_library_cache(env_on("GAC_FUZZ_LIBRARY_CACHE", true));
  if (env_on("GAC_FUZZ_STATS", false))
    atexit(print_cache_stats);
  return 0;
}

static const char *const target_names[4] = {"sm_80", "sm_90", "gfx90a", "gfx942"};

static bool has_message(const gac_diag *d, const char *text) {
  for (size_t i = 0; i < d->count; i++)
    if (d->entries[i].message && strstr(d->entries[i].message, text))
      return true;
  return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_count(FUZZ_INPUT);
  if (size < 1)
    return 0;
  unsigned target = data[0] & 3;
  /* One input in eight (by its hash) goes all the way, through LLVM's O3 and
   * backend; the others stop after gac's passes (gac_gpu_set_skip_llvm_codegen),
   * 4-6 times as fast: LLVM's code is not instrumented, so the coverage is
   * the same, and what the full runs add is LLVM's reaction to what gac made. */
  bool full = full_always < 0 ? fuzz_hash(data, size) % 8 == 0 : full_always;
  gac_gpu_set_skip_llvm_codegen(!full);
  gac_diag d;
  gac_diag_init(&d);
  char *out = NULL;
  size_t out_size = 0;
  bool ok;
  if (target < 2) {
    gac_ptx_options o = {.sm = target ? 90 : 80, .fast_relaxed_math = (data[0] & 4) != 0};
    ok = gac_ptx_from_bitcode(data + 1, size - 1, &o, &out, &out_size, &d);
  } else {
    gac_amdgcn_options o = {.mcpu = target_names[target], .output = GAC_AMDGCN_ASSEMBLY};
    ok = gac_amdgcn_from_bitcode(data + 1, size - 1, &o, false, &out, &out_size, &d);
  }
  const char *expect = full ? target_names[target] : target < 2 ? "nvptx64-nvidia-cuda" : "amdgcn-amd-amdhsa";
  if (ok) {
    fuzz_count(FUZZ_READ);
    fuzz_count(FUZZ_VALID);
    if (!out || out_size == 0 || strlen(out) != out_size)
      fuzz_fail("the emission succeeded without a NUL-terminated text of the size it gave", NULL);
    if (!strstr(out, expect))
      fuzz_fail("the emitted text is not for the target asked for", NULL);
    if (gac_diag_has_errors(&d))
      fuzz_fail("the emission succeeded but reported an error", &d);
    fuzz_count(FUZZ_OUTPUT);
  } else {
    if (!gac_diag_has_errors(&d))
      fuzz_fail("the emission failed without an error", &d);
    if (out)
      fuzz_fail("the emission failed but returned output", &d);
    if (fuzz_has_rule_suffix(&d, ".internal"))
      fuzz_fail("gac's LLVM-side passes made a valid module invalid (or O3 failed on it)", &d);
    if (print_refusals)
      gac_diag_print(&d, stderr, "fuzz_emit_bitcode");
    /* How far it got: read (not "cannot read"), valid (verified). */
    bool unreadable = fuzz_has_rule_suffix(&d, ".bitcode") && has_message(&d, "cannot read");
    bool invalid = fuzz_has_rule_suffix(&d, ".bitcode") && has_message(&d, "not a valid LLVM module");
    if (!unreadable)
      fuzz_count(FUZZ_READ);
    if (!unreadable && !invalid)
      fuzz_count(FUZZ_VALID);
  }
  free(out);
  gac_diag_free(&d);
  return 0;
}

/* ---- The mutator: one change to the IR, kept only if it verifies ---- */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return n ? (uint32_t)((rng_state >> 33) % n) : 0;
}

static void ignore_diag(LLVMDiagnosticInfoRef info, void *user) { (void)info, (void)user; }

static LLVMModuleRef parse(LLVMContextRef c, const uint8_t *data, size_t size) {
  LLVMMemoryBufferRef in = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)data, size, "input");
  LLVMModuleRef mod = NULL;
  if (LLVMParseBitcodeInContext2(c, in, &mod))
    mod = NULL;
  LLVMDisposeMemoryBuffer(in);
  return mod;
}

/* The module as bitcode after the selector byte into out; 0 if it does not
 * verify or fit. */
static size_t write_out(LLVMModuleRef mod, uint8_t selector, uint8_t *out, size_t max_size) {
  char *message = NULL;
  bool invalid = LLVMVerifyModule(mod, LLVMReturnStatusAction, &message);
  LLVMDisposeMessage(message);
  if (invalid)
    return 0;
  LLVMMemoryBufferRef buffer = LLVMWriteBitcodeToMemoryBuffer(mod);
  size_t n = LLVMGetBufferSize(buffer), written = 0;
  if (n + 1 <= max_size) {
    out[0] = selector;
    memcpy(out + 1, LLVMGetBufferStart(buffer), n);
    written = n + 1;
  }
  LLVMDisposeMemoryBuffer(buffer);
  return written;
}

typedef struct values {
  LLVMValueRef *v;
  size_t n, cap;
} values;

static void push(values *vs, LLVMValueRef v) {
  if (vs->n == vs->cap) {
    vs->cap = vs->cap ? 2 * vs->cap : 64;
    vs->v = realloc(vs->v, vs->cap * sizeof *vs->v);
  }
  vs->v[vs->n++] = v;
}

static LLVMValueRef pick(const values *vs) { return vs->n ? vs->v[rnd((uint32_t)vs->n)] : NULL; }

static bool is_call(LLVMValueRef i) { return LLVMIsACallInst(i) != NULL; }

/* A value of type t usable before instruction `at`: an argument, an
 * earlier instruction of its block, a global, or a constant. */
static LLVMValueRef same_type_value(LLVMValueRef at, LLVMTypeRef t) {
  values vs = {0};
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
  LLVMValueRef f = LLVMGetBasicBlockParent(bb);
  for (unsigned p = 0; p < LLVMCountParams(f); p++)
    if (LLVMTypeOf(LLVMGetParam(f, p)) == t)
      push(&vs, LLVMGetParam(f, p));
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && i != at; i = LLVMGetNextInstruction(i))
    if (LLVMTypeOf(i) == t)
      push(&vs, i);
  LLVMModuleRef mod = LLVMGetGlobalParent(f);
  for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g))
    if (LLVMTypeOf(g) == t)
      push(&vs, g);
  LLVMValueRef v = pick(&vs);
  free(vs.v);
  if (!v || rnd(4) == 0) {
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
      v = LLVMConstInt(t, rnd(3) ? rnd(8) : rnd(1u << 16), 0);
    else if (LLVMGetTypeKind(t) == LLVMFloatTypeKind || LLVMGetTypeKind(t) == LLVMDoubleTypeKind)
      v = LLVMConstReal(t, (double)rnd(8) - 2.0);
    else if (!v)
      v = rnd(2) ? LLVMGetUndef(t) : LLVMConstNull(t);
  }
  return v;
}

static unsigned long long interesting(unsigned long long x, unsigned bits) {
  unsigned long long mask = bits >= 64 ? ~0ull : (1ull << bits) - 1, v;
  switch (rnd(10)) {
  case 0: v = x + 1; break;
  case 1: v = x - 1; break;
  case 2: v = x * 2; break;
  case 3: v = x / 2; break;
  case 4: v = 0; break;
  case 5: v = 1; break;
  case 6: v = 1ull << rnd(bits < 64 ? bits : 64); break;
  case 7: v = mask; break;
  case 8: v = rnd(4); break;
  default: v = (unsigned long long)rnd(0xffffffffu) << 32 | rnd(0xffffffffu); break;
  }
  return v & mask;
}

static const LLVMOpcode int_ops[] = {LLVMAdd,  LLVMSub,  LLVMMul, LLVMUDiv, LLVMSDiv, LLVMURem, LLVMSRem,
                                     LLVMShl,  LLVMLShr, LLVMAShr, LLVMAnd, LLVMOr,   LLVMXor};
static const LLVMOpcode float_ops[] = {LLVMFAdd, LLVMFSub, LLVMFMul, LLVMFDiv, LLVMFRem};

static bool is_binary(LLVMOpcode op) { return op >= LLVMAdd && op <= LLVMXor; }

/* One change to one instruction of mod (false: nothing done). */
static bool mutate_module(LLVMModuleRef mod) {
  values insts = {0}, funcs = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    push(&funcs, f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        push(&insts, i);
  }
  bool done = false;
  LLVMValueRef i = pick(&insts);
  if (!i)
    goto out;
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  unsigned n = (unsigned)LLVMGetNumOperands(i);
  unsigned nargs = is_call(i) ? n - 1 : n; /* a call's last operand is its callee */
  switch (rnd(9)) {
  case 0: /* a constant integer operand: copy shapes, strides, sizes, dimensions */
  case 1: {
    values idx = {0};
    for (unsigned k = 0; k < nargs; k++)
      if (LLVMIsAConstantInt(LLVMGetOperand(i, k)))
        push(&idx, (LLVMValueRef)(uintptr_t)(k + 1));
    if (idx.n && op != LLVMGetElementPtr && op != LLVMSwitch && op != LLVMAlloca) {
      unsigned k = (unsigned)(uintptr_t)pick(&idx) - 1;
      LLVMValueRef old = LLVMGetOperand(i, k);
      LLVMTypeRef t = LLVMTypeOf(old);
      unsigned bits = LLVMGetIntTypeWidth(t);
      LLVMSetOperand(i, k, LLVMConstInt(t, interesting(LLVMConstIntGetZExtValue(old), bits), 0));
      done = true;
    }
    free(idx.v);
    break;
  }
  case 2: /* an operand replaced by another value of its type */
    if (nargs && op != LLVMPHI && op != LLVMGetElementPtr) {
      unsigned k = rnd(nargs);
      LLVMValueRef old = LLVMGetOperand(i, k);
      if (LLVMGetTypeKind(LLVMTypeOf(old)) != LLVMLabelTypeKind &&
          LLVMGetTypeKind(LLVMTypeOf(old)) != LLVMMetadataTypeKind) {
        LLVMValueRef v = same_type_value(i, LLVMTypeOf(old));
        if (v && v != old) {
          LLVMSetOperand(i, k, v);
          done = true;
        }
      }
    }
    break;
  case 3: /* two operands of one type swapped */
    if (nargs >= 2 && op != LLVMPHI && op != LLVMBr) {
      unsigned a = rnd(nargs), b = rnd(nargs);
      LLVMValueRef va = LLVMGetOperand(i, a), vb = LLVMGetOperand(i, b);
      if (a != b && LLVMTypeOf(va) == LLVMTypeOf(vb) && va != vb &&
          LLVMGetTypeKind(LLVMTypeOf(va)) != LLVMLabelTypeKind) {
        LLVMSetOperand(i, a, vb);
        LLVMSetOperand(i, b, va);
        done = true;
      }
    }
    break;
  case 4: /* a call to another function of the same type (builtins) */
    if (is_call(i)) {
      LLVMValueRef callee = LLVMGetCalledValue(i);
      LLVMTypeRef ft = LLVMGetCalledFunctionType(i);
      values same = {0};
      for (size_t k = 0; k < funcs.n; k++)
        if (funcs.v[k] != callee && LLVMGlobalGetValueType(funcs.v[k]) == ft &&
            LLVMGetIntrinsicID(funcs.v[k]) == 0)
          push(&same, funcs.v[k]);
      LLVMValueRef g = pick(&same);
      if (g) {
        LLVMSetOperand(i, n - 1, g);
        done = true;
      }
      free(same.v);
    }
    break;
  case 5: /* a binary operation becomes another */
    if (is_binary(op)) {
      bool fp = op == LLVMFAdd || op == LLVMFSub || op == LLVMFMul || op == LLVMFDiv || op == LLVMFRem;
      LLVMOpcode to = fp ? float_ops[rnd(5)] : int_ops[rnd(13)];
      if (to != op) {
        LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
        LLVMPositionBuilderBefore(b, i);
        LLVMValueRef r = LLVMBuildBinOp(b, to, LLVMGetOperand(i, 0), LLVMGetOperand(i, 1), "");
        LLVMDisposeBuilder(b);
        LLVMReplaceAllUsesWith(i, r);
        LLVMInstructionEraseFromParent(i);
        done = true;
      }
    }
    break;
  case 6: /* an instruction duplicated (a call: barriers, waits, copies) */
    if (op != LLVMPHI && !LLVMIsATerminatorInst(i) && op != LLVMAlloca && op != LLVMLandingPad) {
      LLVMValueRef copy = LLVMInstructionClone(i);
      LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
      LLVMPositionBuilderBefore(b, i);
      LLVMInsertIntoBuilder(b, copy);
      LLVMDisposeBuilder(b);
      done = true;
    }
    break;
  case 7: /* an instruction deleted, its uses given another value */
    if (op != LLVMPHI && !LLVMIsATerminatorInst(i) && op != LLVMLandingPad) {
      LLVMTypeRef t = LLVMTypeOf(i);
      if (LLVMGetTypeKind(t) != LLVMVoidTypeKind) {
        LLVMValueRef v = same_type_value(i, t);
        if (!v)
          break;
        LLVMReplaceAllUsesWith(i, v);
      }
      LLVMInstructionEraseFromParent(i);
      done = true;
    }
    break;
  default: /* alignment or volatility of a memory access */
    if (op == LLVMLoad || op == LLVMStore) {
      if (rnd(2))
        LLVMSetAlignment(i, 1u << rnd(7));
      else
        LLVMSetVolatile(i, !LLVMGetVolatile(i));
      done = true;
    } else if (op == LLVMAlloca) {
      LLVMSetAlignment(i, 1u << rnd(7));
      done = true;
    }
    break;
  }
out:
  free(insts.v);
  free(funcs.v);
  return done;
}

static int bytes_only = -1;

static bool use_bytes(void) {
  if (bytes_only < 0) {
    const char *e = getenv("GAC_FUZZ_MUTATOR");
    bytes_only = e && strcmp(e, "bytes") == 0;
  }
  return bytes_only;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  rng_state = seed * 0x9E3779B97F4A7C15ull + 1;
  if (use_bytes() || size < 2)
    return LLVMFuzzerMutate(data, size, max_size);
  uint8_t selector = data[0];
  if (rnd(32) == 0) { /* the same module for another target: mostly of its family */
    if (rnd(8) == 0)
      data[0] = selector ^ 2; /* PTX <-> AMDGCN: refused for the other's builtins */
    else
      data[0] = selector ^ ((selector & 2) || rnd(2) ? 1 : 4); /* sm_80 <-> sm_90, fast math; gfx90a <-> gfx942 */
    return size;
  }
  for (int attempt = 0; attempt < 8; attempt++) {
    LLVMContextRef c = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(c, ignore_diag, NULL);
    LLVMModuleRef mod = parse(c, data + 1, size - 1);
    size_t n = 0;
    if (!mod) { /* not bitcode (a regression input): only its target changes */
      LLVMContextDispose(c);
      data[0] = (uint8_t)(selector + 1);
      return size;
    }
    unsigned changes = 1 + (rnd(4) == 0) + (rnd(16) == 0);
    bool changed = false;
    for (unsigned k = 0; k < changes; k++)
      changed |= mutate_module(mod);
    if (changed)
      n = write_out(mod, selector, data, max_size);
    LLVMDisposeModule(mod);
    LLVMContextDispose(c);
    if (n)
      return n;
  }
  return size;
}

/* Crossover: the second module linked into the first (two kernels, their
 * builtins shared), kept if it links, verifies and fits. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed) {
  rng_state = seed * 0x9E3779B97F4A7C15ull + 7;
  /* Modules lowered for PTX and for AMDGCN call each target's own builtins:
   * linked, every target refuses them. */
  bool same_family = size1 >= 1 && size2 >= 1 && ((data1[0] ^ data2[0]) & 2) == 0;
  if (!use_bytes() && size1 >= 2 && !same_family) {
    size_t n = size1 < max_out_size ? size1 : max_out_size;
    memcpy(out, data1, n);
    return LLVMFuzzerCustomMutator(out, n, max_out_size, seed);
  }
  if (use_bytes() || size1 < 2 || size2 < 2) {
    size_t n = size1 < max_out_size ? size1 : max_out_size;
    memcpy(out, data1, n);
    return n;
  }
  LLVMContextRef c = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(c, ignore_diag, NULL);
  LLVMModuleRef a = parse(c, data1 + 1, size1 - 1), b = parse(c, data2 + 1, size2 - 1);
  size_t n = 0;
  if (a && b) {
    bool failed = LLVMLinkModules2(a, b); /* b is consumed */
    b = NULL;
    if (!failed)
      n = write_out(a, data1[0], out, max_out_size);
  }
  if (b)
    LLVMDisposeModule(b);
  if (a)
    LLVMDisposeModule(a);
  LLVMContextDispose(c);
  if (!n) {
    n = size1 < max_out_size ? size1 : max_out_size;
    memcpy(out, data1, n);
  }
  return n;
}
