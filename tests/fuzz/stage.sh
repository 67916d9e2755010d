#!/usr/bin/env bash
# Stages fuzz campaigns for a machine where nothing is installed (the GPU
# machine's 16 cores, say): the targets built without LLVM (they need only
# glibc 2.34 or later and libstdc++), their seeds, the kept corpora and the
# dictionary, into STAGE_DIR (about 25 MB).
# device_campaign.sh runs them there.
# Usage: tests/fuzz/stage.sh BUILD_DIR STAGE_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:?usage: stage.sh BUILD_DIR STAGE_DIR}")
stage=${2:?usage: stage.sh BUILD_DIR STAGE_DIR}
rm -rf "$stage" && mkdir -p "$stage"
for target in fuzz_read_validate_write fuzz_lower_gpu; do
  case $target in fuzz_read_validate_write) suffix= ;; *) suffix=_${target#fuzz_} ;; esac
  cp "$build/tests/fuzz/$target" "$stage/"
  cp -r "$build/tests/fuzz/seeds$suffix" "$stage/seeds$suffix"
  cp -r "$here/corpus$suffix" "$stage/corpus$suffix"
done
cp "$here/spirv.dict" "$here/device_campaign.sh" "$stage/"
du -sh "$stage"
