#!/usr/bin/env bash
# Mutants of the event and queue double-buffered kernels (conformance/kernels/compute.cl):
# a wait count one too lax, a dropped wait, a read moved before its wait;
# and of a chain of copies on one event (conformance/kernels/chains.cl): its
# one wait dropped.
# Each must be caught by strategy=late on PoCL (a wrong result, or a report
# of an access to memory in flight) or by
# --check-async (violated, or cannot decide); the unmutated kernels must
# pass both, and late must print a report for every mutant. Prints the
# table; exits 1 if a mutant escapes both or goes unreported, or if the
# original fails.
# Usage: mutants.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# name | rows (GAC_CONFORMANCE_ONLY) | kernel to mutate | python transform of its text k | program (compute if none)
mutants=(
  "original|dbuf|double_buffer|k"
  "queue: wait(0, 1) -> wait(0, 2) (one too lax)|queued_dbuf|queued_double_buffer|k.replace('gac_async_wait(0, 1);', 'gac_async_wait(0, 2);')"
  "queue: last wait(0, 0) -> wait(0, 1) (one too lax)|queued_dbuf|queued_double_buffer|k.replace('gac_async_wait(0, 0);', 'gac_async_wait(0, 1);')"
  "queue: wait(0, 1) dropped|queued_dbuf|queued_double_buffer|k.replace('gac_async_wait(0, 1);', '')"
  "queue: last wait dropped|queued_dbuf|queued_double_buffer|k.replace('gac_async_wait(0, 0);', '')"
  "queue: read moved before its wait|queued_dbuf|queued_double_buffer|k.replace('      gac_async_wait(0, 1);\n', '').replace('    sum_rows(cur, out + (get_group_id(0) * count + i) * rows, rows, cols);\n', '    sum_rows(cur, out + (get_group_id(0) * count + i) * rows, rows, cols);\n    if (i + 1 < count)\n      gac_async_wait(0, 1);\n')"
  "events: wait dropped|double_buffer|double_buffer|k.replace('    wait_group_events(1, &e);\n', '')"
  "events: wait(1) -> wait(0) (one too lax)|double_buffer|double_buffer|k.replace('wait_group_events(1, &e);', 'wait_group_events(0, &e);')"
  "events: read moved before its wait|double_buffer|double_buffer|k.replace('    wait_group_events(1, &e);\n', '').replace('    sum_rows(cur, out + (get_group_id(0) * count + i) * rows, rows, cols);\n', '    sum_rows(cur, out + (get_group_id(0) * count + i) * rows, rows, cols);\n    wait_group_events(1, &e);\n')"
  "chain out, out, in: its wait dropped|chain|chain_out_in|k.replace('  wait_group_events(1, &e);\n', '')|chains"
)

. "$(dirname "$0")/mutant_lib.sh"

# Each mutant built, checked and queued for late; then late runs them all in
# one process (mutant_lib.sh) and the table is printed.
status=0 n=0
declare -a verdicts flags coops
for m in "${mutants[@]}"; do
  n=$((n + 1))
  IFS='|' read -r name rows kernel transform program <<< "$m"
  program=${program:-compute}
  cl=$src/conformance/kernels/$program.cl
  dir=$work/m$n
  mkdir -p "$dir"
  # The transform applies to the kernel's own text only.
  python3 -c "
import sys
s = open(sys.argv[1]).read()
start = s.index('kernel void ' + sys.argv[3] + '(')
end = s.find('kernel void ', start + 1)
end = len(s) if end < 0 else end
k = s[start:end]
t = $transform
assert t != k or sys.argv[2] == 'original', 'the mutation did not apply'
open(sys.argv[4], 'w').write(s[:start] + t + s[end:])" "$cl" "$name" "$kernel" "$dir/$program.cl"
  "$build/tools/gac-cc" "$dir/$program.cl" -o "$dir/raised.spv"
  check_verdict "$dir/raised.spv"
  # The checker catches a mutant when it finds a violation, or cannot decide
  # more reads than in the original (which it already cannot all decide).
  [ "$name" = original ] && base_undecided=$undecided
  flagged=no
  if [ "$violated" -gt 0 ] || [ "$undecided" -gt "${base_undecided:-0}" ]; then flagged=yes; fi
  if [ "$name" = original ] && [ "$violated" -gt 0 ]; then status=1; fi
  lower_both "$dir/raised.spv" "$dir" "$program" "$([ "$name" = original ] && echo yes)"
  coops[n]=$(run_cooperative "$dir" "$rows" "$([ "$name" = original ] && echo yes)")
  queue_late "$dir" "$rows"
  verdicts[n]=$verdict flags[n]=$flagged
done
run_queued_late

echo "| mutant | --check-async (module) | checker catches | cooperative on PoCL | late on PoCL | caught |"
echo "|---|---|---|---|---|---|"
n=0
for m in "${mutants[@]}"; do
  n=$((n + 1))
  IFS='|' read -r name rows kernel transform program <<< "$m"
  flagged=${flags[n]} coop=${coops[n]}
  late=$(late_verdict "$work/m$n")
  judge "$([ "$name" = original ] && echo yes)" "$late" "$coop" "$flagged"
  [ "$name" = original ] && flagged="-"
  echo "| $name | ${verdicts[n]} | $flagged | $coop | $late | $caught |"
done
exit $status
