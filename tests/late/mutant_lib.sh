# What mutants.sh and pipelined_mutants.sh share (sourced; they set build,
# work and n): building a mutant for both strategies, running its rows on
# PoCL, and the checker's verdict.

# python3 is the interpreter itself, found once: a version manager's shim
# (pyenv's) costs 0.4 s of CPU a start, and these scripts start it per mutant.
GAC_PYTHON=$(python3 -c 'import sys; print(sys.executable)')
python3() { "$GAC_PYTHON" "$@"; }

# check_verdict SPV: sets verdict ("P proved, V violated, U cannot decide"),
# violated and undecided from gac-opt --check-async.
check_verdict() {
  local check
  check=$("$build/tools/gac-opt" --check-async "$1" 2>&1 || true)
  verdict=$(grep -o "[0-9]* proved, [0-9]* violated, [0-9]* cannot decide" <<< "$check" | tail -1)
  violated=$(sed -E 's/.* ([0-9]+) violated.*/\1/' <<< "$verdict")
  undecided=$(sed -E 's/.* ([0-9]+) cannot decide.*/\1/' <<< "$verdict")
}

# lower_both SPV DIR PROGRAM [ORIGINAL]: DIR/PROGRAM.late.bc for
# gac-conformance, and DIR/PROGRAM.cooperative.bc where run_cooperative runs
# it (ORIGINAL "yes", or GAC_MUTANTS_COOPERATIVE=1).
lower_both() {
  local strategy strategies=late
  if [ "${4:-}" = yes ] || [ "${GAC_MUTANTS_COOPERATIVE:-0}" = 1 ]; then strategies="cooperative late"; fi
  for strategy in $strategies; do
    "$build/tools/gac-opt" --lower-async-copies=opencl,strategy=$strategy "$1" -o "$2/$strategy.spv"
    llvm-spirv-15 -r --spirv-target-env=CL1.2 "$2/$strategy.spv" -o "$2/$3.$strategy.bc"
  done
}

# run_cooperative DIR ROWS ORIGINAL: the cooperative column. The original
# must pass there; for a mutant it only shows that the default lowering
# hides the bug on PoCL (it always has), at a PoCL compile per mutant (half
# of these tests' time), so it runs with GAC_MUTANTS_COOPERATIVE=1 only.
run_cooperative() {
  if [ "$3" = yes ] || [ "${GAC_MUTANTS_COOPERATIVE:-0}" = 1 ]; then
    run_rows "$1" cooperative "$2"
  else
    echo "not run"
  fi
}

# verdict_of OUT DIR: PASS or FAIL for the suite's rows in the output OUT,
# with ", reported" when late's runtime printed an access to memory in
# flight ("gac late: ..."; the first such line goes to DIR/report.txt).
verdict_of() {
  local result
  if grep -q " FAIL " <<< "$1" || ! grep -q " PASS " <<< "$1"; then result=FAIL; else result=PASS; fi
  if grep -q "^gac late: " <<< "$1"; then
    result="$result, reported"
    grep -m1 "^gac late: " <<< "$1" > "$2/report.txt"
  fi
  echo "$result"
}

# run_rows DIR STRATEGY ROWS [KERNEL]: verdict_of the suite's rows that match
# ROWS (and are KERNEL's rows, where given), in a process of their own.
run_rows() {
  local out
  out=$(cd "$work" && POCL_CACHE_DIR="$work/pocl-$2-$n" POCL_WORK_GROUP_METHOD=loops GAC_CONFORMANCE_ONLY="$3" GAC_CONFORMANCE_KERNEL="${4:-}" \
        "${GAC_CONFORMANCE:-$build/conformance/gac-conformance}" "$1" "$2" 2>&1) || true
  verdict_of "$out" "$1"
}

# queue_late DIR ROWS [KERNEL], then run_queued_late, then late_verdict DIR:
# run_rows DIR late ROWS KERNEL for every queued mutant in one process
# (gac-conformance --each), since PoCL reads its kernel library once per
# process, a second of CPU per mutant otherwise. A crash there leaves the
# mutants after it with no PASS and no report: the test fails.
queue_late() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >> "$work/late-jobs.txt"; }
run_queued_late() {
  (cd "$work" && POCL_CACHE_DIR="$work/pocl-late" POCL_WORK_GROUP_METHOD=loops \
    "${GAC_CONFORMANCE:-$build/conformance/gac-conformance}" --each "$work/late-jobs.txt" late > "$work/late-all.out" 2>&1) || true
  # Each job's output, from its "== DIR" line to the next, to DIR/late.out.
  awk '/^== /{out = substr($0, 4) "/late.out"; printf "" > out; next} out {print >> out}' "$work/late-all.out"
  rm -f "$work/late-jobs.txt"
}
late_verdict() { verdict_of "$(cat "$1/late.out" 2> /dev/null)" "$1"; }

# judge ORIGINAL LATE COOP FLAGGED: caught ("-" for the original, ORIGINAL
# "yes"), and status=1 where the original fails on PoCL, or a mutant escapes
# both late and the checker, or late does not report it.
judge() {
  if [ "$1" = yes ]; then
    caught="-"
    if [ "$3" != PASS ] || [ "$2" != PASS ]; then status=1; fi
    return 0
  fi
  caught=no
  if [ "$2" != PASS ] || [ "$4" = yes ]; then caught=yes; else status=1; fi
  [[ "$2" == *reported ]] || status=1
}
