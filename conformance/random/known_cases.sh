#!/usr/bin/env bash
# known_cases.sh BUILD_DIR [TARGETS...]: the random cases of known_cases.txt
# (those PoCL 3.1 once got wrong or crashed on), each generated again, built
# by gac for each PoCL target (default: cooperative leader auto lines late,
# and layer) and run on PoCL under its default work-group method and under
# `loops`. Prints one line per case, target and method, then the counts;
# exit status 1 if any failed or crashed. GAC_KNOWN_DIR: the work folder
# (default /tmp/gac-known-cases).
set -uo pipefail
build=$(cd "$1" && pwd)
shift
targets=${*:-cooperative leader auto lines late layer}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(realpath -m "${GAC_KNOWN_DIR:-/tmp/gac-known-cases}")
mkdir -p "$dir"
cd "$dir" || exit 2 # PoCL writes its CFG dumps (broken.dot) where it runs
gen=$build/conformance/random/gac-random-gen run=$build/conformance/random/gac-random-cl
pass=0 fail=0
while read -r seed index opts; do
  case $seed in '#'* | '') continue ;; esac
  # shellcheck disable=SC2086 # the options are words
  "$gen" $opts "$seed" "$index" 1 "$dir/$seed-$index.cl" || exit 2
  for target in $targets; do
    if [ "$target" != layer ] &&
      ! "$here/build_batch.sh" "$build/tools" "$dir/$seed-$index.cl" "$target" "$dir/$seed-$index.$target" > "$dir/$seed-$index.$target.build.log" 2>&1; then
      echo "BUILD-FAIL $seed/$index $target (see $dir/$seed-$index.$target.build.log)"
      fail=$((fail + 2))
      continue
    fi
    for method in default loops; do
      log=$dir/$seed-$index.$target.$method.log
      (
        export POCL_CACHE_DIR=$dir/pocl-cache-$target-$method
        [ "$method" = loops ] && export POCL_WORK_GROUP_METHOD=loops
        if [ "$target" = layer ]; then
          OPENCL_LAYERS=$build/icd/libgac-layer.so GAC_LAYER_CACHE_DIR=off \
            timeout 600 "$run" "$dir/$seed-$index.cl" --source --target layer
        else
          timeout 600 "$run" "$dir/$seed-$index.cl" --bc "$dir/$seed-$index.$target.bc" --target "$target"
        fi
      ) > "$log" 2>&1
      rc=$?
      if [ $rc -eq 0 ]; then
        pass=$((pass + 1))
        echo "PASS $seed/$index $target $method"
      else
        fail=$((fail + 1))
        [ $rc -gt 128 ] && what=CRASH || what=FAIL
        echo "$what $seed/$index $target $method (exit $rc; $log)"
      fi
    done
  done
done < "$here/known_cases.txt"
echo "known cases: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
