#!/usr/bin/env bash
# device_run.sh PTX_DIR OUT_DIR: on a machine with an NVIDIA GPU and the
# CUDA toolkit (no gac build needed): builds the CUDA conformance runner and
# the benchmarks, runs the conformance suite from the sm_80 and the sm_90
# PTX, the random differential tester's smoke run, the tile-copy benchmark, the compute benchmark (SGEMM and stencil
# against hand-written CUDA and cuBLAS) and its profile step; results go to
# OUT_DIR. The PTX comes from `ninja ptx-device-bundle` (build/device).
# GAC_DEVICE_ONLY=compute: only the compute benchmark and its profile.
set -uo pipefail
ptx=$1 out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
only=${GAC_DEVICE_ONLY:-}
mkdir -p "$out"
status=0
if [ "$only" != compute ]; then
  gcc -std=c17 -O2 -Wall -Wextra -I"$cuda/include" -I"$root/support" "$root/conformance/gpu/runner.c" \
    "$root/conformance/suite.c" "$root/support/subprocess.c" \
    -L"$cuda/lib64/stubs" -lcuda -o "$out/gac-conformance-cuda" || exit 1
  "$cuda/bin/nvcc" -O3 -arch=sm_90 "$root/bench/cuda/bench.cu" -lcuda -o "$out/gac-bench-cuda" || exit 1
  for sm in 80 90 90ws; do
    timeout 120 "$out/gac-conformance-cuda" "$ptx" $sm > "$out/conformance-sm$sm.txt" 2>&1 || status=1
    # The summary, which the runner follows with a footnote; all of the end if there is none.
    grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/conformance-sm$sm.txt" | sed "s/^/sm_$sm: /" ||
      tail -n 5 "$out/conformance-sm$sm.txt"
  done
  # The OpenCL C library of the PTX path: every math function against the
  # OpenCL ULP bounds (conformance/math), as built and with fast math.
  gcc -std=c17 -O2 -Wall -Wextra -I"$cuda/include" -I"$root/support" "$root/conformance/math/math_cuda.c" \
    "$root/conformance/math/math_suite.c" "$root/support/subprocess.c" -L"$cuda/lib64/stubs" -lcuda -lm -o "$out/gac-math-cuda" || exit 1
  # libclc 19's rootn(FLT_MIN, 1) is 0 on NVPTX (docs/PTX.md): known.
  timeout 120 "$out/gac-math-cuda" "$ptx"/math.sm80.ptx --known=f_rootn > "$out/math.txt" 2>&1 || status=1
  timeout 120 "$out/gac-math-cuda" "$ptx"/math-fast.sm80.ptx --fast > "$out/math-fast.txt" 2>&1 || status=1
  tail -n 1 "$out/math.txt" "$out/math-fast.txt"
  rm -f "$out/gac-math-cuda"
  # The random differential tester's fixed-seed smoke run (conformance/random).
  if [ -d "$ptx/random" ]; then
    timeout 300 bash "$ptx/random/device.sh" > "$out/random.txt" 2>&1 || status=1
    tail -n 5 "$out/random.txt"
  fi
  timeout 120 "$out/gac-bench-cuda" "$ptx"/tile_copy.sm80.ptx "$ptx"/tile_copy.sm90.ptx > "$out/bench.txt" 2>&1 || status=1
  cat "$out/bench.txt"
  rm -f "$out/gac-conformance-cuda" "$out/gac-bench-cuda"
fi
"$cuda/bin/nvcc" -O3 -arch=sm_90 "$root/bench/cuda/compute.cu" -lcuda -lcublas -o "$out/gac-bench-compute" || exit 1
timeout 300 "$out/gac-bench-compute" "$ptx" > "$out/compute.txt" 2>&1 || status=1
cat "$out/compute.txt"
echo
timeout 240 "$root/bench/cuda/profile.sh" "$ptx" "$out/gac-bench-compute" "$out/profile" > "$out/profile.txt" 2>&1 ||
  status=1
cat "$out/profile.txt"
rm -f "$out/gac-bench-compute"
exit $status
