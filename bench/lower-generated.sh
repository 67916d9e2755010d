#!/bin/sh
# Times gac-opt's OpenCL lowering of a generated module against spirv-opt's
# round trip of the same file, in one run: every variant once per round,
# rounds interleaved (load from elsewhere falls on all alike), the first
# round a warm-up; medians of wall seconds and peak RSS (/usr/bin/time),
# and the output's size.
# Usage: lower-generated.sh MODULE ROUNDS SPIRV_OPT VARIANT...
#   VARIANT: LABEL=GAC_OPT[:PASS_ARG[:FLAGS]], e.g.
#   new=build/tools/gac-opt:opencl,helpers=never:--skip-validation
#   (PASS_ARG defaults to opencl; FLAGS, words for gac-opt, to none: the
#   input is then validated first, core rules included, as gac-opt does).
set -eu
if [ $# -lt 4 ]; then
  echo "usage: $0 MODULE ROUNDS SPIRV_OPT LABEL=GAC_OPT[:PASS_ARG]..." >&2
  exit 2
fi
module=$1 rounds=$2 spirv_opt=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME CMD...: one timed run, "wall_s rss_kib" appended to $work/NAME.
run() {
  name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null
  cat "$work/time" >> "$work/$name"
}

r=0
while [ $r -le "$rounds" ]; do
  run spirv-opt "$spirv_opt" --skip-validation "$module" -o "$work/spirv-opt.spv"
  for v in "$@"; do
    label=${v%%=*} rest=${v#*=}
    gac_opt=${rest%%:*} arg=opencl flags=
    case $rest in *:*) arg=${rest#*:} ;; esac
    case $arg in *:*) flags=${arg#*:} arg=${arg%%:*} ;; esac
    # shellcheck disable=SC2086 # flags are words
    run "$label" "$gac_opt" $flags "--lower-async-copies=$arg" "$module" -o "$work/$label.spv"
  done
  if [ $r -eq 0 ]; then # the warm-up round does not count
    rm -f "$work/spirv-opt"
    for v in "$@"; do rm -f "$work/${v%%=*}"; done
  fi
  r=$((r + 1))
done

# median COLUMN FILE
median() { cut -d' ' -f"$1" "$2" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
in_bytes=$(stat -c %s "$module")
base_s=$(median 1 "$work/spirv-opt") base_kib=$(median 2 "$work/spirv-opt")
printf '%s: %s bytes; medians of %s rounds\n\n' "$module" "$in_bytes" "$rounds"
printf '| variant | wall s | / spirv-opt | peak RSS MiB | / spirv-opt | output MB | / input |\n'
printf '|---|---:|---:|---:|---:|---:|---:|\n'
for name in spirv-opt $(for v in "$@"; do echo "${v%%=*}"; done); do
  s=$(median 1 "$work/$name") kib=$(median 2 "$work/$name") out=$(stat -c %s "$work/$name.spv")
  awk -v n="$name" -v s="$s" -v k="$kib" -v o="$out" -v bs="$base_s" -v bk="$base_kib" -v i="$in_bytes" 'BEGIN {
    printf "| %s | %.2f | %.2fx | %.0f | %.2fx | %.1f | %.2fx |\n", n, s, s / bs, k / 1024, k / bk, o / 1e6, o / i }'
done
