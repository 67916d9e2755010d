// gac-bench-compute: compute kernels compiled by gac-opt --emit=ptx, side by
// side in one run with hand-written CUDA kernels of the same tiling and, for
// SGEMM, cuBLAS as the ceiling:
//
//   sgemm.cl    C = A B, n x n floats, 32 x 32 tiles, 32 x 8 threads, 4 rows
//               of one column each; GFLOP/s = 2 n^3 / time
//   sgemm_fast.cl  the same product written for speed: 128 x 128 tiles, 16 x
//               16 threads, 8 x 8 of C each in float4 accumulators, K step 16
//               (sgemm_fast_k8 rows: K step 8)
//   stencil.cl  5-point stencil, n x n output from an (n + 2)^2 input, 32-wide
//               column strips of `count` 32 x 32 tiles; GB/s = (input read
//               once + output written once) / time
//
// Each gac kernel runs unpipelined and pipelined (--pipeline-loops, 3
// stages), from the sm_80 and the sm_90 PTX, and warp-specialised
// (--pipeline-loops=warp-specialize, sm_90: a producer warp, 3 slots); each
// hand-written kernel runs unpipelined (plain loads to shared memory), as a
// 3-stage cp.async ring, and warp-specialised (a producer warp fills a
// 3-slot ring with cp.async completing on mbarriers, as CUTLASS's
// PipelineAsync does; the consumers wait, compute and release the slot).
// Per kernel: 3 warm-up launches, then REPS launches each timed with CUDA
// events; the median is reported. Every result is checked (FAIL and a
// non-zero exit status otherwise).
//
// Usage: gac-bench-compute PTX_DIR [--profile]
//   PTX_DIR holds {sgemm,stencil}.{unpipelined,pipelined}.sm{80,90}.ptx and
//   {sgemm,stencil}.ws.sm90.ptx and .pipelined.occ.sm90.ptx (--ptx-occupancy)
//   (`ninja ptx-device-bundle`). --profile: one launch per kernel at one size
//   (SGEMM n = 2048, stencil n = 4096), bracketed by cudaProfilerStart/Stop,
//   for `ncu --profile-from-start off` (bench/cuda/profile.sh).
// Built on the GPU machine by bench/cuda/device_run.sh:
//   nvcc -O3 -arch=sm_90 compute.cu -lcuda -lcublas
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cuda_bench.h"

// The tiling of sgemm.cl and stencil.cl.
enum { TS = 32, WY = 8, RY = TS / WY, THREADS = TS * WY, P = TS + 2, STAGES = 3 };
enum { WARMUP = 3, REPS = 30 };

#define CHECK_BLAS(x)                                                                             \
  do {                                                                                            \
    cublasStatus_t s_ = (x);                                                                      \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                            \
      fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)s_);                  \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)

// ---------------------------------------------------------------------------
// Hand-written kernels. One template per kernel: STAGES_ == 1 is the
// unpipelined kernel (plain loads, __syncthreads, compute, __syncthreads),
// STAGES_ > 1 the cp.async ring; only the copy and the loop schedule differ.

// One unit of a tile, global -> shared: cp.async when pipelined (16 bytes
// bypass L1, .cg; narrower units must use .ca), else a plain load and store.
template <bool ASYNC, class T> __device__ __forceinline__ void copy_unit(T *smem, const T *gmem) {
  if constexpr (ASYNC) {
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    if constexpr (sizeof(T) == 16)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
    else
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(s), "l"(gmem), "n"(sizeof(T)) : "memory");
  } else {
    *smem = *gmem;
  }
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wait_group() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// mbarriers (sm_90), for the warp-specialised kernels.
__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(unsigned long long *b, unsigned count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(b)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned long long *b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(b)) : "memory");
}
// Arrives once this thread's cp.async so far have landed (counted in the init).
__device__ __forceinline__ void mbar_arrive_cp_async(unsigned long long *b) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(smem(b)) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned long long *b, unsigned parity) {
  asm volatile("{\n\t.reg .pred p;\nWAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               "\t@!p bra WAIT;\n}" ::"r"(smem(b)), "r"(parity) : "memory");
}

// compute(t, slot) for the tiles t in [0, tiles), each after fetch(t, slot)
// has brought it into shared-memory slot `slot`. Pipelined: the usual ring,
// fetches issued STAGES_ - 1 tiles ahead, one commit per tile (empty groups
// at the end keep wait_group's count a constant), one __syncthreads per
// tile: it makes tile t visible to all and frees tile t - 1's slot, which
// the next fetch then overwrites.
template <int STAGES_, class Fetch, class Compute>
__device__ __forceinline__ void run_tiles(unsigned tiles, Fetch fetch, Compute compute) {
  if constexpr (STAGES_ == 1) {
    for (unsigned t = 0; t < tiles; t++) {
      fetch(t, 0);
      __syncthreads();
      compute(t, 0);
      __syncthreads();
    }
  } else {
    for (unsigned s = 0; s < STAGES_ - 1; s++) {
      if (s < tiles)
        fetch(s, s);
      commit();
    }
    unsigned slot = 0, next = STAGES_ - 1; // tile t's slot, and tile t + STAGES_ - 1's
    for (unsigned t = 0; t < tiles; t++) {
      wait_group<STAGES_ - 2>(); // this thread's part of tile t has landed
      __syncthreads();
      if (t + STAGES_ - 1 < tiles)
        fetch(t + STAGES_ - 1, next);
      commit();
      compute(t, slot);
      slot = slot + 1 == STAGES_ ? 0 : slot + 1;
      next = next + 1 == STAGES_ ? 0 : next + 1;
    }
  }
}

// Warp-specialised: THREADS consumers and one producer warp (threads
// THREADS..THREADS + 31). The producer fills slot t mod S with tile t once
// the consumer warps have released it (empty[], count THREADS / 32: after
// __syncwarp, lane 0 of each warp arrives, as CUTLASS's pipelines do; a fresh mbarrier
// passes the wait for the phase before 0, so the first S go at once), its
// lanes sharing the units (fetch(t, slot, lane, 32)) and arriving on full[]
// when their cp.async land (count 32); consumers wait on full[], compute and
// release. No __syncthreads in the loop. Returns false in the producer.
template <int S, class Fetch, class Compute>
__device__ __forceinline__ bool run_tiles_ws(unsigned tiles, Fetch fetch, Compute compute) {
  __shared__ unsigned long long full[S], empty[S];
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    for (int s = 0; s < S; s++)
      mbar_init(&full[s], 32), mbar_init(&empty[s], THREADS / 32);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (tid >= THREADS) {
    for (unsigned t = 0; t < tiles; t++) {
      unsigned s = t % S;
      mbar_wait(&empty[s], (t / S & 1) ^ 1);
      fetch(t, s, tid - THREADS, 32u);
      mbar_arrive_cp_async(&full[s]);
    }
    return false;
  }
  for (unsigned t = 0; t < tiles; t++) {
    unsigned s = t % S;
    mbar_wait(&full[s], t / S & 1);
    compute(t, s);
    __syncwarp();
    if (tid % 32 == 0)
      mbar_arrive(&empty[s]);
  }
  return true;
}

// sgemm.cl by hand: the 16-byte units of each 32 x 32 tile of A and B (256
// a tile: one a thread, or 8 a producer lane) and rows ly + 8r of column lx.
// WS: warp-specialised, launched with THREADS + 32 threads in one dimension.
template <int STAGES_, bool WS = false>
__global__ void __launch_bounds__(THREADS + (WS ? 32 : 0)) hand_sgemm(const float *A, const float *B, float *C,
                                                                      unsigned n) {
  __shared__ __align__(16) float As[STAGES_][TS * TS], Bs[STAGES_][TS * TS];
  const unsigned lx = WS ? threadIdx.x % TS : threadIdx.x, ly = WS ? threadIdx.x / TS : threadIdx.y, tid = ly * TS + lx;
  const unsigned gx = blockIdx.x * TS, gy = blockIdx.y * TS;
  float acc[RY] = {};
  auto fetch = [&](unsigned t, unsigned s, unsigned first, unsigned step) {
    for (unsigned u = first; u < TS * TS / 4; u += step) {
      const unsigned ur = u / (TS / 4), uc = u % (TS / 4) * 4; // the unit: row, first column
      copy_unit<(STAGES_ > 1)>((float4 *)&As[s][ur * TS + uc], (const float4 *)&A[(size_t)(gy + ur) * n + t * TS + uc]);
      copy_unit<(STAGES_ > 1)>((float4 *)&Bs[s][ur * TS + uc], (const float4 *)&B[(size_t)(t * TS + ur) * n + gx + uc]);
    }
  };
  auto compute = [&](unsigned, unsigned s) {
#pragma unroll
    for (unsigned k = 0; k < TS; k++) {
      float b = Bs[s][k * TS + lx];
#pragma unroll
      for (unsigned r = 0; r < RY; r++)
        acc[r] += As[s][(ly + r * WY) * TS + k] * b;
    }
  };
  if constexpr (WS) {
    if (!run_tiles_ws<STAGES_>(n / TS, fetch, compute))
      return;
  } else {
    __builtin_assume(tid < THREADS); // one unit each: the loop runs once
    run_tiles<STAGES_>(n / TS, [&](unsigned t, unsigned s) { fetch(t, s, tid, THREADS); }, compute);
  }
#pragma unroll
  for (unsigned r = 0; r < RY; r++)
    C[(size_t)(gy + ly + r * WY) * n + gx + lx] = acc[r];
}

// sgemm_fast.cl by hand, the same tiling: per K step of BK (16), the
// 128 x BK tile of A and the BK x 128 tile of B, BK / 8 16-byte units a
// thread each; work-item (tx, ty) keeps rows {0..3, 64..67} + 4 ty and
// columns {0..3, 64..67} + 4 tx of C in float4 accumulators and reads the
// tiles with 16-byte loads.
enum { FBM = 128, FBN = 128, FAST_BK = 16, FW = 16 };
template <int STAGES_, int BK>
__global__ void __launch_bounds__(FW *FW) hand_sgemm_fast(const float *A, const float *B, float *C, unsigned n) {
  __shared__ __align__(16) float As[STAGES_][FBM * BK], Bs[STAGES_][BK * FBN];
  const unsigned tx = threadIdx.x, ty = threadIdx.y, tid = ty * FW + tx;
  const unsigned gx = blockIdx.x * FBN, gy = blockIdx.y * FBM;
  float4 acc[8][2] = {};
  auto fetch = [&](unsigned t, unsigned s) {
#pragma unroll
    for (unsigned j = 0; j < FBM * BK / 4 / (FW * FW); j++) { // BK / 4 units a row of A's tile
      const unsigned u = j * FW * FW + tid, ar = u / (BK / 4), ac = u % (BK / 4) * 4;
      copy_unit<(STAGES_ > 1)>((float4 *)&As[s][ar * BK + ac], (const float4 *)&A[(size_t)(gy + ar) * n + t * BK + ac]);
    }
#pragma unroll
    for (unsigned j = 0; j < BK * FBN / 4 / (FW * FW); j++) { // 32 units a row of B's
      const unsigned u = j * FW * FW + tid, br = u / (FBN / 4), bc = u % (FBN / 4) * 4;
      copy_unit<(STAGES_ > 1)>((float4 *)&Bs[s][br * FBN + bc], (const float4 *)&B[(size_t)(t * BK + br) * n + gx + bc]);
    }
  };
  auto compute = [&](unsigned, unsigned s) {
#pragma unroll
    for (unsigned k4 = 0; k4 < BK; k4 += 4) {
      float4 a[8];
#pragma unroll
      for (unsigned i = 0; i < 8; i++)
        a[i] = *(const float4 *)&As[s][((i / 4) * 64 + ty * 4 + i % 4) * BK + k4];
#pragma unroll
      for (unsigned kk = 0; kk < 4; kk++) {
        const float4 b0 = *(const float4 *)&Bs[s][(k4 + kk) * FBN + tx * 4];
        const float4 b1 = *(const float4 *)&Bs[s][(k4 + kk) * FBN + 64 + tx * 4];
#pragma unroll
        for (unsigned i = 0; i < 8; i++) {
          const float ai = kk == 0 ? a[i].x : kk == 1 ? a[i].y : kk == 2 ? a[i].z : a[i].w;
          acc[i][0].x += ai * b0.x, acc[i][0].y += ai * b0.y, acc[i][0].z += ai * b0.z, acc[i][0].w += ai * b0.w;
          acc[i][1].x += ai * b1.x, acc[i][1].y += ai * b1.y, acc[i][1].z += ai * b1.z, acc[i][1].w += ai * b1.w;
        }
      }
    }
  };
  run_tiles<STAGES_>(n / BK, fetch, compute);
#pragma unroll
  for (unsigned i = 0; i < 8; i++) {
    float *c = C + (size_t)(gy + (i / 4) * 64 + ty * 4 + i % 4) * n + gx + tx * 4;
    *(float4 *)c = acc[i][0];
    *(float4 *)(c + 64) = acc[i][1];
  }
}

// stencil.cl by hand. The 34 x 34 halo tile's rows start at odd multiples of
// 8 bytes in global memory (the pitch n + 2 is 2 mod 4 floats), so 16-byte
// units do not fit; 8-byte units (17 a row, 578 a tile) are the widest that do.
template <int STAGES_, bool WS = false>
__global__ void __launch_bounds__(THREADS + (WS ? 32 : 0)) hand_stencil(const float *in, float *out, unsigned n,
                                                                        unsigned count) {
  __shared__ __align__(16) float tile[STAGES_][P * P];
  const unsigned lx = WS ? threadIdx.x % TS : threadIdx.x, ly = WS ? threadIdx.x / TS : threadIdx.y, tid = ly * TS + lx;
  const unsigned gx = blockIdx.x * TS, pitch = n + 2, first = blockIdx.y * count; // first tile of the strip
  auto fetch = [&](unsigned i, unsigned s, unsigned first_unit, unsigned step) {
    const float *src = in + (size_t)(first + i) * TS * pitch + gx;
    for (unsigned u = first_unit; u < P * P / 2; u += step) {
      unsigned row = u / (P / 2), col = u % (P / 2);
      copy_unit<(STAGES_ > 1)>((float2 *)&tile[s][row * P] + col, (const float2 *)(src + (size_t)row * pitch) + col);
    }
  };
  auto compute = [&](unsigned i, unsigned s) {
    const unsigned oy = (first + i) * TS + ly;
#pragma unroll
    for (unsigned r = 0; r < RY; r++) {
      const float *c = &tile[s][(ly + r * WY + 1) * P + lx + 1]; // the centre
      out[(size_t)(oy + r * WY) * n + gx + lx] = 0.5f * c[0] + 0.125f * (c[-P] + c[P] + c[-1] + c[1]);
    }
  };
  if constexpr (WS)
    run_tiles_ws<STAGES_>(count, fetch, compute);
  else
    run_tiles<STAGES_>(count, [&](unsigned i, unsigned s) { fetch(i, s, tid, THREADS); }, compute);
}

// ---------------------------------------------------------------------------
// Host side.

static bool profile_mode = false;

// Median of REPS launches, each timed with events, after WARMUP launches.
// --profile: one launch, between cudaProfilerStart and Stop, timed the same.
static double median_ms(const std::function<void()> &launch) {
  unsigned warmup = profile_mode ? 0 : WARMUP, reps = profile_mode ? 1 : REPS;
  for (unsigned r = 0; r < warmup; r++)
    launch();
  CHECK(cudaDeviceSynchronize());
  if (profile_mode)
    CHECK(cudaProfilerStart());
  std::vector<float> t = timed_launches(launch, reps);
  if (profile_mode)
    CHECK(cudaProfilerStop());
  CHECK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static std::string read_text(const std::string &path) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f)
    return "";
  std::string s;
  char buf[65536];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0)
    s.append(buf, got);
  fclose(f);
  return s;
}

// A gac kernel from a PTX file (JIT-compiled by the driver for this GPU).
struct GacKernel {
  CUmodule mod = nullptr;
  CUfunction fn = nullptr;
  unsigned block_threads = 0; // warp-specialised: one-dimensional blocks of this many
};
static GacKernel load_gac(const std::string &path, const char *name) {
  GacKernel k;
  std::string ptx = read_text(path);
  if (ptx.empty()) {
    fprintf(stderr, "cannot read %s\n", path.c_str());
    return k;
  }
  char log[8192] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log, (void *)(size_t)sizeof log};
  if (cuModuleLoadDataEx(&k.mod, ptx.c_str(), 2, opts, vals) != CUDA_SUCCESS) {
    fprintf(stderr, "%s: the JIT failed: %s\n", path.c_str(), log);
    k.mod = nullptr;
    return k;
  }
  CHECK_CU(cuModuleGetFunction(&k.fn, k.mod, name));
  // A warp-specialised kernel says how it is launched (docs/PTX.md).
  CUdeviceptr threads;
  size_t size;
  std::string sym = std::string("__gac_block_threads_") + name;
  if (cuModuleGetGlobal(&threads, &size, k.mod, sym.c_str()) == CUDA_SUCCESS && size == 4)
    CHECK_CU(cuMemcpyDtoH(&k.block_threads, threads, 4));
  return k;
}

static void launch_gac(const GacKernel &k, dim3 grid, void **params, dim3 block = dim3(TS, WY)) {
  if (k.block_threads)
    CHECK_CU(cuLaunchKernel(k.fn, grid.x, grid.y, 1, k.block_threads, 1, 1, 0, nullptr, params, nullptr));
  else
    CHECK_CU(cuLaunchKernel(k.fn, grid.x, grid.y, 1, block.x, block.y, 1, 0, nullptr, params, nullptr));
}

// The gac variants, in table order: PTX file stem and label.
static const char *const GAC_VARIANTS[][2] = {{"unpipelined.sm80", "gac sm80 unpipelined"},
                                              {"pipelined.sm80", "gac sm80 pipelined"},
                                              {"unpipelined.sm90", "gac sm90 unpipelined"},
                                              {"pipelined.sm90", "gac sm90 pipelined"},
                                              {"ws.sm90", "gac sm90 warp-specialised"},
                                              {"pipelined.occ.sm90", "gac sm90 pipelined occupancy"}};

struct Row {
  std::string label;
  double ms = 0, value = 0; // value: GFLOP/s or GB/s
  bool ok = false, ran = false;
};

static unsigned long long hash(size_t i, unsigned seed) { // splitmix64
  unsigned long long x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed * 0xD1B54A32D192ED03ull;
  x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 29;
  return x;
}
// Deterministic inputs in [-1, 1), exact in float (24 bits).
static float input_value(size_t i, unsigned seed) { return (float)((hash(i, seed) >> 40) * (2.0 / 16777216.0) - 1.0); }

static std::string slug(const std::string &label) { // "gac sm80 unpipelined" -> "gac-sm80-unpipelined"
  std::string s = label;
  std::replace(s.begin(), s.end(), ' ', '-');
  return s;
}

static void print_table(const char *kernel, unsigned n, const char *unit, const std::vector<Row> &rows,
                        const char *ref_names[], int nrefs) {
  // Ratios are value / reference value: > 1 is faster than the reference.
  std::vector<double> refs;
  for (int r = 0; r < nrefs; r++) {
    double v = 0;
    for (const Row &row : rows)
      if (row.label == ref_names[r] && row.ran && row.ok)
        v = row.value;
    refs.push_back(v);
  }
  printf("\n%s n=%u (%s; median of %d launches)\n", kernel, n, unit, profile_mode ? 1 : (int)REPS);
  printf("%-24s %10s %10s", "variant", unit, "ms");
  for (int r = 0; r < nrefs; r++)
    printf("  x %s", ref_names[r]);
  printf("  check\n");
  for (const Row &row : rows) {
    printf("%-24s", row.label.c_str());
    if (row.ran)
      printf(" %10.1f %10.4f", row.value, row.ms);
    else
      printf(" %10s %10s", "-", "-");
    for (int r = 0; r < nrefs; r++) {
      int width = (int)strlen(ref_names[r]) + 2; // under "x NAME"
      if (row.ran && refs[r] > 0)
        printf("  %*.3f", width, row.value / refs[r]);
      else
        printf("  %*s", width, "-");
    }
    printf("  %s\n", !row.ran ? "FAIL (did not run)" : row.ok ? "ok" : "FAIL");
  }
  for (const Row &row : rows)
    printf("RESULT %s %u %s %.2f %s %.5f %s\n", kernel, n, slug(row.label).c_str(), row.ran ? row.value : 0.0, unit,
           row.ran ? row.ms : 0.0, row.ran && row.ok ? "ok" : "FAIL");
}

// ---------------------------------------------------------------------------
// SGEMM

struct SgemmCheck {
  unsigned n;
  std::vector<float> ref;   // cuBLAS's C, checked against the samples
  std::vector<float> bound; // sum over k of |a_ik| |b_kj|, from cuBLAS on |A| and |B|
  std::vector<size_t> samples;
  std::vector<double> sample_ref, sample_bound; // host double precision
};

static const double SGEMM_TOL = 1e-4; // relative to sum |a||b|

// The samples: the corners of C and a few thousand spread entries.
static void sgemm_samples(SgemmCheck &c, const std::vector<float> &A, const std::vector<float> &B) {
  size_t n = c.n, last = n - 1;
  c.samples = {0, last, last * n, last * n + last};
  for (size_t s = 0; s < 4000; s++)
    c.samples.push_back(hash(s, 77) % (n * n));
  for (size_t idx : c.samples) {
    size_t i = idx / n, j = idx % n;
    double sum = 0, abs = 0;
    for (size_t k = 0; k < n; k++) {
      double p = (double)A[i * n + k] * B[k * n + j];
      sum += p, abs += std::fabs(p);
    }
    c.sample_ref.push_back(sum), c.sample_bound.push_back(abs);
  }
}

// got against the host samples, and (unless it is cuBLAS's own) entirely
// against cuBLAS's C.
static bool sgemm_ok(const SgemmCheck &c, const std::vector<float> &got, const std::string &label, bool full) {
  size_t bad = 0, first = 0;
  double worst = 0;
  for (size_t s = 0; s < c.samples.size(); s++) {
    double err = std::fabs(got[c.samples[s]] - c.sample_ref[s]), tol = SGEMM_TOL * c.sample_bound[s] + 1e-30;
    if (!(err <= tol) && bad++ == 0)
      first = c.samples[s];
    worst = std::max(worst, err / tol);
  }
  if (bad)
    printf("FAIL %s sgemm n=%u: %zu of %zu sampled entries off the host reference (first C[%zu][%zu] = %g, want %g)\n",
           label.c_str(), c.n, bad, c.samples.size(), first / c.n, first % c.n, got[first],
           c.sample_ref[std::find(c.samples.begin(), c.samples.end(), first) - c.samples.begin()]);
  if (!full)
    return bad == 0;
  size_t fbad = 0, ffirst = 0;
  for (size_t i = 0; i < got.size(); i++) {
    double err = std::fabs((double)got[i] - c.ref[i]), tol = SGEMM_TOL * c.bound[i] + 1e-30;
    if (!(err <= tol) && fbad++ == 0)
      ffirst = i;
  }
  if (fbad)
    printf("FAIL %s sgemm n=%u: %zu of %zu entries off cuBLAS (first C[%zu][%zu] = %g, cuBLAS %g)\n", label.c_str(),
           c.n, fbad, got.size(), ffirst / c.n, ffirst % c.n, got[ffirst], c.ref[ffirst]);
  return bad == 0 && fbad == 0;
}

// Row-major C = A B through column-major cuBLAS: C^T = B^T A^T.
static void cublas_rowmajor(cublasHandle_t h, const float *A, const float *B, float *C, unsigned n) {
  const float one = 1, zero = 0;
  CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n));
}

// One SGEMM kernel's tiling: the gac kernel's name (its PTX file stem), the
// work-group, the tile of C one computes, and the hand-written twins.
struct SgemmShape {
  const char *kernel;
  dim3 block;
  unsigned tile;
  std::vector<std::pair<const char *, std::function<void(const float *, const float *, float *, unsigned)>>> hand;
  const char *file = nullptr; // the PTX files' stem, if not the kernel's name
  bool gac_ws = true;         // a warp-specialised gac build exists
};

// hand_sgemm_fast with a K step of BK, unpipelined and as a cp.async ring.
template <int BK> static decltype(SgemmShape::hand) fast_twins() {
  const dim3 block(FW, FW);
  return {{"hand unpipelined",
           [=](const float *a, const float *b, float *c, unsigned n) {
             hand_sgemm_fast<1, BK><<<dim3(n / FBN, n / FBM), block>>>(a, b, c, n);
           }},
          {"hand cp.async 3-stage", [=](const float *a, const float *b, float *c, unsigned n) {
             hand_sgemm_fast<STAGES, BK><<<dim3(n / FBN, n / FBM), block>>>(a, b, c, n);
           }}};
}

static bool bench_sgemm(const std::string &ptx_dir, cublasHandle_t blas, unsigned n, const SgemmShape &shape) {
  size_t count = (size_t)n * n, bytes = count * sizeof(float);
  std::vector<float> A(count), B(count), absA(count), absB(count);
  for (size_t i = 0; i < count; i++) {
    A[i] = input_value(i, 1), B[i] = input_value(i, 2);
    absA[i] = std::fabs(A[i]), absB[i] = std::fabs(B[i]);
  }
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, bytes));
  CHECK(cudaMalloc(&dB, bytes));
  CHECK(cudaMalloc(&dC, bytes));

  SgemmCheck chk;
  chk.n = n;
  chk.ref.resize(count), chk.bound.resize(count);
  CHECK(cudaMemcpy(dA, absA.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, absB.data(), bytes, cudaMemcpyHostToDevice));
  cublas_rowmajor(blas, dA, dB, dC, n);
  CHECK(cudaMemcpy(chk.bound.data(), dC, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));
  sgemm_samples(chk, A, B);

  std::vector<Row> rows;
  std::vector<float> got(count);
  // Runs one variant: C poisoned (NaN) first, so a kernel that writes
  // nothing fails; checked after the timed launches.
  auto run = [&](const std::string &label, const std::function<void()> &launch, bool full) {
    Row row;
    row.label = label;
    CHECK(cudaMemset(dC, 0xff, bytes));
    row.ms = median_ms(launch);
    row.value = 2.0 * n * n * (double)n / (row.ms * 1e-3) / 1e9;
    row.ran = true;
    CHECK(cudaMemcpy(got.data(), dC, bytes, cudaMemcpyDeviceToHost));
    row.ok = sgemm_ok(chk, got, label, full);
    rows.push_back(row);
  };

  // cuBLAS first: its C is the full reference of the others.
  run("cuBLAS", [&] { cublas_rowmajor(blas, dA, dB, dC, n); }, false);
  chk.ref = got;

  dim3 grid(n / shape.tile, n / shape.tile);
  for (auto &v : GAC_VARIANTS) {
    if (!shape.gac_ws && strcmp(v[0], "ws.sm90") == 0)
      continue;
    GacKernel k = load_gac(ptx_dir + "/" + (shape.file ? shape.file : shape.kernel) + "." + v[0] + ".ptx", shape.kernel);
    if (!k.fn) {
      Row row;
      row.label = v[1];
      rows.push_back(row);
      continue;
    }
    CUdeviceptr a = (CUdeviceptr)dA, b = (CUdeviceptr)dB, c = (CUdeviceptr)dC;
    void *params[] = {&a, &b, &c, &n};
    run(v[1], [&] { launch_gac(k, grid, params, shape.block); }, true);
    CHECK_CU(cuModuleUnload(k.mod));
  }
  for (auto &h : shape.hand)
    run(h.first, [&] { h.second(dA, dB, dC, n); }, true);
  // cuBLAS last in the table.
  std::rotate(rows.begin(), rows.begin() + 1, rows.end());

  std::vector<const char *> refs;
  for (auto &h : shape.hand)
    refs.push_back(h.first);
  std::rotate(refs.begin(), refs.begin() + 1, refs.end()); // the cp.async twin first
  refs.push_back("cuBLAS");
  print_table(shape.file ? shape.file : shape.kernel, n, "GFLOP/s", rows, refs.data(), (int)refs.size());
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  bool ok = true;
  for (const Row &r : rows)
    ok &= r.ran && r.ok;
  return ok;
}

// ---------------------------------------------------------------------------
// Stencil

static bool stencil_ok(const std::vector<float> &in, const std::vector<float> &got, unsigned n,
                       const std::string &label) {
  size_t pitch = n + 2, bad = 0, first = 0;
  double first_want = 0;
  for (size_t y = 0; y < n; y++)
    for (size_t x = 0; x < n; x++) {
      const float *c = &in[(y + 1) * pitch + x + 1];
      double want = 0.5 * c[0] + 0.125 * ((double)c[-pitch] + c[pitch] + c[-1] + c[1]);
      double mag = 0.5 * std::fabs(c[0]) + 0.125 * (std::fabs(c[-pitch]) + std::fabs(c[pitch]) + std::fabs(c[-1]) +
                                                     std::fabs(c[1]));
      double err = std::fabs(got[y * n + x] - want);
      if (!(err <= 1e-6 * mag + 1e-30) && bad++ == 0)
        first = y * n + x, first_want = want;
    }
  if (bad)
    printf("FAIL %s stencil n=%u: %zu of %zu outputs wrong (first out[%zu][%zu] = %g, want %g)\n", label.c_str(), n,
           bad, got.size(), first / n, first % n, got[first], first_want);
  return bad == 0;
}

static bool bench_stencil(const std::string &ptx_dir, unsigned n, unsigned count) {
  size_t pitch = n + 2, in_count = pitch * pitch, out_count = (size_t)n * n;
  std::vector<float> in(in_count), got(out_count);
  for (size_t i = 0; i < in_count; i++)
    in[i] = input_value(i, 3);
  float *din, *dout;
  CHECK(cudaMalloc(&din, in_count * sizeof(float)));
  CHECK(cudaMalloc(&dout, out_count * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), in_count * sizeof(float), cudaMemcpyHostToDevice));
  double gbytes = (in_count + out_count) * sizeof(float) / 1e9;

  std::vector<Row> rows;
  auto run = [&](const std::string &label, const std::function<void()> &launch) {
    Row row;
    row.label = label;
    CHECK(cudaMemset(dout, 0xff, out_count * sizeof(float)));
    row.ms = median_ms(launch);
    row.value = gbytes / (row.ms * 1e-3);
    row.ran = true;
    CHECK(cudaMemcpy(got.data(), dout, out_count * sizeof(float), cudaMemcpyDeviceToHost));
    row.ok = stencil_ok(in, got, n, label);
    rows.push_back(row);
  };

  dim3 grid(n / TS, n / (TS * count)), block(TS, WY);
  for (auto &v : GAC_VARIANTS) {
    GacKernel k = load_gac(ptx_dir + "/stencil." + v[0] + ".ptx", "stencil");
    if (!k.fn) {
      Row row;
      row.label = v[1];
      rows.push_back(row);
      continue;
    }
    CUdeviceptr i = (CUdeviceptr)din, o = (CUdeviceptr)dout;
    void *params[] = {&i, &o, &n, &count};
    run(v[1], [&] { launch_gac(k, grid, params); });
    CHECK_CU(cuModuleUnload(k.mod));
  }
  run("hand unpipelined", [&] { hand_stencil<1><<<grid, block>>>(din, dout, n, count); });
  run("hand cp.async 3-stage", [&] { hand_stencil<STAGES><<<grid, block>>>(din, dout, n, count); });
  run("hand warp-specialised", [&] { hand_stencil<STAGES, true><<<grid, THREADS + 32>>>(din, dout, n, count); });

  const char *refs[] = {"hand cp.async 3-stage", "hand unpipelined", "hand warp-specialised"};
  print_table("stencil", n, "GB/s", rows, refs, 3);
  printf("(stencil n=%u: %u tiles per work-group, %u work-groups)\n", n, count, grid.x * grid.y);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  bool ok = true;
  for (const Row &r : rows)
    ok &= r.ran && r.ok;
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 2 || (argc == 3 && strcmp(argv[2], "--profile") != 0) || argc > 3) {
    fprintf(stderr, "usage: %s PTX_DIR [--profile]\n", argv[0]);
    return 2;
  }
  std::string ptx_dir = argv[1];
  profile_mode = argc == 3;
  setvbuf(stdout, nullptr, _IOLBF, 0); // each table survives a later hang or crash
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  CHECK(cudaFree(0)); // the primary context, shared with the driver API
  int driver = 0;
  CHECK(cudaDriverGetVersion(&driver));
  cublasHandle_t blas;
  CHECK_BLAS(cublasCreate(&blas));
  printf("device: %s (sm_%d%d, %d SMs), driver %d; %s\n", prop.name, prop.major, prop.minor,
         prop.multiProcessorCount, driver,
         profile_mode ? "profile mode: one launch per kernel" : "3 warm-up launches, median of 30 timed launches");
  printf("ratios: value / the reference's value (> 1: faster than it)\n");

  std::vector<unsigned> sgemm_sizes = {1024, 2048, 4096};
  std::vector<std::pair<unsigned, unsigned>> stencil_sizes = {{4096, 8}, {8192, 16}}; // n, tiles per work-group
  if (profile_mode)
    sgemm_sizes = {2048}, stencil_sizes = {{4096, 8}};
  // GAC_BENCH_STENCIL=N,COUNT: the stencil at that size alone (for profiling one shape).
  if (const char *only = getenv("GAC_BENCH_STENCIL")) {
    unsigned n = 0, count = 0;
    if (sscanf(only, "%u,%u", &n, &count) == 2 && n % (TS * count) == 0)
      sgemm_sizes = {}, stencil_sizes = {{n, count}};
  }
  dim3 block(TS, WY), fast_block(FW, FW);
  const SgemmShape sgemm = {
      "sgemm", block, TS,
      {{"hand unpipelined", [&](const float *a, const float *b, float *c, unsigned n) {
          hand_sgemm<1><<<dim3(n / TS, n / TS), block>>>(a, b, c, n);
        }},
       {"hand cp.async 3-stage", [&](const float *a, const float *b, float *c, unsigned n) {
          hand_sgemm<STAGES><<<dim3(n / TS, n / TS), block>>>(a, b, c, n);
        }},
       {"hand warp-specialised", [&](const float *a, const float *b, float *c, unsigned n) {
          hand_sgemm<STAGES, true><<<dim3(n / TS, n / TS), THREADS + 32>>>(a, b, c, n);
        }}}};
  const SgemmShape fast = {"sgemm_fast", fast_block, FBM, fast_twins<FAST_BK>()};
  // sgemm_fast with a K step of 8 (the default is 16, docs/VENDOR.md),
  // against twins of that step.
  SgemmShape fast_k8 = fast;
  fast_k8.file = "sgemm_fast_k8";
  fast_k8.gac_ws = false; // not built warp-specialised
  fast_k8.hand = fast_twins<8>();
  // The 32x32 SGEMM built without reqd_work_group_size: the block is then
  // known only at run time (its hand twins are the same kernels).
  SgemmShape noreqd = sgemm;
  noreqd.file = "sgemm_noreqd";
  noreqd.gac_ws = false; // not built warp-specialised
  bool ok = true;
  for (unsigned n : sgemm_sizes)
    ok &= bench_sgemm(ptx_dir, blas, n, sgemm);
  for (unsigned n : sgemm_sizes)
    ok &= bench_sgemm(ptx_dir, blas, n, noreqd);
  for (unsigned n : sgemm_sizes)
    ok &= bench_sgemm(ptx_dir, blas, n, fast);
  for (unsigned n : profile_mode ? std::vector<unsigned>{} : sgemm_sizes) // profile.sh labels launches by order
    ok &= bench_sgemm(ptx_dir, blas, n, fast_k8);
  for (auto [n, count] : stencil_sizes)
    ok &= bench_stencil(ptx_dir, n, count);
  CHECK_BLAS(cublasDestroy(blas));
  printf("\n%s\n", ok ? "all results correct" : "FAIL: some results are wrong or missing");
  return ok ? 0 : 1;
}
