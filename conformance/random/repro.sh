#!/usr/bin/env bash
# repro.sh BUILD_DIR TARGET SEED INDEX [gac-random-gen options]: one case
# again, alone in its batch, in $GAC_RANDOM_REPRO (default
# /tmp/gac-random-repro-SEED-INDEX): case.cl (with its arguments' values
# at the end), the modules gac made, and the run on PoCL for a PoCL target
# (a strategy or `layer`). For sm80/sm90/sm90ws it builds the PTX and says
# how to run it on the GPU machine; for check/gfx* the build is the test.
set -uo pipefail
build=$(cd "$1" && pwd) target=$2 seed=$3 index=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
dir=${GAC_RANDOM_REPRO:-/tmp/gac-random-repro-$seed-$index}
mkdir -p "$dir"
gen=$build/conformance/random/gac-random-gen
"$gen" "$@" "$seed" "$index" 1 "$dir/case.cl" || exit 1
"$gen" "$@" --print "$seed" "$index" | tail -n 1 >> "$dir/case.cl"
rm -f "$dir/case.raised.spv"
export POCL_CACHE_DIR=$dir/pocl-cache POCL_WORK_GROUP_METHOD=loops
run=$build/conformance/random/gac-random-cl
echo "case: $dir/case.cl"
case $target in
layer*)
  strategy=${target#layer}; strategy=${strategy#-}
  OPENCL_LAYERS=$build/icd/libgac-layer.so GAC_LAYER_STRATEGY=${strategy:-auto} GAC_LAYER_CACHE_DIR=off \
    "$run" "$dir/case.cl" --source --target "$target"
  ;;
sm*)
  "$here/build_batch.sh" "$build/tools" "$dir/case.cl" "$target" "$dir/case.$target" || exit 1
  echo "PTX: $dir/case.$target.ptx; on the GPU machine: gac-random-cuda case.cl case.$target.ptx --target $target"
  ;;
*)
  "$here/build_batch.sh" "$build/tools" "$dir/case.cl" "$target" "$dir/case.$target" || exit 1
  case $target in check | gfx*) echo "built and checked: ok"; exit 0 ;; esac
  "$run" "$dir/case.cl" --bc "$dir/case.$target.bc" --target "$target"
  ;;
esac
