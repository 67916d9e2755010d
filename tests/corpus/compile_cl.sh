#!/usr/bin/env bash
# Compiles one OpenCL C kernel to SPIR-V with clang-15 and llvm-spirv-15.
#
# Usage: compile_cl.sh CLANG LLVM_SPIRV TRIPLE IN.cl OUT.spv [CLANG_FLAGS...] [-- LLVM_SPIRV_FLAGS...]
#   TRIPLE: spir (Physical32) or spir64 (Physical64); CLANG_FLAGS: -O2, -O0, -g flags...
set -euo pipefail

if [[ $# -lt 5 ]]; then
  echo "usage: $0 CLANG LLVM_SPIRV TRIPLE IN.cl OUT.spv [CLANG_FLAGS...] [-- LLVM_SPIRV_FLAGS...]" >&2
  exit 2
fi
clang=$1 llvm_spirv=$2 triple=$3 in=$4 out=$5
shift 5
clang_flags=()
while [[ $# -gt 0 && $1 != -- ]]; do
  clang_flags+=("$1")
  shift
done
[[ $# -gt 0 ]] && shift # the --

bc=$out.bc
"$clang" -cc1 -triple "$triple-unknown-unknown" -cl-std=CL1.2 -emit-llvm-bc \
  -finclude-default-header -no-opaque-pointers "${clang_flags[@]}" "$in" -o "$bc"
if ! "$llvm_spirv" "$@" "$bc" -o "$out" 2>"$out.log"; then
  cat "$out.log" >&2
  if grep -qi freeze "$out.log"; then
    echo "$in: clang-15 ${clang_flags[*]} produced an LLVM 'freeze', which llvm-spirv-15" \
      "cannot translate (typically an index computed with both / and % of one value):" \
      "rewrite the kernel or compile it at -O0." >&2
  fi
  rm -f "$out"
  exit 1
fi
rm -f "$out.log"
