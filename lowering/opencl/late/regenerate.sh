#!/usr/bin/env bash
# Compiles late_runtime.cl into late_runtime.spvasm, the text libgac embeds
# (libgac cannot build it itself: gac-cc links libgac). The lit test
# tests/lit/lowering/opencl/late-runtime-current.test fails when the two differ.
# Usage: lowering/opencl/late/regenerate.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: regenerate.sh BUILD_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tools/gac-cc" -cl-std=CL1.2 "$here/late_runtime.cl" -o "$tmp/runtime.spv"
"$build/tools/gac-opt" --print "$tmp/runtime.spv" > "$here/late_runtime.spvasm"
