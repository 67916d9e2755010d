#!/usr/bin/env bash
# build-pocl.sh POCL_CHECKOUT PREFIX: a PoCL newer than Debian 12's 3.1,
# built from a checkout (v6.0 works: tag v6.0 of pocl/pocl) against Debian
# 12's LLVM 15 and llvm-spirv-15, so that it takes SPIR-V
# (clCreateProgramWithIL), with the pthread CPU device only and the kernel
# library for this machine's CPU. Installs into PREFIX and writes
# PREFIX/vendors/pocl.icd: `OCL_ICD_VENDORS=PREFIX/vendors` makes it the
# only platform ocl-icd lists (docs/results/POCL.md has what runs on it).
# Installs the -dev packages it needs (apt-get, as scripts/install-deps.sh
# does). CI does not run this: it needs the checkout, which CI cannot fetch.
# PoCL 7 wants LLVM 17 or later, and Debian 12 has no llvm-spirv for those.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: build-pocl.sh POCL_CHECKOUT PREFIX" >&2; exit 2; }
src=$(realpath "$1") prefix=$(realpath -m "$2")
build=${GAC_POCL_BUILD:-$prefix-build}
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q llvm-15-dev libclang-15-dev libclang-cpp15-dev clang-15 \
  llvm-spirv-15 libhwloc-dev ocl-icd-dev ocl-icd-opencl-dev pkg-config > /dev/null
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DWITH_LLVM_CONFIG=/usr/lib/llvm-15/bin/llvm-config -DLLVM_SPIRV=/usr/bin/llvm-spirv-15 \
  -DENABLE_ICD=ON -DENABLE_TESTS=OFF -DENABLE_EXAMPLES=OFF -DENABLE_POCLCC=ON
cmake --build "$build"
cmake --install "$build" > /dev/null
mkdir -p "$prefix/vendors"
echo "$prefix/lib/libpocl.so.2" > "$prefix/vendors/pocl.icd"
OCL_ICD_VENDORS=$prefix/vendors clinfo 2> /dev/null | grep -E "Platform Version|IL version" | sed 's/^ */  /'
echo "build-pocl.sh: OCL_ICD_VENDORS=$prefix/vendors"
