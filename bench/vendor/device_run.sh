#!/usr/bin/env bash
# device_run.sh PTX_DIR OUT_DIR: on the GPU machine (NVIDIA's driver and the
# CUDA toolkit, no gac build): the ABI probe (probe.sh: NVIDIA's own PTX for
# ptx_abi_probe.cl, and gac's build of it checked against NVIDIA's) and the
# vendor benchmark (vendor_bench.c) over the PTX of `ninja
# ptx-device-bundle` (PTX_DIR: *.nvcl.ptx, vendor-probe.sm{80,90}.nvcl.ptx).
# Results go to OUT_DIR.
set -uo pipefail
ptx=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
. "$here/nvidia_opencl.sh" || exit 1
mkdir -p "$out"
status=0
bash "$here/probe.sh" "$out/probe" "$ptx"/vendor-probe.sm80.nvcl.ptx "$ptx"/vendor-probe.sm90.nvcl.ptx \
  > "$out/probe.txt" 2>&1 || status=1
grep -E "^(PASS|FAIL|ABI check)" "$out/probe.txt"
# The kernels' sources beside the header NVIDIA's builds put in front of them.
src=$(mktemp -d)
cp "$here/vendor_copies.h" "$here"/../cuda/{sgemm,sgemm_fast,stencil}.cl "$src/"
gcc -std=c17 -O2 -Wall $NVCL_CFLAGS -I"$cuda/include" "$here/vendor_bench.c" "$here/nvcl.c" -o "$out/vendor-bench" \
  $NVCL_LIBS -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lcublas -lcudart -lm || exit 1
timeout 400 "$out/vendor-bench" "$src" "$ptx" > "$out/vendor.txt" 2>&1 || status=1
cat "$out/vendor.txt"
rm -rf "$src" "$out/vendor-bench"
exit $status
