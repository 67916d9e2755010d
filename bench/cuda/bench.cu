// gac-bench-cuda: the pipelined 2D tile copy (tile_copy.cl) compiled by
// gac-opt --emit=ptx, side by side in one run with cudaMemcpy device to
// device and a hand-written 3-stage cp.async kernel of the same shape.
// Bandwidth counts bytes read + written. Built with nvcc on the GPU machine
// (bench/cuda/run.sh): nvcc -O3 -arch=sm_90 bench.cu -lcuda.
//
// Usage: gac-bench-cuda <tile_copy.smXX.ptx>... (one row per PTX file)
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_bench.h"

enum { W = 64, H = 32, STAGES = 3, THREADS = 256 };
static const size_t TILES_X = 128, TILES_Y = 512, COUNT = 8; // 8192 x 16384 floats, 8 tiles per block
static const size_t FLOATS = TILES_X * W * TILES_Y * H, BYTES = FLOATS * sizeof(float);
static const unsigned BLOCKS = (unsigned)(TILES_X * TILES_Y / COUNT), REPS = 30;


__device__ __forceinline__ void cp_async16(void *smem, const void *gmem) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;"); }
template <int N> __device__ __forceinline__ void wait_group() { asm volatile("cp.async.wait_group %0;" ::"n"(N)); }

// The same schedule as tile_copy.cl, by hand: 16-byte cp.async per thread.
__device__ void fetch(const float4 *in, float4 *ring, size_t slot, size_t t) {
  size_t ty = t / TILES_X, tx = t - ty * TILES_X;
  for (unsigned u = threadIdx.x; u < W * H / 4; u += THREADS) {
    size_t row = u / (W / 4), col = u % (W / 4);
    cp_async16(&ring[slot * W * H / 4 + u], &in[((ty * H + row) * TILES_X * W + tx * W) / 4 + col]);
  }
}
__device__ void store(float4 *out, const float4 *ring, size_t slot, size_t t) {
  size_t ty = t / TILES_X, tx = t - ty * TILES_X;
  for (unsigned u = threadIdx.x; u < W * H / 4; u += THREADS) {
    size_t row = u / (W / 4), col = u % (W / 4);
    out[((ty * H + row) * TILES_X * W + tx * W) / 4 + col] = ring[slot * W * H / 4 + u];
  }
  __syncthreads();
}
__global__ void __launch_bounds__(THREADS) hand_cp_async(const float4 *in, float4 *out) {
  extern __shared__ float4 ring[];
  size_t first = blockIdx.x * COUNT;
  fetch(in, ring, 0, first), commit();
  fetch(in, ring, 1, first + 1), commit();
  for (size_t i = 0; i + 2 < COUNT; i++) {
    fetch(in, ring, (i + 2) % STAGES, first + i + 2), commit();
    wait_group<2>();
    __syncthreads();
    store(out, ring, i % STAGES, first + i);
  }
  wait_group<1>();
  __syncthreads();
  store(out, ring, (COUNT - 2) % STAGES, first + COUNT - 2);
  wait_group<0>();
  __syncthreads();
  store(out, ring, (COUNT - 1) % STAGES, first + COUNT - 1);
}

// For sm_90: the same schedule with bulk copies, one thread per CTA issuing
// each tile's lines on a ring of 3 mbarriers; the other threads store.
__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ void bulk_tile(const float *in, float4 *ring, unsigned long long *mb, size_t k, size_t t) {
  size_t ty = t / TILES_X, tx = t - ty * TILES_X;
  unsigned slot = k % STAGES, bytes = W * sizeof(float);
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&mb[slot])), "r"(bytes * H)
               : "memory");
  for (unsigned row = 0; row < H; row++)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem(&ring[slot * W * H / 4 + row * W / 4])),
                 "l"(&in[(ty * H + row) * TILES_X * W + tx * W]), "r"(bytes), "r"(smem(&mb[slot]))
                 : "memory");
}
__global__ void __launch_bounds__(THREADS) hand_bulk(const float *in, float4 *out) {
  extern __shared__ float4 ring[];
  __shared__ unsigned long long mb[STAGES];
  size_t first = blockIdx.x * COUNT;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; s++)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&mb[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    bulk_tile(in, ring, mb, 0, first);
    bulk_tile(in, ring, mb, 1, first + 1);
  }
  __syncthreads();
  for (size_t i = 0; i < COUNT; i++) {
    if (threadIdx.x == 0 && i + 2 < COUNT)
      bulk_tile(in, ring, mb, i + 2, first + i + 2);
    unsigned slot = i % STAGES, parity = (i / STAGES) & 1;
    asm volatile("{\n.reg .pred p;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W;\n}" ::"r"(
                     smem(&mb[slot])),
                 "r"(parity)
                 : "memory");
    store(out, ring, slot, first + i);
  }
}

template <typename F> static double best_ms(F launch) {
  launch(); // warm-up (and the JIT)
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t = timed_launches(launch, REPS);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2]; // median
}

static double tbps(double ms) { return 2.0 * BYTES / (ms * 1e-3) / 1e12; }

static bool same(const float *dev, const std::vector<float> &want) {
  std::vector<float> got(FLOATS);
  CHECK(cudaMemcpy(got.data(), dev, BYTES, cudaMemcpyDeviceToHost));
  return memcmp(got.data(), want.data(), BYTES) == 0;
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return nullptr;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = (char *)malloc(n + 1);
  s[fread(s, 1, n, f)] = 0;
  fclose(f);
  return s;
}

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  CHECK(cudaFree(0)); // the primary context, shared with the driver API below
  printf("device: %s; %zu x %zu floats (%.0f MiB), %u blocks of %d threads, %zu tiles of %dx%d each, "
         "%d stages; median of %u runs; bytes read + written\n",
         prop.name, TILES_X * W, TILES_Y * H, BYTES / 1048576.0, BLOCKS, THREADS, COUNT, W, H, STAGES, REPS);
  std::vector<float> host(FLOATS);
  for (size_t i = 0; i < FLOATS; i++)
    host[i] = (float)(i % 1000003);
  float *in, *out;
  CHECK(cudaMalloc(&in, BYTES));
  CHECK(cudaMalloc(&out, BYTES));
  CHECK(cudaMemcpy(in, host.data(), BYTES, cudaMemcpyHostToDevice));
  size_t shared = STAGES * W * H * sizeof(float);

  double memcpy_ms = best_ms([&] { CHECK(cudaMemcpy(out, in, BYTES, cudaMemcpyDeviceToDevice)); });
  printf("%-34s %8.3f ms %6.2f TB/s\n", "cudaMemcpy D2D", memcpy_ms, tbps(memcpy_ms));

  CHECK(cudaMemset(out, 0, BYTES));
  double hand_ms = best_ms([&] {
    hand_cp_async<<<BLOCKS, THREADS, shared>>>((const float4 *)in, (float4 *)out);
    CHECK(cudaGetLastError());
  });
  bool hand_ok = same(out, host);
  printf("%-34s %8.3f ms %6.2f TB/s  %s\n", "hand-written cp.async, 3 stages", hand_ms, tbps(hand_ms),
         hand_ok ? "correct" : "WRONG");

  CHECK(cudaMemset(out, 0, BYTES));
  double bulk_ms = best_ms([&] {
    hand_bulk<<<BLOCKS, THREADS, shared>>>(in, (float4 *)out);
    CHECK(cudaGetLastError());
  });
  bool bulk_ok = same(out, host);
  printf("%-34s %8.3f ms %6.2f TB/s  %s\n", "hand-written bulk copies, 3 stages", bulk_ms, tbps(bulk_ms),
         bulk_ok ? "correct" : "WRONG");

  int status = hand_ok && bulk_ok ? 0 : 1;
  for (int a = 1; a < argc; a++) {
    char *ptx = read_text(argv[a]);
    if (!ptx) {
      fprintf(stderr, "cannot read %s\n", argv[a]);
      return 1;
    }
    CUmodule mod;
    CUfunction f;
    CHECK_CU(cuModuleLoadData(&mod, ptx));
    free(ptx);
    CHECK_CU(cuModuleGetFunction(&f, mod, "tile_copy"));
    CUdeviceptr din = (CUdeviceptr)in, dout = (CUdeviceptr)out;
    unsigned long long tiles_x = TILES_X, count = COUNT, ring = 0; // ring: offset in dynamic shared memory
    void *params[] = {&din, &dout, &tiles_x, &count, &ring};
    CHECK(cudaMemset(out, 0, BYTES));
    double ms = best_ms([&] {
      CHECK_CU(cuLaunchKernel(f, BLOCKS, 1, 1, THREADS, 1, 1, (unsigned)shared, nullptr, params, nullptr));
    });
    bool ok = same(out, host);
    char label[256];
    const char *base = strrchr(argv[a], '/');
    snprintf(label, sizeof label, "gac %s", base ? base + 1 : argv[a]);
    printf("%-34s %8.3f ms %6.2f TB/s  %s  %.3fx cudaMemcpy  %.3fx hand cp.async  %.3fx hand bulk\n", label, ms,
           tbps(ms), ok ? "correct" : "WRONG", memcpy_ms / ms, hand_ms / ms, bulk_ms / ms);
    status |= ok ? 0 : 1;
    CHECK_CU(cuModuleUnload(mod));
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return status;
}
