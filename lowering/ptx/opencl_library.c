/* The OpenCL C library on the PTX path, after nvvm_builtins.c has defined
 * the work-item functions and gac's own:
 *
 *  1. printf becomes CUDA's vprintf (printf.c); OpenCL 1.x atomics of
 *     every width get LLVM atomics (atomics.c);
 *  2. transcendental math goes to CUDA's libdevice (NVIDIA's tuned and
 *     tested library; its accuracy is within the OpenCL 1.2 full-profile
 *     bounds for every function routed here, docs/PTX.md): a declared
 *     builtin such as _Z3expDv4_f gets a body that calls __nv_expf per
 *     lane. With -cl-fast-relaxed-math, and for native_*, the __nv_fast_*
 *     variants where libdevice has them, and denormals flushed. Without
 *     libdevice on the machine, libclc's math (within the same bounds)
 *     serves;
 *  3. everything else (integer, common, relational, geometric, conversions,
 *     vload/vstore, the rest of math) comes from libclc's NVPTX library
 *     (Debian's libclc-19, built by the LLVM project for this very target),
 *     loaded lazily so that only what the module calls is read;
 *  4. libdevice is linked for the __nv_ functions that step 2 called.
 * Linked functions become internal: O3 inlines them and drops the rest. A
 * call left without a body is an error that names it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm_gpu.h"
#include "ptx_internal.h"

#ifndef GAC_LIBCLC_NVPTX
#define GAC_LIBCLC_NVPTX "/usr/lib/clc/nvptx64--nvidiacl.bc"
#endif
#ifndef GAC_LIBDEVICE
#define GAC_LIBDEVICE "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
#endif

typedef enum shape { FLOATS, FLOAT_INT } shape; /* (x, y, ...) or (x, int n) */

typedef struct routed {
  const char *opencl; /* the OpenCL name */
  const char *nv;     /* libdevice's name without __nv_ and the f suffix */
  const char *fast;   /* its float __nv_fast_ variant, if any */
  shape shape;
} routed;

/* Transcendental functions only: the rest (fabs, floor, sqrt, fma, fmin...)
 * libclc writes with LLVM intrinsics, which NVPTX selects as single
 * instructions. Measured by conformance/math on an H100 and left to
 * libclc: powr (libdevice's pow has pow's special cases, not powr's) and
 * pown (__nv_powif flushes results that are denormal); __nv_fast_exp10f
 * (2 + floor(|2.95 x|) ulp) is beyond -cl-fast-relaxed-math's bound of
 * 3 + floor(|2 x|), so exp10 keeps the accurate one there. native_ functions have implementation-defined accuracy:
 * the fast variants. (half_ functions stay with libclc, whose accurate
 * versions meet their bounds; __nv_fast_sinf does not outside [-pi, pi].) */
static const routed routes[] = {
    {"acos", "acos", NULL, FLOATS},      {"acosh", "acosh", NULL, FLOATS},
    {"asin", "asin", NULL, FLOATS},      {"asinh", "asinh", NULL, FLOATS},
    {"atan", "atan", NULL, FLOATS},      {"atanh", "atanh", NULL, FLOATS},
    {"atan2", "atan2", NULL, FLOATS},    {"cbrt", "cbrt", NULL, FLOATS},
    {"cos", "cos", "cos", FLOATS},       {"cosh", "cosh", NULL, FLOATS},
    {"cospi", "cospi", NULL, FLOATS},    {"erf", "erf", NULL, FLOATS},
    {"erfc", "erfc", NULL, FLOATS},      {"exp", "exp", "exp", FLOATS},
    {"exp2", "exp2", NULL, FLOATS},      {"exp10", "exp10", NULL, FLOATS},
    {"expm1", "expm1", NULL, FLOATS},    {"fmod", "fmod", NULL, FLOATS},
    {"hypot", "hypot", NULL, FLOATS},    {"lgamma", "lgamma", NULL, FLOATS},
    {"log", "log", "log", FLOATS},       {"log2", "log2", "log2", FLOATS},
    {"log10", "log10", "log10", FLOATS}, {"log1p", "log1p", NULL, FLOATS},
    {"pow", "pow", "pow", FLOATS},       {"ldexp", "ldexp", NULL, FLOAT_INT},
    {"remainder", "remainder", NULL, FLOATS}, {"rsqrt", "rsqrt", NULL, FLOATS},
    {"sin", "sin", "sin", FLOATS},       {"sinh", "sinh", NULL, FLOATS},
    {"sinpi", "sinpi", NULL, FLOATS},    {"tan", "tan", "tan", FLOATS},
    {"tanh", "tanh", NULL, FLOATS},      {"tgamma", "tgamma", NULL, FLOATS},
    {"native_cos", "cos", "cos", FLOATS},     {"native_exp", "exp", "exp", FLOATS},
    {"native_exp10", "exp10", "exp10", FLOATS}, {"native_log", "log", "log", FLOATS},
    {"native_log2", "log2", "log2", FLOATS},  {"native_log10", "log10", "log10", FLOATS},
    {"native_powr", "pow", "pow", FLOATS},    {"native_sin", "sin", "sin", FLOATS},
    {"native_tan", "tan", "tan", FLOATS},
};

static const routed *route_of(const char *mangled) {
  char name[64];
  if (!gac_gpu_demangle(mangled, name, sizeof name, NULL))
    return NULL;
  for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
    if (strcmp(routes[i].opencl, name) == 0)
      return &routes[i];
  return NULL;
}

static LLVMTypeRef scalar_of(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
}

static unsigned lanes_of(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 0;
}

static bool is_fp(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(scalar_of(t));
  return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

/* The libdevice function for r at the element type of f's result, or NULL
 * if f's signature is not the one r describes (then libclc serves it). */
static LLVMValueRef libdevice_function(LLVMModuleRef mod, const routed *r, LLVMValueRef f, bool fast) {
  LLVMTypeRef type = LLVMGlobalGetValueType(f), ret = LLVMGetReturnType(type);
  unsigned n = LLVMCountParamTypes(type);
  LLVMTypeRef params[3];
  if (!is_fp(ret) || n < 1 || n > 3 || (r->shape == FLOAT_INT && n != 2))
    return NULL;
  LLVMGetParamTypes(type, params);
  LLVMTypeRef elem = scalar_of(ret);
  LLVMTypeRef nv_params[3];
  for (unsigned i = 0; i < n; i++) {
    bool want_int = r->shape == FLOAT_INT && i == 1;
    LLVMTypeRef e = scalar_of(params[i]);
    bool ok = want_int ? LLVMGetTypeKind(e) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(e) == 32
                       : e == elem && lanes_of(params[i]) == lanes_of(ret);
    if (!ok || (lanes_of(params[i]) && lanes_of(params[i]) != lanes_of(ret)))
      return NULL;
    nv_params[i] = e;
  }
  bool is_float = LLVMGetTypeKind(elem) == LLVMFloatTypeKind;
  char name[64];
  if (is_float && fast && r->fast)
    snprintf(name, sizeof name, "__nv_fast_%sf", r->fast);
  else
    snprintf(name, sizeof name, "__nv_%s%s", r->nv, is_float ? "f" : "");
  LLVMValueRef nv = LLVMGetNamedFunction(mod, name);
  return nv ? nv : LLVMAddFunction(mod, name, LLVMFunctionType(elem, nv_params, n, 0));
}

/* f's body: nv lane by lane (a scalar int operand goes to every lane). */
static void define_lanewise(LLVMModuleRef mod, LLVMValueRef f, LLVMValueRef nv) {
  LLVMContextRef c = LLVMGetModuleContext(mod);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, "entry"));
  LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(f)), nv_type = LLVMGlobalGetValueType(nv);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
  unsigned n = LLVMCountParams(f), lanes = lanes_of(ret);
  LLVMValueRef result = lanes ? LLVMGetUndef(ret) : NULL;
  for (unsigned lane = 0; lane < (lanes ? lanes : 1); lane++) {
    LLVMValueRef args[3];
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef p = LLVMGetParam(f, i);
      args[i] = lanes_of(LLVMTypeOf(p)) ? LLVMBuildExtractElement(b, p, LLVMConstInt(i32, lane, 0), "") : p;
    }
    LLVMValueRef v = LLVMBuildCall2(b, nv_type, nv, args, n, "");
    result = lanes ? LLVMBuildInsertElement(b, result, v, LLVMConstInt(i32, lane, 0), "") : v;
  }
  LLVMBuildRet(b, result);
  LLVMDisposeBuilder(b);
}

static bool route_math(LLVMModuleRef mod, bool fast_math) {
  bool any = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    const routed *r = LLVMIsDeclaration(f) ? route_of(LLVMGetValueName(f)) : NULL;
    bool native = r && strncmp(r->opencl, "native_", 7) == 0;
    LLVMValueRef nv = r ? libdevice_function(mod, r, f, fast_math || native) : NULL;
    if (nv) {
      define_lanewise(mod, f, nv);
      any = true;
    }
  }
  return any;
}

static bool calls_prefix(LLVMModuleRef mod, const char *prefix) {
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    if (LLVMIsDeclaration(f) && strncmp(LLVMGetValueName(f), prefix, strlen(prefix)) == 0 &&
        LLVMGetFirstUse(f))
      return true;
  return false;
}

/* Called and not defined, besides these: __nvvm_reflect, which libdevice
 * calls and LLVM's NVVMReflect pass (in the NVPTX pipeline) folds to the
 * module's nvvm-reflect flags, and CUDA's vprintf, which the driver links
 * (printf.c). */
static const char *const external[] = {"__nvvm_reflect", "vprintf", NULL};

static bool has_unresolved(LLVMModuleRef mod) {
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    bool known = strncmp(LLVMGetValueName(f), "llvm.", 5) == 0;
    for (const char *const *e = external; *e && !known; e++)
      known = strcmp(LLVMGetValueName(f), *e) == 0;
    if (LLVMIsDeclaration(f) && !known && LLVMGetFirstUse(f))
      return true;
  }
  return false;
}

bool gac_ptx_link_opencl_library(LLVMModuleRef mod, bool fast_math, gac_diag *diag) {
  bool ok = gac_ptx_lower_printf(mod, diag);
  gac_gpu_define_atomics(mod);
  /* Without libdevice (no CUDA toolkit on this machine), libclc's math,
   * which meets the same OpenCL bounds, serves. */
  const char *libdevice = gac_gpu_path("GAC_LIBDEVICE", GAC_LIBDEVICE);
  FILE *probe = fopen(libdevice, "rb");
  if (probe) {
    fclose(probe);
    route_math(mod, fast_math);
  }
  if (ok && has_unresolved(mod))
    ok = gac_gpu_link_library(mod, gac_gpu_path("GAC_LIBCLC", GAC_LIBCLC_NVPTX), "libclc's NVPTX library", "ptx",
                              diag);
  if (ok && calls_prefix(mod, "__nv_")) {
    ok = gac_gpu_link_library(mod, libdevice, "CUDA's libdevice", "ptx", diag);
    LLVMContextRef c = LLVMGetModuleContext(mod);
    LLVMAddModuleFlag(mod, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", strlen("nvvm-reflect-ftz"),
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), fast_math, 0)));
  }
  return ok && gac_gpu_resolve(mod, LLVMPTXKernelCallConv, external, "ptx", "PTX", diag);
}
