#!/usr/bin/env bash
# smoke.sh BUILD_DIR WORK_DIR LAYER_SO [--mutate]: the CTest smoke run.
# One fixed-seed batch of GAC_RANDOM_SMOKE_CASES (default 5) random
# kernels, built and run on PoCL with every OpenCL lowering strategy and,
# if LAYER_SO is given, from source through the gac layer. The strategies'
# runs, one after another, share a PoCL cache (auto's kernels are leader's on
# PoCL's CPU device), and the layer's run after them (it lowers as auto):
# WORK_DIR/pocl, or GAC_RANDOM_POCL_CACHE where set.
# Fails if any case fails, a batch does not build, or strategy=late reports
# an access in flight ("gac late: ").
# --mutate: the runners use a model wrong in one byte per case; passes only
# if every case of every run is reported as failed (the comparison works).
set -uo pipefail
build=$1 work=$2 layer=$3
mutate=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
cases=${GAC_RANDOM_SMOKE_CASES:-5}
seed=20250101
rm -rf "$work" && mkdir -p "$work"
cache=${GAC_RANDOM_POCL_CACHE:-$work/pocl}
"$build/conformance/random/gac-random-gen" "$seed" 0 "$cases" "$work/smoke.cl" || exit 1
run=$build/conformance/random/gac-random-cl
# GAC_RANDOM_CL_PLAIN: the runner for PoCL alone (built without sanitizers in
# a sanitized tree); the layer's run keeps $run, as sanitized as the layer.
run_plain=${GAC_RANDOM_CL_PLAIN:-$run}
status=0
check() { # name, log: judge one run
  local name=$1 log=$2 line
  line=$(grep "^random " "$log" | tail -n 1)
  if [ -n "$mutate" ]; then
    if grep -q "^random .*: $cases cases, 0 passed, $cases failed" "$log"; then
      echo "ok   $name: every mutant caught ($line)"
    else
      echo "FAIL $name: a mutant was not caught"; cat "$log"; status=1
    fi
  elif [ -z "$line" ] || ! grep -q " 0 failed$" <<<"$line" || grep -q "gac late: " "$log"; then
    echo "FAIL $name:"; cat "$log"; status=1
  else
    echo "ok   $name: $line"
  fi
}
strategies="lines cooperative serial late leader auto"
[ -n "$mutate" ] && strategies=cooperative
for s in $strategies; do
  if ! "$here/build_batch.sh" "$build/tools" "$work/smoke.cl" "$s" "$work/smoke.$s" > "$work/build.$s.log" 2>&1; then
    echo "FAIL $s: gac did not build the batch"; cat "$work/build.$s.log"; status=1; continue
  fi
  POCL_CACHE_DIR=$cache "$run_plain" "$work/smoke.cl" --bc "$work/smoke.$s.bc" --target "$s" $mutate \
    > "$work/run.$s.log" 2>&1
  check "$s" "$work/run.$s.log"
done
if [ -n "$layer" ]; then
  OPENCL_LAYERS=$layer GAC_LAYER_STRATEGY=auto GAC_LAYER_CACHE_DIR=$work/layer-cache POCL_CACHE_DIR=$cache \
    "$run" "$work/smoke.cl" --source --target layer $mutate > "$work/run.layer.log" 2>&1
  check layer "$work/run.layer.log"
fi
exit $status
