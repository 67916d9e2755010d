#!/usr/bin/env bash
# amdgcn_isa_check.sh GAC_ISA_CHECK DIR EXPECTED [PROGRAM:N ...]: gac-isa-check
# on every code object conformance.amdgcn wrote to DIR (<program>.<gfx>.hsaco,
# EXPECTED of them): no wait and no LDS read may be violated, and every one
# must be proved, except that PROGRAM may have exactly N LDS reads that
# cannot be decided (a known, explained case: docs/AMDGCN.md). A different
# count either way fails, so that the list stays true.
# GAC_ISA_CHECKED_IN=DIR2: a code object byte for byte the same as DIR2's of
# that name, which conformance.amdgcn.isa-check checks, is not analysed again
# (the pingpong build of a kernel that cannot ping-pong is such a copy).
set -uo pipefail
check=$1 dir=$2 expected=$3
shift 3
declare -A allowed=()
for a in "$@"; do allowed[${a%%:*}]=${a#*:}; done
shopt -s nullglob
objects=("$dir"/*.hsaco)
if [ ${#objects[@]} -ne "$expected" ]; then
  echo "FAIL: ${#objects[@]} code objects in $dir, expected $expected"
  exit 1
fi
failed=0 same=0
for code in "${objects[@]}"; do
  base=$(basename "$code" .hsaco)
  program=${base%.*} cpu=${base##*.}
  if [ -n "${GAC_ISA_CHECKED_IN:-}" ] && cmp -s "$code" "$GAC_ISA_CHECKED_IN/$base.hsaco"; then
    same=$((same + 1))
    continue
  fi
  out=$("$check" --mcpu="$cpu" "$code")
  rc=$?
  summary=$(tail -n 1 <<<"$out")
  undecided=$(sed -n 's/.*LDS reads: [0-9]* proved, [0-9]* violated, \([0-9]*\) cannot decide.*/\1/p' <<<"$summary")
  waits_undecided=$(sed -n 's/.*waits: [0-9]* proved, [0-9]* violated, \([0-9]*\) cannot decide.*/\1/p' <<<"$summary")
  want=${allowed[$program]:-0}
  if [ "$rc" -ne 0 ] || [ "$waits_undecided" != 0 ] || [ "$undecided" != "$want" ]; then
    echo "FAIL $program $cpu (exit $rc, $undecided reads undecided, expected $want):"
    echo "$out"
    failed=1
  else
    echo "ok   $summary"
  fi
done
[ "$same" -eq 0 ] || echo "$same code objects the same as $GAC_ISA_CHECKED_IN's (checked there)"
exit $failed
