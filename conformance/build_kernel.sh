#!/usr/bin/env bash
# build_kernel.sh GAC_OPT KERNEL.cl OUT.bc STRATEGY [clang options...]
# OpenCL C -> raised SPIR-V (gac-cc: clang-15, llvm-spirv-15, block order,
# generic pointers, raise) -> passes -> lower -> spirv-val -> SPIR 1.2
# bitcode for PoCL 3.1 (llvm-spirv-15 -r). GAC_PASSES in the environment:
# passes to run before the lowering. Intermediate modules stay next to
# OUT.bc for inspection.
set -euo pipefail
gac_opt=$1 cl=$2 out=$3 strategy=$4
shift 4
gac_cc=$(dirname "$gac_opt")/gac-cc
base=${out%.bc}
"$gac_cc" "$@" "$cl" -o "$base.raised.spv"
# GAC_PASSES: passes before the lowering (--pipeline-loops for the pipelined
# kernels); then the static checker: a violated wait fails the build.
"$gac_opt" ${GAC_PASSES:-} --check-async --validate "$base.raised.spv" -o "$base.checked.spv" 2> "$base.check.log" ||
  { cat "$base.check.log" >&2; exit 1; }
# OpenCL C 2.0 and 3.0 keep generic pointers: validate for OpenCL 2.0 there.
env=opencl1.2
case " $* " in *" -cl-std=CL2.0 "* | *" -cl-std=CL3.0 "*) env=opencl2.0 ;; esac
# SPIRV-Tools' OpenCL environments allow only the capabilities every device
# has; Int64Atomics (64-bit atom_*, cl_khr_int64_base_atomics) is valid where
# the device has the extension, so such modules get the core rules only.
if "$gac_opt" --print "$base.checked.spv" | grep "OpCapability Int64Atomics$" > /dev/null; then env=spv1.0; fi
"$gac_opt" --lower-async-copies=opencl,strategy="$strategy" --validate --target-env=$env \
  "$base.checked.spv" -o "$base.lowered.spv"
spirv-val --target-env $env "$base.lowered.spv"
llvm-spirv-15 -r --spirv-target-env=CL1.2 "$base.lowered.spv" -o "$out"
