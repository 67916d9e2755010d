#!/usr/bin/env bash
# Runs fuzz campaigns staged by stage.sh, on a machine with many cores and
# nothing installed. Each TARGET gets JOBS jobs (-jobs=J -workers=J, each job
# SECONDS long; a job that finds a crash stops there), all targets at once.
# Then what adds coverage to the kept corpus is merged (-set_cover_merge)
# into OUT/<target>/merged (to copy back into tests/fuzz/corpus<suffix>/),
# crashes are in OUT/<target>/crashes, and one line per target sums its jobs'
# executions (from their fuzz-<n>.log) and their gac-fuzz-stats. The merge
# stops after MERGE_SECONDS (default 120; the inputs it has not run are left
# out) so that a campaign fits a call of a machine lent for minutes.
# Usage: device_campaign.sh STAGE_DIR OUT_DIR SECONDS JOBS TARGET...
set -euo pipefail
usage="usage: device_campaign.sh STAGE_DIR OUT_DIR SECONDS JOBS TARGET..."
stage=$(realpath "${1:?$usage}") out=$(realpath -m "${2:?$usage}") seconds=${3:?$usage} jobs=${4:?$usage}
shift 4
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=8:malloc_context_size=2}
export GAC_FUZZ_STATS=1
suffix_of() { case $1 in fuzz_read_validate_write) echo "" ;; *) echo "_${1#fuzz_}" ;; esac; }
max_len_of() { case $1 in fuzz_emit_bitcode) echo 65536 ;; *) echo 4096 ;; esac; }
# fuzz_emit_bitcode (STAGE_BITCODE=1 stage.sh): LLVM 19's libraries, libclc
# and libdevice, from llvm-libs.tar.xz (xz, or Python's tarfile without it).
if [ -f "$stage/llvm-libs.tar.xz" ]; then
  if [ ! -d "$stage/lib" ]; then
    mkdir -p "$stage/lib"
    if command -v xz > /dev/null; then
      xz -dc "$stage/llvm-libs.tar.xz" | tar -C "$stage/lib" -xf -
    else
      python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
        "$stage/llvm-libs.tar.xz" "$stage/lib"
    fi
  fi
  export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export GAC_LIBCLC=$stage/lib/nvptx64--nvidiacl.bc GAC_LIBCLC_AMDGCN=$stage/lib/amdgcn--amdhsa.bc
  export GAC_LIBDEVICE=$stage/lib/libdevice.10.bc
fi
for target in "$@"; do
  w=$out/$target s=$(suffix_of "$target")
  mkdir -p "$w/corpus" "$w/crashes" "$w/logs"
  (cd "$w/logs" && "$stage/$target" -jobs="$jobs" -workers="$jobs" -dict="$stage/spirv.dict" -max_len="$(max_len_of "$target")" \
     -artifact_prefix="$w/crashes/" -max_total_time="$seconds" -print_final_stats=1 \
     "$w/corpus" "$stage/corpus$s" "$stage/seeds$s" > main.log 2>&1 || true) &
done
wait
for target in "$@"; do
  w=$out/$target s=$(suffix_of "$target")
  mkdir -p "$w/merged"
  timeout "${MERGE_SECONDS:-120}" "$stage/$target" -set_cover_merge=1 "$w/merged" "$stage/corpus$s" "$w/corpus" \
    > "$w/logs/merge.log" 2>&1 || true
  execs=$(cat "$w"/logs/fuzz-*.log | awk '/stat::number_of_executed_units/ { n += $2 } END { print n + 0 }')
  stats=$(cat "$w"/logs/fuzz-*.log | awk '/^gac-fuzz-stats:/ { i += $3; r += $5; v += $8; o += $11 }
    END { printf "inputs %d read %d valid %d output %d", i, r, v, o }')
  echo "$target: $execs executions in $jobs jobs of $seconds s ($((execs / seconds)) a second); $stats;" \
       "$(ls "$w/crashes" | wc -l) crash inputs; kept corpus $(ls "$stage/corpus$s" | wc -l) -> $(ls "$w/merged" | wc -l) inputs"
done
