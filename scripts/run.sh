#!/usr/bin/env bash
# The main job, end to end: install what is missing, build, put every example
# module through gac (assemble, validate with the GroupAsyncCopies rules and
# SPIRV-Tools' core rules, print, write back bit-exact, lower with each
# strategy and check the result with spirv-val), pipeline the pipelined
# conformance programs and check their waits, then run the conformance
# kernels on PoCL with each strategy. Prints the tables and a last line
# "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
scripts/install-deps.sh
installed=$SECONDS
build=${GAC_BUILD_DIR:-build-release}
# The default target of a tree without tests: the library, the tools, the
# layer, the harnesses and the kernels this job runs; nothing for GPUs.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" >/dev/null
built=$SECONDS
bin=$build/tools
work=$build/examples
mkdir -p "$work"

passed=0
failed=0
printf '%-20s %-7s %-6s %-10s %-10s %-10s %-9s %-8s %-12s %s\n' example size copies universal opencl1.2 opencl2.0 roundtrip lines cooperative result
for src in examples/*.spvasm; do
  name=$(basename "$src" .spvasm)
  spv=$work/$name.spv
  status=PASS
  check() { if "$@" >>"$work/$name.log" 2>&1; then echo ok; else echo FAIL; fi; }
  if ! "$bin/gac-as" "$src" -o "$spv" 2>"$work/$name.log"; then
    printf '%-28s %s\n' "$name" "FAIL (does not assemble: $(head -1 "$work/$name.log"))"
    failed=$((failed + 1))
    continue
  fi
  copies=$("$bin/gac-opt" --print "$spv" | grep -c 'GroupAsyncCopy[23]D[23]D' || true)
  universal=$(check "$bin/gac-opt" --validate "$spv")
  cl12=$(check "$bin/gac-opt" --validate --target-env=opencl1.2 "$spv")
  cl20=$(check "$bin/gac-opt" --validate --target-env=opencl2.0 "$spv")
  case "$universal $cl12 $cl20" in *FAIL*) status=FAIL ;; esac
  "$bin/gac-opt" "$spv" -o "$work/$name.out.spv"
  "$bin/gac-opt" --print "$spv" | "$bin/gac-as" - -o "$work/$name.text.spv"
  if cmp -s "$spv" "$work/$name.out.spv" && cmp -s "$spv" "$work/$name.text.spv"; then rt=identical; else rt=DIFFERS; status=FAIL; fi
  for strategy in lines cooperative; do
    lowered=$work/$name.$strategy.spv
    result=$(check "$bin/gac-opt" --lower-async-copies=opencl,strategy=$strategy --validate \
      --target-env=opencl1.2 "$spv" -o "$lowered")
    [ "$result" = ok ] && result=$(check spirv-val --target-env opencl1.2 "$lowered")
    [ "$result" = ok ] || status=FAIL
    eval "lowered_$strategy=\$result"
  done
  printf '%-20s %-7s %-6s %-10s %-10s %-10s %-9s %-8s %-12s %s\n' "$name" "$(stat -c %s "$spv")B" "$copies" \
    "$universal" "$cl12" "$cl20" "$rt" "$lowered_lines" "$lowered_cooperative" "$status"
  if [ "$status" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done

# Software pipelining: the pipelined conformance programs (2, 3, 4 stages)
# through --pipeline-loops (schedule pictures next to them) and the checker.
echo
printf '%-14s %-6s %-44s %s\n' program loops check-async result
for s in 2 3 4; do
  name=pipelined-s$s
  log=$work/$name.log
  if "$bin/gac-opt" --pipeline-loops=svg="$work/$name.svg" --check-async \
    "$build/conformance/kernels/$name.raised.spv" -o "$work/$name.spv" 2>"$log"; then status=PASS; else status=FAIL; fi
  loops=$(grep -c 'pipelined the loop' "$log" || true)
  check=$(sed -n 's/.*check-async: \(.*\) \[CheckAsync.Summary\]/\1/p' "$log")
  printf '%-14s %-6s %-44s %s\n' "$name" "$loops" "$check" "$status"
  if [ "$status" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "schedule pictures: $work/pipelined-s*.svg"

# The conformance kernels on PoCL, once per lowering strategy: side by side
# (PoCL compiles each kernel on one core), then the tables in order.
strategies=(lines cooperative)
echo
echo "running the conformance kernels on PoCL: ${strategies[*]}"
for strategy in "${strategies[@]}"; do
  POCL_CACHE_DIR="$build/conformance/pocl-cache-$strategy" POCL_WORK_GROUP_METHOD=loops \
    "$build/conformance/gac-conformance" "$build/conformance/kernels" "$strategy" \
    > "$work/conformance.$strategy.txt" 2>&1 &
done
wait || true
for strategy in "${strategies[@]}"; do
  echo
  out=$work/conformance.$strategy.txt
  echo "conformance on PoCL, strategy $strategy:"
  cat "$out"
  p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out")
  f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out")
  if [ -z "$p" ]; then f=1; p=0; fi
  passed=$((passed + p))
  failed=$((failed + f))
done
echo
echo "time: packages $((installed - start)) s, build $((built - installed)) s, run $((SECONDS - built)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
