#!/usr/bin/env bash
# Mutants of the copy-fence kernels (conformance/kernels/fences.cl, the
# CTS's six shapes): each kernel with its async_work_group_copy_fence
# dropped, with 1D copies and with the import a 2D copy. Every mutant must
# fail under strategy=late on PoCL (a wrong result, or late's report of a
# copy that reads what a copy in flight writes). --check-async, which knows
# local memory only, must catch the mutants whose copies share a local
# buffer (violated, or more it cannot decide than in the original); those
# sharing only global memory are listed, not required. The unmutated
# programs must pass both. Prints the table; exits 1 if a mutant escapes.
# Usage: fence_mutants.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/mutant_lib.sh"

kernels=(import_after_export_local import_after_export_global import_after_export_both
         export_after_import_local export_after_import_global export_after_import_both stream_tiles)
# Each mutant built, checked and queued for late; then late runs them all in
# one process (mutant_lib.sh) and the table is printed.
status=0 n=0
declare -a verdicts flags
for program in fences fences-2d; do
  options=()
  [ "$program" = fences-2d ] && options=(-DTWO_D)
  for kernel in original "${kernels[@]}"; do
    n=$((n + 1))
    dir=$work/m$n
    mkdir -p "$dir"
    # The fence of one kernel dropped (its own text only).
    python3 -c "
import sys
s = open(sys.argv[1]).read()
if sys.argv[2] != 'original':
    start = s.index('kernel void ' + sys.argv[2] + '(')
    end = s.find('kernel void ', start + 1)
    end = len(s) if end < 0 else end
    k = s[start:end]
    lines = [l for l in k.split('\n') if not l.strip().startswith('FENCE(')]
    assert len(lines) == len(k.split('\n')) - 1, 'the mutation did not apply'
    s = s[:start] + '\n'.join(lines) + s[end:]
open(sys.argv[3], 'w').write(s)" "$src/conformance/kernels/fences.cl" "$kernel" "$dir/$program.cl"
    "$build/tools/gac-cc" "${options[@]}" "$dir/$program.cl" -o "$dir/raised.spv"
    check_verdict "$dir/raised.spv"
    [ "$kernel" = original ] && base_undecided=$undecided
    flagged=no
    if [ "$violated" -gt 0 ] || [ "$undecided" -gt "${base_undecided:-0}" ]; then flagged=yes; fi
    if [ "$kernel" = original ] && [ "$violated" -gt 0 ]; then status=1; fi
    lower_both "$dir/raised.spv" "$dir" "$program"
    queue_late "$dir" "$program: ${kernel/original/}"
    verdicts[n]=$verdict flags[n]=$flagged
  done
done
run_queued_late

echo "| program | mutant | --check-async (module) | checker catches | late on PoCL | caught |"
echo "|---|---|---|---|---|---|"
n=0
for program in fences fences-2d; do
  for kernel in original "${kernels[@]}"; do
    n=$((n + 1))
    flagged=${flags[n]}
    late=$(late_verdict "$work/m$n")
    caught=no
    [ "$late" != PASS ] && caught=yes
    if [ "$kernel" = original ]; then
      caught="-"
      [ "$late" != PASS ] && status=1
    else
      [ $caught = yes ] || status=1
      # Copies sharing a local buffer: the checker must see it too.
      if [[ "$kernel" != *_global ]] && [ $flagged = no ]; then status=1; fi
      [[ "$kernel" == *_global ]] && [ $flagged = no ] && flagged="no (global memory only)"
    fi
    [ "$kernel" = original ] && flagged="-"
    echo "| $program | ${kernel/original/(none)} | ${verdicts[n]} | $flagged | $late | $caught |"
  done
done
exit $status
