#!/usr/bin/env bash
# gac's layer stacked with other OpenCL layers (docs/LAYER.md, "Stacked with
# other layers").
#
#   scripts/stack-layers.sh OPENCL_LAYERS_CHECKOUT INTERCEPT_CHECKOUT HEADERS_CHECKOUT [ICD_LOADER_CHECKOUT]
#
# Builds, in $GAC_STACK_WORK (default build-stack):
#   - Khronos's object-lifetime and parameter-verification layers
#     (KhronosGroup/OpenCL-Layers), against HEADERS_CHECKOUT and against the
#     system's headers (/usr/include/CL): the layers refuse a loader whose
#     dispatch table is shorter than the one of the headers they were built
#     with, and ocl-icd 2.3.1's has 149 entries to the 150 of recent headers;
#   - Intel's opencl-intercept-layer, which is no loader layer (it has no
#     clInitLayer) but a libOpenCL.so put in front of the real loader
#     (LD_PRELOAD, CLI_OpenCLFileName): above every OPENCL_LAYERS layer;
#   - with ICD_LOADER_CHECKOUT, Khronos's ICD loader against HEADERS_CHECKOUT.
# Then shows which layers each loader really loads (a loader drops a layer
# whose clInitLayer fails, silently: scripts/stack-layers-probe.c), and runs
# the conformance suite (gac-conformance from $GAC_BUILD, default build) under
# each stack: from SPIR-V (--il) and OpenCL C (--source) through gac
# (GAC_LAYER, default $GAC_BUILD/icd/libgac-layer.so), and, as its baseline,
# the same runner under the same stack without gac (its programs as gac's
# bitcode). Both loaders read OPENCL_LAYERS left to right and wrap each
# layer around the ones before: the last listed is nearest the application,
# the first nearest the driver.
#
# With GAC_STACK_CTS=DIR (a CTS build with test_basic, scripts/cts.sh build)
# also runs the CTS's async copy subtests (GAC_STACK_CTS_TESTS, default the
# 2D and 1D ones) at 32 KiB of local memory through cts.sh, gac on top of the
# validation layers and below them (GAC_STACK_CTS_ORDERS, default "OL:PV:G
# G:OL:PV"), and one 1D subtest on PoCL alone under the validation layers
# (the baseline; GAC_STACK_CTS_BASELINE, default async_copy_global_to_local).
#
# Prints markdown tables: what loads, and per run the result and the
# validation layers' messages (pointers as PTR) with the ones the baseline
# does not have. GAC_STACK_STACKS picks stacks (see below). The exit status
# is 1 if a run fails or has such a message.
# Needs no network. CI does not run this: it needs the external checkouts.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: stack-layers.sh OPENCL_LAYERS_CHECKOUT INTERCEPT_CHECKOUT HEADERS_CHECKOUT [ICD_LOADER_CHECKOUT]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
khr_src=$(realpath "$1") intercept_src=$(realpath "$2") headers=$(realpath "$3")
loader_src=${4:+$(realpath "$4")}
for d in "$khr_src/object-lifetime" "$intercept_src/intercept" "$headers/CL"; do
  [ -d "$d" ] || { echo "stack-layers.sh: no $d" >&2; exit 2; }
done
work=$(realpath -m "${GAC_STACK_WORK:-$root/build-stack}")
gac_build=$(realpath -m "${GAC_BUILD:-$root/build}")
gac=$(realpath -m "${GAC_LAYER:-$gac_build/icd/libgac-layer.so}") runner=$gac_build/conformance/gac-conformance
[ -f "$gac" ] && [ -x "$runner" ] || { echo "stack-layers.sh: build gac first ($gac, $runner)" >&2; exit 1; }
system_loader=/usr/lib/x86_64-linux-gnu/libOpenCL.so.1
jobs=${GAC_STACK_JOBS:-2}
mkdir -p "$work"

# ---- builds ----

cmake_build() { # name source targets... (configure arguments in $cfg)
  local name=$1 src=$2; shift 2
  local start=$SECONDS
  if ! { cmake -S "$src" -B "$work/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release "${cfg[@]}" &&
         cmake --build "$work/$name" -j "$jobs" --target "$@"; } > "$work/$name.log" 2>&1; then
    echo "stack-layers.sh: building $name failed, see $work/$name.log" >&2; exit 1
  fi
  echo "$name: built in $((SECONDS - start)) s" >&2
}

# OpenCL-Layers names its headers through OPENCL_ICD_LOADER_HEADERS_DIR (a
# folder with CL/). Its object-lifetime CMakeLists needs BUILD_TESTING on.
# The parameter-verification layer needs RapidXml (Debian: librapidxml-dev).
mkdir -p "$work/system-headers" && ln -sfn /usr/include/CL "$work/system-headers/CL"
cfg=(-DOPENCL_ICD_LOADER_HEADERS_DIR="$headers")
cmake_build khr-layers "$khr_src" CLObjectLifetimeLayer CLParamVerificationLayer
cfg=(-DOPENCL_ICD_LOADER_HEADERS_DIR="$work/system-headers")
cmake_build khr-layers-system "$khr_src" CLObjectLifetimeLayer CLParamVerificationLayer
cfg=(-DENABLE_MDAPI=OFF)
cmake_build intercept "$intercept_src" OpenCL
if [ -n "$loader_src" ]; then
  cfg=(-DOPENCL_ICD_LOADER_HEADERS_DIR="$headers" -DBUILD_TESTING=OFF)
  cmake_build icd-loader "$loader_src" OpenCL
fi
cc -O1 -Wall -o "$work/probe" "$root/scripts/stack-layers-probe.c" -lOpenCL
intercept_lib=$work/intercept/intercept/libOpenCL.so
# Every layer writes to stderr; the parameter-verification layer is
# transparent (logs, then calls down as asked): it also flags calls it
# misjudges (CL_DEVICE_TYPE_ALL), which must not change what runs.
settings=$work/cl_layer_settings.txt
printf '%s\n' "object_lifetime.log_sink = stderr" "param_verification.log_sink = stderr" \
  "param_verification.transparent = yes" > "$settings"
export OPENCL_LAYERS_SETTINGS_PATH=$settings

# Loader setups: "name|library|environment" (the Khronos loader loads layers
# with only clInitLayer, Khronos's own among them, in its legacy mode alone).
loaders=("ocl-icd|$system_loader|")
[ -z "$loader_src" ] ||
  loaders+=("khronos|$work/icd-loader/libOpenCL.so.1|LD_LIBRARY_PATH=$work/icd-loader OCL_ICD_FORCE_LEGACY_TERMINATION=1")
layers_for() { # loader -> folder of the validation layers it loads
  case $1 in ocl-icd) echo "$work/khr-layers-system/lib" ;; *) echo "$work/khr-layers/lib" ;; esac
}

# The validation layers' and the intercept layer's own lines, pointers
# masked: "In clX: ...", the object-lifetime leak list, "ERROR! clX
# returned ...", "Possible leak of type ...".
messages() {
  grep -hE '^(In cl[A-Za-z]+|OpenCL object leaks:|[A-Z_]+ \(0x[0-9a-f]+\) reference count|ERROR! cl|Possible leak of type|    Number of (Allocations|Retains|Releases))' "$@" |
    sed -E 's/0x[0-9a-fA-F]+/PTR/g' || true
}

# The messages of a run that its baseline has not, or has fewer times, as
# "N x text (baseline M); ..." (files of "count text" lines); with "text",
# only those the baseline has not at all (a baseline of another program).
not_in() { # baseline-messages run-messages [text]
  [ -f "$1" ] || { echo "no baseline ($1)"; return; }
  awk -v text="${3:-}" 'NR == FNR { n = $1; sub(/^ *[0-9]+ /, ""); base[$0] = text ? 1e18 : n; next }
       { n = $1; sub(/^ *[0-9]+ /, ""); if (n > base[$0] + 0) { printf "%s%d x %s (baseline %d)", sep, n, $0, base[$0]; sep = "; " } }' "$1" "$2" |
    sed 's/|/\\|/g'
}

# ---- which layers load ----

echo "### Which layers each loader loads"
echo
echo "| layer | built against | loader | loaded |"
echo "|---|---|---|---|"
for l in "${loaders[@]}"; do
  name=${l%%|*} lenv=(${l##*|})
  for built in khr-layers khr-layers-system; do
    for layer in CLObjectLifetimeLayer CLParamVerificationLayer; do
      out=$(env ${lenv[@]+"${lenv[@]}"} OPENCL_LAYERS="$work/$built/lib/lib$layer.so" "$work/probe" 2>&1 || true)
      case $layer in
        CLObjectLifetimeLayer) grep -q '^OpenCL object leaks:' <<< "$out" && ok=yes || ok=no ;;
        *) grep -q '^In clCreateBuffer: size is 0' <<< "$out" && ok=yes || ok=no ;;
      esac
      echo "| $layer | ${built/khr-layers-system/system headers} | $name | $ok |" | sed "s#| khr-layers |#| $(basename "$headers") |#"
    done
  done
  out=$(env ${lenv[@]+"${lenv[@]}"} OPENCL_LAYERS="$gac" "$work/probe" 2>&1 || true)
  echo "| gac | gac's build | $name | $(grep -q '^gac: yes' <<< "$out" && echo yes || echo no) |"
done
echo

# ---- the conformance suite under each stack ----

status=0
# The stacks, as OPENCL_LAYERS lists them (first: nearest the driver). OL:
# object lifetime, PV: parameter verification, G: gac, I+: the intercept
# layer in front of the loader. A stack without G runs the suite's own
# bitcode: the baseline of the stacks that are it with G added, which run
# --il and --source. GAC_STACK_STACKS picks some (baselines first; none:
# no suite runs).
stacks=(${GAC_STACK_STACKS:-OL:PV PV:OL I I+OL:PV OL:PV:G G:OL:PV OL:G:PV PV:G:OL I+G I+OL:PV:G})
[ "${stacks[*]}" != none ] || stacks=()
baseline_of() { # stack -> the same without gac
  local b=${1//G:/}; b=${b//:G/}; b=${b/+G/}; echo "${b//:/-}-bitcode"
}

run_suite() { # loader-environment... -- stack programs dir validation-layers loader-library
  local lenv=() ; while [ "$1" != -- ]; do lenv+=("$1"); shift; done; shift
  local stack=$1 mode=$2 dir=$3 vlayers=$4 loader_lib=$5
  local list="" preload=() part
  local spec=${stack#I+}; [ "$stack" = I ] && spec=""
  case $stack in I|I+*) preload=(LD_PRELOAD="$intercept_lib" CLI_OpenCLFileName="$loader_lib"
                                 CLI_ErrorLogging=1 CLI_LeakChecking=1 CLI_ReportToStderr=1) ;; esac
  for part in ${spec//:/ }; do
    case $part in
      OL) list+=":$vlayers/libCLObjectLifetimeLayer.so" ;;
      PV) list+=":$vlayers/libCLParamVerificationLayer.so" ;;
      G) list+=":$gac" ;;
    esac
  done
  list=${list#:}
  local args=("$gac_build/conformance/kernels" cooperative) ; [ "$mode" = bitcode ] || args+=("--$mode")
  mkdir -p "$dir"
  (env ${lenv[@]+"${lenv[@]}"} ${preload[@]+"${preload[@]}"} ${list:+OPENCL_LAYERS="$list"} GAC_LAYER_STRATEGY=cooperative \
     GAC_LAYER_CACHE_DIR="$work/gac-cache" POCL_CACHE_DIR="$work/pocl-cache" POCL_WORK_GROUP_METHOD=loops \
     PATH="$gac_build/tools:$PATH" "$runner" "${args[@]}") > "$dir/out" 2> "$dir/err" || echo "exit $?" >> "$dir/out"
  messages "$dir/out" "$dir/err" | sort | uniq -c > "$dir/messages"
}

echo "### The conformance suite under each stack"
echo
echo "| loader | OPENCL_LAYERS (first nearest the driver) | programs | result | messages (distinct) | not in the baseline |"
echo "|---|---|---|---|---:|---|"
for l in "${loaders[@]}"; do
  name=${l%%|*} lenv=(${l##*|}) loader_lib=${l#*|}; loader_lib=${loader_lib%%|*}
  vlayers=$(layers_for "$name")
  for stack in "${stacks[@]}"; do
    case $stack in *G*) modes=(il source) ;; *) modes=(bitcode) ;; esac
    for mode in "${modes[@]}"; do
      dir="$work/runs/$name/${stack//:/-}-$mode"
      run_suite ${lenv[@]+"${lenv[@]}"} -- "$stack" "$mode" "$dir" "$vlayers" "$loader_lib"
      result=$(grep -E '^[0-9]+ passed, [0-9]+ failed|^exit ' "$dir/out" | tr '\n' ' ')
      # The baseline: the same validation layers (and intercept), no gac.
      base="$work/runs/$name/$(baseline_of "$stack")"
      new=$(not_in "$base/messages" "$dir/messages")
      echo "| $name | ${stack} | $mode | ${result% } | $(wc -l < "$dir/messages") | ${new:-none} |"
      [[ "$result" == *" 0 failed"* ]] && [ -z "$new" ] || status=1
    done
  done
done
echo
echo "Messages of each run: $work/runs/LOADER/STACK-PROGRAMS/messages (count, message)."
echo

# ---- the CTS's async copy subtests ----

if [ -n "${GAC_STACK_CTS:-}" ]; then
  cts=$(realpath "$GAC_STACK_CTS")
  vlayers=$(layers_for ocl-icd)
  validation="$vlayers/libCLObjectLifetimeLayer.so:$vlayers/libCLParamVerificationLayer.so"
  tests=(${GAC_STACK_CTS_TESTS:-async_copy_global_to_local2D async_copy_local_to_global2D
         async_copy_global_to_local async_copy_local_to_global
         async_strided_copy_global_to_local async_strided_copy_local_to_global})
  orders=(${GAC_STACK_CTS_ORDERS:-OL:PV:G G:OL:PV})
  base_test=${GAC_STACK_CTS_BASELINE:-async_copy_global_to_local}
  echo "### The CTS's async copy subtests (ocl-icd, 32 KiB of local memory)"
  echo
  echo "| OPENCL_LAYERS (first nearest the driver) | subtest | through | configurations | run | skipped | passed | failed | wall | result | messages (distinct) | not in the baseline |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|"
  cts_row() { # order through test row-from-cts.sh [limit]
    local order=$1 through=$2 test=$3 row=$4 dir="$work/cts/$1"
    local log="$cts/logs/$through-${5:-32768}/$test.log" _ t th c r s p f w res
    mkdir -p "$dir"
    [ -f "$dir/$through-$test.row" ] || cp "$log" "$dir/$through-$test.log"
    echo "$row" > "$dir/$through-$test.row"
    messages "$dir/$through-$test.log" | sort | uniq -c > "$dir/$through-$test.messages"
    # The baseline: the 1D subtest on PoCL alone, by count for itself and
    # by text for the others (the 2D ones skip every configuration there).
    local base="$work/cts/OL:PV/pocl-$base_test.messages" new=""
    new=$(not_in "$base" "$dir/$through-$test.messages" $([ "$test" = "$base_test" ] || echo text))
    # cts.sh's row: | subtest | through | limit | conf | run | skip | pass | fail | wall | result |
    IFS='|' read -r _ t th _ c r s p f w res _ <<< "$row"
    echo "| $order |$t|$th|$c|$r|$s|$p|$f|$w|$res| $(wc -l < "$dir/$through-$test.messages") | ${new:-none} |"
    [[ "$res" == *PASS* ]] && [ -z "$new" ] || status=1
  }
  # A subtest whose log and row are kept from an earlier run of the script
  # in the same folder is not run again (remove $work/cts to run all).
  cts_run() { # order before after alone test
    local out row
    if [ -f "$work/cts/$1/layer-$5.row" ] && { [ "$4" = no ] || [ -f "$work/cts/OL:PV/pocl-$5.row" ]; }; then
      [ "$4" = no ] || cts_row "OL:PV" pocl "$5" "$(cat "$work/cts/OL:PV/pocl-$5.row")"
      cts_row "$1" layer "$5" "$(cat "$work/cts/$1/layer-$5.row")"
      return
    fi
    out=$(GAC_CTS_BUILD="$cts" GAC_BUILD="$(dirname "$(dirname "$gac")")" GAC_CTS_TESTS="$5" GAC_CTS_ALONE="$4" \
          GAC_CTS_EXTRA_LAYERS_BEFORE="$2" GAC_CTS_EXTRA_LAYERS_AFTER="$3" \
          "$root/scripts/cts.sh" run 32768 || true)
    # The driver-alone row first: it is the baseline of the other.
    while IFS= read -r row; do
      [ -n "$row" ] || continue
      case $row in *"| pocl |"*) cts_row "OL:PV" pocl "$5" "$row" pocl ;;
                   *) cts_row "$1" layer "$5" "$row" ;; esac
    done <<< "$(grep '^| async.*| pocl |' <<< "$out"; grep '^| async.*| layer |' <<< "$out")"
  }
  # The baseline first: a 1D subtest on PoCL alone under the validation
  # layers (through the first order as well, in the same call).
  order_run() { # order alone test
    case $1 in
      OL:PV:G) cts_run "$1" "$validation" "" "$2" "$3" ;;
      G:OL:PV) cts_run "$1" "" "$validation" "$2" "$3" ;;
      *) echo "stack-layers.sh: GAC_STACK_CTS_ORDERS: OL:PV:G or G:OL:PV, not $1" >&2; exit 2 ;;
    esac
  }
  order_run "${orders[0]}" yes "$base_test"
  for t in "${tests[@]}"; do
    for o in "${orders[@]}"; do
      [ "$o $t" = "${orders[0]} $base_test" ] || order_run "$o" no "$t"
    done
  done
  echo
fi
exit $status
