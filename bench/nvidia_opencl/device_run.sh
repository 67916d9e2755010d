#!/usr/bin/env bash
# device_run.sh PTX_DIR OUT_DIR: on the GPU machine (NVIDIA's driver and the
# CUDA toolkit, no gac build; the layout of bench/cuda/stage_device.sh): the
# ABI probe (probe.sh: NVIDIA's own PTX for ptx_abi_probe.cl, and gac's build
# of it checked against NVIDIA's), the conformance suite and the math suite
# and the corpus through NVIDIA's OpenCL from gac's PTX (conformance/runner.c
# --ptx, math_opencl.c with GAC_MATH_PTX, gac-corpus run nvcl), and the
# vendor benchmark (vendor_bench.c, vendor_corpus.c),
# over the PTX of `ninja ptx-device-bundle` (PTX_DIR: *.nvcl.ptx).
# Results go to OUT_DIR.
set -uo pipefail
ptx=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
. "$here/nvidia_opencl.sh" || exit 1
mkdir -p "$out"
status=0
bash "$here/probes/probe.sh" "$out/probe" "$ptx"/vendor-probe.sm80.nvcl.ptx "$ptx"/vendor-probe.sm90.nvcl.ptx \
  > "$out/probe.txt" 2>&1 || status=1
grep -E "^(PASS|FAIL|ABI check)" "$out/probe.txt"
# The conformance and math suites through NVIDIA's OpenCL, from gac's PTX.
conf=$here/../../conformance
gcc -std=c17 -O2 -Wall $NVCL_CFLAGS -I"$here/../../support" "$conf/runner.c" "$conf/suite.c" "$conf/cl_device.c" \
  "$here/../../support/subprocess.c" -o "$out/gac-conformance-nvcl" $NVCL_LIBS || exit 1
for sm in 80 90; do
  timeout 120 "$out/gac-conformance-nvcl" "$ptx" sm$sm --ptx > "$out/conformance-nvcl-sm$sm.txt" 2>&1 || status=1
  grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/conformance-nvcl-sm$sm.txt" | sed "s/^/NVIDIA OpenCL, sm_$sm PTX: /" ||
    tail -n 5 "$out/conformance-nvcl-sm$sm.txt"
done
gcc -std=c17 -O2 -Wall $NVCL_CFLAGS -I"$here/../../support" "$conf/math/math_opencl.c" "$conf/math/math_suite.c" \
  "$conf/cl_device.c" "$here/../../support/subprocess.c" -o "$out/gac-math-nvcl" $NVCL_LIBS -lm || exit 1
# libclc 19's rootn(FLT_MIN, 1) is 0 on NVPTX (docs/PTX.md): known, as on the CUDA path.
GAC_MATH_PTX="$ptx/math.sm80.nvcl.ptx" timeout 120 "$out/gac-math-nvcl" "$conf/math" --known=f_rootn \
  > "$out/math-nvcl.txt" 2>&1 || status=1
GAC_MATH_PTX="$ptx/math-fast.sm80.nvcl.ptx" timeout 120 "$out/gac-math-nvcl" "$conf/math" --fast \
  > "$out/math-fast-nvcl.txt" 2>&1 || status=1
tail -n 1 "$out/math-nvcl.txt" "$out/math-fast-nvcl.txt"
# The corpus (every entry, plain and async variants) from its sm_80 PTX.
gcc -std=c17 -O2 -Wall $NVCL_CFLAGS -I"$here/../../support" "$conf/corpus/runner.c" "$conf/corpus/corpus.c" \
  "$conf/corpus/values.c" "$conf/corpus/compare.c" "$conf"/corpus/specs_*.c "$conf/cl_device.c" \
  "$here/../../support/subprocess.c" -o "$out/gac-corpus-nvcl" $NVCL_LIBS -lm || exit 1
timeout 300 "$out/gac-corpus-nvcl" run nvcl "$ptx/corpus" "$ptx/corpus" > "$out/corpus-nvcl.txt" 2>&1 || status=1
tail -n 1 "$out/corpus-nvcl.txt" | sed "s/^/corpus, NVIDIA OpenCL, sm_80 PTX: /"
rm -f "$out/gac-conformance-nvcl" "$out/gac-math-nvcl" "$out/gac-corpus-nvcl"
# The kernels' sources beside the header NVIDIA's builds put in front of them.
src=$(mktemp -d)
cp "$here/vendor_copies.h" "$here"/../cuda/{sgemm,sgemm_fast,stencil,xgemm,xgemm_2d}.cl "$src/"
mkdir -p "$src/corpus" && cp "$conf"/corpus/kernels/*.cl "$src/corpus/"
gcc -std=c17 -O2 -Wall $NVCL_CFLAGS -I"$cuda/include" "$here/vendor_bench.c" "$here/vendor_corpus.c" "$here/nvcl.c" \
  -o "$out/vendor-bench" \
  $NVCL_LIBS -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lcublas -lcudart -lm || exit 1
timeout 400 "$out/vendor-bench" "$src" "$ptx" > "$out/vendor.txt" 2>&1 || status=1
cat "$out/vendor.txt"
rm -rf "$src" "$out/vendor-bench"
exit $status
