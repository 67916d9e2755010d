#!/usr/bin/env bash
# Continues the fuzzing campaign of one target (README.md): runs from its
# kept corpus and the seeds, writes new inputs to a work copy, then merges
# what adds coverage back into the kept corpus, minimised. Crashes land in
# BUILD/tests/fuzz/crashes/. The last lines give the executions, the rate,
# the features and how many inputs were valid modules (GAC_FUZZ_STATS).
# Usage: tests/fuzz/campaign.sh BUILD_DIR SECONDS [JOBS] [TARGET]
#   TARGET: fuzz_read_validate_write (the default), fuzz_lower_gpu, fuzz_emit_gpu
#   or fuzz_emit_bitcode
# GAC_FUZZ_MUTATOR=bytes in the environment: libFuzzer's byte mutations only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: campaign.sh BUILD_DIR SECONDS [JOBS] [TARGET]"
build=$(realpath "${1:?$usage}")
seconds=${2:?$usage}
jobs=${3:-1}
target=${4:-fuzz_read_validate_write}
# Each target has its kept corpus and seeds: corpus/ and seeds/ for the first,
# corpus_emit_gpu/ and seeds_emit_gpu/ for fuzz_emit_gpu.
case $target in
  fuzz_read_validate_write) suffix= ;;
  fuzz_*) suffix=_${target#fuzz_} ;;
  *) echo "campaign.sh: unknown target $target" >&2; exit 2 ;;
esac
kept=$here/corpus$suffix
seeds=$build/tests/fuzz/seeds$suffix
# fuzz_emit_bitcode: its seeds are committed (make_bitcode_seeds.sh), and its
# inputs are bitcode, longer than a SPIR-V module.
max_len=4096
[ -d "$seeds" ] || seeds=$here/seeds$suffix
[ "$target" = fuzz_emit_bitcode ] && max_len=65536
fuzz=$build/tests/fuzz/$target
[ -x "$fuzz" ] || { echo "campaign.sh: build the fuzz target first (ninja -C $build fuzz_targets)" >&2; exit 1; }
work=$build/tests/fuzz/campaign-$target
mkdir -p "$work/corpus" "$build/tests/fuzz/crashes" "$kept"
cp -n "$kept"/* "$work/corpus/" 2>/dev/null || true
# A small ASan quarantine and short malloc stacks: 15-20% more executions
# (fewer fresh pages to fault in), the same findings.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=8:malloc_context_size=2}
args=(-dict="$here/spirv.dict" -max_len=$max_len -artifact_prefix="$build/tests/fuzz/crashes/"
      -max_total_time="$seconds" -print_final_stats=1)
[ "$jobs" -gt 1 ] && args+=(-jobs="$jobs" -workers="$jobs")
(cd "$work" && GAC_FUZZ_STATS=1 "$fuzz" "${args[@]}" corpus "$seeds") 2>&1 | tee "$work/last.log" |
  grep -E "DONE|stat::number_of_executed_units|stat::average_exec_per_sec|gac-fuzz-stats|ERROR|artifact" || true
# Keep only what adds coverage: the smallest set of inputs with all the
# features (-set_cover_merge: half the files of -merge=1 for the same features).
rm -rf "$work/merged" && mkdir "$work/merged"
"$fuzz" -set_cover_merge=1 "$work/merged" "$kept" "$work/corpus" > "$work/merge.log" 2>&1
rm -f "$kept"/*
cp "$work"/merged/* "$kept/"
echo "campaign.sh: $(ls "$kept" | wc -l) inputs kept in ${kept#$here/}"
