#!/usr/bin/env bash
# campaign.sh BUILD_DIR OUT_DIR SEED BATCHES [PER_BATCH [TARGET...]]
# A random campaign here: BATCHES batches of PER_BATCH (default 100) cases
# of SEED (batch b holds cases b*PER_BATCH ...), each built by gac for every
# TARGET and, for PoCL targets, run; JOBS (default nproc) builds and runs at
# a time. Prints per target: cases run, passed, failed, and batches (with
# their cases) lost to a gac build failure. Targets (default: all but the
# PTX ones, which stage_gpu.sh prepares for the GPU machine):
#   lines cooperative serial late leader auto   PoCL, from gac's lowering
#   layer      PoCL through the gac layer, the batch's source to clCreateProgramWithSource
#   check      gac-opt --check-async: a "violated" read (the cases are correct) fails the batch
#   gfx90a gfx942   AMDGCN code objects + gac-isa-check (built and checked, not run)
#   sm80 sm90 sm90ws  PTX (built only)
# GAC_RANDOM_GEN_OPTS: options for gac-random-gen (e.g. --select-events).
# GAC_RANDOM_POCL_WG: PoCL's work-group method (default loops, as the other
# PoCL tests; `default`: PoCL's own choice, what users get).
# Each failure's line names the seed, index, file and a command to reproduce
# it (repro.sh); OUT_DIR/<batch>.<target>.log keep the details.
set -uo pipefail
build=$(cd "$1" && pwd) out=$2 seed=$3 batches=$4 per=${5:-100}
shift $(($# < 5 ? $# : 5))
targets=${*:-lines cooperative serial late leader auto layer check gfx90a gfx942}
here=$(cd "$(dirname "$0")" && pwd)
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
gen=$build/conformance/random/gac-random-gen
for ((b = 0; b < batches; b++)); do
  [ -s "$out/b$b.cl" ] || "$gen" ${GAC_RANDOM_GEN_OPTS:-} "$seed" $((b * per)) "$per" "$out/b$b.cl" || exit 1
  # the raised module, once per batch, before the targets share it
  echo "$b"
done | xargs -P "$jobs" -I{} sh -c "'$build/tools/gac-cc' --pipeline-loops '$out/b{}.cl' -o '$out/b{}.raised.spv' 2> '$out/b{}.raised.log' || true"

# One job: build batch $1 for target $2, run it; its last line is
# RESULT <target> <batch> <cases> <passed> <failed> <lost>
job() {
  local b=$1 t=$2 base=$out/b$1 log=$out/b$1.$2.log
  local run=$build/conformance/random/gac-random-cl
  export POCL_CACHE_DIR=$out/pocl-cache/b$b.$t POCL_WORK_GROUP_METHOD=${GAC_RANDOM_POCL_WG:-loops}
  [ "$POCL_WORK_GROUP_METHOD" = default ] && unset POCL_WORK_GROUP_METHOD
  case $t in
  layer)
    OPENCL_LAYERS=$build/icd/libgac-layer.so GAC_LAYER_STRATEGY=auto GAC_LAYER_CACHE_DIR=off \
      "$here/resume.sh" "${GAC_RANDOM_TIMEOUT:-600}" "$run" "$base.cl" --source --target layer --quiet > "$log" 2>&1
    ;;
  lines | cooperative | serial | late | leader | auto)
    if "$here/build_batch.sh" "$build/tools" "$base.cl" "$t" "$base.$t" > "$log" 2>&1; then
      "$here/resume.sh" "${GAC_RANDOM_TIMEOUT:-600}" "$run" "$base.cl" --bc "$base.$t.bc" --target "$t" --quiet >> "$log" 2>&1
      rm -f "$base.$t.bc"
    else
      echo "BUILD-FAIL $t $base.cl" >> "$log"
    fi
    ;;
  *)
    if "$here/build_batch.sh" "$build/tools" "$base.cl" "$t" "$base.$t" > "$log" 2>&1; then
      echo "random $t $base.cl: $per cases, $per passed, 0 failed" >> "$log"
    else
      echo "BUILD-FAIL $t $base.cl" >> "$log"
    fi
    ;;
  esac
  rm -rf "$POCL_CACHE_DIR"
  if grep -q "^BUILD-FAIL" "$log"; then
    echo "RESULT $t $b 0 0 0 $per"
  elif line=$(grep "^random " "$log" | tail -n 1) && [ -n "$line" ]; then
    local n p f late=0
    read -r n p f <<<"$(sed 's/.*: \([0-9]*\) cases, \([0-9]*\) passed, \([0-9]*\) failed/\1 \2 \3/' <<<"$line")"
    grep -q "gac late: " "$log" && late=1 && echo "LATE $t b$b: an access in flight (gac late), see $log"
    grep "^CRASH " "$log"
    echo "RESULT $t $b $n $p $f 0"
  else
    echo "CRASH $t b$b: the runner stopped early, see $log"
    echo "RESULT $t $b 0 0 0 $per"
  fi
}
export -f job
export out build here per
for ((b = 0; b < batches; b++)); do
  for t in $targets; do echo "$b $t"; done
done | xargs -P "$jobs" -L 1 bash -c 'job "$0" "$1"' > "$out/results.txt"
# The failures, then the counts.
grep -h "^FAIL\|^CRASH\|^     reproduce" "$out"/b*.log 2> /dev/null | head -n 60
grep -h "^LATE\|^CRASH" "$out/results.txt"
for b in $(seq 0 $((batches - 1))); do
  for t in $targets; do
    grep -q "^BUILD-FAIL" "$out/b$b.$t.log" 2> /dev/null && echo "gac build failure: $t batch $out/b$b.cl (log $out/b$b.$t.log)"
  done
done
printf "%-12s %8s %8s %8s %14s\n" target cases passed failed build-lost
for t in $targets; do
  awk -v t="$t" '$1 == "RESULT" && $2 == t { n += $4; p += $5; f += $6; l += $7; lb += ($7 > 0) }
    END { printf "%-12s %8d %8d %8d %6d (%d b.)\n", t, n, p, f, l, lb }' "$out/results.txt"
done
! grep -q "^RESULT [^ ]* [0-9]* [0-9]* [0-9]* [1-9]\|^RESULT [^ ]* [0-9]* [0-9]* [0-9]* [0-9]* [1-9]" "$out/results.txt"
