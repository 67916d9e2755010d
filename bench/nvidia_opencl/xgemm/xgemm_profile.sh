#!/usr/bin/env bash
# xgemm_profile.sh OUT_DIR PTX...: on the GPU machine, CLBlast's Xgemm from
# gac's PTX for the CUDA driver (gac-cc --emit=ptx, made here, e.g. with and
# without --ptx-keep-tile-loads, or the 2D-copy source pipelined) through
# xgemm_cuda.c, timed and checked, then one launch of each under Nsight
# Compute (which profiles CUDA launches, not NVIDIA's OpenCL ones): shared
# memory and FMA pipes, issue, and warp stalls per issued instruction.
# OUT_DIR/ncu-<name>.csv keeps each report (docs/VENDOR.md, "Xgemm";
# figures: docs/results/VENDOR.md, "Where Xgemm's time goes").
set -uo pipefail
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out"
support=$here/../../../support
gcc -std=c17 -O2 -Wall -I"$cuda/include" -I"$support" "$here/xgemm_cuda.c" "$support/subprocess.c" \
  -L"$cuda/lib64/stubs" -lcuda -lm -o "$out/xgemm-cuda" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$out/xgemm-cuda" "$@" || status=1
ncu=$(command -v ncu || ls "$cuda"/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | head -n 1)
[ -n "$ncu" ] || { echo "ncu not found"; exit 0; }
stall=smsp__average_warps_issue_stalled
m="gpu__time_duration.sum,l1tex__throughput.avg.pct_of_peak_sustained_active"
m="$m,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
m="$m,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active"
m="$m,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum"
for s in short_scoreboard long_scoreboard barrier mio_throttle not_selected dispatch_stall wait; do
  m="$m,${stall}_${s}_per_issue_active.ratio"
done
for ptx in "$@"; do
  name=$(basename "$ptx" .ptx)
  # the third launch of the five: caches and clocks as in the timed runs
  timeout 120 "$ncu" --clock-control none --launch-skip 2 --launch-count 1 --metrics "$m" --csv "$out/xgemm-cuda" "$ptx" \
    > "$out/ncu-$name.csv" 2>&1
  echo "== $name (ncu exit $?)"
  awk -F'","' 'NF > 10 && $13 != "Metric Name" { gsub(/"/, "", $15); sub(/smsp__average_warps_issue_stalled_/, "stall ", $13);
    sub(/_per_issue_active.ratio/, "", $13); printf "  %-60s %s %s\n", $13, $15, $14 }' "$out/ncu-$name.csv"
done
rm -f "$out/xgemm-cuda"
exit ${status:-0}
