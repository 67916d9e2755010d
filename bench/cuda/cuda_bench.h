// What the CUDA benchmarks (bench.cu, compute.cu) share: error checks (a
// failed runtime or driver call prints where and why, and ends the
// program) and launches timed with CUDA events.
#ifndef GAC_BENCH_CUDA_BENCH_H
#define GAC_BENCH_CUDA_BENCH_H

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

#define CHECK(x)                                                                                  \
  do {                                                                                            \
    cudaError_t e_ = (x);                                                                         \
    if (e_ != cudaSuccess) {                                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                 \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)
#define CHECK_CU(x)                                                                               \
  do {                                                                                            \
    CUresult r_ = (x);                                                                            \
    if (r_ != CUDA_SUCCESS) {                                                                     \
      const char *s_ = "";                                                                        \
      cuGetErrorName(r_, &s_);                                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, s_);                                     \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)

// Each of `reps` launches timed on its own, in milliseconds.
template <typename F> static std::vector<float> timed_launches(F launch, unsigned reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> t;
  for (unsigned r = 0; r < reps; r++) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return t;
}

#endif
