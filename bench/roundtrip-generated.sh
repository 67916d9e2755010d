#!/bin/sh
# Generates a module of 200000 instructions for each addressing model and
# checks that gac-opt validates it, writes it back byte for byte, prints text
# that gac-as assembles to the same bytes, and that spirv-val accepts it;
# then that its OpenCL lowering is valid and, its copies going through
# shared helpers, at most 1.2 times the input's size (inlined: 4.1 times).
# Usage: roundtrip-generated.sh GEN GAC_OPT GAC_AS SPIRV_VAL WORK_DIR
set -eu
if [ $# -ne 5 ]; then
  echo "usage: $0 GEN GAC_OPT GAC_AS SPIRV_VAL WORK_DIR" >&2
  exit 2
fi
gen=$1 gac_opt=$2 gac_as=$3 spirv_val=$4 work=$5
mkdir -p "$work"

for bits in 32 64; do
  module=$work/generated$bits.spv
  "$gen" --instructions 200000 --addressing "$bits" -o "$module"
  "$gac_opt" --validate "$module"
  "$gac_opt" "$module" -o "$work/written$bits.spv"
  cmp "$module" "$work/written$bits.spv"
  "$gac_opt" --print "$module" | "$gac_as" - -o "$work/assembled$bits.spv"
  cmp "$module" "$work/assembled$bits.spv"
  "$spirv_val" "$module"
  "$gac_opt" --lower-async-copies=opencl "$module" -o "$work/lowered$bits.spv"
  "$spirv_val" --target-env opencl1.2 "$work/lowered$bits.spv"
  in=$(wc -c < "$module") out=$(wc -c < "$work/lowered$bits.spv")
  if [ $((out * 5)) -gt $((in * 6)) ]; then
    echo "Physical$bits: the lowered module is $out bytes, more than 1.2 x $in" >&2
    exit 1
  fi
  echo "Physical$bits: valid, and identical after gac-opt -o and gac-opt --print | gac-as; lowered: $out bytes from $in"
done
