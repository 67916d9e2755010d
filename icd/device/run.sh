#!/usr/bin/env bash
# run.sh PART OUT [unpack]: on a machine with an NVIDIA GPU, its OpenCL
# driver and an ICD loader with layers (OPENCL_LAYERS), none of gac's
# packages. Unpacks a part that icd/device/stage.sh packed into
# /tmp/gac-layer; with `unpack`, only that (part 1, in the first call).
# Otherwise (part 2, the next call on the same machine) puts the gac layer
# in front of NVIDIA's driver and runs the conformance suite from its raised
# SPIR-V through clCreateProgramWithIL, unmodified, as a host program would,
# twice: with the layer's cache cold, then warm. Results and the cache go to
# OUT; exits non-zero if a row failed.
set -uo pipefail
part=$(realpath "$1") out=$2
t=/tmp/gac-layer
mkdir -p "$out" "$t"
if command -v xz > /dev/null; then
  xz -dc "$part/part.tar.xz" | tar -C "$t" -xf - || exit 1
else
  python3 -c 'import lzma, sys, tarfile; tarfile.open(fileobj=lzma.open(sys.argv[1])).extractall(sys.argv[2])' \
    "$part/part.tar.xz" "$t" || exit 1
fi
mode=${3:-suite}
[ "$mode" = unpack ] && { echo "unpacked $(ls "$t")"; exit 0; }
[ -e "$t/lib/libgac-layer.so" ] && [ -e "$t/bin/llvm-spirv-15" ] || { echo "run.sh: unpack parts 1 and 2 first" >&2; exit 1; }
cuda=${CUDA_HOME:-/usr/local/cuda}
vendors=$(mktemp -d)
# NVIDIA's OpenCL library, wherever the driver put it (not in
# /etc/OpenCL/vendors on the GPU machine: /usr/local/nvidia/lib64 there).
nv=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
  /usr/lib64/libnvidia-opencl.so.1 2>/dev/null | head -n 1)
[ -n "$nv" ] || nv=$(find / -name 'libnvidia-opencl.so.1' -not -path '/proc/*' 2>/dev/null | head -n 1)
[ -n "$nv" ] || { echo "run.sh: no libnvidia-opencl.so.1" >&2; exit 1; }
echo "$nv" > "$vendors/nvidia.icd"
# OpenCL C through the layer: gac's front end runs clang-15 from part 3.
[ -x "$t/bin/clang-15" ] && export GAC_CLANG="$t/bin/clang-15" GAC_LLVM_SPIRV_FORWARD="$t/bin/llvm-spirv-15"
# The system's ICD loader (ocl-icd), which takes layers: CUDA's own
# libOpenCL.so.1, which the linker cache lists first on the GPU machine,
# takes none (OPENCL_LAYERS would be ignored). The loader lists PoCL's
# platform (/etc/OpenCL/vendors) before NVIDIA's: the runner and the CTS
# take the GPU (GAC_CL_DEVICE_TYPE, CL_DEVICE_TYPE).
export LD_LIBRARY_PATH="$t/lib:/usr/lib/x86_64-linux-gnu" GAC_LLVM_SPIRV="$t/bin/llvm-spirv-15" \
  GAC_LIBCLC="$t/clc/nvptx64--nvidiacl.bc" GAC_LIBDEVICE="$cuda/nvvm/libdevice/libdevice.10.bc" \
  OCL_ICD_VENDORS="$vendors" OPENCL_LAYERS="$t/lib/libgac-layer.so" GAC_LAYER_CACHE_DIR="$out/cache" \
  GAC_CL_DEVICE_TYPE=gpu CL_DEVICE_TYPE=gpu
mkdir -p "$out/cache"
if [ "$mode" = cts ]; then
  # The Khronos CTS's async copy subtests (test_basic, built where gac was),
  # through the layer on NVIDIA's driver: configurations per subtest
  # ("Testing ..." lines), how many the CTS skipped for resources, and its verdict.
  mkdir -p "$out/cts"
  status=0
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
    (cd "$out/cts" && timeout 900 "$part/test_basic" "$test") > "$out/cts/$test.log" 2>&1
    rc=$?
    configs=$(grep -c "^Testing " "$out/cts/$test.log")
    skipped=$(grep -c "Skipping due to resource" "$out/cts/$test.log")
    verdict=FAIL
    [ $rc -eq 0 ] && grep -q "PASSED sub-test" "$out/cts/$test.log" && verdict=PASS
    grep -q "Skipping test" "$out/cts/$test.log" && verdict="SKIPPED (the device lacks the extension)"
    [ "$verdict" = PASS ] || status=1
    echo "| $test | $configs | $skipped | $verdict | $(($(date +%s) - start)) s |"
  done
  rm -rf "$vendors"
  exit $status
fi
src=$part/src
gcc -std=c17 -O2 -I"$cuda/include" -I"$src/support" -I"$src/conformance" "$src/conformance/runner.c" \
  "$src/conformance/suite.c" "$src/conformance/cl_device.c" "$src/support/subprocess.c" \
  -L/usr/lib/x86_64-linux-gnu -lOpenCL -o "$out/gac-conformance" || exit 1
status=0
for pass in cold cached; do
  start=$(date +%s.%N)
  timeout 300 "$out/gac-conformance" "$part/il" cooperative --il > "$out/conformance-layer-$pass.txt" 2>&1 || status=1
  end=$(date +%s.%N)
  echo "conformance through the layer on NVIDIA's OpenCL ($pass cache): $(grep -E '^[0-9]+ passed' "$out/conformance-layer-$pass.txt" || tail -n 3 "$out/conformance-layer-$pass.txt"); $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f s", b - a }')"
done
head -n 1 "$out/conformance-layer-cold.txt"
rm -rf "$vendors" "$out/gac-conformance"
exit $status
