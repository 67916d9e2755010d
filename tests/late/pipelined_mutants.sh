#!/usr/bin/env bash
# Mutants of the pipelined kernels (conformance/kernels/pipelined.cl, 3
# stages, matmul and stencil): --pipeline-loops writes the waits, so the
# mutations are made on the pipelined module's text: each AsyncWait made one
# too lax (In Flight N -> N + 1), dropped, or moved after the reads it
# guards (past the first barrier after the first Workgroup load that follows
# it: the reads of the tile it waits for now come first). Each must be caught by
# strategy=late on PoCL (a wrong result, or a report of an access to memory
# in flight) or by --check-async (a violation,
# or more reads it cannot decide than in the original); the original must
# pass both, and late must print a report for every mutant. Then the same mutants of the kernels with a fixed work-group
# size (reqd_work_group_size(16, 16, 1)), at 3 and 4 stages, checker only:
# there the stencil's row pointers are bounded, so the original must be
# proved in full and every mutant violated. Prints the tables; exits 1 if a mutant escapes.
# Usage: pipelined_mutants.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rows="pipelined-s3:"

"$build/tools/gac-cc" -DSTAGES=3 --pipeline-loops "$src/conformance/kernels/pipelined.cl" -o "$work/piped.spv" 2>/dev/null
"$build/tools/gac-opt" --print "$work/piped.spv" > "$work/piped.spvasm"

. "$(dirname "$0")/mutant_lib.sh"

# mutate TEXT K KIND: the K-th AsyncWait made lax (In Flight + 1, through
# the module's own constant of that value), dropped, or moved after its reads.
mutate() {
  python3 - "$@" <<'PY'
import re, sys
text, k, kind = open(sys.argv[1]).read().split('\n'), int(sys.argv[2]), sys.argv[3]
consts = {}
for line in text:
    m = re.match(r'\s*(%\w+) = OpConstant (%\w+) (\d+)$', line)
    if m:
        consts[(m.group(2), int(m.group(3)))] = m.group(1)
values = {v: key for key, v in consts.items()}
waits = [i for i, line in enumerate(text) if ' AsyncWait ' in line]
i = waits[k - 1]
if kind == 'drop':
    del text[i]
elif kind == 'move':
    # Workgroup pointers: their types, then what access chains and casts make of them.
    types = {m.group(1) for m in (re.match(r'\s*(%\w+) = OpTypePointer Workgroup ', l) for l in text) if m}
    ptrs = {m.group(1) for m in (re.match(r'\s*(%\w+) = Op\w*(?:AccessChain|Bitcast) (%\w+) ', l) for l in text)
            if m and m.group(2) in types}
    wait = text.pop(i)
    load = next(j for j in range(i, len(text))
                if re.search(r' = OpLoad %\w+ (%\w+)', text[j]) and
                re.search(r' = OpLoad %\w+ (%\w+)', text[j]).group(1) in ptrs)
    barrier = next(j for j in range(load, len(text)) if 'OpControlBarrier' in text[j])
    text.insert(barrier + 1, wait)
else:
    m = re.search(r'InFlight=(%\w+)', text[i])
    ty, n = values[m.group(1)]
    text[i] = text[i].replace('InFlight=' + m.group(1), 'InFlight=' + consts[(ty, n + 1)])
print('\n'.join(text))
PY
}

# kernel_of TEXT K: the suite's row name of the kernel whose code holds the
# K-th AsyncWait (the entry point that is, or calls, the function holding
# it): a mutant runs that kernel's rows alone, for it changes no other.
kernel_of() {
  python3 - "$@" <<'PY'
import re, sys
text, k = open(sys.argv[1]).read().split('\n'), int(sys.argv[2])
entries = {m.group(1): m.group(2) for m in (re.search(r'OpEntryPoint Kernel (%\w+) "(\w+)"', l) for l in text) if m}
owner, calls, wait, seen = None, {}, None, 0
for line in text:
    m = re.match(r'\s*(%\w+) = OpFunction ', line)
    if m:
        owner = m.group(1)
    m = re.search(r'OpFunctionCall %\w+ (%\w+)', line)
    if m:
        calls.setdefault(m.group(1), set()).add(owner)
    if ' AsyncWait ' in line:
        seen += 1
        if seen == k:
            wait = owner
callers = {wait} | calls.get(wait, set())
names = sorted(entries[f] for f in callers if f in entries)
# The suite names the stencil's rows stencil_tiles.
print({'stencil': 'stencil_tiles'}.get(names[0], names[0]) if len(names) == 1 else '')
PY
}

waits=$(grep -c " AsyncWait " "$work/piped.spvasm")
mutants=("original|0|none")
for k in $(seq 1 "$waits"); do
  mutants+=("wait $k: In Flight one too lax|$k|lax" "wait $k dropped|$k|drop" "wait $k after its reads|$k|move")
done

# Each mutant built, checked and queued for late; then late runs them all in
# one process (mutant_lib.sh) and the table is printed.
status=0 n=0
declare -a verdicts flags coops kernels
for m in "${mutants[@]}"; do
  n=$((n + 1))
  IFS='|' read -r name k kind <<< "$m"
  dir=$work/m$n
  mkdir -p "$dir"
  if [ "$kind" = none ]; then cp "$work/piped.spvasm" "$dir/m.spvasm"; else mutate "$work/piped.spvasm" "$k" "$kind" > "$dir/m.spvasm"; fi
  "$build/tools/gac-as" "$dir/m.spvasm" -o "$dir/m.spv"
  check_verdict "$dir/m.spv"
  [ "$kind" = none ] && base_undecided=$undecided
  flagged=no
  if [ "$violated" -gt 0 ] || [ "$undecided" -gt "${base_undecided:-0}" ]; then flagged=yes; fi
  if [ "$kind" = none ] && [ "$violated" -gt 0 ]; then status=1; fi
  lower_both "$dir/m.spv" "$dir" pipelined-s3 "$([ "$kind" = none ] && echo yes)"
  coops[n]=$(run_cooperative "$dir" "$rows" "$([ "$kind" = none ] && echo yes)")
  kernel=""
  [ "$kind" = none ] || kernel=$(kernel_of "$work/piped.spvasm" "$k")
  queue_late "$dir" "$rows" "$kernel"
  verdicts[n]=$verdict flags[n]=$flagged kernels[n]=$kernel
done
run_queued_late

echo "| mutant (pipelined-s3) | --check-async | checker catches | cooperative on PoCL | late on PoCL (rows) | caught |"
echo "|---|---|---|---|---|---|"
n=0
for m in "${mutants[@]}"; do
  n=$((n + 1))
  IFS='|' read -r name k kind <<< "$m"
  flagged=${flags[n]} coop=${coops[n]}
  late=$(late_verdict "$work/m$n")
  judge "$([ "$kind" = none ] && echo yes)" "$late" "$coop" "$flagged"
  [ "$kind" = none ] && flagged="-"
  echo "| $name | ${verdicts[n]} | $flagged | $coop | $late (${kernels[n]:-all}) | $caught |"
done

# The kernels with a fixed work-group size (the attribute written in, with or
# without the source's own macro for it), at 3 and 4 stages: checker only.
sed -E 's/^kernel (REQD )?void/kernel __attribute__((reqd_work_group_size(16, 16, 1))) void/' \
  "$src/conformance/kernels/pipelined.cl" > "$work/reqd.cl"
for stages in 3 4; do
  "$build/tools/gac-cc" -DSTAGES=$stages --pipeline-loops "$work/reqd.cl" -o "$work/reqd.spv" 2>/dev/null
  "$build/tools/gac-opt" --print "$work/reqd.spv" > "$work/reqd.spvasm"
  echo
  echo "| mutant (pipelined-s$stages, reqd_work_group_size(16, 16, 1)) | --check-async | violated |"
  echo "|---|---|---|"
  checks=("original|0|none")
  for k in $(seq 1 "$(grep -c " AsyncWait " "$work/reqd.spvasm")"); do
    checks+=("wait $k: In Flight one too lax|$k|lax" "wait $k dropped|$k|drop" "wait $k after its reads|$k|move")
  done
  for m in "${checks[@]}"; do
    IFS='|' read -r name k kind <<< "$m"
    if [ "$kind" = none ]; then cp "$work/reqd.spvasm" "$work/r.spvasm"; else mutate "$work/reqd.spvasm" "$k" "$kind" > "$work/r.spvasm"; fi
    "$build/tools/gac-as" "$work/r.spvasm" -o "$work/r.spv"
    check_verdict "$work/r.spv"
    if [ "$kind" = none ]; then
      ok="-"
      if [ "$violated" -gt 0 ] || [ "$undecided" -gt 0 ]; then status=1; fi
    elif [ "$violated" -gt 0 ]; then ok=yes; else ok=no status=1; fi
    echo "| $name | $verdict | $ok |"
  done
done
exit $status
