#!/usr/bin/env bash
# build_batch.sh BIN BATCH.cl TARGET OUT: one batch of random kernels
# (gac-random-gen) built by gac for one target. BIN: the folder with
# gac-cc and gac-opt (and gac-isa-check). TARGET:
#   lines|cooperative|serial|late|leader|auto  OUT.bc, SPIR 1.2 bitcode for PoCL:
#       gac-cc --pipeline-loops, gac-opt --lower-async-copies=opencl,strategy=TARGET
#       --validate, spirv-val, llvm-spirv-15 -r (as conformance/build_kernel.sh,
#       without its --check-async: that is the target `check`)
#   check        gac-opt --check-async on the pipelined module: OUT.check.log;
#                fails if a read is "violated" (every case is correct)
#   sm80|sm90|sm90ws  OUT.ptx (gac-cc --emit=ptx; sm90ws: --sm=90,warp-specialize)
#   gfx90a|gfx942     OUT.hsaco (gac-cc --emit=amdgcn), then gac-isa-check:
#                fails if a wait or LDS read is violated
# GAC_LOWER_OPTIONS: options added to the OpenCL lowering's (e.g. units=one,events=generic).
# The raised module is made once per batch (BATCH.raised.spv, reused).
# Exit status 0: built (and checked); else the log says why.
set -uo pipefail
bin=$1 cl=$2 target=$3 out=$4
raised=${cl%.cl}.raised.spv
if [ ! -s "$raised" ] || [ "$raised" -ot "$cl" ]; then
  "$bin/gac-cc" --pipeline-loops "$cl" -o "$raised.tmp" 2> "$raised.log" || { cat "$raised.log"; rm -f "$raised.tmp"; exit 1; }
  mv "$raised.tmp" "$raised"
fi
# events=generic (PoCL 5 and later) makes the waits' lists generic pointers,
# an OpenCL 2.0 device's capability.
env=opencl1.2
case ",${GAC_LOWER_OPTIONS:-}," in *,events=generic,*) env=opencl2.0 ;; esac
case $target in
lines | cooperative | serial | late | leader | auto)
  "$bin/gac-opt" --lower-async-copies=opencl,strategy="$target"${GAC_LOWER_OPTIONS:+,$GAC_LOWER_OPTIONS} --validate --target-env="$env" "$raised" \
    -o "$out.lowered.spv" && spirv-val --target-env "$env" "$out.lowered.spv" &&
    llvm-spirv-15 -r --spirv-target-env=CL1.2 "$out.lowered.spv" -o "$out.bc" && rm -f "$out.lowered.spv"
  ;;
check)
  "$bin/gac-opt" --check-async "$raised" -o /dev/null > "$out.check.log" 2>&1
  rc=$?
  grep -c "CheckAsync.Violated" "$out.check.log" > /dev/null && { grep "CheckAsync.Violated" "$out.check.log"; exit 1; }
  exit $rc
  ;;
sm80 | sm90 | sm90ws)
  sm=${target#sm}
  [ "$sm" = 90ws ] && sm=90,warp-specialize
  "$bin/gac-cc" --pipeline-loops --emit=ptx --sm="$sm" "$cl" -o "$out.ptx"
  ;;
gfx90a | gfx942)
  "$bin/gac-cc" --pipeline-loops --emit=amdgcn --mcpu="$target" "$cl" -o "$out.hsaco" &&
    "$bin/gac-isa-check" --mcpu="$target" "$out.hsaco" > "$out.isa.log" 2>&1 ||
    { cat "$out.isa.log" 2> /dev/null; exit 1; }
  ;;
*)
  echo "build_batch.sh: unknown target $target" >&2
  exit 2
  ;;
esac
