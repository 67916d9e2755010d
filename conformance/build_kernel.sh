#!/usr/bin/env bash
# build_kernel.sh GAC_OPT INCLUDE_DIR KERNEL.cl OUT.bc STRATEGY [clang options...]
# OpenCL C -> SPIR-V (clang-15, llvm-spirv-15) -> raise -> lower -> spirv-val
# -> SPIR 1.2 bitcode for PoCL 3.1 (llvm-spirv-15 -r). GAC_PASSES in the
# environment: passes to run before the lowering. Intermediate modules
# stay next to OUT.bc for inspection.
set -euo pipefail
gac_opt=$1 include=$2 cl=$3 out=$4 strategy=$5
shift 5
base=${out%.bc}
clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header \
  -include "$include/gac/cl/extended_async_copies.h" -no-opaque-pointers -O2 "$@" "$cl" -o "$base.clang.bc"
if ! llvm-spirv-15 --spirv-max-version=1.0 "$base.clang.bc" -o "$base.spv" 2> "$base.llvm-spirv.log"; then
  cat "$base.llvm-spirv.log" >&2
  # clang-15 -O2 can turn an index computed with / and % of one value into an
  # LLVM freeze, which llvm-spirv-15 cannot translate.
  if grep -qi freeze "$base.llvm-spirv.log"; then
    echo "$cl: llvm-spirv-15 cannot translate LLVM 'freeze' (made by clang-15 -O2 from / and % of one value); compute the index differently or build with -O0" >&2
  fi
  exit 1
fi
# llvm-spirv-15 puts some loops' blocks before their dominators: order them
# first. OpenCL C 2.0/3.0 passes builtins generic pointers, which PoCL 3.1's
# library has no overloads for: give them the pointers they were cast from.
"$gac_opt" --sort-blocks --specialize-generic-pointers "$base.spv" -o "$base.sorted.spv"
"$gac_opt" --raise-async-copies --validate "$base.sorted.spv" -o "$base.raised.spv"
# GAC_PASSES: passes before the lowering (--pipeline-loops for the pipelined
# kernels); then the static checker: a violated wait fails the build.
"$gac_opt" ${GAC_PASSES:-} --check-async --validate "$base.raised.spv" -o "$base.checked.spv" 2> "$base.check.log" ||
  { cat "$base.check.log" >&2; exit 1; }
# OpenCL C 2.0 and 3.0 keep generic pointers: validate for OpenCL 2.0 there.
env=opencl1.2
case " $* " in *" -cl-std=CL2.0 "* | *" -cl-std=CL3.0 "*) env=opencl2.0 ;; esac
"$gac_opt" --lower-async-copies=opencl,strategy="$strategy" --validate --target-env=$env \
  "$base.checked.spv" -o "$base.lowered.spv"
spirv-val --target-env $env "$base.lowered.spv"
llvm-spirv-15 -r --spirv-target-env=CL1.2 "$base.lowered.spv" -o "$out"
