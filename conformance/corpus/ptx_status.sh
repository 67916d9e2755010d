#!/usr/bin/env bash
# ptx_status.sh GAC_OPT SM IN.spv OUT.ptx OUT.status [PTXAS]
# gac-opt --emit=ptx for one corpus entry and variant. Writes one line to
# OUT.status: "<entry.variant> sm_<SM> OK", or "... FAIL <gac-opt's first
# diagnostic>" (then no OUT.ptx). Never fails itself: the PTX path is still
# growing, and a refused builtin must not break the build.
# ptx_status.sh --summary OUT.txt STATUS...: the lines gathered, and a count.
if [ "$1" = --summary ]; then
  out=$2
  shift 2
  cat "$@" > "$out"
  echo "$(grep -c ' OK$' "$out") of $# OK" >> "$out"
  exit 0
fi
gac_opt=$1 sm=$2 in=$3 out=$4 status=$5 ptxas=${6:-}
name=$(basename "$out" .sm$sm.ptx)
rm -f "$out"
# OUT.ptx for CUDA; OUT with .nvcl.ptx for NVIDIA's OpenCL (--ptx-abi=opencl).
nvcl=${out%.ptx}.nvcl.ptx
rm -f "$nvcl"
# sm_80, the async variant: also OUT with .l1.sm80.nvcl.ptx, 16-byte
# cp.async units through L1 (--ptx-cp-async-l1), for the vendor benchmark
# (bench/nvidia_opencl/vendor_corpus.c; the plain variant copies nothing).
l1=${out%.sm$sm.ptx}.l1.sm$sm.nvcl.ptx
rm -f "$l1"
if log=$("$gac_opt" --emit=ptx --sm="$sm" "$in" -o "$out" 2>&1) &&
  log=$("$gac_opt" --emit=ptx --sm="$sm" --ptx-abi=opencl "$in" -o "$nvcl" 2>&1) &&
  { [ "$sm" != 80 ] || [ "${name##*.}" != async ] || log=$("$gac_opt" --emit=ptx --sm="$sm" --ptx-abi=opencl --ptx-cp-async-l1 "$in" -o "$l1" 2>&1); }; then
  result=OK
  if [ -n "$ptxas" ] && ! log=$("$ptxas" -arch=sm_$([ "$sm" = 90 ] && echo 90a || echo "$sm") "$out" -o /dev/null 2>&1); then
    result="FAIL ptxas: $(printf '%s' "$log" | head -n 1)"
  fi
else
  result="FAIL $(printf "%s" "$log" | grep -m 1 . | sed "s|^$in: ||" || echo "gac-opt failed")"
fi
echo "$name sm_$sm $result" > "$status"
exit 0
