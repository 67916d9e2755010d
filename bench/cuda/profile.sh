#!/usr/bin/env bash
# profile.sh PTX_DIR BENCH OUT_DIR: why the compute benchmark's numbers
# (bench/cuda/compute.cu) are what they are, on the GPU machine.
#  1. SASS: each gac PTX through ptxas (-arch=sm_90, and sm_80 for the sm_80
#     PTX) and cuobjdump; the hand-written kernels from BENCH, the built
#     gac-bench-compute. Per kernel: registers, SASS instructions, and the
#     hot loop (sass_loops.awk): its size and opcode histogram.
#  2. Nsight Compute, where ncu is there and may read the counters: one
#     launch per kernel (BENCH --profile: SGEMM n = 2048, stencil n = 4096),
#     throughput, occupancy and warp stall reasons.
# The driver JIT-compiles the PTX with its own ptxas, which may differ from
# the toolkit's used here. Raw outputs stay in OUT_DIR: gac.sass and
# hand.sass (resource usage and SASS), sass-analysis.txt, ncu-run.txt,
# ncu.csv, ncu.ncu-rep.
set -uo pipefail
ptx=$1 bench=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
export PATH="$cuda/bin:$PATH"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# analyse LABEL KEY ONLY RES SASS
analyse() {
  awk -v label="$1" -v key="$2" -v only="$3" -f "$here/sass_loops.awk" "$4" "$5" | tee -a "$out/sass-analysis.txt" |
    grep -v '^SASS '
}

echo "== SASS: registers, instructions, hot loop (sgemm: the innermost loop with FFMA; stencil: with STG)"
: > "$out/sass-analysis.txt"
: > "$out/gac.sass"
if ! command -v cuobjdump > /dev/null || ! command -v ptxas > /dev/null; then
  echo "cuobjdump or ptxas not found: no SASS"
else
  echo "($(ptxas --version | tail -n 1))"
  cuobjdump -res-usage "$bench" > "$tmp/hand.res" 2>&1
  cuobjdump -sass "$bench" > "$tmp/hand.sass" 2>&1
  cat "$tmp/hand.res" "$tmp/hand.sass" > "$out/hand.sass"
  for kernel in sgemm sgemm_fast stencil; do
    key=FFMA
    [ $kernel = stencil ] && key=STG
    for sm in 80 90; do
      variants="unpipelined pipelined"
      [ $sm = 90 ] && variants="$variants ws pipelined.occ" # warp-specialised, --ptx-occupancy: sm_90 only
      for variant in $variants; do
        archs=90
        [ $sm = 80 ] && archs="80 90"
        for arch in $archs; do
          f=$tmp/$kernel.$variant.sm$sm.on-sm_$arch
          if ptxas -arch=sm_$arch "$ptx/$kernel.$variant.sm$sm.ptx" -o "$f.cubin" &&
            cuobjdump -res-usage "$f.cubin" > "$f.res" && cuobjdump -sass "$f.cubin" > "$f.sass"; then
            analyse "$kernel gac-sm$sm-$variant [sm_$arch]" $key "^$kernel\$" "$f.res" "$f.sass"
            { echo "#### $kernel gac-sm$sm-$variant [sm_$arch]"; cat "$f.res" "$f.sass"; } >> "$out/gac.sass"
          else
            echo "$kernel gac-sm$sm-$variant [sm_$arch]: ptxas or cuobjdump failed"
          fi
        done
      done
    done
    analyse "$kernel hand-unpipelined [sm_90]" $key "hand_${kernel}ILi1E" "$tmp/hand.res" "$tmp/hand.sass"
    analyse "$kernel hand-cp.async-3-stage [sm_90]" $key "hand_${kernel}ILi3E(Lb0E)?E" "$tmp/hand.res" "$tmp/hand.sass"
    analyse "$kernel hand-warp-specialised [sm_90]" $key "hand_${kernel}ILi3ELb1E" "$tmp/hand.res" "$tmp/hand.sass"
  done
  # One table of the hot loops: a column counts the opcodes of its name with
  # any modifiers (LDS counts LDS and LDS.128), except IMAD (IMAD.WIDE apart).
  echo
  echo "== hot loop summary (static instruction counts in the loop; total = whole kernel)"
  awk '
    BEGIN {
      nc = split("FFMA FADD FMUL LDS LDG LDGSTS STS STG BAR SYNCS UBLKCP IMAD IMAD.WIDE IADD3 LEA ISETP BRA", col, " ")
      printf "%-46s %4s %5s %4s", "kernel [arch]", "regs", "total", "loop"
      for (c = 1; c <= nc; c++)
        printf(" %" (length(col[c]) < 4 ? 4 : length(col[c])) "s", col[c])
      printf "\n"
    }
    /^SASS / {
      sub(/^SASS /, "")
      split($0, parts, "|")
      name = parts[1]
      n = split(parts[2], f, " ")
      split("", v)
      for (i = 2; i <= n; i++) {
        eq = index(f[i], "=")
        v[substr(f[i], 1, eq - 1)] = substr(f[i], eq + 1)
      }
      printf "%-46s %4s %5s %4s", name, v["regs"], v["total"], v["loop"]
      for (c = 1; c <= nc; c++) {
        s = 0
        for (k in v)
          if (k == col[c] || (col[c] != "IMAD" && index(k, col[c] ".") == 1))
            s += v[k]
        printf(" %" (length(col[c]) < 4 ? 4 : length(col[c])) "d", s)
      }
      printf "\n"
    }' "$out/sass-analysis.txt"
fi

echo
echo "== Nsight Compute (one launch per kernel; sgemm n=2048, stencil n=4096)"
ncu=$(command -v ncu || ls "$cuda"/bin/ncu /opt/nvidia/nsight-compute/*/ncu "$cuda"/nsight-compute*/ncu 2> /dev/null | head -n 1)
# short name = metric
metrics="time=gpu__time_duration.sum
sm%=sm__throughput.avg.pct_of_peak_sustained_elapsed
dram%=dram__throughput.avg.pct_of_peak_sustained_elapsed
occ%=sm__warps_active.avg.pct_of_peak_sustained_active
issue%=smsp__issue_active.avg.pct_of_peak_sustained_active
fma%=sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
inst=smsp__inst_executed.sum
bankc=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
longsb=smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
barrier=smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
shortsb=smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
mio=smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
lgthr=smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
wait=smsp__average_warps_issue_stalled_wait_per_issue_active.ratio"
if [ -z "$ncu" ]; then
  echo "ncu not found: no Nsight Compute metrics"
  exit 0
fi
list=$(echo "$metrics" | sed 's/^[^=]*=//' | paste -sd, -)
rm -f "$out/ncu.ncu-rep"
timeout 120 "$ncu" --clock-control none --profile-from-start off --metrics "$list" -f -o "$out/ncu" \
  "$bench" "$ptx" --profile > "$out/ncu-run.txt" 2>&1
rc=$?
if [ ! -s "$out/ncu.ncu-rep" ]; then
  echo "ncu gave no report (exit $rc; 124: timed out); its last words:"
  grep -E "ERR|rror|WARN" "$out/ncu-run.txt" | head -n 5
  tail -n 3 "$out/ncu-run.txt"
  exit 0
fi
grep -E "^(FAIL|all results)" "$out/ncu-run.txt"
# Mangled names tell the hand-written kernels' template arguments apart.
"$ncu" -i "$out/ncu.ncu-rep" --csv --page raw --print-kernel-base mangled > "$out/ncu.csv" 2>> "$out/ncu-run.txt" ||
  "$ncu" -i "$out/ncu.ncu-rep" --csv --page raw > "$out/ncu.csv" 2>> "$out/ncu-run.txt"
echo "stalls: warps stalled for the reason per issued instruction; bankc: shared-load bank conflicts;"
echo "inst: warp instructions executed; time in the unit shown in its header"
# ncu's CSV quotes every field: split on "," (values may hold commas).
echo "$metrics" | awk -v csv="$out/ncu.csv" '
  { eq = index($0, "="); short[++nm] = substr($0, 1, eq - 1); name[nm] = substr($0, eq + 1) }
  function fields(line, a,    n) {
    sub(/^"/, "", line); sub(/"[ \t\r]*$/, "", line)
    return split(line, a, "\",\"")
  }
  END {
    split("gac-sm80-unpipelined gac-sm80-pipelined gac-sm90-unpipelined gac-sm90-pipelined gac-sm90-ws gac-sm90-occupancy", gac, " ")
    while ((getline line < csv) > 0) {
      n = fields(line, a)
      if (a[1] == "ID") {
        for (i = 1; i <= n; i++) col[a[i]] = i
        continue
      }
      if (!("ID" in col))
        continue
      if (a[1] == "") { # the units row
        for (m = 1; m <= nm; m++)
          if (name[m] in col) unit[m] = a[col[name[m]]]
        printf "%-30s", "kernel"
        for (m = 1; m <= nm; m++)
          printf " %9s", short[m] (m == 1 && unit[1] != "" ? "(" substr(unit[1], 1, 2) ")" : "")
        printf "\n"
        continue
      }
      k = a[col["Kernel Name"]]
      # Launch order (compute.cu --profile): cuBLAS, gac x6, hand x3; then the stencil.
      # (sgemm_noreqd runs the kernel sgemm again: its variants follow the first six.)
      hand = k ~ /hand_sgemm_fast/ ? "sgemm_fast" : k ~ /hand_sgemm/ ? "sgemm" : "stencil"
      if (k == "sgemm" || k == "stencil" || k == "sgemm_fast")
        label = k " " gac[(seen[k]++ % 6) + 1]
      else if (k ~ /hand_(sgemm|sgemm_fast|stencil)(ILi1E|<1,)/)
        label = hand " hand-unpipelined"
      else if (k ~ /hand_(sgemm|sgemm_fast|stencil)(ILi3E(Lb0E)?|<3, false>|<3>)/ && k !~ /Lb1E|true/)
        label = hand " hand-cp.async-3-stage"
      else if (k ~ /hand_(sgemm|stencil)(ILi3ELb1E|<3, true>)/)
        label = hand " hand-warp-specialised"
      else
        label = "sgemm cuBLAS"
      printf "%-30s", label
      for (m = 1; m <= nm; m++) {
        v = (name[m] in col) ? a[col[name[m]]] : "n/a"
        gsub(/,/, "", v)
        if (v ~ /^[0-9.]+$/)
          v = sprintf(v + 0 >= 100 ? "%.0f" : v + 0 >= 1 ? "%.2f" : "%.4f", v)
        printf " %9s", v
      }
      printf "\n"
      if (label ~ /cuBLAS/)
        printf "  (%s)\n", k
    }
  }'
