#!/usr/bin/env bash
# sanitized_emit.sh GAC_OPT KERNEL_DIR AMDGCN_DIR PROGRAM[:ws]...: the GPU
# emitters of a sanitized gac-opt (this tree's) over the named conformance
# programs, each output compared byte for byte with the artefact the tree
# made with its unsanitized GPU tools (GAC_GPU_TOOLS_DIR, CMakeLists.txt):
# PTX for sm_80 and sm_90 (and sm_90 warp-specialised for PROGRAM:ws, a
# pipelined one) in KERNEL_DIR, an AMDGCN code object for gfx942 in AMDGCN_DIR. So
# ASan and UBSan still watch gac's PTX and AMDGCN lowering on real
# programs, and the two builds must agree. Exit 1 on an error or a
# difference.
set -euo pipefail
gac_opt=$1 kernels=$2 amdgcn=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 compared=0
# same NAME OUT EXPECTED ARGS...: runs gac-opt ARGS -o OUT, compares with EXPECTED.
same() {
  local name=$1 out=$2 expected=$3
  shift 3
  if [ ! -f "$expected" ]; then
    echo "FAIL $name: no $expected to compare with"
    failed=1
    return
  fi
  if ! "$gac_opt" "$@" -o "$out" 2> "$out.log"; then
    echo "FAIL $name: gac-opt $*"
    cat "$out.log"
    failed=1
  elif ! cmp -s "$out" "$expected"; then
    echo "FAIL $name: differs from $expected"
    failed=1
  else
    echo "ok   $name"
    compared=$((compared + 1))
  fi
}
for arg in "$@"; do
  program=${arg%:ws}
  checked=$kernels/$program.checked.spv
  for sm in 80 90; do
    same "$program sm_$sm" "$work/$program.sm$sm.ptx" "$kernels/$program.sm$sm.ptx" --emit=ptx --sm=$sm "$checked"
  done
  # PROGRAM:ws, a pipelined program: its warp-specialised build, from the
  # raised module as the tree's is.
  if [ "$arg" != "$program" ]; then
    same "$program sm_90 warp-specialised" "$work/$program.sm90ws.ptx" "$kernels/$program.sm90ws.ptx" \
      --pipeline-loops=warp-specialize --check-async --emit=ptx --sm=90 "$kernels/$program.raised.spv"
  fi
  same "$program gfx942" "$work/$program.gfx942.hsaco" "$amdgcn/$program.gfx942.hsaco" --emit=amdgcn --mcpu=gfx942 "$checked"
done
echo "$compared outputs of the sanitized gac-opt equal the unsanitized tools'"
exit $failed
