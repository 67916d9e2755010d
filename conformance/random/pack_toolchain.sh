#!/usr/bin/env bash
# pack_toolchain.sh BUILD_DIR OUT_A OUT_B: gac-cc and what it runs, for a
# machine with many cores and none of gac's Debian packages (the GPU
# machine: Ubuntu 24.04, glibc 2.39, 16 cores), so that random campaigns
# build their PTX there (device_campaign.sh) instead of on this 2-core one
# (about 12 s of CPU for 100 cases and one target, 80% of it LLVM 19).
#
# xz keeps the libraries under one call's carry (64 MiB) only in two halves:
#   OUT_A/toolchain-a.tar.xz  gac-cc, libgac-llvm.so, LLVM 19, libz3, libdevice, libclc's
#                             NVPTX and AMDGCN builds, and for the AMDGCN
#                             targets ld.lld, llvm-objdump and gac-isa-check (~36 MB)
#   OUT_B/toolchain-b.tar.xz  clang-15 (and its OpenCL C headers),
#                             llvm-spirv-15, LLVM 15                (~38 MB)
# Two calls carry them (the machine keeps /tmp while it stays warm);
# device_campaign.sh unpacks each into one folder:
#   bin/ gac-cc, gac-isa-check, ld.lld, llvm-objdump-19, llvm-spirv-15
#   lib/ the shared libraries and libraries of OpenCL C builtins
#   llvm-15/bin/clang, llvm-15/lib/clang/15.0.6/include/opencl-c*.h
#     (clang finds its headers from its own path; its RUNPATH is ../lib)
# and gac-cc is pointed at them with GAC_CLANG, GAC_LLVM_SPIRV(_FORWARD)
# GAC_LIBDEVICE, GAC_LIBCLC, GAC_LIBCLC_AMDGCN and GAC_LLD (gac-isa-check
# runs llvm-objdump-19 from PATH). The system libraries the machine already has
# (libxml2, libedit, libffi, libtinfo, libzstd, libstdc++) are not packed.
set -euo pipefail
build=$(cd "$1" && pwd) out_a=$2 out_b=$3
mkdir -p "$out_a" "$out_b"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
so() { readlink -f "$(ldconfig -p | awk -v n="$1" '$1 == n { print $NF; exit }')"; }
clang=$(readlink -f "$(command -v clang-15)")
clang_root=$(dirname "$(dirname "$clang")")
resource=$("$clang" -print-resource-dir)

mkdir -p "$tmp/a/bin" "$tmp/a/lib"
cp "$build/tools/gac-cc" "$tmp/a/bin/"
# gac-cc links no LLVM: its GPU emission opens libgac-llvm.so (docs/API.md)
cp "$build/lowering/llvm/libgac-llvm.so" "$tmp/a/lib/"
cp "$(readlink -f /usr/lib/llvm-19/lib/libLLVM.so.19.1)" "$tmp/a/lib/libLLVM.so.19.1"
cp "$(so libz3.so.4)" "$tmp/a/lib/libz3.so.4"
cp "${GAC_LIBDEVICE:-/usr/local/cuda/nvvm/libdevice/libdevice.10.bc}" "$tmp/a/lib/libdevice.10.bc"
cp /usr/lib/clc/nvptx64--nvidiacl.bc /usr/lib/clc/amdgcn--amdhsa.bc "$tmp/a/lib/"
# lld is one binary for every linker; it links as ELF when named ld.lld.
# Both find libLLVM.so.19.1 by their RUNPATH, $ORIGIN/../lib.
cp "$build/tools/gac-isa-check" "$tmp/a/bin/"
cp /usr/lib/llvm-19/bin/lld "$tmp/a/bin/ld.lld"
cp /usr/lib/llvm-19/bin/llvm-objdump "$tmp/a/bin/llvm-objdump-19"

mkdir -p "$tmp/b/bin" "$tmp/b/lib" "$tmp/b/llvm-15/bin" "$tmp/b/llvm-15/lib/clang/$(basename "$resource")/include"
cp "$(readlink -f "$(command -v llvm-spirv-15)")" "$tmp/b/bin/llvm-spirv-15"
cp "$(so libLLVMSPIRVLib.so.15)" "$tmp/b/lib/libLLVMSPIRVLib.so.15"
cp "$(so libLLVM-15.so.1)" "$tmp/b/lib/libLLVM-15.so.1"
cp "$clang" "$tmp/b/llvm-15/bin/clang"
cp "$(readlink -f "$clang_root/lib/libclang-cpp.so.15")" "$tmp/b/llvm-15/lib/libclang-cpp.so.15"
cp "$resource"/include/opencl-c*.h "$tmp/b/llvm-15/lib/clang/$(basename "$resource")/include/"

tar -C "$tmp/a" -cf - . | xz -T0 -9 > "$out_a/toolchain-a.tar.xz"
tar -C "$tmp/b" -cf - . | xz -T0 -9 > "$out_b/toolchain-b.tar.xz"
du -h "$out_a/toolchain-a.tar.xz" "$out_b/toolchain-b.tar.xz"
