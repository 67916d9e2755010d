#!/usr/bin/env bash
# resume.sh SECONDS RUNNER ARGS...: runs a random runner (gac-random-cl,
# gac-random-cuda) over its batch so that one case that crashes or hangs
# the runner costs that case, not the rest of the batch. Each run names the
# case it starts (GAC_RANDOM_TRACE); when a run ends without its summary
# line (a crash, or SECONDS passed: a hang), the case it was running is
# reported as
#   CRASH <target> seed=S index=I: the runner stopped (exit N) ...
# and the runner goes on from the next case (--from). The last line is the
# batch's summary, as the runner prints it, with such cases counted failed:
#   random <target> <batch>: C cases, P passed, F failed
# Exit status: 0 if every case passed, else 1.
set -uo pipefail
seconds=$1
shift
target=? batch=
for ((i = 2; i <= $#; i++)); do
  [ "${!i}" = --target ] && { j=$((i + 1)); target=${!j}; }
done
batch=$2
header=$(head -n 1 "$batch")
seed=$(sed -n 's/.*gac-random seed=\([0-9]*\) .*/\1/p' <<<"$header")
opts=
[[ $header == *" select=1"* ]] && opts+=" --select-events"
[[ $header == *" loops=0"* ]] && opts+=" --no-loops"
[[ $header == *" reqd=0"* ]] && opts+=" --no-reqd"
[[ $header == *" noinline=1"* ]] && opts+=" --noinline"
[[ $header == *" wstyped=1"* ]] && opts+=" --ws-typed"
cases=0 passed=0 failed=0 from=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while :; do
  GAC_RANDOM_TRACE=1 timeout "$seconds" "$@" "${from[@]}" > "$log" 2>&1
  rc=$?
  grep -v "^running \|^random " "$log"
  if line=$(grep "^random " "$log" | tail -n 1) && [ -n "$line" ]; then
    read -r n p f <<<"$(sed 's/.*: \([0-9]*\) cases, \([0-9]*\) passed, \([0-9]*\) failed/\1 \2 \3/' <<<"$line")"
    cases=$((cases + n)) passed=$((passed + p)) failed=$((failed + f))
    break
  fi
  last=$(grep "^running " "$log" | tail -n 1)
  index=${last##* k}
  if [ -z "$last" ]; then
    echo "CRASH $target $batch: the runner stopped (exit $rc) before its first case; the batch is not run"
    exit 1
  fi
  ran=$(grep -c "^running " "$log")
  fails=$(grep -c "^FAIL " "$log")
  # the cases before it ran to the end: count them as the runner would have
  cases=$((cases + ran)) passed=$((passed + ran - 1 - fails)) failed=$((failed + fails + 1))
  why=crashed
  [ "$rc" -eq 124 ] && why="did not finish in $seconds s (a hang)"
  echo "CRASH $target seed=$seed index=$index file=$batch kernel=k$index: the runner $why (exit $rc)"
  echo "     reproduce: conformance/random/repro.sh <build-dir> $target $seed $index$opts"
  from=(--from $((index + 1)))
done
echo "random $target $batch: $cases cases, $passed passed, $failed failed"
[ "$failed" -eq 0 ]
