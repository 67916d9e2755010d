#!/usr/bin/env bash
# stage.sh BUILD DEST: what the gac layer needs to run in front of NVIDIA's
# OpenCL driver on a machine without gac's Debian packages (docs/LAYER.md),
# in three xz-compressed parts (the GPU machine has xz or Python's lzma, not
# zstd), each under a device call's 64 MiB:
#   DEST/1/part.tar.xz  lib/libgac-layer.so, lib/libgac-llvm.so (found next
#                       to the layer), LLVM 19's library, libclc's NVPTX
#                       library (28 MB)
#   DEST/2/part.tar.xz  bin/llvm-spirv-15 with LLVM 15's library, the
#                       translator's and libz3 (which a CUDA machine lacks;
#                       30 MB); beside it, as files, the conformance runner's
#                       sources (DEST/2/src), the suite's raised modules, its
#                       OpenCL C with programs.txt and math.cl's module
#                       (DEST/2/il), the corpus's OpenCL C (DEST/2/corpus)
#   DEST/3/part.tar.xz  clang-15 and its headers (OpenCL C through the
#                       layer), gac-cc and scripts/cts-offline-compiler.sh
#                       (the CTS's spir-v mode), the CTS's test_basic (12 MB)
# The CUDA toolkit there gives libdevice. On a warm machine: one call
# unpacks parts 1 and 3 (run.sh DEST/1 OUT unpack; run.sh DEST/3 OUT
# unpack), the next part 2 and runs the checks (run.sh DEST/2 OUT MODE ...,
# run.sh's header lists the modes).
set -euo pipefail
build=$(realpath "$1") dest=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/1/lib" "$work/1/clc" "$work/2/lib" "$work/2/bin" "$work/3/lib" "$work/3/bin" "$dest/1" "$dest/2" "$dest/3"
cp "$build/icd/libgac-layer.so" "$build/lowering/llvm/libgac-llvm.so" "$work/1/lib/"
cp -L /usr/lib/x86_64-linux-gnu/libLLVM.so.19.1 "$work/1/lib/"
cp -L /usr/lib/clc/nvptx64--nvidiacl.bc "$work/1/clc/"
for l in libLLVM-15.so.1 libLLVMSPIRVLib.so.15 libz3.so.4; do
  cp -L "/usr/lib/x86_64-linux-gnu/$l" "$work/2/lib/"
done
cp -L /usr/bin/llvm-spirv-15 "$work/2/bin/"
# Part 3: clang-15 for OpenCL C through the layer, with its resource
# headers where it looks for them (../lib/clang/<version> of the binary).
cp -L /usr/lib/llvm-15/bin/clang "$work/3/bin/clang-15"
cp -L /usr/lib/llvm-15/lib/libclang-cpp.so.15 "$work/3/lib/"
resource=$(readlink -f "$(ls -d /usr/lib/llvm-15/lib/clang/15.* | head -n 1)")
mkdir -p "$work/3/lib/clang/$(basename "$resource")"
cp -rL "$resource/include" "$work/3/lib/clang/$(basename "$resource")/"
# gac-cc and the CTS's offline compiler script: the CTS's spir-v mode.
cp "$build/tools/gac-cc" "$work/3/bin/"
cp "$root/scripts/cts-offline-compiler.sh" "$work/3/bin/"
# The Khronos CTS's test_basic, if built here (scripts/cts.sh build), for
# its async copy subtests through the layer (run.sh PART OUT cts).
cts=${GAC_CTS_BUILD:-$root/build-cts}/test_conformance/basic/test_basic
[ -x "$cts" ] && cp "$cts" "$work/3/bin/"
# The libraries change only with gac's LLVM side or the packages: a part
# is packed again only when what it holds changed.
for part in 1 2 3; do
  sum=$(cd "$work/$part" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
  if [ "$(cat "$dest/$part/part.sum" 2>/dev/null)" != "$sum" ]; then
    tar -C "$work/$part" -cf - . | xz -9 -T2 > "$dest/$part/part.tar.xz"
    echo "$sum" > "$dest/$part/part.sum"
  fi
  cp "$root/icd/device/run.sh" "$dest/$part/"
done
# The conformance suite's runner, its raised modules (IL) and its OpenCL C
# with the list of programs and options (--source), math.cl's module (IL),
# and the corpus's OpenCL C, as files. The runners of the corpus, the math
# suite and the vendor benchmark, and the benchmark's PTX, come from
# bench/cuda/stage_device.sh's folder (run.sh's DEV argument).
rm -rf "$dest/2/il" "$dest/2/src"
mkdir -p "$dest/2/il/kernels" "$dest/2/src/conformance" "$dest/2/src/support" "$dest/2/corpus"
cp "$build"/conformance/kernels/*.raised.spv "$dest/2/il/"
cp "$root"/conformance/kernels/*.cl "$dest/2/il/kernels/"
sed "s#|$root/conformance/#|#" "$build/conformance/kernels/programs.txt" > "$dest/2/il/programs.txt"
cp "$build/conformance/math/math.spv" "$dest/2/il/"
cp "$root"/conformance/corpus/kernels/*.cl "$dest/2/corpus/"
cp "$root"/conformance/{runner.c,suite.c,suite.h,cl_device.c,cl_device.h} "$dest/2/src/conformance/"
cp "$root"/support/subprocess.[ch] "$dest/2/src/support/"
du -b "$dest"/*/part.tar.xz
