#!/usr/bin/env bash
# run.sh PART OUT [MODE [DEV]]: on a machine with an NVIDIA GPU, its OpenCL
# driver and an ICD loader with layers (OPENCL_LAYERS), none of gac's
# packages. Unpacks a part that icd/device/stage.sh packed into
# /tmp/gac-layer, then runs MODE with gac's layer in front of NVIDIA's driver,
# as an unmodified host program would meet it. Results go to OUT; exits
# non-zero if a check failed.
#   unpack        only the unpacking (parts 1 and 3, in the first call)
#   suite         (part 2) the conformance suite through the layer, from its
#                 raised SPIR-V (clCreateProgramWithIL) and from its OpenCL C
#                 (clCreateProgramWithSource, with each program's options),
#                 each with the layer's cache cold, then warm
#   checks DEV    (part 2) the corpus from OpenCL C (both variants) and the
#                 math suite from math.cl (NVIDIA's compiler: it calls none of
#                 gac's builtins) and from gac-cc's module of it (IL, gac's
#                 PTX); DEV is bench/cuda/stage_device.sh's folder (runners)
#   cts           the Khronos CTS's async copy subtests (GAC_CTS_TESTS),
#                 online (OpenCL C), and with GAC_CTS_COMPILATION=spir-v in
#                 the CTS's spir-v mode (every kernel compiled offline by
#                 gac-cc --raw, created with clCreateProgramWithIL);
#                 GAC_LAYER_LOCAL_MEM_SIZE passes on
#   cts-suite     whole CTS suites (GAC_CTS_SUITES, default basic: part 3's
#                 test_basic) on NVIDIA's driver alone and through the layer
#                 at once, a table per subtest (scripts/cts.sh suite, from the
#                 checkout this script is in; GAC_CTS_TIMEOUT per subtest,
#                 GAC_CTS_TESTS the subtests, GAC_CTS_STREAMS runs at once)
#   bench DEV     the vendor benchmark (bench/nvidia_opencl/vendor_bench.c) with
#                 VENDOR_LAYER rows, twice: NVIDIA's and the layer's caches
#                 cold, then warm (build times of both)
# PART "-": nothing to unpack (a later call on the same machine, for the
# modes that need no part's files: cts, bench).
set -uo pipefail
part=$1 out=$(realpath -m "$2") mode=${3:-suite} dev=${4:+$(realpath "$4")}
t=/tmp/gac-layer
mkdir -p "$out" "$t"
if [ "$part" = - ]; then
  case $mode in suite | checks) echo "run.sh: $mode needs part 2's files" >&2; exit 2 ;; esac
elif ! part=$(realpath "$part"); then
  exit 1
elif command -v xz > /dev/null; then
  xz -dc "$part/part.tar.xz" | tar -C "$t" -xf - || exit 1
else
  python3 -c 'import lzma, sys, tarfile; tarfile.open(fileobj=lzma.open(sys.argv[1])).extractall(sys.argv[2])' \
    "$part/part.tar.xz" "$t" || exit 1
fi
[ "$mode" = unpack ] && { echo "unpacked $(ls "$t")"; exit 0; }
[ -e "$t/lib/libgac-layer.so" ] && [ -e "$t/bin/llvm-spirv-15" ] && [ -e "$t/bin/clang-15" ] ||
  { echo "run.sh: unpack parts 1, 2 and 3 first" >&2; exit 1; }
case $mode in checks | bench) [ -n "$dev" ] || { echo "run.sh: $mode needs DEV" >&2; exit 2; } ;; esac
cuda=${CUDA_HOME:-/usr/local/cuda}
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
# NVIDIA's OpenCL library, wherever the driver put it (not in
# /etc/OpenCL/vendors on the GPU machine: /usr/local/nvidia/lib64 there).
# (NVCL_LIB and RUN_DEVICE_TYPE=cpu: a dry run on another driver, e.g. PoCL.)
nv=${NVCL_LIB:-}
[ -n "$nv" ] || nv=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
  /usr/lib64/libnvidia-opencl.so.1 2>/dev/null | head -n 1)
[ -n "$nv" ] || nv=$(find / -name 'libnvidia-opencl.so.1' -not -path '/proc/*' 2>/dev/null | head -n 1)
[ -n "$nv" ] || { echo "run.sh: no libnvidia-opencl.so.1" >&2; exit 1; }
echo "$nv" > "$vendors/nvidia.icd"
# The system's ICD loader (ocl-icd), which takes layers: CUDA's own
# libOpenCL.so.1, which the linker cache lists first on the GPU machine,
# takes none (OPENCL_LAYERS would be ignored). The loader lists PoCL's
# platform (/etc/OpenCL/vendors) before NVIDIA's: the runners and the CTS
# take the GPU (GAC_CL_DEVICE_TYPE, CL_DEVICE_TYPE). OpenCL C through the
# layer: gac's front end runs clang-15.
export LD_LIBRARY_PATH="$t/lib:/usr/lib/x86_64-linux-gnu" GAC_LLVM_SPIRV="$t/bin/llvm-spirv-15" \
  GAC_CLANG="$t/bin/clang-15" GAC_LLVM_SPIRV_FORWARD="$t/bin/llvm-spirv-15" \
  GAC_LIBCLC="$t/clc/nvptx64--nvidiacl.bc" GAC_LIBDEVICE="$cuda/nvvm/libdevice/libdevice.10.bc" \
  OCL_ICD_VENDORS="$vendors" OPENCL_LAYERS="$t/lib/libgac-layer.so" \
  GAC_CL_DEVICE_TYPE=${RUN_DEVICE_TYPE:-gpu} CL_DEVICE_TYPE=${RUN_DEVICE_TYPE:-gpu}
loader="-L/usr/lib/x86_64-linux-gnu -Wl,-rpath,/usr/lib/x86_64-linux-gnu -l:libOpenCL.so.1"
status=0

# A timed command: "NAME: its summary line; S s" (the summary matched by RE).
timed() {
  local name=$1 log=$2 re=$3
  shift 3
  local start end
  start=$(date +%s.%N)
  timeout 300 "$@" > "$log" 2>&1 || status=1
  end=$(date +%s.%N)
  echo "$name: $(grep -E "$re" "$log" | tail -n 1 || tail -n 3 "$log"); $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f s", b - a }')"
}

case $mode in
suite)
  src=$part/src
  gcc -std=c17 -O2 -I"$cuda/include" -I"$src/support" -I"$src/conformance" "$src/conformance/runner.c" \
    "$src/conformance/suite.c" "$src/conformance/cl_device.c" "$src/support/subprocess.c" $loader \
    -o "$out/gac-conformance" || exit 1
  for from in il source; do
    export GAC_LAYER_CACHE_DIR="$out/cache-$from"
    rm -rf "$GAC_LAYER_CACHE_DIR" && mkdir -p "$GAC_LAYER_CACHE_DIR"
    for pass in cold cached; do
      timed "conformance through the layer, $from ($pass cache)" "$out/conformance-$from-$pass.txt" \
        '^[0-9]+ passed' "$out/gac-conformance" "$part/il" cooperative --$from
    done
  done
  head -n 1 "$out/conformance-il-cold.txt"
  rm -f "$out/gac-conformance"
  ;;
checks)
  export GAC_LAYER_CACHE_DIR="$out/cache-checks"
  mkdir -p "$GAC_LAYER_CACHE_DIR"
  conf=$dev/src/conformance sup=$dev/src/support
  gcc -std=c17 -O2 -I"$cuda/include" -I"$sup" "$conf/corpus/runner.c" "$conf/corpus/corpus.c" \
    "$conf/corpus/values.c" "$conf/corpus/compare.c" "$conf"/corpus/specs_*.c "$conf/cl_device.c" \
    "$sup/subprocess.c" $loader -lm -o "$out/gac-corpus" || exit 1
  timed "corpus through the layer, OpenCL C" "$out/corpus-layer.txt" '[0-9]+ passed|passed|failed' \
    "$out/gac-corpus" run layer "$part/corpus" "$part/corpus"
  gcc -std=c17 -O2 -I"$cuda/include" -I"$sup" "$conf/math/math_opencl.c" "$conf/math/math_suite.c" \
    "$conf/cl_device.c" "$sup/subprocess.c" $loader -lm -o "$out/gac-math" || exit 1
  timed "math through the layer, math.cl (NVIDIA's compiler)" "$out/math-source.txt" 'rows' \
    "$out/gac-math" "$conf/math"
  # libclc 19's rootn(FLT_MIN, 1) is 0 on NVPTX (docs/PTX.md): known, as on gac's other PTX paths.
  timed "math through the layer, IL (gac's PTX)" "$out/math-il.txt" 'rows' \
    env GAC_MATH_IL="$part/il/math.spv" "$out/gac-math" "$conf/math" --known=f_rootn
  rm -f "$out/gac-corpus" "$out/gac-math"
  ;;
cts-suite)
  mkdir -p "$out/cts-build/test_conformance/basic"
  ln -sf "$t/bin/test_basic" "$out/cts-build/test_conformance/basic/test_basic"
  # GAC_CTS_STREAMS=N: the subtests (GAC_CTS_TESTS, else test_basic's list)
  # dealt round-robin to N runs side by side, a table each (cts-suite.K.txt).
  streams=${GAC_CTS_STREAMS:-1}
  all=(${GAC_CTS_TESTS:-$("$t/bin/test_basic" --help 2>&1 | sed -n '/^Test names:/,$p' | sed -n 's/^\t\([^ ]*\)$/\1/p')})
  for ((k = 0; k < streams; k++)); do
    mine=""
    for ((i = k; i < ${#all[@]}; i += streams)); do mine+="${all[i]} "; done
    env -u OPENCL_LAYERS GAC_LAYER="$t/lib/libgac-layer.so" GAC_CTS_BUILD="$out/cts-build" \
      GAC_CTS_LOGS="$out/cts-logs/$k" GAC_CTS_TESTS="$mine" \
      bash "$(dirname "$0")/../../scripts/cts.sh" suite ${GAC_CTS_SUITES:-basic} > "$out/cts-suite.$k.txt" 2>&1 &
  done
  for ((k = 0; k < streams; k++)); do wait -n || status=1; done
  cat "$out"/cts-suite.*.txt > "$out/cts-suite.txt"
  grep -h "^alone:\|^pass alone" "$out"/cts-suite.*.txt
  ;;
cts)
  # The Khronos CTS's async copy subtests (test_basic, built where gac was),
  # through the layer on NVIDIA's driver: configurations per subtest
  # ("Testing ..." lines), how many the CTS skipped for resources, and its verdict.
  export GAC_LAYER_CACHE_DIR="$out/cache-cts"
  mkdir -p "$out/cts" "$GAC_LAYER_CACHE_DIR"
  offline=()
  if [ "${GAC_CTS_COMPILATION:-online}" = spir-v ]; then
    mkdir -p "$out/cts/spirv"
    export GAC_CC="$t/bin/gac-cc"
    offline=(--compilation-mode spir-v --compilation-cache-mode overwrite --compilation-cache-path "$out/cts/spirv"
             --compilation-program "$t/bin/cts-offline-compiler.sh" --disable-spirv-validation)
  fi
  for test in ${GAC_CTS_TESTS:-async_copy_global_to_local async_copy_local_to_global \
      async_strided_copy_global_to_local async_strided_copy_local_to_global async_copy_global_to_local2D \
      async_copy_local_to_global2D async_copy_global_to_local3D async_copy_local_to_global3D \
      async_work_group_copy_fence_import_after_export_aliased_local \
      async_work_group_copy_fence_import_after_export_aliased_global \
      async_work_group_copy_fence_import_after_export_aliased_global_and_local \
      async_work_group_copy_fence_export_after_import_aliased_local \
      async_work_group_copy_fence_export_after_import_aliased_global \
      async_work_group_copy_fence_export_after_import_aliased_global_and_local}; do
    start=$(date +%s)
    log=$out/cts/$test${GAC_CTS_COMPILATION:+-$GAC_CTS_COMPILATION}.log
    (cd "$out/cts" && timeout "${GAC_CTS_TIMEOUT:-240}" "$t/bin/test_basic" "${offline[@]}" "$test") > "$log" 2>&1
    rc=$?
    configs=$(grep -c "^Testing " "$log")
    skipped=$(grep -c "Skipping due to resource" "$log")
    verdict=FAIL
    [ $rc -eq 0 ] && grep -q "PASSED sub-test" "$log" && verdict=PASS
    grep -q "Skipping test" "$log" && verdict="SKIPPED (the device lacks the extension)"
    [ $rc -eq 124 ] && verdict="TIMEOUT"
    [ "$verdict" = PASS ] || status=1
    echo "| $test | ${GAC_CTS_COMPILATION:-online} | ${GAC_LAYER_LOCAL_MEM_SIZE:-device} | $configs | $skipped | $verdict | $(($(date +%s) - start)) s |"
  done
  ;;
bench)
  vsrc=$dev/src/bench/nvidia_opencl
  kernels=$(mktemp -d)
  cp "$vsrc/vendor_copies.h" "$dev"/src/bench/cuda/{sgemm,sgemm_fast,stencil,xgemm,xgemm_2d}.cl "$kernels/"
  mkdir -p "$kernels/corpus" && cp "$dev"/src/conformance/corpus/kernels/*.cl "$kernels/corpus/"
  gcc -std=c17 -O2 -Wall -I"$cuda/include" "$vsrc/vendor_bench.c" "$vsrc/vendor_corpus.c" "$vsrc/nvcl.c" \
    -o "$out/vendor-bench" \
    $loader -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lcublas -lcudart -lm || exit 1
  # Cold: the layer's cache empty, and NVIDIA's (its compute cache, which
  # also keeps its OpenCL builds) in a fresh folder.
  export GAC_LAYER_CACHE_DIR="$out/cache-bench" CUDA_CACHE_PATH="$out/nv-cache"
  rm -rf "$GAC_LAYER_CACHE_DIR" "$CUDA_CACHE_PATH" && mkdir -p "$GAC_LAYER_CACHE_DIR" "$CUDA_CACHE_PATH"
  for pass in cold cached; do
    timed "vendor benchmark through the layer ($pass caches)" "$out/vendor-layer-$pass.txt" \
      'all results correct|FAIL' env VENDOR_LAYER=1 "$out/vendor-bench" "$kernels" "$dev/ptx"
  done
  cat "$out/vendor-layer-cold.txt"
  grep -E "^RESULT" "$out/vendor-layer-cached.txt" | sed 's/^/cached: /'
  rm -rf "$kernels" "$out/vendor-bench"
  ;;
*) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
esac
exit $status
