#!/usr/bin/env bash
# khronos-loader.sh LOADER_CHECKOUT HEADERS_CHECKOUT [BUILD_DIR]
#
# The layer under Khronos's ICD loader (github.com/KhronosGroup/OpenCL-ICD-Loader)
# instead of ocl-icd: builds the loader and its cllayerinfo from a checkout
# (against OpenCL-Headers from HEADERS_CHECKOUT, out of tree, into
# BUILD_DIR/khronos-loader), then
#   1. cllayerinfo with OPENCL_LAYERS=libgac-layer.so lists the layer: the
#      loader found clGetLayerInfo and clInitLayerWithProperties and the
#      layer initialised (a layer without them is left out);
#   2. the same with OCL_ICD_FORCE_LEGACY_TERMINATION=1: clInitLayer;
#   3. layer_test (tests/icd, the host program of the icd.layer test)
#      through that loader, with the layer in front of the installed ICDs
#      (/etc/OpenCL/vendors: PoCL here), and the loader's trace: the layer
#      added, clDeinitLayer found and called at exit without an error;
#   4. where BUILD_DIR has gac-conformance: the conformance suite's raised
#      SPIR-V through clCreateProgramWithIL (strategy auto) through that
#      loader and the layer (minutes with PoCL's cache cold).
# BUILD_DIR is gac's build (default: build) with gac_layer, layer_test and
# layer_test_inputs built. Needs cmake, ninja and a C compiler.
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 LOADER_CHECKOUT HEADERS_CHECKOUT [BUILD_DIR]" >&2
  exit 2
fi
loader_src=$(realpath "$1")
headers=$(realpath "$2")
build=$(realpath "${3:-build}")
src=$(realpath "$(dirname "$0")/..")
layer=$build/icd/libgac-layer.so
layer_test=$build/tests/icd/layer_test
for f in "$loader_src/loader/icd.c" "$headers/CL/cl_layer.h" "$layer" "$layer_test"; do
  if [ ! -e "$f" ]; then
    echo "$0: $f is missing (a checkout of OpenCL-ICD-Loader, of OpenCL-Headers, and a gac build with" \
         "gac_layer, layer_test and layer_test_inputs)" >&2
    exit 2
  fi
done

out=$build/khronos-loader
cmake -S "$loader_src" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DOPENCL_ICD_LOADER_HEADERS_DIR="$headers" -DENABLE_OPENCL_LAYERS=ON -DENABLE_OPENCL_LAYERINFO=ON > "$out.cmake.log"
cmake --build "$out" --target OpenCL cllayerinfo > "$out.build.log"
commit=$(git -C "$loader_src" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "Khronos ICD loader $commit, built in $out"

# A layer built with ASan needs the runtime in programs built without it.
preload=
if readelf -d "$layer" | grep -q 'libasan'; then
  preload=$(cc -print-file-name=libasan.so)
fi

status=0
check() { # check NAME PATTERN TEXT: PASS if TEXT matches the extended regex PATTERN
  if grep -Eq -- "$2" <<<"$3"; then echo "PASS $1"; else echo "FAIL $1"; status=1; fi
}
check_not() {
  if grep -Eq -- "$2" <<<"$3"; then echo "FAIL $1"; status=1; else echo "PASS $1"; fi
}

info=$(env OPENCL_LAYERS="$layer" ${preload:+LD_PRELOAD="$preload"} ASAN_OPTIONS=detect_leaks=0 "$out/cllayerinfo")
echo "$info"
check "cllayerinfo lists the layer (clInitLayerWithProperties)" "^$layer:" "$info"
check "cllayerinfo: CL_LAYER_API_VERSION 100" "CL_LAYER_API_VERSION: 100" "$info"
check "cllayerinfo: CL_LAYER_NAME gac" "CL_LAYER_NAME: gac" "$info"
legacy=$(env OPENCL_LAYERS="$layer" OCL_ICD_FORCE_LEGACY_TERMINATION=1 ${preload:+LD_PRELOAD="$preload"} \
  ASAN_OPTIONS=detect_leaks=0 "$out/cllayerinfo")
check "cllayerinfo, legacy termination, lists the layer (clInitLayer)" "^$layer:" "$legacy"

# The host program, linked with -lOpenCL, gets the Khronos loader first.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
which_loader=$(LD_LIBRARY_PATH="$out" ldd "$layer_test" | grep 'libOpenCL')
check "layer_test resolves libOpenCL.so.1 to the Khronos loader" "=> $out/libOpenCL.so" "$which_loader"
kernels=$build/conformance/kernels
set +e
LD_LIBRARY_PATH="$out" OPENCL_LAYERS="$layer" OCL_ICD_ENABLE_TRACE=1 \
  POCL_CACHE_DIR="$scratch/pocl" POCL_WORK_GROUP_METHOD=loops GAC_LAYER_CACHE_DIR="$scratch/layer" \
  PATH="$build/tools:$PATH" LSAN_OPTIONS="suppressions=$src/conformance/lsan.supp:print_suppressions=0" \
  "$layer_test" "$kernels/copies.raised.spv" "$build/tests/icd/line-overlap.spv" "$src/conformance/kernels/copies.cl" \
  "$build/tests/icd/broken-library.bc" > "$scratch/out" 2> "$scratch/trace"
rc=$?
set -e
grep -E '^(FAIL|[0-9]+ passed)' "$scratch/out" || true
trace=$(cat "$scratch/trace")
check "layer_test through the Khronos loader passes (exit $rc)" "^0$" "$rc"
check "the loader added the layer" "successfully added layer $layer" "$trace"
check "the loader deinitialised its layers at exit" "finalizing and unloading layers" "$trace"
check_not "the loader found clDeinitLayer" "layer does not support clDeinitLayer" "$trace"
check_not "clDeinitLayer reported no error" "error reported in layer deinitialization" "$trace"

runner=$build/conformance/gac-conformance
if [ -x "$runner" ]; then
  set +e
  LD_LIBRARY_PATH="$out" OPENCL_LAYERS="$layer" GAC_LAYER_STRATEGY=auto GAC_LAYER_CACHE_DIR="$scratch/layer" \
    POCL_CACHE_DIR="$scratch/pocl" POCL_WORK_GROUP_METHOD=loops \
    LSAN_OPTIONS="suppressions=$src/conformance/lsan.supp:print_suppressions=0" \
    "$runner" "$kernels" auto --il > "$scratch/conformance" 2>&1
  rc=$?
  set -e
  grep -E '^[0-9]+ passed' "$scratch/conformance" || tail -5 "$scratch/conformance"
  check "the conformance suite (--il, auto) through the Khronos loader and the layer (exit $rc)" "^0$" "$rc"
else
  echo "SKIP the conformance suite: $runner not built"
fi
exit $status
