#!/usr/bin/env bash
# run_pocl.sh STAGE OUT: on a machine with a PoCL of its own (Ubuntu's
# PoCL 5.0 on the GPU machine) and none of gac's packages, gac's OpenCL
# output run on that PoCL's CPU device (stage_pocl.sh made STAGE; the
# runners are compiled here with gcc against the system's ICD loader):
#   - the conformance suite, each strategy, from the lowered SPIR-V where the
#     device takes SPIR-V (else the bitcode), under PoCL's default
#     work-group method and under `loops`;
#   - the same through the gac layer (raised SPIR-V, clCreateProgramWithIL);
#   - sgemm_fast through the layer (gac-sgemm-il);
#   - STAGE/random's batches, each target and method, on every core; each
#     batch's result, failures and crashes are appended to
#     OUT/random-progress.txt as it ends (a run cut short keeps them).
# GAC_POCL_SUITE=0 leaves the suite and sgemm out (the random batches only).
# Only PoCL is registered (an OCL_ICD_VENDORS folder of its .icd). Results
# and logs go to OUT; exits 1 if anything failed.
set -uo pipefail
stage=$(realpath "$1") out=$(realpath -m "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
vendors=$out/vendors
mkdir -p "$vendors"
icd=$(cat /etc/OpenCL/vendors/pocl.icd 2> /dev/null || true)
[ -n "$icd" ] || { echo "run_pocl.sh: no /etc/OpenCL/vendors/pocl.icd" >&2; exit 1; }
echo "$icd" > "$vendors/pocl.icd"
export OCL_ICD_VENDORS=$vendors
# The staged llvm-spirv-15 for the layer, its libraries for it alone.
if [ -x "$stage/tools/bin/llvm-spirv-15" ]; then
  mkdir -p "$out/wrap"
  printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$stage/tools/lib" "$stage/tools/bin/llvm-spirv-15" > "$out/wrap/llvm-spirv-15"
  chmod +x "$out/wrap/llvm-spirv-15"
  export PATH=$out/wrap:$PATH
fi
status=0
# The system ICD loader (ocl-icd, which takes layers), not a CUDA libOpenCL.so.1
# the linker cache may list first (which takes none).
cc() { gcc -std=c17 -O2 -w -I"$root/support" -I"$root/conformance" -I"${CUDA_HOME:-/usr/local/cuda}/include" "$@" \
  -L/usr/lib/x86_64-linux-gnu -Wl,-rpath,/usr/lib/x86_64-linux-gnu -l:libOpenCL.so.1 -lm; }
cc "$root"/conformance/{runner,suite,cl_device}.c "$root/support/subprocess.c" -o "$out/gac-conformance" || exit 1
cc "$root/bench/pocl/sgemm_il.c" "$root/conformance/cl_device.c" "$root/support/subprocess.c" -o "$out/gac-sgemm-il" || exit 1
r=$root/conformance/random
cc -I"$r" "$r"/{runner_cl,gen,emit,model,driver}.c -o "$out/gac-random-cl" || exit 1

# method NAME, then a command: run under PoCL's default method or `loops`,
# each with its own cache.
in_method() {
  local m=$1
  shift
  if [ "$m" = loops ]; then
    POCL_WORK_GROUP_METHOD=loops POCL_CACHE_DIR=$out/cache-$m-$RANDOM "$@"
  else
    env -u POCL_WORK_GROUP_METHOD POCL_CACHE_DIR=$out/cache-$m-$RANDOM "$@"
  fi
}
# The suites side by side (one core each), then their summaries.
[ "${GAC_POCL_SUITE:-1}" = 0 ] || for m in default loops; do
  for s in cooperative leader auto lines late; do
    in_method $m timeout 420 "$out/gac-conformance" "$stage/kernels" $s > "$out/conformance-$s-$m.txt" 2>&1 &
  done
  # Through the layer: its default strategy, and lines (the driver's own
  # copies and waits: events=generic on PoCL 5 and later).
  OPENCL_LAYERS=$stage/lib/libgac-layer.so GAC_LAYER_CACHE_DIR=off \
    in_method $m timeout 420 "$out/gac-conformance" "$stage/kernels" cooperative --il > "$out/conformance-layer-$m.txt" 2>&1 &
  OPENCL_LAYERS=$stage/lib/libgac-layer.so GAC_LAYER_CACHE_DIR=off GAC_LAYER_STRATEGY=lines \
    in_method $m timeout 420 "$out/gac-conformance" "$stage/kernels" lines --il > "$out/conformance-layer-lines-$m.txt" 2>&1 &
  OPENCL_LAYERS=$stage/lib/libgac-layer.so GAC_LAYER_CACHE_DIR=off \
    in_method $m timeout 420 "$out/gac-sgemm-il" "$stage/sgemm/sgemm_fast.raised.spv" 256 > "$out/sgemm-layer-$m.txt" 2>&1 &
done
wait
[ "${GAC_POCL_SUITE:-1}" = 0 ] || for m in default loops; do
  for s in cooperative leader auto lines late layer layer-lines; do
    log=$out/conformance-$s-$m.txt
    grep -qE '^[0-9]+ passed, 0 failed' "$log" || status=1
    echo "conformance $s ($m): $(grep -E '^device|^[0-9]+ passed' "$log" | tr '\n' ' ' || true)$(grep -qE '^[0-9]+ passed' "$log" || tail -n 3 "$log" | tr '\n' ' ')"
  done
  log=$out/sgemm-layer-$m.txt
  grep -q '^PASS' "$log" || status=1
  echo "sgemm_fast through the layer ($m): $(tr '\n' ' ' < "$log" | tail -c 600)"
done
if ls "$stage"/random/*.bc > /dev/null 2>&1; then
  for bc in "$stage"/random/*.bc; do
    base=${bc%.bc} t=${base##*.} b=${base%.*}
    for m in default loops; do echo "$b.cl $bc $t $m"; done
  done | xargs -P "$(nproc)" -n 4 sh -c '
    out=$0 cl=$1 bc=$2 t=$3 m=$4 log=$0/random-$(basename "$1" .cl).$3.$4.log
    if [ "$m" = loops ]; then export POCL_WORK_GROUP_METHOD=loops; fi
    POCL_CACHE_DIR=$out/cache-random-$(basename "$1" .cl)-$t-$m timeout 400 "$out/gac-random-cl" "$cl" --bc "$bc" --target "$t" --quiet > "$log" 2>&1
    rc=$?
    # Each batch as it ends, into one file: a run cut short keeps what ran.
    { grep "^FAIL" "$log"; grep "^random .* cases" "$log" | sed "s/\$/ ($m)/"
      [ $rc -gt 128 ] && echo "CRASH $cl $t $m (exit $rc)"; [ $rc -eq 124 ] && echo "TIMEOUT $cl $t $m"; } |
      tee -a "$out/random-progress.txt" | grep "^CRASH\|^TIMEOUT"
    exit 0' "$out"
  for t in cooperative leader auto lines late; do
    for m in default loops; do
      cat "$out"/random-*."$t.$m.log" 2> /dev/null | awk -v t="$t" -v m="$m" '
        /^random .* cases/ { n += $4; p += $6; f += $8 } /^FAIL/ { print }
        END { printf "random %s (%s): %d cases, %d passed, %d failed\n", t, m, n, p, f }'
    done
  done | tee "$out/random-summary.txt"
  grep -q "^FAIL\|[1-9][0-9]* failed" "$out/random-summary.txt" && status=1
fi
rm -rf "$out"/cache-*
exit $status
