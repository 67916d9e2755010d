#!/usr/bin/env bash
# amdgcn_check.sh GAC_OPT OUT_DIR EXPECTED MODULE.spv...: every conformance
# program to an HSA code object for gfx90a and gfx942 (gac-opt
# --emit=amdgcn); each must be an AMDGPU shared object whose metadata lists
# every kernel of the module (its OpEntryPoint Kernel names). No AMD GPU
# runs them here (docs/AMDGCN.md). EXPECTED: how many modules there must be.
# GAC_EMIT (default amdgcn): the output kind, e.g. amdgcn,pingpong.
set -uo pipefail
gac_opt=$1 out=$2 expected=$3 emit=${GAC_EMIT:-amdgcn}
shift 3
if [ $# -ne "$expected" ]; then
  echo "FAIL: $# modules, expected $expected"
  exit 1
fi
mkdir -p "$out"
failed=0
for spv in "$@"; do
  name=$(basename "$spv" .checked.spv)
  kernels=$(spirv-dis "$spv" | sed -n 's/.*OpEntryPoint Kernel %[A-Za-z0-9_]* "\([^"]*\)".*/\1/p')
  for cpu in gfx90a gfx942; do
    code="$out/$name.$cpu.hsaco"
    if ! "$gac_opt" --emit="$emit" --mcpu=$cpu "$spv" -o "$code"; then
      echo "FAIL $name $cpu: gac-opt"
      failed=1
      continue
    fi
    notes=$(llvm-readelf-19 -h --notes "$code")
    missing=""
    grep -q "Machine: *EM_AMDGPU" <<<"$notes" || missing="EM_AMDGPU"
    grep -q "amdhsa.target: *amdgcn-amd-amdhsa--$cpu" <<<"$notes" || missing="$missing target"
    for k in $kernels; do
      grep -q "\.name: *$k\$" <<<"$notes" || missing="$missing $k"
    done
    if [ -n "$missing" ]; then
      echo "FAIL $name $cpu: missing$missing"
      failed=1
    else
      echo "ok   $name $cpu: $(wc -w <<<"$kernels") kernels, $(stat -c %s "$code") bytes"
    fi
  done
done
exit $failed
