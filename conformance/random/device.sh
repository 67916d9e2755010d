#!/usr/bin/env bash
# device.sh: on the GPU machine, in a folder staged by stage_gpu.sh (needs
# only gcc and CUDA's driver library): builds gac-random-cuda and runs every
# staged batch's PTX, printing each failure (seed, index, kernel, first
# differing byte, how to reproduce) and the counts per target. A batch whose
# run does not finish in GAC_RANDOM_TIMEOUT seconds (default 120) counts its
# cases as failed (a hang). Exit status 1 if a case failed.
set -uo pipefail
cd "$(dirname "$0")"
cuda=${CUDA_HOME:-/usr/local/cuda}
gcc -std=c17 -O2 -Wall -Wextra -I src -I "$cuda/include" src/gen.c src/emit.c src/model.c src/driver.c \
  src/runner_cuda.c -o gac-random-cuda -L "$cuda/lib64/stubs" -lcuda || exit 1
[ -e ptx.tar.gz ] && { tar xzf ptx.tar.gz && rm -f ptx.tar.gz || exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null
: > results.txt
# One batch: its failures on stdout, its RESULT line in its own file.
run_batch() {
  ptx=$1 base=${1%.ptx}
  batch=${base%%.*}.cl target=${base#*.}
  # resume.sh: a case that hangs or crashes the runner is reported (CRASH)
  # and the runner goes on from the next one.
  # a regression case (r*, regressions.txt) runs many times: some were races
  repeat=1
  case $batch in r*) repeat=${GAC_RANDOM_REGRESSION_REPEAT:-100} ;; esac
  ./resume.sh "${GAC_RANDOM_TIMEOUT:-120}" ./gac-random-cuda "$batch" "$ptx" --target "$target" --repeat "$repeat" \
    --quiet > "$base.log" 2>&1
  rc=$?
  grep "^FAIL\|^CRASH\|^     reproduce\|^BUILD-FAIL" "$base.log" | head -n 8
  line=$(grep "^random " "$base.log" | tail -n 1)
  per=$(sed -n 's/.* count=\([0-9]*\) .*/\1/p' "$batch" | head -n 1)
  if [ -z "$line" ]; then
    echo "CRASH $target $batch (exit $rc): $(tail -n 2 "$base.log" | tr '\n' ' ')"
    echo "RESULT $target $per 0 $per" > "$base.result"
  else
    sed 's/^random \([^ ]*\) .*: \([0-9]*\) cases, \([0-9]*\) passed, \([0-9]*\) failed/RESULT \1 \2 \3 \4/' <<<"$line" > "$base.result"
  fi
  # counted apart from the campaign's cases
  [ "$repeat" = 1 ] || sed -i 's/^RESULT \([^ ]*\)/RESULT \1-regressions/' "$base.result"
}
export -f run_batch
# The driver's JIT compile of each batch's PTX dominates: GAC_RANDOM_JOBS
# batches at once (default 8) share the GPU.
ls [br]*.sm*.ptx 2> /dev/null | xargs -r -P "${GAC_RANDOM_JOBS:-8}" -I{} bash -c 'run_batch {}'
# and the AMDGCN batches device_campaign.sh built and checked
cat [br]*.sm*.result b*.gfx*.result >> results.txt 2> /dev/null
printf "%-8s %8s %8s %8s\n" target cases passed failed
awk '{ n[$2] += $3; p[$2] += $4; f[$2] += $5 } END { for (t in n) printf "%-8s %8d %8d %8d\n", t, n[t], p[t], f[t] }' results.txt | sort
[ -s build-failures.txt ] && echo "batches gac could not build (here): $(wc -l < build-failures.txt)"
! awk '$5 > 0 { bad = 1 } END { exit !bad }' results.txt
