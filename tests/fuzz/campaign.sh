#!/usr/bin/env bash
# Continues the fuzzing campaign of fuzz_read_validate_write (README.md):
# runs from the kept corpus (tests/fuzz/corpus) and the seeds, writes new
# inputs to a work copy, then merges what adds coverage back into the kept
# corpus, minimised. Crashes land in BUILD/tests/fuzz/crashes/.
# Usage: tests/fuzz/campaign.sh BUILD_DIR SECONDS [JOBS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:?usage: campaign.sh BUILD_DIR SECONDS [JOBS]}")
seconds=${2:?usage: campaign.sh BUILD_DIR SECONDS [JOBS]}
jobs=${3:-1}
fuzz=$build/tests/fuzz/fuzz_read_validate_write
[ -x "$fuzz" ] || { echo "campaign.sh: build the fuzz target first (ninja -C $build fuzz_targets)" >&2; exit 1; }
work=$build/tests/fuzz/campaign
mkdir -p "$work/corpus" "$build/tests/fuzz/crashes"
cp -n "$here"/corpus/* "$work/corpus/" 2>/dev/null || true
args=(-dict="$here/spirv.dict" -max_len=4096 -artifact_prefix="$build/tests/fuzz/crashes/"
      -max_total_time="$seconds" -print_final_stats=1)
[ "$jobs" -gt 1 ] && args+=(-jobs="$jobs" -workers="$jobs")
(cd "$work" && "$fuzz" "${args[@]}" corpus "$build/tests/fuzz/seeds") 2>&1 | tee "$work/last.log" |
  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|ERROR|artifact" || true
# Keep only what adds coverage.
rm -rf "$work/merged" && mkdir "$work/merged"
"$fuzz" -merge=1 "$work/merged" "$here/corpus" "$work/corpus" > "$work/merge.log" 2>&1
rm -f "$here"/corpus/*
cp "$work"/merged/* "$here/corpus/"
echo "campaign.sh: $(ls "$here/corpus" | wc -l) inputs kept in tests/fuzz/corpus"
