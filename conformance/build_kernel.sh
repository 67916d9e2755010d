#!/usr/bin/env bash
# The whole pipeline, OpenCL C to SPIR 1.2 bitcode for PoCL 3.1:
#   build_kernel.sh GAC_OPT KERNEL.cl OUT.bc STRATEGY [clang options...]
# OpenCL C -> raised SPIR-V (gac-cc: clang-15, llvm-spirv-15, block order,
# generic pointers, raise) -> passes -> check -> lower -> spirv-val ->
# bitcode (llvm-spirv-15 -r). GAC_PASSES in the environment: passes to run
# before the lowering. Intermediate modules stay next to OUT.bc (OUT without
# .bc, then .raised.spv, .checked.spv, .lowered.spv) for inspection.
# GAC_LOWER_OPTIONS: options added to the lowering's (e.g. units=one,events=generic,
# what the layer asks for on PoCL 5 and later).
#
# The same in two halves, for a program lowered with several strategies
# (the front half, which runs clang, is the same for all of them):
#   build_kernel.sh --front GAC_OPT KERNEL.cl BASE [clang options...]
#       -> BASE.raised.spv, BASE.checked.spv, BASE.target-env
#   build_kernel.sh --lower GAC_OPT BASE STRATEGY OUT.bc
#       -> OUT.lowered.spv (OUT without .bc), OUT.bc
set -euo pipefail

# front GAC_OPT KERNEL.cl BASE [clang options...]
front() {
  local gac_opt=$1 cl=$2 base=$3
  shift 3
  local gac_cc
  gac_cc=$(dirname "$gac_opt")/gac-cc
  "$gac_cc" "$@" "$cl" -o "$base.raised.spv"
  # GAC_PASSES: passes before the lowering (--pipeline-loops for the pipelined
  # kernels); then the static checker: a violated wait fails the build.
  "$gac_opt" ${GAC_PASSES:-} --check-async --validate "$base.raised.spv" -o "$base.checked.spv" 2> "$base.check.log" ||
    { cat "$base.check.log" >&2; exit 1; }
  # OpenCL C 2.0 and 3.0 keep generic pointers: validate for OpenCL 2.0 there.
  local env=opencl1.2
  case " $* " in *" -cl-std=CL2.0 "* | *" -cl-std=CL3.0 "*) env=opencl2.0 ;; esac
  # SPIRV-Tools' OpenCL environments allow only the capabilities every device
  # has; Int64Atomics (64-bit atom_*, cl_khr_int64_base_atomics) is valid where
  # the device has the extension, so such modules get the core rules only.
  # (SPIRV-Tools' disassembler: a tenth of a sanitized gac-opt's start-up.)
  if spirv-dis "$base.checked.spv" | grep "OpCapability Int64Atomics$" > /dev/null; then env=spv1.0; fi
  echo "$env" > "$base.target-env"
}

# lower GAC_OPT BASE STRATEGY OUT.bc
lower() {
  local gac_opt=$1 base=$2 strategy=$3 out=$4
  local env lowered=${out%.bc}.lowered.spv
  env=$(cat "$base.target-env")
  # events=generic (PoCL 5 and later): the waits' lists become generic pointers.
  case ",${GAC_LOWER_OPTIONS:-}," in *,events=generic,*) [ "$env" = opencl1.2 ] && env=opencl2.0 ;; esac
  "$gac_opt" --lower-async-copies=opencl,strategy="$strategy"${GAC_LOWER_OPTIONS:+,$GAC_LOWER_OPTIONS} --validate --target-env="$env" \
    "$base.checked.spv" -o "$lowered"
  spirv-val --target-env "$env" "$lowered"
  llvm-spirv-15 -r --spirv-target-env=CL1.2 "$lowered" -o "$out"
}

case ${1:-} in
  --front) shift; front "$@" ;;
  --lower) shift; lower "$@" ;;
  *)
    gac_opt=$1 cl=$2 out=$3 strategy=$4
    shift 4
    front "$gac_opt" "$cl" "${out%.bc}" "$@"
    lower "$gac_opt" "${out%.bc}" "$strategy" "$out"
    ;;
esac
