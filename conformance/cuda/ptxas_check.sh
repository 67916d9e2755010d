#!/usr/bin/env bash
# ptxas_check.sh PTXAS ARCH EXPECTED FILE...: every PTX module must pass
# `ptxas -arch=ARCH`; EXPECTED is how many files there must be (so that a
# build that made none cannot pass). Exit 77 (skipped) without ptxas.
set -uo pipefail
ptxas=$1 arch=$2 expected=$3
shift 3
if [ -z "$ptxas" ] || [ ! -x "$ptxas" ]; then
  echo "SKIP: ptxas not found (CUDA toolkit at /usr/local/cuda/bin); PTX not checked"
  exit 77
fi
if [ $# -ne "$expected" ]; then
  echo "FAIL: $# PTX files, expected $expected"
  exit 1
fi
failed=0
for f in "$@"; do
  if "$ptxas" -arch="$arch" "$f" -o /dev/null; then
    echo "ok   ptxas -arch=$arch $(basename "$f")"
  else
    echo "FAIL ptxas -arch=$arch $(basename "$f")"
    failed=$((failed + 1))
  fi
done
echo "$(($# - failed)) passed, $failed failed"
[ $failed -eq 0 ]
