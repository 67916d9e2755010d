#!/usr/bin/env bash
# The Khronos OpenCL CTS through the gac layer (docs/CTS.md): its async copy
# subtests, and whole suites on the driver alone against the layer.
#
#   scripts/cts.sh build CTS_CHECKOUT HEADERS_CHECKOUT [TARGET...]
#       configures KhronosGroup/OpenCL-CTS against the Khronos headers and the
#       system ICD loader, and builds the targets (default test_basic) in
#       $GAC_CTS_BUILD.
#   scripts/cts.sh run [LIMITS...]
#       runs each subtest through the layer once per LIMITS, LOCAL[/WG]:
#       GAC_LAYER_LOCAL_MEM_SIZE=LOCAL and GAC_LAYER_MAX_WORK_GROUP_SIZE=WG
#       (default 32768 65536; "pocl" = PoCL's own limits), and the 1D
#       subtests on PoCL alone too, and prints per subtest: configurations,
#       run, skipped, passed, failed, wall time.
#   scripts/cts.sh suite SUITE...
#       runs every subtest of each CTS suite (basic, compiler, api,
#       spirv_new, ...: test_conformance/SUITE/test_SUITE) twice at once, on
#       the driver alone and through the layer, each under a time limit, and
#       prints per subtest pass, fail, skip, timeout or crash for each, then
#       per suite the counts and the subtests that pass alone but not through
#       the layer (the exit status is 1 if there is one). Needs only the
#       CTS's binaries and the layer: GAC_CTS_BUILD and GAC_LAYER.
#
# Environment: GAC_CTS_BUILD (default build-cts), GAC_SPIRV_HEADERS (build: a
# KhronosGroup/SPIRV-Headers checkout, default Debian's), GAC_BUILD (the gac build,
# default build), GAC_CTS_TESTS (subtests, default all async copy subtests),
# GAC_CTS_MAX_MEM_ALLOC_SIZE (the layer's GAC_LAYER_MAX_MEM_ALLOC_SIZE, default
# 1 GiB), GAC_CTS_COMPILATION=spir-v (every kernel compiled offline by
# scripts/cts-offline-compiler.sh, gac-cc --raw, and created with
# clCreateProgramWithIL, the CTS's own spir-v mode; GAC_CC names gac-cc,
# default $GAC_BUILD/tools/gac-cc). suite: GAC_LAYER (the layer, default
# $GAC_BUILD/icd/libgac-layer.so), GAC_CTS_TIMEOUT (seconds per subtest and
# configuration, default 600), GAC_CTS_LOGS (default $GAC_CTS_BUILD/logs),
# GAC_CTS_TESTS (subtests, default all the suite lists), and
# POCL_WORK_GROUP_METHOD (default loops) for both configurations.
# CI does not run this: it needs the CTS, which CI cannot fetch.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cts_build=$(realpath -m "${GAC_CTS_BUILD:-$root/build-cts}")
gac_build=$(realpath -m "${GAC_BUILD:-$root/build}")

build() {
  local cts=$1 headers=$2
  shift 2
  local targets=("${@:-test_basic}")
  # SPIRV_INCLUDE_DIR is a SPIRV-Headers root (include/spirv/unified1, its
  # grammar for test_api): GAC_SPIRV_HEADERS (test_api needs newer ones than
  # Debian 12's) or Debian's, through a root of their own so that
  # /usr/include is not made a -isystem directory ahead of libstdc++'s.
  mkdir -p "$cts_build/spirv-headers/include"
  ln -sfn "$(realpath "${GAC_SPIRV_HEADERS:-/usr}")/include/spirv" "$cts_build/spirv-headers/include/spirv"
  cmake -S "$cts" -B "$cts_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCL_INCLUDE_DIR="$(realpath "$headers")" -DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu \
    -DSPIRV_INCLUDE_DIR="$cts_build/spirv-headers" -DOPENCL_LIBRARIES=OpenCL
  cmake --build "$cts_build" --target "${targets[@]}"
}

# One line per configuration of a log: "skipped", "failed" or "passed". A
# configuration starts at "Testing ..."; the CTS goes on after a failed one.
classify() {
  awk '
    function flush() { if (open) print state; open = 0 }
    /^Testing / { flush(); open = 1; state = "passed"; next }
    open && /Skipping due to resource/ { state = "skipped" }
    open && state == "passed" && /ERROR|[Ff]ailed|FAILED|did not validate|corrupted/ { state = "failed" }
    END { flush() }' "$1"
}

run_one() { # through limit test
  local through=$1 limit=$2 test=$3
  local dir="$cts_build/logs/$through-${limit//\//-}${GAC_CTS_COMPILATION:+-$GAC_CTS_COMPILATION}" log
  mkdir -p "$dir"
  log="$dir/$test.log"
  local env=(POCL_CACHE_DIR="$dir/pocl-cache-$test" POCL_WORK_GROUP_METHOD=loops
             GAC_LAYER_CACHE_DIR="$dir/gac-cache-$test")
  rm -rf "$dir/pocl-cache-$test" "$dir/gac-cache-$test"
  # GAC_CTS_EXTRA_LAYERS_BEFORE/_AFTER (colon-separated): other layers listed
  # before and after gac's in OPENCL_LAYERS, alone on the driver-alone runs
  # (the last listed is nearest the application: scripts/stack-layers.sh).
  local before=${GAC_CTS_EXTRA_LAYERS_BEFORE:-} after=${GAC_CTS_EXTRA_LAYERS_AFTER:-}
  if [ "$through" = layer ]; then
    # 1 GiB buffers at most: the CTS's checks index them with int (docs/CTS.md).
    env+=(OPENCL_LAYERS="${before:+$before:}$gac_build/icd/libgac-layer.so${after:+:$after}"
          GAC_LAYER_MAX_MEM_ALLOC_SIZE="${GAC_CTS_MAX_MEM_ALLOC_SIZE:-1073741824}")
    [ "$limit" = pocl ] || env+=(GAC_LAYER_LOCAL_MEM_SIZE="${limit%%/*}")
    [[ "$limit" != */* ]] || env+=(GAC_LAYER_MAX_WORK_GROUP_SIZE="${limit#*/}")
  elif [ -n "$before$after" ]; then
    env+=(OPENCL_LAYERS="$before${before:+${after:+:}}$after")
  fi
  local offline=()
  if [ "${GAC_CTS_COMPILATION:-online}" = spir-v ]; then
    rm -rf "$dir/spirv-$test" && mkdir -p "$dir/spirv-$test"
    env+=(GAC_CC="${GAC_CC:-$gac_build/tools/gac-cc}")
    offline=(--compilation-mode spir-v --compilation-cache-mode overwrite --compilation-cache-path "$dir/spirv-$test"
             --compilation-program "$root/scripts/cts-offline-compiler.sh")
  fi
  local start end rc=0
  start=$(date +%s.%N)
  (cd "$cts_build/test_conformance/basic" && env "${env[@]}" ./test_basic "${offline[@]}" "$test") > "$log" 2>&1 || rc=$?
  end=$(date +%s.%N)
  local states total skipped passed failed verdict
  states=$(classify "$log")
  total=$(grep -c . <<< "$states" || true)
  skipped=$(grep -c '^skipped' <<< "$states" || true)
  passed=$(grep -c '^passed' <<< "$states" || true)
  failed=$(grep -c '^failed' <<< "$states" || true)
  if [ $rc -ne 0 ]; then verdict="FAIL (exit $rc)"
  elif grep -q "PASSED sub-test" "$log"; then verdict=PASS
  else verdict="FAIL (no PASSED line)"; fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %.0f s | %s |\n' "$test" "$through${GAC_CTS_COMPILATION:+, $GAC_CTS_COMPILATION}" "$limit" \
    "$total" "$((total - skipped))" "$skipped" "$passed" "$failed" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$verdict"
  [ "$verdict" = PASS ]
}

run() {
  local limits=("$@") status=0
  [ ${#limits[@]} -gt 0 ] || limits=(32768 65536)
  local extended=(async_copy_global_to_local2D async_copy_local_to_global2D
                  async_copy_global_to_local3D async_copy_local_to_global3D)
  local core=(async_copy_global_to_local async_copy_local_to_global
              async_strided_copy_global_to_local async_strided_copy_local_to_global)
  # cl_khr_async_work_group_copy_fence (1D copies with a fence between).
  local fence=(async_work_group_copy_fence_import_after_export_aliased_local
               async_work_group_copy_fence_import_after_export_aliased_global
               async_work_group_copy_fence_import_after_export_aliased_global_and_local
               async_work_group_copy_fence_export_after_import_aliased_local
               async_work_group_copy_fence_export_after_import_aliased_global
               async_work_group_copy_fence_export_after_import_aliased_global_and_local)
  local tests=(${GAC_CTS_TESTS:-${extended[*]} ${core[*]} ${fence[*]}})
  [ -x "$cts_build/test_conformance/basic/test_basic" ] || { echo "cts.sh: build test_basic first (cts.sh build ...)" >&2; exit 1; }
  echo "| subtest | through | local memory[/work-group] | configurations | run | skipped | passed | failed | wall | result |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|"
  for limit in "${limits[@]}"; do
    for t in "${tests[@]}"; do run_one layer "$limit" "$t" || status=1; done
  done
  # The 1D subtests on PoCL alone: the layer must not change their outcome
  # (online compilation only: PoCL alone takes no SPIR-V; GAC_CTS_ALONE=no
  # leaves them out).
  [ "${GAC_CTS_COMPILATION:-online}" = online ] && [ "${GAC_CTS_ALONE:-yes}" != no ] || return $status
  for t in "${tests[@]}"; do
    case " ${core[*]} " in *" $t "*) run_one pocl pocl "$t" || status=1 ;; esac
  done
  return $status
}

# ---- suite: whole suites, the driver alone against the layer ----

# A subtest's outcome from its exit status and the CTS's results file
# (CL_CONFORMANCE_RESULTS_FILENAME: "name": "pass" | "fail" | "skip").
# A KILL after the limit (timeout -k) is a timeout too; one before it is not.
outcome() { # rc json test wall
  local rc=$1 json=$2 test=$3 wall=$4 r=""
  [ -f "$json" ] && r=$(sed -n "s/^[[:space:]]*\"$test\": \"\([a-z]*\)\".*/\1/p" "$json")
  if [ "$rc" -eq 124 ] || { [ "$rc" -eq 137 ] && [ "$wall" -ge "$cts_timeout" ]; }; then echo timeout
  elif [ -n "$r" ] && [ "$rc" -le 128 ]; then echo "$r"
  elif [ "$rc" -gt 128 ]; then echo "crash(signal $((rc - 128)))"
  else echo "fail(exit $rc)"; fi
}

suite_run() { # through suite dir bin test -> outcome and wall seconds
  local through=$1 suite=$2 dir=$3 bin=$4 test=$5
  local logs="$cts_logs/suite-$suite/$through"
  mkdir -p "$logs"
  rm -rf "$logs/pocl-cache-$test" "$logs/gac-cache-$test" "$logs/$test.json"
  local env=(POCL_CACHE_DIR="$logs/pocl-cache-$test" GAC_LAYER_CACHE_DIR="$logs/gac-cache-$test"
             POCL_WORK_GROUP_METHOD="${POCL_WORK_GROUP_METHOD:-loops}"
             CL_CONFORMANCE_RESULTS_FILENAME="$logs/$test.json")
  [ "$through" = alone ] || env+=(OPENCL_LAYERS="$layer")
  local start end rc=0
  start=$(date +%s)
  (cd "$dir" && exec env "${env[@]}" timeout -k 10 "$cts_timeout" "./$bin" "$test") > "$logs/$test.log" 2>&1 || rc=$?
  end=$(date +%s)
  rm -rf "$logs/pocl-cache-$test" "$logs/gac-cache-$test"
  echo "$(outcome $rc "$logs/$test.json" "$test" $((end - start))) $((end - start))"
}

suite() {
  local status=0 suite
  [ -f "$layer" ] || { echo "cts.sh: no layer at $layer (GAC_LAYER)" >&2; exit 1; }
  command -v timeout > /dev/null || { echo "cts.sh: needs timeout (coreutils)" >&2; exit 1; }
  for suite in "$@"; do
    suite=${suite#test_}
    local dir="$cts_build/test_conformance/$suite" bin="test_$suite"
    [ -x "$dir/$bin" ] || { echo "cts.sh: no $dir/$bin (build it: ninja -C $cts_build $bin)" >&2; exit 1; }
    local tests=(${GAC_CTS_TESTS:-$(cd "$dir" && "./$bin" --help 2>&1 | sed -n '/^Test names:/,$p' | sed -n 's/^\t\([^ ]*\)$/\1/p')})
    [ ${#tests[@]} -gt 0 ] || { echo "cts.sh: $bin lists no subtests" >&2; exit 1; }
    echo "### $bin (${#tests[@]} subtests, ${cts_timeout} s each at most)"
    echo
    echo "| subtest | alone | through the layer | wall alone | wall layer |"
    echo "|---|---|---|---:|---:|"
    local t a l regressions=() counts_a="" counts_l=""
    for t in "${tests[@]}"; do
      # stderr: bash's notice of a subtest killed by a signal, not the table's.
      suite_run alone "$suite" "$dir" "$bin" "$t" > "$cts_logs/.alone.$$" 2> /dev/null &
      l=$(suite_run layer "$suite" "$dir" "$bin" "$t" 2> /dev/null)
      wait $!
      a=$(cat "$cts_logs/.alone.$$")
      printf '| %s | %s | %s | %s s | %s s |\n' "$t" "${a% *}" "${l% *}" "${a##* }" "${l##* }"
      counts_a+="${a% *}"$'\n'; counts_l+="${l% *}"$'\n'
      [ "${a% *}" != pass ] || [ "${l% *}" = pass ] || regressions+=("$t (${l% *})")
    done
    rm -f "$cts_logs/.alone.$$"
    echo
    echo "alone: $(tally "$counts_a"); through the layer: $(tally "$counts_l")"
    if [ ${#regressions[@]} -gt 0 ]; then
      echo "pass alone, not through the layer: ${regressions[*]}"
      status=1
    else
      echo "pass alone, not through the layer: none"
    fi
    echo
  done
  return $status
}

# "N pass, N fail, ..." of a list of outcomes, one a line.
tally() { grep . <<< "$1" | sed 's/(.*//' | sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }'; }

case "${1:-}" in
  suite) shift; [ $# -gt 0 ] || { echo "usage: cts.sh suite SUITE..." >&2; exit 2; }
         layer=$(realpath -m "${GAC_LAYER:-$gac_build/icd/libgac-layer.so}")
         cts_logs=$(realpath -m "${GAC_CTS_LOGS:-$cts_build/logs}"); mkdir -p "$cts_logs"
         cts_timeout=${GAC_CTS_TIMEOUT:-600}
         suite "$@" ;;
  build) shift; [ $# -ge 2 ] || { echo "usage: cts.sh build CTS_CHECKOUT HEADERS_CHECKOUT [TARGET...]" >&2; exit 2; }; build "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: cts.sh build CTS_CHECKOUT HEADERS_CHECKOUT [TARGET...] | cts.sh run [LOCAL_MEM_SIZE...] | cts.sh suite SUITE..." >&2; exit 2 ;;
esac
