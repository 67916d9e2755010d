#!/usr/bin/env bash
# The Khronos OpenCL CTS's async copy subtests through the gac layer (docs/CTS.md).
#
#   scripts/cts.sh build CTS_CHECKOUT HEADERS_CHECKOUT
#       configures KhronosGroup/OpenCL-CTS against the Khronos headers and the
#       system ICD loader, and builds test_basic only (in $GAC_CTS_BUILD).
#   scripts/cts.sh run [LIMITS...]
#       runs each subtest through the layer once per LIMITS, LOCAL[/WG]:
#       GAC_LAYER_LOCAL_MEM_SIZE=LOCAL and GAC_LAYER_MAX_WORK_GROUP_SIZE=WG
#       (default 32768 65536; "pocl" = PoCL's own limits), and the 1D
#       subtests on PoCL alone too, and prints per subtest: configurations,
#       run, skipped, passed, failed, wall time.
#
# Environment: GAC_CTS_BUILD (default build-cts), GAC_BUILD (the gac build,
# default build), GAC_CTS_TESTS (subtests, default all async copy subtests),
# GAC_CTS_MAX_MEM_ALLOC_SIZE (the layer's GAC_LAYER_MAX_MEM_ALLOC_SIZE, default
# 1 GiB), GAC_CTS_COMPILATION=spir-v (every kernel compiled offline by
# scripts/cts-offline-compiler.sh, gac-cc --raw, and created with
# clCreateProgramWithIL, the CTS's own spir-v mode; GAC_CC names gac-cc,
# default $GAC_BUILD/tools/gac-cc).
# CI does not run this: it needs the CTS, which CI cannot fetch.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cts_build=$(realpath -m "${GAC_CTS_BUILD:-$root/build-cts}")
gac_build=$(realpath -m "${GAC_BUILD:-$root/build}")

build() {
  local cts=$1 headers=$2
  cmake -S "$cts" -B "$cts_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCL_INCLUDE_DIR="$(realpath "$headers")" -DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu \
    -DSPIRV_INCLUDE_DIR=/usr/include/spirv/unified1 -DOPENCL_LIBRARIES=OpenCL
  cmake --build "$cts_build" --target test_basic
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

case "${1:-}" in
  build) shift; [ $# -eq 2 ] || { echo "usage: cts.sh build CTS_CHECKOUT HEADERS_CHECKOUT" >&2; exit 2; }; build "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: cts.sh build CTS_CHECKOUT HEADERS_CHECKOUT | cts.sh run [LOCAL_MEM_SIZE...]" >&2; exit 2 ;;
esac
